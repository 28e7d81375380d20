/**
 * The hook script's part for the PreCompact and SessionStart hooks (`hook pre-compact`,
 * `hook session-start`; ./hot sends them here): the same hook command the core runs (./commands/hook),
 * built on its own with only the code those two hooks reach (scripts/lib/build.mjs), so a hook
 * compiles none of the other commands. Their help and `hook remind` go elsewhere (the core, the meter).
 */
import { readFilesBlocking } from '../core/context/files';
import { useFullConfigReader } from '../core/context/full-reader';
import { checkpointDone as guardCheckpointDone } from '../core/hooks/guard';
import { s0ConfigOfText } from '../core/systems/s0/reader';
import { runGuardHooks } from './commands/hook';
import { internalError, terminalSafeIo, type Io } from './io';

/** Run `argv` (`hook <which> [options]`) as the core's `main` runs it; the exit code. */
export async function hooksMain(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  setUp();
  try {
    return await runGuardHooks(args, terminalSafeIo(io));
  } catch (err) {
    // Never a stack trace for the user's content: one line, and exit 2 (the hook command itself allows on any error).
    internalError(io, name, err);
    return 2;
  }
}

/** The status line's and the reminder's "checkpoint done" past a mark (the guard's own decision, core's `checkpointDone`). */
export function checkpointDone(
  ...args: Parameters<typeof guardCheckpointDone>
): ReturnType<typeof guardCheckpointDone> {
  setUp();
  return guardCheckpointDone(...args);
}

/** What the guard needs in this part, as the core sets it up for itself. */
function setUp(): void {
  // As in the core: the meter's files are read synchronously, and an .agents.yml the light reader is unsure of goes to the YAML reader.
  readFilesBlocking();
  useFullConfigReader(() => Promise.resolve(s0ConfigOfText));
}
