/**
 * The threshold profile of the systems present in a workspace. Presence is file existence against
 * each system's presence globs in the facts table: a handful of directory listings, never a parse
 * of a state file, so the status line and `session-ledger context` cost the same whatever the size
 * of the state files, and load neither the Markdown nor the YAML reader.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ALL_FACTS, presenceGlobs } from '../facts';
import type { SystemId } from '../model';
import { thresholdProfile, type ThresholdProfile, type ThresholdSettings } from './thresholds';

function globRe(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
}

/** A matcher of presence globs under one root: each folder a glob names is listed once. */
function presenceMatcher(root: string): (glob: string) => Promise<boolean> {
  const lists = new Map<string, Promise<Set<string>>>();
  const list = (dir: string) => {
    let p = lists.get(dir);
    if (!p) {
      p = fs.readdir(path.join(root, dir)).then((names) => new Set(names), () => new Set<string>());
      lists.set(dir, p);
    }
    return p;
  };
  return async (g) => {
    const dir = path.posix.dirname(g);
    const base = path.posix.basename(g);
    const names = await list(dir === '.' ? '' : dir);
    if (!/[*?]/.test(base)) return names.has(base);
    const re = globRe(base);
    for (const n of names) if (re.test(n)) return true;
    return false;
  };
}

/** True when something matches one of `globs` under `root` (wildcards only in the last segment). */
export async function anyPresent(root: string, globs: readonly string[] = presenceGlobs()): Promise<boolean> {
  const match = presenceMatcher(root);
  return (await Promise.all(globs.map(match))).some(Boolean);
}

/** The ids of the systems one of whose presence globs matches under `root`, in id order. Never throws. */
export async function detectSystems(root: string): Promise<SystemId[]> {
  try {
    const match = presenceMatcher(root);
    const present = await Promise.all(ALL_FACTS.map(async (f) => ((await Promise.all(f.presence.map(match))).some(Boolean) ? f.id : null)));
    return present.filter((id): id is SystemId => id !== null);
  } catch {
    return [];
  }
}

/** The profile of the systems present under `root`, with the settings applied. */
export async function detectedThresholds(root: string, settings?: ThresholdSettings): Promise<ThresholdProfile> {
  return thresholdProfile(await detectSystems(root), settings);
}
