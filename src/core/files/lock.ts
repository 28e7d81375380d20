/**
 * One write action at a time per file: a write action (rotate-log, compact-state, attest, the
 * checkpoint marker, hooks install/uninstall, enable-ledger, init) holds `.<name>.session-ledger.lock`
 * beside the file it reads and rewrites (the file a link there leads to), from its read to its last rename. A second run waits for it (up to `waitMs`),
 * then reads the file again as it now is (and refuses when it changed since its preview); one that
 * waited too long refuses. The lock is created with O_EXCL (never through a link), holds the
 * holder's pid, and is taken over when that process is gone (under a breaker: see `takeOver`). A lock
 * only hooks take (the hook log's) is also taken over once it is older than any hook holds it
 * (`heldAtMostMs`), whatever pid it names, git tracking it or not.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitTracks } from '../git/tracked';
import {
  holdOwnFolder,
  isInside,
  letGo,
  notAFile,
  processAlive,
  realTargetSync,
  refuseOwnFileLink,
  rootRel,
  writeTarget,
  WriteRefused,
} from './atomic';
import { statOrNullSync } from './fsread';

/** How long a second run waits for the first, by default. */
export const LOCK_WAIT_MS = 10_000;
/** A lock with no pid written yet (its writer died between create and write) is stale after this. */
const EMPTY_STALE_MS = 30_000;
/** A takeover's breaker (see `takeOver`) older than this was left by a run that died while holding it. */
const BREAK_STALE_MS = 5_000;

/** The lock file beside `file` (a path that is no link: see `lockFor`). */
export function lockPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.session-ledger.lock`);
}

/**
 * The lock that guards writes to `file` under `root`: beside the file a link at `file` (or on its
 * way) leads to, so that two names of one file (`settings.local.json -> settings.json`) take one
 * lock and one write waits for the other. Written under the root as given. A path that leads
 * outside the root (refused by the write itself) or cannot be resolved keeps its lock beside it.
 */
export function lockFor(file: string, root: string): string {
  const named = path.resolve(file);
  try {
    const realRoot = realTargetSync(path.resolve(root));
    const real = realTargetSync(named);
    if (isInside(real, realRoot)) return lockPath(path.join(path.resolve(root), path.relative(realRoot, real)));
  } catch {
    /* the write reports it */
  }
  return lockPath(named);
}

/**
 * What taking the lock beside `file` would refuse (a link at the lock or on its way, its folder in
 * git's own files or behind a link that leads nowhere, something other than a file standing there, a
 * lock file git tracks), as `withWriteLock` refuses it, or null: for a dry run to say.
 */
export async function lockRefusal(file: string, root: string): Promise<WriteRefused | null> {
  const lock = lockFor(file, root);
  try {
    refuseOwnFileLink(lock, root);
    refuseLockFolder(lock, file, root, rootRel(root, file));
    const st = fs.lstatSync(lock, { throwIfNoEntry: false });
    if (st?.isFile() === false) throw notAFileLock(rootRel(root, lock));
    if (st && (await gitTracks(lock)) === true) throw trackedLock(rootRel(root, lock));
    return null;
  } catch (err) {
    if (err instanceof WriteRefused) return err;
    throw err;
  }
}

/**
 * What writing `file` (a write action's file, its lock beside it) would refuse before anything is
 * written, as the write refuses it and in its words, or null: for a preview or a dry run to say, and
 * for an action that writes several files to ask of each before it writes the first. `own`: one of
 * the tool's own files, never written through a link (a link at it or on its way is refused).
 */
export async function writeRefusal(file: string, root: string, own = false): Promise<WriteRefused | null> {
  const lock = await lockRefusal(file, root);
  if (lock) return lock;
  try {
    if (own) refuseOwnFileLink(file, root);
    // What stands at the file must be a regular file to be replaced (a folder, a FIFO is refused).
    if (statOrNullSync(await writeTarget(file, root))?.isFile() === false) throw notAFile(rootRel(root, file));
    return null;
  } catch (err) {
    if (err instanceof WriteRefused) return err;
    throw err;
  }
}

/** A lock file git tracks: it came with the repository, so no run on this machine holds it. */
function trackedLock(shownLock: string): WriteRefused {
  return new WriteRefused(
    `${shownLock} is tracked by git: it came with the repository, so it is no lock of a run on this machine; nothing was written. Untrack and delete it (git rm --cached ${shownLock}, then delete the file), then run it again.`,
    'io',
    shownLock,
    'tracked',
    shownLock,
  );
}

/** Something other than a lock file at a lock's path (a FIFO, a folder): no run holds it, and nothing is written. */
function notAFileLock(shownLock: string): WriteRefused {
  return new WriteRefused(
    `${shownLock} is not a regular file; nothing was written. Remove it and run it again.`,
    'io',
    shownLock,
    'not-file',
  );
}

/**
 * The lock's folder is made only where the write itself could land: never in a `.git` folder (a link
 * there would otherwise leave a folder such as `.git/index.lock`, which stops git), and never behind
 * a link that leads nowhere (a stray folder where it points). Refused before anything is created.
 */
function refuseLockFolder(lock: string, file: string, root: string, rel: string): void {
  const dir = path.dirname(lock);
  const shown = rootRel(root, dir);
  if (shown.split('/').some((p) => p.toLowerCase() === '.git'))
    throw new WriteRefused(
      `${rel} is a link into ${shown} (git's own files): Session Ledger never writes there; nothing was written. Remove the link and run it again.`,
      'link',
      rel,
      'protected',
    );
  const dangling = danglingOnWay(file, root, dir);
  if (dangling !== null)
    throw new WriteRefused(
      `${rel} leads through ${dangling}, a link that leads nowhere; nothing was written. Remove the link and run it again.`,
      'link',
      rel,
    );
}

/**
 * The first link on the way from `root` to `file` that leads nowhere (root-relative), or null: a
 * folder link whose target is not there, or `file` itself a link whose target's folder (`lockDir`,
 * where its lock goes) is not there. Folders still to make behind a link that leads somewhere are
 * made as the write itself would make them.
 */
function danglingOnWay(file: string, root: string, lockDir: string): string | null {
  const top = path.resolve(root);
  const named = path.resolve(file);
  const rel = path.relative(top, named);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  let cur = top;
  for (const part of rel.split(path.sep)) {
    cur = path.join(cur, part);
    const l = fs.lstatSync(cur, { throwIfNoEntry: false });
    if (!l) return null;
    if (!l.isSymbolicLink()) continue;
    const there = cur === named ? fs.existsSync(lockDir) : fs.existsSync(cur);
    if (!there) return rootRel(top, cur);
  }
  return null;
}

/** The holder of a lock: its pid, or null while it is being written (or cannot be read, or is not a regular file). */
function holder(lock: string): { pid: number | null; mtime: number } | null {
  try {
    const st = fs.lstatSync(lock);
    // Only a regular file is read: a FIFO would block the read.
    if (!st.isFile()) return null;
    const m = /^(\d+)\s/.exec(fs.readFileSync(lock, 'utf8'));
    return { pid: m ? Number(m[1]) : null, mtime: st.mtimeMs };
  } catch {
    return null;
  }
}

/**
 * Whether a lock's holder is gone: a process that is not running (not this one), or no pid written for
 * EMPTY_STALE_MS; or, for a lock no holder keeps longer than `heldAtMostMs`, a file time further than that
 * from now (before it, or after it: no hold running now began then), whatever pid it names (one used again
 * by another process since).
 */
function isStale(h: ReturnType<typeof holder>, heldAtMostMs = Infinity): boolean {
  if (!h) return false;
  if (Math.abs(Date.now() - h.mtime) > heldAtMostMs) return true;
  return h.pid !== null ? h.pid !== process.pid && !processAlive(h.pid) : Date.now() - h.mtime > EMPTY_STALE_MS;
}

/**
 * Remove a stale lock so that it can be taken, safe against another run doing the same. The rule: a
 * lock is removed only by a run that holds its breaker (`<lock>.break`, created with O_EXCL) and,
 * holding it, reads the lock again and finds it still stale. Two runs that found the same dead
 * holder thus never both remove: the second to get the breaker reads the lock the first has just
 * created (a live process) and leaves it. The breaker is held only for that read and remove; one
 * older than BREAK_STALE_MS (by its mtime) was left by a run that died holding it, and is removed
 * (so a run is assumed never to stay that long between taking the breaker and letting it go).
 * Returns true when the lock may be tried again at once, false when the caller should wait a moment.
 */
function takeOver(lock: string, heldAtMostMs?: number): boolean {
  const breaker = `${lock}.break`;
  try {
    fs.closeSync(
      fs.openSync(
        breaker,
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
        0o644,
      ),
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const st = fs.lstatSync(breaker, { throwIfNoEntry: false });
    if (st?.isFile() && Date.now() - st.mtimeMs > BREAK_STALE_MS) fs.rmSync(breaker, { force: true });
    return false;
  }
  try {
    if (isStale(holder(lock), heldAtMostMs)) fs.rmSync(lock, { force: true });
  } finally {
    fs.rmSync(breaker, { force: true });
  }
  return true;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How withWriteLock waits and takes a lock over. */
interface WriteLockOptions {
  waitMs?: number;
  /** Test hook: called when the lock is found stale (its process gone), before it is taken over. */
  beforeTakeover?: () => Promise<void> | void;
  /**
   * For a lock only hooks take, around a few file operations (the hook log's move): no hold of it lasts
   * this long, as no hook process outlives its time limit. A lock whose file time is further than that
   * from now is stale whatever pid it names (`isStale`), and a lock git tracks is judged by the same
   * rules as any other, not refused: no user is there to untrack it, and a hook that never takes the lock
   * never does its part (the log would grow without bound).
   */
  heldAtMostMs?: number;
}

/**
 * Run `fn` holding the lock of `file` (inside `root`). Throws WriteRefused('busy') when another
 * process holds it longer than `waitMs`, WriteRefused('link') when the lock's path is a link, and
 * WriteRefused(detail 'tracked') at once when the lock is there and git tracks it (unless `heldAtMostMs`).
 */
export async function withWriteLock<T>(
  file: string,
  root: string,
  fn: () => Promise<T>,
  opts: WriteLockOptions = {},
): Promise<T> {
  const lock = lockFor(file, root);
  const rel = rootRel(root, file);
  refuseOwnFileLink(lock, root);
  refuseLockFolder(lock, file, root, rel);
  const shownLock = rootRel(root, lock);
  // The lock's folder held open from the root down (made there when missing): the lock is created, read
  // and removed in that very folder, never where a folder on the way swapped for a link since leads.
  const own = holdOwnFolder(lock, root, true);
  try {
    return await lockedIn(`${own.dir}/${path.basename(lock)}`, lock, shownLock, rel, fn, opts);
  } finally {
    letGo(own);
  }
}

/** withWriteLock's wait, hold and release of the lock file `named`, as `lock` names it in its held folder. */
async function lockedIn<T>(
  lock: string,
  named: string,
  shownLock: string,
  rel: string,
  fn: () => Promise<T>,
  opts: WriteLockOptions,
): Promise<T> {
  const deadline = Date.now() + (opts.waitMs ?? LOCK_WAIT_MS);
  let trackChecked = false;
  for (;;) {
    try {
      const fd = fs.openSync(
        lock,
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
        0o644,
      );
      try {
        fs.writeSync(fd, `${process.pid} ${new Date().toISOString()}\n`);
      } finally {
        fs.closeSync(fd);
      }
      break;
    } catch (err) {
      // Only the lock file itself existing means another run holds it; a folder that cannot be made
      // (a file in its place) is an error now, not a wait.
      const e = err as NodeJS.ErrnoException;
      if (e.code !== 'EEXIST' || e.syscall !== 'open') throw err;
      // Something other than a lock file stands there (a FIFO, a folder, a link planted since the check): no run holds it.
      if (fs.lstatSync(lock, { throwIfNoEntry: false })?.isFile() === false) throw notAFileLock(shownLock);
      // A lock git tracks came with the repository (committed by someone, with whatever pid it names):
      // it is no run on this machine, so it is neither waited for nor taken over, but refused at once.
      if (!trackChecked && opts.heldAtMostMs === undefined) {
        trackChecked = true;
        if ((await gitTracks(named)) === true) throw trackedLock(shownLock);
      }
      const h = holder(lock);
      if (isStale(h, opts.heldAtMostMs)) {
        if (opts.beforeTakeover) await opts.beforeTakeover();
        if (takeOver(lock, opts.heldAtMostMs)) continue;
      }
      if (Date.now() >= deadline) {
        // What is known is what the lock says; a lock left by a run that is gone but whose pid is
        // alive again (another process now) looks the same, so the way out is named too.
        throw new WriteRefused(
          `${shownLock} says another Session Ledger run${h?.pid ? ` (process ${h.pid})` : ''} is changing ${rel}; nothing was written. Run it again once that run is done; if no Session Ledger run is going on, delete ${shownLock} and run it again.`,
          'busy',
          rel,
          undefined,
          shownLock,
        );
      }
      await sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    // Only our own lock goes (a stale-lock takeover by another run is not undone here).
    if (holder(lock)?.pid === process.pid) fs.rmSync(lock, { force: true });
  }
}
