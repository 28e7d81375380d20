/**
 * The sessions of a folder that run now, as every surface counts them: a bare checkpoint (the session
 * it is for, or the ones it asks about) and the status bar (whose figure it shows). One rule, here:
 *
 * - the sessions of either client that wrote within the window (`recentSessions`);
 * - less each one /clear replaced in its agent process, as the SessionStart hook's own records of this
 *   folder prove it (`clearedBy`): Claude Code starts the next session in the same process, and the one
 *   it replaced, whose transcript wrote a moment before, never writes again. Not one whose transcript
 *   wrote after the next session started (beyond CLEARED_WRITE_SLACK_MS): that one still runs, whatever
 *   the records say (another agent process with the same chain of parent process ids recorded it);
 * - plus the session /clear started when it has written no transcript yet (nothing typed in it so far):
 *   the hook's record of it is what shows it runs; so does the record of a /clear within the window
 *   whose session replaced none of those (the last of a row of /clear in one agent process);
 * - with none left, the sessions stay as they wrote.
 *
 * A session is left out only on its own record: one the hook never recorded (it started before the
 * hooks were installed) counts as running whatever /clear came after it. The record of the next
 * session's /clear names its agent process, not the session it replaced, and nothing else tells: the
 * session without a record may be the one replaced, or may still run in another terminal while the one
 * replaced was an idle session that wrote nothing lately. Such a /clear is `unplaced`, so a bare
 * checkpoint can say why it asks which session is meant.
 *
 * Without such records nothing is left out and nothing added. A session left out can still be named.
 */
import * as path from 'node:path';
import { claudeHome, claudeProjectDirName, codexIdFromName, rootForms, type SessionRef } from '../context/discovery';
import { listNames, statOrNull } from '../context/files';
import {
  recentSessions,
  recordedHere,
  sessionWindowMinutes,
  type RecentSession,
  type RecentSessionsOptions,
} from '../context/sessions';
import { readSessionRecordFor, SESSION_RECORDS_DIR_REL, type SessionRecord } from '../hooks/session-record';
import { isSessionId } from './marker';
import { clearedBy, sameAgentProcess } from './used';

/**
 * How long after the session /clear started a replaced session's transcript may still be written (the
 * client finishing its last lines): a later write shows a session that still runs.
 */
export const CLEARED_WRITE_SLACK_MS = 10_000;

export interface LiveSessions {
  /**
   * The sessions that run now: those that wrote within the window and were not replaced, newest first,
   * then those /clear started that wrote nothing yet (`started`). With none left, those that wrote.
   */
  live: RecentSession[];
  /** The sessions left out: /clear replaced each (`id`) with the session `by`. */
  replaced: Array<{ id: string; by: string }>;
  /** Those of `live` known only from the SessionStart hook's record of their start (no transcript yet). */
  started: RecentSession[];
  /**
   * Sessions of `live` /clear started (`by`) where no record names the session it replaced (none of an
   * earlier session in its agent process), with the sessions of `live` the hook never recorded (`maybe`):
   * any of them may be the one replaced, or may still run. Only where there are such sessions.
   */
  unplaced: Array<{ by: string; maybe: string[] }>;
}

/** The SessionStart record of a session /clear started (`clearedBy`). */
type ClearStart = NonNullable<Awaited<ReturnType<typeof clearedBy>>>;

/**
 * The sessions among `wrote` that /clear replaced (`clearedBy`), each with the record of the session that
 * replaced it, save one whose transcript wrote after the new session's start (beyond the slack).
 */
async function clearedSessions(
  root: string,
  forms: readonly string[],
  wrote: readonly RecentSession[],
): Promise<Map<string, ClearStart>> {
  const out = new Map<string, ClearStart>();
  for (const s of wrote) {
    const by = await clearedBy(root, s.sessionId, forms);
    const started = by ? Date.parse(by.at) : NaN;
    if (by && Number.isFinite(started) && s.lastWrite <= started + CLEARED_WRITE_SLACK_MS) out.set(s.sessionId, by);
  }
  return out;
}

/**
 * The sessions /clear started in place of sessions of `wrote` (`cleared`: replaced id → the new session's
 * record, which `clearedBy` already took as this folder's own) that are not among `wrote` (no transcript
 * written yet). A session a later /clear replaced in turn is followed to the last.
 */
async function startedBy(
  root: string,
  forms: readonly string[],
  cleared: ReadonlyMap<string, ClearStart>,
  wrote: readonly RecentSession[],
): Promise<RecentSession[]> {
  const have = new Set(wrote.map((s) => s.sessionId));
  const out: RecentSession[] = [];
  for (const first of cleared.values()) {
    let rec = first;
    // At most a few /clear in a row: each step is a record the hook wrote.
    for (let hop = 0; hop < 16; hop++) {
      const next = await clearedBy(root, rec.session_id, forms);
      if (!next || next.session_id === rec.session_id) break;
      rec = next;
    }
    const id = rec.session_id;
    if (have.has(id) || out.some((s) => s.sessionId === id)) continue;
    out.push({
      agent: rec.agent ?? 'claude',
      sessionId: id,
      transcriptPath: rec.transcript_path ?? '',
      lastWrite: Date.parse(rec.at) || 0,
      firstUserLine: null,
    });
  }
  return out;
}

/** A Claude Code session's record the hook wrote in this folder (not checked with git), with its path in the folder. */
type FolderRecord = SessionRecord & { session_id: string; rel: string };

/**
 * The SessionStart records of this folder's Claude Code sessions (`forms`: `rootForms`), each as the hook
 * wrote it here as far as its file tells (`recordedHere` without asking git, which the caller asks about
 * a record it goes by). Never throws.
 */
async function folderRecords(root: string, forms: readonly string[]): Promise<FolderRecord[]> {
  const out: FolderRecord[] = [];
  for (const name of await listNames(path.join(root, SESSION_RECORDS_DIR_REL))) {
    const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
    if (!isSessionId(id)) continue;
    const rel = `${SESSION_RECORDS_DIR_REL}/${name}`;
    const r = await readSessionRecordFor(root, id).catch(() => null);
    if (r && r.agent !== 'codex' && (await recordedHere(root, rel, r, forms, { tracked: false }).catch(() => false)))
      out.push({ ...r, session_id: id, rel });
  }
  return out;
}

/**
 * The sessions a /clear within the window (`since`, ms) started, as its record (the hook's own, git asked)
 * shows, that neither wrote (`have`) nor are counted yet (`counted`): each followed through the /clear that
 * replaced it in turn to the last, as `startedBy` does.
 */
async function clearedInWindow(
  root: string,
  forms: readonly string[],
  records: readonly FolderRecord[],
  since: number,
  have: ReadonlySet<string>,
  counted: readonly RecentSession[],
): Promise<RecentSession[]> {
  const out: RecentSession[] = [];
  const known = (id: string) =>
    have.has(id) || counted.some((s) => s.sessionId === id) || out.some((s) => s.sessionId === id);
  for (const r of records) {
    if (r.source !== 'clear' || !(Date.parse(r.at) >= since) || known(r.session_id)) continue;
    if (!(await recordedHere(root, r.rel, r, forms))) continue;
    let rec: SessionRecord & { session_id: string } = r;
    for (let hop = 0; hop < 16; hop++) {
      const next = await clearedBy(root, rec.session_id, forms);
      if (!next || next.session_id === rec.session_id) break;
      rec = next;
    }
    if (known(rec.session_id)) continue;
    out.push({
      agent: 'claude',
      sessionId: rec.session_id,
      transcriptPath: rec.transcript_path ?? '',
      lastWrite: Date.parse(rec.at) || 0,
      firstUserLine: null,
    });
  }
  return out;
}

/**
 * The /clear starts among `live` that name no session they replaced (no record of an earlier session in
 * their agent process), each with the Claude Code sessions of `live` the hook never recorded (see
 * `LiveSessions.unplaced`).
 */
function unplacedClears(records: readonly FolderRecord[], live: readonly RecentSession[]): LiveSessions['unplaced'] {
  const ids = new Set(records.map((r) => r.session_id));
  const maybe = live.filter((s) => s.agent === 'claude' && !ids.has(s.sessionId)).map((s) => s.sessionId);
  if (!maybe.length) return [];
  const out: LiveSessions['unplaced'] = [];
  for (const s of live) {
    const r = records.find((x) => x.session_id === s.sessionId);
    if (r?.source !== 'clear') continue;
    const before = records.some(
      (x) => x.session_id !== r.session_id && Date.parse(x.at) < Date.parse(r.at) && sameAgentProcess(x, r),
    );
    if (!before) out.push({ by: r.session_id, maybe });
  }
  return out;
}

/** The sessions of the folder `root` that run now (the rule above). Never throws. */
export async function liveSessions(root: string, opts: RecentSessionsOptions = {}): Promise<LiveSessions> {
  const wrote = await recentSessions(root, opts).catch(() => []);
  const asWrote: LiveSessions = { live: wrote, replaced: [], started: [], unplaced: [] };
  if (!wrote.length) return asWrote;
  // The folder's forms (its links resolved), read once for every record the rule reads.
  const forms = await rootForms(root).catch(() => null);
  if (!forms) return asWrote;
  const cleared = await clearedSessions(root, forms, wrote).catch(() => new Map<string, ClearStart>());
  const live = wrote.filter((s) => !cleared.has(s.sessionId));
  const started = cleared.size ? await startedBy(root, forms, cleared, wrote).catch(() => []) : [];
  const records = await folderRecords(root, forms).catch(() => []);
  const since =
    (opts.now ?? Date.now()) - (opts.windowMinutes ?? sessionWindowMinutes(opts.env ?? process.env)) * 60_000;
  const have = new Set(wrote.map((s) => s.sessionId));
  started.push(...(await clearedInWindow(root, forms, records, since, have, started).catch(() => [])));
  live.push(...started);
  if (live.length === 0) return asWrote;
  return {
    live,
    replaced: [...cleared].map(([id, by]) => ({ id, by: by.session_id })),
    started,
    unplaced: unplacedClears(records, live),
  };
}

/**
 * The session meant instead of `id` when /clear replaced `id` (`l.replaced`): the newest live one (with
 * one live session, that one); null when `id` was not replaced.
 */
export function inPlaceOf(l: LiveSessions, id: string | null): RecentSession | null {
  if (!l.replaced.some((x) => x.id === id)) return null;
  return [...l.live].sort((a, b) => b.lastWrite - a.lastWrite)[0] ?? null;
}

/**
 * The meter's reference to a live session: its transcript, or, for a session /clear started that wrote
 * none yet, where its client will write it (the path its SessionStart record names, when that is the
 * session's own file name; for Claude Code else `projects/<folder's name>/<id>.jsonl`, the folder as the
 * client names it, its links resolved), dated by its start.
 */
export async function refOfLive(root: string, s: RecentSession, opts: RecentSessionsOptions = {}): Promise<SessionRef> {
  const own =
    path.isAbsolute(s.transcriptPath) &&
    (s.agent === 'codex'
      ? codexIdFromName(s.transcriptPath) === s.sessionId
      : path.basename(s.transcriptPath) === `${s.sessionId}.jsonl`);
  const file = own
    ? s.transcriptPath
    : s.agent === 'claude'
      ? path.join(
          claudeHome(opts),
          'projects',
          claudeProjectDirName((await rootForms(root)).at(-1) as string),
          `${s.sessionId}.jsonl`,
        )
      : '';
  const st = file ? await statOrNull(file) : null;
  return { agent: s.agent, sessionId: s.sessionId, path: file, mtime: st?.isFile() ? st.mtimeMs : s.lastWrite };
}

/**
 * The session the status bar follows in the folder `root`: its newest session of either client
 * (`newest`, as `findSessions` finds it), unless /clear replaced it: then the newest live session (the one
 * /clear started, also before it wrote anything), so the replaced session's figure is not shown. With the
 * live sessions, for a caller that picks among several (the status bar: the active terminal's).
 */
export async function followedSession(
  root: string,
  newest: SessionRef | null,
  opts: RecentSessionsOptions = {},
): Promise<{ ref: SessionRef | null; live: LiveSessions }> {
  const live = await liveSessions(root, opts);
  const instead = newest ? inPlaceOf(live, newest.sessionId) : null;
  return { ref: instead ? await refOfLive(root, instead, opts) : newest, live };
}
