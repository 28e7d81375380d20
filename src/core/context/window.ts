/**
 * The context window a Claude Code session runs with, and the percent of it in use.
 *
 * In order of preference: the window Claude Code itself reported for that session (its statusLine
 * JSON's `context_window.context_window_size`, recorded per session by the relay); the user's
 * setting; the window Claude Code gives the model (the table below); else the window is unknown
 * and the figure is tokens without a percentage, never a guessed percentage.
 */

export const CLAUDE_WINDOW = 200_000;
export const CLAUDE_WINDOW_1M = 1_000_000;

/** Where a figure's window came from. */
export type WindowSource = 'client' | 'setting' | 'model' | 'usage' | 'unknown';

/** Models marked for the 1M window: `sonnet[1m]`, `claude-sonnet-4-5[1m]`, `…-1m`, "(1M context)". */
export function isOneMillionModel(model: string | null): boolean {
  return model !== null && /\[1m\]|(^|[^a-z0-9])1m($|[^a-z0-9])/i.test(model);
}

/**
 * The window Claude Code gives a model, by its id as the transcript names it (also Bedrock and
 * Vertex forms such as `us.anthropic.claude-sonnet-4-5-20250929-v1:0` or `claude-opus-4-5@20251101`),
 * or null for a model it does not know. Measured with Claude Code 2.1.332 (`claude --model ID -p`,
 * its result's `modelUsage[id].contextWindow`):
 *
 * - any `[1m]` variant: 1,000,000;
 * - Claude 5 and later (`claude-opus-5-5`, the default, `claude-opus-5`, `claude-sonnet-5-5`,
 *   `claude-sonnet-5`, `claude-haiku-5-5`) and Opus 4.7 / 4.8: 1,000,000;
 * - Claude 4.0–4.6 (`claude-sonnet-4-5`, `claude-sonnet-4-6`, `claude-opus-4-5`, `claude-opus-4-6`,
 *   `claude-haiku-4-5`, `claude-sonnet-4-0` …) and Claude 3.x: 200,000.
 */
export function modelWindow(model: string | null): number | null {
  if (!model) return null;
  if (isOneMillionModel(model)) return CLAUDE_WINDOW_1M;
  const m = /claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2})(?!\d))?/i.exec(model);
  if (m) {
    const major = Number(m[2]);
    const minor = m[3] === undefined ? 0 : Number(m[3]);
    if (major >= 5) return CLAUDE_WINDOW_1M;
    if (major === 4) return m[1].toLowerCase() === 'opus' && minor >= 7 ? CLAUDE_WINDOW_1M : CLAUDE_WINDOW;
    return CLAUDE_WINDOW;
  }
  if (/claude-3(?:[-.]\d+)?-(opus|sonnet|haiku)/i.test(model)) return CLAUDE_WINDOW;
  return null;
}

/** The base id of a model, for comparing the statusLine's `model.id` with a transcript's `message.model`. */
export function baseModel(model: string | null): string | null {
  return model ? model.replace(/\[1m\]$/i, '').toLowerCase() : null;
}

export interface WindowChoice {
  tokens: number | null;
  source: WindowSource;
}

/**
 * Window for a Claude Code figure of `used` tokens on `model`: what the client reported for the
 * session (`reported`), else the setting (`override`), else the model's window (raised to 1,000,000
 * when the usage already exceeds 200,000: only a 1M window can hold it), else unknown.
 */
export function claudeWindow(
  model: string | null,
  used: number,
  override?: number,
  reported?: number | null,
): WindowChoice {
  if (reported && reported > 0) return { tokens: reported, source: 'client' };
  if (override && override > 0) return { tokens: override, source: 'setting' };
  const table = modelWindow(model);
  if (table !== null)
    return used > table ? { tokens: CLAUDE_WINDOW_1M, source: 'usage' } : { tokens: table, source: 'model' };
  return { tokens: null, source: 'unknown' };
}

/** Percent with two decimals, or null when the window is unknown. */
export function percentOf(used: number, window: number | null): number | null {
  return window !== null && window > 0 ? Math.round((used / window) * 10000) / 100 : null;
}
