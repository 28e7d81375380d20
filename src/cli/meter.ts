/**
 * The hook script's meter part (src/cli/hot.ts loads it from the comment after HOOK_METER_MARKER):
 * `context` and `hook remind` (it runs before every prompt). They load nothing else. Every other
 * command, help, and any usage error go to the whole CLI (the core, ./main), which the hook script
 * passes in as `core`.
 */
import * as path from 'node:path';
import { NeedsFullReader } from '../core/context/full-reader';
import { isDir } from '../core/files/fsread';
import { appendHookLog } from '../core/hooks/io';
import { readFilesBlocking } from '../core/context/files';
import { meterCommand, type MeterCommand } from './args';
import * as context from './commands/context';
import * as hookRemind from './commands/hook-remind';
import { cwdOrNull, internalError, terminalSafeIo, UsageError, type Io } from './io';
import type { CheckpointDone } from '../core/hooks/remind';

// The status line's part asks git's index through this part when a new session's record has older ones to prune.
export { gitTracksEach } from '../core/git/tracked';

/** What the reminder asks the PreCompact guard once a mark is crossed (the guard's own part, loaded then). */
export interface GuardDone {
  checkpointDone: CheckpointDone;
}

// The status line runs in the script's first part (./hot); the rare run that reaches this part (its
// help, a usage error) goes to the whole CLI, which also holds the guard it asks past a mark.
const HOT: Record<
  Exclude<MeterCommand, 'statusline'>,
  { run(args: string[], io: Io, checkpointDone: CheckpointDone): Promise<number> }
> = {
  context,
  // The reminder runs before every prompt: as hot as the status line.
  'hook remind': hookRemind,
};

/** The whole CLI, as the hook script's core part exports it. */
export interface Core {
  main(argv: string[], io?: Io): Promise<number>;
  __m: Record<string, unknown>;
}

/** The core, or why the hook script holds none (a build from source without one, or a damaged copy). */
export type CoreOrWhy = { core: Core } | { missing: string };

/**
 * `guard` gives the PreCompact guard the reminder asks once a mark is crossed (the hook script's own
 * part for it, else its core), or null: then no checkpoint keeps the reminder silent.
 */
export async function meterMain(
  argv: string[],
  io: Io,
  core: () => CoreOrWhy,
  guard: () => GuardDone | null = () => null,
): Promise<number> {
  readFilesBlocking();
  const meter = meterCommand(argv);
  const hook = meter?.name === 'hook remind';
  const [name, ...rest] = meter ? [meter.name, ...meter.rest] : argv;
  if (cwdOrNull() === null) {
    // The working directory was deleted under the agent: a hook runs in the project Claude Code names (and logs that), anything else says so.
    const gone = `the working directory${io.env.PWD ? ` ${io.env.PWD}` : ''} no longer exists (deleted or moved)`;
    const proj = io.env.CLAUDE_PROJECT_DIR;
    const isHook = argv[0] === 'hook';
    if (isHook && proj && path.isAbsolute(proj) && isDir(proj)) {
      process.chdir(proj);
      io = { ...io, cwd: proj };
      await appendHookLog(proj, `hook ${argv[1] ?? ''}`, `${gone}; running in the project folder ${proj}`);
    } else {
      io.stderr(`session-ledger: ${gone}. Run it again from an existing folder${isHook ? '; allowing' : ''}.`);
      return isHook ? 0 : 2;
    }
  }
  const help = rest.some((a) => a === '--help' || a === '-h');
  if (meter && !help) {
    try {
      // As the CLI does: every text is terminal-safe.
      // The guard is loaded only when the reminder asks it (a mark crossed while a marker stands there).
      const done: CheckpointDone = (root, q) => {
        const g = guard();
        return g ? g.checkpointDone(root, q) : Promise.resolve(false);
      };
      if (meter.name !== 'statusline') return await HOT[meter.name].run(rest, terminalSafeIo(io), done);
    } catch (err) {
      // A usage error is reported by the whole CLI, in its words (these commands read no stdin before parsing options);
      // an .agents.yml only the YAML reader can answer for is read by the whole CLI, which holds it.
      if (!(err instanceof UsageError) && !(err instanceof NeedsFullReader)) {
        internalError(io, name, err);
        // A hook never fails the agent.
        return hook ? 0 : 2;
      }
    }
  }
  const c = core();
  if ('missing' in c) {
    // A hook never fails the agent (exit 2 would block /compact): it allows and says why.
    io.stderr(`session-ledger: ${c.missing}; run \`hooks install\` again.${name === 'hook' ? ' Allowing.' : ''}`);
    return name === 'hook' ? 0 : 2;
  }
  return c.core.main(argv, io);
}
