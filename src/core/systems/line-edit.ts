/**
 * Line edits: what a mechanical fix of a finding proposes, shown before it is applied (the VS Code
 * quick fixes). Pure: text in, edits out; nothing here reads or writes a file, so a fix is computed
 * against the text the user sees, and applied (and undone) by the editor.
 */
/** Replace lines `line`..`endLine` (1-based, inclusive) with `lines`; an empty `lines` deletes them. */
export interface LineEdit {
  line: number;
  endLine: number;
  lines: string[];
}

/** The lines of a text, without their `\r`. */
export function linesOf(text: string): string[] {
  return text.split('\n').map((l) => l.replace(/\r$/, ''));
}

/** Delete lines `line`..`endLine` (a stale path line, a finished item, a done section). */
export function deleteLines(line: number, endLine = line): LineEdit {
  return { line, endLine: Math.max(line, endLine), lines: [] };
}

/** Apply edits to a text (for previews and tests): edits must not overlap. */
export function applyLineEdits(text: string, edits: readonly LineEdit[]): string {
  const lines = text.split('\n');
  for (const e of [...edits].sort((a, b) => b.line - a.line)) lines.splice(e.line - 1, e.endLine - e.line + 1, ...e.lines);
  return lines.join('\n');
}
