/**
 * Line edits: what a mechanical fix of a finding proposes, shown before it is applied (the VS Code
 * quick fixes). Pure: text in, edits out; nothing here reads or writes a file, so a fix is computed
 * against the text the user sees, and applied (and undone) by the editor.
 */
import { t, type Msg } from '../model/messages';
import type { Check } from '../model/model';

/** The mechanical fixes a finding can offer; what each edits is computed by its system's home or the write action it names. */
export type FixKind =
  | 'timestamp'
  | 'branch-head'
  | 'attest'
  | 'compact'
  | 'rotate-log'
  | 'delete-stale-line'
  | 'delete-done'
  | 'enable-ledger';

/** A fix a finding offers, with its title (a message id the editor translates). */
export interface FixOffer {
  kind: FixKind;
  title: Msg;
  /** The button that confirms the fix, when it asks first (its title is then the question). */
  confirm?: Msg;
}

/** Where a finding sits: its check, whether it is on the system's home file, whether it is on the check's own file and line. */
export interface FixPlace {
  check: Check;
  /** The finding's file (relative to the root). */
  path: string;
  onHome: boolean;
  onCheckLine: boolean;
}

/** The fix every system shares: a line naming a path that does not exist is deleted. */
export function sharedFixOffers(p: FixPlace): FixOffer[] {
  return p.check.id === 'stale-paths' && p.onCheckLine
    ? [{ kind: 'delete-stale-line', title: t('Delete this line (the path does not exist)') }]
    : [];
}

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
  for (const e of [...edits].sort((a, b) => b.line - a.line))
    lines.splice(e.line - 1, e.endLine - e.line + 1, ...e.lines);
  return lines.join('\n');
}
