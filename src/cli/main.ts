/**
 * session-ledger: the command-line tool over the core, used by the Claude Code hooks and in CI.
 * Exit codes: 0 ok, 1 a check blocks, 2 bad usage or unreadable root, 3 nothing found (context).
 */
import { processIo, terminalSafeIo, UsageError, type Io } from './io';

export interface Command {
  help: string;
  run(args: string[], io: Io): Promise<number>;
}

/**
 * Commands load lazily (a dynamic import each), so a hook or the status line pays only for the
 * modules its own command needs: `context` never loads the Markdown and YAML readers.
 */
export const COMMANDS: Record<string, () => Promise<Command>> = {
  status: () => import('./commands/status'),
  check: () => import('./commands/check'),
  context: () => import('./commands/context'),
  statusline: () => import('./commands/statusline'),
  checkpoint: () => import('./commands/checkpoint'),
  hook: () => import('./commands/hook'),
  hooks: () => import('./commands/hooks'),
  attest: () => import('./commands/attest'),
  'compact-state': () => import('./commands/compact-state'),
  'rotate-log': () => import('./commands/rotate-log'),
};

export async function usage(): Promise<string> {
  const helps = await Promise.all(Object.values(COMMANDS).map(async (load) => (await load()).help));
  return ['usage: session-ledger <command> [options]', '', ...helps.map((h) => `  ${h}`), '', 'Exit codes: 0 ok, 1 blocked, 2 bad usage, 3 no session found.'].join('\n');
}

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(await usage());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(typeof __VERSION__ !== 'undefined' ? __VERSION__ : 'dev');
    return 0;
  }
  const load = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr(`session-ledger: unknown command '${name}'\n${await usage()}`);
    return 2;
  }
  try {
    // Every text we print is terminal-safe; the statusline relay prints the user's own command's output as it is.
    return await (await load()).run(rest, name === 'statusline' ? io : terminalSafeIo(io));
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`session-ledger ${name}: ${err.message}`);
      return 2;
    }
    // Never a stack trace for the user's content: one line, and exit 2.
    io.stderr(`session-ledger ${name}: internal error: ${(err as Error)?.message ?? String(err)}`);
    return 2;
  }
}

declare const __VERSION__: string;

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = 2;
    },
  );
}
