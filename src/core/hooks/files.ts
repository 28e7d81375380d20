/**
 * The file `hooks install` writes into `.claude/hooks/`: the hook script, the whole CLI as one plain
 * JavaScript file (src/cli/hot.ts is its entry; scripts/lib/build.mjs says how it is laid out).
 */
export const HOOK_SCRIPT_NAME = 'session-ledger.cjs';
/** What versions before the one-file script installed beside it (the rest of the CLI, brotli-compressed): install and uninstall remove it. */
export const LEGACY_HOOK_CORE_NAME = 'session-ledger-core.br';
/**
 * The line of the hook script after which the rest of the CLI follows in one block comment: a line
 * `/*`, the code, and the closing line at the end (scripts/lib/build.mjs has the same).
 */
export const HOOK_CORE_MARKER = '// ---- session-ledger core ----';
/** How the hook script writes each star-slash of the core, so that the block comment holding it does not end there. */
export const CORE_END_ESCAPED = '*\\/';
/** Where `hooks install --codex` puts the hook script (Codex CLI's project folder). */
export const CODEX_HOOK_SCRIPT_REL = `.codex/hooks/${HOOK_SCRIPT_NAME}`;
