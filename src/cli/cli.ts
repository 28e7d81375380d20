/**
 * dist/cli.js, the `session-ledger` command: `context` and `hook remind` run the meter's own script
 * (./meter-script), every other command the status line's script (./hot), which takes the rest of
 * the CLI from the hook script beside it (session-ledger.cjs, which holds all of it).
 */
import { meterCommand } from './args';
import { exitWith, type Io } from './io';

export function main(argv: string[], io?: Io): Promise<number> {
  const m = meterCommand(argv);
  // Bundled as they are: each is a script of its own beside this one.
  if (m && m.name !== 'statusline')
    return (require('./session-ledger-meter.cjs') as typeof import('./meter-script')).main(argv, io);
  return (require('./session-ledger-statusline.cjs') as typeof import('./hot')).hotMain(argv, io);
}

if (require.main === module) exitWith(main(process.argv.slice(2)));
