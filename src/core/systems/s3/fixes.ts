/** S3's mechanical fixes: the handoff's Branch / HEAD set from git; an over-budget STATE.md's Log rotated (`rotate-log.ts`). */
import { t } from '../../model/messages';
import { parseMarkdown } from '../../markdown/markdown';
import { linesOf, type FixOffer, type FixPlace, type LineEdit } from '../line-edit';
import { S3_GAP } from './gaps';

/**
 * The fixes S3's findings offer: Branch / HEAD from git (on `branch-head`, and on the template's finding
 * that says Branch / HEAD is not filled in, which is reported in its stead); over budget, the oldest Log
 * entries moved to the monthly archive.
 */
export function fixOffersS3(p: FixPlace): FixOffer[] {
  const branchHead =
    p.check.id === 'branch-head' ||
    (p.check.id === 'template' && !!p.check.gaps?.some((g) => g === S3_GAP.branch || g === S3_GAP.head));
  if (branchHead && p.onHome && p.check.line)
    return [{ kind: 'branch-head', title: t('Update Branch / HEAD from git') }];
  if (p.check.id === 'budget' && p.onHome)
    return [{ kind: 'rotate-log', title: t('Rotate the Log: move the oldest entries to docs/state/log/ (preview)…') }];
  return [];
}
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
