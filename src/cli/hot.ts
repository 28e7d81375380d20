/**
 * The installed hook script's entry (`.claude/hooks/session-ledger.cjs`, one plain JavaScript file),
 * in eight parts (scripts/lib/build.mjs lays them out):
 * 1. this module and the status line (./status-line) as code: the status line runs on every refresh
 *    of Claude Code's status line, and its usual call (Claude Code sent its own figure) parses and
 *    runs only this part;
 * 2. after the line HOOK_TRANSCRIPT_MARKER, in one block comment: the status line's figure from the
 *    transcript it names (./transcript), when Claude Code sent none;
 * 3. after the line HOOK_METER_MARKER, in one block comment: the meter (./meter: `context`,
 *    `hook remind`);
 * 4. after the line HOOK_CORE_MARKER, in one block comment: the whole CLI (./main), for every other
 *    command, help and usage errors;
 * 5. after the line HOOK_HOOKS_MARKER, in one block comment: the PreCompact and SessionStart hooks on
 *    their own (./hooks-main), with only the code they reach;
 * 6. after the line HOOK_REST_MARKER, in one block comment: the commands the hooks, the status line
 *    and `status` never run (installing hooks, starting a system, the write actions), which the core
 *    takes from there when one runs;
 * 7. after the line HOOK_YAML_MARKER, in one block comment: the YAML library, which the core and the
 *    hooks require only for a YAML text their own plain reader does not take;
 * 8. after the line HOOK_WORDS_MARKER, in one block comment: the Japanese and Korean words of the
 *    guard's block and the reminder (a table), which the hooks read only when the locale names one of
 *    those languages and they have something to say.
 * Node skips a comment when it loads the file, so a part costs nothing until it runs (./parts loads
 * them). The status line's own script (STATUSLINE_SCRIPT_NAME) is this file's first two parts: it
 * takes every other part from the hook script beside it, and from nowhere else.
 */
import { asksForHelp, meterCommand } from './args';
import { cwdOrNull, exitWith, internalError, onceStdin, processIo, terminalSafe, UsageError, type Io } from './io';
import {
  coreOrWhy,
  CoreUnavailable,
  guardOrNull,
  hooksOrNull,
  loadMeter,
  loadTranscript,
  loadWords,
  type Meter,
} from './parts';
import { runStatusLine } from './status-line';

// The extension and the command-line tool's other scripts take the parts through these.
export { CoreUnavailable, loadCore, loadHooks, loadMeter, loadRest, loadTranscript } from './parts';

export async function hotMain(argv: string[], io: Io = processIo()): Promise<number> {
  io = onceStdin(io);
  const [name, ...rest] = argv;
  if (name === 'statusline' && cwdOrNull() !== null && !rest.some((a) => a === '--help' || a === '-h')) {
    try {
      // The status line prints the relayed command's output as it is (its own line is plain ASCII).
      return await runStatusLine(rest, io, {
        measure: (root, opts) => loadTranscript().measure(root, opts),
        // The guard as the hook runs it: its own part of the hook script, else (a copy without it) the core's.
        checkpointDone: async (root, q) => {
          const guard = guardOrNull();
          return guard ? guard.checkpointDone(root, q) : false;
        },
        // Only when a new session's record has older records to prune: the meter's part reads git's index.
        tracks: (files) => loadMeter().gitTracksEach(files),
      });
    } catch (err) {
      // A usage error is reported by the whole CLI, in its words (the status line reads no stdin before parsing its options).
      if (!(err instanceof UsageError)) {
        internalError(io, 'statusline', err);
        return 2;
      }
    }
  }
  // Every other command goes straight to the core, the PreCompact and SessionStart hooks to their own
  // part (to the core when a copy cut short lacks it); the meter's commands, and any command in a working
  // directory that was deleted (the meter says so, or moves a hook to its project), go to the meter.
  /** Why the core is not there, once a command that needs it found none. */
  let noCore: string | null = null;
  // What the hooks say in Japanese or Korean: this script's own words (a part of it, read only then).
  io = { ...io, words: loadWords };
  if (!meterCommand(argv) && cwdOrNull() !== null) {
    const hooks = name === 'hook' && !asksForHelp(rest) ? hooksOrNull() : null;
    if (hooks) return hooks.hooksMain(argv, io);
    const c = coreOrWhy();
    if ('core' in c) return c.core.main(argv, io);
    noCore = c.missing;
  }
  let meter: Meter;
  try {
    meter = loadMeter();
  } catch (err) {
    if (!(err instanceof CoreUnavailable)) throw err;
    // A hook never fails the agent (exit 2 would block /compact): it allows and says why, naming the
    // part the command needed (the status line's script takes both from the hook script beside it).
    const why = noCore ?? err.message;
    io.stderr(
      terminalSafe(`session-ledger: ${why}; run \`hooks install\` again.${name === 'hook' ? ' Allowing.' : ''}`),
    );
    return name === 'hook' ? 0 : 2;
  }
  return meter.meterMain(argv, io, coreOrWhy, guardOrNull);
}

if (require.main === module) exitWith(hotMain(process.argv.slice(2)));
