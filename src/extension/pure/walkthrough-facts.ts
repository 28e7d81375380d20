/**
 * What the walkthrough's steps wait for in a workspace folder, read from disk (vscode-free):
 * the guard hooks are installed when `.claude/settings.json`, `.claude/settings.local.json` or Codex
 * CLI's `.codex/hooks.json` calls the Session Ledger PreCompact guard; a checkpoint was made when a checkpoint marker
 * (`.claude/.checkpoint-ready`, with or without a session id) is there. Never throws: a missing,
 * unreadable or malformed file counts as "not yet".
 */
import * as path from 'node:path';
import { askJson, settingsTexts } from '../../core/hooks/guard-runs';
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

export { claudeGuardInstalled, codexGuardInstalled, guardInstalledFor } from '../../core/hooks/guard-runs';

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

/** Whether the folder's shared or local settings run the status line relay. */
export async function relayInstalled(root: string): Promise<boolean> {
  const texts = await settingsTexts([SETTINGS_REL, SETTINGS_LOCAL_REL].map((rel) => inRoot(root, rel)));
  return texts.some((t) => askJson(() => runsRelay(t)) === true);
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

async function markerPresent(root: string): Promise<boolean> {
  // A marker a checkpoint could have written (`markerAt`): not a link, a folder, a hard-linked file or one through a linked `.claude`.
  const now = Date.now();
  for (const rel of await listMarkers(root)) {
    if (rel.endsWith('.tmp')) continue;
    if ((await markerAt(root, rel, now)).marker) return true;
  }
  return false;
}
