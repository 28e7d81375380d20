/**
 * `session-ledger statusline [--root DIR] [-- CMD…]`: Claude Code's statusLine command (./status-line
 * does the work), with the context meter for a figure that has to come from the transcript.
 */
import { checkpointDone } from '../../core/hooks/guard';
import { measureNamed } from '../../core/context/measure';
import type { Io } from '../io';
import { runStatusLine } from '../status-line';

export function run(args: string[], io: Io): Promise<number> {
  return runStatusLine(args, io, { measure: measureNamed, checkpointDone });
}
