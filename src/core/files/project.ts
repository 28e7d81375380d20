/**
 * Which folders are no project for the tool's own files: a file-system root (a payload `cwd: "/"`
 * must not create `/.claude/log/`) or the user's home folder (its `.claude/` is Claude Code's own
 * configuration). The hooks and the status line both ask here before they write.
 */
import * as path from 'node:path';
import { realpathOrSelf } from './fsread';

/** The user's home folder as `os.homedir()` gives it; `node:os` is loaded only when `$HOME` is not set (the status line runs all day). */
export function homeFolder(): string {
  const home = process.platform === 'win32' ? undefined : process.env.HOME;
  return home || (require('node:os') as typeof import('node:os')).homedir();
}

/**
 * Why the tool must not write its own files under `root`, or null when it may. Links are followed on
 * both sides: a project path that is a link to the home folder (or to `/`) is the home folder.
 */
export function notAProject(root: string, home = homeFolder()): string | null {
  const r = path.resolve(root);
  const rr = realpathOrSelf(r);
  // A file-system root is its own folder: `/`, `C:\`, `\\server\share\`.
  if (path.dirname(r) === r || path.dirname(rr) === rr) return `${r} is the root of the file system, not a project`;
  if (home && (path.resolve(home) === r || realpathOrSelf(path.resolve(home)) === rr))
    return `${r} is the home folder, not a project`;
  return null;
}
