/**
 * Folders held open, so that the tool's own files are created, renamed and removed in the very folder
 * that was checked, whatever its path leads to by then. Node has no openat/mkdirat/unlinkat, but on
 * Linux `/proc/self/fd/<fd>` names the folder a descriptor holds: a path through it resolves to that
 * folder itself, even when its path has since been swapped for a symbolic link. Each folder from the
 * root down is opened with O_DIRECTORY|O_NOFOLLOW through the one before it, so no link on the way is
 * ever followed, and the act (the temp file's O_EXCL create, the rename, the removal, the mkdir) names
 * its file through the last one's descriptor: there is no moment between the check and the act.
 *
 * Where `/proc/self/fd` is not there (not Linux, or /proc not mounted: asked once per process), the
 * callers check the way by path right before each act instead (a window remains).
 */
import * as fs from 'node:fs';

let viaProc: boolean | undefined;

/** Whether folders can be held by descriptor (Linux with /proc mounted): asked once per process. */
export const foldersHeld = (): boolean => (viaProc ??= process.platform === 'linux' && fs.existsSync('/proc/self/fd'));

/** Test hook: never hold folders (as where /proc is not there), or as the system allows (`undefined`). */
export function holdByPathForTest(byPath: boolean | undefined): void {
  viaProc = byPath ? false : undefined;
}

/**
 * Open `root`, then each of `parts` (plain names) in the folder before it, never following a link (the
 * root itself may be reached through links): the last one's descriptor, or null when a link or a file
 * stands on the way. `mkdir`: a missing folder is made in the folder before it. Throws the system's error
 * otherwise (ENOENT for a missing folder without `mkdir`).
 */
export function openFolders(root: string, parts: readonly string[], mkdir: boolean): number | null {
  // The first folder is opened by its path from the root (one path through /proc less: it costs the kernel
  // more than a plain one, and the status line's record takes this way on every refresh).
  let fd = openFolder(parts.length ? `${root}/${parts[0]}` : root, mkdir, !parts.length);
  for (let i = 1; fd !== null && i < parts.length; i++) {
    const before = fd;
    try {
      fd = openFolder(`/proc/self/fd/${before}/${parts[i]}`, mkdir, false);
    } finally {
      fs.closeSync(before);
    }
  }
  return fd;
}

/** O_DIRECTORY|O_NOFOLLOW: a link (ELOOP, ENOTDIR) or a file (ENOTDIR) is never opened, so a descriptor is a folder's. */
function openFolder(p: string, mkdir: boolean, follow: boolean): number | null {
  const c = fs.constants;
  try {
    return fs.openSync(p, c.O_RDONLY | c.O_DIRECTORY | (follow ? 0 : c.O_NOFOLLOW));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') return null;
    if (code !== 'ENOENT' || !mkdir) throw err;
    fs.mkdirSync(p, { recursive: true });
    return openFolder(p, false, follow);
  }
}
