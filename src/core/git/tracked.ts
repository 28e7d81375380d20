/**
 * Whether git tracks a path, read from the repository's index file itself: no git process runs (the
 * hooks start none). A file the repository tracks came with it (a clone, a checkout, a pull), so it
 * is nobody's act in this session, whatever its file time says. The index format (versions 2, 3 and
 * 4, SHA-1 or SHA-256 object names, a split index's shared part) is git's `index-format` document;
 * every entry is read once, so the time is linear in the index's size.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegularFile, readTextFile } from '../files/fsread';
import { discoverGitDirs, INVALID, REFUSED } from './dirs';

/** An index larger than this is not read (the answer is then "not known"). */
const INDEX_MAX_BYTES = 256 * 1024 * 1024;

/** The length of an object name in the repository: 32 bytes with `extensions.objectFormat = sha256`, else 20. */
async function hashBytes(commonDir: string): Promise<number> {
  const config = await readTextFile(path.join(commonDir, 'config'), 1024 * 1024);
  return config.ok && saysSha256(config.text) ? 32 : 20;
}

/** What follows the key on a line that sets the object format to SHA-256 (tried where the key ends). */
const SHA256_VALUE = /\s*=\s*"?sha256"?\s*(?:[#;].*)?$/imy;

/**
 * Whether a config line sets `objectformat = sha256`: what /^\s*objectformat\s*=\s*"?sha256"?\s*(?:[#;].*)?$/im
 * finds, in time linear in the text. That pattern's `^\s*` crosses line breaks, so it scanned every
 * run of blank lines again from each of its lines: a config of 200,000 blank lines held the PreCompact
 * guard 20 s. Here each `objectformat` is looked at once: it counts when only white space stands
 * between it and a line's start (or the text's), and the rest of the pattern follows it.
 */
export function saysSha256(text: string): boolean {
  const key = /objectformat/gi;
  for (let m = key.exec(text); m; m = key.exec(text)) {
    let i = m.index;
    while (i > 0 && /\s/.test(text[i - 1]) && !LINE_BREAKS.includes(text[i - 1])) i--;
    if (i > 0 && !LINE_BREAKS.includes(text[i - 1])) continue;
    SHA256_VALUE.lastIndex = key.lastIndex;
    if (SHA256_VALUE.test(text)) return true;
  }
  return false;
}

/** The characters after which `^` matches in a multiline pattern. */
const LINE_BREAKS = '\n\r\u2028\u2029';

/** What an index file says of one path. */
export interface IndexLookup {
  /** The entry's number in the file (0-based), or -1 when no entry has the path. */
  at: number;
  /** A sparse directory entry (`dir/`, outside the sparse cone) holds the path: git tracks it or not, unseen. */
  sparse: boolean;
  /** The shared index of a split index (its hex object name), or null. */
  shared: string | null;
  /** Where the `link` extension's delete bitmap (EWAH) begins, or -1. */
  deleted: number;
}

/** Whether an index file lists `rel` (see `indexHasEach`); null when it is no index git wrote. */
export function indexHas(buf: Buffer, hashLen: number, rel: string): IndexLookup | null {
  const l = indexHasEach(buf, hashLen, [rel]);
  return l && { ...l, at: l.at[0], sparse: l.sparse[0] };
}

/**
 * What an index file says of each of `rels` (relative to the work tree's top, `/`-separated), in one
 * read of it: `at` and `sparse` hold each path's answer in order (see IndexLookup); null when it is no
 * index git wrote. Each entry is read once, and a version-4 name is rebuilt in one buffer (cut to the
 * shared prefix, then the suffix appended), so the time is linear in the file's size (times the paths).
 */
export function indexHasEach(
  buf: Buffer,
  hashLen: number,
  rels: readonly string[],
): (Omit<IndexLookup, 'at' | 'sparse'> & { at: number[]; sparse: boolean[] }) | null {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const wants = rels.map((r) => Buffer.from(r, 'utf8'));
  const found = wants.map(() => -1);
  const sparse = wants.map(() => false);
  let at = 12;
  // Version 4: the previous entry's name, in a buffer that grows as needed.
  let name = Buffer.alloc(256);
  let len = 0;
  const fixed = 40 + hashLen + 2;
  for (let i = 0; i < count; i++) {
    if (at + fixed > buf.length) return null;
    const mode = buf.readUInt32BE(at + 24);
    const flags = buf.readUInt16BE(at + 40 + hashLen);
    const extended = version >= 3 && (flags & 0x4000) !== 0;
    const p = at + fixed + (extended ? 2 : 0);
    let start: number;
    let end: number;
    if (version === 4) {
      // The name is the previous name less its last N bytes (N a varint as git writes it), then this suffix.
      let q = p;
      let n = 0;
      let b: number;
      let first = true;
      do {
        if (q >= buf.length || n > len) return null;
        b = buf[q++];
        // Arithmetic, not a 32-bit shift: a long varint must not wrap below the name's length.
        n = first ? b & 0x7f : (n + 1) * 128 + (b & 0x7f);
        first = false;
      } while (b & 0x80);
      const stop = buf.indexOf(0, q);
      if (stop < 0 || n > len) return null;
      len -= n;
      const suffix = stop - q;
      if (len + suffix > name.length) {
        const bigger = Buffer.alloc(Math.max(name.length * 2, len + suffix));
        name.copy(bigger, 0, 0, len);
        name = bigger;
      }
      buf.copy(name, len, q, stop);
      len += suffix;
      at = stop + 1;
      start = -1;
      end = len;
    } else {
      end = buf.indexOf(0, p);
      if (end < 0) return null;
      start = p;
      // NUL padding: the entry's length (from its start) is a multiple of eight, its name NUL-terminated.
      at += (end - at + 8) & ~7;
    }
    const entry = start < 0 ? name.subarray(0, end) : buf.subarray(start, end);
    // A sparse directory entry: mode 040000, its name the folder with a final slash.
    const folder = (mode & 0o170000) === 0o040000;
    for (let w = 0; w < wants.length; w++) {
      const want = wants[w];
      if (found[w] < 0 && entry.length === want.length && entry.equals(want)) found[w] = i;
      if (folder && entry.length < want.length && want.subarray(0, entry.length).equals(entry)) sparse[w] = true;
    }
  }
  // Extensions: a 4-byte signature and a 4-byte length each; `link` names the shared index of a split
  // index, then holds the bitmap of the shared entries deleted since.
  let shared: string | null = null;
  let deleted = -1;
  while (at + 8 <= buf.length - hashLen) {
    const sig = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32BE(at + 4);
    if (sig === 'link' && size >= hashLen) {
      shared = buf.toString('hex', at + 8, at + 8 + hashLen);
      if (size > hashLen) deleted = at + 8 + hashLen;
    }
    at += 8 + size;
  }
  return { at: found, sparse, shared, deleted };
}

/**
 * Whether bit `bit` is set in the EWAH-compressed bitmap at `off` (git's ewah/ewah_io.c: a bit count,
 * a word count, 64-bit words, the last run-length word's position): each run-length word says how
 * many clean words follow (all its running bit) and how many literal words after them. null when the
 * bitmap does not fit the buffer.
 */
export function ewahHas(buf: Buffer, off: number, bit: number): boolean | null {
  if (off + 8 > buf.length) return null;
  const words = buf.readUInt32BE(off + 4);
  let w = off + 8;
  const stop = w + words * 8;
  if (stop > buf.length) return null;
  let covered = 0;
  while (w < stop) {
    const hi = buf.readUInt32BE(w);
    const lo = buf.readUInt32BE(w + 4);
    w += 8;
    const running = lo & 1;
    const runLen = (lo >>> 1) + (hi & 1) * 0x80000000;
    const literals = hi >>> 1;
    if (bit < (covered + runLen) * 64) return running === 1;
    covered += runLen;
    for (let k = 0; k < literals && w < stop; k++, w += 8, covered++) {
      if (bit < (covered + 1) * 64) {
        const b = bit - covered * 64;
        return ((b < 32 ? buf.readUInt32BE(w + 4) >>> b : buf.readUInt32BE(w) >>> (b - 32)) & 1) === 1;
      }
    }
  }
  return false;
}

/**
 * True when git's index lists `file` (an absolute path inside a repository), false when it does not
 * or there is no repository, null when the index cannot be read (too large, damaged, unreadable).
 * Never throws.
 */
export async function gitTracks(file: string): Promise<boolean | null> {
  return (await gitTracksEach([file]))[0];
}

/**
 * `gitTracks` for each of `files` (absolute paths in one folder), in order, from one read of the index
 * (and of a split index's shared part). Never throws.
 */
export async function gitTracksEach(files: readonly string[]): Promise<Array<boolean | null>> {
  const each = (v: boolean | null) => files.map(() => v);
  try {
    if (!files.length) return [];
    const repo = await discoverGitDirs(path.dirname(files[0]));
    if (repo === REFUSED || repo === INVALID) return each(null);
    if (!repo) return each(false);
    const rels = files.map((f) => path.relative(repo.top, f).split(path.sep).join('/'));
    const index = path.join(repo.gitDir, 'index');
    if (!fs.existsSync(index)) return each(false);
    const hashLen = await hashBytes(repo.commonDir);
    const buf = await readRegularFile(index, INDEX_MAX_BYTES);
    const main = buf && indexHasEach(buf, hashLen, rels);
    if (!buf || !main) return each(null);
    const split = !!main.shared && !/^0+$/.test(main.shared);
    // A split index: the entries it does not hold itself are in the shared index it names, less the
    // ones its delete bitmap marks (by their number in the shared index).
    const sharedBuf =
      split && main.at.some((a) => a < 0)
        ? await readRegularFile(path.join(repo.gitDir, `sharedindex.${main.shared}`), INDEX_MAX_BYTES)
        : null;
    const sharedIdx = sharedBuf && indexHasEach(sharedBuf, hashLen, rels);
    return rels.map((_, i) => {
      if (main.at[i] >= 0) return true;
      if (!split) return main.sparse[i] ? null : false;
      if (!sharedIdx) return null;
      if (sharedIdx.at[i] < 0) return main.sparse[i] || sharedIdx.sparse[i] ? null : false;
      if (main.deleted < 0) return true;
      const gone = ewahHas(buf, main.deleted, sharedIdx.at[i]);
      return gone === null ? null : !gone;
    });
  } catch {
    return each(null);
  }
}
