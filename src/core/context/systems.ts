/**
 * The threshold profile of the systems present in a workspace. Presence is file existence against
 * each system's presence globs in the facts table: a handful of directory listings, never a parse
 * of a state file, so the status line and `session-ledger context` cost the same whatever the size
 * of the state files, and load neither the Markdown nor the YAML reader.
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ALL_FACTS, companionPath, FACTS, globRe, presenceGlobs } from '../systems/facts';
import { CONFIG_MAX_BYTES, readTextFile } from '../files/fsread';
import type { SystemId } from '../model/model';
import { thresholdProfile, type ThresholdProfile, type ThresholdSettings } from './thresholds';
import { agentsYmlLight } from './agents-yml-light';
import { fullConfigReader } from './full-reader';

/** A matcher of presence globs under one root: each folder a glob names is listed once (synchronously, as the readers' file calls are). */
function presenceMatcher(root: string): (glob: string) => Promise<boolean> {
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
  return async (g) => {
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
  const match = presenceMatcher(root);
  return (await Promise.all(globs.map(match))).some(Boolean);
}

/** The ids of the systems one of whose presence globs matches under `root`, in id order. Never throws. */
export async function detectSystems(root: string): Promise<SystemId[]> {
  try {
    const match = presenceMatcher(root);
    const present = await Promise.all(
      ALL_FACTS.map(async (f) => ((await Promise.all(f.presence.map(match))).some(Boolean) ? f.id : null)),
    );
    return present.filter((id): id is SystemId => id !== null);
  } catch {
    return [];
  }
}

/** The profile of the systems present under `root`, with the settings applied. */
export async function detectedThresholds(root: string, settings?: ThresholdSettings): Promise<ThresholdProfile> {
  return thresholdProfile(await detectSystems(root), settings);
}

/**
 * S0 is on for the meter's advice: present, and not switched off by `.agents.yml` (switched on with
 * `session.ledger: true`, or a config that cannot be read, which the reader checks as S0 with a
 * blocking finding); without an `.agents.yml`, a ledger at one of S0's places counts as on (the
 * reader checks it as S0). A config the light reader is unsure of goes to the YAML reader
 * (./full-reader); without one registered this throws NeedsFullReader, and nothing else.
 */
export async function s0On(root: string, present?: readonly SystemId[]): Promise<boolean> {
  const ids = present ?? (await detectSystems(root));
  if (!ids.includes('S0')) return false;
  const f = await readTextFile(path.join(root, companionPath('S0', 'config')), CONFIG_MAX_BYTES, {
    refuseLarger: true,
  });
  // Missing: the ledger is checked as S0; unreadable (binary, too large, no permission): S0 is checked with a blocking finding.
  if (!f.ok) return true;
  const light = agentsYmlLight(f.text);
  if (light !== 'unsure') return light === 'on';
  return (await fullConfigReader(companionPath('S0', 'config')))(f.text) !== 'off';
}

/**
 * The systems of `ids` that are switched on: a system that cannot be switched off (no `switchedOff`
 * line in the facts) is on whenever present; S0 as `s0On` says (`present`: the systems detected).
 * Throws only NeedsFullReader, as s0On.
 */
export async function switchedOn(
  root: string,
  ids: readonly SystemId[],
  present: readonly SystemId[] = ids,
): Promise<SystemId[]> {
  if (!ids.includes('S0') || (await s0On(root, present))) return [...ids];
  return ids.filter((id) => FACTS[id].switchedOff === null);
}
