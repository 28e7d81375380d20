/** The context window a Claude Code model runs with, and the percent of it in use. */

export const CLAUDE_WINDOW = 200_000;
export const CLAUDE_WINDOW_1M = 1_000_000;
/** Codex reports `model_context_window` itself; this stands in when a record lacks it. */
export const CODEX_DEFAULT_WINDOW = 258_400;

/** Models marked for the 1M window: `sonnet[1m]`, `claude-sonnet-4-5[1m]`, `…-1m`, "(1M context)". */
export function isOneMillionModel(model: string | null): boolean {
  return model !== null && /\[1m\]|(^|[^a-z0-9])1m($|[^a-z0-9])/i.test(model);
}

/**
 * Window for a Claude Code figure: the override, else 1,000,000 for `[1m]` models or when the
 * usage itself already exceeds 200,000 (only a 1M window can hold it), else 200,000.
 */
export function claudeWindow(model: string | null, used: number, override?: number): number {
  if (override && override > 0) return override;
  return isOneMillionModel(model) || used > CLAUDE_WINDOW ? CLAUDE_WINDOW_1M : CLAUDE_WINDOW;
}

/** Percent with two decimals. */
export function percentOf(used: number, window: number): number {
  return window > 0 ? Math.round((used / window) * 10000) / 100 : 0;
}
