/**
 * Where the repository holding a folder keeps its data, found from the file system alone (no git
 * process), the way git's own discovery finds it: at each folder upwards a `.git` folder that is a
 * git directory or a `gitdir:` file, else the folder itself when it is a git directory (a bare
 * repository); then the common dir of a linked worktree. Synchronous inside, as the readers' file
 * calls are (src/core/files/fsread.ts says why).
 *
 * Where this and git disagree, git would read a config that was never checked before it runs
 * (./git.ts `askGit` compares afterwards), so each step reads what git reads as git reads it: the
 * `gitdir:` file and `commondir` with only their line ends taken off, a relative path joined to its
 * folder and resolved by the file system (a `..` after a link leads where the link goes). A file git
 * would open on the way that is not a regular file (a FIFO holds git until its time limit) means git
 * is not run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lstatOrNullSync, readTextFile, realpathOrNullSync, statOrNullSync } from '../files/fsread';

/** Where the repository holding `dir` keeps its data: the work tree top, its git dir, and the common dir (linked worktrees). */
export interface GitDirs {
  top: string;
  gitDir: string;
  commonDir: string;
}

/** Git is not to be run: a file its discovery opens is not a regular file (git would wait on a FIFO). */
export const REFUSED = 'refused';
/** git would stop on an error here: a `.git` file it cannot take, or a git dir or common dir that is none. */
export const INVALID = 'invalid';
type Refused = typeof REFUSED | typeof INVALID;

/**
 * The nearest repository upwards from `dir` as git finds it: where to look for the repository's
 * config before git runs in it (git's own answer is asked afterwards and must agree, ./git.ts
 * `askGit`), and where its index is. null: no repository, or git is not to be run there. The lookups
 * are cheap, so every call makes them. Never throws.
 */
export async function findGitDirs(dir: string): Promise<GitDirs | null> {
  const found = await discoverGitDirs(dir);
  return found === REFUSED || found === INVALID ? null : found;
}

/** `findGitDirs`, with REFUSED where a file on git's way is not one git can read without waiting, INVALID where git would fail. */
export async function discoverGitDirs(dir: string): Promise<GitDirs | Refused | null> {
  let d = path.resolve(dir);
  for (let depth = 0; depth < 256; depth++) {
    const dotgit = path.join(d, '.git');
    const st = statOrNullSync(dotgit);
    if (st?.isFile()) return gitFile(d, dotgit);
    if (st?.isDirectory()) {
      const g = await gitDirectory(dotgit);
      if (g === REFUSED || g === INVALID) return g;
      if (g) return { top: d, gitDir: dotgit, commonDir: g };
    }
    // Not a `.git` of a repository: the folder itself may be a git directory (git takes a bare repository).
    const bare = await gitDirectory(d);
    if (bare === REFUSED || bare === INVALID) return bare;
    if (bare) return { top: d, gitDir: d, commonDir: bare };
    const up = path.dirname(d);
    if (up === d) return null;
    d = up;
  }
  return null;
}

/** A `.git` file: `gitdir: <path>` from its first byte, the path up to its trailing CR and LF. */
async function gitFile(top: string, dotgit: string): Promise<GitDirs | Refused> {
  const f = await readTextFile(dotgit, 4096);
  if (!f.ok || !f.text.startsWith('gitdir: ')) return INVALID;
  const value = withoutLineEnds(f.text.slice('gitdir: '.length));
  // Resolved before anything is joined to it: path.join would fold a `..` after a link the other way.
  const gitDir = realpathOrNullSync(path.isAbsolute(value) ? value : `${top}${path.sep}${value}`);
  const common = gitDir === null ? null : await gitDirectory(gitDir);
  if (common === REFUSED || common === INVALID) return common;
  return gitDir === null || common === null ? INVALID : { top, gitDir, commonDir: common };
}

/**
 * git's test for a git directory: a HEAD that is a link into `refs/`, a `ref: refs/…` or an object
 * name, and `objects` and `refs` folders in its common dir. Its common dir, null when it is none.
 */
async function gitDirectory(suspect: string): Promise<string | Refused | null> {
  const head = path.join(suspect, 'HEAD');
  const st = lstatOrNullSync(head);
  if (!st) return null;
  if (st.isSymbolicLink()) {
    let target = '';
    try {
      target = fs.readlinkSync(head);
    } catch {
      return null;
    }
    if (!target.startsWith('refs/')) return null;
  } else {
    if (st.isDirectory()) return null;
    if (!st.isFile()) return REFUSED;
    const f = await readTextFile(head, 255);
    if (!f.ok) return null;
    const ref = f.text.startsWith('ref:') && /^[ \t\n\r]*refs\//.test(f.text.slice(4));
    if (!ref && !/^[0-9a-fA-F]{40}/.test(f.text)) return null;
  }
  const common = await commonDirOf(suspect);
  if (common === null || common === REFUSED || common === INVALID) return common;
  const searchable = (p: string) => {
    try {
      fs.accessSync(path.join(common, p), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  return searchable('objects') && searchable('refs') ? common : null;
}

/** A git dir's common dir: what its `commondir` file names (joined to it when relative), else the git dir. */
async function commonDirOf(gitDir: string): Promise<string | Refused | null> {
  const file = path.join(gitDir, 'commondir');
  const st = statOrNullSync(file);
  // git asks whether it is there by `stat`: a link that leads nowhere is no commondir.
  if (!st) return gitDir;
  if (st.isDirectory()) return INVALID;
  if (!st.isFile()) return REFUSED;
  const f = await readTextFile(file, 4096);
  if (!f.ok) return INVALID;
  const value = withoutLineEnds(f.text);
  return realpathOrNullSync(path.isAbsolute(value) ? value : `${gitDir}${path.sep}${value}`) ?? INVALID;
}

/** The text without the CR and LF characters at its end (git keeps every other character, spaces too). */
function withoutLineEnds(s: string): string {
  let e = s.length;
  while (e > 0 && (s[e - 1] === '\n' || s[e - 1] === '\r')) e--;
  return s.slice(0, e);
}
