/**
 * What of Claude Code's own settings keeps it from running the project's hooks (the PreCompact guard,
 * the SessionStart resume hook, the reminder) or from showing the project's status line (the relay),
 * however they are installed. Read-only; never throws.
 *
 * Claude Code layers its settings files, each over the one before: the user's (`settings.json` in
 * `$CLAUDE_CONFIG_DIR` or `~/.claude`), the project's `.claude/settings.json`, its
 * `.claude/settings.local.json`, then the managed settings (`managed-settings.json` in the machine's
 * managed folder, then each `managed-settings.d/*.json` in name order). Of these, as the client does:
 * - `disableAllHooks` set to `true` (the boolean; a string is not taken) in the file that sets it last
 *   stops every hook of the other files and every status line command but a managed one (a `false`
 *   set later lets them run again);
 * - `allowManagedHooksOnly: true` in the managed settings runs only the managed settings' hooks and
 *   status line;
 * - a `statusLine` in the managed settings is shown over the project's.
 * A file Claude Code does not take (not strict JSON: a comment or a trailing comma makes it skip the
 * whole file; not an object; unreadable; a folder) says nothing here either, and the guard it holds
 * never runs: when no file Claude Code takes holds the guard and one it skips does (`holdsGuard`), that
 * file stops it (`notJson`).
 */
import * as path from 'node:path';
import { claudeHome } from '../context/discovery';
import { listDir, readTextFile } from '../files/fsread';
import { t, type Msg } from '../model/messages';
import { SETTINGS_LOCAL_REL, SETTINGS_REL } from './files';

/** The setting that stops our hooks or the relay. */
export type ClaudeStopSetting = 'disableAllHooks' | 'allowManagedHooksOnly' | 'statusLine' | 'notJson';

/** A settings file of Claude Code's and the setting in it that stops our hooks or the relay. */
export interface ClaudeStop {
  /** The file as shown: relative to the project, the user's under `~`, a managed one as its full path. */
  file: string;
  setting: ClaudeStopSetting;
  /** The file is one of the managed settings, which only whoever manages the machine changes. */
  managed: boolean;
}

export interface ClaudeStops {
  /** What keeps Claude Code from running the project's hooks (and the user's), or null: they run. */
  hooks: ClaudeStop | null;
  /** What keeps Claude Code from showing the project's status line (the relay), or null. */
  relay: ClaudeStop | null;
}

/**
 * The folder of the managed settings for tests only: Claude Code itself reads the platform's folder
 * (`managedSettingsDir`), which only an administrator writes.
 */
const MANAGED_DIR_ENV = 'SESSION_LEDGER_CLAUDE_MANAGED_DIR';

/** Where Claude Code reads the managed settings on `platform`. */
export function managedSettingsDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const own = env[MANAGED_DIR_ENV];
  if (own) return path.resolve(own);
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

/** The user's own settings file in Claude Code's config folder, as shown: under `~` when it is inside HOME. */
export function shownUserFile(file: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME ? path.resolve(env.HOME) : '';
  return home && file.startsWith(home + path.sep) ? `~/${path.relative(home, file)}` : file;
}

/** A settings file Claude Code takes (strict JSON holding an object) and what it holds. */
interface Layer {
  file: string;
  managed: boolean;
  value: Record<string, unknown>;
}

/**
 * Whether Claude Code runs the project's hooks in `root` and shows its status line, by its settings
 * files (the user's folder: `claudeHome`, else `$CLAUDE_CONFIG_DIR` or `~/.claude` of `env`).
 */
export async function claudeStops(
  root: string,
  opts: {
    env?: NodeJS.ProcessEnv;
    claudeHome?: string;
    /** Whether a settings text calls the PreCompact guard (read as JSON with comments, as the installer does). */
    holdsGuard?: (text: string) => boolean;
    /** A settings file as a write is about to leave it (`hooks install`'s plan): its text instead of the disk's. */
    planned?: { file: string; text: string };
  } = {},
): Promise<ClaudeStops> {
  const env = opts.env ?? process.env;
  // The layers, lowest first; a file over 4 MiB is not read (the installer refuses it too).
  const ls: Layer[] = [];
  /** Whether a file Claude Code takes calls the guard; the first file it skips that does. */
  let guardTaken = false;
  let guardSkipped: string | null = null;
  const read = async (at: string, file: string, managed = false) => {
    const planned = opts.planned && path.resolve(opts.planned.file) === path.resolve(at) ? opts.planned.text : null;
    const f = planned === null ? await readTextFile(at, 4 * 1024 * 1024, { refuseLarger: true }) : null;
    const text = planned ?? (f?.ok ? f.text : null);
    if (text === null) return;
    const guard = !managed && opts.holdsGuard?.(text) === true;
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        ls.push({ file, managed, value: value as Record<string, unknown> });
        guardTaken ||= guard;
        return;
      }
    } catch {
      /* not JSON: Claude Code skips the file */
    }
    if (guard) guardSkipped ??= file;
  };
  const user = path.join(claudeHome({ claudeHome: opts.claudeHome, env }), 'settings.json');
  await read(user, shownUserFile(user, env));
  for (const rel of [SETTINGS_REL, SETTINGS_LOCAL_REL]) await read(path.join(path.resolve(root), rel), rel);
  const dir = managedSettingsDir(env);
  const dropIns = path.join(dir, 'managed-settings.d');
  const names = (await listDir(dropIns)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  for (const f of [path.join(dir, 'managed-settings.json'), ...names.map((n) => path.join(dropIns, n))])
    await read(f, f, true);
  /** The last layer (of the managed ones: `managed`) that sets `key`. */
  const last = (key: string, managed = false) =>
    [...ls].reverse().find((l) => key in l.value && (l.managed || !managed));
  const stop = (l: Layer | undefined, setting: ClaudeStopSetting, on = l?.value[setting] === true) =>
    l && on ? { file: l.file, setting, managed: l.managed } : null;
  const off = stop(last('disableAllHooks'), 'disableAllHooks');
  // A managed switch first: the user's own files cannot lift it.
  // The guard only in files Claude Code skips.
  const skipped: ClaudeStop | null =
    guardSkipped !== null && !guardTaken ? { file: guardSkipped, setting: 'notJson', managed: false } : null;
  const hooks =
    (off?.managed ? off : null) ?? stop(last('allowManagedHooksOnly', true), 'allowManagedHooksOnly') ?? off ?? skipped;
  return { hooks, relay: hooks ?? stop(last('statusLine', true), 'statusLine', true) };
}

/** Why /compact is not guarded although the guard is installed: the file and setting of `s` (`claudeStops().hooks`). */
export function hooksStoppedSaid(s: ClaudeStop): Msg {
  if (s.setting === 'notJson')
    return t(
      '/compact is not guarded: Claude Code skips {0}, which holds the guard, because it is not strict JSON (a comment or a trailing comma makes it skip the whole file); remove them to let the guard run.',
      s.file,
    );
  return s.managed
    ? t(
        "/compact is not guarded: {1} is true in {0}, the managed settings, so Claude Code runs none of the project's hooks; only whoever manages this machine can lift it.",
        s.file,
        s.setting,
      )
    : t(
        '/compact is not guarded: disableAllHooks is true in {0}, so Claude Code runs no hooks; remove it to let the guard run.',
        s.file,
      );
}

/**
 * Why the relay does not run although it is installed, when the hooks do run (else `hooksStoppedSaid`
 * says it): the managed settings' status line of `s` is shown over it.
 */
export function relayStoppedSaid(s: ClaudeStop): Msg {
  return t(
    "statusLine: the relay does not run: {0}, the managed settings, sets a status line, which Claude Code shows instead, so Claude Code's own context figure is not recorded for the meter.",
    s.file,
  );
}
