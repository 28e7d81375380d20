/**
 * Where the repository holding a folder keeps its data, found from the file system alone (no git
 * process): the nearest `.git` folder or `gitdir:` file upwards, and the common dir of a linked
 * worktree. Synchronous inside, as the readers' file calls are (src/core/files/fsread.ts says why).
 */
import * as path from 'node:path';
import { readTextFile, statOrNullSync } from '../files/fsread';

/** Where the repository holding `dir` keeps its data: the work tree top, its git dir, and the common dir (linked worktrees). */
export interface GitDirs {
  top: string;
  gitDir: string;
  commonDir: string;
}

/**
 * The nearest `.git` folder or `gitdir:` file upwards from `dir`: where to look for the repository's
 * config before git runs in it (git's own answer is asked afterwards and must agree, ./git.ts
 * `askGit`), and where its index is. The lookups are cheap, so every call makes them. Never throws.
 */
export async function findGitDirs(dir: string): Promise<GitDirs | null> {
  let d = path.resolve(dir);
  for (let depth = 0; depth < 256; depth++) {
    const dotgit = path.join(d, '.git');
    const st = statOrNullSync(dotgit);
    if (st?.isDirectory()) return { top: d, gitDir: dotgit, commonDir: await commonDirOf(dotgit) };
    if (st?.isFile()) {
      const f = await readTextFile(dotgit, 4096);
      const m = f.ok ? /^gitdir:\s*(.+?)\s*$/m.exec(f.text) : null;
      if (!m) return null;
      const gitDir = path.resolve(d, m[1]);
      return { top: d, gitDir, commonDir: await commonDirOf(gitDir) };
    }
    const up = path.dirname(d);
    if (up === d) return null;
    d = up;
  }
  return null;
}

async function commonDirOf(gitDir: string): Promise<string> {
  const f = await readTextFile(path.join(gitDir, 'commondir'), 4096);
  return f.ok && f.text.trim() ? path.resolve(gitDir, f.text.trim()) : gitDir;
}
