/**
 * What the walkthrough's steps wait for in a workspace folder, read from disk (vscode-free):
 * the guard hooks are installed when `.claude/settings.json`, `.claude/settings.local.json` or Codex
 * CLI's `.codex/hooks.json` calls the Session Ledger PreCompact guard; a checkpoint was made when a checkpoint marker
 * (`.claude/.checkpoint-ready`, with or without a session id) is there. Never throws: a missing,
 * unreadable or malformed file counts as "not yet".
 */
import { CODEX_HOOKS_REL, SETTINGS_LOCAL_REL, SETTINGS_REL, runsRelay } from '../../core/hooks/install';
import { manualCompactInput as compactInput } from '../../core/hooks/guard-state';
import { anyHoldsGuard, askJson, inRoot, settingsTexts } from '../../core/hooks/installed';
import { listMarkers, markerAt } from '../../core/checkpoint/marker';

export interface WalkthroughFacts {
  hooksInstalled: boolean;
  hasCheckpoint: boolean;
}

export async function walkthroughFacts(root: string): Promise<WalkthroughFacts> {
  const [hooksInstalled, hasCheckpoint] = await Promise.all([guardInstalled(root), markerPresent(root)]);
  return { hooksInstalled, hasCheckpoint };
}

function guardInstalled(root: string): Promise<boolean> {
  return anyHoldsGuard([SETTINGS_REL, SETTINGS_LOCAL_REL, CODEX_HOOKS_REL].map((rel) => inRoot(root, rel)));
}

// Whether each client runs the guard is the core's (core `installed`): the status item asks it there.
export { claudeGuardInstalled, codexGuardInstalled, guardInstalledFor } from '../../core/hooks/installed';

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
  return compactInput({ sessionId: ref.sessionId, transcript: ref.path }, root);
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
