/**
 * The files `hooks install` writes into `.claude/hooks/`: the hook script, which holds the status
 * line's commands as code, and beside it the rest of the CLI, brotli-compressed, which the script
 * loads only for the other commands (the hooks, `checkpoint`, `status` …).
 */
export const HOOK_SCRIPT_NAME = 'session-ledger.cjs';
export const HOOK_CORE_NAME = 'session-ledger-core.br';
