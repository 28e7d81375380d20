import * as fs from 'node:fs';
import { MAY_BE_FORMAT, terminalSafe } from '../core/markdown/format-chars';
import type { Words } from './locale';
/** What a CLI command talks to: streams, environment, clock. Tests pass their own. */
export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Read all of standard input ('' when it is a terminal or closed). */
  stdin: () => Promise<string>;
  /** Whether what `stdin` gave was cut at its limit (only the first part of a longer input). */
  stdinCut?: () => boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * The script file this process runs (`process.argv[1]`: dist/cli.js, an installed hook script), when
   * the command runs as a process of its own; absent when a test or another program runs it.
   */
  script?: string;
  /**
   * The hook script's own Japanese and Korean words (./locale), for what the hooks say: the script
   * that runs hands them over; without them the hooks speak English.
   */
  words?: Words;
}

export class UsageError extends Error {}

/**
 * One step of a command that may refuse (a read or a write action): its value, or, when it throws,
 * null after saying why on stderr as `session-ledger <label>: <message>`.
 */
export async function stepOrSay<T>(io: Io, label: string, f: () => Promise<T>): Promise<{ value: T } | null> {
  try {
    return { value: await f() };
  } catch (err) {
    io.stderr(`session-ledger ${label}: ${(err as Error)?.message ?? String(err)}`);
    return null;
  }
}

/** Every write is a whole line: a missing final newline is added. */
const line = (s: string): string => (s.endsWith('\n') ? s : `${s}\n`);

/**
/**
 * Text safe for a terminal (core's `terminalSafe`, ../core/markdown/format-chars): what every command
 * prints goes through it, and the hooks' JSON answers put every string through it before serialising.
 * The same removal (`asShown`) is what the secret masker reads a line as, so what is printed is what was masked.
 */
export { terminalSafe };
// The gate of `withoutFormat`, which regex-gates.test.ts checks against every code point.
export { MAY_BE_FORMAT };

/**
 * What a command that failed unexpectedly says: one line on stderr, never a stack trace for the user's
 * content, and terminal-safe (an error's message may quote a file's name or text).
 */
export function internalError(io: Io, command: string, err: unknown): void {
  io.stderr(terminalSafe(`session-ledger ${command}: internal error: ${(err as Error)?.message ?? String(err)}`));
}

/** The same streams, every line passed through `terminalSafe`. */
export function terminalSafeIo(io: Io): Io {
  return { ...io, stdout: (s) => io.stdout(terminalSafe(s)), stderr: (s) => io.stderr(terminalSafe(s)) };
}

/** The working directory, or null when it no longer exists (deleted or moved away under the process). */
export function cwdOrNull(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

export function processIo(): Io {
  return {
    stdout: (s) => writeFd(1, line(s)),
    stderr: (s) => writeFd(2, line(s)),
    stdin: () => readStdin(),
    // This module's own flag, passed on: a part of the hook script that reads the flag from a copy of its own would find it unset.
    stdinCut: stdinWasCut,
    env: process.env,
    // '' when the working directory is gone: hotMain says so before any command runs.
    cwd: cwdOrNull() ?? '',
    ...(process.argv[1] ? { script: process.argv[1] } : {}),
  };
}

/**
 * A command-line entry's run: its exit code becomes the process's, 2 when it fails, and the process
 * ends then. Everything a command writes is written synchronously (writeFd), its child processes and
 * locks are done with before it settles: ending at once skips only Node tearing its heap down (callgrind:
 * 12 M instructions of a hook, 3 M of the status line).
 */
export function exitWith(run: Promise<number>): void {
  run.then(
    (code) => process.exit(code),
    () => process.exit(2),
  );
}

/** `io` whose stdin is read once: a command that hands over to another part after reading stdin hands it over too. */
export function onceStdin(io: Io): Io {
  const stdin = io.stdin;
  let read: Promise<string> | undefined;
  return { ...io, stdin: () => (read ??= stdin()) };
}

/**
 * An Io that keeps what the command prints, for running the CLI inside another program (the tests,
 * a benchmark): stdin is `input`, the environment and working directory are the ones given.
 */
export function bufferIo(
  o: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Io & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (s) => {
      out += line(s);
    },
    stderr: (s) => {
      err += line(s);
    },
    stdin: async () => o.input ?? '',
    env: o.env ?? process.env,
    cwd: o.cwd ?? process.cwd(),
    out: () => out,
    err: () => err,
  };
}

/**
 * Write all of `s` to a standard stream's descriptor, synchronously (as Node writes to pipes and
 * files on Linux anyway), without `process.stdout`: for a pipe, creating it loads Node's `net` and
 * stream modules (with `process.stdin`, about 20 M instructions of the status line's run). A full
 * non-blocking pipe is waited for; a closed one (EPIPE) drops the text, as a reader that went away
 * wants nothing more.
 */
export function writeFd(fd: 1 | 2, s: string): void {
  const buf = Buffer.from(s, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
  }
}

/**
 * What stdin holds already, read without waiting and without libuv's thread pool: a regular file to
 * its end; a pipe through a non-blocking descriptor of its own (Linux's /proc/self/fd/0), up to its
 * end or the first moment it has nothing yet. `ended` says whether that was the end. A client that
 * wrote its JSON and closed the pipe (Claude Code does) is read here whole.
 */
function readReady(st: fs.Stats, chunks: Buffer[], max: number): { size: number; ended: boolean } {
  let fd = 0;
  let size = 0;
  if (!st.isFile()) {
    if (!st.isFIFO()) return { size, ended: false };
    try {
      fd = fs.openSync('/proc/self/fd/0', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    } catch {
      return { size, ended: false };
    }
  }
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return { size, ended: true };
      size += n;
      if (size <= max) chunks.push(buf.subarray(0, n));
    }
  } catch (err) {
    // EAGAIN: nothing yet, the rest comes through the waiting read; anything else ends stdin as the waiting read would.
    return { size, ended: (err as NodeJS.ErrnoException).code !== 'EAGAIN' };
  } finally {
    if (fd !== 0) fs.closeSync(fd);
  }
}

/** The chunks read as UTF-8 text; one chunk (Claude Code's JSON fits in one read) is decoded without a copy. */
function textOf(chunks: Buffer[]): string {
  return chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

/** The most of standard input `readStdin` keeps. */
export const STDIN_MAX_BYTES = 8 * 1024 * 1024;

/** Whether the last `readStdin` got more than it keeps (what it gave is only the first part). */
let stdinCut = false;
export function stdinWasCut(): boolean {
  return stdinCut;
}

/**
 * Read stdin to the end, at most `max` bytes ('' from a terminal, /dev/null or a closed descriptor),
 * giving up after `timeoutMs` of waiting. What is there already is read at once (`readReady`); the
 * rest of a pipe is read in libuv's thread pool (`fs.read`), so the wait never blocks the thread, and
 * without `process.stdin`, whose creation loads Node's stream and net modules. A non-blocking
 * descriptor that has nothing yet (EAGAIN) is asked again shortly.
 */
export function readStdin(max = STDIN_MAX_BYTES, timeoutMs = 5000): Promise<string> {
  let st: fs.Stats;
  try {
    st = fs.fstatSync(0);
  } catch {
    return Promise.resolve('');
  }
  if (st.isCharacterDevice() || st.isDirectory()) return Promise.resolve('');
  const chunks: Buffer[] = [];
  const ready = readReady(st, chunks, max);
  stdinCut = ready.size > max;
  if (ready.ended) return Promise.resolve(textOf(chunks));
  return new Promise((resolve) => {
    let size = ready.size;
    let finished = false;
    const done = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      resolve(textOf(chunks));
    };
    const timer = setTimeout(done, timeoutMs);
    const next = (): void => {
      const buf = Buffer.allocUnsafe(64 * 1024);
      fs.read(0, buf, 0, buf.length, null, (err, n) => {
        if (finished) return;
        if (err && (err as NodeJS.ErrnoException).code === 'EAGAIN') return void setTimeout(next, 2);
        if (err || n === 0) return done();
        size += n;
        if (size <= max) chunks.push(buf.subarray(0, n));
        else stdinCut = true;
        next();
      });
    };
    firstInPool(next);
  });
}

/**
 * Run `start`, whose asynchronous read is this process's first task for Node's thread pool, with a
 * pool of one thread: the pool starts four on its first task, and a command-line process waits there
 * for stdin alone (the rest of its reads are synchronous). About 1 ms less on every status line whose
 * stdin is a socket, as Node's child processes (Claude Code's too) get it. The pool reads its size
 * when it starts, inside this call; the variable is gone again after it, so nothing the process runs
 * inherits it. A size the user set is kept.
 */
function firstInPool(start: () => void): void {
  const own = process.env.UV_THREADPOOL_SIZE === undefined;
  if (own) process.env.UV_THREADPOOL_SIZE = '1';
  try {
    start();
  } finally {
    if (own) delete process.env.UV_THREADPOOL_SIZE;
  }
}
