/**
 * The threshold profile of the systems present in a workspace. Presence is file existence against
 * each system's presence globs in the facts table: a handful of directory listings, never a parse
 * of a state file, so the status line and `session-ledger context` cost the same whatever the size
 * of the state files, and load neither the Markdown nor the YAML reader.
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { globRe, HOT_FACTS, presenceGlobs } from '../systems/facts';
import { SYSTEM_IDS, type SystemId } from '../model/model';
import { SWITCHES } from '../systems/switches';
import { thresholdProfile, type ThresholdProfile, type ThresholdSettings } from './thresholds';

/** A matcher of presence globs under one root: each folder a glob names is listed once (synchronously, as the readers' file calls are). */
function presenceMatcher(root: string): (glob: string) => boolean {
  const lists = new Map<string, Set<string>>();
  const list = (dir: string): Set<string> => {
    let names = lists.get(dir);
    if (!names) {
      try {
        names = new Set(readdirSync(path.join(root, dir)));
      } catch {
        names = new Set<string>();
      }
      lists.set(dir, names);
    }
    return names;
  };
  return (g) => {
    const dir = path.posix.dirname(g);
    const base = path.posix.basename(g);
    const names = list(dir === '.' ? '' : dir);
    if (!/[*?]/.test(base)) return names.has(base);
    const re = globRe(base);
    for (const n of names) if (re.test(n)) return true;
    return false;
  };
}

/** True when something matches one of `globs` under `root` (wildcards only in the last segment). */
export async function anyPresent(root: string, globs: readonly string[] = presenceGlobs()): Promise<boolean> {
  return globs.some(presenceMatcher(root));
}

/** The ids of the systems one of whose presence globs matches under `root`, in id order. Never throws. */
export async function detectSystems(root: string): Promise<SystemId[]> {
  try {
    const match = presenceMatcher(root);
    return SYSTEM_IDS.filter((id) => HOT_FACTS[id].presence.some(match));
  } catch {
    return [];
  }
}

/** The profile of the systems present under `root`, with the settings applied. */
export async function detectedThresholds(root: string, settings?: ThresholdSettings): Promise<ThresholdProfile> {
  return thresholdProfile(await detectSystems(root), settings);
}

/**
 * The systems of `ids` that are switched on: a system its own configuration cannot switch off is on
 * whenever present; one that can is asked its switch (S0: `session.ledger: true` in `.agents.yml`).
 * Throws only NeedsFullReader (a config only the YAML reader can answer for).
 */
export async function switchedOn(root: string, ids: readonly SystemId[]): Promise<SystemId[]> {
  const out: SystemId[] = [];
  for (const id of ids) {
    const on = SWITCHES[id];
    if (!on || (await on(root))) out.push(id);
  }
  return out;
}
