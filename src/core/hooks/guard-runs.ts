/**
 * Whether a client runs the Session Ledger PreCompact guard in a folder: installed in a settings file it
 * reads (the folder's or the user's), and not kept from running by a setting of its own (Claude Code's
 * `disableAllHooks`, `allowManagedHooksOnly`: core `claudeStops`). Without it nothing stops /compact, with
 * or without a checkpoint's marker: what a checkpoint says of its marker rests on this. Never throws: a
 * missing, unreadable or malformed file counts as "not installed".
 */
import * as path from 'node:path';
import { readTextFile } from '../files/fsread';
import { claudeHome, codexHome } from '../context/discovery';
import { claudeStops } from './client-settings';
import { CODEX_HOOKS_REL, SETTINGS_LOCAL_REL, SETTINGS_REL, holdsGuard } from './install';

/** Settings files over this size are not ours to judge here (the installer refuses them too). */
const SETTINGS_MAX_BYTES = 1024 * 1024;

/**
 * Whether the Session Ledger PreCompact guard is installed for Claude Code in `root`: the folder's shared
 * or local settings, or the user's own (`settings.json` in Claude Code's config folder, `claudeDir`),
 * call it. Whether Claude Code runs it is `claudeStops`.
 */
export async function claudeGuardInstalled(root: string, claudeDir: string): Promise<boolean> {
  const texts = await settingsTexts([
    inRoot(root, SETTINGS_LOCAL_REL),
    inRoot(root, SETTINGS_REL),
    path.join(claudeDir, 'settings.json'),
  ]);
  return texts.some((t) => askJson(() => holdsGuard(t)) === true);
}

/**
 * Whether Codex CLI runs the Session Ledger PreCompact guard in `root`: the project's `.codex/hooks.json`
 * (where `hooks install --codex` writes it) or the user's own (`hooks.json` in Codex's home, `codexDir`)
 * calls it.
 */
export async function codexGuardInstalled(root: string, codexDir: string): Promise<boolean> {
  const texts = await settingsTexts([inRoot(root, CODEX_HOOKS_REL), path.join(codexDir, 'hooks.json')]);
  return texts.some((t) => askJson(() => holdsGuard(t)) === true);
}

/** Whether the session's own client has the Session Ledger PreCompact guard installed in `root` (its config folder: `home`). */
export function guardInstalledFor(agent: 'claude' | 'codex', root: string, home: string): Promise<boolean> {
  return agent === 'codex' ? codexGuardInstalled(root, home) : claudeGuardInstalled(root, home);
}

/**
 * Whether the guard stops a manual /compact in `root` for a session of `agent` (when it is not known,
 * either client's guard counts): installed there, and for Claude Code not kept from running by its settings.
 */
export async function guardRuns(
  root: string,
  opts: { agent?: 'claude' | 'codex'; env?: NodeJS.ProcessEnv; claudeHome?: string; codexHome?: string } = {},
): Promise<boolean> {
  const env = opts.env ?? process.env;
  const claudeDir = claudeHome({ env, claudeHome: opts.claudeHome });
  const runsFor = async (agent: 'claude' | 'codex'): Promise<boolean> => {
    if (agent === 'codex') return codexGuardInstalled(root, codexHome({ env, codexHome: opts.codexHome }));
    if (!(await claudeGuardInstalled(root, claudeDir))) return false;
    const stops = await claudeStops(root, { env, claudeHome: claudeDir, holdsGuard }).catch(() => null);
    return !stops?.hooks;
  };
  if (opts.agent) return runsFor(opts.agent);
  return (await runsFor('claude')) || (await runsFor('codex'));
}

function inRoot(root: string, rel: string): string {
  return path.join(root, ...rel.split('/'));
}

/** The text of each settings file that can be read (a missing, unreadable or too large one is left out), in order. */
export async function settingsTexts(files: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    const f = await readTextFile(file, SETTINGS_MAX_BYTES, { refuseLarger: true });
    if (f.ok) out.push(f.text);
  }
  return out;
}

/** A question about a settings text, or undefined when the text is no JSON: no hooks of ours, no setting. */
export function askJson<T>(ask: () => T): T | undefined {
  try {
    return ask();
  } catch {
    return undefined;
  }
}
