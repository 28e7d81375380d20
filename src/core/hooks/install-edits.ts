/**
 * What `hooks install` changed in the workspace is not the session's work. The git checks leave
 * these out of the uncommitted changes, so a state file is not "older than uncommitted changes"
 * because the hooks were just installed, and no check asks the state file to mention them:
 * - a hook script install wrote, while it holds the bytes install wrote (the install record keeps
 *   their SHA-256);
 * - a settings file or `.gitignore` install wrote, while it holds the bytes install wrote and git's
 *   HEAD holds there what stood there before install (nothing, when install created it): an edit of
 *   the user's that install merged in, made before or after, is still work.
 * Only the files install writes are looked up; a record a repository planted can name no other file,
 * and one of them counts only while its bytes are the ones the record names.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readStart, sha256 } from '../files/fsread';
import { readOwnText } from '../files/atomic';
import { INSTALL_EDITED_RELS, INSTALL_RECORD_REL, INSTALLED_SCRIPTS } from './files';

/** What install wrote to a settings file or `.gitignore`: the bytes' SHA-256, and git's object names of what stood there before. */
export interface WrittenEntry {
  sha256: string;
  /**
   * The blob names git may hold for the file as it was before install: those of its very bytes (SHA-1
   * and SHA-256 repositories) and the one git itself gives it stored at its path (line ends
   * converted where git's settings say so), before each install of a row of them made with nothing
   * between (one commits the other's output).
   */
  before: string[];
  /** There was no file before one of those installs: HEAD holding nothing there is install's too. */
  absentBefore: boolean;
}

/** The largest file hashed for this (a larger one counts as work, or as changed for the guard). */
export const HASHED_MAX_BYTES = 16 * 1024 * 1024;

/** git's object names of a blob holding exactly `bytes`, in a SHA-1 and in a SHA-256 repository. */
function gitBlobIds(bytes: Buffer): string[] {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const head = Buffer.from(`blob ${bytes.length}\0`, 'latin1');
  return ['sha1', 'sha256'].map((alg) => createHash(alg).update(head).update(bytes).digest('hex'));
}

/**
 * The record's entry for a file install is about to write: `before` what stands there now (null:
 * nothing), its bytes and the blob name git itself gives them at the file's path (`stored`, null: no
 * repository, or git did not say); `after` what install writes; `was` the record's entry for it from
 * an earlier install. When the file still holds that install's bytes, what stood there before it
 * counts too (whether or not that install's output was committed since).
 */
export function writtenEntry(
  before: { bytes: Buffer; stored: string | null } | null,
  after: string,
  was?: Partial<WrittenEntry>,
): WrittenEntry {
  const chained = !!before && !!was && typeof was.sha256 === 'string' && sha256(before.bytes) === was.sha256;
  const earlier = chained && Array.isArray(was.before) ? was.before.filter((x) => typeof x === 'string') : [];
  const now = before ? [...gitBlobIds(before.bytes), ...(before.stored ? [before.stored] : [])] : [];
  return {
    sha256: sha256(after),
    before: [...new Set([...earlier, ...now])],
    absentBefore: !before || (chained && was.absentBefore === true),
  };
}

/**
 * SHA-256 of a regular file's bytes as they are now: null when it is no regular file, is larger than
 * HASHED_MAX_BYTES, cannot be read, or changed size while it was read.
 */
export function fileHash(abs: string): string | null {
  const st = hashable(abs);
  return st && hashOf(abs, st);
}

function hashable(abs: string): fs.Stats | null {
  try {
    const st = fs.statSync(abs);
    return st.isFile() && st.size <= HASHED_MAX_BYTES ? st : null;
  } catch {
    return null;
  }
}

function hashOf(abs: string, st: fs.Stats): string | null {
  const bytes = readStart(abs, st.size + 1);
  return bytes && bytes.length === st.size ? sha256(bytes) : null;
}

/**
 * `fileHash` of an installed hook script, kept per identity (device, inode, size, both times): the
 * scripts are 1.5 MB and the extension asks on every scan. Only for them: on a file system whose
 * times have whole seconds, a file rewritten at its size within the second keeps its identity, and
 * a kept hash would hide the edit.
 */
const scriptHashes = new Map<string, string | null>();
function scriptHash(abs: string): string | null {
  const st = hashable(abs);
  if (!st) return null;
  const id = `${abs}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  if (!scriptHashes.has(id)) {
    if (scriptHashes.size > 64) scriptHashes.clear();
    scriptHashes.set(id, hashOf(abs, st));
  }
  return scriptHashes.get(id) ?? null;
}

/**
 * Whether a changed path's change is install's (see the top of this file): `rel` relative to the
 * root, `head` what git's HEAD holds there (null: nothing). Never throws.
 */
export async function installChanges(root: string): Promise<(rel: string, head: string | null) => boolean> {
  const text = readOwnText(path.join(root, INSTALL_RECORD_REL), root, 64 * 1024);
  let rec: Record<string, unknown> = {};
  try {
    const v = text === null ? null : (JSON.parse(text) as unknown);
    if (v && typeof v === 'object' && !Array.isArray(v)) rec = v as Record<string, unknown>;
  } catch {
    /* no record: nothing is install's */
  }
  const written = rec.written && typeof rec.written === 'object' ? (rec.written as Record<string, unknown>) : {};
  return (rel, head) => {
    try {
      const script = INSTALLED_SCRIPTS.find(([r]) => r === rel);
      if (script) {
        const want = rec[script[1]];
        return typeof want === 'string' && scriptHash(path.join(root, rel)) === want.toLowerCase();
      }
      if (!INSTALL_EDITED_RELS.includes(rel)) return false;
      const w = written[rel] as Partial<WrittenEntry> | undefined;
      if (!w || typeof w.sha256 !== 'string' || fileHash(path.join(root, rel)) !== w.sha256.toLowerCase()) return false;
      // HEAD must hold what stood there before install: otherwise the user's own change is in the file too.
      if (head === null) return w.absentBefore === true;
      return Array.isArray(w.before) && w.before.includes(head);
    } catch {
      return false;
    }
  };
}
