/**
 * Every system's every rule, for the PreCompact guard: the guard itself runs only the check it needs
 * on every /compact (is a state file an empty skeleton?), and asks for the whole evaluation only when
 * a state file changed after the checkpoint (is it still whole?). The entry points register how to
 * load it: the CLI's core holds it, and the hook script's hooks part takes it from the core part of
 * the same file, compiled only then. No imports of the rules here: the hooks' part loads this module.
 */
import type { SystemId, WorkspaceReport } from '../model/model';
import type { SystemModule } from '../model/system';

/** Every rule of the systems `ids` in `root` at `now`, without git (the hooks start no git process). */
export type FullEvaluate = (root: string, now: number, ids: readonly SystemId[]) => Promise<WorkspaceReport>;

/**
 * The whole evaluation from a layer's own `evaluate` and system list (the core's modules, or the ones
 * the hook script's core part holds): only the systems asked for, every rule, no git.
 */
export function fullEvaluateOf(
  evaluate: (
    root: string,
    options: { now: number; noGit: boolean },
    systems: readonly SystemModule[],
  ) => Promise<WorkspaceReport>,
  systems: readonly SystemModule[],
): FullEvaluate {
  return (root, now, ids) =>
    evaluate(
      root,
      { now, noGit: true },
      systems.filter((m) => ids.includes(m.id)),
    );
}

let registered: (() => Promise<FullEvaluate>) | undefined;

/** Register how to load the whole evaluation (undefined: none, as in a process no entry point set up). */
export function useFullEvaluate(load: (() => Promise<FullEvaluate>) | undefined): void {
  registered = load;
}

/** The registered whole evaluation, loaded; null when none is registered (a caller that passes its own report). */
export async function fullEvaluate(): Promise<FullEvaluate | null> {
  return registered ? registered() : null;
}
