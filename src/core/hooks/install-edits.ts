/**
 * What `hooks install` changed in the workspace is not the session's work: its scripts, and a
 * settings file or `.gitignore` while it still holds the bytes install wrote there (the install
 * record keeps their SHA-256). The git checks leave these out of the uncommitted changes, so a
 * state file is not "older than uncommitted changes" because the hooks were just installed, and no
 * check asks the state file to mention them. Only the files install edits are looked up; a record a
 * repository planted can name no other file, and one of them counts only while its bytes are the
 * ones the record names.
 */
import * as path from 'node:path';
import { readOwnText, readRegularFile, sha256 } from '../files/fsread';
import { INSTALL_EDITED_RELS, INSTALL_RECORD_REL, isHookScriptRel } from './files';

/** The largest settings file or `.gitignore` hashed for this (a larger one counts as work). */
const EDITED_MAX_BYTES = 1024 * 1024;

/** The files under `root` (relative, with `/`) that still hold what `hooks install` wrote. Never throws. */
export async function installEdits(root: string): Promise<Set<string>> {
  const out = new Set<string>();
  const text = readOwnText(path.join(root, INSTALL_RECORD_REL), 64 * 1024);
  if (text === null) return out;
  let written: unknown;
  try {
    written = (JSON.parse(text) as { written?: unknown } | null)?.written;
  } catch {
    return out;
  }
  if (!written || typeof written !== 'object') return out;
  for (const rel of INSTALL_EDITED_RELS) {
    const hash = (written as Record<string, unknown>)[rel];
    if (typeof hash !== 'string') continue;
    const bytes = await readRegularFile(path.join(root, rel), EDITED_MAX_BYTES);
    if (bytes && sha256(bytes) === hash.toLowerCase()) out.add(rel);
  }
  return out;
}

/** `installEdits` and the hook scripts: true for a path whose change `hooks install` made. */
export async function installChanges(root: string): Promise<(rel: string) => boolean> {
  const edits = await installEdits(root);
  return (rel) => isHookScriptRel(rel) || edits.has(rel);
}
