/**
 * This user's own cache folder under the temporary folder (`session-ledger-<uid>`, mode 0700, owned
 * by this user), for data a process may keep for the next one: the compaction counts of transcripts
 * (JSON, checked field by field when read). No code is kept there or run from there. What is kept
 * there is an optimisation only: every failure to read or write it is ignored.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The folder, or null when it cannot be made or another user could write to it. */
export function userCacheDir(): string | null {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : null;
    const dir = path.join(os.tmpdir(), `session-ledger-${uid ?? 'user'}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || (uid !== null && (st.uid !== uid || (st.mode & 0o077) !== 0))) return null;
    return dir;
  } catch {
    return null;
  }
}

/** A small file of the cache folder as text, or null (missing, unreadable, or over 64 KB). */
export function readCacheText(file: string): string | null {
  try {
    const st = fs.statSync(file);
    return st.isFile() && st.size <= 64 * 1024 ? fs.readFileSync(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/** Write `data` to `file` through a temp file and a rename; false on any failure (nothing is left behind). */
export function writeCacheFile(file: string, data: string | Buffer): boolean {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    // 'wx': a file (or link) already at the temp name is never written through.
    fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
    return true;
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* an optimisation only */
    }
    return false;
  }
}

/** A short stable key for a string (two 32-bit FNV-1a hashes), for a cache file's name; no crypto to load. */
export function cacheKey(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 + 2) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * Drop what old transcripts and older builds left in the cache folder: a transcript's compaction
 * count not written for 30 days (the next reader counts again), and the decompressed core and code
 * cache (`core-*`) that builds before the one-file hook script kept there (nothing reads them now).
 * Called when a new count file is written, so rarely; failures are ignored.
 */
export function pruneCache(dir: string, now = Date.now()): number {
  let removed = 0;
  try {
    for (const name of fs.readdirSync(dir)) {
      const age = name.startsWith('core-') ? 0 : name.startsWith('compactions-') ? 30 * 86_400_000 : -1;
      if (age < 0) continue;
      const file = path.join(dir, name);
      try {
        const st = fs.lstatSync(file);
        if (st.isFile() && now - st.mtimeMs >= age) {
          fs.rmSync(file, { force: true });
          removed++;
        }
      } catch {
        /* an optimisation only */
      }
    }
  } catch {
    /* an optimisation only */
  }
  return removed;
}
