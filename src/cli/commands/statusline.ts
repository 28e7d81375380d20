/**
 * `session-ledger statusline [--root DIR] [-- CMD…]`: Claude Code's statusLine command (./status-line
 * does the work), with the context meter for a figure that has to come from the transcript.
 */
import { checkpointDone } from '../../core/hooks/guard';
import { measureNamed } from '../../core/context/measure';
import { gitTracksEach } from '../../core/git/tracked';
import { ownArgs, parse } from '../args';
import type { Io } from '../io';
import { runStatusLine } from '../status-line';

export function run(args: string[], io: Io): Promise<number> {
  // The status line's own part takes only the plain shapes of its options: here they are parsed in any
  // shape node:util takes, with the CLI's usage errors, and handed on in the plain one.
  const own = ownArgs(args);
  const { values } = parse([...own], { root: { type: 'string' } });
  const root = values.root !== undefined ? [`--root=${values.root}`] : [];
  return runStatusLine([...root, ...args.slice(own.length)], io, {
    measure: measureNamed,
    checkpointDone,
    tracks: gitTracksEach,
  });
}
