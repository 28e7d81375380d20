/**
 * Folders of per-session files the tool writes (session records, reminder records, the status line's
 * records of Claude Code's figure) keep only the newest few, so they do not grow with every session
 * ever run in the project.
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { holdOwnFolder, letGo, ownFileLinkProblem, type OwnFolder } from './atomic';
import { listDir, lstatOrNullSync } from './fsread';

/** Per-session files kept in each such folder (the newest by modification time). */
export const SESSION_FILES_KEPT = 32;

/** A per-session record's name in a folder that holds only such records (`sessions/`, `remind/`). */
export const isRecordName = (name: string): boolean => name.endsWith('.json');

/** What git's index says of each of a folder's files, in order (`gitTracksEach`: true, false, or null for not known). */
export type TracksEach = (files: readonly string[]) => Promise<Array<boolean | null>>;

/**
 * Keep the newest `keep` regular files of `dir` (a folder of the tool's own files under `root`) whose
 * names `matches` accepts (by modification time); remove the rest. Other names, folders and links are
 * never touched, and nothing is removed through a link: each file is removed in the folder held open
 * from the root down (holdOwnFolder), so a folder on the way swapped for a link since removes nothing
 * where the link leads (where folders cannot be held, each file is checked right before its removal).
 * A file git tracks came with the repository (a commit of someone's): it is the user's, neither
 * counted nor removed. `tracks` (git's index, read, no git process) is asked only when there is
 * something to remove; when the index cannot be read, nothing is removed. Never throws.
 */
export async function keepNewest(
  dir: string,
  root: string,
  matches: (name: string) => boolean,
  tracks: TracksEach,
  keep = SESSION_FILES_KEPT,
): Promise<void> {
  if (ownFileLinkProblem(dir, root)) return;
  const names = (await listDir(dir)).filter(matches);
  if (names.length <= keep) return;
  const withTime: Array<{ n: string; t: number; links: number }> = [];
  for (const n of names) {
    const st = lstatOrNullSync(path.join(dir, n));
    if (st?.isFile()) withTime.push({ n, t: st.mtimeMs, links: st.nlink });
  }
  if (withTime.length <= keep) return;
  const tracked = await tracks(withTime.map((f) => path.join(dir, f.n))).catch(() => [null]);
  if (tracked.length !== withTime.length || tracked.includes(null)) return;
  const ours = withTime.filter((_, i) => tracked[i] === false).sort((a, b) => b.t - a.t);
  const one = ours.find((f) => f.links === 1);
  if (!one || ours.length <= keep) return;
  let own: OwnFolder;
  try {
    // The folder of its files, held by way of one of them (a file of one name, as an own file is).
    own = holdOwnFolder(path.join(dir, one.n), root, false);
  } catch {
    return;
  }
  try {
    for (const { n } of ours.slice(keep)) {
      if (own.fd === null && ownFileLinkProblem(path.join(dir, n), root)) continue;
      try {
        rmSync(`${own.dir}/${n}`, { force: true });
      } catch {
        /* removed by another run, or not ours to remove */
      }
    }
  } finally {
    letGo(own);
  }
}
