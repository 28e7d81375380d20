/**
 * S3's Log overflow (seed 003, step 4): while `docs/state/STATE.md` is over its 150-line budget
 * (counted as S3's checker counts: split on newline; `budgets.stateMdLines` of
 * `checks/config.json` when set), move the oldest dated Log entries, verbatim, to
 * `docs/state/log/YYYY-MM.md` (appended). The newest entry never moves ("do not trim the new
 * entry"); undated entries stay (they have no month to go to). Preview with `planRotateLog`,
 * write with `applyRotateLog`: the archives first, then STATE.md; a STATE.md that changed since the
 * preview is refused and the archives are put back as they were. What the plan shows (`shown`, the
 * moved entries' titles) has its secrets and personal data masked as the readers mask them; the
 * writes write the files' own bytes, and the hash is the real file's.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { changedSinceRead, hardLinkRefused, refuseOutside, writeAtomic, WriteRefused } from '../../files/atomic';
import { withWriteLock, writeRefusal } from '../../files/lock';
import { DEFAULT_MAX_BYTES, lstatOrNullSync, readTextFile, sha256, statOrNullSync } from '../../files/fsread';
import { dominantEol } from '../../files/line-ends';
import { parseMarkdown } from '../../markdown/markdown';
import { oneOf, trimEndWhere } from '../../markdown/text';
import { maskSecrets } from '../../secrets/secrets';
import { readS3Structure, type S3LogEntry } from './reader-state';
import { S3_FACTS } from './facts';

export const S3_STATE_REL = S3_FACTS.home;
export const S3_LOG_DIR = 'docs/state/log';
export const DEFAULT_STATE_BUDGET = 150;

export interface RotateMove {
  date: string;
  /** The entry's heading or item, as the readers read it: its secrets and personal data masked. */
  title: string;
  line: number;
  endLine: number;
  /** Relative path of the archive it goes to. */
  dest: string;
}

export interface RotateArchive {
  rel: string;
  path: string;
  /** The archive as read, its BOM included (null: it does not exist yet). */
  before: string | null;
  beforeHash: string | null;
  after: string;
}

export interface RotatePlan {
  path: string;
  hash: string;
  /** STATE.md as read and as it is written (its BOM kept): only the write takes `after`. */
  before: string;
  after: string;
  /**
   * `before` and `after` (without the BOM) as any surface shows them, a preview or a dry run: secrets and
   * personal data masked as the readers mask STATE.md (`maskSecrets`), the same lines kept and moved.
   */
  shown: { before: string; after: string };
  budget: number;
  linesBefore: number;
  linesAfter: number;
  moves: RotateMove[];
  archives: RotateArchive[];
  changed: boolean;
  /** STATE.md fits the budget after the moves (false: even moving every old entry is not enough). */
  withinBudget: boolean;
}

/** `budgets.stateMdLines` from Groundwork's `checks/config.json`, else 150. */
export async function stateBudget(root: string): Promise<number> {
  const f = await readTextFile(path.join(root, 'checks/config.json'), 1024 * 1024);
  let n: unknown;
  try {
    n = f.ok ? (JSON.parse(f.text) as { budgets?: { stateMdLines?: unknown } })?.budgets?.stateMdLines : undefined;
  } catch {
    n = undefined;
  }
  return typeof n === 'number' && n > 0 ? n : DEFAULT_STATE_BUDGET;
}

function lineCount(text: string): number {
  return text.split('\n').length;
}

/** Which entries move, oldest first, until the text fits `budget` (never the newest dated entry). */
function chooseMoves(entries: readonly S3LogEntry[], lines: number, budget: number): S3LogEntry[] {
  const dated = entries.filter((e) => e.date && /^\d{4}-\d{2}-\d{2}$/.test(e.date));
  if (dated.length < 2 || lines <= budget) return [];
  // Newest: latest date, then highest in the file (the Log is newest first).
  const byAge = [...dated].sort((a, b) => (a.date! < b.date! ? -1 : a.date! > b.date! ? 1 : b.line - a.line));
  const newest = byAge[byAge.length - 1];
  const out: S3LogEntry[] = [];
  let n = lines;
  for (const e of byAge) {
    if (n <= budget || e === newest) break;
    out.push(e);
    n -= e.endLine - e.line + 1;
  }
  return out;
}

/** Does `archive` already hold `entry` as a whole block (its lines, in order, from a line start to a line end)? */
function archived(archive: string, entry: string): boolean {
  const a = archive.replace(/\r\n/g, '\n');
  const e = entry.replace(/\r\n/g, '\n');
  for (let at = a.indexOf(e); at >= 0; at = a.indexOf(e, at + 1)) {
    const end = at + e.length;
    if ((at === 0 || a[at - 1] === '\n') && (end === a.length || a[end] === '\n')) return true;
  }
  return false;
}

/** A file rotate-log would rewrite that is over the read limit: refused, with its size, the limit and what to do. */
function tooLarge(rel: string, f: { size: number; limit?: number }, todo: string): WriteRefused {
  const limit = f.limit ?? DEFAULT_MAX_BYTES;
  return new WriteRefused(
    `${rel} is ${f.size} bytes, over the limit of ${limit} bytes (${limit / 1024 / 1024} MB) for a file rotate-log rewrites, so it cannot be changed safely; nothing was written. ${todo}`,
    'io',
    rel,
    'too-large',
  );
}

export async function planRotateLog(root: string, opts: { budget?: number } = {}): Promise<RotatePlan | null> {
  const abs = path.resolve(root);
  const file = path.join(abs, S3_STATE_REL);
  // STATE.md and its archives are never read or written outside the workspace: one that leads out of
  // it (a link) is refused here already, and so is one with more than one hard link.
  await refuseOutside(file, abs);
  const f = await readTextFile(file, undefined, { refuseHardLinks: true, refuseLarger: true });
  if (!f.ok && f.kind === 'hard-link') throw hardLinkRefused(S3_STATE_REL, f.links ?? 2, S3_STATE_REL);
  // A STATE.md over the read limit is never rewritten from the part of it that was read.
  if (!f.ok && f.kind === 'too-large')
    throw tooLarge(
      S3_STATE_REL,
      f,
      `Move old Log entries to ${S3_LOG_DIR}/YYYY-MM.md by hand until it is under the limit, then run it again.`,
    );
  if (!f.ok || f.truncated) return null;
  const state = statOrNullSync(file);
  if (!state) return null;
  const s3 = readS3Structure(parseMarkdown(f.text));
  if (!s3.log) return null;
  const budget = opts.budget ?? (await stateBudget(abs));
  const raw = f.text.split('\n');
  const eol = dominantEol(f.text);
  const chosen = chooseMoves(s3.entries, raw.length, budget);
  // STATE.md as the readers mask it: masking keeps every line break, so its lines are the file's lines.
  const shownBefore = maskSecrets(f.text).text;
  const titles = chosen.length
    ? new Map(readS3Structure(parseMarkdown(shownBefore)).entries.map((e) => [e.line, e.title]))
    : new Map<number, string>();
  const drop = new Set<number>();
  const moves: RotateMove[] = [];
  for (const e of chosen) {
    for (let l = e.line; l <= e.endLine; l++) drop.add(l - 1);
    moves.push({
      date: e.date!,
      title: titles.get(e.line) ?? maskSecrets(e.title).text,
      line: e.line,
      endLine: e.endLine,
      dest: `${S3_LOG_DIR}/${e.date!.slice(0, 7)}.md`,
    });
  }
  if (raw.length > 1 && raw[raw.length - 1] === '') drop.delete(raw.length - 1);
  // Entries that stood at the end leave the blank line before them behind: the file keeps the ending it had.
  const ending = (t: string) => t.slice(trimEndWhere(t, oneOf('\r\n')).length);
  const withoutMoved = (text: string) => {
    const out = text
      .split('\n')
      .filter((_, i) => !drop.has(i))
      .join('\n');
    return moves.length && ending(out).length > ending(text).length
      ? out.slice(0, out.length - ending(out).length) + ending(text)
      : out;
  };
  const body = withoutMoved(f.text);
  const shownAfter = moves.length ? withoutMoved(shownBefore) : shownBefore;
  const bom = f.bom ? '\uFEFF' : '';

  // Each archive gets its entries in the order they stood in the Log, appended after what it holds.
  const archives: RotateArchive[] = [];
  const logDir = moves.length ? statOrNullSync(path.join(abs, S3_LOG_DIR)) : null;
  if (logDir && !logDir.isDirectory())
    throw new WriteRefused(
      `${S3_LOG_DIR} is not a folder, and the Log archives go in it; nothing was planned. Move it away and run it again.`,
      'io',
      S3_LOG_DIR,
    );
  for (const dest of [...new Set(moves.map((m) => m.dest))].sort()) {
    const mine = moves.filter((m) => m.dest === dest).sort((a, b) => a.line - b.line);
    // Each entry without the line breaks and blanks that end it (a CRLF file's last \r included).
    const texts = mine.map((m) => trimEndWhere(raw.slice(m.line - 1, m.endLine).join('\n'), oneOf(' \t\r\n')));
    const abs2 = path.join(abs, dest);
    await refuseOutside(abs2, abs);
    // An archive that is STATE.md itself (a link to it) would seem to hold every entry already: they
    // would leave STATE.md for no other file.
    const at = statOrNullSync(abs2);
    if (at && at.dev === state.dev && at.ino === state.ino)
      throw new WriteRefused(
        `${dest} is a link to ${S3_STATE_REL}, the file its entries would be taken from, so they would end up in no file; nothing was planned. Remove the link and run it again.`,
        'link',
        dest,
        'same-file',
      );
    // An archive is a file of its own: a link would append the Log's Markdown to whatever file it leads to
    // (a link a repository committed, to a source file).
    if (lstatOrNullSync(abs2)?.isSymbolicLink())
      throw new WriteRefused(
        `${dest} is a symbolic link; rotate-log appends only to an archive that is a file of its own; nothing was planned. Replace the link with the archive itself and run it again.`,
        'link',
        dest,
      );
    const a = await readTextFile(abs2, undefined, { refuseHardLinks: true, refuseLarger: true });
    if (!a.ok && a.kind === 'hard-link') throw hardLinkRefused(dest, a.links ?? 2, dest);
    // An archive over the read limit is never appended to: its rewrite would hold only the part that was read.
    if (!a.ok && a.kind === 'too-large')
      throw tooLarge(
        dest,
        a,
        `Move it aside (rename it, say to ${dest.slice(0, -3)}-1.md) and run it again: a new ${dest} is started.`,
      );
    if (!a.ok && a.kind !== 'missing')
      throw new WriteRefused(`${dest}: ${a.message}; nothing was planned.`, 'io', dest, 'unreadable');
    const old = a.ok ? a.text : null;
    // An entry the archive already holds verbatim was moved by a run that stopped before it could
    // rewrite STATE.md (killed between the two renames): it only leaves STATE.md now, never twice.
    const fresh = old === null ? texts : texts.filter((t) => !archived(old, t));
    if (fresh.length === 0) continue;
    // An archive that exists keeps its BOM and its lines' own endings; the lines appended to it get
    // the ending most of its lines have.
    const bomA = a.ok && a.bom ? '\uFEFF' : '';
    const eolA = old === null ? eol : dominantEol(old, eol);
    const added = old === null ? fresh : fresh.map((t) => t.replace(/\r?\n/g, eolA));
    const kept = old === null ? '' : trimEndWhere(old, oneOf('\r\n'));
    const lastEnd = old?.startsWith('\r\n', kept.length) ? '\r\n' : old?.[kept.length] === '\n' ? '\n' : eolA;
    const head =
      old === null
        ? `# Log ${dest.slice(S3_LOG_DIR.length + 1, -3)}${eol}${eol}`
        : kept + (old.trim() ? `${lastEnd}${eolA}` : '');
    archives.push({
      rel: dest,
      path: abs2,
      before: old === null ? null : bomA + old,
      beforeHash: a.ok ? a.hash : null,
      after: bomA + head + added.join(`${eolA}${eolA}`) + eolA,
    });
  }
  return {
    path: file,
    hash: f.hash,
    before: bom + f.text,
    after: bom + body,
    shown: { before: shownBefore, after: shownAfter },
    budget,
    linesBefore: lineCount(f.text),
    linesAfter: lineCount(body),
    moves,
    archives,
    changed: moves.length > 0,
    withinBudget: lineCount(body) <= budget,
  };
}

/** What applying the plan would refuse before it writes (a link at a lock or on an archive's way), or null: the preview says it. */
export async function rotateRefusal(root: string, plan: RotatePlan): Promise<WriteRefused | null> {
  for (const file of [plan.path, ...plan.archives.map((a) => a.path)]) {
    const why = await writeRefusal(file, root);
    if (why) return why;
  }
  return null;
}

/** Apply the rotation to the STATE.md whose hash is `expectHash` (the preview's). */
export async function applyRotateLog(
  root: string,
  expectHash: string,
  opts: {
    budget?: number;
    beforeStateRename?: () => Promise<void> | void;
    /** The hash is the run's own reading, not a preview's (`--apply` without `--expect-hash`): a change says so. */
    unpreviewed?: boolean;
  } = {},
): Promise<RotatePlan> {
  // STATE.md and its archives are read and written by one run at a time.
  const abs0 = path.resolve(root);
  return withWriteLock(path.join(abs0, S3_STATE_REL), abs0, () => rotateLocked(root, expectHash, opts));
}

async function rotateLocked(
  root: string,
  expectHash: string,
  opts: { budget?: number; beforeStateRename?: () => Promise<void> | void; unpreviewed?: boolean },
): Promise<RotatePlan> {
  const plan = await planRotateLog(root, opts);
  if (!plan)
    throw new WriteRefused(
      `${S3_STATE_REL} is missing or has no ## Log; nothing was written.`,
      'changed',
      S3_STATE_REL,
      'missing',
    );
  if (plan.hash !== expectHash.toLowerCase())
    throw opts.unpreviewed
      ? changedSinceRead(S3_STATE_REL)
      : new WriteRefused(
          `${S3_STATE_REL} changed since the preview; nothing was written. Preview it again.`,
          'changed',
          S3_STATE_REL,
          'preview',
        );
  if (!plan.changed) return plan;
  const abs = path.resolve(root);
  // Every file it writes can be written, before the first one is (an archive folder that is a link to
  // nowhere would otherwise be made where it points).
  const refused = await rotateRefusal(abs, plan);
  if (refused) throw refused;
  const done: RotateArchive[] = [];
  try {
    for (const a of plan.archives) {
      await writeAtomic(a.path, a.after, { root: abs, expectHash: a.beforeHash, refuseHardLinks: true });
      done.push(a);
    }
    await writeAtomic(plan.path, plan.after, {
      root: abs,
      expectHash,
      beforeRename: opts.beforeStateRename,
      refuseHardLinks: true,
    });
  } catch (err) {
    // Put the archives back as they were, so no entry ends up in two places.
    for (const a of done.reverse()) {
      try {
        if (a.before === null) {
          const now = await readTextFile(a.path);
          if (now.ok && now.hash === sha256(a.after)) await fs.rm(a.path);
        } else {
          await writeAtomic(a.path, a.before, { root: abs, expectHash: sha256(a.after) });
        }
      } catch {
        /* best effort: the error below says what happened */
      }
    }
    throw err;
  }
  return plan;
}
