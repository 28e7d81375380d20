/**
 * The installed hook script's entry (`.claude/hooks/session-ledger.cjs`, one plain JavaScript file).
 * The status line runs on every refresh of Claude Code's status line, so its commands
 * (`statusline`, `context`) are bundled here as code and load nothing else. Every other command
 * (the hooks, `checkpoint`, `status` …), help, and any usage error run the whole CLI (./main),
 * which the build puts in the same file after the line HOOK_CORE_MARKER, inside one block comment
 * (Node skips it when it loads the file, so the status line never parses the core), each star-slash
 * of the core written CORE_END_ESCAPED. `loadCore` reads it from this very file, turns those back
 * and compiles it: nothing compressed, nothing cached,
 * nothing read from anywhere else. The core takes every module this file already holds from this
 * file's module table (`__m`), so no module is there twice.
 */
import * as fs from 'node:fs';
import { NeedsFullReader } from '../core/context/full-reader';
import { CORE_END_ESCAPED, HOOK_CORE_MARKER } from '../core/hooks/files';
import * as path from 'node:path';
import { isDir } from '../core/files/fsread';
import { appendHookLog } from '../core/hooks/io';
import { cwdOrNull, processIo, terminalSafeIo, UsageError, type Io } from './io';

interface Hot {
  run(args: string[], io: Io): Promise<number>;
}

const HOT: Record<string, () => Promise<Hot>> = {
  statusline: () => import('./commands/statusline'),
  context: () => import('./commands/context'),
  // The reminder runs before every prompt: as hot as the status line.
  'hook remind': () => import('./commands/hook-remind'),
};

interface Core {
  main(argv: string[], io?: Io): Promise<number>;
  __m: Record<string, unknown>;
}

/** This file holds no core (a build from source without one, or a damaged copy). */
export class CoreUnavailable extends Error {}

let core: Core | undefined;

/** Compile and run the CLI's core (once per process) from the lines after the marker in this very file. */
export function loadCore(): Core {
  if (core) return core;
  // Loaded only here: the status line's commands never pay for it.
  const vm = require('node:vm') as typeof import('node:vm');
  const file = __filename;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CoreUnavailable(
      `${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  const open = `\n${HOOK_CORE_MARKER}\n/*\n`;
  const at = text.indexOf(open);
  const end = text.lastIndexOf('\n*/');
  if (at < 0 || end < at + open.length - 1 || text.slice(end + 4).trim() !== '')
    throw new CoreUnavailable(
      `${file} holds no core (the line "${HOOK_CORE_MARKER}" and the comment after it are missing or cut short)`,
    );
  const head = text.slice(0, at + open.length);
  const source = `(function (exports, require, module, __filename, __dirname, __hot) {${text.slice(head.length, end).split(CORE_END_ESCAPED).join('*/')}\n})`;
  // Stack traces name this file and the line the code stands on in it.
  const script = new vm.Script(source, { filename: file, lineOffset: head.split('\n').length - 1 });
  const mod = { exports: {} as Core };
  script
    .runInThisContext()
    .call(mod.exports, mod.exports, require, mod, file, __dirname, (module.exports as { __m: unknown }).__m);
  core = mod.exports;
  return core;
}

export async function hotMain(argv: string[], io: Io = processIo()): Promise<number> {
  const hook = argv[0] === 'hook' && argv[1] === 'remind';
  const [name, ...rest] = hook ? ['hook remind', ...argv.slice(2)] : argv;
  // Read once: a command that hands over to the whole CLI after reading stdin hands it over too.
  const stdin = io.stdin;
  let read: Promise<string> | undefined;
  io = { ...io, stdin: () => (read ??= stdin()) };
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
  if (name !== undefined && Object.prototype.hasOwnProperty.call(HOT, name) && !help) {
    try {
      // As the CLI does: every text is terminal-safe, but the relay prints the user's own command's output as it is.
      return await (await HOT[name]()).run(rest, name === 'statusline' ? io : terminalSafeIo(io));
    } catch (err) {
      // A usage error is reported by the whole CLI, in its words (these commands read no stdin before parsing options);
      // an .agents.yml only the YAML reader can answer for is read by the whole CLI, which holds it.
      if (!(err instanceof UsageError) && !(err instanceof NeedsFullReader)) {
        io.stderr(`session-ledger ${name}: internal error: ${(err as Error)?.message ?? String(err)}`);
        // A hook never fails the agent.
        return hook ? 0 : 2;
      }
    }
  }
  let main: Core['main'];
  try {
    main = loadCore().main;
  } catch (err) {
    if (!(err instanceof CoreUnavailable)) throw err;
    // A hook never fails the agent (exit 2 would block /compact): it allows and says why.
    io.stderr(`session-ledger: ${err.message}; run \`hooks install\` again.${name === 'hook' ? ' Allowing.' : ''}`);
    return name === 'hook' ? 0 : 2;
  }
  return main(argv, io);
}

if (require.main === module) {
  // After this file's module table (`__m`, defined after this module in the bundle) exists.
  Promise.resolve()
    .then(() => hotMain(process.argv.slice(2)))
    .then(
      (code) => {
        process.exitCode = code;
      },
      () => {
        process.exitCode = 2;
      },
    );
}
