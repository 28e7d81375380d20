/**
 * Tolerant reading of the user's files: never throws, always says what went wrong.
 */
import * as fs from 'node:fs';

const fsc = fs.constants;

export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

export type ReadFailure =
  | 'missing'
  | 'directory'
  | 'not-a-file'
  | 'permission'
  | 'loop'
  | 'binary'
  | 'not-utf8'
  | 'too-large'
  | 'outside'
  | 'hard-link'
  | 'error';

export interface TextFileOk {
  ok: true;
  /** Decoded text, BOM removed, CRLF kept as written (line splitting handles `\r`). */
  text: string;
  /** Raw bytes that were read (at most maxBytes). */
  bytes: Buffer;
  /** SHA-256 of the raw bytes read (the whole file unless truncated), computed on first use. */
  readonly hash: string;
  mtime: number;
  size: number;
  truncated: boolean;
  bom: boolean;
  crlf: boolean;
}

export interface TextFileErr {
  ok: false;
  kind: ReadFailure;
  /** The failure in English (logs, errors); the checks build their messages from `kind` and the data below. */
  message: string;
  /** The error code when `kind` is 'error' (e.g. `EIO`). */
  code?: string;
  /** The byte limit when `kind` is 'too-large'. */
  limit?: number;
  /** The path as the workspace named it when `kind` is 'outside'. */
  rel?: string;
  /** The file's number of hard links when `kind` is 'hard-link'. */
  links?: number;
  mtime: number;
  size: number;
}

export type TextFile = TextFileOk | TextFileErr;

export function sha256(data: Buffer | string): string {
  // Loaded on first use: node:crypto costs 3-10 ms to load, and the status line never hashes.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(data).digest('hex');
}

function errnoKind(err: unknown): { kind: ReadFailure; message: string; code?: string } {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { kind: 'missing', message: 'file not found' };
    case 'EACCES':
    case 'EPERM':
      return { kind: 'permission', message: 'permission denied: the file cannot be read' };
    case 'ELOOP':
      return { kind: 'loop', message: 'symbolic link loop: the path never reaches a file' };
    case 'EISDIR':
      return { kind: 'directory', message: 'a directory stands where a file is expected' };
    default:
      return { kind: 'error', message: `cannot be read (${code ?? String(err)})`, code: code ?? String(err) };
  }
}

/** True when the buffer looks binary: a NUL byte in its first 8 KB. */
export function looksBinary(buf: Buffer): boolean {
  // One native search, not a loop of the interpreter's (a hook reads each file once: nothing warms that loop up).
  return buf.subarray(0, 8192).includes(0);
}

/** Made on the first decode: a module that never decodes (the status line) never pays for the decoder. */
let utf8: TextDecoder | undefined;

/**
 * Decode bytes as UTF-8. When the read was cut at maxBytes, a multi-byte character may be split
 * at the end: up to 3 trailing bytes are dropped before giving up.
 */
function decodeUtf8(buf: Buffer, truncated: boolean): string | null {
  const tries = truncated ? 4 : 1;
  for (let cut = 0; cut < tries && cut <= buf.length; cut++) {
    try {
      return (utf8 ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })).decode(
        buf.subarray(0, buf.length - cut),
      );
    } catch {
      /* try a shorter prefix */
    }
  }
  return null;
}

export interface ReadOptions {
  /** Refuse (kind `too-large`) instead of reading the first `maxBytes` of a larger file. */
  refuseLarger?: boolean;
  /**
   * Refuse (kind `hard-link`) a file with more than one hard link, as a link is refused: its other
   * name may stand anywhere on the disk (another user's file, a file outside the workspace), and
   * nothing here can tell where. Checked on the path and again on the opened file.
   */
  refuseHardLinks?: boolean;
  /** Test hook: called after the bytes of an attempt were read, before the file is looked at again. */
  afterRead?: (attempt: number) => Promise<void> | void;
}

/** YAML config files (`.agents.yml`, `context-manifest.yaml`) are read only up to this size, far below a state file's. */
export const CONFIG_MAX_BYTES = 256 * 1024;

/** How many times a file that changes while it is read is read again. */
const TORN_RETRIES = 3;

/**
 * Read a text file the user (or their agent) wrote. Never throws. Only a regular file is opened
 * (a FIFO, socket or device is refused before any open, so nothing can block here). A file that
 * changed while it was read (an agent writing it in place: size, mtime or ctime differ before and
 * after) is read again, so a half-written file is not judged.
 *
 * The system calls are synchronous on purpose: a state file is small (read up to `maxBytes`), and
 * each asynchronous call is a round trip through the thread pool and the event loop, where a host
 * that runs other work (VS Code's extension host, with its git extension spawning processes at
 * start-up) makes every one of the six calls of a read wait behind that work.
 */
export async function readTextFile(
  path: string,
  maxBytes = DEFAULT_MAX_BYTES,
  opts: ReadOptions = {},
): Promise<TextFile> {
  let st;
  try {
    st = fs.statSync(path);
  } catch (err) {
    return { ok: false, ...errnoKind(err), mtime: 0, size: 0 };
  }
  if (st.isDirectory())
    return {
      ok: false,
      kind: 'directory',
      message: 'a directory stands where a file is expected',
      mtime: st.mtimeMs,
      size: st.size,
    };
  const refusedPath = refusal(st, maxBytes, opts);
  if (refusedPath) return refusedPath;
  let fd: number;
  try {
    // O_NONBLOCK: should the path be swapped for a FIFO after the stat, the open does not wait for a writer.
    fd = fs.openSync(path, fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0));
  } catch (err) {
    return { ok: false, ...errnoKind(err), mtime: st.mtimeMs, size: st.size };
  }
  try {
    for (let attempt = 1; ; attempt++) {
      const before = fs.fstatSync(fd);
      // Again on the opened file: the path may have been swapped since it was looked at.
      const refusedFile = refusal(before, maxBytes, opts);
      if (refusedFile) return refusedFile;
      const want = Math.min(before.size, maxBytes);
      const buf = Buffer.allocUnsafe(want);
      let off = 0;
      while (off < want) {
        const bytesRead = fs.readSync(fd, buf, off, want - off, off);
        if (bytesRead === 0) break;
        off += bytesRead;
      }
      if (opts.afterRead) await opts.afterRead(attempt);
      const after = fs.fstatSync(fd);
      const torn =
        after.size !== before.size ||
        after.mtimeMs !== before.mtimeMs ||
        after.ctimeMs !== before.ctimeMs ||
        off !== want;
      if (torn && attempt < TORN_RETRIES) continue;
      return decodeRead(buf.subarray(0, off), after.size, after.mtimeMs, maxBytes);
    }
  } catch (err) {
    return { ok: false, ...errnoKind(err), mtime: st.mtimeMs, size: st.size };
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      /* closing a descriptor that was read cannot lose anything */
    }
  }
}

/** Why a file with this stat is not read (not a regular file, too large, hard-linked), or null. */
function refusal(st: fs.Stats, maxBytes: number, opts: ReadOptions): TextFileErr | null {
  if (!st.isFile())
    return {
      ok: false,
      kind: 'not-a-file',
      message: 'not a regular file (a pipe, socket or device is never opened)',
      mtime: st.mtimeMs,
      size: st.size,
    };
  if (opts.refuseLarger && st.size > maxBytes)
    return {
      ok: false,
      kind: 'too-large',
      message: `${st.size} bytes, over the ${maxBytes}-byte limit for this file: it is not read`,
      limit: maxBytes,
      mtime: st.mtimeMs,
      size: st.size,
    };
  if (opts.refuseHardLinks && st.nlink > 1) return hardLinked(st);
  return null;
}

function hardLinked(st: fs.Stats): TextFileErr {
  return {
    ok: false,
    kind: 'hard-link',
    message: `it has ${st.nlink} hard links, so it may be a file from outside the workspace folder: it is not read`,
    links: st.nlink,
    mtime: st.mtimeMs,
    size: st.size,
  };
}

function decodeRead(bytes: Buffer, size: number, mtime: number, maxBytes: number): TextFile {
  const truncated = size > maxBytes;
  if (looksBinary(bytes))
    return { ok: false, kind: 'binary', message: 'binary content (NUL bytes): not a text file', mtime, size };
  const decoded = decodeUtf8(bytes, truncated);
  if (decoded === null) return { ok: false, kind: 'not-utf8', message: 'not valid UTF-8 text', mtime, size };
  const bom = decoded.charCodeAt(0) === 0xfeff;
  const text = bom ? decoded.slice(1) : decoded;
  // The hash is taken on first use: the hot paths that only read a config (the status line, `context`) never load node:crypto.
  let hash: string | undefined;
  return {
    ok: true,
    text,
    bytes,
    get hash() {
      return (hash ??= sha256(bytes));
    },
    mtime,
    size,
    truncated,
    bom,
    crlf: text.includes('\r\n'),
  };
}

/** Read a regular file's bytes (for hashing or copying), refusing anything else. Never opens a FIFO. Synchronous inside, as `readTextFile` is. */
export async function readRegularFile(path: string, maxBytes = 64 * 1024 * 1024): Promise<Buffer | null> {
  try {
    const st = fs.statSync(path);
    if (!st.isFile() || st.size > maxBytes) return null;
    const fd = fs.openSync(path, fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0));
    try {
      if (!fs.fstatSync(fd).isFile()) return null;
      return readAtMost(fd, maxBytes);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * The bytes of an open file, or null when it holds more than `maxBytes`: read until its end or one byte past
 * the limit, whatever its size says (a file the kernel makes as it is read says 0: `/proc/self/pagemap`,
 * hundreds of gigabytes, which a link in a repository can name).
 */
function readAtMost(fd: number, maxBytes: number): Buffer | null {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    total += n;
    if (total > maxBytes) return null;
  }
  return Buffer.concat(chunks, total);
}

/** At most the first `maxBytes` of a regular file (never a FIFO's), or null. */
export function readStart(path: string, maxBytes: number): Buffer | null {
  let fd = -1;
  try {
    fd = fs.openSync(path, fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0));
    if (!fs.fstatSync(fd).isFile()) return null;
    const buf = Buffer.allocUnsafe(maxBytes);
    return buf.subarray(0, fs.readSync(fd, buf, 0, maxBytes, 0));
  } catch {
    return null;
  } finally {
    if (fd >= 0) closeQuietly(fd);
  }
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
}

/**
 * The file opened (its `fstat`) is the one at `path` now, link not followed (`look`: statOrNullSync
 * follows it): same device and inode. A folder on the way swapped for a link between a check and the
 * open makes them differ.
 */
export function stillAt(opened: fs.Stats, path: string, look = lstatOrNullSync): boolean {
  const at = look(path);
  return at !== null && at.ino === opened.ino && at.dev === opened.dev;
}

/** The real path of `p` (every link followed), or null when it resolves to nothing (missing, a dangling link, a loop). */
export function realpathOrNullSync(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

/** The real path of `p` (links followed), or `p` itself when it cannot be resolved (it does not exist). */
export function realpathOrSelf(p: string): string {
  return realpathOrNullSync(p) ?? p;
}

/** `fs.statSync` (links followed), or null when nothing can be looked at there. */
export function statOrNullSync(path: string): fs.Stats | null {
  try {
    return fs.statSync(path);
  } catch {
    return null;
  }
}

/** `fs.lstatSync` (the link itself), or null when nothing can be looked at there. */
export function lstatOrNullSync(path: string): fs.Stats | null {
  try {
    return fs.lstatSync(path);
  } catch {
    return null;
  }
}

/** A folder stands at `path` (links followed). */
export function isDir(path: string): boolean {
  return statOrNullSync(path)?.isDirectory() ?? false;
}

export type PathKind = 'file' | 'directory' | 'other' | 'missing' | 'error';

/** Something stands at the path, links followed (a file, a folder, a pipe), not a link that resolves to nothing or nothing. */
export function standsThere(kind: PathKind): boolean {
  return kind === 'file' || kind === 'directory' || kind === 'other';
}

/** What stands at a path (following links). Never throws. Synchronous inside, as `readTextFile` is. */
export async function pathKind(path: string): Promise<PathKind> {
  try {
    const st = fs.statSync(path);
    return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException)?.code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'error';
  }
}

/** Directory entries, or [] when the directory cannot be listed. Synchronous inside, as `readTextFile` is. */
export async function listDir(path: string): Promise<string[]> {
  try {
    return fs.readdirSync(path);
  } catch {
    return [];
  }
}
