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

export function processIo(): Io {
  return {
    stdout: (s) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`),
    stderr: (s) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`),
    stdin: () => readStdin(),
    env: process.env,
    cwd: process.cwd(),
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
