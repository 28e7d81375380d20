/**
 * Whether the Session Ledger hooks are installed: what a settings text calls (read as JSON with
 * comments, as the installer reads it), and, for a folder, whether each client's settings files call
 * the PreCompact guard. Read-only; never throws. The installer (./install) takes its reading of a
 * settings text from here, so "installed" means the same to every surface and to install itself.
 */
import * as path from 'node:path';
import { readTextFile } from '../files/fsread';
import { getNodeValue, parse } from './jsonc-edit';
import { CODEX_HOOK_SCRIPT_REL, CODEX_HOOKS_REL, SCRIPT_REL, SETTINGS_LOCAL_REL, SETTINGS_REL } from './files';

export type HookEvent = 'PreCompact' | 'SessionStart' | 'UserPromptSubmit';

/** The clients whose hooks Session Ledger installs. */
export type HookClient = 'claude' | 'codex';

export function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A hook entry of ours: a command that runs our script (Claude Code's or Codex's copy) with one of our hooks. */
export function isOurHook(h: unknown): boolean {
  return (
    isObj(h) &&
    typeof h.command === 'string' &&
    (h.command.includes(SCRIPT_REL) || h.command.includes(CODEX_HOOK_SCRIPT_REL)) &&
    / hook (pre-compact|session-start|remind)\b/.test(h.command)
  );
}

export function groupHasOurs(g: unknown): boolean {
  return isObj(g) && Array.isArray(g.hooks) && g.hooks.some(isOurHook);
}

/** A settings text's object, read as JSON with comments (what is no object reads as none). */
export function settingsValue(text: string): Record<string, unknown> {
  const { root } = parse(text);
  const v = root ? (getNodeValue(root) as unknown) : {};
  return isObj(v) ? v : {};
}

/** Does `text`'s settings call our hook of `event`? */
export function holdsHook(event: HookEvent): (text: string) => boolean {
  return (text) => hooksInstalledIn(text)[event];
}

/**
 * Does `text`'s settings call our PreCompact guard? (What `claudeStops` asks of each settings file.) A
 * function of its own, not `holdsHook`'s result: a call at the top of the module would keep the settings
 * parser in every part of the hook script that imports this one.
 */
export const holdsGuard = (text: string): boolean => hooksInstalledIn(text).PreCompact;

/** Does `text`'s settings call our hooks? (For views: "guard installed".) */
export function hooksInstalledIn(text: string): Record<HookEvent, boolean> {
  const hooks = settingsValue(text).hooks;
  const has = (e: HookEvent) => isObj(hooks) && Array.isArray(hooks[e]) && (hooks[e] as unknown[]).some(groupHasOurs);
  return {
    PreCompact: has('PreCompact'),
    SessionStart: has('SessionStart'),
    UserPromptSubmit: has('UserPromptSubmit'),
  };
}

/** Settings files over this size are not ours to judge here (the installer refuses them too). */
const SETTINGS_MAX_BYTES = 1024 * 1024;

/**
 * Whether the Session Ledger PreCompact guard is installed for Claude Code in `root`: the folder's shared
 * or local settings, or the user's own (`settings.json` in Claude Code's config folder, `claudeDir`),
 * call it. Whether Claude Code runs it is `claudeStops` (./client-settings).
 */
export function claudeGuardInstalled(
  root: string,
  claudeDir: string,
  event: HookEvent = 'PreCompact',
): Promise<boolean> {
  return anyHoldsGuard(
    [inRoot(root, SETTINGS_LOCAL_REL), inRoot(root, SETTINGS_REL), path.join(claudeDir, 'settings.json')],
    holdsHook(event),
  );
}

/**
 * Whether Codex CLI runs the Session Ledger PreCompact guard in `root`: the project's `.codex/hooks.json`
 * (where `hooks install --codex` writes it) or the user's own (`hooks.json` in Codex's home, `codexDir`)
 * calls it.
 */
export function codexGuardInstalled(root: string, codexDir: string, event: HookEvent = 'PreCompact'): Promise<boolean> {
  return anyHoldsGuard([inRoot(root, CODEX_HOOKS_REL), path.join(codexDir, 'hooks.json')], holdsHook(event));
}

/** Whether the session's own client has the Session Ledger PreCompact guard (or its hook of `event`) installed in `root` (its config folder: `home`). */
export function guardInstalledFor(
  agent: HookClient,
  root: string,
  home: string,
  event: HookEvent = 'PreCompact',
): Promise<boolean> {
  return agent === 'codex' ? codexGuardInstalled(root, home, event) : claudeGuardInstalled(root, home, event);
}

/** Whether one of `files` that can be read (a missing, unreadable, too large or not JSON one is left out) calls the guard (`holds`: another of our hooks). */
export async function anyHoldsGuard(files: readonly string[], holds = holdsGuard): Promise<boolean> {
  for (const t of await settingsTexts(files)) if (askJson(() => holds(t)) === true) return true;
  return false;
}

export function inRoot(root: string, rel: string): string {
  return path.join(root, ...rel.split('/'));
}

/** The text of each settings file that can be read (a missing, unreadable or too large one is left out), in order. */
export async function settingsTexts(files: readonly string[]): Promise<string[]> {
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
