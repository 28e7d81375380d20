/**
 * dist/session-ledger-meter.cjs: the command-line tool's meter commands (`context`, `hook remind`) as
 * plain code, which dist/cli.js runs for them. Through the status line's script they would parse its
 * status line first and then compile the meter from a comment: `context --json` costs about 10 M
 * instructions (7 %) less this way (callgrind). Not installed into projects: the hooks and the status
 * line run their own scripts. Help, usage errors and anything the meter hands on go to the core of
 * the hook script beside it.
 */
import { onceStdin, processIo, type Io } from './io';
import { meterMain } from './meter';
import { coreOrWhy, guardOrNull, loadWords } from './parts';

export function main(argv: string[], io: Io = processIo()): Promise<number> {
  // The reminder's Japanese and Korean words: the hook script's beside this one.
  return meterMain(argv, { ...onceStdin(io), words: loadWords }, coreOrWhy, guardOrNull);
}
