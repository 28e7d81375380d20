/**
 * The installed hook script's entry (`.claude/hooks/session-ledger.cjs`). The status line runs on
 * every refresh of Claude Code's status line, so its commands (`statusline`, `context`) are
 * bundled here as code and load nothing else. Every other command (the hooks, `checkpoint`,
 * `status` …), help, and any usage error run the whole CLI (./main), which the build embeds in this
 * file as source text (`__CORE_SOURCE__`) and which is compiled only then: the status line never
 * pays for the Markdown and YAML readers.
 */
import * as vm from 'node:vm';
import { processIo, terminalSafeIo, UsageError, type Io } from './io';

interface Hot {
  run(args: string[], io: Io): Promise<number>;
}

const HOT: Record<string, () => Promise<Hot>> = {
  statusline: () => import('./commands/statusline'),
  context: () => import('./commands/context'),
};

interface Core {
  main(argv: string[], io?: Io): Promise<number>;
}

declare const __CORE_SOURCE__: string;

/** Compile and run the embedded CLI as a CommonJS module of this file. */
export function loadCore(): Core {
  const mod = { exports: {} as Core };
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${__CORE_SOURCE__}\n})`, { filename: __filename });
  wrapper.call(mod.exports, mod.exports, require, mod, __filename, __dirname);
  return mod.exports;
}

export async function hotMain(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  const help = rest.some((a) => a === '--help' || a === '-h');
  if (name !== undefined && Object.prototype.hasOwnProperty.call(HOT, name) && !help) {
    try {
      // As the CLI does: every text is terminal-safe, but the relay prints the user's own command's output as it is.
      return await (await HOT[name]()).run(rest, name === 'statusline' ? io : terminalSafeIo(io));
    } catch (err) {
      // A usage error is reported by the whole CLI, in its words (these commands read no stdin before parsing options).
      if (!(err instanceof UsageError)) {
        io.stderr(`session-ledger ${name}: internal error: ${(err as Error)?.message ?? String(err)}`);
        return 2;
      }
    }
  }
  return loadCore().main(argv, io);
}

if (require.main === module) {
  hotMain(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = 2;
    },
  );
}
