/**
 * Starter files: the empty template of each system's home file, as its seed writes it (each in its
 * home, `<sN>/starter.ts`), for a workspace that has none yet. A starter never overwrites: a required file that exists refuses the
 * whole starter; an optional companion that exists is left alone. The templates are skeletons on
 * purpose (placeholders only), so the checks flag them until the agent fills them in.
 */
import * as path from 'node:path';
import { isInside, writeAtomic, WriteRefused } from '../files/atomic';
import { withWriteLock, writeRefusal } from '../files/lock';
import { lstatOrNullSync } from '../files/fsread';
import { homeOf } from './index';
import { SYSTEM_IDS, type SystemId } from '../model/model';
import type { Msg } from '../model/messages';

export interface StarterFile {
  /** Relative to the workspace root, `/`-separated. */
  path: string;
  content: string;
  /** A companion that is left alone when it exists (the starter goes on without it). */
  optional?: boolean;
}

export interface Starter {
  system: SystemId;
  /** What the picker shows: the system's name (`systemName`) and its home file. */
  title: string;
  /** One line: what the system is, and which files the starter writes (the extension says it in the user's language). */
  description: Msg;
  files: StarterFile[];
  /** The file to open after writing (the home file). */
  home: string;
  /** Where the system's reader looks for the home file under `root`, when its configuration can move it (S0's `ledger_path`). */
  homeIn?: (root: string) => Promise<string>;
}

export const STARTER_SYSTEMS: readonly SystemId[] = SYSTEM_IDS;

export function starterFor(system: SystemId): Starter {
  return homeOf(system).starter;
}

export interface StarterPlan {
  starter: Starter;
  /** Files that will be written. */
  write: StarterFile[];
  /** Optional companions that exist and are left alone. */
  keep: StarterFile[];
  /** Required files that exist: the starter refuses. */
  conflicts: string[];
  /** The home file, where the system's reader looks for it (a configured path inside the root). */
  home: string;
  /** The configuration puts the home file outside the root: nothing is written. */
  refused?: WriteRefused;
}

/** What a starter would write under `root`, without writing. */
export async function planStarter(root: string, system: SystemId): Promise<StarterPlan> {
  const starter = starterFor(system);
  const home = starter.homeIn ? await starter.homeIn(root) : starter.home;
  const plan: StarterPlan = { starter, write: [], keep: [], conflicts: [], home };
  // A path from the configuration stays inside the root: one that leads out is refused, never written.
  if (!isInside(path.resolve(root, home), path.resolve(root)))
    plan.refused = new WriteRefused(
      `${home}, the configured path, is outside the workspace folder: nothing was written.`,
      'outside',
      home,
    );
  for (const f of starter.files.map((x) => (x.path === starter.home ? { ...x, path: home } : x))) {
    // Anything at the path counts, a link too (even one to nothing): a starter only ever creates a file.
    const exists = lstatOrNullSync(path.join(root, ...f.path.split('/'))) !== null;
    if (!exists) plan.write.push(f);
    else if (f.optional) plan.keep.push(f);
    else plan.conflicts.push(f.path);
  }
  return plan;
}

/**
 * What writing the plan would refuse before it writes anything, as the write refuses it (a link at a
 * file's write lock; a link on a file's way out of the workspace or into git's own files), or null:
 * what a dry run says.
 */
export async function starterRefusal(root: string, plan: StarterPlan): Promise<WriteRefused | null> {
  for (const f of plan.write) {
    const why = await writeRefusal(path.join(root, ...f.path.split('/')), root);
    if (why) return why;
  }
  return null;
}

/**
 * Write a system's starter under `root`. Refuses (WriteRefused 'exists', nothing written) when a
 * required file exists; each file is created only if it still does not exist at the rename, under
 * the file's write lock (a second run waits for the first, then refuses).
 */
export async function writeStarter(root: string, system: SystemId): Promise<{ written: string[]; kept: string[] }> {
  const plan = await planStarter(root, system);
  if (plan.refused) throw plan.refused;
  if (plan.conflicts.length) {
    throw new WriteRefused(
      `${plan.conflicts.join(', ')} already exists; the starter never overwrites.`,
      'exists',
      plan.conflicts.join(', '),
    );
  }
  const written: string[] = [];
  // Required files first, so a refusal (a race) leaves no orphan companion behind.
  const order = [...plan.write.filter((f) => !f.optional), ...plan.write.filter((f) => f.optional)];
  for (const f of order) {
    try {
      // Under the file's write lock, as every write action: a second init waits, then finds it there.
      const file = path.join(root, ...f.path.split('/'));
      await withWriteLock(file, root, async () => {
        // A link planted since the plan is something there too: the starter never writes through it.
        if (lstatOrNullSync(file))
          throw new WriteRefused(`${f.path} already exists; nothing was overwritten. Run it again.`, 'exists', f.path);
        await writeAtomic(file, f.content, { expectHash: null, root });
      });
      written.push(f.path);
    } catch (err) {
      if (f.optional && err instanceof WriteRefused && err.reason === 'exists') {
        plan.keep.push(f);
        continue;
      }
      throw err;
    }
  }
  return { written, kept: plan.keep.map((f) => f.path) };
}
