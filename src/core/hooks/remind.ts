/**
 * The reminder (opt-in: `hooks install --remind`): before each prompt, when the session's context
 * has crossed a mark of a detected system (its seed's own figures in the facts table), one short
 * suggestion for the agent: which system, which mark, what to run (the system's own checkpoint
 * trigger). Nothing else. It only ever suggests: it never blocks, never runs a checkpoint, and
 * writes nothing but its own per-session record `.claude/session-ledger/remind/<session>.json` (and,
 * while it changes the record, the record's write lock beside it: two prompts at once say a band once).
 *
 * Once per band per session: each system's level (below its first mark, past it, past the urgent
 * one) is recorded; a suggestion comes only when a level rises above the recorded one. When the
 * context falls back (a compaction), the lower level is recorded, so crossing the mark again counts
 * again. Silent below the first mark, when nothing is detected, and when the session's checkpoint
 * covers it as the PreCompact guard decides it (`checkpointCovers`: the status line's "checkpoint done",
 * or nothing-to-preserve): never while the guard would stop /compact. A band the checkpoint covers
 * when it is reached is handled as a suggested one is, and recorded: the guard's decision does not end
 * with later turns (an idle state keeps a checkpoint good whatever its age), so a later turn in that
 * band is no new reason; the next suggestion comes at the next band, where the figure is a later
 * turn's than the checkpoint's and so not covered. A state change within the band that makes the
 * guard block again is the guard's to say at /compact, as after a suggestion the user let pass.
 *
 * Cost: a few directory listings (presence), the transcript's tail (the meter), one small record.
 * A system's switch (S0's `.agents.yml`) and the markers are looked at only when a level rose, and the
 * guard (its own part of the hook script, loaded then) is asked only while a marker file stands there.
 * The agent-specific output (Claude Code's hook JSON) is the caller's; this module takes a session and
 * a transcript.
 */
import * as path from 'node:path';
import { readOwnText, writeOwnFile, WriteRefused } from '../files/atomic';
import { withWriteLock } from '../files/lock';
import { gitTracksEach } from '../git/tracked';
import { detectSystems, measure, switchedOn } from '../context';
import { levelOf, type Level } from '../context/thresholds';
import { FACTS, systemName } from '../systems/facts';
import { NeedsFullReader } from '../context/full-reader';
import { isSessionId } from '../checkpoint/marker';
import { chooseMarker, newestMarkerTime, optedOut, pastCheckpointTurn } from '../checkpoint/freshness';
import { transcriptBegan } from '../context/files';
import type { CheckpointDoneQuery } from './guard';
import type { ContextUsage, SystemId } from '../model/model';
import { ENGLISH, t, type Language } from '../model/messages';
import { notAProject } from '../files/project';
import { isRecordName, keepNewest } from '../files/prune';

export const REMIND_DIR_REL = '.claude/session-ledger/remind';

/** A system's level: 0 below its first mark, 1 past the proposal, 2 past the urgent mark. */
export type Band = 0 | 1 | 2;
export type Bands = Partial<Record<SystemId, Band>>;

const BAND: Record<Level, Band> = { ok: 0, propose: 1, urgent: 2 };

/** The band of `percent` for one system's marks (at the mark counts as past it). */
export function bandOf(id: SystemId, percent: number | null): Band {
  return BAND[levelOf(percent, { profile: id, ...FACTS[id].thresholds })];
}

/**
 * Compare the bands now with the recorded ones: the systems whose band rose (to be suggested), and
 * what to record. After a compaction (`fresh`) nothing recorded counts: every band now is new.
 */
export function compareBands(
  now: Bands,
  recorded: Bands,
  fresh = false,
): { rose: SystemId[]; record: Bands; changed: boolean } {
  const rose: SystemId[] = [];
  const record: Bands = {};
  let changed = false;
  for (const id of Object.keys(now) as SystemId[]) {
    const b = now[id] ?? 0;
    const before = fresh ? 0 : (recorded[id] ?? 0);
    if (b > before) rose.push(id);
    record[id] = b;
    if (b !== (recorded[id] ?? 0)) changed = true;
  }
  for (const id of Object.keys(recorded) as SystemId[]) if (!(id in now)) changed = true;
  return { rose, record, changed };
}

/** The suggestion for one system whose band rose to `band` at `percent`, in `lang` (the trigger, a command, as it is). */
export function suggestionLine(id: SystemId, band: Band, percent: number, lang: Language = ENGLISH): string {
  const f = FACTS[id];
  const mark = band === 2 && f.thresholds.urgent !== null ? f.thresholds.urgent : f.thresholds.propose;
  const pct = Math.floor(percent * 10) / 10;
  const name = systemName(id);
  const run = f.checkpointTrigger;
  // A system that names no figure of its own (S1, S4) gets Session Ledger's own marks, and the line says whose mark it is.
  return lang.msg(
    band === 2
      ? f.ownThresholds
        ? t(
            'Session Ledger: context is at {0}%, past the {1}% mark Session Ledger uses for {2} (it names no mark of its own): checkpoint now, before the handoff turns lossy. To run: {3}',
            pct,
            mark,
            name,
            run,
          )
        : t(
            'Session Ledger: context is at {0}%, past the {1}% mark of {2}: checkpoint now, before the handoff turns lossy. To run: {3}',
            pct,
            mark,
            name,
            run,
          )
      : f.ownThresholds
        ? t(
            'Session Ledger: context is at {0}%, past the {1}% mark Session Ledger uses for {2} (it names no mark of its own): propose a checkpoint to the user. To run: {3}',
            pct,
            mark,
            name,
            run,
          )
        : t(
            'Session Ledger: context is at {0}%, past the {1}% mark of {2}: propose a checkpoint to the user. To run: {3}',
            pct,
            mark,
            name,
            run,
          ),
  );
}

export interface RemindInput {
  root: string;
  sessionId: string | null;
  /** The session's transcript (Claude Code's `transcript_path`, a Codex rollout). */
  transcript: string | null;
  agent: 'claude' | 'codex';
  env: NodeJS.ProcessEnv;
  now?: number;
  /** The guard's "checkpoint done" (see `checkpointCovers`); without it no checkpoint covers the session. */
  checkpointDone?: CheckpointDone | null;
  /** The suggestion's language (the hook's locale); English when not given. The log stays English. */
  lang?: Language;
}

/**
 * The status line's "checkpoint done" (core's `checkpointDone`: the PreCompact guard's decision on a
 * manual /compact of the session now, and the figure's time). The caller passes it in: the hook script
 * keeps the guard in a part of its own, loaded only when asked.
 */
export type CheckpointDone = (root: string, q: CheckpointDoneQuery) => Promise<boolean>;

/**
 * Whether the session's checkpoint covers it now, so no suggestion is due: the marker the guard takes
 * says nothing-to-preserve (`optedOut`, the guard's own rule: it always allows then), or the checkpoint
 * is done by the guard's own decision (`done`, the status line's "checkpoint done"). Without a file at
 * the session's marker or at the shared one the guard stops /compact (no marker), and with a figure
 * dated later than the turn of the newest marker file can be no checkpoint is done (`pastCheckpointTurn`,
 * `guardCheckpointed`): then the guard
 * is not asked (its part of the hook script is loaded only for it), as the status line does. Never
 * covered when the guard cannot be asked or fails. Never throws.
 */
export async function checkpointCovers(
  root: string,
  q: CheckpointDoneQuery,
  done: CheckpointDone | null | undefined,
): Promise<boolean> {
  try {
    if (!isSessionId(q.sessionId)) return false;
    const newest = newestMarkerTime(root, q.sessionId);
    if (newest === -Infinity) return false;
    const { transcript } = q;
    const choice = await chooseMarker(root, q.sessionId, q.now ?? Date.now(), () =>
      transcript && path.isAbsolute(transcript) ? transcriptBegan(transcript) : null,
    );
    if (optedOut(choice)) return true;
    if (choice.kind !== 'marker' || pastCheckpointTurn(q.figureAt ? Date.parse(q.figureAt) : NaN, newest)) return false;
    return !!done && (await done(root, q));
  } catch {
    return false;
  }
}

export interface RemindResult {
  /** The suggestion (one line per system whose band rose), or null: say nothing. */
  text: string | null;
  /** Why, in one line (the hook prints it on stderr with SESSION_LEDGER_REMIND_DEBUG=1). */
  log: string;
}

function recordPath(root: string, sessionId: string): string {
  return path.join(root, REMIND_DIR_REL, `${sessionId}.json`);
}

/** What the record keeps: each system's band, and which compaction the bands were last reset for. */
interface Recorded {
  bands: Bands;
  /** The time of the compaction whose figure the bands were taken from (reset once per compaction), or null. */
  compaction: string | null;
}

function readRecord(root: string, sessionId: string): Recorded {
  const none: Recorded = { bands: {}, compaction: null };
  // Never through a link, as it is never written through one: a record reached through one is none.
  const text = readOwnText(recordPath(root, sessionId), root, 16 * 1024);
  if (text === null) return none;
  try {
    const v = JSON.parse(text) as { sessionId?: unknown; bands?: unknown; compaction?: unknown };
    const bands: Bands = {};
    if (v.sessionId !== sessionId || !v.bands || typeof v.bands !== 'object') return none;
    for (const [k, b] of Object.entries(v.bands as Record<string, unknown>))
      if (k in FACTS && (b === 0 || b === 1 || b === 2)) bands[k as SystemId] = b;
    return { bands, compaction: typeof v.compaction === 'string' ? v.compaction : null };
  } catch {
    return none;
  }
}

/**
 * Record the bands. Never through a link: `.claude`, its `session-ledger/remind` folders and the
 * record itself must be what they say (a repository can plant a link there); false when refused or
 * failed, and then the hook says nothing (an unrecorded suggestion would come on every prompt).
 */
async function writeRecord(
  root: string,
  sessionId: string,
  rec: Recorded,
  percent: number,
  now: number,
): Promise<boolean> {
  const file = recordPath(root, sessionId);
  try {
    // One of the tool's own files: refused when it, or a folder on the way from the root, is a link.
    const { created } = await writeOwnFile(
      file,
      `${JSON.stringify({ version: 1, sessionId, bands: rec.bands, compaction: rec.compaction, percent, at: new Date(now).toISOString() })}\n`,
      { root, durable: false },
    );
    // A session's first record: the newest sessions' records are kept, older ones go.
    if (created) await keepNewest(path.dirname(file), root, isRecordName, gitTracksEach);
    return true;
  } catch {
    return false;
  }
}

/** The figure as the log says it. */
const atText = (percent: number) => `${Math.floor(percent * 10) / 10}%`;

/**
 * No run of the reminder holds a session's record lock longer than this: it holds it for a read, the
 * guard's decision and a write, and no hook process outlives its time limit (30 s as `hooks install`
 * writes it; Claude Code's default is 60 s). A lock older than this was left behind, whatever pid it names.
 */
export const REMIND_LOCK_HELD_AT_MOST_MS = 10 * 60_000;

/**
 * What the prompt's bands make of the record: the systems whose band rose, what to record, and whether
 * that differs from the record. A figure of a compaction (no turn since) starts the bands afresh, once.
 */
function settle(
  usage: ContextUsage,
  bands: Bands,
  recorded: Recorded,
): { rose: SystemId[]; record: Recorded; changed: boolean } {
  const compaction = usage.afterCompaction ? (usage.at ?? 'unknown') : recorded.compaction;
  const fresh = compaction !== recorded.compaction;
  const { rose, record, changed } = compareBands(bands, recorded.bands, fresh);
  return { rose, record: { bands: record, compaction }, changed: changed || fresh };
}

/**
 * Decide one prompt. Throws only NeedsFullReader (an `.agents.yml` only the YAML reader can answer
 * for, asked where that reader is not loaded: the caller runs the whole CLI); nothing is written
 * before that question. Whatever else goes wrong says nothing.
 */
export async function remind(input: RemindInput): Promise<RemindResult> {
  try {
    return await decide(input);
  } catch (err) {
    if (err instanceof NeedsFullReader) throw err;
    return { text: null, log: `silent (internal error: ${(err as Error)?.message ?? String(err)})` };
  }
}

async function decide(input: RemindInput): Promise<RemindResult> {
  const { root, env } = input;
  const now = input.now ?? Date.now();
  const sid = isSessionId(input.sessionId) ? input.sessionId : null;
  if (!sid) return { text: null, log: 'silent (no usable session id)' };
  if (notAProject(root)) return { text: null, log: `silent (${notAProject(root)})` };
  const present = await detectSystems(root);
  if (!present.length) return { text: null, log: 'silent (no system detected)' };
  // This session's figure: its transcript's tail (and Claude Code's own statusLine figure when newer).
  const usages = await measure(root, { transcript: input.transcript ?? undefined, agent: input.agent, env }).catch(
    () => [],
  );
  const usage = usages.find((u) => input.transcript || u.sessionId === sid);
  if (!usage || usage.percent === null) return { text: null, log: 'silent (no context figure yet)' };
  // Unrounded (the meter's percent has two decimals: one token below 70 % of 1,000,000 would read 70.00).
  const percent = usage.windowTokens ? (usage.usedTokens * 100) / usage.windowTokens : usage.percent;
  const bands: Bands = {};
  for (const id of present) bands[id] = bandOf(id, percent);
  const at = atText(percent);
  // Read first without the lock: a prompt whose bands are as recorded (nearly every prompt) writes nothing and takes no lock.
  if (!settle(usage, bands, readRecord(root, sid)).changed)
    return { text: null, log: `silent (${at}: no band crossed)` };
  try {
    return await withWriteLock(
      recordPath(root, sid),
      root,
      () => decideLocked(input, sid, usage, bands, percent, now),
      {
        waitMs: 0,
        heldAtMostMs: REMIND_LOCK_HELD_AT_MOST_MS,
      },
    );
  } catch (err) {
    if (err instanceof NeedsFullReader) throw err;
    if (err instanceof WriteRefused && err.reason === 'busy')
      return { text: null, log: `silent (${at}: another run of the reminder is deciding for this session)` };
    return { text: null, log: `silent (${at}: the session's reminder record cannot be written)` };
  }
}

/**
 * The record's read, the decision and the record's write, as one step against a second run: two prompts of
 * one session at once (both before either records) would otherwise both say the band. The caller holds
 * the record's write lock. A run that finds the lock held says nothing at once (it never waits): the run
 * holding it decides the same session's band and says it when due, and a band only the later prompt
 * reached is still above the record at the next prompt, which says it then. Waiting would hold the
 * user's prompt behind another hook for a suggestion at most one prompt late. A lock left by a run that
 * is gone is taken over (its process gone, or older than REMIND_LOCK_HELD_AT_MOST_MS).
 */
async function decideLocked(
  input: RemindInput,
  sid: string,
  usage: ContextUsage,
  bands: Bands,
  percent: number,
  now: number,
): Promise<RemindResult> {
  const { root, env } = input;
  const { rose, record, changed } = settle(usage, bands, readRecord(root, sid));
  const at = atText(percent);
  if (!rose.length) {
    if (changed) await writeRecord(root, sid, record, percent, now);
    return { text: null, log: `silent (${at}: no band crossed${changed ? '; bands recorded' : ''})` };
  }
  // Only now: a system's own switch (S0's .agents.yml) and the guard's decision.
  const suggest = await switchedOn(root, rose);
  if (!suggest.length) {
    await writeRecord(root, sid, record, percent, now);
    return { text: null, log: `silent (${at}: ${rose.join(', ')} switched off by its own configuration)` };
  }
  const query = { sessionId: sid, transcript: input.transcript, env, figureAt: usage.at ?? '', now };
  const covered = await checkpointCovers(root, query, input.checkpointDone);
  // Covered or suggested, the band is handled: recorded (never through a link), so no later turn in it asks again.
  const kept = await writeRecord(root, sid, record, percent, now);
  if (covered)
    return {
      text: null,
      log: `silent (${at}: the checkpoint covers the session, as the guard decides; ${kept ? 'bands recorded' : "the session's reminder record cannot be written"})`,
    };
  if (!kept) return { text: null, log: `silent (${at}: the session's reminder record cannot be written)` };
  const text = suggest.map((id) => suggestionLine(id, bands[id] ?? 0, percent, input.lang)).join('\n');
  return { text, log: `suggested ${suggest.map((id) => `${id} band ${bands[id]}`).join(', ')} at ${at}` };
}
