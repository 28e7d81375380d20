/** S3's mechanical fixes: the handoff's Branch / HEAD set from git; an over-budget STATE.md's Log rotated (`rotate-log.ts`). */
import { t } from '../../model/messages';
import { parseMarkdown } from '../../markdown/markdown';
import { isPlaceholder } from '../../markdown/text';
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
 * (at least 7); everything else on the line stays. A value that is still template text (`TBD`,
 * `<branch> @ <sha>`, empty) becomes git's (`main @ 3f9c2e1`), a comment after it kept; a `Branch / HEAD`
 * that names the branch but no commit gets git's commit after the branch. No edit when nothing differs.
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

/** The shortest commit a fix writes (git's own short form). */
const SHORT_HEAD = 7;

/** What the field says by git: `main @ 3f9c2e1` for `Branch / HEAD`, the branch or the commit alone for the split fields. */
function gitValue(f: S3Field, git: { branch: string | null; head: string | null }): string | null {
  const head = git.head ? git.head.slice(0, SHORT_HEAD) : null;
  if (f.name === 'branch') return git.branch;
  if (f.name === 'head') return head;
  if (git.branch && head) return `${git.branch} @ ${head}`;
  return git.branch ?? head;
}

/**
 * A field whose value is still template text, with git's value in the template's place: after the
 * label and its markup (`**`, the colon), before a comment that follows it.
 */
function fillTemplate(line: string, start: number, f: S3Field, value: string): string {
  const at = f.value ? line.indexOf(f.value, start) : start + (/^[\s*_:：]*/.exec(line.slice(start))?.[0].length ?? 0);
  if (at < 0) return line;
  const before = line.slice(0, at).replace(/\s*$/, ' ');
  const after = line.slice(at + f.value.length).replace(/^\s*/, '');
  return `${before}${value}${after ? ` ${after}` : ''}`;
}

function fixField(line: string, f: S3Field, git: { branch: string | null; head: string | null }): string {
  // Edit only after the label, so a branch called "head" or "branch" cannot hit the label itself.
  const labelAt = line.toLowerCase().indexOf(f.label.toLowerCase());
  let start = labelAt < 0 ? 0 : labelAt + f.label.length;
  // Template text: a placeholder, or a value that still holds one (`<branch>` @ `<sha>`).
  if (isPlaceholder(f.value) || /<[^<>\s]+>/.test(f.value)) {
    const value = gitValue(f, git);
    return value ? fillTemplate(line, start, f, value) : line;
  }
  const written = parseBranchHead(f.value);
  let out = line;
  if (f.name !== 'branch' && written.head && git.head && !git.head.startsWith(written.head)) {
    out = replaceToken(out, start, written.head, git.head.slice(0, Math.max(SHORT_HEAD, written.head.length)));
  }
  start = labelAt < 0 ? 0 : labelAt + f.label.length;
  if (f.name !== 'head' && written.branch && git.branch && written.branch !== git.branch) {
    out = replaceToken(out, start, written.branch, git.branch);
  }
  // The branch without its commit: git's commit right after the branch (after its closing backtick).
  const branch = git.branch ?? written.branch;
  if (f.name === 'branchHead' && !written.head && git.head && branch)
    out = afterToken(out, start, branch, ` @ ${git.head.slice(0, SHORT_HEAD)}`);
  return out;
}

/** `add` inserted after the first whole-token `token` in `s` (after `start`) and a backtick closing it. */
function afterToken(s: string, start: number, token: string, add: string): string {
  const esc = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(^|[^\\w./-])${esc}(?=$|[^\\w./-])\`?`, 'g');
  re.lastIndex = start;
  const m = re.exec(s);
  if (!m) return s;
  const end = m.index + m[0].length;
  return s.slice(0, end) + add + s.slice(end);
}
