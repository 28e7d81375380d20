/**
 * What the walkthrough's steps wait for in a workspace folder, read from disk (vscode-free):
 * the guard hooks are installed when `.claude/settings.json`, `.claude/settings.local.json` or Codex
 * CLI's `.codex/hooks.json` calls the Session Ledger PreCompact guard; a checkpoint was made when a checkpoint marker
 * (`.claude/.checkpoint-ready`, with or without a session id) is there. Never throws: a missing,
 * unreadable or malformed file counts as "not yet".
 */
import * as path from 'node:path';
import { readTextFile } from '../../core/files/fsread';
import {
  CODEX_HOOKS_REL,
  SETTINGS_LOCAL_REL,
  SETTINGS_REL,
  hooksInstalledIn,
  runsRelay,
} from '../../core/hooks/install';
import { listMarkers, markerAt } from '../../core/checkpoint/marker';

export interface WalkthroughFacts {
  hooksInstalled: boolean;
  hasCheckpoint: boolean;
}

/** Settings files over this size are not ours to judge here (the installer refuses them too). */
const SETTINGS_MAX_BYTES = 1024 * 1024;

export async function walkthroughFacts(root: string): Promise<WalkthroughFacts> {
  const [hooksInstalled, hasCheckpoint] = await Promise.all([guardInstalled(root), markerPresent(root)]);
  return { hooksInstalled, hasCheckpoint };
}

async function guardInstalled(root: string): Promise<boolean> {
  const texts = await settingsTexts(
    [SETTINGS_REL, SETTINGS_LOCAL_REL, CODEX_HOOKS_REL].map((rel) => inRoot(root, rel)),
  );
  return texts.some((t) => askJson(() => hooksInstalledIn(t).PreCompact) === true);
}

/**
 * Whether the Session Ledger PreCompact guard is installed for Claude Code in `root`: the folder's shared
 * or local settings, or the user's own (`settings.json` in Claude Code's config folder, `claudeDir`),
 * call it. Whether Claude Code runs it is core `claudeStops`.
 */
export async function claudeGuardInstalled(root: string, claudeDir: string): Promise<boolean> {
  const texts = await settingsTexts([
    inRoot(root, SETTINGS_LOCAL_REL),
    inRoot(root, SETTINGS_REL),
    path.join(claudeDir, 'settings.json'),
  ]);
  return texts.some((t) => askJson(() => hooksInstalledIn(t).PreCompact) === true);
}

/**
 * Whether Codex CLI runs the Session Ledger PreCompact guard in `root`: the project's `.codex/hooks.json`
 * (where `hooks install --codex` writes it) or the user's own (`hooks.json` in Codex's home, `codexDir`)
 * calls it.
 */
export async function codexGuardInstalled(root: string, codexDir: string): Promise<boolean> {
  const texts = await settingsTexts([inRoot(root, CODEX_HOOKS_REL), path.join(codexDir, 'hooks.json')]);
  return texts.some((t) => askJson(() => hooksInstalledIn(t).PreCompact) === true);
}

/** Whether the folder's shared or local settings run the status line relay. */
export async function relayInstalled(root: string): Promise<boolean> {
  const texts = await settingsTexts([SETTINGS_REL, SETTINGS_LOCAL_REL].map((rel) => inRoot(root, rel)));
  return texts.some((t) => askJson(() => runsRelay(t)) === true);
}

/** Whether the session's own client has the Session Ledger PreCompact guard installed in `root` (its config folder: `home`). */
export function guardInstalledFor(agent: 'claude' | 'codex', root: string, home: string): Promise<boolean> {
  return agent === 'codex' ? codexGuardInstalled(root, home) : claudeGuardInstalled(root, home);
}

/**
 * The PreCompact hook's input for a manual /compact of a session as its client sends it (Codex CLI
 * sends its thread id as the session id and its rollout file as the transcript): what the status bar
 * gives the guard to learn what it would decide now.
 */
export function manualCompactInput(ref: { sessionId: string; path: string }, root: string): string {
  return JSON.stringify({
    session_id: ref.sessionId,
    transcript_path: ref.path,
    cwd: root,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
  });
}

function inRoot(root: string, rel: string): string {
  return path.join(root, ...rel.split('/'));
}

/** The text of each settings file that can be read (a missing, unreadable or too large one is left out), in order. */
async function settingsTexts(files: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    const f = await readTextFile(file, SETTINGS_MAX_BYTES, { refuseLarger: true });
    if (f.ok) out.push(f.text);
  }
  return out;
}

/** A question about a settings text, or undefined when the text is no JSON: no hooks of ours, no setting. */
function askJson<T>(ask: () => T): T | undefined {
  try {
    return ask();
  } catch {
    return undefined;
  }
}

async function markerPresent(root: string): Promise<boolean> {
  // A marker a checkpoint could have written (`markerAt`): not a link, a folder, a hard-linked file or one through a linked `.claude`.
  const now = Date.now();
  for (const rel of await listMarkers(root)) {
    if (rel.endsWith('.tmp')) continue;
    if ((await markerAt(root, rel, now)).marker) return true;
  }
  return false;
}
