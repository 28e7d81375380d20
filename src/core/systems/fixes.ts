/**
 * Mechanical fixes of single findings, as line edits a caller shows before applying them (the
 * VS Code quick fixes). Pure: text in, edits out; nothing here reads or writes a file, so a fix is
 * computed against the text the user sees, and applied (and undone) by the editor.
 */
import { parseMarkdown } from '../markdown/markdown';
import { parseBranchHead, readS3Structure, type S3Field } from './s3/reader-state';

/** Replace lines `line`..`endLine` (1-based, inclusive) with `lines`; an empty `lines` deletes them. */
export interface LineEdit {
  line: number;
  endLine: number;
  lines: string[];
}

function linesOf(text: string): string[] {
  return text.split('\n').map((l) => l.replace(/\r$/, ''));
}

// A `_Last updated: <value>_` line: what comes before the value, the value, what follows it.
const TIMESTAMP_RE = /^(\s*(?:[-*]\s+)?[_*]{0,2}(?:last updated|updated)[_*]{0,2}\s*[:：](?:\*\*|__)?\s*)(.*?)([_*]*\s*)$/iu;

/**
 * S0's `_Last updated:` set to `now` (an ISO time): the value on `line` is replaced and the rest of
 * the line kept; without such a line, `_Last updated: <now>_` goes under the title (or first).
 */
export function timestampFix(text: string, line: number, now: string): LineEdit {
  const lines = linesOf(text);
  const at = lines[line - 1];
  const m = at === undefined ? null : TIMESTAMP_RE.exec(at);
  if (m) return { line, endLine: line, lines: [`${m[1]}${now}${m[3] || (m[1].trimStart().startsWith('_') ? '_' : '')}`] };
  const title = lines.findIndex((l) => /^#\s/.test(l));
  if (title >= 0) return { line: title + 1, endLine: title + 1, lines: [lines[title], '', `_Last updated: ${now}_`] };
  return { line: 1, endLine: 1, lines: [`_Last updated: ${now}_`, '', lines[0] ?? ''] };
}

/** Replace the first whole-token occurrence of `from` in `s` (after `start`) by `to`. */
function replaceToken(s: string, start: number, from: string, to: string): string {
  const esc = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(^|[^\\w./-])${esc}(?=$|[^\\w./-])`, 'g');
  re.lastIndex = start;
  const m = re.exec(s);
  if (!m) return s;
  const at = m.index + m[1].length;
  return s.slice(0, at) + to + s.slice(at + from.length);
}

/**
 * S3's Branch / HEAD set from git: in the handoff's `Branch / HEAD` (or separate `Branch`, `HEAD`)
 * lines the written branch name and commit are replaced by git's, the commit at the written length
 * (at least 7); everything else on the line stays. No edit when nothing differs or nothing is written.
 */
export function branchHeadFix(text: string, git: { branch: string | null; head: string | null }): LineEdit[] {
  const s = readS3Structure(parseMarkdown(text));
  const lines = linesOf(text);
  const out: LineEdit[] = [];
  const fields = s.fields.filter((f) => f.name === 'branchHead' || f.name === 'branch' || f.name === 'head');
  for (const f of fields) {
    const before = lines[f.line - 1];
    if (before === undefined) continue;
    const after = fixField(before, f, git);
    if (after !== before) out.push({ line: f.line, endLine: f.line, lines: [after] });
  }
  return out;
}

function fixField(line: string, f: S3Field, git: { branch: string | null; head: string | null }): string {
  const written = parseBranchHead(f.value);
  // Edit only after the label, so a branch called "head" or "branch" cannot hit the label itself.
  const labelAt = line.toLowerCase().indexOf(f.label.toLowerCase());
  let start = labelAt < 0 ? 0 : labelAt + f.label.length;
  let out = line;
  if (f.name !== 'branch' && written.head && git.head && !git.head.startsWith(written.head)) {
    out = replaceToken(out, start, written.head, git.head.slice(0, Math.max(7, written.head.length)));
  }
  if (f.name !== 'head' && written.branch && git.branch && written.branch !== git.branch) {
    start = labelAt < 0 ? 0 : labelAt + f.label.length;
    out = replaceToken(out, start, written.branch, git.branch);
  }
  return out;
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
