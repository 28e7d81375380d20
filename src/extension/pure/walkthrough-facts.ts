/**
 * What the walkthrough's steps wait for in a workspace folder, read from disk (vscode-free):
 * the guard hooks are installed when `.claude/settings.json`, `.claude/settings.local.json` or Codex
 * CLI's `.codex/hooks.json` calls the Session Ledger PreCompact guard; a checkpoint was made when a checkpoint marker
 * (`.claude/.checkpoint-ready`, with or without a session id) is there. Never throws: a missing,
 * unreadable or malformed file counts as "not yet".
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readTextFile } from '../../core/files/fsread';
import {
  CODEX_HOOKS_REL,
  SETTINGS_LOCAL_REL,
  SETTINGS_REL,
  hooksDisabledIn,
  hooksInstalledIn,
} from '../../core/hooks/install';
import { MARKER_DIR, SHARED_MARKER_REL } from '../../core/checkpoint/marker';

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
  return guardIn([SETTINGS_REL, SETTINGS_LOCAL_REL, CODEX_HOOKS_REL].map((rel) => path.join(root, ...rel.split('/'))));
}

/**
 * Whether Claude Code runs the Session Ledger PreCompact guard in `root`: the folder's shared or local
 * settings, or the user's own (`settings.json` in Claude Code's config folder, `claudeDir`), call it,
 * and `disableAllHooks` is not true where it is set last (local, then shared, then the user's).
 */
export async function claudeGuardInstalled(root: string, claudeDir: string): Promise<boolean> {
  const files = [
    ...[SETTINGS_LOCAL_REL, SETTINGS_REL].map((rel) => path.join(root, ...rel.split('/'))),
    path.join(claudeDir, 'settings.json'),
  ];
  for (const file of files) {
    const f = await readTextFile(file, SETTINGS_MAX_BYTES, { refuseLarger: true });
    let off: boolean | undefined;
    try {
      off = f.ok ? hooksDisabledIn(f.text) : undefined;
    } catch {
      off = undefined;
    }
    if (off !== undefined) {
      if (off) return false;
      break;
    }
  }
  return guardIn(files);
}

/** Whether any of these settings files calls the Session Ledger PreCompact guard. */
async function guardIn(files: string[]): Promise<boolean> {
  for (const file of files) {
    const f = await readTextFile(file, SETTINGS_MAX_BYTES, { refuseLarger: true });
    if (!f.ok) continue;
    try {
      if (hooksInstalledIn(f.text).PreCompact) return true;
    } catch {
      // not JSON: no hooks of ours
    }
  }
  return false;
}

async function markerPresent(root: string): Promise<boolean> {
  const prefix = SHARED_MARKER_REL.slice(MARKER_DIR.length + 1);
  try {
    const names = await fs.readdir(path.join(root, MARKER_DIR));
    return names.some((n) => n === prefix || (n.startsWith(`${prefix}.`) && !n.endsWith('.tmp')));
  } catch {
    return false;
  }
}
