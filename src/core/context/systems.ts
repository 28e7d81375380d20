/**
 * The threshold profile of the systems present in a workspace. The system readers (Markdown and
 * YAML) load only here, and only when one of the systems' home files is present: a workspace
 * without any costs a few `stat`s, which keeps `session-ledger context` as fast as Node starts.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { SystemModule } from '../system';
import { thresholdProfile, type ThresholdProfile } from './thresholds';

/**
 * Every system's `watchGlobs` (the home files it is detected by), so that presence can be checked
 * without loading the readers. A test keeps this list a superset of `SYSTEMS[*].watchGlobs`.
 */
export const PRESENCE_GLOBS: readonly string[] = [
  // S0
  '.agents.yml',
  '.agents/session_ledger.md',
  'CONTINUITY.md',
  '.claude/memory/session_ledger.md',
  '.claude/session_ledger.md',
  // S1
  'memory/session-handoff-LATEST.md',
  '.claude/memory/session-handoff-LATEST.md',
  'memory/session-handoff*.md',
  '.claude/memory/session-handoff*.md',
  'MEMORY.md',
  'memory/MEMORY.md',
  'memory/.session-handoff.sha256',
  'tasks/lessons.md',
  'memory/tasks/lessons.md',
  'context-log.md',
  'memory/context-log.md',
  // S2
  '.claude/session-ledger*.md',
  'context-manifest.yaml',
  '.claude/project-state.md',
  // S3
  'docs/state/STATE.md',
  // S4
  '.agents/STATE.md',
  '.agents/checkpoints/*.md',
  'PROGRESS.md',
];

function globRe(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
}

/** True when something matches one of `globs` under `root` (wildcards only in the last segment). */
export async function anyPresent(root: string, globs: readonly string[] = PRESENCE_GLOBS): Promise<boolean> {
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

/** The system modules whose documents are present under `root` (each module's own `load`). Never throws. */
export async function detectSystems(root: string): Promise<SystemModule[]> {
  try {
    if (!(await anyPresent(root))) return [];
    const [{ SYSTEMS }, { Workspace }] = await Promise.all([import('../formats'), import('../workspace')]);
    const ws = new Workspace(root, { noGit: true });
    const found = await Promise.all(SYSTEMS.map((m) => m.load(ws).then((l) => (l ? m : null)).catch(() => null)));
    return found.filter((m): m is SystemModule => m !== null);
  } catch {
    return [];
  }
}

/** The profile of the systems detected under `root`, with `override` applied. */
export async function detectedThresholds(root: string, override?: Partial<ThresholdProfile>): Promise<ThresholdProfile> {
  return thresholdProfile(await detectSystems(root), override);
}
