/**
 * The status line's own work (`session-ledger statusline`, see ./commands/statusline): everything but
 * the transcript meter, which the caller passes in. The hook script runs this module as its first
 * part, as code, so the status line's usual call (Claude Code sent its own figure) parses and runs
 * only this much; the meter loads only when a figure has to come from the transcript.
 *
 * `session-ledger statusline [--root DIR] [-- CMD…]`: Claude Code's statusLine command. Reads the
 * JSON Claude Code passes on stdin, records it atomically per session under the project's
 * `.claude/session-ledger/` when its figure changed (so the meter can use Claude Code's own figure;
 * the records of the 32 newest sessions are kept), then prints either a one-line status of its own
 * or, when a previous statusLine command follows `--`, that command's output fed the same stdin
 * (installing the relay never takes the user's status line away).
 *
 * After `--`: one argument is run through the shell (it is the previous command line as written in
 * settings); several arguments are run as they are, without a shell.
 */
import * as path from 'node:path';
import { readOwnText, writeOwnFile } from '../core/files/atomic';
import { isDir } from '../core/files/fsread';
import { notAProject } from '../core/files/project';
import { feedPath, figureOfStatusInput, isFeedName, isoTime, type FeedRecord } from '../core/context/feed';
import { keepNewest, type TracksEach } from '../core/files/prune';
import { detectedThresholds } from '../core/context/systems';
import { levelOf, shownPercent, type Level } from '../core/context/thresholds';
import { isSessionId } from '../core/checkpoint/marker';
import type { CheckpointDoneQuery } from '../core/hooks/guard';
import { newestMarkerTime, pastCheckpointTurn } from '../core/checkpoint/freshness';
import type { ContextUsage } from '../core/model/model';
import { plainArgs } from './args';
import { UsageError, type Io } from './io';
import { localeLang, type Lang } from './locale';

/** A token count as the status line and `context` say it: `84k`, `1.2M`. */
export function tokens(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(2)}M`;
  if (n >= 1000) return `${+(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** A level in the status line's and `context`'s words. */
export function levelText(level: Level, words: StatusWords = STATUS_WORDS.en): string {
  return level === 'urgent' ? words.now : level === 'propose' ? words.proposed : 'ok';
}

/** What the status line says after its figure, in one language. */
export interface StatusWords {
  now: string;
  proposed: string;
  done: string;
  tokens: string;
}

/**
 * The status line's words in each language the tool speaks (`localeLang`), the short forms of the
 * extension's own ("Checkpoint now", "Checkpoint proposed.", "Checkpoint done", its l10n bundles'): kept
 * here, not read from a bundle, as the status line runs from a repository's `.claude/hooks/`, where no
 * bundle of the package is, on every refresh.
 */
export const STATUS_WORDS: Record<'en' | Lang, StatusWords> = {
  en: { now: 'checkpoint now', proposed: 'checkpoint proposed', done: 'checkpoint done', tokens: 'tokens' },
  ja: {
    now: '今すぐチェックポイント',
    proposed: 'チェックポイントを推奨',
    done: 'チェックポイント完了',
    tokens: 'トークン',
  },
  ko: { now: '지금 체크포인트', proposed: '체크포인트 권장', done: '체크포인트 완료', tokens: '토큰' },
};

const obj = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** The folder whose `.claude/` receives the feed: --root, else the session's project dir, else its cwd. */
async function projectDir(
  input: Record<string, unknown> | null,
  root: string | undefined,
  io: Io,
): Promise<string | null> {
  if (root !== undefined) return path.resolve(io.cwd, root);
  const ws = obj(input?.workspace);
  for (const cand of [ws?.project_dir, input?.cwd, ws?.current_dir, io.cwd]) {
    if (typeof cand !== 'string' || !path.isAbsolute(cand)) continue;
    // Only a project that already has its `.claude/` folder (the relay is installed there); a synchronous stat, no fs.promises.
    if (isDir(path.join(cand, '.claude'))) return cand;
  }
  return null;
}

/** The fields of Claude Code's statusLine JSON the meter reads from a record, as one string. */
function figureKey(input: Record<string, unknown>): string {
  return JSON.stringify([input.session_id, input.transcript_path, input.model, input.context_window]);
}

/** The largest record file the relay reads back (Claude Code's JSON is about 1 KB). */
const RECORD_MAX_BYTES = 64 * 1024;

/**
 * When `file`, this session's record under `dir`, already holds what the meter reads of `input`: the time it was
 * received (its `receivedAt`, '' when it has none); null when it holds another figure or none.
 */
function alreadyRecorded(file: string, dir: string, input: Record<string, unknown>): string | null {
  // Never read through a link (at the record, or at `.claude` or its `session-ledger` folder): then no record.
  const text = readOwnText(file, dir, RECORD_MAX_BYTES);
  if (text === null) return null;
  try {
    const rec = obj(JSON.parse(text));
    const was = obj(rec?.input);
    if (rec?.version !== 1 || was === null || figureKey(was) !== figureKey(input)) return null;
    return typeof rec.receivedAt === 'string' ? rec.receivedAt : '';
  } catch {
    return null;
  }
}

/**
 * Record the statusLine JSON for the meter. A refresh that brings the figure the record already
 * holds writes nothing (Claude Code refreshes when the conversation's messages change; the figure
 * changes only with an answer), so the record says when Claude Code first reported its figure.
 * Returns that time (ISO), '' when not known. Never throws: the status line must always print.
 */
async function record(input: Record<string, unknown>, dir: string | null, tracks: TracksEach): Promise<string> {
  const sid = input.session_id;
  if (!dir || typeof sid !== 'string' || !sid) return '';
  let now = '';
  try {
    const file = feedPath(dir, sid);
    const was = alreadyRecorded(file, dir, input);
    if (was !== null) return was;
    now = isoTime(Date.now());
    // The home folder and a file-system root are no project (even through a link): nothing of the tool's is written there.
    if (notAProject(dir)) return now;
    const rec: FeedRecord = { version: 1, receivedAt: now, sessionId: sid, input };
    // Only a cache of the client's figure: atomic, not fsynced.
    const { created } = await writeOwnFile(file, `${JSON.stringify(rec)}\n`, { root: dir, durable: false });
    // A session's first record: the records of the newest sessions are kept, older ones go.
    if (created) await keepNewest(path.dirname(file), dir, isFeedName, tracks);
  } catch {
    /* a read-only project still gets its status line */
  }
  return now;
}

/** The most of the relayed command's output (each stream) that is kept; the rest is dropped. */
export const RELAY_OUTPUT_MAX = 64 * 1024;
/** The relayed command's time limit. */
export const RELAY_TIMEOUT_MS = 30_000;

/** How long the relay waits, once the command has exited, for the rest of its output. */
const RELAY_DRAIN_MS = 100;

/**
 * Run the previous statusLine command with the same stdin; its stdout becomes ours. It runs in a
 * process group of its own: the time limit, and a signal that ends the relay (Claude Code cancels a
 * refresh it no longer needs), kill the whole group (a shell's children too). The relay answers once
 * the command has exited and its output has drained (at most RELAY_DRAIN_MS more: a background job
 * it left holding the output does not hold the line), or at the time limit; at most RELAY_OUTPUT_MAX
 * bytes of each stream are kept.
 */
export function relay(cmd: string[], stdin: string, io: Io, timeoutMs = RELAY_TIMEOUT_MS): Promise<number> {
  // Loaded here: without a command to relay, the status line never pays for node:child_process.
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve) => {
    const opts = {
      stdio: ['pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'],
      env: io.env,
      cwd: io.cwd,
      detached: process.platform !== 'win32',
    };
    // The relay ended by a signal takes the command's group with it. The handlers are in place before the
    // command starts: a signal between its start and their registration would end the relay by Node's
    // default and leave the command running.
    const onSignal = (sig: NodeJS.Signals) => {
      kill();
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGHUP' ? 1 : 15));
    };
    const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
    for (const sig of signals) process.on(sig, onSignal);
    const child = cmd.length === 1 ? spawn(cmd[0], { ...opts, shell: true }) : spawn(cmd[0], cmd.slice(1), opts);
    const kill = () => {
      try {
        if (opts.detached && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const keep = (chunks: Buffer[], size: { n: number }) => (c: Buffer) => {
      if (size.n >= RELAY_OUTPUT_MAX) return;
      const part = c.subarray(0, RELAY_OUTPUT_MAX - size.n);
      chunks.push(part);
      size.n += part.length;
    };
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let finished = false;
    let drain: NodeJS.Timeout | undefined;
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(drain);
      for (const sig of signals) process.off(sig, onSignal);
      child.stdout.destroy();
      child.stderr.destroy();
      const o = Buffer.concat(out).toString('utf8');
      const e = Buffer.concat(err).toString('utf8');
      if (o) io.stdout(o);
      if (e) io.stderr(e);
      resolve(code);
    };
    const timer = setTimeout(() => {
      kill();
      drain = setTimeout(() => finish(1), RELAY_DRAIN_MS);
    }, timeoutMs);
    child.stdout.on('data', keep(out, { n: 0 }));
    child.stderr.on('data', keep(err, { n: 0 }));
    child.stdin.on('error', () => undefined);
    // A command that cannot be started has printed nothing: the message is all there is to say.
    child.on('error', (e) => {
      if (finished) return;
      io.stderr(`session-ledger statusline: cannot run '${cmd.join(' ')}': ${e.message}`);
      finish(1);
    });
    child.on('exit', (code) => {
      if (!finished && drain === undefined) drain = setTimeout(() => finish(code ?? 1), RELAY_DRAIN_MS);
    });
    child.on('close', (code) => finish(code ?? 1));
    child.stdin.end(stdin);
  });
}

/** The meter's figures for one transcript (the context meter's `measure`), passed in by the caller. */
export type MeasureTranscript = (
  root: string,
  opts: { transcript?: string; sessionId?: string; agent: 'claude'; env: NodeJS.ProcessEnv },
) => Promise<ContextUsage[]>;

/** What the status line asks the meter's part, which it loads only when it needs one of them. */
export interface StatusLineMeter {
  measure: MeasureTranscript;
  /** Whether the session's checkpoint is done, as the guard decides (core's `checkpointDone`). */
  checkpointDone: (root: string, q: CheckpointDoneQuery) => Promise<boolean>;
  /** What git's index says of the records a new session's record would prune (`gitTracksEach`), asked only then. */
  tracks: TracksEach;
}

/** Our own line: Claude Code's figure when it sent one, else the meter's, with the level. */
async function ownLine(
  input: Record<string, unknown> | null,
  dir: string | null,
  io: Io,
  meter: StatusLineMeter,
  recordedAt: string,
): Promise<string> {
  const root = dir ?? io.cwd;
  let pct: number | null = null;
  let used: number | null = null;
  let window: number | null = null;
  let figureAt = recordedAt;
  const f = input ? figureOfStatusInput(input) : null;
  const transcript = typeof input?.transcript_path === 'string' ? input.transcript_path : undefined;
  const sessionId = typeof input?.session_id === 'string' ? input.session_id : undefined;
  if (f) {
    pct = f.percent;
    used = f.usedTokens;
    window = f.windowTokens;
  } else {
    // The session Claude Code names is the one measured (its own transcript), never the folder's newest.
    const [u] = await meter.measure(root, { transcript, sessionId, agent: 'claude', env: io.env }).catch(() => []);
    if (u) {
      pct = u.percent;
      used = u.usedTokens;
      window = u.windowTokens;
      figureAt = u.at ?? '';
    }
  }
  // No figure yet (start-up, right after /compact): Claude Code's null is not 0 %.
  if (used === null) return 'ctx --';
  const words = STATUS_WORDS[localeLang(io.env) ?? 'en'];
  // A model whose window is unknown: tokens, no percentage.
  if (pct === null || window === null) return `ctx ${tokens(used)} ${words.tokens}`;
  const level = levelOf(pct, await detectedThresholds(root));
  const line = `ctx ${shownPercent(pct, 1)}% (${tokens(used)}/${tokens(window)})`;
  if (level === 'ok') return line;
  const done = await checkpointMade(
    root,
    { sessionId, transcript: transcript ?? null, env: io.env, figureAt },
    meter.checkpointDone,
  );
  return `${line} · ${done ? words.done : levelText(level, words)}`;
}

/**
 * Past a mark, whether the checkpoint it asks for is made: "checkpoint done", as the status bar says it,
 * by the guard's own decision (`checkpointDone`), for the status line and `context` alike. The guard is
 * asked only while a marker stands there and the figure may be of its turn (dated at most its turn's time
 * after the newest marker file; the guard's part then reads the transcript's turns after the marker):
 * every other call loads nothing more. Never throws.
 */
export async function checkpointMade(
  root: string,
  q: Omit<CheckpointDoneQuery, 'sessionId'> & { sessionId: string | null | undefined },
  checkpointDone: StatusLineMeter['checkpointDone'] | null,
): Promise<boolean> {
  const { sessionId } = q;
  if (!checkpointDone || !isSessionId(sessionId)) return false;
  const newest = newestMarkerTime(root, sessionId);
  if (newest === -Infinity || pastCheckpointTurn(q.figureAt ? Date.parse(q.figureAt) : NaN, newest)) return false;
  return checkpointDone(root, { ...q, sessionId }).catch(() => false);
}

export async function runStatusLine(args: string[], io: Io, meter: StatusLineMeter): Promise<number> {
  const sep = args.indexOf('--');
  const own = sep >= 0 ? args.slice(0, sep) : args;
  const cmd = sep >= 0 ? args.slice(sep + 1).filter((a) => a !== '') : [];
  // The usual call has no option of its own: no parser to compile on that refresh. Any shape but the
  // plain ones goes to the whole CLI, which parses it and words its usage errors.
  const parsed = own.length ? plainArgs(own, { root: { type: 'string' } }, false) : { values: {} };
  if (!parsed) throw new UsageError('');
  const values = parsed.values as { root?: string };
  const stdin = await io.stdin();
  let input: Record<string, unknown> | null = null;
  try {
    input = obj(JSON.parse(stdin));
  } catch {
    input = null;
  }
  const dir = await projectDir(input, values.root, io);
  const recordedAt = input ? await record(input, dir, meter.tracks) : '';
  if (cmd.length) return relay(cmd, stdin, io);
  io.stdout(await ownLine(input, dir, io, meter, recordedAt));
  return 0;
}
