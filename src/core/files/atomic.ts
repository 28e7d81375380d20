/**
 * Atomic writes to the user's workspace: a temp file in the same folder, fsync, rename. A write
 * that names the hash it expects refuses when the target changed since it was read.
 *
 * Symbolic links are written through: a link (`settings.json -> ../shared/settings.json`) stays a
 * link and its target gets the new bytes. With `root`, the real target (every link on the way
 * followed, the file's folders included) must lie inside the real root, or nothing is written: a
 * `.claude` that links out of the workspace is refused for writes.
 *
 * The tool's own files (`own`: the hook log, session records, the hook script, markers, the S1
 * sidecar, the status line's records, the install record) are never written through a link: a
 * symbolic link at the file or at any folder between the root and it, or a file with more than one
 * hard link, refuses the write (WriteRefused 'link') before anything is written or created. On Linux
 * their folder is held open from the root down (holdOwnFolder, ./dirfd), and the temp file's create,
 * the rename and a removal name the file through it: a folder swapped for a link after the check
 * changes nothing of what they touch.
 *
 * The file calls are synchronous, as the readers' are (src/core/files/fsread.ts says why): a write is a
 * handful of small calls, and the status line writes its record on every refresh without loading
 * `fs.promises` (and with it Node's stream modules).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { foldersHeld, openFolders } from './dirfd';
import { closeQuietly, lstatOrNullSync, readRegularFile, sha256, statOrNullSync, stillAt } from './fsread';
import { protectedWriteTarget } from './protected';

/**
 * A write that was refused, nothing written. `message` is English (the CLI prints it); `reason`,
 * `file` and `detail` let the extension say the same in the user's language.
 */
export class WriteRefused extends Error {
  constructor(
    message: string,
    readonly reason: 'changed' | 'exists' | 'io' | 'outside' | 'link' | 'busy',
    /** The file it is about: relative to the workspace root when the writer knows the root. */
    readonly file = '',
    /** Finer than `reason` where the sentence differs: changed since the preview, missing, not a regular file… */
    readonly detail?:
      | 'preview'
      | 'missing'
      | 'not-file'
      | 'unreadable'
      | 'links'
      | 'hard-links'
      | 'protected'
      | 'invalid'
      | 'invalid-written'
      | 'same-file'
      | 'too-large'
      | 'not-folder'
      | 'tracked',
    /** For a lock refusal ('busy', or 'tracked'): the lock file, relative like `file`. */
    readonly lock?: string,
  ) {
    super(message);
  }
}

export interface AtomicWriteOptions {
  /**
   * The SHA-256 the target had when it was read: the write refuses when the file on disk now has
   * another hash. `null` means "the file must not exist"; `undefined` means no check.
   */
  expectHash?: string | null;
  /** File mode for a new file (an existing file keeps its mode). */
  mode?: number;
  /**
   * The file's mode whatever the umask and whatever mode the file had: set on the temp file's
   * descriptor before the rename, so it is never set through a link at the path.
   */
  exactMode?: number;
  /** Create missing parent folders. Default true. */
  mkdir?: boolean;
  /** Test hook: called after the temp file is written and before the rename. */
  beforeRename?: (tmp: string) => Promise<void> | void;
  /** The workspace root: the real target must lie inside it (links followed), else WriteRefused('outside'). */
  root?: string;
  /**
   * false: no fsync of the file and its folder, for a cache the next run rewrites (the status line's
   * record of Claude Code's figure, written on every refresh): the rename still makes it atomic.
   */
  durable?: boolean;
  /**
   * One of the tool's own files (needs `root`): refused (WriteRefused 'link') when the file or a
   * folder between the root and it is a symbolic link, or the file has more than one hard link.
   */
  own?: boolean;
  /**
   * Refuse (WriteRefused 'link', detail 'hard-links') when the target is a file with more than one
   * hard link: its other name may stand anywhere on the disk, so writing it would change a file
   * outside the workspace. For the user files a write action edits by design (a state file, a log
   * archive); an own file refuses hard links anyway.
   */
  refuseHardLinks?: boolean;
}

/**
 * Why `file` cannot be written as one of the tool's own files under `root`, in English, or null when
 * it can: a symbolic link at the file or at a folder between the root and it (the root itself may
 * be reached through links), or a file with more than one hard link (writing it would change, or
 * show, what another path holds). Outside the root counts too.
 */
export function ownFileLinkProblem(file: string, root: string): string | null {
  return ownFileWalk(file, root).problem;
}

/**
 * One of the tool's own small files under `root` as it was written, read as it is written: never through
 * a link. Null, as if it were absent, for a symbolic link at the file or at a folder between the root
 * and it (a repository can plant one, and what it leads to is no record of the tool's), a file with
 * more than one hard link, anything but a regular file, one larger than `maxBytes`, or one that cannot
 * be read. The folders are looked at first (`ownFileWalk`: one `lstat` each, no more than the write
 * that follows a changed figure makes), then the file is opened without following a link at its name.
 * Synchronous: the status line reads its record this way on every refresh.
 */
export function readOwnFile(file: string, root: string, maxBytes: number): { text: string; mtime: number } | null {
  if (ownFileWalk(file, root).problem !== null) return null;
  let fd = -1;
  try {
    // O_NOFOLLOW: a link at the name fails the open; O_NONBLOCK: a FIFO there does not wait for a writer.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1 || st.size > maxBytes) return null;
    const buf = Buffer.allocUnsafe(st.size);
    const n = fs.readSync(fd, buf, 0, st.size, 0);
    return { text: buf.toString('utf8', 0, n), mtime: st.mtimeMs };
  } catch {
    return null;
  } finally {
    if (fd >= 0) closeQuietly(fd);
  }
}

/** The text of one of the tool's own small files (`readOwnFile`), or null. */
export function readOwnText(file: string, root: string, maxBytes: number): string | null {
  return readOwnFile(file, root, maxBytes)?.text ?? null;
}

/**
 * `ownFileLinkProblem`'s walk from the root to `file`, one `lstat` a step: the problem, and whether
 * every folder on the way exists (a write then needs no `mkdir`).
 */
function ownFileWalk(file: string, root: string): { problem: string | null; folders: boolean; notFolder?: string } {
  const absRoot = path.resolve(root);
  const rel = path.relative(absRoot, path.resolve(file));
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
    return { problem: `${file} is not inside ${absRoot}`, folders: false };
  const parts = rel.split(path.sep);
  // `rel` is normalised and inside the root, so its parts are plain names: each path on the way is the one
  // before it, a separator and the name, as path.join would give it without normalising the whole path
  // again at every step (in a process that has just started that is tens of thousands of instructions a
  // step, and the status line's record walks three paths a write). The root ends with a separator only
  // when it is the file system's root.
  let p = absRoot.endsWith(path.sep) ? absRoot.slice(0, -1) : absRoot;
  for (let i = 0; i < parts.length; i++) {
    p = `${p}${path.sep}${parts[i]}`;
    const st = lstatOrNullSync(p);
    const last = i === parts.length - 1;
    if (!st) return { problem: null, folders: last };
    const shown = parts.slice(0, i + 1).join('/');
    if (st.isSymbolicLink())
      return {
        problem: last
          ? `${shown} is a symbolic link`
          : `${shown} (a folder on the way to ${parts.join('/')}) is a symbolic link`,
        folders: false,
      };
    if (last && st.isFile() && st.nlink > 1) return { problem: `${shown} has ${st.nlink} hard links`, folders: true };
    if (!last && !st.isDirectory()) return { problem: null, folders: false, notFolder: shown };
  }
  return { problem: null, folders: true };
}

/**
 * A root-relative path (one a marker names, a home a configuration sets), normalised with `/`, when it
 * stays inside the root; else null.
 */
export function insideRel(rel: string): string | null {
  // A backslash separates folders only on Windows: elsewhere it is a character of a file's name.
  const p = path.posix.normalize(path.sep === '\\' ? rel.replace(/\\/g, '/') : rel);
  return p === '' || p === '.' || path.posix.isAbsolute(p) || p === '..' || p.startsWith('../') ? null : p;
}

/** `p` as messages and records name it: relative to `root`, with `/` ('' for the root itself). */
export function rootRel(root: string, p: string): string {
  return path.relative(path.resolve(root), path.resolve(p)).split(path.sep).join('/');
}

/**
 * `p` as a message names it: relative to `root`, with `/`, when it lies inside the root (as every message
 * names a file of the workspace); a path outside the root, or any path when there is no root, as given.
 */
export function messagePath(root: string | undefined, p: string): string {
  if (root === undefined) return p;
  const rel = path.relative(path.resolve(root), path.resolve(p));
  return rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)
    ? p
    : rel.split(path.sep).join('/');
}

/**
 * Throw WriteRefused('link') when `file` cannot be written as one of the tool's own files (see
 * ownFileLinkProblem); else whether every folder on its way exists.
 */
export function refuseOwnFileLink(file: string, root: string): boolean {
  const { problem: why, folders, notFolder } = ownFileWalk(file, root);
  // The file's name relative to the root is worked out for a refusal only: a write that goes ahead (the
  // status line's record, three times a write) does not normalise its whole path once more for nothing.
  // A file where one of its folders should be: nothing can be written below it (not the system's ENOTDIR).
  if (notFolder)
    throw new WriteRefused(
      `${notFolder} is not a folder, and ${rootRel(root, file)} goes in it; nothing was written. Move it away and run it again.`,
      'io',
      notFolder,
      'not-folder',
    );
  if (why) {
    throw new WriteRefused(
      `${why}: Session Ledger never writes its own files through a link; nothing was written. Remove the link and run it again.`,
      'link',
      rootRel(root, file),
    );
  }
  return folders;
}

/**
 * An own file's folder held open (holdOwnFolder): `dir` names it, `/proc/self/fd/<fd>` where folders
 * can be held (./dirfd), else its path; `fd`, null where it is its path.
 */
export interface OwnFolder {
  dir: string;
  fd: number | null;
}

/**
 * The folder of `file`, one of the tool's own files under `root`, held open from the root down: what is
 * created, renamed or removed in it as `${dir}/<name>` lands in the very folder checked, never where a
 * link swapped in since leads. Refused as refuseOwnFileLink refuses (a link at the file or on its way,
 * a file with a second hard link, a file where a folder should be). `mkdir`: missing folders are made
 * there; without it, a missing one throws ENOENT. Where folders cannot be held (./dirfd), the way is
 * walked by path and the folder is its path: its callers check again right before each act. Let it go
 * with letGo.
 */
export function holdOwnFolder(file: string, root: string, mkdir: boolean): OwnFolder {
  const dir = path.dirname(path.resolve(file));
  if (!foldersHeld()) {
    refuseOwnFileLink(file, root);
    if (mkdir) fs.mkdirSync(dir, { recursive: true });
    else fs.statSync(dir);
    return { dir, fd: null };
  }
  const absRoot = path.resolve(root);
  const rel = path.relative(absRoot, dir);
  const fd =
    rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)
      ? null
      : openFolders(absRoot, rel ? rel.split(path.sep) : [], mkdir);
  if (fd !== null && !linked(lstatOrNullSync(file))) return { dir: `/proc/self/fd/${fd}`, fd };
  if (fd !== null) fs.closeSync(fd);
  // The walk by path says what stands in the way, in the words every refusal of an own file uses.
  refuseOwnFileLink(file, root);
  throw folderChanged(file, root);
}

/** Close an own file's held folder. */
export const letGo = (own: OwnFolder): void => (own.fd === null ? undefined : fs.closeSync(own.fd));

/** The refusal of an own file whose folder changed between two looks at it (swapped for a link and back). */
function folderChanged(file: string, root: string): WriteRefused {
  const rel = rootRel(root, file);
  return new WriteRefused(`${rel}: its folder changed while it was written; nothing was written.`, 'link', rel);
}

/** A link, or a file with a second hard link: never one of the tool's own files (see ownFileLinkProblem). */
const linked = (st: fs.Stats | null): boolean => !!st && (st.isSymbolicLink() || (st.isFile() && st.nlink > 1));

/**
 * Throw as refuseOwnFileLink does when `file` is a link or a file with a second hard link, or a link is
 * on its way; held, when its folder no longer stands where its path leads (moved away, a link put in
 * its place): what is written refuses rather than land in a folder its name no longer leads to.
 */
export function refuseOwnFolderMoved(own: OwnFolder, file: string, root: string): void {
  // Held, two looks by path instead of one a folder on the way: the folder its path leads to now (links
  // followed) is the one held, and the file itself is no link.
  const st =
    own.fd !== null && stillAt(fs.fstatSync(own.fd), path.dirname(file), statOrNullSync)
      ? lstatOrNullSync(file)
      : undefined;
  if (st !== undefined && !linked(st)) return;
  refuseOwnFileLink(file, root);
  if (own.fd !== null) throw folderChanged(file, root);
}

/**
 * Remove `file` (or an empty folder, `folder`), one of the tool's own under `root`, in its held folder
 * (holdOwnFolder: never where a link on its way leads; refused as a write is). Nothing there: nothing done.
 */
export function removeOwn(file: string, root: string, folder = false): void {
  let own: OwnFolder | undefined;
  try {
    own = holdOwnFolder(file, root, false);
    refuseOwnFolderMoved(own, file, root);
    (folder ? fs.rmdirSync : fs.unlinkSync)(`${own.dir}/${path.basename(file)}`);
  } catch (err) {
    // A folder is removed only when empty, and quietly.
    if (!folder && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  } finally {
    if (own) letGo(own);
  }
}

/** The refusal of a write to `shown`, a file with `links` hard links (see AtomicWriteOptions.refuseHardLinks). */
export function hardLinkRefused(shown: string, links: number, rel = shown): WriteRefused {
  return new WriteRefused(
    `${shown} has ${links} hard links, so it may be a file from outside the workspace folder: Session Ledger does not change it; nothing was written. If it belongs to this workspace, replace it with a copy of its own and run it again.`,
    'link',
    rel,
    'hard-links',
  );
}

/** Throw hardLinkRefused when `file` is a regular file with more than one hard link. */
function refuseHardLinked(file: string, shown: string, rel: string): void {
  const st = lstatOrNullSync(file);
  if (st?.isFile() && st.nlink > 1) throw hardLinkRefused(shown, st.nlink, rel);
}

/**
 * SHA-256 of a file's bytes now, or null when it does not exist. Throws on other errors, and
 * (WriteRefused) on anything but a regular file: a FIFO is never opened.
 */
export async function currentHash(file: string, rel = file): Promise<string | null> {
  let st;
  try {
    st = fs.statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  // The message names the file as the caller does (relative to the workspace when it gives `rel`).
  const shown = rel === file ? file : rel.split(path.sep).join('/');
  if (!st.isFile())
    throw new WriteRefused(`${shown} is not a regular file; nothing was written.`, 'io', rel, 'not-file');
  const bytes = await readRegularFile(file, Number.MAX_SAFE_INTEGER);
  if (!bytes) throw new WriteRefused(`${shown} cannot be read; nothing was written.`, 'io', rel, 'unreadable');
  return sha256(bytes);
}

/** True when `child` is `parent` or lies below it (both absolute, already real). */
export function isInside(child: string, parent: string): boolean {
  const r = path.relative(parent, child);
  return r === '' || (!r.startsWith(`..${path.sep}`) && r !== '..' && !path.isAbsolute(r));
}

/** The real path `file` stands for: existing links followed, a missing tail appended to its real parent. */
export function realTargetSync(file: string, hops = 0): string {
  try {
    return fs.realpathSync.native(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const st = lstatOrNullSync(file);
  if (st?.isSymbolicLink()) {
    if (hops > 40)
      throw new WriteRefused(`${file}: too many symbolic links; nothing was written.`, 'io', file, 'links');
    return realTargetSync(path.resolve(path.dirname(file), fs.readlinkSync(file)), hops + 1);
  }
  const parent = path.dirname(file);
  if (parent === file) return file;
  return path.join(realTargetSync(parent, hops), path.basename(file));
}

/**
 * Where a write of `file` really lands. Refused (WriteRefused 'outside') when that is outside `root`;
 * refused (WriteRefused 'link', detail 'protected') when a link inside the workspace leads to git's
 * own files or to a file the tool never writes through a link (./protected).
 */
export async function writeTarget(file: string, root?: string): Promise<string> {
  const real = realTargetSync(path.resolve(file));
  if (root !== undefined) {
    const realRoot = realTargetSync(path.resolve(root));
    const rel = path.relative(root, file);
    if (!isInside(real, realRoot)) {
      throw new WriteRefused(
        `${messagePath(root, file)} leads outside the workspace (to ${real}); nothing was written.`,
        'outside',
        rel,
      );
    }
    const realRel = path.relative(realRoot, real);
    // A write that names the file itself keeps that file's own rule; one a link led elsewhere is asked where it landed.
    const why =
      realRel === path.relative(path.resolve(root), path.resolve(file)) ? null : protectedWriteTarget(realRel);
    if (why) {
      const shown = realRel.split(path.sep).join('/');
      throw new WriteRefused(
        `${rel.split(path.sep).join('/')} is a link to ${shown} (${why}): Session Ledger never writes there through another name; nothing was written. Remove the link and run it again.`,
        'link',
        rel,
        'protected',
      );
    }
  }
  return real;
}

/**
 * Throw WriteRefused('outside') when `file` leads outside `root` (a link on its way), before it is
 * read for a write. Other trouble (a link loop, a file where a folder should be) is left for the
 * read to report.
 */
export async function refuseOutside(file: string, root: string): Promise<void> {
  try {
    await writeTarget(file, root);
  } catch (err) {
    if (err instanceof WriteRefused) throw err;
  }
}

/**
 * Something other than a regular file (a folder, a FIFO) where a write would replace one: refused, as a
 * dry run says it too. `shown`: the file relative to the workspace, with `/`.
 */
export function notAFile(shown: string): WriteRefused {
  return new WriteRefused(`${shown} is not a regular file; nothing was written.`, 'io', shown, 'not-file');
}

/**
 * The refusal of a write whose file changed since the action read it: `shown` names the file in the
 * English message (the command line's, whose next step is the command run again), `rel` in `file`.
 */
export function changedSinceRead(shown: string, rel = shown): WriteRefused {
  return new WriteRefused(`${shown} changed since it was read; nothing was written. Run it again.`, 'changed', rel);
}

/** `shown` names the file in the English message, `rel` in WriteRefused's `file`. Returns the file's stat (null: none). */
async function verify(
  file: string,
  expectHash: string | null | undefined,
  shown: string,
  rel: string,
): Promise<fs.Stats | null> {
  // The target must be a regular file (or missing) to be replaced, whatever hash is expected of it.
  const st = statOrNullSync(file);
  if (st && !st.isFile()) throw notAFile(rel.split(path.sep).join('/'));
  if (expectHash === undefined) return st;
  const now = await currentHash(file, rel);
  if (expectHash === null && now !== null)
    throw new WriteRefused(`${shown} already exists; nothing was overwritten. Run it again.`, 'exists', rel);
  if (expectHash !== null && now !== expectHash.toLowerCase()) {
    // The command line prints this English: its next step is the command run again, as every write
    // action's own refusals say (the extension words its own next step from the reason).
    throw changedSinceRead(shown, rel);
  }
  return st;
}

/** A process with this pid exists (another user's counts too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove this tool's temp files for `file` left by a writer that was killed before its rename
 * (`.<name>.<pid>.<hex>.tmp` whose process is gone). Best effort, never throws.
 */
export async function removeStaleTemps(file: string, at = path.dirname(file)): Promise<string[]> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return removed;
  }
  for (const n of names) {
    if (!n.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(n.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
    // Looked at and removed in `at`, an own file's held folder.
    if (!lstatOrNullSync(`${at}/${n}`)?.isFile()) continue;
    rmQuietly(`${at}/${n}`);
    removed.push(path.join(dir, n));
  }
  return removed;
}

/**
 * Write `data` to `file` atomically. The old file stays intact until the rename; on any failure the
 * temp file is removed and the target is untouched. `created`: there was no file before.
 */
export async function writeAtomic(
  target: string,
  data: string | Buffer,
  opts: AtomicWriteOptions = {},
): Promise<{ created: boolean }> {
  if (opts.own) {
    if (opts.root === undefined) throw new Error('writeAtomic: an own file needs its root');
    return writeOwnFile(target, data, { ...opts, root: opts.root });
  }
  const file = await writeTarget(target, opts.root);
  const rel = opts.root ? path.relative(opts.root, target) : target;
  const refuse = () => {
    if (opts.refuseHardLinks) refuseHardLinked(file, messagePath(opts.root, target), rel);
  };
  refuse();
  if (opts.mkdir !== false) fs.mkdirSync(path.dirname(file), { recursive: true });
  return writeIn(file, path.dirname(file), null, target, data, opts, refuse);
}

/**
 * writeAtomic of one of the tool's own files (`own`): its temp file is created, renamed and removed in
 * its folder held open from the root down (holdOwnFolder), never through a link.
 */
export async function writeOwnFile(
  target: string,
  data: string | Buffer,
  opts: Omit<AtomicWriteOptions, 'own' | 'refuseHardLinks'> & { root: string },
): Promise<{ created: boolean }> {
  const own = holdOwnFolder(target, opts.root, opts.mkdir !== false);
  try {
    // A link planted since the first check is refused too (the rename itself never follows a link at the
    // file), and so is a held folder no longer where its path leads.
    return await writeIn(path.resolve(target), own.dir, own, target, data, opts, () =>
      refuseOwnFolderMoved(own, target, opts.root),
    );
  } finally {
    letGo(own);
  }
}

/**
 * writeAtomic's write of `file` through `at`, its folder (an own file's held folder: `own`); `refuse`
 * runs right before the rename.
 */
async function writeIn(
  file: string,
  at: string,
  own: OwnFolder | null,
  target: string,
  data: string | Buffer,
  opts: AtomicWriteOptions,
  refuse: () => void,
): Promise<{ created: boolean }> {
  const rel = opts.root ? path.relative(opts.root, target) : target;
  // The English messages name the file relative to the workspace, as every other message does.
  const shown = messagePath(opts.root, target);
  // What is read (the hash it must have, the mode it keeps) goes by the file's path.
  const before = await verify(file, opts.expectHash, shown, rel);
  let mode = opts.exactMode ?? opts.mode ?? 0o644;
  if (before && opts.exactMode === undefined) mode = before.mode & 0o7777;
  await removeStaleTemps(file, at);
  const tmp = `${at}/.${path.basename(file)}.${process.pid}.${Math.floor(Math.random() * 0x100000000)
    .toString(16)
    .padStart(8, '0')}.tmp`;
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'wx', mode);
    // Where folders cannot be held, an own file's folders are walked again once its temp file is open: one
    // swapped for a link since the first walk would have put the temp file elsewhere, and nothing is written into it.
    if (own?.fd === null) {
      refuseOwnFileLink(tmp, opts.root!);
      if (!stillAt(fs.fstatSync(fd), tmp)) throw folderChanged(target, opts.root!);
    }
    // A file that was there keeps its mode, whatever the umask takes off at the open (a new one gets the umask's),
    // and an exact mode is exact: set on the descriptor, never by the path (a link planted there would be followed).
    if (before || opts.exactMode !== undefined) fs.fchmodSync(fd, mode);
    fs.writeFileSync(fd, data);
    if (opts.durable !== false) fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    if (opts.beforeRename) await opts.beforeRename(tmp);
    // Check once more right before the rename: the window for a lost update is as small as it gets.
    await verify(file, opts.expectHash, shown, rel);
    refuse();
    fs.renameSync(tmp, `${at}/${path.basename(file)}`);
  } catch (err) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        /* already failed: the temp file goes below */
      }
    }
    rmQuietly(tmp);
    throw err;
  }
  const done = { created: before === null };
  // Make the rename durable (best effort: not every platform can fsync a directory).
  if (opts.durable === false) return done;
  try {
    const d = fs.openSync(at, 'r');
    try {
      fs.fsyncSync(d);
    } finally {
      fs.closeSync(d);
    }
  } catch {
    /* ignore */
  }
  return done;
}

function rmQuietly(p: string): void {
  try {
    fs.rmSync(p, { force: true });
  } catch {
    /* a temp file that cannot be removed is left for the next write's clean-up */
  }
}
