/**
 * Whether a checkpoint's go-signal was used: the session its marker is for was compacted, or cleared,
 * after the go-signal was given. Told from files only, never guessed:
 *
 * - compacted: the SessionStart hook's record of that session says `source: compact` from a start
 *   after the go-signal, or the session's transcript holds a compaction dated after it: a Claude Code
 *   transcript's compaction boundary, a Codex CLI rollout's `compacted` record (Codex runs the hook
 *   for a compaction only with the next turn, so until then only its rollout tells);
 * - cleared: the record of another session that started (`source: clear` or `startup`) after the
 *   go-signal in the same agent process as the go-signal's session (their recorded chains of parent
 *   processes are the same above the hook's own shell): /clear ends a session and starts the next in
 *   the process that ran it. A session started in another terminal runs beside it and uses nothing.
 *   Only Claude Code's records tell it (one session a process): a Codex CLI process (its app server,
 *   which editors drive) runs several threads at once, so a thread started in it ends no other.
 *
 * Where neither tells (no record, no transcript, no chain of processes to compare), it was not used.
 * A Codex CLI thread's rollout is the one its SessionStart record names (its file name carries the
 * thread id), else the one of that id in the 14 newest day folders of `$CODEX_HOME/sessions`.
 */
import * as path from 'node:path';
import { countCompactions } from '../context/compactions';
import {
  claudeHome,
  claudeProjectDirName,
  codexDayDirs,
  codexHome,
  codexIdFromName,
  CODEX_RECENT_DAYS,
  rootForms,
  type MeterOptions,
} from '../context/discovery';
import { listNames } from '../context/files';
import { recordedHere } from '../context/sessions';
import {
  readSessionRecord,
  readSessionRecordFor,
  SESSION_RECORD_REL,
  SESSION_RECORDS_DIR_REL,
  type SessionRecord,
} from '../hooks/session-record';
import { isSessionId } from './marker';

export type GoSignalUse = 'compacted' | 'cleared';

/** The most session records read to find a session started after the go-signal. */
const MAX_RECORDS = 64;

/** After `at` (ms): an ISO time that parses and is later. */
function after(iso: string | null, at: number): boolean {
  const t = iso === null ? NaN : Date.parse(iso);
  return Number.isFinite(t) && t > at;
}

/**
 * Two records made in the same agent process: their chains of parent processes agree from the agent
 * process on, and there is one to compare. A chain whose nearest parent is a shell that ran only that
 * hook (`hookShell`) starts at its second entry; one whose nearest parent is the agent itself (a shell
 * that execs the hook, as bash does) at its first: two agent processes of one parent (two sessions of an
 * editor's panel) then differ there. A record that does not say which (written elsewhere than on Linux,
 * or before it was kept) compares with none.
 */
export function sameAgentProcess(
  a: Pick<SessionRecord, 'pids' | 'hookShell'>,
  b: Pick<SessionRecord, 'pids' | 'hookShell'>,
): boolean {
  if (a.hookShell === undefined || b.hookShell === undefined) return false;
  const x = (a.pids ?? []).slice(a.hookShell ? 1 : 0);
  const y = (b.pids ?? []).slice(b.hookShell ? 1 : 0);
  return x.length > 0 && x.length === y.length && x.every((p, i) => p === y[i]);
}

/**
 * How the go-signal given at `at` (ms) for `sessionId` in the folder `root` was used, or null: not
 * used, or nothing tells. `null` for `sessionId` (a shared marker that names no session) is never used.
 * Never throws.
 */
export async function goSignalUse(
  root: string,
  g: { sessionId: string | null; at: number },
  opts: MeterOptions = {},
): Promise<GoSignalUse | null> {
  const id = g.sessionId;
  if (!isSessionId(id)) return null;
  try {
    const own = await readSessionRecordFor(root, id);
    if (own && own.source === 'compact' && after(own.at, g.at)) return 'compacted';
    if (own && (await clearedAfter(root, own, id, g.at))) return 'cleared';
    if (await compactedInTranscript(root, id, g.at, opts)) return 'compacted';
    // A session its record says is Claude Code's has no rollout to look for.
    return own?.agent !== 'claude' && (await compactedInRollout(own, id, g.at, opts)) ? 'compacted' : null;
  } catch {
    return null;
  }
}

/** A session other than `id` started after `at` in the process of `own` (the newest record and each session's). */
async function clearedAfter(root: string, own: SessionRecord, id: string, at: number): Promise<boolean> {
  return (await nextStart(root, own, id, at, ['clear', 'startup'])) !== null;
}

/**
 * The record of a session other than `id` that started (its `source` one of `sources`) after `at` in the
 * agent process of `own`, as `trusted` takes it (given the record's root-relative path): of the newest
 * record and each session's, the one that started first (the start that ended the session `own` ran;
 * a later one ended the session after it). Null when none. Claude Code's records only: a Codex CLI
 * process runs several threads at once, so a thread's start in it says nothing of another.
 */
async function nextStart(
  root: string,
  own: SessionRecord,
  id: string,
  at: number,
  sources: readonly string[],
  trusted: (rel: string, r: SessionRecord) => Promise<boolean> = async () => true,
): Promise<SessionRecord | null> {
  if (own.agent === 'codex') return null;
  const started = async (r: SessionRecord, rel: string): Promise<boolean> =>
    r.session_id !== id &&
    r.agent !== 'codex' &&
    r.source !== null &&
    sources.includes(r.source) &&
    after(r.at, at) &&
    sameAgentProcess(own, r) &&
    (await trusted(rel, r));
  let first: SessionRecord | null = null;
  const consider = async (r: SessionRecord | null, rel: string) => {
    if (r && (!first || Date.parse(r.at) < Date.parse(first.at)) && (await started(r, rel))) first = r;
  };
  await consider(await readSessionRecord(root), SESSION_RECORD_REL);
  const names = (await listNames(path.join(root, SESSION_RECORDS_DIR_REL))).filter((n) => n.endsWith('.json'));
  for (const name of names.slice(0, MAX_RECORDS)) {
    const other = name.slice(0, -'.json'.length);
    if (other === id || !isSessionId(other)) continue;
    await consider(await readSessionRecordFor(root, other), `${SESSION_RECORDS_DIR_REL}/${name}`);
  }
  return first;
}

/**
 * The SessionStart record of the session that /clear started in place of the session `id` in this folder
 * (`forms`: `rootForms`), or null where nothing proves it: the SessionStart hook recorded `id` and then, with `source: clear`,
 * another session in the same agent process (`sameAgentProcess`), both records this machine's hook's
 * own of this folder (`recordedHere`). That session can never write again; it is no live session.
 * Never throws.
 */
export async function clearedBy(
  root: string,
  id: string,
  forms: readonly string[],
): Promise<(SessionRecord & { session_id: string }) | null> {
  try {
    const own = await readSessionRecordFor(root, id);
    if (!own || !(await recordedHere(root, `${SESSION_RECORDS_DIR_REL}/${id}.json`, own, forms))) return null;
    const next = await nextStart(root, own, id, Date.parse(own.at), ['clear'], (rel, r) =>
      recordedHere(root, rel, r, forms),
    );
    return next && isSessionId(next.session_id) ? { ...next, session_id: next.session_id } : null;
  } catch {
    return null;
  }
}

/** The session's Claude Code transcript (`projects/<folder's name>/<id>.jsonl`) holds a compaction boundary dated after `at`. */
async function compactedInTranscript(root: string, id: string, at: number, opts: MeterOptions): Promise<boolean> {
  const projects = path.join(claudeHome(opts), 'projects');
  for (const form of await rootForms(root)) {
    if (compactedAfter(await countCompactions(path.join(projects, claudeProjectDirName(form), `${id}.jsonl`)), at))
      return true;
  }
  return false;
}

/** A compaction dated after `at` (ms) among the compactions `c` counted. */
function compactedAfter(c: { count: number; last: string | null }, at: number): boolean {
  return c.count > 0 && after(c.last, at);
}

/** The thread's Codex CLI rollout holds a `compacted` record dated after `at`. */
async function compactedInRollout(
  own: SessionRecord | null,
  id: string,
  at: number,
  opts: MeterOptions,
): Promise<boolean> {
  const file = await rolloutOf(own, id, opts);
  return !!file && compactedAfter(await countCompactions(file, Infinity, 'codex'), at);
}

/**
 * Where Codex CLI keeps the thread `id`'s rollout: the one its SessionStart record names, else
 * `sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` in the newest day folders (where a thread that
 * wrote lately started), or null.
 */
async function rolloutOf(own: SessionRecord | null, id: string, opts: MeterOptions): Promise<string | null> {
  const named = own?.transcript_path;
  if (own?.agent === 'codex' && named && path.isAbsolute(named) && codexIdFromName(named) === id) return named;
  const suffix = `-${id}.jsonl`;
  for (const day of await codexDayDirs(path.join(codexHome(opts), 'sessions'), CODEX_RECENT_DAYS)) {
    const name = (await listNames(day)).find((n) => n.startsWith('rollout-') && n.endsWith(suffix));
    if (name) return path.join(day, name);
  }
  return null;
}
