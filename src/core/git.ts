/**
 * What the real `git` binary says about a workspace. Never throws: outside a repository (or
 * without git) the answer is `null` and the checks that need it say `skipped`.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface GitInfo {
  /** Top level of the repository. */
  top: string;
  /** Current branch name, or null when HEAD is detached. */
  branch: string | null;
  /** Full HEAD commit hash, or null in a repository without commits. */
  head: string | null;
  /** Committer time of HEAD in ms, or null. */
  headTime: number | null;
  /** Paths with uncommitted changes (staged, unstaged, untracked), relative to the workspace root. */
  changed: string[];
  /** Newest modification time among changed paths that still exist (ms), or null. */
  newestChangeMtime: number | null;
}

/** Run the real `git` binary; stdout, or null on any failure. Never throws. */
export function git(cwd: string, args: string[], timeoutMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      execFile(
        'git',
        args,
        { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, windowsHide: true, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } },
        (err, stdout) => resolve(err ? null : stdout),
      );
    } catch {
      resolve(null);
    }
  });
}

const MAX_CHANGED_STAT = 500;

/** Read git facts for `root`. `ignore(rel)` excludes paths (the state files themselves) from the change list. */
export async function readGit(root: string, ignore: (rel: string) => boolean = () => false): Promise<GitInfo | null> {
  const top = (await git(root, ['rev-parse', '--show-toplevel']))?.trim();
  if (!top) return null;
  const [branchOut, headOut, status] = await Promise.all([
    git(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']),
    git(root, ['log', '-1', '--format=%H %ct']),
    git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.']),
  ]);
  const [head, ct] = (headOut ?? '').trim().split(' ');
  const changed: string[] = [];
  if (status) {
    const parts = status.split('\0');
    for (let i = 0; i < parts.length; i++) {
      const e = parts[i];
      if (e.length < 4) continue;
      const code = e.slice(0, 2);
      const p = e.slice(3);
      if (code[0] === 'R' || code[0] === 'C') i++; // the source path of a rename follows
      // porcelain paths are relative to the repository top; make them relative to root.
      const rel = path.relative(root, path.join(top, p)).split(path.sep).join('/');
      if (!ignore(rel)) changed.push(rel);
    }
  }
  let newest: number | null = null;
  for (const rel of changed.slice(0, MAX_CHANGED_STAT)) {
    try {
      const st = await fs.stat(path.join(root, rel));
      if (newest === null || st.mtimeMs > newest) newest = st.mtimeMs;
    } catch {
      /* deleted files carry no time */
    }
  }
  return {
    top,
    branch: branchOut?.trim() || null,
    head: head || null,
    headTime: ct ? Number(ct) * 1000 : null,
    changed,
    newestChangeMtime: newest,
  };
}
