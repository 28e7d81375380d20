/**
 * The threshold profile of the systems present in a workspace. The system readers (Markdown and
 * YAML) load only here, on demand, so the meter itself stays light.
 */
import type { SystemModule } from '../system';
import { thresholdProfile, type ThresholdProfile } from './thresholds';

/** The system modules whose documents are present under `root` (each module's own `load`). Never throws. */
export async function detectSystems(root: string): Promise<SystemModule[]> {
  try {
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
