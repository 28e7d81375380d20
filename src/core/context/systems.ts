/**
 * The threshold profile of the systems present in a workspace. The system readers (Markdown and
 * YAML) load only here, and only when one of the systems' presence globs matches: a workspace
 * without any costs a few `stat`s, which keeps `session-ledger context` as fast as Node starts.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { presenceGlobs } from '../facts';
import type { SystemId } from '../model';
import { thresholdProfile, type ThresholdProfile, type ThresholdSettings } from './thresholds';

function globRe(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
}

/** True when something matches one of `globs` under `root` (wildcards only in the last segment). */
export async function anyPresent(root: string, globs: readonly string[] = presenceGlobs()): Promise<boolean> {
  const lists = new Map<string, Promise<string[]>>();
  const list = (dir: string) => {
    let p = lists.get(dir);
    if (!p) {
      p = fs.readdir(path.join(root, dir)).catch(() => [] as string[]);
      lists.set(dir, p);
    }
    return p;
  };
  const checks = globs.map(async (g) => {
    if (!/[*?]/.test(g)) return fs.stat(path.join(root, g)).then(() => true, () => false);
    const dir = path.posix.dirname(g);
    const re = globRe(path.posix.basename(g));
    return (await list(dir === '.' ? '' : dir)).some((n) => re.test(n));
  });
  return (await Promise.all(checks)).some(Boolean);
}

/** The ids of the systems whose documents are present under `root` (each reader's own `load`; no rules load). Never throws. */
export async function detectSystems(root: string): Promise<SystemId[]> {
  try {
    if (!(await anyPresent(root))) return [];
    const [{ READERS }, { Workspace }] = await Promise.all([import('../formats'), import('../workspace')]);
    const ws = new Workspace(root, { noGit: true });
    const found = await Promise.all(READERS.map((m) => m.load(ws).then((l) => (l ? m.id : null)).catch(() => null)));
    return found.filter((id): id is SystemId => id !== null);
  } catch {
    return [];
  }
}

/** The profile of the systems detected under `root`, with the settings applied. */
export async function detectedThresholds(root: string, settings?: ThresholdSettings): Promise<ThresholdProfile> {
  return thresholdProfile(await detectSystems(root), settings);
}
