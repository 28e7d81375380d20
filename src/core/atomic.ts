/**
 * Atomic writes to the user's workspace: a temp file in the same folder, fsync, rename. A write
 * that names the hash it expects refuses when the target changed since it was read.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { sha256 } from './fsread';

export class WriteRefused extends Error {
  constructor(
    message: string,
    readonly reason: 'changed' | 'exists' | 'io',
  ) {
    super(message);
  }
}

export interface AtomicWriteOptions {
  /**
   * The SHA-256 the target had when it was read: the write refuses when the file on disk now has
   * another hash. `null` means "the file must not exist"; `undefined` means no check.
   */
  expectHash?: string | null;
  /** File mode for a new file (an existing file keeps its mode). */
  mode?: number;
  /** Create missing parent folders. Default true. */
  mkdir?: boolean;
  /** Test hook: called after the temp file is written and before the rename. */
  beforeRename?: (tmp: string) => Promise<void> | void;
}

/** SHA-256 of a file's bytes now, or null when it does not exist. Throws on other errors. */
export async function currentHash(file: string): Promise<string | null> {
  try {
    return sha256(await fs.readFile(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function verify(file: string, expectHash: string | null | undefined): Promise<void> {
  if (expectHash === undefined) return;
  const now = await currentHash(file);
  if (expectHash === null && now !== null) throw new WriteRefused(`${file} already exists; refusing to overwrite it.`, 'exists');
  if (expectHash !== null && now !== expectHash) {
    throw new WriteRefused(`${file} changed since it was read; nothing was written. Re-read it and try again.`, 'changed');
  }
}

/**
 * Write `data` to `file` atomically. The old file stays intact until the rename; on any failure the
 * temp file is removed and the target is untouched.
 */
export async function writeAtomic(file: string, data: string | Buffer, opts: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  if (opts.mkdir !== false) await fs.mkdir(dir, { recursive: true });
  await verify(file, opts.expectHash);
  let mode = opts.mode ?? 0o644;
  try {
    mode = (await fs.stat(file)).mode & 0o7777;
  } catch {
    /* new file */
  }
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(tmp, 'wx', mode);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (opts.beforeRename) await opts.beforeRename(tmp);
    // Check once more right before the rename: the window for a lost update is as small as it gets.
    await verify(file, opts.expectHash);
    await fs.rename(tmp, file);
  } catch (err) {
    if (handle) await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  // Make the rename durable (best effort: not every platform can fsync a directory).
  try {
    const d = await fs.open(dir, 'r');
    await d.sync().catch(() => undefined);
    await d.close();
  } catch {
    /* ignore */
  }
}
