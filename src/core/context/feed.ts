/**
 * The statusLine feed: Claude Code hands its statusLine command a JSON with `context_window`, the
 * figure its own UI shows. `session-ledger statusline` records it per session under the project's
 * `.claude/session-ledger/`, and the meter prefers it when it is newer than the transcript's figure.
 */
import * as path from 'node:path';
import { readHead, statOrNull } from './files';

/** Where the relay records the feed of one session. */
export function feedPath(root: string, sessionId: string): string {
  return path.join(root, '.claude', 'session-ledger', `statusline.${safeId(sessionId)}.json`);
}

/** A session id as a file-name part (ids are UUIDs; anything else is made harmless). */
export function safeId(sessionId: string): string {
  return sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 128) || '_';
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

const obj = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const fin = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/**
 * The figure in Claude Code's statusLine JSON, or null when it carries none (`context_window`
 * absent, or `used_percentage` null before the first API call). Never throws.
 */
export function figureOfStatusInput(input: Record<string, unknown>): Omit<FeedFigure, 'receivedAt' | 'sessionId'> | null {
  const cw = obj(input.context_window);
  if (!cw) return null;
  const size = fin(cw.context_window_size);
  const pct = fin(cw.used_percentage);
  if (!size || pct === null) return null;
  const cu = obj(cw.current_usage);
  const used = cu ? (fin(cu.input_tokens) ?? 0) + (fin(cu.cache_creation_input_tokens) ?? 0) + (fin(cu.cache_read_input_tokens) ?? 0) : Math.round((pct * size) / 100);
  const model = obj(input.model);
  return {
    transcriptPath: typeof input.transcript_path === 'string' ? input.transcript_path : null,
    model: model && typeof model.id === 'string' ? model.id : null,
    usedTokens: used,
    windowTokens: size,
    percent: pct,
  };
}

/** Parse a feed file's text. Never throws. */
export function parseFeed(text: string): FeedFigure | null {
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
  const f = figureOfStatusInput(input);
  return f ? { ...f, sessionId: rec.sessionId, receivedAt: at } : null;
}

/** Reads one feed file, re-parsing only when it changed. */
export class FeedReader {
  private mtime = -1;
  private size = -1;
  private cached: FeedFigure | null = null;

  constructor(readonly file: string) {}

  async read(): Promise<FeedFigure | null> {
    const st = await statOrNull(this.file);
    if (!st || !st.isFile() || st.size > 1024 * 1024) {
      this.mtime = -1;
      this.cached = null;
      return null;
    }
    if (st.mtimeMs === this.mtime && st.size === this.size) return this.cached;
    const bytes = await readHead(this.file, st.size);
    this.mtime = st.mtimeMs;
    this.size = st.size;
    this.cached = bytes ? parseFeed(bytes.toString('utf8')) : null;
    return this.cached;
  }
}
