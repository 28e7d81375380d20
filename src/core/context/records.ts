/**
 * What a transcript record means for the context figure, per agent, as a small state machine that
 * can be fed forwards (appended lines) or backwards (the tail, newest first) and gives the same
 * answer either way.
 */

export type Agent = 'claude' | 'codex';

/** `Claude Code`, `Codex CLI`: the client by its name, on every surface. */
export function clientName(agent: Agent): string {
  return agent === 'claude' ? 'Claude Code' : 'Codex CLI';
}
type Obj = Record<string, unknown>;

/** The figure before it becomes a ContextUsage (window and percent are settled later). */
export interface Figure {
  usedTokens: number;
  /** Window the record itself names (Codex `model_context_window`), or null. */
  windowTokens: number | null;
  model: string | null;
  at: string | null;
  afterCompaction: boolean;
  sessionId: string | null;
}

export interface Tracker {
  readonly agent: Agent;
  /** Cheap byte-level test: can this line matter at all? (Lines that cannot are never parsed.) */
  relevant(line: Buffer): boolean;
  /** Feed the next record in file order. */
  push(o: Obj): void;
  /**
   * Feed the previous record (scanning backwards). Returns 'figure' once the figure is settled,
   * 'done' when nothing older can change the answer, 'more' otherwise.
   */
  pushBackward(o: Obj): 'more' | 'figure' | 'done';
  figure(): Figure | null;
  clone(): Tracker;
}

const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
/** More tokens than any context window holds: a count past it is a damaged record, not a figure. */
export const MAX_PLAUSIBLE_TOKENS = 20_000_000;
/** A token count as a record must hold it: absent, or a finite number from 0 to MAX_PLAUSIBLE_TOKENS. */
const countOk = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_PLAUSIBLE_TOKENS);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

// ---------------------------------------------------------------- Claude Code

interface ClaudeAssistant {
  used: number;
  model: string | null;
  at: string | null;
  sessionId: string | null;
}
interface ClaudeCompact {
  post: number;
  at: string | null;
  sessionId: string | null;
}

/** A main-chain assistant record with usage, or null. Synthetic records (`<synthetic>`, no API call) carry no figure. */
export function claudeAssistant(o: Obj): ClaudeAssistant | null {
  if (o.isSidechain === true) return null;
  const m = obj(o.message);
  if (!m) return null;
  if (o.type !== 'assistant' && !(o.type === undefined && m.role === 'assistant')) return null;
  const u = obj(m.usage);
  if (!u) return null;
  const model = str(m.model);
  if (model === '<synthetic>') return null;
  // Counts that are no numbers (strings, negative, none at all, past any window) are no figure: the record before counts.
  const counts = [u.input_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens];
  if (typeof u.input_tokens !== 'number' || !counts.every(countOk)) return null;
  const used = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
  if (used > MAX_PLAUSIBLE_TOKENS) return null;
  return {
    used,
    model,
    at: str(o.timestamp),
    sessionId: str(o.sessionId),
  };
}

export function claudeCompact(o: Obj): ClaudeCompact | null {
  if (o.type !== 'system' || o.subtype !== 'compact_boundary' || o.isSidechain === true) return null;
  const meta = obj(o.compactMetadata);
  // A figure no window holds (1e308, negative, not a number) is a damaged record: passed over, as a usage is.
  if (meta && !countOk(meta.postTokens)) return null;
  return { post: meta ? num(meta.postTokens) : 0, at: str(o.timestamp), sessionId: str(o.sessionId) };
}

const B_ASSISTANT = Buffer.from('assistant');
const B_COMPACT = Buffer.from('compact_boundary');

/**
 * Above this size a line is parsed only when it names a record type that matters as a JSON member
 * (`"type":"assistant"`): a pasted image or a long tool result that merely contains the word is
 * passed over without being parsed. (Inside a JSON string the quotes would be escaped, `\"type\"`.)
 */
export const BIG_LINE = 256 * 1024;
const marks = (...xs: string[]) => xs.flatMap((x) => [Buffer.from(x), Buffer.from(x.replace(':', ': '))]);
const CLAUDE_MARKS = marks('"type":"assistant"', '"role":"assistant"', '"subtype":"compact_boundary"');
const CODEX_MARKS = marks('"type":"token_count"', '"type":"turn_context"', '"type":"session_meta"');

function hasAny(line: Buffer, needles: readonly Buffer[]): boolean {
  for (const n of needles) if (line.includes(n)) return true;
  return false;
}

export class ClaudeTracker implements Tracker {
  readonly agent = 'claude' as const;
  last: ClaudeAssistant | null = null;
  /** A compaction after `last` (forwards) / newer than anything found so far (backwards). */
  compact: ClaudeCompact | null = null;

  relevant(line: Buffer): boolean {
    if (line.length > BIG_LINE) return hasAny(line, CLAUDE_MARKS);
    return line.includes(B_ASSISTANT) || line.includes(B_COMPACT);
  }

  push(o: Obj): void {
    const a = claudeAssistant(o);
    if (a) {
      this.last = a;
      this.compact = null;
      return;
    }
    const c = claudeCompact(o);
    if (c) this.compact = c;
  }

  pushBackward(o: Obj): 'more' | 'figure' | 'done' {
    const a = claudeAssistant(o);
    if (a) {
      // The newest assistant record: the figure, or (after a compaction) the model it ran on.
      this.last = a;
      return 'done';
    }
    if (!this.compact) {
      const c = claudeCompact(o);
      if (c) {
        this.compact = c;
        return 'figure';
      }
    }
    return 'more';
  }

  figure(): Figure | null {
    const c = this.compact;
    const a = this.last;
    if (c)
      return {
        usedTokens: c.post,
        windowTokens: null,
        model: a?.model ?? null,
        at: c.at,
        afterCompaction: true,
        sessionId: c.sessionId ?? a?.sessionId ?? null,
      };
    if (a)
      return {
        usedTokens: a.used,
        windowTokens: null,
        model: a.model,
        at: a.at,
        afterCompaction: false,
        sessionId: a.sessionId,
      };
    return null;
  }

  clone(): ClaudeTracker {
    const t = new ClaudeTracker();
    t.last = this.last;
    t.compact = this.compact;
    return t;
  }
}

// ---------------------------------------------------------------- Codex CLI

interface CodexCount {
  used: number;
  window: number | null;
  model: string | null;
  at: string | null;
}

/**
 * Whether a token_count is the one Codex writes when the model refused a request as longer than its
 * context window: Codex then marks the window full, so the running total is the window with every
 * part (input, cached, output, reasoning) 0, and the last usage holds only what that total grew by
 * (the window less the previous running total, at least 0; often 0), which is no request's size. A
 * running total of real usage has its input in its parts, so it never has this shape.
 */
function codexWindowFilled(info: Obj, window: number): boolean {
  const total = obj(info.total_token_usage);
  const last = obj(info.last_token_usage);
  if (!total || !last || window <= 0 || total.total_tokens !== window) return false;
  const partsZero = (u: Obj) => Object.keys(u).every((k) => k === 'total_tokens' || !num(u[k]));
  return partsZero(total) && partsZero(last);
}

export function codexTokenCount(o: Obj): CodexCount | null {
  if (o.type !== 'event_msg') return null;
  const p = obj(o.payload);
  if (!p || p.type !== 'token_count') return null;
  const info = obj(p.info);
  if (!info) return null;
  const last = obj(info.last_token_usage);
  if (!last) return null;
  // As for Claude Code: a count that is no number is no figure, and the event before counts.
  if (typeof last.total_tokens !== 'number' || !countOk(last.total_tokens) || !countOk(info.model_context_window))
    return null;
  const window = num(info.model_context_window);
  // The window is full: the figure is the whole window, not the last usage Codex wrote.
  const used = codexWindowFilled(info, window) ? window : num(last.total_tokens);
  return { used, window: window || null, model: str(info.model), at: str(o.timestamp) };
}

/** The model a `turn_context` record names, or null. */
export function codexTurnModel(o: Obj): string | null {
  if (o.type !== 'turn_context') return null;
  const p = obj(o.payload);
  return p ? str(p.model) : null;
}

export function codexMeta(o: Obj): { id: string | null; cwd: string | null } | null {
  if (o.type !== 'session_meta') return null;
  const p = obj(o.payload);
  return p ? { id: str(p.id), cwd: str(p.cwd) } : null;
}

const B_TOKEN = Buffer.from('token_count');
const B_TURN = Buffer.from('turn_context');
const B_META = Buffer.from('session_meta');

export class CodexTracker implements Tracker {
  readonly agent = 'codex' as const;
  last: CodexCount | null = null;
  /** Model of the newest `turn_context`. */
  model: string | null = null;
  sessionId: string | null = null;

  relevant(line: Buffer): boolean {
    if (line.length > BIG_LINE) return hasAny(line, CODEX_MARKS);
    return line.includes(B_TOKEN) || line.includes(B_TURN) || line.includes(B_META);
  }

  push(o: Obj): void {
    const t = codexTokenCount(o);
    if (t) {
      this.last = t;
      return;
    }
    const m = codexTurnModel(o);
    if (m) {
      this.model = m;
      return;
    }
    const meta = codexMeta(o);
    if (meta?.id) this.sessionId = meta.id;
  }

  pushBackward(o: Obj): 'more' | 'figure' | 'done' {
    const t = codexTokenCount(o);
    if (t) {
      if (!this.last) this.last = t;
    } else {
      const m = codexTurnModel(o);
      if (m && !this.model) this.model = m;
      const meta = codexMeta(o);
      if (meta?.id && !this.sessionId) this.sessionId = meta.id;
    }
    if (this.last && (this.model || this.last.model)) return 'done';
    return this.last ? 'figure' : 'more';
  }

  figure(): Figure | null {
    const t = this.last;
    if (!t) return null;
    return {
      usedTokens: t.used,
      windowTokens: t.window,
      model: t.model ?? this.model,
      at: t.at,
      afterCompaction: false,
      sessionId: this.sessionId,
    };
  }

  clone(): CodexTracker {
    const t = new CodexTracker();
    t.last = this.last;
    t.model = this.model;
    t.sessionId = this.sessionId;
    return t;
  }
}

export function trackerFor(agent: Agent): Tracker {
  return agent === 'codex' ? new CodexTracker() : new ClaudeTracker();
}

const CODEX_TYPES = new Set(['session_meta', 'event_msg', 'response_item', 'turn_context', 'compacted']);
const CLAUDE_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'progress',
  'file-history-snapshot',
  'queue-operation',
  'attachment',
]);

/** Which agent wrote this record, when the record says so. */
export function agentOfRecord(o: Obj): Agent | null {
  if (typeof o.type === 'string' && CODEX_TYPES.has(o.type) && obj(o.payload)) return 'codex';
  if (
    obj(o.message) ||
    (typeof o.type === 'string' && CLAUDE_TYPES.has(o.type)) ||
    typeof o.sessionId === 'string' ||
    typeof o.leafUuid === 'string'
  )
    return 'claude';
  return null;
}
