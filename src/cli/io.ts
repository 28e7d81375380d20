/** What a CLI command talks to: streams, environment, clock. Tests pass their own. */
export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Read all of standard input ('' when it is a terminal or closed). */
  stdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export class UsageError extends Error {}

/** Every write is a whole line: a missing final newline is added. */
const line = (s: string): string => (s.endsWith('\n') ? s : `${s}\n`);

/**
 * Text safe for a terminal: escape sequences (CSI `ESC[…`, OSC `ESC]…BEL|ST`, other `ESC x`) removed
 * whole, then every other control character (C0 but newline and tab, DEL, C1) dropped. Ledger text
 * is repository content: it must not move the cursor, retitle the window or write a hyperlink.
 */
export function terminalSafe(s: string): string {
  return s
    .replace(/\u001b\[[\u0030-\u003f]{0,64}[\u0020-\u002f]{0,16}[\u0040-\u007e]?/g, '')
    .replace(/(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]{0,4096}(?:\u0007|\u001b\\|\u009c)?/g, '')
    .replace(/\u001b[\u0020-\u002f]{0,16}[\u0030-\u007e]?/g, '')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** The same streams, every line passed through `terminalSafe`. */
export function terminalSafeIo(io: Io): Io {
  return { ...io, stdout: (s) => io.stdout(terminalSafe(s)), stderr: (s) => io.stderr(terminalSafe(s)) };
}

export function processIo(): Io {
  return {
    stdout: (s) => process.stdout.write(line(s)),
    stderr: (s) => process.stderr.write(line(s)),
    stdin: () => readStdin(),
    env: process.env,
    cwd: process.cwd(),
  };
}

/**
 * An Io that keeps what the command prints, for running the CLI inside another program (the tests,
 * a benchmark): stdin is `input`, the environment and working directory are the ones given.
 */
export function bufferIo(o: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Io & { out: () => string; err: () => string } {
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

/** Read stdin to the end, at most `max` bytes, giving up after `timeoutMs` of silence from a TTY-less pipe. */
export function readStdin(max = 8 * 1024 * 1024, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve) => {
    if (process.stdin.isTTY) return resolve('');
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      process.stdin.removeAllListeners();
      process.stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, timeoutMs);
    process.stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
    });
    process.stdin.on('end', done);
    process.stdin.on('error', done);
  });
}
