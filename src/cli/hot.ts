/**
 * The installed hook script's entry (`.claude/hooks/session-ledger.cjs`). The status line runs on
 * every refresh of Claude Code's status line, so its commands (`statusline`, `context`) are
 * bundled here as code and load nothing else. Every other command (the hooks, `checkpoint`,
 * `status` …), help, and any usage error run the whole CLI (./main), which the build writes beside
 * this file brotli-compressed (`session-ledger-core.br`, checked against the digest built into this
 * file) and which is decompressed and compiled only then: the status line never pays for the
 * Markdown and YAML readers. The core takes every module this file already holds from this file's
 * module table (`__m`), so no module is there twice. The decompressed core and V8's code cache of
 * it are kept per user in the temporary folder, keyed by the core's digest (and the V8 version): a
 * later run skips brotli and most of the compile. The cache is an optimisation only: any failure to
 * read or write it is ignored.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NeedsFullReader } from '../core/context/full-reader';
import { HOOK_CORE_NAME } from '../core/hooks/files';
import { pruneCache, userCacheDir, writeCacheFile } from '../core/files/user-cache';
import { processIo, terminalSafeIo, UsageError, type Io } from './io';

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

declare const __CORE_SHA256__: string;

/** The core beside this script is missing, unreadable or from another build. */
export class CoreUnavailable extends Error {}

let core: Core | undefined;
let saveCache: (() => void) | undefined;

/** Write the code cache of the core when this run compiled it without one (the CLI calls it when done). */
export function saveCoreCache(): void {
  const save = saveCache;
  saveCache = undefined;
  save?.();
}

/** Decompress, compile and run the CLI's core (once per process) with this file's module table. */
export function loadCore(): Core {
  if (core) return core;
  // Loaded only here: the status line's commands never pay for them (zlib only without the decompressed copy).
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const vm = require('node:vm') as typeof import('node:vm');
  const file = path.join(__dirname, HOOK_CORE_NAME);
  let br: Buffer;
  try {
    br = fs.readFileSync(file);
  } catch (err) {
    throw new CoreUnavailable(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const digest = createHash('sha256').update(br).digest('hex');
  if (typeof __CORE_SHA256__ === 'string' && digest !== __CORE_SHA256__) throw new CoreUnavailable(`${file} belongs to another build of the hook script`);
  const dir = userCacheDir();
  const base = dir && path.join(dir, `core-${digest.slice(0, 20)}`);
  // The decompressed core, kept beside the code cache: reading it back is cheaper than brotli.
  const textFile = base && `${base}.js`;
  const cacheFile = base && `${base}-${process.versions.v8}-${process.arch}.v8cache`;
  const readCached = (file: string | null): Buffer | undefined => {
    try {
      return file ? fs.readFileSync(file) : undefined;
    } catch {
      return undefined;
    }
  };
  const plain = readCached(textFile);
  const text = plain ?? (require('node:zlib') as typeof import('node:zlib')).brotliDecompressSync(br);
  const source = `(function (exports, require, module, __filename, __dirname, __hot) {${text.toString('utf8')}\n})`;
  let cachedData = readCached(cacheFile);
  // The run that writes the code cache keeps every function it compiled until then: V8 would
  // otherwise drop the bytecode of functions it ran a while ago, and the cache would miss them.
  // Only in a process of its own (the CLI, a hook): never in a host that loads this file (VS Code's
  // extension host runs other extensions, whose memory this flag would change too).
  if (!cachedData && cacheFile && require.main === module) (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--no-flush-bytecode');
  const script = new vm.Script(source, { filename: file.replace(/\.br$/, '.js'), cachedData });
  const mod = { exports: {} as Core };
  script.runInThisContext().call(mod.exports, mod.exports, require, mod, file, __dirname, (module.exports as { __m: unknown }).__m);
  core = mod.exports;
  if (textFile && cacheFile && (!plain || !cachedData || script.cachedDataRejected)) {
    saveCache = () => {
      if (!plain) {
        writeCacheFile(textFile, text);
        // A new build: what older builds left behind is no longer needed here.
        if (dir) pruneCache(dir, `core-${digest.slice(0, 20)}`);
      }
      if (!cachedData || script.cachedDataRejected) writeCacheFile(cacheFile, script.createCachedData());
    };
    // A long-lived host (the extension) saves it once the first work is done; a CLI run saves it when it ends.
    setTimeout(saveCoreCache, 3000).unref();
  }
  return core;
}

export async function hotMain(argv: string[], io: Io = processIo()): Promise<number> {
  const hook = argv[0] === 'hook' && argv[1] === 'remind';
  const [name, ...rest] = hook ? ['hook remind', ...argv.slice(2)] : argv;
  // Read once: a command that hands over to the whole CLI after reading stdin hands it over too.
  const stdin = io.stdin;
  let read: Promise<string> | undefined;
  io = { ...io, stdin: () => (read ??= stdin()) };
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
    io.stderr(`session-ledger: ${err.message}; run \`hooks install\` again (it writes both files).${name === 'hook' ? ' Allowing.' : ''}`);
    return name === 'hook' ? 0 : 2;
  }
  try {
    return await main(argv, io);
  } finally {
    saveCoreCache();
  }
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
