/**
 * The statusLine feed: Claude Code hands its statusLine command a JSON with `context_window`, the
 * figure its own UI shows. `session-ledger statusline` records it per session under the project's
 * `.claude/session-ledger/`, and the meter prefers it when it is newer than the transcript's figure.
 */
import * as path from 'node:path';
import { readHead, realPathOrNull, statOrNull } from './files';

/** Where the relay records the feed of one session. */
export function feedPath(root: string, sessionId: string): string {
  return path.join(root, '.claude', 'session-ledger', `statusline.${safeId(sessionId)}.json`);
}

/** A name `feedPath` gives a session's record. */
export function isFeedName(name: string): boolean {
  return name.startsWith('statusline.') && name.endsWith('.json');
}

/** A session id as a file-name part (ids are UUIDs; anything else is made harmless). */
export function safeId(sessionId: string): string {
  return sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 128) || '_';
}

/** The last millisecond of the year 9999: `isoTime` writes the four-digit years up to it itself. */
const YEAR_9999_END = 253_402_300_799_999;

/**
 * `new Date(ms).toISOString()` (`2026-12-04T20:01:24.463Z`) from arithmetic on the UTC day number.
 * Date's formatter maps the time-zone data in on its first call (0.25 ms and 0.7 MB here), which
 * the status line would pay on every refresh for a time that is UTC anyway. Outside 1970–9999, or for
 * a value that is no time, Date itself answers (and throws as it does).
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms <= YEAR_9999_END)) return new Date(ms).toISOString();
  const t = Math.floor(ms);
  const days = Math.floor(t / 86_400_000);
  const inDay = t - days * 86_400_000;
  // Days since 0000-03-01 in 400-year eras of 146,097 days, each year starting in March.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m5 = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * m5 + 2) / 5) + 1;
  const month = m5 < 10 ? m5 + 3 : m5 - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(inDay / 3_600_000);
  const min = Math.floor(inDay / 60_000) % 60;
  const sec = Math.floor(inDay / 1000) % 60;
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(h)}:${two(min)}:${two(sec)}.${String(inDay % 1000).padStart(3, '0')}Z`;
}

/** What the relay writes. `input` is Claude Code's statusLine JSON as received. */
export interface FeedRecord {
  version: 1;
  /** ISO time the relay received it. */
  receivedAt: string;
  sessionId: string;
  input: Record<string, unknown>;
}

/** Claude Code's own figure, read from a feed. */
export interface FeedFigure {
  sessionId: string;
  transcriptPath: string | null;
  model: string | null;
  usedTokens: number;
  windowTokens: number;
  percent: number;
  receivedAt: number;
}

/**
 * What a feed record says about its session: the window Claude Code reported for it (also when
 * there is no figure yet) and the figure, or null for "no figure yet" (`used_percentage` null: at
 * start-up and right after /compact — never 0 %).
 */
export interface FeedInfo {
  sessionId: string;
  transcriptPath: string | null;
  model: string | null;
  /** `context_window.context_window_size`, or null when the record has none. */
  windowTokens: number | null;
  figure: FeedFigure | null;
  receivedAt: number;
}

const obj = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const fin = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** The model and window in Claude Code's statusLine JSON (each null when absent). Never throws. */
export function windowOfStatusInput(input: Record<string, unknown>): {
  model: string | null;
  windowTokens: number | null;
  transcriptPath: string | null;
} {
  const cw = obj(input.context_window);
  const size = cw ? fin(cw.context_window_size) : null;
  const model = obj(input.model);
  return {
    model: model && typeof model.id === 'string' ? model.id : null,
    windowTokens: size && size > 0 ? size : null,
    transcriptPath: typeof input.transcript_path === 'string' ? input.transcript_path : null,
  };
}

/**
 * The figure in Claude Code's statusLine JSON, or null when it carries none (`context_window`
 * absent, `used_percentage` null, or a usage of 0 tokens: no figure yet, at start-up and right after /compact).
 * Never throws.
 */
export function figureOfStatusInput(
  input: Record<string, unknown>,
): Omit<FeedFigure, 'receivedAt' | 'sessionId'> | null {
  const cw = obj(input.context_window);
  if (!cw) return null;
  const { model, windowTokens, transcriptPath } = windowOfStatusInput(input);
  const pct = fin(cw.used_percentage);
  if (!windowTokens || pct === null) return null;
  const cu = obj(cw.current_usage);
  const used = cu
    ? (fin(cu.input_tokens) ?? 0) + (fin(cu.cache_creation_input_tokens) ?? 0) + (fin(cu.cache_read_input_tokens) ?? 0)
    : Math.round((pct * windowTokens) / 100);
  // No request is ever 0 tokens (the system prompt alone is thousands): a usage of 0 is the counters
  // reset right after /compact, where Claude Code also sends every count 0 instead of null — no figure yet.
  if (used === 0) return null;
  return { transcriptPath, model, usedTokens: used, windowTokens, percent: pct };
}

/** Parse a feed file's text into what it says about its session. Never throws. */
export function parseFeedInfo(text: string): FeedInfo | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const rec = obj(v);
  if (!rec || typeof rec.sessionId !== 'string') return null;
  const input = obj(rec.input);
  const at = typeof rec.receivedAt === 'string' ? Date.parse(rec.receivedAt) : NaN;
  if (!input || !Number.isFinite(at)) return null;
  const w = windowOfStatusInput(input);
  const f = figureOfStatusInput(input);
  return {
    sessionId: rec.sessionId,
    ...w,
    figure: f ? { ...f, sessionId: rec.sessionId, receivedAt: at } : null,
    receivedAt: at,
  };
}

/** Parse a feed file's text into Claude Code's figure, or null (none yet, or not a feed). Never throws. */
export function parseFeed(text: string): FeedFigure | null {
  return parseFeedInfo(text)?.figure ?? null;
}

/**
 * Reads one feed file under `root`, re-parsing only when it changed. Never through a link (at the file,
 * or at `.claude` or its `session-ledger` folder), as the relay never writes through one: then there is none
 * (nor for a file with a second hard link).
 */
export class FeedReader {
  private mtime = -1;
  private size = -1;
  private cached: FeedInfo | null = null;

  constructor(
    readonly file: string,
    readonly root: string,
  ) {}

  async read(): Promise<FeedInfo | null> {
    // Where it really is must be where the root's own folder has it: a link on the way leads elsewhere.
    const [real, realRoot] = await Promise.all([realPathOrNull(this.file), realPathOrNull(this.root)]);
    const st =
      real !== null && realRoot !== null && real === path.join(realRoot, path.relative(this.root, this.file))
        ? await statOrNull(real)
        : null;
    if (!st || !st.isFile() || st.nlink > 1 || st.size > 1024 * 1024) {
      this.mtime = -1;
      this.cached = null;
      return null;
    }
    if (st.mtimeMs === this.mtime && st.size === this.size) return this.cached;
    const bytes = await readHead(this.file, st.size);
    this.mtime = st.mtimeMs;
    this.size = st.size;
    this.cached = bytes ? parseFeedInfo(bytes.toString('utf8')) : null;
    return this.cached;
  }
}
