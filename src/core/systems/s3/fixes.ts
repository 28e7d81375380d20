/** S3's mechanical fixes: the handoff's Branch / HEAD set from git. */
import { parseMarkdown } from '../../markdown/markdown';
import { linesOf, type LineEdit } from '../line-edit';
import { parseBranchHead, readS3Structure, type S3Field } from './reader-state';

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
