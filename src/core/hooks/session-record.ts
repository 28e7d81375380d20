/**
 * What the SessionStart hook records about the running Claude Code session or Codex CLI thread:
 * `<root>/.claude/session-ledger/session.json` = `{ session_id, transcript_path, source, cwd, at, pids, agent }`
 * (the newest start), and the same per session in `.claude/session-ledger/sessions/<id>.json`.
 * `agent` is the client whose hook wrote it (`claude`, `codex`); a record without it was written
 * before it was kept, by Claude Code's hook (the only client with the hook then), and reads as Claude Code's.
 * `pids` is the hook's chain of parent processes (nearest first: the shell Claude Code ran the hook
 * through, Claude Code itself, the terminal's shell, …), so the extension can tell which integrated
 * terminal runs which session (a terminal's shell pid is in the chain). `hookShell` says whether the
 * nearest of them is that shell (a shell such as dash runs the hook as its child) or the agent itself
 * (bash and zsh exec a command that is all `-c` holds): only then do two records tell whether they
 * come from one agent process. `session-ledger checkpoint` falls back to the newest record when no
 * transcript names the session.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readOwnFile, refuseOwnFileLink, writeOwnFile, WriteRefused } from '../files/atomic';
import { isRecordName, keepNewest } from '../files/prune';
import { gitTracksEach } from '../git/tracked';
import { str } from './io';
import { notAProject } from '../files/project';
import { isSessionId } from '../checkpoint/marker';

export const SESSION_RECORD_REL = '.claude/session-ledger/session.json';
export const SESSION_RECORDS_DIR_REL = '.claude/session-ledger/sessions';

export interface SessionRecord {
  session_id: string | null;
  transcript_path: string | null;
  source: string | null;
  cwd: string | null;
  /** ISO time the hook ran. */
  at: string;
  /** The hook's parent process chain, nearest first (empty where it cannot be read). */
  pids?: number[];
  /**
   * Whether the first of `pids` is a shell that ran this one hook (true) or the agent process itself
   * (false); absent where its name cannot be read (not Linux) and in records written before it was kept.
   */
  hookShell?: boolean;
  /** The client whose SessionStart hook wrote the record; read as `claude` when a record has none. */
  agent?: 'claude' | 'codex';
}

/**
 * The parent chain of this process, nearest first, up to `max` (Linux: /proc; elsewhere only the
 * parent), and whether its nearest is a shell (`hookShell`, by the process's name in /proc; absent elsewhere).
 */
export function parentChain(max = 12): Pick<SessionRecord, 'pids' | 'hookShell'> & { pids: number[] } {
  const out: number[] = [];
  let hookShell: boolean | undefined;
  let pid = process.ppid;
  while (pid > 1 && out.length < max) {
    out.push(pid);
    if (process.platform !== 'linux') break;
    let stat = '';
    try {
      // Synchronous, as the other small reads (src/core/files/fsread.ts says why): fs.promises would load Node's stream and readline modules.
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      /* the process is gone */
    }
    if (out.length === 1) {
      const name = nameOfStat(stat);
      if (name !== null) hookShell = SHELLS.has(name);
    }
    const ppid = ppidOfStat(stat);
    if (ppid === null) break;
    pid = ppid;
  }
  return hookShell === undefined ? { pids: out } : { pids: out, hookShell };
}

/** The names a shell runs under (its `comm`): the hook's nearest parent with one of these ran only the hook. */
const SHELLS = new Set([
  'sh',
  'dash',
  'bash',
  'zsh',
  'ksh',
  'ksh93',
  'mksh',
  'pdksh',
  'ash',
  'busybox',
  'yash',
  'posh',
]);

/** The process's name (`comm`) in a `/proc/<pid>/stat` line, or null. */
export function nameOfStat(stat: string): string | null {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  return open >= 0 && close > open ? stat.slice(open + 1, close) : null;
}

/** The parent pid in a `/proc/<pid>/stat` line, or null. */
export function ppidOfStat(stat: string): number | null {
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
  const m = /\)\s+\S+\s+(\d+)/.exec(stat.slice(stat.lastIndexOf(')')));
  return m ? Number(m[1]) : null;
}

export async function writeSessionRecord(root: string, rec: SessionRecord): Promise<string> {
  const why = notAProject(root);
  if (why) throw new WriteRefused(`${why}: the session is not recorded`, 'outside');
  const file = path.join(root, SESSION_RECORD_REL);
  const text = `${JSON.stringify(rec, null, 2)}\n`;
  const dir = path.join(root, SESSION_RECORDS_DIR_REL);
  const each = isSessionId(rec.session_id) ? path.join(dir, `${rec.session_id}.json`) : null;
  // Both are the tool's own files: a link at either refuses both, before anything is written.
  refuseOwnFileLink(file, root);
  if (each) refuseOwnFileLink(each, root);
  // Rewritten at every session start and only a pointer for naming terminals: atomic, not fsynced.
  await writeOwnFile(file, text, { root, durable: false });
  if (each) {
    const { created } = await writeOwnFile(each, text, { root, durable: false });
    // A session's first record: the newest sessions' records are kept, older ones go.
    if (created) await keepNewest(dir, root, isRecordName, gitTracksEach);
  }
  return file;
}

function parseRecord(text: string, mtime: number): SessionRecord | null {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
    const id = str(v.session_id);
    const pids = Array.isArray(v.pids)
      ? v.pids.filter((p): p is number => typeof p === 'number' && Number.isInteger(p) && p > 0).slice(0, 32)
      : [];
    return {
      session_id: isSessionId(id) ? id : null,
      transcript_path: str(v.transcript_path),
      source: str(v.source),
      cwd: str(v.cwd),
      at: str(v.at) ?? new Date(mtime).toISOString(),
      pids,
      ...(typeof v.hookShell === 'boolean' ? { hookShell: v.hookShell } : {}),
      agent: v.agent === 'codex' ? 'codex' : 'claude',
    };
  } catch {
    return null;
  }
}

/**
 * The newest recorded session, or null when there is none or it cannot be read. Never read through a
 * link (at the record or a folder on its way, as it is never written through one): then there is none.
 * Never throws.
 */
export async function readSessionRecord(root: string): Promise<SessionRecord | null> {
  const f = readOwnFile(path.join(root, SESSION_RECORD_REL), root, 64 * 1024);
  return f ? parseRecord(f.text, f.mtime) : null;
}

/** The record of one session, or null (also through a link, as `readSessionRecord`). Never throws. */
export async function readSessionRecordFor(root: string, sessionId: string): Promise<SessionRecord | null> {
  if (!isSessionId(sessionId)) return null;
  const f = readOwnFile(path.join(root, SESSION_RECORDS_DIR_REL, `${sessionId}.json`), root, 64 * 1024);
  const r = f ? parseRecord(f.text, f.mtime) : null;
  return r && r.session_id === sessionId ? r : null;
}
