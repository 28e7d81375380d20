/**
 * Claude Code's hook contract as the guard hooks see it: the JSON payload on stdin, the project
 * root it names, and the one-line log `.claude/log/session-ledger-hook.log`.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { holdOwnFolder, letGo, ownFileLinkProblem, type OwnFolder } from '../files/atomic';
import { isDir, stillAt } from '../files/fsread';
import { withWriteLock } from '../files/lock';
import { notAProject } from '../files/project';
import { oneLine } from '../model/messages';

export const HOOK_LOG_REL = '.claude/log/session-ledger-hook.log';
/** Past this size the log is moved to `.1` and a new one starts. */
export const HOOK_LOG_MAX = 256 * 1024;
/**
 * The log never grows past this: while it cannot be moved (something other than a lock file stands at
 * its lock path: a link, a FIFO, a folder, which no hook removes), a line that would take it further is
 * not written, so a planted lock costs the newest lines, never the disk.
 */
export const HOOK_LOG_MOST = 4 * HOOK_LOG_MAX;
/**
 * No hook holds the log's write lock longer than this: it holds it for a stat and a rename, and no hook
 * process outlives its time limit (30 s as `hooks install` writes it; Claude Code's default is 60 s). A
 * lock on the log older than this was left behind, whatever pid it names.
 */
export const HOOK_LOG_LOCK_HELD_AT_MOST_MS = 10 * 60_000;

/** The fields Claude Code sends (PreCompact and SessionStart); anything else is kept but ignored. */
export interface HookPayload {
  session_id?: unknown;
  transcript_path?: unknown;
  cwd?: unknown;
  hook_event_name?: unknown;
  /** PreCompact: `manual` | `auto`. */
  trigger?: unknown;
  custom_instructions?: unknown;
  /** SessionStart: `startup` | `resume` | `clear` | `compact`. */
  source?: unknown;
  [key: string]: unknown;
}

export type ParsedPayload = { ok: true; payload: HookPayload } | { ok: false; error: string };

/** Parse stdin: a JSON object, or the reason it is not one. */
export function parsePayload(text: string): ParsedPayload {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (t === '') return { ok: false, error: 'empty stdin' };
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch (err) {
    return { ok: false, error: `stdin is not JSON (${(err as Error).message})` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'stdin is not a JSON object' };
  return { ok: true, payload: v as HookPayload };
}

export function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * The project root of a hook run: `$CLAUDE_PROJECT_DIR` whenever it is set (Claude Code sets it for
 * every hook; a payload `cwd` inside it is a subfolder the agent `cd`-ed into, one outside it is
 * ignored), else the payload's `cwd`, else the process's working directory.
 */
export function hookRoot(payload: HookPayload | null, env: NodeJS.ProcessEnv, fallback: string): string {
  const projRaw = str(env.CLAUDE_PROJECT_DIR);
  const proj = projRaw && path.isAbsolute(projRaw) && isDir(projRaw) ? path.resolve(projRaw) : null;
  if (proj) return proj;
  const cwdRaw = str(payload?.cwd);
  const cwd = cwdRaw && path.isAbsolute(cwdRaw) && isDir(cwdRaw) ? path.resolve(cwdRaw) : null;
  return cwd ?? path.resolve(fallback);
}

export interface HookRunOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the hook runs (fallback for the project root). */
  cwd?: string;
  /** Overrides the root taken from the payload / `$CLAUDE_PROJECT_DIR`. */
  root?: string;
  now?: number;
  /** Write to `.claude/log/session-ledger-hook.log` (default true). */
  log?: boolean;
  /**
   * The script the hook's own command runs (dist/cli.js, an installed hook script), absolute: the
   * command the hook's words name for the CLI is that one, which works wherever the hook's command does.
   */
  script?: string;
}

/** One hook run: its options resolved, its stdin parsed, its project root found. */
export function hookRun(
  stdin: string,
  opts: HookRunOptions,
): { env: NodeJS.ProcessEnv; now: number; parsed: ParsedPayload; root: string } {
  const env = opts.env ?? process.env;
  const parsed = parsePayload(stdin);
  const root = opts.root
    ? path.resolve(opts.cwd ?? process.cwd(), opts.root)
    : hookRoot(parsed.ok ? parsed.payload : null, env, opts.cwd ?? process.cwd());
  return { env, now: opts.now ?? Date.now(), parsed, root };
}

/**
 * Append one line to `.claude/log/session-ledger-hook.log`: one write of the whole line to a file
 * opened with O_APPEND, so hooks running at the same time never lose or mix a line. Never through a
 * link (the tool's own file: a symbolic link at it or on its way, or a second hard link, and nothing
 * is written). Past 256 KB the log is moved to `session-ledger-hook.log.1` (replacing the one before)
 * and a new one starts (see `rotateHookLog`); a hook that still holds the old one appends its line
 * there. While it cannot be moved, it stops at HOOK_LOG_MOST. Never throws: a log that cannot be written is not worth failing for.
 */
export async function appendHookLog(root: string, event: string, message: string, now = Date.now()): Promise<void> {
  if (notAProject(root)) return;
  const file = path.join(root, HOOK_LOG_REL);
  const line = Buffer.from(`${new Date(now).toISOString()} ${event} ${oneLine(message)}\n`);
  try {
    // Its folder held open from the root down: the log is created, opened and moved in that very folder,
    // never where a folder on the way swapped for a link since leads (a link there refuses: thrown, let go below).
    const own = holdOwnFolder(file, root, true);
    try {
      await appendIn(own, file, root, line);
    } finally {
      letGo(own);
    }
  } catch {
    /* a diagnostic log only */
  }
}

/** appendHookLog's line into the log in `own`, its held folder. */
async function appendIn(own: OwnFolder, file: string, root: string, line: Buffer): Promise<void> {
  // O_NONBLOCK: a FIFO planted at the log fails to open (or is let go below) instead of blocking the hook.
  const fd = fs.openSync(
    `${own.dir}/${path.basename(file)}`,
    fs.constants.O_WRONLY |
      fs.constants.O_APPEND |
      fs.constants.O_CREAT |
      (fs.constants.O_NOFOLLOW ?? 0) |
      (fs.constants.O_NONBLOCK ?? 0),
    0o644,
  );
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.nlink > 1) return;
    // The file opened must be the log still, or the log another hook has moved to `.1` since the open
    // (the line belongs there as much); anything else is not the log (a folder on the way swapped for
    // a link between the walk and the open).
    const at = [file, `${file}.1`].find((p) => stillAt(st, p));
    if (at === undefined || ownFileLinkProblem(at, root)) return;
    // Rotated while the file is still open: its inode number cannot be reused by a new log meanwhile.
    // At the most the log may hold, it is moved first; the line goes into the moved log (as a hook's
    // line does that opened it just before a move), or nowhere while the log cannot be moved.
    const most = at === file && st.size + line.length > HOOK_LOG_MOST;
    if (most) {
      await rotateHookLog(own, file, root, st);
      if (stillAt(st, file)) return;
    }
    fs.writeSync(fd, line);
    if (!most && st.size + line.length > HOOK_LOG_MAX) await rotateHookLog(own, file, root, st);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Move the log to `.1` (replacing the one before) only while the log's name still leads to `measured`,
 * the file this hook found past the limit: another hook may have moved that file already, and the
 * log there now is a new one holding other hooks' lines, which must not replace it. The check and the
 * rename are made holding the log's write lock, so no other hook moves the log between them (every
 * move is made that way; a hook only ever creates a log where none is). A hook that finds the lock
 * held leaves the move to the holder, or to the next line past the limit: a hook never waits on it. A
 * lock left behind does not stop the move for good: one whose process is gone, or older than any hook
 * holds it (HOOK_LOG_LOCK_HELD_AT_MOST_MS: its pid used again by another process, or the lock committed to
 * the repository), is taken over as the write actions take over a stale lock (lock.ts: under its breaker,
 * read again there), never through a link.
 */
async function rotateHookLog(own: OwnFolder, file: string, root: string, measured: fs.Stats): Promise<void> {
  const old = `${file}.1`;
  try {
    await withWriteLock(
      file,
      root,
      async () => {
        if (stillAt(measured, file) && !ownFileLinkProblem(file, root) && !ownFileLinkProblem(old, root))
          fs.renameSync(`${own.dir}/${path.basename(file)}`, `${own.dir}/${path.basename(old)}`);
      },
      { waitMs: 0, heldAtMostMs: HOOK_LOG_LOCK_HELD_AT_MOST_MS },
    );
  } catch {
    /* the lock is held by another hook, or cannot be taken here: the log is left as it is */
  }
}
