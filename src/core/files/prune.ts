/**
 * Folders of per-session files the tool writes (session records, reminder records, the status line's
 * records of Claude Code's figure) keep only the newest few, so they do not grow with every session
 * ever run in the project.
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { listDir, lstatOrNullSync } from './fsread';

/** Per-session files kept in each such folder (the newest by modification time). */
export const SESSION_FILES_KEPT = 32;

/** A per-session record's name in a folder that holds only such records (`sessions/`, `remind/`). */
export const isRecordName = (name: string): boolean => name.endsWith('.json');

/**
 * Keep the newest `keep` regular files of `dir` whose names `matches` accepts (by modification
 * time); remove the rest. Other names, folders and links are never touched. Never throws.
 */
export async function keepNewest(
  dir: string,
  matches: (name: string) => boolean,
  keep = SESSION_FILES_KEPT,
): Promise<void> {
  const names = (await listDir(dir)).filter(matches);
  if (names.length <= keep) return;
  const withTime: Array<{ n: string; t: number }> = [];
  for (const n of names) {
    const st = lstatOrNullSync(path.join(dir, n));
    if (st?.isFile()) withTime.push({ n, t: st.mtimeMs });
  }
  withTime.sort((a, b) => b.t - a.t);
  for (const { n } of withTime.slice(keep)) {
    try {
      rmSync(path.join(dir, n), { force: true });
    } catch {
      /* removed by another run, or not ours to remove */
    }
  }
}
