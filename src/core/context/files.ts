/**
 * Bounded byte-level reading of transcripts: the head, the tail (backwards, line by line) and a
 * byte range. Nothing here reads a file whole.
 */
import * as fs from 'node:fs';

/**
 * Whether this process reads synchronously (`readFilesBlocking`). A command-line process does one
 * thing and waits for each read anyway: a read in libuv's thread pool costs it more than the read
 * (the hand-off to a pool thread and back, and starting the pool: about 5 ms of `context`'s 45).
 * The extension host keeps the waiting reads, so a long backward scan never holds up its thread.
 */
let blocking = false;

/** Read every file of the meter synchronously from now on (a command-line process; never the extension host). */
export function readFilesBlocking(): void {
  blocking = true;
}

/** `sync()` in a blocking process, else `cb` through Node's callback API. */
function io<T>(sync: () => T, cb: (done: (err: Error | null, v?: T) => void) => void): Promise<T> {
  if (blocking) {
    try {
      return Promise.resolve(sync());
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }
  return new Promise((resolve, reject) => cb((err, v) => (err ? reject(err) : resolve(v as T))));
}

/**
 * An open file, read on its descriptor through Node's callback API (in libuv's thread pool, as
 * `fs.promises` does) or synchronously (`readFilesBlocking`), without loading `fs.promises` and the
 * stream and readline modules it brings: the status line and `context` start faster for it.
 */
export class Handle {
  constructor(readonly fd: number) {}

  read(buf: Buffer, off: number, len: number, pos: number): Promise<{ bytesRead: number }> {
    return io(
      () => ({ bytesRead: fs.readSync(this.fd, buf, off, len, pos) }),
      (done) => fs.read(this.fd, buf, off, len, pos, (err, bytesRead) => done(err, { bytesRead })),
    );
  }

  stat(): Promise<fs.Stats> {
    return io(
      () => fs.fstatSync(this.fd),
      (done) => fs.fstat(this.fd, done),
    );
  }

  close(): Promise<void> {
    return io(
      () => fs.closeSync(this.fd),
      (done) => fs.close(this.fd, done),
    );
  }
}

/** `p`'s value, or `fallback` when it fails. */
function orElse<T, F>(p: Promise<T>, fallback: F): Promise<T | F> {
  return p.catch(() => fallback);
}

/** The names in a folder, or [] when it cannot be listed. */
export function listNames(dir: string): Promise<string[]> {
  return orElse(
    io(
      () => fs.readdirSync(dir),
      (done) => fs.readdir(dir, done),
    ),
    [],
  );
}

/** A path with every symbolic link resolved, or null. */
export function realPathOrNull(p: string): Promise<string | null> {
  return orElse(
    io(
      () => fs.realpathSync(p),
      (done) => fs.realpath(p, done),
    ),
    null,
  );
}

/** Read exactly `buf.length` bytes at `pos` (fewer only at the end of the file). */
export async function readAt(fh: Handle, buf: Buffer, pos: number): Promise<number> {
  let off = 0;
  while (off < buf.length) {
    const { bytesRead } = await fh.read(buf, off, buf.length - off, pos + off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
  return off;
}

/**
 * One read buffer kept for the next forward read. A process that follows a transcript as it grows
 * (the extension) reads every appended byte a few times a second; a new buffer each time is memory
 * outside the JavaScript heap that V8 counts towards its next full collection, and under an agent
 * appending 1 MB/s that made a full collection about every second and a half.
 */
let spare: Buffer | null = null;
/** The largest buffer kept for reuse (bytes). */
const SPARE_MAX = 2 * 1024 * 1024;

/** A buffer of at least `n` bytes (contents undefined): the kept one when it is free and large enough. Give it back with `giveBuffer`. */
export function takeBuffer(n: number): Buffer {
  if (spare && spare.length >= n) {
    const b = spare;
    spare = null;
    return b;
  }
  return Buffer.allocUnsafe(n);
}

/** Keep `buf` for the next `takeBuffer` (nothing may still use it). */
export function giveBuffer(buf: Buffer): void {
  if (buf.length <= SPARE_MAX && (!spare || spare.length < buf.length)) spare = buf;
}

/** Open a file for reading, or null. */
export function openRead(path: string): Promise<Handle | null> {
  // O_NONBLOCK: a FIFO put at a transcript's path (between a check that it is a file and this open) does not wait for a writer.
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
  return orElse(
    io(
      () => new Handle(fs.openSync(path, flags)),
      (done) => fs.open(path, flags, (err, fd) => done(err, new Handle(fd))),
    ),
    null,
  );
}

/**
 * The first line of a file (without its newline), reading at most `max` bytes. When no newline
 * comes within `max` bytes, the bytes read so far are returned with `complete: false`.
 */
export async function readFirstLine(
  path: string,
  max = 1024 * 1024,
): Promise<{ line: string; complete: boolean } | null> {
  const fh = await openRead(path);
  if (!fh) return null;
  try {
    const parts: Buffer[] = [];
    let pos = 0;
    let chunk = 16 * 1024;
    while (pos < max) {
      const buf = Buffer.allocUnsafe(Math.min(chunk, max - pos));
      const n = await readAt(fh, buf, pos);
      if (n === 0) break;
      const got = buf.subarray(0, n);
      const nl = got.indexOf(10);
      if (nl >= 0) {
        parts.push(got.subarray(0, nl));
        return { line: Buffer.concat(parts).toString('utf8').replace(/\r$/, ''), complete: true };
      }
      parts.push(got);
      pos += n;
      if (n < buf.length) return { line: Buffer.concat(parts).toString('utf8'), complete: true };
      chunk = Math.min(chunk * 4, 256 * 1024);
    }
    return { line: Buffer.concat(parts).toString('utf8'), complete: false };
  } catch {
    return null;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The first `max` bytes of a file (fewer when it is shorter), or null. */
export async function readHead(path: string, max: number): Promise<Buffer | null> {
  const fh = await openRead(path);
  if (!fh) return null;
  try {
    const buf = Buffer.allocUnsafe(max);
    const n = await readAt(fh, buf, 0);
    return buf.subarray(0, n);
  } catch {
    return null;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * Show `visit` the records among the first 50 lines of a transcript's first 64 KB (a line cut off
 * there left out), until it returns true.
 */
export async function visitHead(file: string, visit: (o: Record<string, unknown>) => boolean): Promise<void> {
  const head = await readHead(file, 64 * 1024);
  if (!head) return;
  const lines = head.toString('utf8').split('\n');
  if (head.length === 64 * 1024) lines.pop();
  for (const line of lines.slice(0, 50)) {
    const o = parseObject(line);
    if (o && visit(o)) return;
  }
}

/**
 * When a transcript's session began: the `timestamp` of its first head record (`visitHead`) that has
 * one, as Claude Code's and Codex's records all do; null when none does or the file cannot be read.
 */
export async function transcriptBegan(file: string): Promise<number | null> {
  let began: number | null = null;
  await visitHead(file, (o) => {
    const ms = typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : NaN;
    if (Number.isFinite(ms)) began = ms;
    return began !== null;
  });
  return began;
}

/**
 * Visit the lines of `[0, end)` from the last to the first, reading `chunk` bytes at a time from
 * the end. `visit(line, start)` gets each non-empty line's bytes (without `\n`) and its byte offset;
 * it returns true to stop. The last segment, when `end` is not just after a newline, is visited too
 * (the caller decides what a torn line is worth: it ends exactly at `end`). A line longer than
 * `maxLine` is never held: its bytes are passed over, it is not visited, and `oversized(length,
 * start)` is told once its start is found. Gives up once more than `budget` bytes were read
 * outside such lines: a record too large to hold (a 200 MB pasted file) is passed over to the line
 * before it whatever its size (its bytes are read once, none kept), so what stands before it is
 * still found. Says how it ended: `visit` stopped it, it reached the file's start, it used up its
 * budget, or the file shrank under it.
 */
export async function scanBackward(
  fh: Handle,
  end: number,
  budget: number,
  visit: (line: Buffer, start: number) => boolean,
  chunk = 64 * 1024,
  maxLine = Infinity,
  oversized?: (length: number, start: number) => void,
): Promise<'stopped' | 'start' | 'budget' | 'shrank'> {
  let pos = end;
  const pending: Buffer[] = [];
  let pendingLen = 0;
  /** The line being read is longer than `maxLine`: its bytes are dropped until its start. */
  let inOversized = false;
  /** Bytes of the oversized line being passed over, and of those passed over before it. */
  let overLen = 0;
  let passedOver = 0;
  let size = chunk;
  while (pos > 0) {
    if (end - pos - passedOver - overLen >= budget) return 'budget';
    size = Math.min(size, pos);
    pos -= size;
    const buf = Buffer.allocUnsafe(size);
    const n = await readAt(fh, buf, pos);
    if (n < size) {
      // The file shrank under us: what we have is not the file any more.
      return 'shrank';
    }
    let i = size;
    while (i > 0) {
      const nl = buf.lastIndexOf(10, i - 1);
      if (nl < 0) {
        if (inOversized) overLen += i;
        else {
          pending.unshift(buf.subarray(0, i));
          pendingLen += i;
          if (pendingLen > maxLine) {
            inOversized = true;
            overLen = pendingLen;
            pending.length = 0;
            pendingLen = 0;
          }
        }
        break;
      }
      const piece = buf.subarray(nl + 1, i);
      let line: Buffer | null = null;
      if (inOversized) {
        const length = overLen + piece.length;
        passedOver += length;
        overLen = 0;
        inOversized = false;
        oversized?.(length, pos + nl + 1);
      } else {
        line = pending.length ? Buffer.concat([piece, ...pending]) : piece;
        if (line.length > maxLine) {
          passedOver += line.length;
          oversized?.(line.length, pos + nl + 1);
          line = null;
        }
      }
      pending.length = 0;
      pendingLen = 0;
      if (line && line.length > 0 && visit(line, pos + nl + 1)) return 'stopped';
      i = nl;
    }
    // Inside a long line, read bigger chunks (up to 1 MB): fewer reads for the same bytes.
    if (pending.length || inOversized) size = Math.min(size * 2, 1024 * 1024);
    else size = chunk;
  }
  if (inOversized) oversized?.(overLen, 0);
  else if (pending.length) {
    const line = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    if (line.length > maxLine) oversized?.(line.length, 0);
    else if (line.length > 0 && visit(line, 0)) return 'stopped';
  }
  return 'start';
}

/** Parse one JSONL line into an object, or null (non-JSON, non-object, empty). Never throws. */
export function parseObject(line: Buffer | string): Record<string, unknown> | null {
  let text = typeof line === 'string' ? line : line.toString('utf8');
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const t = text.trimStart();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `fs.stat` or null. */
export function statOrNull(path: string): Promise<fs.Stats | null> {
  return orElse(
    io(
      () => fs.statSync(path),
      (done) => fs.stat(path, done),
    ),
    null,
  );
}
