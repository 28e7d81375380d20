/**
 * The files git's facts for a folder rest on (./git.ts: one `git status --porcelain=v2 --branch` run
 * gives the branch, the HEAD commit and the changed paths), so a watcher can read the folder again
 * when git's answer may have moved, and only then:
 *
 * - the git dir's `HEAD` (a checkout, a detached commit, a rebase) and `index` (a stage, a commit, a
 *   reset: the changed paths, and whether git tracks the shared checkpoint marker);
 * - the current branch's ref, where git keeps it: loose under the common dir (`refs/bisect/`,
 *   `refs/worktree/` and `refs/rewritten/` under the worktree's own git dir), and `packed-refs`; a
 *   commit moves the branch, not HEAD. A ref whose folder is not there yet (`feature/x` before its
 *   first commit) is watched at the nearest folder on its way that is, for the next part's name;
 * - a reftable repository's `reftable/tables.list` (every ref lives in its tables);
 * - where the repository is: the `.git` at each folder from the workspace folder up to the work tree's
 *   top (a `.git` file of a linked worktree or a submodule rewritten, a repository made nearer), and a
 *   linked worktree's `commondir`.
 *
 * Each watch is a folder and the names in it (git writes these files by renaming a `.lock` over them,
 * which a directory watch reports under the file's own name). The time is linear in the folders
 * between the workspace folder and the top, and in the parts of the branch's name.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isDir, lstatOrNullSync, readStart } from '../files/fsread';
import { discoverGitDirs, INVALID, REFUSED, type GitDirs } from './dirs';

/** A folder to watch (absolute) and the names in it whose change may move git's answer. */
export interface GitWatch {
  dir: string;
  names: string[];
}

/** What the watches are made from: the workspace folder, where git's discovery finds its repository (null: none), and HEAD's text. */
export interface GitLayout {
  root: string;
  dirs: GitDirs | null;
  /** HEAD as written (`ref: refs/heads/main`, or an object name), a link's target as `ref: <target>`; null when unread. */
  head: string | null;
}

/** Refs git keeps per worktree, in the worktree's own git dir; every other ref is in the common dir. */
const PER_WORKTREE = /^refs\/(?:bisect|worktree|rewritten)\//;

/** The ref HEAD names (`refs/heads/main`), or null: detached, unread, or a name with a part that leaves its folder. */
export function headRef(head: string | null): string | null {
  const m = /^ref:[ \t]*(refs\/[^\r\n]*)/.exec(head ?? '');
  const ref = m ? m[1].replace(/[ \t]+$/, '') : '';
  return ref && !ref.split('/').some((p) => p === '' || p === '.' || p === '..') ? ref : null;
}

/** The watches for `layout`; `dirExists` says whether a folder stands at an absolute path. */
export function gitWatchesOf(layout: GitLayout, dirExists: (abs: string) => boolean): GitWatch[] {
  const byDir = new Map<string, Set<string>>();
  const add = (dir: string, name: string) => {
    const names = byDir.get(dir) ?? new Set<string>();
    byDir.set(dir, names.add(name));
  };
  const root = path.resolve(layout.root);
  const dirs = layout.dirs;
  // Where git's discovery looks: a `.git` in the folder or a folder above it, up to where it found one.
  const top = dirs ? path.resolve(dirs.top) : root;
  const rel = path.relative(top, root);
  // Below the top: not `..` nor `../…` (a folder named `..cache` is below it).
  const below =
    rel && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel) ? rel.split(path.sep) : [];
  for (let d = top, i = 0; ; d = path.join(d, below[i++])) {
    add(d, '.git');
    if (i >= below.length) break;
  }
  if (!dirs) return sorted(byDir);
  const gitDir = path.resolve(dirs.gitDir);
  const commonDir = path.resolve(dirs.commonDir);
  add(gitDir, 'HEAD');
  add(gitDir, 'index');
  if (gitDir !== commonDir) add(gitDir, 'commondir');
  add(commonDir, 'packed-refs');
  for (const d of new Set([commonDir, gitDir])) {
    const reftable = path.join(d, 'reftable');
    if (dirExists(reftable)) add(reftable, 'tables.list');
  }
  const ref = headRef(layout.head);
  if (ref) {
    const parts = ref.split('/');
    let dir = PER_WORKTREE.test(ref) ? gitDir : commonDir;
    let i = 0;
    // The nearest folder on the ref's way that stands: its creation is what comes next.
    while (i < parts.length - 1 && dirExists(path.join(dir, parts[i]))) dir = path.join(dir, parts[i++]);
    add(dir, parts[i]);
  }
  return sorted(byDir);
}

function sorted(byDir: Map<string, Set<string>>): GitWatch[] {
  return [...byDir.entries()]
    .map(([dir, names]) => ({ dir, names: [...names].sort() }))
    .sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/** HEAD's text (at most its first 255 bytes, as git's discovery reads it), a link's target as `ref: <target>`; null for anything else. */
function headText(gitDir: string): string | null {
  const head = path.join(gitDir, 'HEAD');
  const st = lstatOrNullSync(head);
  if (st?.isSymbolicLink()) {
    try {
      return `ref: ${fs.readlinkSync(head)}`;
    } catch {
      return null;
    }
  }
  // Only a regular file is read (never a FIFO's open that would wait).
  return st?.isFile() ? (readStart(head, 255)?.toString('utf8') ?? null) : null;
}

/**
 * The repository holding `root` and the files git's answer for it rests on, found as git's discovery finds the repository (./dirs.ts),
 * without running git. Outside a repository, or where git is not to be run (a FIFO on its way) or
 * would fail (a `.git` file it cannot take), only the workspace folder's own `.git` is watched: its
 * coming or its change is what makes the folder a repository git answers for. Never throws.
 */
export async function gitWatches(root: string): Promise<{ dirs: GitDirs | null; watches: GitWatch[] }> {
  let dirs: GitDirs | null = null;
  try {
    const found = await discoverGitDirs(root);
    dirs = found === REFUSED || found === INVALID ? null : found;
  } catch {
    dirs = null;
  }
  return { dirs, watches: gitWatchesOf({ root, dirs, head: dirs ? headText(dirs.gitDir) : null }, isDir) };
}
