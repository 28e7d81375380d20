/**
 * `session-ledger hooks install|uninstall`: wire the PreCompact guard and the SessionStart resume
 * hook into `.claude/settings.json` (or `.claude/settings.local.json`), in Claude Code's shape
 * (with `--codex`: into Codex CLI's project hook file `.codex/hooks.json`, the same shape, see
 * `codexHookCommand` for how its commands find the script):
 *
 *     "hooks": {
 *       "PreCompact":   [{ "matcher": "manual", "hooks": [{ "type": "command", "command": "node \"$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger.cjs\" hook pre-compact", "timeout": 30 }] }],
 *       "SessionStart": [{ "matcher": "clear|compact|startup|resume", "hooks": [{ … "hook session-start" … }] }]
 *     }
 *
 * The settings are edited span by span (comments, formatting, every other setting and hook stay
 * byte for byte); the commands call one script, `.claude/hooks/session-ledger.cjs` (the bundled CLI:
 * one plain JavaScript file that needs only `node`; see `defaultCliBundle`): install writes it,
 * uninstall removes it (and both remove the compressed core older versions put beside it,
 * `.claude/hooks/session-ledger-core.br`). Installing twice changes nothing; uninstall removes
 * exactly what install added. `statusline` also wires the context meter's relay as `statusLine`,
 * keeping the user's own statusLine command as the command it wraps (uninstall puts it back). The
 * relay runs a script of its own, `.claude/hooks/session-ledger-statusline.cjs` (the status line and
 * the meter, one plain JavaScript file of about a tenth of the hook script's size: Claude Code runs it
 * on every refresh of its status line), which install writes beside the hook script and uninstall
 * removes with the relay.
 */
import { accessSync, constants as fsConstants, existsSync, promises as fs, readdirSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import { shellQuote } from '../files/shell';
import {
  changedSinceRead,
  currentHash,
  readOwnText,
  refuseOwnFileLink,
  removeOwn,
  rootRel,
  writeAtomic,
  writeTarget,
  WriteRefused,
} from '../files/atomic';
import { lockPath, lockRefusal, withWriteLock } from '../files/lock';
import { HOOK_LOG_REL } from './io';
import {
  CODEX_HOOK_SCRIPT_REL,
  CODEX_HOOKS_REL,
  LEGACY_HOOK_CORE_NAME,
  INSTALL_RECORD_REL,
  SCRIPT_REL,
  SETTINGS_LOCAL_REL,
  SETTINGS_REL,
  STATUSLINE_SCRIPT_NAME,
  STATUSLINE_SCRIPT_REL,
} from './files';
import { lstatOrNullSync, readRegularFile, readTextFile, sha256, statOrNullSync } from '../files/fsread';
import { dominantEol, onALine } from '../files/line-ends';
import { maskedYamlText } from '../markdown/yaml-tree';
import { maskSecrets } from '../secrets/secrets';
import { t, type Msg } from '../model/messages';
import {
  getNodeValue,
  insertChild,
  parse,
  printParseErrorCode,
  removeAt,
  replaceValue,
  type JsonNode,
  type ParseErrorCode,
} from './jsonc-edit';
import {
  groupHasOurs,
  hooksInstalledIn,
  holdsGuard,
  isObj,
  isOurHook,
  settingsValue as valueOf,
  type HookClient,
  type HookEvent,
} from './installed';
import { storedBlobId } from '../git/git';
import { gitTracks } from '../git/tracked';
import { writtenEntry, type WrittenEntry } from './install-edits';
import { claudeHome } from '../context/discovery';
import { claudeStops, shownUserFile, type ClaudeStop } from './client-settings';

export { CODEX_HOOKS_REL, INSTALL_RECORD_REL, SCRIPT_REL, SETTINGS_LOCAL_REL, SETTINGS_REL, STATUSLINE_SCRIPT_REL };

/** What versions before the one-file script installed beside it (the rest of the CLI, compressed): install and uninstall remove it. */
export const CORE_REL = `.claude/hooks/${LEGACY_HOOK_CORE_NAME}`;
/** How every installed command calls the script. */
export const SCRIPT_CMD = 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger.cjs"';
/** How the status line relay calls its script. */
export const STATUSLINE_CMD = `node "$CLAUDE_PROJECT_DIR/${STATUSLINE_SCRIPT_REL}"`;
export const HOOK_TIMEOUT_S = 30;
const OURS = SCRIPT_REL;

/** The client whose hook configuration a plan edits. */
export { hooksInstalledIn, holdsGuard, type HookClient, type HookEvent };
export const CODEX_SCRIPT_REL = CODEX_HOOK_SCRIPT_REL;

/**
 * The command of a Codex hook. Codex runs a hook through the user's shell (`$SHELL -lc`) in the
 * session's working folder, which can be a subfolder of the project, and sets no project variable;
 * so the command (plain POSIX `sh`, whatever the user's shell) walks up from there to `/` and takes
 * the outermost folder holding the script as the root: a subfolder that ships a script of its own
 * (a vendored or cloned project inside the user's) is never the one that runs. Only a script owned
 * by the user or by the owner of the session's folder counts, in `.codex` and `.codex/hooks` folders
 * owned the same way, none of them a link: a folder above the project that another local user can
 * write (a shared temporary folder) never supplies the script that runs. `--codex` answers in Codex's wire (a block is
 * `{"continue":false,"stopReason":…}` on stdout: Codex 0.171.0 takes neither exit code 2 nor
 * `"decision":"block"` as a block of compaction).
 */
export function codexHookCommand(hook: 'pre-compact' | 'session-start'): string {
  // Owned by the user, or by whoever owns the folder the session runs in (root in a container on a
  // checkout the host user owns); `u` prints a path's owner (uid), asked only when it is not the user.
  const own = (p: string) =>
    `[ ! -L "${p}" ] && { [ -O "${p}" ] || { [ -n "$o" ] || o=$(u "$PWD"); [ "$(u "${p}")" = "$o" ]; }; }`;
  const script = `$d/${CODEX_SCRIPT_REL}`;
  const ours = `[ -f "${script}" ] && ${own('$d/.codex')} && ${own('$d/.codex/hooks')} && ${own(script)}`;
  return `sh -c 'u() { set -f; set -- $(ls -ldn "$1"); echo "$3"; }; o=; d=$PWD; r=; while :; do ${ours} && r=$d; [ "$d" = / ] && break; d=$(dirname "$d"); done; exec node "$r/${CODEX_SCRIPT_REL}" hook ${hook} --codex --root "\${r:-/}"'`;
}

/** The events every install wires. */
export const HOOK_EVENTS: readonly HookEvent[] = ['PreCompact', 'SessionStart'];
/** The reminder's event, wired only by `install --remind` (it adds context to a prompt and never blocks it). */
export const REMIND_EVENT: HookEvent = 'UserPromptSubmit';
/** Every event that can hold a hook of ours (uninstall takes them all out). */
export const ALL_HOOK_EVENTS: readonly HookEvent[] = [...HOOK_EVENTS, REMIND_EVENT];

interface HookEntry {
  type: 'command';
  command: string;
  timeout: number;
}
interface HookGroup {
  /** None for UserPromptSubmit, whose hooks run for every prompt. */
  matcher?: string;
  hooks: HookEntry[];
}

/** The matcher group install adds for each event (Codex: the guard's two events only). */
export function hookGroup(event: HookEvent, client: HookClient = 'claude'): HookGroup {
  if (client === 'codex') {
    return event === 'PreCompact'
      ? {
          matcher: 'manual',
          hooks: [{ type: 'command', command: codexHookCommand('pre-compact'), timeout: HOOK_TIMEOUT_S }],
        }
      : {
          matcher: 'startup|resume|clear|compact',
          hooks: [{ type: 'command', command: codexHookCommand('session-start'), timeout: HOOK_TIMEOUT_S }],
        };
  }
  if (event === 'UserPromptSubmit')
    return { hooks: [{ type: 'command', command: `${SCRIPT_CMD} hook remind`, timeout: HOOK_TIMEOUT_S }] };
  return event === 'PreCompact'
    ? {
        matcher: 'manual',
        hooks: [{ type: 'command', command: `${SCRIPT_CMD} hook pre-compact`, timeout: HOOK_TIMEOUT_S }],
      }
    : {
        matcher: 'clear|compact|startup|resume',
        hooks: [{ type: 'command', command: `${SCRIPT_CMD} hook session-start`, timeout: HOOK_TIMEOUT_S }],
      };
}

/** The events an install wires: the guard's two, and the reminder's with `remind`. */
function eventsOf(remind: boolean | undefined): readonly HookEvent[] {
  return remind ? ALL_HOOK_EVENTS : HOOK_EVENTS;
}

export interface HooksPlan {
  /** The workspace root: every write must land inside it. */
  root: string;
  settingsPath: string;
  /** The settings text as read (null: the file does not exist). */
  before: string | null;
  /** The settings text after the change ('' with `deleteSettings`). */
  after: string;
  scriptPath: string;
  /** What older versions installed beside the script (CORE_REL): removed by install and uninstall. */
  corePath: string;
  /** Anything to do (settings or script). */
  changed: boolean;
  action: 'install' | 'uninstall';
  /** Whose hook file the plan edits. */
  client: HookClient;
  /** The events the plan wires (install) or takes out (uninstall). */
  events: readonly HookEvent[];
  /** The install record's hash when the plan read it (null: none): a run that waited refuses when it changed since. */
  recordHash?: string | null;
  /** SHA-256 of the settings bytes as read (null: missing): apply refuses when they changed since. */
  beforeHash: string | null;
  /** install: copy the bundle (`write`) or it is already there (`keep`); uninstall: `remove` it when no settings file uses it any more. */
  script: 'write' | 'keep' | 'remove';
  /**
   * SHA-256 of the hook script's bytes as the plan read them (null: none there). Apply writes (install)
   * or removes (uninstall) the script only while it still has them: an edit made between the plan and
   * its apply (the extension asks first) is never overwritten or deleted.
   */
  scriptHash?: string | null;
  /** The status line's script (STATUSLINE_SCRIPT_REL). */
  statuslinePath: string;
  /** The same for the status line's script. */
  statuslineHash?: string | null;
  /** The same for the status line's script: `none` when the settings after the plan do not run the relay (Codex never does). */
  statuslineScript: 'write' | 'keep' | 'remove' | 'none';
  /** The bundled CLI that install copies. */
  cliBundle: string | null;
  /** Uninstall left nothing but `{}`: the settings file is removed. */
  deleteSettings: boolean;
  /** Why nothing can be planned (settings that do not parse, a `hooks` that is not an object …), in English. */
  error?: string;
  /** The same as data, for the extension to say in the user's language. */
  problem?: HooksProblem;
  /** What was done to the statusLine, if anything, and other remarks (`noteSaid` words each). */
  notes: HooksNote[];
  /** The settings file starts with a byte order mark: it is written back with it. */
  bom: boolean;
  /** The change to the root `.gitignore` (install adds the lines for this tool's own files; uninstall takes them out again), or null. */
  gitignore: GitignoreChange | null;
  /** What install records about what it added (`.claude/session-ledger/install.json`), for an exact uninstall. */
  record: InstallRecord;
}

export interface GitignoreChange {
  path: string;
  before: string | null;
  beforeHash: string | null;
  /** '' with `remove`. */
  after: string;
  /** The file goes (uninstall of a .gitignore install created). */
  remove: boolean;
  /** The lines added or removed. */
  lines: string[];
}

/** What install added, per settings file and to .gitignore, so uninstall can give back the exact bytes. */
export interface InstallRecord {
  /** Settings file name → install created its `hooks` key (false: the key, maybe `{}`, was there before). */
  hooksKeyAdded?: Record<string, boolean>;
  /**
   * Settings file name → what stood there before install wrote a new file: null when there was no file
   * (uninstall then removes the file it left as install made it), else the exact text of a file
   * without a setting (blank, `{}`, `{ }`) install replaced (uninstall gives that text back). Absent:
   * install edited a file that had settings, and uninstall never removes it.
   */
  settingsBefore?: Record<string, string | null>;
  /** Settings file name → the hook events whose lists were there before the first install: uninstall keeps them, empty. */
  eventsBefore?: Record<string, string[]>;
  /** The exact text appended to .gitignore, and whether install created the file. */
  gitignore?: { appended: string; created: boolean };
  /** SHA-256 of the hook script install wrote: a script that no longer has it was changed by someone, and is not replaced. */
  script?: string;
  /** The same for Codex's copy, `.codex/hooks/session-ledger.cjs`. */
  codexScript?: string;
  /** The same for the status line's script, `.claude/hooks/session-ledger-statusline.cjs`. */
  statuslineScript?: string;
  /**
   * Settings file name → the file (as shown) whose statusLine command the relay there wraps, taken
   * from below it: uninstall takes that statusLine out instead of putting the command there.
   */
  statusLineFrom?: Record<string, string>;
  /**
   * A settings file or `.gitignore` (INSTALL_EDITED_RELS, relative to the root) → what install wrote
   * there and what stood there before: while the file holds those bytes and git's HEAD what stood
   * there, its change is install's, not the session's work (./install-edits).
   */
  written?: Record<string, WrittenEntry>;
}

export const GITIGNORE_HEADER =
  '# Session Ledger: checkpoint markers, hook log, session record (added by `session-ledger hooks install`)';
/** The product's own files, never to be committed: markers, the hook log, the session record and feed. */
export const GITIGNORE_LINES = ['.claude/.checkpoint-ready*', '.claude/log/', '.claude/session-ledger/'];

/**
 * This clone's install record, or {}; 'tracked' when git tracks the record's path: it came with the
 * repository (install's own `.gitignore` lines keep it out), so it is neither used nor written over,
 * and install and uninstall refuse until it is untracked. Of any record, only what install itself
 * writes is taken: a settings file's text to give back only when it was empty or blank, and
 * `.gitignore` text to take out only when it is install's header and lines.
 */
async function readRecord(root: string): Promise<InstallRecord | 'tracked'> {
  const file = path.join(root, INSTALL_RECORD_REL);
  if ((await gitTracks(file)) === true) return 'tracked';
  // Never through a link (at the record or a folder on its way), as it is never written through one: then there is none.
  const text = readOwnText(file, root, 64 * 1024);
  if (text === null) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return isObj(v) ? ownRecord(v as InstallRecord) : {};
  } catch {
    return {};
  }
}

/**
 * The plan's record and the record's hash as they are now (see `readRecord`; the hash undefined when
 * no regular file is there, which the plan refuses anyway). False when git tracks the record.
 */
async function takeRecord(plan: HooksPlan): Promise<boolean> {
  const record = await readRecord(plan.root);
  if (record === 'tracked') return false;
  plan.record = record;
  try {
    plan.recordHash = await currentHash(path.join(plan.root, INSTALL_RECORD_REL), INSTALL_RECORD_REL);
  } catch {
    plan.recordHash = undefined;
  }
  return true;
}

/** A plan refused because git tracks the install record (see `readRecord`). */
function trackedRecord(plan: HooksPlan): HooksPlan {
  return {
    ...plan,
    error: `${INSTALL_RECORD_REL} is tracked by git: it came with the repository, so it is neither used nor changed; nothing was changed. Untrack it (git rm --cached ${INSTALL_RECORD_REL}), then run it again.`,
    problem: { kind: 'tracked', file: INSTALL_RECORD_REL },
  };
}

/**
 * Whether a settings file's text holds no setting: blank, or an empty object however it is spaced.
 * The blanks around it are trimmed first: /^\s*(?:\{\s*\})?\s*$/ split a long run of leading blanks
 * between its first and last `\s*` in every way, so a settings file opening with 200,000 blanks held
 * `hooks install` 15 s.
 */
export function holdsNoSetting(text: string): boolean {
  const t = text.trim();
  return t === '' || /^\{\s*\}$/.test(t);
}

/** The record without what install never writes (see `readRecord`). */
function ownRecord(rec: InstallRecord): InstallRecord {
  const out = { ...rec };
  if (isObj(rec.settingsBefore))
    out.settingsBefore = Object.fromEntries(
      Object.entries(rec.settingsBefore).filter(([, v]) => v === null || (typeof v === 'string' && holdsNoSetting(v))),
    );
  else delete out.settingsBefore;
  if (isObj(rec.statusLineFrom))
    out.statusLineFrom = Object.fromEntries(
      Object.entries(rec.statusLineFrom).filter(([, v]) => typeof v === 'string'),
    ) as Record<string, string>;
  else delete out.statusLineFrom;
  const g = rec.gitignore;
  if (!(isObj(g) && typeof g.appended === 'string' && isOurGitignoreText(g.appended))) delete out.gitignore;
  return out;
}

/** Text install appends to `.gitignore`: a line break to end the last line, its header, then its lines. */
function isOurGitignoreText(text: string): boolean {
  const lines = text.replace(/^\r?\n/, '').split(/\r?\n/);
  return (
    lines.pop() === '' &&
    lines[0] === GITIGNORE_HEADER &&
    lines.length > 1 &&
    lines.slice(1).every((l) => GITIGNORE_LINES.includes(l))
  );
}

/** Lines a .gitignore already covers (the exact line, or `.claude/` as a whole). */
function ignoredAlready(text: string, line: string): boolean {
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  return (
    have.has(line) ||
    have.has(`/${line}`) ||
    ['.claude', '.claude/', '/.claude', '/.claude/', '.claude/**', '.claude/*'].some((l) => have.has(l))
  );
}

async function planGitignoreAdd(root: string, record: InstallRecord): Promise<GitignoreChange | null> {
  const file = path.join(root, '.gitignore');
  const f = await readTextFile(file, 1024 * 1024);
  if (!f.ok && f.kind !== 'missing') return null;
  const text = f.ok ? f.text : '';
  const missing = GITIGNORE_LINES.filter((l) => !ignoredAlready(text, l));
  if (missing.length === 0) return null;
  // Lines added get the ending most of the file's lines have.
  const eol = dominantEol(text);
  const appended = (text === '' || /\n$/.test(text) ? '' : eol) + [GITIGNORE_HEADER, ...missing].join(eol) + eol;
  record.gitignore = { appended, created: !f.ok };
  return {
    path: file,
    before: f.ok ? text : null,
    beforeHash: f.ok ? f.hash : null,
    after: (f.ok && f.bom ? '\uFEFF' : '') + text + appended,
    remove: false,
    lines: missing,
  };
}

async function planGitignoreRemove(root: string, record: InstallRecord): Promise<GitignoreChange | null> {
  const file = path.join(root, '.gitignore');
  const f = await readTextFile(file, 1024 * 1024);
  if (!f.ok) return null;
  const text = f.text;
  const bom = f.bom ? '\uFEFF' : '';
  const rec = record.gitignore;
  let after: string | null = null;
  if (rec && text.endsWith(rec.appended)) after = text.slice(0, text.length - rec.appended.length);
  else {
    // No record (another clone installed it): take out the header and our lines right after it.
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.replace(/\r$/, '') === GITIGNORE_HEADER);
    if (at < 0) return null;
    let end = at + 1;
    while (end < lines.length && GITIGNORE_LINES.includes(lines[end].replace(/\r$/, ''))) end++;
    after = [...lines.slice(0, at), ...lines.slice(end)].join('\n');
  }
  const removedLines = GITIGNORE_LINES.filter(
    (l) => !after!.split(/\r?\n/).includes(l) && text.split(/\r?\n/).includes(l),
  );
  const remove = Boolean(rec?.created) && after === '';
  return {
    path: file,
    before: text,
    beforeHash: f.hash,
    after: remove ? '' : bom + after,
    remove,
    lines: removedLines,
  };
}

// ---------------------------------------------------------------------------------------------

/**
 * The hook script to copy (the build's `dist/session-ledger.cjs`: the status line's commands as
 * code, the rest of the CLI compiled only when used): the running installed script itself, else
 * the one beside the running `dist/cli.js`, else the repository's build.
 */
export function defaultCliBundle(): string | null {
  const cands: string[] = [];
  const main = require.main?.filename;
  if (main && path.basename(main) === 'session-ledger.cjs') cands.push(main);
  if (main && path.basename(main) === 'cli.js') cands.push(path.join(path.dirname(main), 'session-ledger.cjs'));
  // Beside this module (the bundle in dist/), or the repository's dist/ above the compiled tree (out/src/core/hooks/).
  cands.push(path.join(__dirname, 'session-ledger.cjs'));
  for (const up of [2, 3, 4])
    cands.push(path.resolve(__dirname, ...Array<string>(up).fill('..'), 'dist', 'session-ledger.cjs'));
  return cands.find((c) => existsSync(c)) ?? null;
}

/** The bundle's bytes as installed: without the source-map comment (the map is not copied). */
async function scriptBytes(bundle: string): Promise<Buffer> {
  const raw = await readRegularFile(bundle);
  if (!raw)
    throw new WriteRefused(`the bundled CLI ${bundle} is not a readable regular file`, 'io', bundle, 'unreadable');
  const text = raw.toString('utf8');
  return Buffer.from(text.replace(/\n\/\/# sourceMappingURL=[^\n]*\n?$/, '\n'), 'utf8');
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const RELAY = `${STATUSLINE_CMD} statusline`;
/** The relay as versions before the status line's own script wrote it (through the hook script): install rewrites it, uninstall takes it out. */
const LEGACY_RELAY = `${SCRIPT_CMD} statusline`;

/** The statusLine command that relays to `wrapped` (or stands alone). */
export function relayCommand(wrapped: string | null): string {
  // An empty command of the user's is wrapped too (`-- ''`): uninstall gives it back, not removes the statusLine.
  return wrapped !== null ? `${RELAY} -- ${shellQuote(wrapped)}` : RELAY;
}

/** Our relay command (this version's or an earlier one's) → the command it wraps (null: none); undefined when it is not ours. */
export function unwrapRelay(cmd: string): string | null | undefined {
  for (const relay of [RELAY, LEGACY_RELAY]) {
    if (cmd === relay) return null;
    if (!cmd.startsWith(`${relay} -- '`) || !cmd.endsWith("'")) continue;
    const body = cmd.slice(`${relay} -- '`.length, -1);
    // Only what shellQuote produces: `'\''` for each quote, no other quote inside.
    if (body.replace(/'\\''/g, '').includes("'")) return undefined;
    return body.replace(/'\\''/g, "'");
  }
  return undefined;
}

/** Do these settings run our relay as their statusLine? */
export function runsRelay(text: string): boolean {
  const sl = valueOf(text).statusLine;
  return isObj(sl) && typeof sl.command === 'string' && unwrapRelay(sl.command) !== undefined;
}

/**
 * A remark of a plan's besides its changes, as data: what it did to the statusLine, a script of the
 * tool's it kept, what keeps `.gitignore`'s lines, what Codex needs. Each surface words it with
 * `noteSaid` (./install-words), naming its own commands.
 */
export type HooksNote =
  | { kind: 'relay-added' | 'relay-not-command' | 'relay-own-script' | 'relay-removed' | 'codex-trust' }
  /** The relay wraps the user's statusLine command now, or gave it back: `command` as shown (secrets masked; '' for an empty one). */
  | { kind: 'relay-wraps' | 'command-back'; command: string }
  /** The relay wraps the statusLine command of a settings file below the one it is in (`file` as shown), which stays as it is. */
  | { kind: 'relay-wraps-from'; command: string; file: string }
  /** The relay in the project's shared settings hides the user's own status line (`file` as shown). */
  | { kind: 'status-line-hidden'; file: string }
  /** The relay in `file` does not run: the statusLine of `by`, which Claude Code takes over it, runs instead (both relative to the root). */
  | { kind: 'relay-hidden'; file: string; by: string }
  /** A setting of Claude Code's (`claudeStops`) keeps it from running the hooks, or from showing the relay while the hooks run. */
  | { kind: 'hooks-off' | 'relay-off'; stop: ClaudeStop }
  /** A script of the tool's (relative path) was changed since install wrote it, so uninstall kept it. */
  | { kind: 'script-kept'; file: string }
  /** The tool's records still there (relative paths): `.gitignore` keeps its lines while they are. */
  | { kind: 'records-left'; files: string[] };

/** Why a hooks plan cannot be carried out: each kind about the plan's settings file unless it names another. */
export type HooksProblem =
  | { kind: 'unreadable' | 'too-large' | 'too-deep' | 'not-object' }
  /** A build file the install copies is not there: the hook script, or the status line's script for the relay (`file`: where it was looked for). */
  | { kind: 'no-bundle'; script: 'hook' | 'statusline'; file: string | null }
  /** `what`: what is wrong there, in words (`jsonSyntaxWords`). */
  | { kind: 'not-json'; line: number; column: number; what: Msg }
  | { kind: 'duplicate-key' | 'key-not-object' | 'key-not-array'; key: string }
  /** No hooks of ours in this settings file; they are in `other` (workspace-relative). */
  | { kind: 'elsewhere'; other: string }
  /** A write would be refused (WriteRefused: a link out of the workspace …), or another error. */
  | { kind: 'refused'; cause: unknown }
  /** The installed hook script was changed since install wrote it (workspace-relative path). */
  | { kind: 'modified'; file: string }
  | { kind: 'tracked'; file: string };

interface Loaded {
  text: string;
  before: string | null;
  beforeHash: string | null;
  value: Record<string, unknown>;
  /** The file starts with a byte order mark (kept on write). */
  bom?: boolean;
  error?: string;
  problem?: HooksProblem;
}

/** 1-based line and column of a character offset (one past the text's final line break: its last line's end). */
function lineCol(text: string, at: number): { line: number; column: number } {
  const offset = onALine(text, at);
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, column: offset - last };
}

/**
 * A settings file that does not parse as JSON: where, what is wrong there and what to do, in the words the
 * extension says it in (`hooksProblemText`); `what` is `jsonSyntaxWords`.
 */
function notJsonMessage(shown: string, line: number, column: number, what: Msg): Msg {
  return t(
    '{0} is not valid JSON at line {1}, column {2}: {3}. Fix it by hand first; nothing was changed.',
    shown,
    line,
    column,
    what,
  );
}

/**
 * What is wrong where a JSON file stops parsing, in words, told from the parser's error code (its code
 * name is never shown). The codes a JSON-with-comments reading can give; any other gets the general words.
 */
function jsonSyntaxWords(code: ParseErrorCode): Msg {
  switch (printParseErrorCode(code)) {
    case 'InvalidSymbol':
      return t(
        'something stands there that JSON does not know: keys and text go in double quotes, and its only words are true, false and null',
      );
    case 'InvalidNumberFormat':
      return t('a number there is not written as JSON writes numbers');
    case 'PropertyNameExpected':
      return t('a key in double quotes is expected there (often a comma too many, or a key without its quotes)');
    case 'ValueExpected':
      return t('a value is expected there: text in double quotes, a number, true, false, null, an object or a list');
    case 'ColonExpected':
      return t('the `:` between a key and its value is missing');
    case 'CommaExpected':
      return t('a `,` between two entries is missing');
    case 'CloseBraceExpected':
      return t('a `}` is missing: an object opened with `{` is not closed');
    case 'CloseBracketExpected':
      return t('a `]` is missing: a list opened with `[` is not closed');
    case 'EndOfFileExpected':
      return t("something follows the end of the file's content: one `}` or `]` too many, or a second value");
    case 'InvalidCommentToken':
      return t('a comment there is not written as one: `// …` to the end of the line, or `/* … */`');
    case 'UnexpectedEndOfComment':
      return t('a `/*` comment is not closed with `*/`');
    case 'UnexpectedEndOfString':
      return t('text in double quotes is not closed on its line');
    case 'UnexpectedEndOfNumber':
      return t('a number ends too early: a digit is missing after its `.` or `e`');
    case 'InvalidUnicode':
      return t('a `\\u` escape is not followed by four hexadecimal digits');
    case 'InvalidEscapeCharacter':
      return t('text in double quotes holds a backslash escape JSON does not know; write `\\\\` for a backslash');
    case 'InvalidCharacter':
      return t('text in double quotes holds a control character, such as a tab; write it as an escape (`\\t`)');
    default:
      return t('the text there is not valid JSON');
  }
}

/** Keys given twice in one object (the client reads the last, an edit would change the first). */
function duplicateKeys(node: JsonNode | undefined, where: string): string | null {
  if (!node || node.type !== 'object') return null;
  const seen = new Set<string>();
  for (const p of node.children ?? []) {
    const k = p.children?.[0]?.value;
    if (typeof k !== 'string') continue;
    if (seen.has(k)) return `${where}"${k}"`;
    seen.add(k);
  }
  return null;
}

const CLIENT_NAME: Record<HookClient, string> = { claude: 'Claude Code', codex: 'Codex' };

/** Read a settings file; `shown` names it in the messages (relative to the workspace root). */
async function loadSettings(file: string, shown: string, client: HookClient = 'claude'): Promise<Loaded> {
  const f = await readTextFile(file, 4 * 1024 * 1024);
  if (!f.ok) {
    if (f.kind === 'missing') return { text: '', before: null, beforeHash: null, value: {} };
    return {
      text: '',
      before: null,
      beforeHash: null,
      value: {},
      error: `${shown}: ${f.message}`,
      problem: { kind: 'unreadable' },
    };
  }
  if (f.truncated)
    return {
      text: f.text,
      before: f.text,
      beforeHash: f.hash,
      value: {},
      error: `${shown} is too large to edit safely`,
      problem: { kind: 'too-large' },
    };
  const base = { text: f.text, before: f.text, beforeHash: f.hash, bom: f.bom };
  if (f.text.trim() === '') return { ...base, value: {} };
  try {
    return settingsOf(shown, f.text, base, client);
  } catch (err) {
    // The JSON parser and reader recurse: thousands of nested brackets exhaust the stack.
    if (!(err instanceof RangeError)) throw err;
    return {
      ...base,
      value: {},
      error: `${shown} is nested too deeply to edit safely (fix it by hand first; nothing was changed)`,
      problem: { kind: 'too-deep' },
    };
  }
}

/** The settings file's value, or why it cannot be edited (see `loadSettings`); `shown` names the file. */
function settingsOf(
  shown: string,
  text: string,
  base: Pick<Loaded, 'text' | 'before' | 'beforeHash' | 'bom'>,
  client: HookClient,
): Loaded {
  const { root, errors } = parse(text);
  if (errors.length) {
    const at = lineCol(text, errors[0].offset);
    const what = jsonSyntaxWords(errors[0].error);
    return {
      ...base,
      value: {},
      error: notJsonMessage(shown, at.line, at.column, what).text,
      problem: { kind: 'not-json', ...at, what },
    };
  }
  if (!root || root.type !== 'object')
    return {
      ...base,
      value: {},
      error: `${shown} is not a JSON object (fix it by hand first; nothing was changed)`,
      problem: { kind: 'not-object' },
    };
  const hooksNode = root.children?.find((p) => p.children?.[0]?.value === 'hooks')?.children?.[1];
  // The status line the relay wraps too: install would wrap the first `command`, Claude Code runs the last.
  const statusNode = root.children?.find((p) => p.children?.[0]?.value === 'statusLine')?.children?.[1];
  const dup = duplicateKeys(root, '') ?? duplicateKeys(hooksNode, 'hooks.') ?? duplicateKeys(statusNode, 'statusLine.');
  if (dup) {
    return {
      ...base,
      value: {},
      error: `${shown} has the key ${dup} twice: ${CLIENT_NAME[client]} reads the last one, an edit would change the first. Merge them into one: fix it by hand first (nothing was changed).`,
      problem: { kind: 'duplicate-key', key: dup },
    };
  }
  return { ...base, value: getNodeValue(root) as Record<string, unknown> };
}

function settingsFile(root: string, local?: boolean, client: HookClient = 'claude'): string {
  return path.join(
    path.resolve(root),
    client === 'codex' ? CODEX_HOOKS_REL : local ? SETTINGS_LOCAL_REL : SETTINGS_REL,
  );
}

function scriptRel(client: HookClient): string {
  return client === 'codex' ? CODEX_SCRIPT_REL : SCRIPT_REL;
}

/** The hook files of the other client than `client` (relative to the root). */
function otherClientFiles(client: HookClient): string[] {
  return client === 'claude' ? [CODEX_HOOKS_REL] : [SETTINGS_REL, SETTINGS_LOCAL_REL];
}

/** Where the install record keeps the hash of the client's script. */
function scriptKey(client: HookClient): 'script' | 'codexScript' {
  return client === 'codex' ? 'codexScript' : 'script';
}

/**
 * Every file a plan writes must really lie inside the root (a `.claude` linking elsewhere is refused),
 * `.gitignore` too, before anything is read or written for it; a link inside the root never leads to
 * git's own files or to one of the tool's own files.
 */
async function writesInside(plan: HooksPlan): Promise<void> {
  const files = [
    plan.settingsPath,
    plan.scriptPath,
    plan.statuslinePath,
    path.join(plan.root, INSTALL_RECORD_REL),
    path.join(plan.root, '.gitignore'),
  ];
  // A file where one of their folders should be (`.claude` or `.codex` a plain file) is named first.
  for (const file of files) refuseNoFolder(file, plan.root);
  // A folder where older versions kept their core (CORE_REL), which install and uninstall remove, is
  // someone's own: it is never removed, and nothing is written while it stands there.
  if (lstatOrNullSync(plan.corePath)?.isDirectory()) {
    const rel = relOf(plan, plan.corePath);
    throw new WriteRefused(
      `${rel} is a folder, where older versions of Session Ledger kept a file of their own that install and uninstall remove; nothing was written. Move it away (it is not Session Ledger's) and run it again.`,
      'io',
      rel,
      'not-file',
    );
  }
  const settings = await writeTarget(plan.settingsPath, plan.root);
  const gitignore = await writeTarget(path.join(plan.root, '.gitignore'), plan.root);
  // Two edits of one file (`.gitignore` a link to the settings) would each undo the other's check.
  if (settings === gitignore)
    throw new WriteRefused(
      `.gitignore is a link to ${relOf(plan, plan.settingsPath)}, which install edits too; nothing was written. Remove the link and run it again.`,
      'link',
      '.gitignore',
    );
  // git reads no `.gitignore` of the work tree that is a symbolic link: lines written through one would
  // keep nothing out of git, and would land in whatever file it leads to.
  if (plan.action === 'install' && lstatOrNullSync(path.join(plan.root, '.gitignore'))?.isSymbolicLink())
    throw new WriteRefused(
      `.gitignore is a symbolic link, which git does not read; nothing was written. Replace the link with the file itself and run it again.`,
      'link',
      '.gitignore',
    );
  // The other client's hook file as a link to this one (`.codex/hooks.json` to `.claude/settings.json`):
  // each client's install edits the one file as its own, and one takes out the other's hooks.
  const rel = relOf(plan, plan.settingsPath);
  for (const other of otherClientFiles(rel === CODEX_HOOKS_REL ? 'codex' : 'claude')) {
    const target = await writeTarget(path.join(plan.root, other), plan.root).catch(() => null);
    if (target === settings)
      throw new WriteRefused(
        `${other} and ${rel} are one file (a link), which Claude Code's and Codex's installs would each edit as their own; nothing was written. Remove the link and run it again.`,
        'link',
        other,
      );
  }
  // The tool's own files are never written through a link (a dry run refuses as the install would),
  // and the write locks beside the install record and the settings file are refused as taking them
  // would refuse them (a link, a folder or a FIFO there).
  for (const own of [plan.scriptPath, plan.statuslinePath, path.join(plan.root, INSTALL_RECORD_REL)])
    refuseOwnFileLink(own, plan.root);
  for (const locked of [path.join(plan.root, INSTALL_RECORD_REL), plan.settingsPath]) {
    const why = await lockRefusal(locked, plan.root);
    if (why) throw why;
  }
  // Every file the plan may write can be written, before the first one is: a run that fails halfway
  // would leave the hooks wired without the record uninstall needs.
  for (const file of files) refuseUnwritable(file, plan.root);
}

/** A path under `root` as a message names it: relative, with `/`. */
const shownIn = (root: string, p: string): string => rootRel(root, p) || '.';

/**
 * The nearest folder on the way to `file` that exists; throws WriteRefused('io', 'not-folder') when
 * something other than a folder stands there (nothing can be written below it).
 */
function refuseNoFolder(file: string, root: string): { dir: string; st: Stats | null } {
  let dir = path.dirname(file);
  let d = statOrNullSync(dir);
  while (!d && path.dirname(dir) !== dir) d = statOrNullSync((dir = path.dirname(dir)));
  if (d && !d.isDirectory())
    throw new WriteRefused(
      `${shownIn(root, dir)} is not a folder, and ${shownIn(root, file)} goes in it; nothing was written. Move it away and run it again.`,
      'io',
      shownIn(root, dir),
      'not-folder',
    );
  return { dir, st: d };
}

/**
 * Throw WriteRefused('io') when `file` cannot be written: something other than a regular file stands
 * there, something other than a folder stands where one of its folders should be, or the nearest
 * existing folder on its way is not writable.
 */
function refuseUnwritable(file: string, root: string): void {
  const shown = (p: string) => shownIn(root, p);
  const refuse = (why: string) => {
    throw new WriteRefused(`${why}; nothing was written.`, 'io', shown(file));
  };
  const st = statOrNullSync(file);
  if (st && !st.isFile()) refuse(`${shown(file)} is not a regular file`);
  // The nearest folder on the way that exists: a file there, or one the user cannot write, refuses.
  const { dir, st: d } = refuseNoFolder(file, root);
  if (!d) return;
  try {
    accessSync(st ? file : dir, fsConstants.W_OK);
  } catch {
    refuse(`${shown(st ? file : dir)} cannot be written (no permission)`);
  }
}

function basePlan(
  action: HooksPlan['action'],
  client: HookClient,
  events: readonly HookEvent[],
  root: string,
  settingsPath: string,
  scriptPath: string,
  l: Loaded,
): HooksPlan {
  return {
    root: path.resolve(root),
    client,
    events,
    settingsPath,
    before: l.before,
    after: l.before ?? '',
    scriptPath,
    corePath: path.join(path.dirname(scriptPath), LEGACY_HOOK_CORE_NAME),
    statuslinePath: path.join(path.resolve(root), STATUSLINE_SCRIPT_REL),
    statuslineScript: 'none',
    changed: false,
    action,
    beforeHash: l.beforeHash,
    script: 'keep',
    cliBundle: null,
    deleteSettings: false,
    notes: [],
    bom: Boolean(l.bom),
    gitignore: null,
    record: {},
    ...(l.error ? { error: l.error, problem: l.problem } : {}),
  };
}

/** Remove our hooks of `event`; drop the event's array when we emptied it. */
function removeOurs(text: string, event: HookEvent, keepEmpty = false): { text: string; removed: boolean } {
  let removed = false;
  for (let guard = 0; guard < 1000; guard++) {
    const hooks = valueOf(text).hooks;
    const arr = isObj(hooks) ? hooks[event] : undefined;
    if (!Array.isArray(arr)) break;
    const i = arr.map(groupHasOurs).lastIndexOf(true);
    if (i < 0) break;
    const g = arr[i] as { hooks: unknown[] };
    const next = g.hooks.every(isOurHook)
      ? removeAt(text, ['hooks', event, i])
      : removeAt(text, ['hooks', event, i, 'hooks', g.hooks.map(isOurHook).lastIndexOf(true)]);
    if (next === null) break;
    text = next;
    removed = true;
  }
  // An event list emptied here goes, unless it was the user's before install (kept as `[]`).
  if (removed && !keepEmpty) {
    const hooks = valueOf(text).hooks;
    if (isObj(hooks) && Array.isArray(hooks[event]) && (hooks[event] as unknown[]).length === 0)
      text = removeAt(text, ['hooks', event]) ?? text;
  }
  return { text, removed };
}

export interface HooksInstallOptions {
  local?: boolean;
  statusline?: boolean;
  remind?: boolean;
  cliBundle?: string;
  /** Codex CLI's `.codex/hooks.json` instead of Claude Code's settings: the guard and the resume hook only (no local file, status line or reminder). */
  codex?: boolean;
  /** Claude Code's config folder, whose settings.json holds the user's own settings. Default: `$CLAUDE_CONFIG_DIR` or `~/.claude` of `env`. */
  claudeHome?: string;
  /** Environment to read `CLAUDE_CONFIG_DIR` and `HOME` from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** A statusLine command of a settings file below the one install writes (see `statusLineBelow`). */
interface StatusLineBelow {
  /** The file, as shown: relative to the root, or the user's settings under `~`. */
  file: string;
  /** Its statusLine setting as it stands. */
  statusLine: Record<string, unknown>;
  /** The command to wrap (of a relay of ours there: the command it wraps). */
  command: string;
}

/**
 * The user's statusLine command that Claude Code would show in this project but for the statusLine
 * of the file install writes: Claude Code takes the statusLine of the first of
 * `.claude/settings.local.json`, `.claude/settings.json` and the user's settings
 * (`$CLAUDE_CONFIG_DIR/settings.json`) that sets one. Undefined when the first file below that sets
 * a statusLine sets no command (or an empty one), or when a file above sets one (the relay's own
 * statusLine does not show then either). A relay of ours counts by the command it wraps; one that
 * wraps none is passed over.
 */
async function statusLineBelow(root: string, opts: HooksInstallOptions): Promise<StatusLineBelow | undefined> {
  const env = opts.env ?? process.env;
  const user = path.join(claudeHome({ claudeHome: opts.claudeHome, env }), 'settings.json');
  const shownUser = shownUserFile(user, env);
  const files: [string, string][] = opts.local
    ? [
        [settingsFile(root, false), SETTINGS_REL],
        [user, shownUser],
      ]
    : [[user, shownUser]];
  if (!opts.local) {
    const above = await readTextFile(settingsFile(root, true), 4 * 1024 * 1024);
    if (above.ok && valueOf(above.text).statusLine !== undefined) return undefined;
  }
  for (const [file, shown] of files) {
    const f = await readTextFile(file, 4 * 1024 * 1024);
    const sl = f.ok ? valueOf(f.text).statusLine : undefined;
    if (sl === undefined) continue;
    if (!isObj(sl) || typeof sl.command !== 'string') return undefined;
    const wrapped = unwrapRelay(sl.command);
    if (wrapped === null) continue;
    const command = wrapped ?? sl.command;
    return command.trim() ? { file: shown, statusLine: sl, command } : undefined;
  }
  return undefined;
}

/**
 * Whether the project's `.claude/settings.local.json` sets a statusLine of its own (not a relay of
 * ours): Claude Code takes the local file's statusLine over the shared `.claude/settings.json`'s (the
 * user's settings come below both), so a relay in the shared file does not run.
 */
async function localStatusLineOver(root: string): Promise<boolean> {
  const f = await readTextFile(settingsFile(root, true), 4 * 1024 * 1024);
  return f.ok && valueOf(f.text).statusLine !== undefined && !runsRelay(f.text);
}

/**
 * The relay in the project's `.claude/settings.json` that does not run because
 * `.claude/settings.local.json` sets a statusLine of its own (`localStatusLineOver`): the two files
 * (relative to the root), or null when the shared file runs no relay or nothing hides it.
 */
export async function relayHidden(root: string): Promise<{ file: string; by: string } | null> {
  const shared = await readTextFile(settingsFile(root, false), 4 * 1024 * 1024);
  if (!shared.ok || !runsRelay(shared.text) || !(await localStatusLineOver(root))) return null;
  return { file: SETTINGS_REL, by: SETTINGS_LOCAL_REL };
}

export async function planHooksInstall(root: string, opts: HooksInstallOptions = {}): Promise<HooksPlan> {
  const client: HookClient = opts.codex ? 'codex' : 'claude';
  if (client === 'codex') opts = { cliBundle: opts.cliBundle, codex: true };
  const events = eventsOf(opts.remind);
  const settingsPath = settingsFile(root, opts.local, client);
  const scriptPath = path.join(path.resolve(root), scriptRel(client));
  const l = await loadSettings(settingsPath, rootRel(root, settingsPath), client);
  const plan = basePlan('install', client, events, root, settingsPath, scriptPath, l);
  plan.cliBundle = opts.cliBundle ? path.resolve(opts.cliBundle) : defaultCliBundle();
  if (plan.error) return plan;
  if (!plan.cliBundle || !existsSync(plan.cliBundle)) {
    plan.error = `the bundled CLI to install was not found${plan.cliBundle ? ` at ${plan.cliBundle}` : ''} (build it with \`npm run build\`)`;
    plan.problem = { kind: 'no-bundle', script: 'hook', file: plan.cliBundle };
    return plan;
  }
  const v = l.value;
  if (v.hooks !== undefined && !isObj(v.hooks))
    return {
      ...plan,
      error: `"hooks" in ${rootRel(root, settingsPath)} is not an object; fix it by hand first`,
      problem: { kind: 'key-not-object', key: 'hooks' },
    };
  if (!(await takeRecord(plan))) return trackedRecord(plan);
  plan.record.hooksKeyAdded = {
    ...plan.record.hooksKeyAdded,
    [path.basename(settingsPath)]: plan.record.hooksKeyAdded?.[path.basename(settingsPath)] ?? v.hooks === undefined,
  };
  // The event lists the user had (any event, as uninstall looks at every one), recorded at the first install.
  if (!(path.basename(settingsPath) in (plan.record.eventsBefore ?? {}))) {
    // A list holding a group of ours came from an older install: not the user's.
    const had = isObj(v.hooks)
      ? ALL_HOOK_EVENTS.filter((e) => {
          const arr = (v.hooks as Record<string, unknown>)[e];
          return Array.isArray(arr) && !arr.some(groupHasOurs);
        })
      : [];
    if (had.length) plan.record.eventsBefore = { ...plan.record.eventsBefore, [path.basename(settingsPath)]: had };
  }
  for (const e of events) {
    const arr = isObj(v.hooks) ? v.hooks[e] : undefined;
    if (arr !== undefined && !Array.isArray(arr))
      return {
        ...plan,
        error: `"hooks.${e}" in ${rootRel(root, settingsPath)} is not an array; fix it by hand first`,
        problem: { kind: 'key-not-array', key: `hooks.${e}` },
      };
  }

  // A file that holds no setting (blank, or an empty object however it is spaced) is written anew, and
  // uninstall gives back its exact bytes.
  let text = holdsNoSetting(l.text) ? '' : l.text;
  const name = path.basename(settingsPath);
  // The user's status line below this file: a local file's relay wraps it (that file is the user's
  // alone); the shared file's never takes it in, and the plan says it no longer shows.
  const below = client === 'claude' ? await statusLineBelow(root, opts) : undefined;
  const borrow = opts.local ? below : undefined;
  const borrowed = plan.record.statusLineFrom?.[name] !== undefined;
  let borrows = false;
  if (text === '') {
    // What uninstall gives back: no file, or the file without a setting there was (its exact bytes).
    if (!(name in (plan.record.settingsBefore ?? {})))
      plan.record.settingsBefore = { ...plan.record.settingsBefore, [name]: l.before };
    text = newSettingsText(
      Boolean(opts.statusline),
      Boolean(opts.remind),
      client,
      borrow && borrowedStatusLine(borrow),
    );
    if (opts.statusline) {
      borrows = Boolean(borrow);
      plan.notes.push(borrow ? wrapsFrom(borrow) : { kind: 'relay-added' });
    }
  } else {
    const missing: HookEvent[] = [];
    for (const e of events) {
      const hooks = valueOf(text).hooks;
      const arr = isObj(hooks) ? hooks[e] : undefined;
      if (!Array.isArray(arr)) {
        missing.push(e);
        continue;
      }
      const mine = arr.map((g, i) => (groupHasOurs(g) ? i : -1)).filter((i) => i >= 0);
      if (mine.length === 1 && sameJson(arr[mine[0]], hookGroup(e, client))) continue;
      if (mine.length === 1 && (arr[mine[0]] as HookGroup).hooks.every(isOurHook)) {
        text = replaceValue(text, ['hooks', e, mine[0]], hookGroup(e, client)) ?? text;
        continue;
      }
      text = removeOurs(text, e).text;
      const after = valueOf(text).hooks;
      text =
        (isObj(after) && Array.isArray(after[e])
          ? insertChild(text, ['hooks', e], hookGroup(e, client))
          : insertChild(text, ['hooks'], [hookGroup(e, client)], e)) ?? text;
    }
    if (missing.length) {
      const groups = Object.fromEntries(missing.map((e) => [e, [hookGroup(e, client)]]));
      if (isObj(valueOf(text).hooks))
        for (const e of missing) text = insertChild(text, ['hooks'], groups[e], e) ?? text;
      else text = insertChild(text, [], groups, 'hooks') ?? text;
    }
    // A relay already there (an earlier version's included) is kept current by every install.
    if (opts.statusline || runsRelay(text)) ({ text, borrows } = wireStatusLine(text, plan.notes, borrow, borrowed));
  }
  if (borrows) plan.record.statusLineFrom = { ...plan.record.statusLineFrom, [name]: borrow!.file };
  else if (borrowed && !runsRelay(text)) {
    const { [name]: _gone, ...rest } = plan.record.statusLineFrom ?? {};
    plan.record.statusLineFrom = rest;
  }
  if (below && !opts.local && plan.notes.some((n) => n.kind === 'relay-added'))
    plan.notes.push({ kind: 'status-line-hidden', file: below.file });
  // A relay in the shared settings, new or already there, that the local file's own statusLine hides.
  if (client === 'claude' && !opts.local && runsRelay(text) && (await localStatusLineOver(root)))
    plan.notes.push({ kind: 'relay-hidden', file: SETTINGS_REL, by: SETTINGS_LOCAL_REL });
  // Claude Code's own settings that keep it from running the hooks, or from showing the relay, however installed.
  if (client === 'claude') {
    const stops = await claudeStops(root, {
      env: opts.env,
      claudeHome: opts.claudeHome,
      holdsGuard,
      planned: { file: settingsPath, text },
    });
    if (stops.hooks) plan.notes.push({ kind: 'hooks-off', stop: stops.hooks });
    else if (stops.relay && runsRelay(text)) plan.notes.push({ kind: 'relay-off', stop: stops.relay });
  }
  plan.after = text;
  let want: Buffer;
  try {
    await writesInside(plan);
    want = await scriptBytes(plan.cliBundle);
  } catch (err) {
    return { ...plan, error: (err as Error).message, problem: { kind: 'refused', cause: err } };
  }
  // Never opened unless it is a regular file: a FIFO at the script path must not hang even --dry-run.
  const have = await readRegularFile(scriptPath);
  if (changedSinceInstall(have, plan.record[scriptKey(client)], want)) return modified(plan, scriptRel(client));
  plan.script = have && have.equals(want) && !lstatOrNullSync(plan.corePath) ? 'keep' : 'write';
  plan.scriptHash = have ? sha256(have) : null;
  plan.record[scriptKey(client)] = sha256(want);
  // The status line's own script, while the settings run the relay.
  if (client === 'claude' && runsRelay(plan.after)) {
    const bundle = installedBundles(plan.cliBundle).statusline;
    let wantSl: Buffer;
    try {
      wantSl = await scriptBytes(bundle);
    } catch {
      plan.error = `the status line script to install was not found at ${bundle} (build it with \`npm run build\`)`;
      plan.problem = { kind: 'no-bundle', script: 'statusline', file: bundle };
      return plan;
    }
    const haveSl = await readRegularFile(plan.statuslinePath);
    // Its second part: the transcript meter now, the meter in what versions before wrote.
    if (changedSinceInstall(haveSl, plan.record.statuslineScript, wantSl)) return modified(plan, STATUSLINE_SCRIPT_REL);
    plan.statuslineScript = haveSl && haveSl.equals(wantSl) ? 'keep' : 'write';
    plan.statuslineHash = haveSl ? sha256(haveSl) : null;
    plan.record.statuslineScript = sha256(wantSl);
  }
  plan.gitignore = await planGitignoreAdd(plan.root, plan.record);
  plan.changed =
    plan.after !== (l.before ?? '') ||
    plan.script === 'write' ||
    plan.statuslineScript === 'write' ||
    plan.gitignore !== null;
  // What Codex needs before it runs the hooks (seen with Codex CLI 0.171.0): project hooks load only
  // in a project the user trusts, and each hook runs only once the user trusted it (Codex keeps that
  // trust in its own config.toml, by the hook file's path and the hook's content); an untrusted hook
  // is skipped without a word. The tool never writes that trust itself.
  if (client === 'codex') plan.notes.push({ kind: 'codex-trust' });
  return plan;
}

/**
 * The build's files an install copies, given the bundled CLI (`cliBundle`, itself the hook script):
 * the hook script, and the status line's script beside it, which the relay runs. Whatever ships the
 * bundled CLI for installing (the extension's package) ships both.
 */
export function installedBundles(cliBundle: string): { script: string; statusline: string } {
  return { script: cliBundle, statusline: path.join(path.dirname(cliBundle), STATUSLINE_SCRIPT_NAME) };
}

/**
 * A script changed since install wrote it is someone's work: never replaced or removed without being
 * asked. Not changed: the bytes install wrote, or the script to install, also with a checkout's CRLF
 * line breaks; and, before a new install, a copy of the script to install cut short (a half-written
 * checkout: the hooks say to run install again).
 */
function changedSinceInstall(have: Buffer | null, recorded: string | undefined, want?: Buffer): boolean {
  if (!have || !recorded || (want && have.equals(want)) || sha256(have) === recorded) return false;
  const lf = have.includes('\r\n') ? Buffer.from(have.toString('latin1').replaceAll('\r\n', '\n'), 'latin1') : have;
  if (lf !== have && (sha256(lf) === recorded || (want && lf.equals(want)))) return false;
  return !(want && lf.length < want.length && want.subarray(0, lf.length).equals(lf));
}

function modified(plan: HooksPlan, rel: string): HooksPlan {
  return {
    ...plan,
    error: `${rel} was changed since \`hooks install\` wrote it; nothing was changed. Keep your version elsewhere (or delete the file), then run hooks install again.`,
    problem: { kind: 'modified', file: rel },
  };
}

/** A new settings file, written whole in Claude Code's usual two-space style (Codex's hooks.json the same). */
/**
 * A new settings file, written whole in Claude Code's usual two-space style (Codex's hooks.json the
 * same); `statusLine`: the relay's setting when it is not the relay alone.
 */
function newSettingsText(
  statusline: boolean,
  remind = false,
  client: HookClient = 'claude',
  statusLine?: Record<string, unknown>,
): string {
  const obj: Record<string, unknown> = {
    hooks: Object.fromEntries(eventsOf(remind).map((e) => [e, [hookGroup(e, client)]])),
  };
  if (statusline) obj.statusLine = statusLine ?? { type: 'command', command: relayCommand(null) };
  return `${JSON.stringify(obj, null, 2)}\n`;
}

/** The statusLine setting of the file below, its command wrapped by the relay (its other keys, `padding` …, as they are). */
function borrowedStatusLine(below: StatusLineBelow): Record<string, unknown> {
  return { ...below.statusLine, command: relayCommand(below.command) };
}

/** The note for a relay that wraps the command of the file below: the command is the user's text, a token in it is shown masked. */
function wrapsFrom(below: StatusLineBelow): HooksNote {
  return { kind: 'relay-wraps-from', command: maskSecrets(below.command).text, file: below.file };
}

/**
 * The settings with the relay wired as their statusLine, and whether the relay wraps the command of
 * the file below (`below`): a relay that stands alone, or that wraps a command it took from there
 * before (`borrowed`), takes up that command as it is now.
 */
function wireStatusLine(
  text: string,
  notes: HooksNote[],
  below?: StatusLineBelow,
  borrowed = false,
): { text: string; borrows: boolean } {
  const sl = valueOf(text).statusLine;
  if (sl === undefined) {
    notes.push(below ? wrapsFrom(below) : { kind: 'relay-added' });
    const value = below ? borrowedStatusLine(below) : { type: 'command', command: relayCommand(null) };
    return { text: insertChild(text, [], value, 'statusLine') ?? text, borrows: Boolean(below) };
  }
  if (!isObj(sl) || typeof sl.command !== 'string') {
    notes.push({ kind: 'relay-not-command' });
    return { text, borrows: false };
  }
  const wrapped = unwrapRelay(sl.command);
  if (wrapped !== undefined) {
    const want = below && (wrapped === null || borrowed) ? below.command : wrapped;
    const borrows = want !== wrapped || borrowed;
    // Ours: an earlier version's relay (through the hook script) now runs the status line's own script.
    if (sl.command === relayCommand(want)) return { text, borrows };
    notes.push(want !== wrapped ? wrapsFrom(below!) : { kind: 'relay-own-script' });
    return { text: replaceValue(text, ['statusLine', 'command'], relayCommand(want)) ?? text, borrows };
  }
  // The command is the user's text: a token in it is shown masked.
  notes.push({ kind: 'relay-wraps', command: maskSecrets(sl.command).text });
  return { text: replaceValue(text, ['statusLine', 'command'], relayCommand(sl.command)) ?? text, borrows: false };
}

/** The statusLine of settings whose relay took its command from below (`from`: that file, else undefined), as install wrote it. */
function borrowedSetting(text: string | null, from: string | undefined): Record<string, unknown> | undefined {
  const sl = from !== undefined && text ? valueOf(text).statusLine : undefined;
  return isObj(sl) ? sl : undefined;
}

/** The settings without the relay: the command it wraps put back, unless it took that command from below (`borrowed`). */
function unwireStatusLine(text: string, notes: HooksNote[], borrowed = false): string {
  const sl = valueOf(text).statusLine;
  if (!isObj(sl) || typeof sl.command !== 'string') return text;
  const wrapped = unwrapRelay(sl.command);
  if (wrapped === undefined) return text;
  if (wrapped === null || borrowed) {
    notes.push({ kind: 'relay-removed' });
    return removeAt(text, ['statusLine']) ?? text;
  }
  notes.push({ kind: 'command-back', command: maskSecrets(wrapped).text });
  return replaceValue(text, ['statusLine', 'command'], wrapped) ?? text;
}

export async function planHooksUninstall(
  root: string,
  opts: { local?: boolean; codex?: boolean } = {},
): Promise<HooksPlan> {
  const client: HookClient = opts.codex ? 'codex' : 'claude';
  const abs = path.resolve(root);
  const settingsPath = settingsFile(abs, opts.local, client);
  const scriptPath = path.join(abs, scriptRel(client));
  const l = await loadSettings(settingsPath, rootRel(root, settingsPath), client);
  const plan = basePlan('uninstall', client, ALL_HOOK_EVENTS, abs, settingsPath, scriptPath, l);
  if (plan.error) return plan;
  if (!(await takeRecord(plan))) return trackedRecord(plan);
  const keyAdded = plan.record.hooksKeyAdded?.[path.basename(settingsPath)];
  const borrowed = plan.record.statusLineFrom?.[path.basename(settingsPath)];
  let text = l.text;
  let removed = false;
  const kept = plan.record.eventsBefore?.[path.basename(settingsPath)] ?? [];
  if (l.before !== null && l.text.trim() !== '') {
    for (const e of ALL_HOOK_EVENTS) {
      const r = removeOurs(text, e, kept.includes(e));
      text = r.text;
      removed ||= r.removed;
    }
    if (removed) {
      const hooks = valueOf(text).hooks;
      if (isObj(hooks) && Object.keys(hooks).length === 0 && parse(text).root) {
        const node = parse(text).root!.children?.find((p) => p.children?.[0]?.value === 'hooks');
        const inner = node?.children?.[1];
        // Only an empty `{}` that install added goes: a `hooks` holding a comment stays, and so does a `{}` that was there before.
        if (
          inner &&
          keyAdded !== false &&
          text.slice(inner.offset, inner.offset + inner.length).replace(/\s/g, '') === '{}'
        )
          text = removeAt(text, ['hooks']) ?? text;
      }
    }
    if (client === 'claude') text = unwireStatusLine(text, plan.notes, borrowed !== undefined);
  }
  plan.after = text;
  try {
    await writesInside(plan);
  } catch (err) {
    return { ...plan, error: (err as Error).message, problem: { kind: 'refused', cause: err } };
  }
  // A settings file exactly as install created it goes again (install wrote it where there was none),
  // or gets back the empty or blank text it replaced; a file that was the user's before is never removed.
  const name = path.basename(settingsPath);
  const before = plan.record.settingsBefore ?? {};
  if (
    l.before !== null &&
    removed &&
    name in before &&
    (client === 'codex'
      ? l.before === newSettingsText(false, false, client)
      : [false, true].some((sl) =>
          [false, true].some((rm) => l.before === newSettingsText(sl, rm, client, borrowedSetting(l.before, borrowed))),
        ))
  ) {
    const was = before[name];
    if (was === null) {
      plan.deleteSettings = true;
      plan.after = '';
    } else plan.after = was;
  }
  if (plan.record.eventsBefore && name in plan.record.eventsBefore) {
    const { [name]: _had, ...others } = plan.record.eventsBefore;
    plan.record.eventsBefore = others;
  }
  if (plan.record.settingsBefore && name in plan.record.settingsBefore) {
    const { [name]: _gone, ...rest } = plan.record.settingsBefore;
    plan.record.settingsBefore = rest;
  }
  if (borrowed !== undefined && !runsRelay(plan.after)) {
    const { [name]: _taken, ...rest } = plan.record.statusLineFrom ?? {};
    plan.record.statusLineFrom = rest;
  }
  // The script goes when no settings file calls it any more; the .gitignore lines and the record's
  // script hash when no client's file calls either script.
  const ours = scriptRel(client);
  const other = client === 'claude' ? settingsFile(abs, !opts.local) : null;
  const of = other ? await readTextFile(other) : null;
  const otherText = of?.ok ? of.text : '';
  const stillUsed = otherText.includes(OURS) || (!plan.deleteSettings && plan.after.includes(ours));
  const otherClients = await Promise.all(otherClientFiles(client).map((rel) => readTextFile(path.join(abs, rel))));
  const anyUsed =
    stillUsed || otherClients.some((f) => f.ok && (f.text.includes(OURS) || f.text.includes(CODEX_SCRIPT_REL)));
  plan.script = (existsSync(scriptPath) || existsSync(plan.corePath)) && !stillUsed ? 'remove' : 'keep';
  // The bytes the plan decides on: apply removes the script only while it still has them (see applyLocked).
  const haveScript = await readRegularFile(scriptPath);
  plan.scriptHash = haveScript ? sha256(haveScript) : null;
  let editedKept = false;
  if (plan.script === 'remove' && changedSinceInstall(haveScript, plan.record[scriptKey(client)])) {
    plan.script = 'keep';
    // Its hash stays recorded: the next install still refuses to replace it, the next uninstall keeps it.
    editedKept = true;
    plan.notes.push({ kind: 'script-kept', file: scriptRel(client) });
  }
  if (client === 'claude' && !removed && !l.text.includes(OURS) && otherText.includes(OURS)) {
    // Nothing of ours here, but the other settings file has the hooks: say which flag finds them.
    const otherRel = opts.local ? SETTINGS_REL : SETTINGS_LOCAL_REL;
    plan.error = `no Session Ledger hooks in ${opts.local ? SETTINGS_LOCAL_REL : SETTINGS_REL}: they are installed in ${otherRel}: ${opts.local ? 'drop --local' : 'add --local'}.`;
    plan.problem = { kind: 'elsewhere', other: otherRel };
    return plan;
  }
  // The status line's script goes with the last relay that runs it.
  const relayStays = (!plan.deleteSettings && runsRelay(plan.after)) || runsRelay(otherText);
  if (client === 'claude' && !relayStays) {
    if (existsSync(plan.statuslinePath)) {
      const haveSl = await readRegularFile(plan.statuslinePath);
      plan.statuslineHash = haveSl ? sha256(haveSl) : null;
      plan.statuslineScript = changedSinceInstall(haveSl, plan.record.statuslineScript) ? 'keep' : 'remove';
    }
    if (plan.statuslineScript === 'keep') plan.notes.push({ kind: 'script-kept', file: STATUSLINE_SCRIPT_REL });
    else delete plan.record.statuslineScript;
  }
  // The .gitignore lines keep the tool's records out of git: they stay while any record is still there
  // (a session id, a transcript path, the status line's whole JSON), and the note says which.
  const records = anyUsed ? [] : runtimeFiles(abs);
  if (records.length) plan.notes.push({ kind: 'records-left', files: records });
  if (!anyUsed && !records.length) plan.gitignore = await planGitignoreRemove(abs, plan.record);
  if (plan.record.hooksKeyAdded) delete plan.record.hooksKeyAdded[path.basename(settingsPath)];
  if (!stillUsed && !editedKept) delete plan.record[scriptKey(client)];
  if (!anyUsed && !records.length) delete plan.record.gitignore;
  plan.changed =
    plan.after !== (l.before ?? '') ||
    plan.deleteSettings ||
    plan.script === 'remove' ||
    plan.statuslineScript === 'remove' ||
    plan.gitignore !== null;
  return plan;
}

/** The tool's records under `root` that its .gitignore lines hide (the install record aside), relative. */
function runtimeFiles(root: string): string[] {
  const out: string[] = [];
  const list = (rel: string): string[] => {
    try {
      return readdirSync(path.join(root, rel));
    } catch {
      return [];
    }
  };
  for (const n of list('.claude/session-ledger'))
    if (n !== path.basename(INSTALL_RECORD_REL)) out.push(`.claude/session-ledger/${n}`);
  // The log, its older half, and the write lock a hook takes to move the log (left behind by a hook that died holding it).
  for (const n of list('.claude/log'))
    if (n.startsWith('session-ledger-hook.log') || n === path.basename(lockPath(HOOK_LOG_REL)))
      out.push(`.claude/log/${n}`);
  for (const n of list('.claude')) if (n.startsWith('.checkpoint-ready')) out.push(`.claude/${n}`);
  return out;
}

/**
 * Record what install wrote to `rel` and what stood there before (./install-edits), when the bytes
 * read before the write are those the plan hashed (`beforeHash`, null: no file); else record nothing.
 */
async function setEntry(
  written: Record<string, WrittenEntry>,
  root: string,
  rel: string,
  before: Buffer | null,
  beforeHash: string | null,
  after: string,
): Promise<void> {
  const same = before === null ? beforeHash === null : beforeHash !== null && sha256(before) === beforeHash;
  // git's own word on how it stores those bytes there (CRLF as LF under core.autocrlf, say), not a guess of ours.
  if (same)
    written[rel] = writtenEntry(
      before && { bytes: before, stored: await storedBlobId(root, rel, before) },
      after,
      written[rel],
    );
  else delete written[rel];
}

/** A path of the plan's as the install record and every sentence about the plan name it: relative to the root, with `/`. */
export function relOf(plan: HooksPlan, file: string): string {
  return rootRel(plan.root, file);
}

/** Write the install record, or remove it (and its folder, when empty) once it holds nothing. */
async function writeRecord(plan: HooksPlan): Promise<void> {
  const file = path.join(plan.root, INSTALL_RECORD_REL);
  const r = plan.record;
  const empty =
    (!r.hooksKeyAdded || Object.keys(r.hooksKeyAdded).length === 0) &&
    (!r.settingsBefore || Object.keys(r.settingsBefore).length === 0) &&
    (!r.eventsBefore || Object.keys(r.eventsBefore).length === 0) &&
    !r.gitignore &&
    !r.script &&
    !r.codexScript &&
    !r.statuslineScript;
  // Hashes of what install wrote say nothing once nothing else is recorded; none are kept without them.
  if (r.written && Object.keys(r.written).length === 0) delete r.written;
  if (empty) {
    try {
      removeOwn(file, plan.root);
    } catch {
      /* left as it is */
    }
    removeOwn(path.dirname(file), plan.root, true);
    return;
  }
  await writeAtomic(file, `${JSON.stringify(r, null, 2)}\n`, { root: plan.root, own: true });
}

/**
 * Carry out a plan. Refuses (WriteRefused 'changed', nothing written) when the settings file, or a
 * script the plan replaces or removes, changed since the plan was made.
 */
export async function applyHooksPlan(plan: HooksPlan, opts: { cliBundle?: string } = {}): Promise<void> {
  if (plan.error) throw new WriteRefused(plan.error, 'io', path.relative(plan.root, plan.settingsPath));
  if (!plan.changed) return;
  // One install or uninstall at a time, for any client (they share the record and .gitignore): the record's
  // lock first, then the settings file's; the one that waited refuses when either changed since its plan.
  const record = path.join(plan.root, INSTALL_RECORD_REL);
  // The folders the locks make: a refused apply leaves none of them behind (only empty ones go).
  const made = [path.dirname(record), path.dirname(plan.settingsPath), path.join(plan.root, '.claude')]
    .filter((d) => !existsSync(d))
    .sort((a, b) => b.length - a.length);
  try {
    await withWriteLock(record, plan.root, () =>
      withWriteLock(plan.settingsPath, plan.root, () => applyLocked(plan, opts)),
    );
  } catch (err) {
    for (const d of made) removeOwn(d, plan.root, true);
    throw err;
  }
  // The record's folder when uninstall left it empty, once its lock is gone.
  if (plan.action === 'uninstall') removeOwn(path.dirname(record), plan.root, true);
  // And `.claude/` itself when uninstall left it empty (install created it for a new settings file), once the lock beside the settings is gone.
  if (plan.action === 'uninstall') removeOwn(path.dirname(plan.settingsPath), plan.root, true);
  // A Codex install put only its record under `.claude/`: that folder goes too when uninstall left it empty.
  if (plan.action === 'uninstall' && plan.settingsPath === path.join(plan.root, CODEX_HOOKS_REL))
    removeOwn(path.join(plan.root, '.claude'), plan.root, true);
}

async function applyLocked(plan: HooksPlan, opts: { cliBundle?: string }): Promise<void> {
  // Checked again now, under the lock: a link planted since the plan (while the preview was shown)
  // is refused before anything is written or removed (a removal would not go through writeAtomic).
  await writesInside(plan);
  const settingsChanged = changesSettings(plan);
  // Every file the plan rewrites is still as it read it, before the first write: the record (another
  // client's install or uninstall ran meanwhile), the settings (edited while the preview was open: the
  // scripts are not written first and then refused) and .gitignore; the scripts are checked below.
  const settingsRel = relOf(plan, plan.settingsPath);
  for (const [file, rel, hash] of [
    [path.join(plan.root, INSTALL_RECORD_REL), INSTALL_RECORD_REL, plan.recordHash],
    ...(settingsChanged ? [[plan.settingsPath, settingsRel, plan.beforeHash] as const] : []),
    ...(plan.gitignore ? [[plan.gitignore.path, '.gitignore', plan.gitignore.beforeHash] as const] : []),
  ] as const)
    if (hash !== undefined && (await currentHash(file, rel)) !== hash) throw changedSinceRead(rel);
  // A script the plan replaces (install) or removes (uninstall: the hook script, Claude Code's or
  // Codex's, and the status line's) must still be as the plan read it, or nothing at all is written or
  // removed: an edit made since (while the extension's preview was open) is someone's work. The plan
  // compared those bytes with the hashes install recorded, and the record is checked unchanged above,
  // so bytes still as the plan read them are still install's. A refused uninstall leaves the settings
  // naming the script that is still there; run again, its plan sees the edit and, as for a script
  // edited before the plan, takes the hooks out and keeps the script, and says so. Uninstall lets a
  // script that is gone since pass: nothing of anyone's is lost. (writeAtomic checks again right
  // before each rename of install's.)
  const uninstall = plan.action === 'uninstall';
  const touched = uninstall ? 'remove' : 'write';
  for (const [file, touches, hash] of [
    [plan.scriptPath, plan.script === touched, plan.scriptHash],
    [plan.statuslinePath, plan.statuslineScript === touched, plan.statuslineHash],
  ] as const) {
    if (!touches || hash === undefined) continue;
    const rel = relOf(plan, file);
    const now = await currentHash(file, rel);
    if (now !== hash && !(uninstall && now === null)) throw changedSinceRead(rel);
  }
  if (plan.action === 'install') {
    // The script before the settings: the settings never name a script that is not there.
    if (plan.script === 'write') {
      const bundle = opts.cliBundle ?? plan.cliBundle;
      if (!bundle) throw new WriteRefused('no bundled CLI to install', 'io');
      await writeAtomic(plan.scriptPath, await scriptBytes(bundle), {
        exactMode: 0o755,
        root: plan.root,
        own: true,
        expectHash: plan.scriptHash,
      });
      // An older version's compressed core beside it is no longer read by anything.
      removeOwn(plan.corePath, plan.root);
    }
    if (plan.statuslineScript === 'write') {
      const bundle = opts.cliBundle ?? plan.cliBundle;
      if (!bundle) throw new WriteRefused('no bundled CLI to install', 'io');
      await writeAtomic(plan.statuslinePath, await scriptBytes(installedBundles(bundle).statusline), {
        exactMode: 0o755,
        root: plan.root,
        own: true,
        expectHash: plan.statuslineHash,
      });
    }
    const written = { ...plan.record.written };
    if (settingsChanged) {
      const text = (plan.bom ? '\uFEFF' : '') + plan.after;
      // The bytes before, read under the lock: the write refuses unless they still hash as the plan read them.
      const before = await readRegularFile(plan.settingsPath);
      await writeAtomic(plan.settingsPath, text, { expectHash: plan.beforeHash, root: plan.root });
      await setEntry(written, plan.root, relOf(plan, plan.settingsPath), before, plan.beforeHash, text);
    }
    if (plan.gitignore) {
      const before = await readRegularFile(plan.gitignore.path);
      await writeAtomic(plan.gitignore.path, plan.gitignore.after, {
        expectHash: plan.gitignore.beforeHash,
        root: plan.root,
      });
      await setEntry(
        written,
        plan.root,
        relOf(plan, plan.gitignore.path),
        before,
        plan.gitignore.beforeHash,
        plan.gitignore.after,
      );
    }
    await writeRecord({ ...plan, record: { ...plan.record, written } });
    return;
  }
  // What uninstall writes back is no longer install's.
  const written = { ...plan.record.written };
  if (settingsChanged) {
    if (plan.deleteSettings) {
      const now = await readTextFile(plan.settingsPath);
      if (!now.ok || now.hash !== plan.beforeHash) {
        const rel = relOf(plan, plan.settingsPath);
        throw changedSinceRead(rel);
      }
      await fs.rm(plan.settingsPath);
    } else {
      await writeAtomic(plan.settingsPath, (plan.bom ? '\uFEFF' : '') + plan.after, {
        expectHash: plan.beforeHash,
        root: plan.root,
      });
    }
  }
  if (plan.gitignore) {
    if (plan.gitignore.remove) {
      const now = await readTextFile(plan.gitignore.path);
      if (now.ok && now.hash === plan.gitignore.beforeHash) await fs.rm(plan.gitignore.path);
    } else
      await writeAtomic(plan.gitignore.path, plan.gitignore.after, {
        expectHash: plan.gitignore.beforeHash,
        root: plan.root,
      });
  }
  if (settingsChanged) delete written[relOf(plan, plan.settingsPath)];
  if (plan.gitignore) delete written[relOf(plan, plan.gitignore.path)];
  await writeRecord({ ...plan, record: { ...plan.record, written } });
  // The tool's own scripts are removed in their folder held open from the root down: never a file of
  // their name where a folder on the way (`.claude/hooks`) swapped for a link since the check leads.
  if (plan.statuslineScript === 'remove') removeOwn(plan.statuslinePath, plan.root);
  if (plan.script === 'remove') {
    removeOwn(plan.scriptPath, plan.root);
    removeOwn(plan.corePath, plan.root);
    // The folder too, when install made it and nothing else lives there.
    removeOwn(path.dirname(plan.scriptPath), plan.root, true);
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * The settings file before and after the change as a surface shows them (`--dry-run`'s diff, the
 * extension's preview): a settings file may hold an API key or a token (its `env`, a status line's
 * command), so secrets and personal data are masked as in a YAML text (`maskedYamlText`: JSON is YAML,
 * so a value spelled with `\u` escapes or under a key that names a secret is masked too; a file with
 * comments gets the line masker). Only the write takes `plan.after`.
 */
export function shownSettings(plan: HooksPlan): { before: string | null; after: string } {
  return {
    before: plan.before === null ? null : maskedYamlText(plan.before),
    after: plan.deleteSettings ? '' : maskedYamlText(plan.after),
  };
}

/** Does the plan write or remove the settings file? */
export function changesSettings(plan: HooksPlan): boolean {
  return plan.deleteSettings || plan.after !== (plan.before ?? '');
}

/**
 * The events of the plan whose hook list the change adds to or rewrites: none when the settings change
 * only elsewhere (a relay added to an install already there), the reminder alone when `--remind` comes
 * to one.
 */
export function eventsChanged(plan: HooksPlan): HookEvent[] {
  if (!changesSettings(plan)) return [];
  const hooksOf = (text: string | null) => {
    const h = text ? valueOf(text).hooks : undefined;
    return isObj(h) ? h : {};
  };
  const [before, after] = [hooksOf(plan.before), hooksOf(plan.after)];
  return plan.events.filter((e) => !sameJson(before[e], after[e]));
}

/**
 * The file a preview of the plan shows, its two sides as a surface shows them: the settings
 * (`shownSettings`) when the plan changes them, else `.gitignore` when the plan changes it (each side
 * through the line masker, as every text a surface shows), else the settings as they are. `rel`:
 * relative to the root, with `/`.
 */
export function shownChange(plan: HooksPlan): { rel: string; before: string | null; after: string } {
  const g = plan.gitignore;
  if (changesSettings(plan) || !g) return { rel: relOf(plan, plan.settingsPath), ...shownSettings(plan) };
  return {
    rel: relOf(plan, g.path),
    before: g.before === null ? null : maskSecrets(g.before).text,
    after: g.remove ? '' : maskSecrets(g.after).text,
  };
}

/** A line diff of the settings change, for `--dry-run`, as `shownSettings` shows the two sides. */
export function planDiff(plan: HooksPlan): string[] {
  const shown = shownSettings(plan);
  // The line break that ends a file (or no file) is no line of its own.
  const lines = (text: string) => text.replace(/\r?\n$/, '').split(/\r?\n/);
  const a = shown.before ? lines(shown.before) : [];
  const b = plan.deleteSettings || !shown.after ? [] : lines(shown.after);
  const rel = relOf(plan, plan.settingsPath);
  const out: string[] = [
    `--- ${rel}${plan.before === null ? ' (new file)' : ''}`,
    `+++ ${rel}${plan.deleteSettings ? ' (removed)' : ''}`,
  ];
  // The changed lines with two lines of context; a longer run of unchanged lines is one `@@`.
  const rows = diffRows(a, b);
  const keep = rows.map((r, k) => r.t !== ' ' || rows.slice(Math.max(0, k - 2), k + 3).some((x) => x.t !== ' '));
  let gap = false;
  rows.forEach((r, k) => {
    if (keep[k]) {
      out.push(`${r.t}${r.s}`);
      gap = false;
    } else if (!gap) {
      out.push('@@');
      gap = true;
    }
  });
  return out;
}

/** One row of a line diff: a line both sides hold, one only the old side holds (`-`), or one only the new side holds (`+`). */
export interface DiffRow {
  t: ' ' | '-' | '+';
  s: string;
}

/** Past this many edits, or this much work per line (see `diffRows`), a change is shown as a block replaced. */
const DIFF_MAX_EDITS = 1000;
const DIFF_WORK_PER_LINE = 16;

/**
 * The rows of a line diff of `a` into `b`, aligned as a longest common subsequence walked from the
 * first line: two equal next lines are kept, and of two different ones the new side's line is taken
 * first (`+`) unless only taking the old side's (`-`) leaves the fewest edits to the end. A settings
 * change is local: the lines up to the first change are kept as they come, and the fewest edits left
 * from each point after it are found by Myers' search for the shortest edit script run from the last
 * lines back, in time (lines + edits) × edits. That search stops past DIFF_MAX_EDITS edits, or past
 * DIFF_WORK_PER_LINE steps a line (plus a fixed allowance): such a change is shown as the lines
 * between the common first and last ones removed, then those that replace them added. Time and
 * memory stay linear in the lines.
 */
export function diffRows(a: string[], b: string[]): DiffRow[] {
  const n = a.length;
  const m = b.length;
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m && a[i] === b[j]) (rows.push({ t: ' ', s: a[i++] }), j++);
  const left = editsLeft(a, b, i, DIFF_WORK_PER_LINE * (n + m) + 1_000_000);
  if (!left) {
    let s = 0;
    while (n - s > i && m - s > j && a[n - 1 - s] === b[m - 1 - s]) s++;
    for (; i < n - s; i++) rows.push({ t: '-', s: a[i] });
    for (; j < m - s; j++) rows.push({ t: '+', s: b[j] });
    for (; i < n; i++) rows.push({ t: ' ', s: a[i] });
    return rows;
  }
  // `e`: the fewest edits from (i, j) to the end; each `+` or `-` of the walk is one of them.
  let e = left.total;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) (rows.push({ t: ' ', s: a[i++] }), j++);
    else if (j < m && (i >= n || left.within(i, j + 1, e - 1))) (rows.push({ t: '+', s: b[j++] }), e--);
    else (rows.push({ t: '-', s: a[i++] }), e--);
  }
  return rows;
}

/**
 * The fewest edits (lines removed or added) that turn `a[i..]` into `b[i..]` (`total`), and whether
 * at most `d` edits turn `a[x..]` into `b[y..]` (`within`), for any x, y from i on: Myers' search on
 * the lines read from the end, keeping for each number of edits d the furthest point reached on each
 * diagonal. The fewest edits left never grow along a diagonal towards the end, so (x, y) is within d
 * edits exactly when it lies at or past that point. Null when the search is over `work` steps or
 * DIFF_MAX_EDITS edits.
 */
function editsLeft(
  a: string[],
  b: string[],
  from: number,
  work: number,
): { total: number; within(x: number, y: number, d: number): boolean } | null {
  const n = a.length;
  const m = b.length;
  const N = n - from;
  const M = m - from;
  // Lines counted from the end: point (x, y) here is (n - x, m - y) in a and b.
  // v[off + k]: the furthest x reached on the diagonal x - y = k (-1: none yet).
  const off = Math.min(N + M, DIFF_MAX_EDITS) + 1;
  const v = new Int32Array(2 * off + 1).fill(-1);
  const trace: Int32Array[] = [];
  let steps = 0;
  for (let d = 0; d <= Math.min(N + M, DIFF_MAX_EDITS); d++) {
    for (let k = -d; k <= d; k += 2) {
      // The furthest point with d edits: one edit past the furthest with d - 1 (a line added, down from
      // diagonal k + 1, or removed, right from k - 1), staying inside both texts, or the one reached
      // with d - 2 edits (still in v); then on along equal lines.
      let x = v[off + k];
      if (d > 0) {
        const down = k + 1 <= d - 1 ? v[off + k + 1] : -1;
        const right = k - 1 >= 1 - d && v[off + k - 1] >= 0 ? v[off + k - 1] + 1 : -1;
        if (down >= 0 && down - k <= M) x = Math.max(x, down);
        if (right >= 0 && right <= N) x = Math.max(x, right);
      } else x = 0;
      if (x < 0) continue;
      let y = x - k;
      while (x < N && y < M && a[n - 1 - x] === b[m - 1 - y]) (x++, y++, steps++);
      if (steps > work) return null;
      v[off + k] = x;
      if (x >= N && y >= M) {
        trace.push(v.slice(off - d, off + d + 1));
        return {
          total: d,
          within(px: number, py: number, dd: number): boolean {
            const cx = n - px;
            const ck = cx - (m - py);
            if (dd < 0 || Math.abs(ck) > dd) return false;
            return cx <= trace[dd][ck + dd];
          },
        };
      }
    }
    trace.push(v.slice(off - d, off + d + 1));
    steps += d + 1;
  }
  return null;
}
