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
import { findGitDirs } from './dirs';

/** An index larger than this is not read (the answer is then "not known"). */
const INDEX_MAX_BYTES = 256 * 1024 * 1024;

/** The length of an object name in the repository: 32 bytes with `extensions.objectFormat = sha256`, else 20. */
async function hashBytes(commonDir: string): Promise<number> {
  const config = await readTextFile(path.join(commonDir, 'config'), 1024 * 1024);
  return config.ok && /^\s*objectformat\s*=\s*"?sha256"?\s*(?:[#;].*)?$/im.test(config.text) ? 32 : 20;
}

/**
 * Whether an index file lists `rel` (relative to the work tree's top, `/`-separated), and the shared
 * index it names when it is split (its hex object name); null when it is no index git wrote.
 */
export function indexHas(buf: Buffer, hashLen: number, rel: string): { found: boolean; shared: string | null } | null {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const want = Buffer.from(rel, 'utf8');
  let found = false;
  let at = 12;
  let prev: Buffer = Buffer.alloc(0);
  const fixed = 40 + hashLen + 2;
  for (let i = 0; i < count; i++) {
    if (at + fixed > buf.length) return null;
    const flags = buf.readUInt16BE(at + 40 + hashLen);
    const extended = version >= 3 && (flags & 0x4000) !== 0;
    const p = at + fixed + (extended ? 2 : 0);
    let name: Buffer;
    if (version === 4) {
      // The name is the previous name less its last N bytes (N a varint as git writes it), then this suffix.
      let q = p;
      let n = 0;
      let b: number;
      let first = true;
      do {
        if (q >= buf.length) return null;
        b = buf[q++];
        n = first ? b & 0x7f : ((n + 1) << 7) | (b & 0x7f);
        first = false;
      } while (b & 0x80);
      const end = buf.indexOf(0, q);
      if (end < 0 || n > prev.length) return null;
      name = Buffer.concat([prev.subarray(0, prev.length - n), buf.subarray(q, end)]);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, p);
      if (end < 0) return null;
      name = buf.subarray(p, end);
      // NUL padding: the entry's length (from its start) is a multiple of eight, its name NUL-terminated.
      at += (end - at + 8) & ~7;
    }
    if (!found && name.equals(want)) found = true;
    prev = name;
  }
  // Extensions: a 4-byte signature and a 4-byte length each; `link` names the shared index of a split index.
  let shared: string | null = null;
  while (at + 8 <= buf.length - hashLen) {
    const sig = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32BE(at + 4);
    if (sig === 'link' && size >= hashLen) shared = buf.toString('hex', at + 8, at + 8 + hashLen);
    at += 8 + size;
  }
  return { found, shared };
}

/**
 * True when git's index lists `file` (an absolute path inside a repository), false when it does not
 * or there is no repository, null when the index cannot be read (too large, damaged, unreadable).
 * Never throws.
 */
export async function gitTracks(file: string): Promise<boolean | null> {
  try {
    const repo = await findGitDirs(path.dirname(file));
    if (!repo) return false;
    const rel = path.relative(repo.top, file).split(path.sep).join('/');
    const index = path.join(repo.gitDir, 'index');
    if (!fs.existsSync(index)) return false;
    const hashLen = await hashBytes(repo.commonDir);
    const buf = await readRegularFile(index, INDEX_MAX_BYTES);
    const main = buf && indexHas(buf, hashLen, rel);
    if (!main) return null;
    if (main.found) return true;
    if (!main.shared || /^0+$/.test(main.shared)) return false;
    // A split index: the entries it does not hold itself are in the shared index it names.
    const sharedBuf = await readRegularFile(path.join(repo.gitDir, `sharedindex.${main.shared}`), INDEX_MAX_BYTES);
    const sharedIdx = sharedBuf && indexHas(sharedBuf, hashLen, rel);
    return sharedIdx ? sharedIdx.found : null;
  } catch {
    return null;
  }
}
