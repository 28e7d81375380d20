/**
 * Folders of per-session files the tool writes (session records, reminder records, the status line's
 * records of Claude Code's figure) keep only the newest few, so they do not grow with every session
 * ever run in the project.
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { ownFileLinkProblem } from './atomic';
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
 * never touched, and nothing is removed through a link: each file is checked right before its removal
 * (a folder on the way from `root` that became a link since the record was written removes nothing).
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
  const withTime: Array<{ file: string; t: number }> = [];
  for (const n of names) {
    const file = path.join(dir, n);
    const st = lstatOrNullSync(file);
    if (st?.isFile()) withTime.push({ file, t: st.mtimeMs });
  }
  if (withTime.length <= keep) return;
  const tracked = await tracks(withTime.map((f) => f.file)).catch(() => [null]);
  if (tracked.length !== withTime.length || tracked.includes(null)) return;
  const ours = withTime.filter((_, i) => tracked[i] === false).sort((a, b) => b.t - a.t);
  for (const { file } of ours.slice(keep)) {
    if (ownFileLinkProblem(file, root)) continue;
    try {
      rmSync(file, { force: true });
    } catch {
      /* removed by another run, or not ours to remove */
    }
  }
}
