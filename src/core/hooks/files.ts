/**
 * The file `hooks install` writes into `.claude/hooks/`: the hook script, the whole CLI as one plain
 * JavaScript file (src/cli/hot.ts is its entry; scripts/lib/build.mjs says how it is laid out).
 */
export const HOOK_SCRIPT_NAME = 'session-ledger.cjs';
/**
 * The status line's own script, which the relay runs on every refresh of Claude Code's status line:
 * the hook script's first two parts (the status line and its transcript meter) without the rest,
 * about an eighteenth of its size. Anything else it is asked it takes from the hook script beside it.
 */
export const STATUSLINE_SCRIPT_NAME = 'session-ledger-statusline.cjs';
/** What versions before the one-file script installed beside it (the rest of the CLI, brotli-compressed): install and uninstall remove it. */
export const LEGACY_HOOK_CORE_NAME = 'session-ledger-core.br';
/**
 * The lines of the hook script after which a part of the CLI follows: a line `function <name>() {`
 * (PART_FUNCTION), a line `/*`, the code, a line `*\/` and a line `}` (scripts/lib/build.mjs has the
 * same). The function is never called: its body is only the comment, which Node skips when it loads
 * the file, and its text (Function.prototype.toString) hands the part to the script itself without
 * reading the file again. First the status line's figure from a transcript, then the meter
 * (`context`, `hook remind`), then the core (every other command), then the parts below.
 */
export const HOOK_TRANSCRIPT_MARKER = '// ---- session-ledger transcript ----';
export const HOOK_METER_MARKER = '// ---- session-ledger meter ----';
export const HOOK_CORE_MARKER = '// ---- session-ledger core ----';
/**
 * After the core: the PreCompact and SessionStart hooks on their own (src/cli/hooks-main.ts), with
 * only the code they reach, so a hook compiles none of the other commands.
 */
export const HOOK_HOOKS_MARKER = '// ---- session-ledger hooks ----';
/** After the hooks: the commands the hooks and `status` never run (installing hooks, starting a system, the write actions; the meter's when the meter hands one on). */
export const HOOK_REST_MARKER = '// ---- session-ledger rest ----';
/** After them: the YAML library, which the core asks for only for a YAML text its own plain reader does not take. */
export const HOOK_YAML_MARKER = '// ---- session-ledger yaml ----';
/**
 * Last, the hooks' Japanese and Korean words: each entry of the extension's l10n bundles that the
 * guard's block and the reminder say, its English template with its translation in each language of
 * WORDS_LANGS (a table, not code), compiled only when the locale names one of them. A repository's
 * files never word what the tool says: the words come from the script itself, never from a file beside it.
 */
export const HOOK_WORDS_MARKER = '// ---- session-ledger words ----';
/** The languages of the words' part, in the order each entry lists its translations. */
export const WORDS_LANGS = ['ja', 'ko'] as const;
/** The parts' marker lines in the order they stand in the hook script. */
export const PART_MARKERS: readonly string[] = [
  HOOK_TRANSCRIPT_MARKER,
  HOOK_METER_MARKER,
  HOOK_CORE_MARKER,
  HOOK_HOOKS_MARKER,
  HOOK_REST_MARKER,
  HOOK_YAML_MARKER,
  HOOK_WORDS_MARKER,
];
/** The function whose body holds the part after each marker. */
export const PART_FUNCTION: Readonly<Record<string, string>> = {
  [HOOK_TRANSCRIPT_MARKER]: 'sessionLedgerTranscript',
  [HOOK_METER_MARKER]: 'sessionLedgerMeter',
  [HOOK_CORE_MARKER]: 'sessionLedgerCore',
  [HOOK_HOOKS_MARKER]: 'sessionLedgerHooks',
  [HOOK_REST_MARKER]: 'sessionLedgerRest',
  [HOOK_YAML_MARKER]: 'sessionLedgerYaml',
  [HOOK_WORDS_MARKER]: 'sessionLedgerWords',
};
/** How the hook script writes each star-slash of a part in a comment, so that the block comment holding it does not end there. */
export const CORE_END_ESCAPED = '*\\/';
/** Where `hooks install --codex` puts the hook script (Codex CLI's project folder). */
export const CODEX_HOOK_SCRIPT_REL = `.codex/hooks/${HOOK_SCRIPT_NAME}`;
/** Where `hooks install` puts the hook script for Claude Code. */
export const SCRIPT_REL = `.claude/hooks/${HOOK_SCRIPT_NAME}`;
/** The status line's own script, installed with the relay. */
export const STATUSLINE_SCRIPT_REL = `.claude/hooks/${STATUSLINE_SCRIPT_NAME}`;
/** Claude Code's project settings, shared and local, where `hooks install` puts its hooks. */
export const SETTINGS_REL = '.claude/settings.json';
export const SETTINGS_LOCAL_REL = '.claude/settings.local.json';
/** Codex CLI's project hook file (read only in a project the user trusts, each hook only once the user trusted it). */
export const CODEX_HOOKS_REL = '.codex/hooks.json';
/** What `hooks install` records about what it wrote, for an exact uninstall (one of the tool's own files). */
export const INSTALL_RECORD_REL = '.claude/session-ledger/install.json';
/** The user files `hooks install` may edit besides the scripts: the settings files and `.gitignore`. */
export const INSTALL_EDITED_RELS: readonly string[] = [SETTINGS_REL, SETTINGS_LOCAL_REL, CODEX_HOOKS_REL, '.gitignore'];

/**
 * The scripts `hooks install` writes, each with the install record's key for the SHA-256 of what it
 * wrote: the hook script, the status line's, and Codex's copy.
 */
export const INSTALLED_SCRIPTS: ReadonlyArray<readonly [string, 'script' | 'statuslineScript' | 'codexScript']> = [
  [SCRIPT_REL, 'script'],
  [STATUSLINE_SCRIPT_REL, 'statuslineScript'],
  [CODEX_HOOK_SCRIPT_REL, 'codexScript'],
];

/** True for the scripts `hooks install` writes or wrote (`.claude/hooks/session-ledger*`, Codex's copy, an older version's core). */
export function isHookScriptRel(rel: string): boolean {
  return /^\.(?:claude|codex)\/hooks\/session-ledger[^/]*$/.test(rel);
}
