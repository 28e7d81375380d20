/**
 * What the real `git` binary says about a workspace. Never throws: outside a repository (or
 * without git) the answer is `null` and the checks that need it say `skipped`.
 *
 * A repository is untrusted input, and git executes what its config names: an fsmonitor hook, a
 * clean/smudge filter on `status`, a pager, an external diff, a textconv, a proxy or remote helper to
 * fetch a partial clone's missing object. What git reads is judged by git's own reading, never by a
 * parser of ours:
 *
 * - before git runs in the repository, each of its config files is parsed by git outside it (`git
 *   config --file F --no-includes --list -z`), every include followed whatever its condition, to the
 *   path git opens; a file that is not a regular file (a FIFO would hold git), or one git refuses,
 *   means git is not run; each file is parsed once however its path is spelled, and more than
 *   CONFIG_FILES_MAX files means git is not run; the repository's own `config`, which the listing
 *   below holds whole, is parsed first only when its bytes hold `include` in some case (`mayInclude`);
 * - then, at once, git says where it finds the repository (`git rev-parse`, with its own ownership
 *   check), which must be the git dir whose config was read, and lists the whole config as it reads it
 *   for that git dir (`git config --list --includes --show-origin --show-scope -z`; listing runs
 *   nothing, and a listing of a repository git's discovery refuses or places elsewhere is not used):
 *   every value from outside the user's own system and global config must come from a file read above,
 *   or git is not run;
 * - every run passes `-c` overrides that switch off what git could start (`core.fsmonitor=false`,
 *   hooks to the null device, `cat` as the pager, no external diff, no signature check, no protocol
 *   at all), empties the `clean`/`smudge`/`process` command of every filter driver the repository's
 *   config defines, and forbids every protocol any config names (`protocol.<name>.allow` outranks
 *   `protocol.allow`); a name `-c` cannot express, or more names than OVERRIDES_MAX (git's time grows
 *   with the square of its `-c` options), means git is not run;
 * - where git finds the repository is found first as git's own discovery finds it (./dirs.ts), and a
 *   FIFO at a file git's discovery or `git status` opens (HEAD, the index, packed refs, `info/exclude`
 *   …, see `readsOnlyFiles`) means git is not run: git would wait on it until its time limit;
 * - every run names the git dir and work tree git found (`--git-dir`, `--work-tree`), so it reads the
 *   config that was checked, whatever appears in the folder later;
 * - the git program is the first `git` on an absolute folder of `PATH` outside the work tree that no
 *   other user could have put there (`gitProgram`);
 * - runs with a clean environment: no inherited `GIT_*` variable (no `GIT_DIR` or
 *   `GIT_CONFIG_PARAMETERS` from a caller), `GIT_OPTIONAL_LOCKS=0` so a read never takes the index
 *   lock from the agent's own git, `GIT_TERMINAL_PROMPT=0`, and a 10 s timeout.
 *
 * Everything the checks need comes from ONE `git status --porcelain=v2 --branch` run per root:
 * the branch, the HEAD commit and the changed paths. The HEAD commit's time is read from the
 * object database directly (a loose object, or a whole object in a pack); only a deltified packed
 * commit costs a second run (`git cat-file commit`).
 */
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listDir, lstatOrNullSync, statOrNullSync } from '../files/fsread';
import { discoverGitDirs, findGitDirs, INVALID, REFUSED, type GitDirs } from './dirs';

export interface GitInfo {
  /** Top level of the repository. */
  top: string;
  /**
   * Current branch name as git has it, or null when HEAD is detached: a check that shows it masks its
   * secrets (`deploy-ghp_… (40 chars)`); the branch-head quick fix writes it as it is.
   */
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

/** Config that makes a read-only git run execute nothing the repository names. */
export const SAFE_CONFIG: readonly string[] = [
  'core.fsmonitor=false',
  'core.useBuiltinFSMonitor=false',
  `core.hooksPath=${os.devNull}`,
  'core.pager=cat',
  'core.askPass=',
  'core.sshCommand=false',
  'diff.external=',
  'log.showSignature=false',
  'credential.helper=',
  'protocol.allow=never',
  'protocol.ext.allow=never',
  'protocol.file.allow=never',
  'submodule.recurse=false',
];

/** A repository config file over this size is not handed to git (nor is git run on the repository). */
const CONFIG_MAX = 1024 * 1024;
/** More config files than this (the repository's and every one they include): git is not run. */
const CONFIG_FILES_MAX = 64;
/**
 * More filter drivers or protocols than this in the config: git is not run. Each is overridden with
 * `-c` on every run, and git's time grows with the square of the number of `-c` options.
 */
const OVERRIDES_MAX = 100;

/** A repository git runs in safely: where git itself found it, and the `-c` overrides its config calls for. */
export interface SafeRepo {
  /** The git dir and the work tree's top, as git itself found them from the folder (`git rev-parse`). */
  gitDir: string;
  workTree: string;
  /** The work tree's top as the caller spells it when it is the folder found before git ran (else `workTree`). */
  top: string;
  /** The common dir (the objects), where the config was looked for before git ran in the repository. */
  commonDir: string;
  /** Filter drivers whose commands every run empties, and protocols it forbids, by name. */
  filters: string[];
  protocols: string[];
  /** The `-c` overrides every run passes: SAFE_CONFIG, then the drivers and the protocols. */
  config: string[];
  /** The ignore and attributes files the config names (`core.excludesFile`, `core.attributesFile`), absolute. */
  named: string[];
}

/** What the repository's config files hold, as git parses each of them, and the files read (device:inode). */
interface ConfigFound {
  filters: Set<string>;
  protocols: Set<string>;
  read: Set<string>;
}

/**
 * The repository config files, before git runs in the repository: the common dir's `config` and the
 * worktree `config.worktree` files, each parsed by git itself (`git config --file F --no-includes
 * --list -z`, run outside the repository), and every `include.path` / `includeIf.<cond>.path` they
 * name followed the same way whatever its condition: a condition that fails now (another branch) may
 * hold at the next run. An include's path is the one git opens: `~/`, `~user/` and `%(prefix)/`
 * expanded by git (`--type=path`), a relative one joined to the including file's folder with nothing
 * folded away (`..` behind a symbolic link leads where the file system says). Only a regular file
 * is handed to git (a FIFO would block it): null when one cannot be read that way (a FIFO, a
 * permission error, too large, git refusing it), since git would read it too. The common dir's
 * `config` without `include` in its bytes is only looked at: git's listing (`askGit`) names what it
 * holds, and git refusing it fails that run. `identities` gets every file looked at, a missing
 * include included.
 */
async function readRepoConfig(dirs: GitDirs, identities: Array<[string, string]>): Promise<ConfigFound | GitAbsence> {
  const found: ConfigFound = { filters: new Set(), protocols: new Set(), read: new Set() };
  const files = [path.join(dirs.commonDir, 'config'), path.join(dirs.gitDir, 'config.worktree')];
  if (dirs.gitDir !== dirs.commonDir) files.push(path.join(dirs.commonDir, 'config.worktree'));
  const seen = new Set<string>();
  // What stops git when a file does: a file git refuses fails git too; anything else is ours to refuse.
  let why: GitAbsence = 'not-run';
  const visit = async (file: string, depth: number): Promise<boolean> => {
    if (seen.has(file) || depth > 10) return true;
    seen.add(file);
    if (seen.size > CONFIG_FILES_MAX) return false;
    // Taken before git reads the file: a change after this moves it, and the next call reads again.
    identities.push([file, fileIdentity(file)]);
    let st;
    try {
      st = statSync(file);
    } catch (err) {
      // A missing file is skipped by git too; anything else it could not read either.
      const code = (err as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR';
    }
    if (!st.isFile() || st.size > CONFIG_MAX) return false;
    // A file read once is not read again under another spelling (`./x`, `.//x`, a link to it): what it
    // names is known, and a file that includes itself would otherwise be read a number of times
    // exponential in the include depth.
    const id = `${st.dev}:${st.ino}`;
    if (found.read.has(id)) return true;
    found.read.add(id);
    // The repository's own config, which git reads whenever it runs there and lists whole with its
    // scope and origin (`askGit`): the filter drivers and protocols it names come from that listing,
    // so git need not parse it first unless it may include another file.
    if (depth === 0 && file === files[0]) {
      const may = mayInclude(file, st);
      if (may === null) return false;
      if (!may) return true;
    }
    // Run from the file system's root, outside the repository: started inside it, git first reads the
    // repository's own config with its includes, and an included FIFO holds it until the time limit.
    const root = path.parse(file).root;
    const out = await run(dirs.top, root, ['config', '--file', file, '--no-includes', '--list', '-z'], 10_000);
    if (out === null) {
      why = 'no-answer';
      return false;
    }
    let includes: string[] = [];
    for (const [key, value] of configEntries(out)) {
      const k = splitKey(key);
      if (k?.section === 'filter' && k.sub !== null) found.filters.add(k.sub);
      if (k?.section === 'protocol' && k.sub !== null && k.name === 'allow') found.protocols.add(k.sub);
      if (k && isInclude(k) && value) includes.push(value);
    }
    if (includes.some((v) => v.startsWith('~') || v.startsWith('%('))) {
      // git's own expansion (a value it cannot expand fails the run, as it would fail git's).
      const argv = ['config', '--file', file, '--no-includes', '--type=path', '-z'];
      const expanded = await run(dirs.top, root, [...argv, '--get-regexp', '^include(if\\..*)?\\.path$'], 10_000);
      if (expanded === null) {
        why = 'no-answer';
        return false;
      }
      includes = configEntries(expanded).map(([, v]) => v ?? '');
    }
    for (const inc of includes) {
      if (inc && !(await visit(path.isAbsolute(inc) ? inc : `${folderOf(file)}${inc}`, depth + 1))) return false;
    }
    return true;
  };
  for (const f of files) if (!(await visit(f, 0))) return why;
  return found;
}

/**
 * Whether git may find an include in the config file `file` (the regular file `st`): its bytes hold
 * `include` in some case. git takes a section name byte by byte, ASCII letters in any case, within
 * one line and without escapes, so `[include]` and `[includeIf …]` are never spelled otherwise (a
 * header git cannot take fails git's every run). True when the file cannot be read (git says why);
 * null when something else stands at the path now (a FIFO would hold git).
 */
function mayInclude(file: string, st: Stats): boolean | null {
  let fd: number | null = null;
  try {
    // Not blocking: a FIFO put there since the stat is seen as one, never waited on.
    fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
    const now = fstatSync(fd);
    if (!now.isFile() || now.dev !== st.dev || now.ino !== st.ino || now.size > CONFIG_MAX) return null;
    const bytes = Buffer.alloc(now.size + 1);
    const n = readSync(fd, bytes, 0, bytes.length, 0);
    return n !== now.size || /include/i.test(bytes.toString('latin1', 0, n));
  } catch {
    return true;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** `git config -z` output: each entry's key and value (null for a key without `=`). */
function configEntries(out: string): Array<[string, string | null]> {
  const entries: Array<[string, string | null]> = [];
  for (const entry of out.split('\0')) {
    if (!entry) continue;
    const nl = entry.indexOf('\n');
    entries.push(nl < 0 ? [entry, null] : [entry.slice(0, nl), entry.slice(nl + 1)]);
  }
  return entries;
}

/** A key as git prints it (`section.sub.name`, section and name in lower case): its parts, sub null when none. */
function splitKey(key: string): { section: string; sub: string | null; name: string } | null {
  const dot = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (dot < 0) return null;
  return { section: key.slice(0, dot), sub: last > dot ? key.slice(dot + 1, last) : null, name: key.slice(last + 1) };
}

/** The keys git includes a file by: `include.path`, and `includeIf.<condition>.path`. */
function isInclude(k: { section: string; sub: string | null; name: string }): boolean {
  return k.name === 'path' && (k.section === 'include' ? k.sub === null : k.section === 'includeif' && k.sub !== null);
}

/** The file's folder as git takes it for a relative include: everything up to its last separator. */
function folderOf(file: string): string {
  return file.slice(0, Math.max(file.lastIndexOf('/'), path.sep === '\\' ? file.lastIndexOf('\\') : -1) + 1);
}

/**
 * git's own word on the repository, once its config files are known to be safe to hand to it: where
 * it finds the repository from `cwd` (`git rev-parse --absolute-git-dir --show-toplevel`, with git's
 * own ownership check), which must be the git dir whose config was read; then the whole config as git
 * reads it there (`git config --list --includes --show-origin --show-scope -z`, includes followed
 * under the conditions that hold now). Every value from outside the user's own system and global
 * config must come from a file `readRepoConfig` read, and the filter drivers and protocols it names
 * are added to the ones found there. null: git found another repository, or read a file we did not.
 */
async function askGit(cwd: string, dirs: GitDirs, found: ConfigFound): Promise<SafeRepo | GitAbsence> {
  // The listing runs beside git's discovery, for the git dir and work tree found before git ran: it is
  // kept only when git finds the same ones, and asked again for git's own work tree when that differs
  // (`core.worktree`). Listing a config runs nothing, and every file it can include was read above.
  const [where, early] = await Promise.all([
    run(dirs.top, cwd, [...flagsOf(SAFE_CONFIG), 'rev-parse', '--absolute-git-dir', '--show-toplevel'], 10_000),
    run(dirs.top, cwd, configListingArgv(dirs.gitDir, dirs.top), 10_000),
  ]);
  const [gitDir, workTree] = (where ?? '').split('\n');
  // git failing here (another user's repository, a bare one, a damaged one) is git's own answer.
  if (!gitDir || !workTree || realOrNull(gitDir) === null) return 'no-answer';
  if (realOrNull(gitDir) !== realOrNull(dirs.gitDir)) return 'not-run';
  const listing =
    realOrNull(workTree) === realOrNull(dirs.top)
      ? early
      : await run(dirs.top, cwd, configListingArgv(gitDir, workTree), 10_000);
  if (listing === null) return 'no-answer';
  const named = namedInListing(listing, found);
  if (!named) return 'not-run';
  const { filters, protocols, files } = named;
  const config = overrides([...filters], [...protocols]);
  if (!config) return 'not-run';
  // git prints real paths; the changed paths are made relative to the caller's folder, spelled as the caller spells it.
  const top = realOrNull(dirs.top) === realOrNull(workTree) ? dirs.top : workTree;
  // git expands `~/`, and opens a relative path from the work tree's top, where it runs.
  const abs = (f: string) => (f.startsWith('~/') ? path.join(os.homedir(), f.slice(2)) : path.resolve(workTree, f));
  return {
    gitDir,
    workTree,
    top,
    commonDir: dirs.commonDir,
    filters: [...filters],
    protocols: [...protocols],
    config,
    // An empty value names no file (git reads none).
    named: files.filter((f) => f !== '').map(abs),
  };
}

/** git's whole config as it reads it for this git dir and work tree, each value with its scope and origin file. */
export function configListingArgv(gitDir: string, workTree: string): string[] {
  return [
    `--git-dir=${gitDir}`,
    `--work-tree=${workTree}`,
    'config',
    '--list',
    '--includes',
    '--show-origin',
    '--show-scope',
    '-z',
  ];
}

/**
 * The filter drivers and protocols a config listing (`git config --list --includes --show-origin
 * --show-scope -z`) names, added to those `found` holds; null when a value from outside the user's
 * own system and global config comes from a file `readRepoConfig` did not read (by device and inode).
 */
export function namedInListing(
  listing: string,
  found: Pick<ConfigFound, 'filters' | 'protocols' | 'read'>,
): { filters: Set<string>; protocols: Set<string>; files: string[] } | null {
  const filters = new Set(found.filters);
  const protocols = new Set(found.protocols);
  const files: string[] = [];
  const parts = listing.split('\0');
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const [scope, origin, entry] = [parts[i], parts[i + 1], parts[i + 2]];
    const [key, value] = [entry.split('\n', 1)[0], entry.slice(entry.indexOf('\n') + 1)];
    const k = splitKey(key);
    if (entry.includes('\n') && (key === 'core.excludesfile' || key === 'core.attributesfile')) files.push(value);
    // A protocol the user's own config allows is forbidden too: the URL it would fetch is the repository's.
    if (k?.section === 'protocol' && k.sub !== null && k.name === 'allow') protocols.add(k.sub);
    // A filter driver of the user's own config is emptied too: the files it runs on are the repository's,
    // and so may be the program it starts (`python -m nbstripout` finds the work tree's nbstripout.py first).
    if (k?.section === 'filter' && k.sub !== null) filters.add(k.sub);
    if (scope === 'system' || scope === 'global') continue;
    const file = origin.startsWith('file:') ? origin.slice(5) : '';
    const st = path.isAbsolute(file) ? statOrNullSync(file) : null;
    if (!st || !found.read.has(`${st.dev}:${st.ino}`)) return null;
  }
  return { filters, protocols, files };
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * The repository holding `cwd`, made safe to run git in (see the top of this file), or null: not a
 * repository, or git is not to be run there. The answer is kept per folder until any config file read
 * for it, or the git dir's HEAD (an `includeIf "onbranch:"`), changes.
 */
export async function safeRepo(cwd: string): Promise<SafeRepo | null> {
  const dirs = await findGitDirs(cwd);
  return dirs && safeRepoOf(cwd, dirs);
}

async function safeRepoOf(cwd: string, dirs: GitDirs): Promise<SafeRepo | null> {
  const repo = await safeRepoOrWhy(cwd, dirs);
  return typeof repo === 'string' ? null : repo;
}

/** `safeRepoOf`, or why there is none. */
async function safeRepoOrWhy(cwd: string, dirs: GitDirs): Promise<SafeRepo | GitAbsence> {
  const key = `${path.resolve(cwd)}\0${dirs.gitDir}\0${dirs.commonDir}`;
  const known = repoCache.get(key);
  if (known && known.files.every(([f, id]) => fileIdentity(f) === id)) return known.repo;
  const head = path.join(dirs.gitDir, 'HEAD');
  const identities: Array<[string, string]> = [[head, fileIdentity(head)]];
  const found = await readRepoConfig(dirs, identities);
  const repo = typeof found === 'string' ? found : await askGit(cwd, dirs, found);
  if (typeof repo === 'string') return repo;
  remember(repoCache, key, { files: identities, repo }, REPO_CACHE_MAX);
  return repo;
}

/**
 * The safe repository per folder, with the identity of every file its answer rests on. A process
 * that runs git again and again (the extension under a busy agent) asks git for the config once, not
 * before every run: any write to one of those files, a missing include appearing, or a branch switch
 * (HEAD) changes an identity, and the next call reads them all again.
 */
const repoCache = new Map<string, { files: Array<[string, string]>; repo: SafeRepo }>();

/** Put `value` at `key` in a cache of at most `max` entries: the oldest one goes first. */
function remember<V>(cache: Map<string, V>, key: string, value: V, max: number): void {
  if (cache.size >= max) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}
const REPO_CACHE_MAX = 32;

/** A file's identity for the cache: device, inode, size and both times, or "none". */
function fileIdentity(file: string): string {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return 'none';
  }
}

/**
 * The `-c` overrides for a repository: the safe config, every filter driver emptied and every protocol
 * some config names forbidden. null: a name `-c` cannot express, or more names than OVERRIDES_MAX (git is not run).
 */
function overrides(filters: readonly string[], protocols: readonly string[]): string[] | null {
  if (filters.length + protocols.length > OVERRIDES_MAX) return null;
  const out = [...SAFE_CONFIG];
  // `-c` splits at the first `=`; a name with one (or a control character) cannot be overridden.
  const inexpressible = (n: string) => /[=\u0000-\u001f\u007f]/.test(n);
  for (const n of filters) {
    if (inexpressible(n)) return null;
    for (const k of ['clean', 'smudge', 'process']) out.push(`filter.${n}.${k}=`);
    // A required filter without a command is an error for git: not required, it is simply not run.
    out.push(`filter.${n}.required=false`);
  }
  // `protocol.<name>.allow` outranks `protocol.allow` whatever the scope: each named one is forbidden itself.
  for (const n of protocols) {
    if (inexpressible(n)) return null;
    out.push(`protocol.${n}.allow=never`);
  }
  return out;
}

const flagsOf = (config: readonly string[]): string[] => config.flatMap((c) => ['-c', c]);

/**
 * The folders of `PATH` a program is looked up in: absolute ones only. A relative entry (`.`,
 * `./node_modules/.bin`, an empty one) names a folder of the workspace git runs in, where a
 * repository can commit a `git` of its own.
 */
export function absolutePath(value: string | undefined): string[] {
  return (value ?? '').split(path.delimiter).filter((d) => d !== '' && path.isAbsolute(d));
}

/**
 * The git program for the repository whose work tree is `top`: the first `git` on the absolute folders
 * of `PATH` that neither that repository nor another user could have put there, or null (git is not
 * run). A folder of the work tree is skipped, however `PATH` names it: `npm run` and `npx` put
 * `<folder>/node_modules/.bin` of the folder and of each folder above it on `PATH`, absolute, where a
 * repository can commit a `git` of its own. So is a `git` that a user other than you or root owns, or
 * that stands below such a folder, or that it or a folder above it may be written by everyone or by a
 * group that is not yours alone, without the sticky bit (the same `npm run` in a project under `/tmp`
 * names `/tmp/node_modules/.bin`, which another user can make; Debian's old `/usr/local/bin` is
 * root:staff 2775). The next folder of `PATH` is looked at instead.
 */
export function gitProgram(env: NodeJS.ProcessEnv = process.env, top?: string): string | null {
  return findGitProgram(env, top).program;
}

/** `gitProgram`'s answer, and whether a `git` on `PATH` was passed over for it (so none found is not "no git"). */
function findGitProgram(env: NodeJS.ProcessEnv, top: string | undefined): { program: string | null; passed: boolean } {
  const names = process.platform === 'win32' ? ['git.exe', 'git.cmd'] : ['git'];
  const realTop = top === undefined ? null : realOrNull(top);
  let passed = false;
  for (const dir of absolutePath(env.PATH ?? env.Path)) {
    for (const n of names) {
      const file = path.join(dir, n);
      try {
        if (statSync(file).isFile()) {
          accessSync(file, fsConstants.X_OK);
          const real = realpathSync(file);
          if (
            (realTop !== null && (within(real, realTop) || within(realpathSync(dir), realTop))) ||
            !othersCannotPlace(file) ||
            !othersCannotPlace(real)
          ) {
            passed = true;
            continue;
          }
          return { program: file, passed };
        }
      } catch {
        // not there or not executable: next
      }
    }
  }
  return { program: null, passed };
}

/** `child` is `parent` or lies below it (both real paths). */
function within(child: string, parent: string): boolean {
  const r = path.relative(parent, child);
  return r === '' || (r !== '..' && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r));
}

/**
 * No user but you and root could have put `p` there: `p` and each folder above it (as spelled, links
 * not followed) belong to you or to root, and none of them may be written by everyone, nor by its group
 * unless that group has no member but you (`groupsAlone`: a group the account files do not show to be
 * yours alone, or files that cannot be read, count as shared). A folder with the sticky bit may be
 * written: only its owner or an entry's owner can move an entry there, and an entry another user makes
 * is theirs. Always true where there are no user ids (Windows). Exported for tests, which alone name
 * other account `files` than /etc's.
 */
export function othersCannotPlace(p: string, files: AccountFiles = ACCOUNT_FILES): boolean {
  if (typeof process.getuid !== 'function') return true;
  const me = process.getuid();
  for (let cur = path.resolve(p); ; cur = path.dirname(cur)) {
    const st = lstatOrNullSync(cur);
    if (!st || (st.uid !== me && st.uid !== 0)) return false;
    if (!st.isSymbolicLink() && !(st.isDirectory() && (st.mode & 0o1000) !== 0)) {
      if ((st.mode & 0o002) !== 0) return false;
      if ((st.mode & 0o020) !== 0 && !groupsAlone(files).has(st.gid)) return false;
    }
    if (path.dirname(cur) === cur) return true;
  }
}

/** The account files a group's members are read from. */
export interface AccountFiles {
  passwd: string;
  group: string;
}

const ACCOUNT_FILES: AccountFiles = { passwd: '/etc/passwd', group: '/etc/group' };

/** `groupsAlone`'s answer per pair of account files: each pair is read at most once per process. */
const aloneCache = new Map<string, ReadonlySet<number>>();

/**
 * Your groups that have no member but you (root aside, as for an owner): your primary group or one of
 * your supplementary groups, listed in the group file, that no other user has as primary group in the
 * password file nor is listed as a member of (a member the password file does not name counts as
 * another user). With user private groups (Debian, Ubuntu, Fedora) that is your own group, so your
 * own 775 folders (`~/bin`, `~/.local/bin`) are yours alone. Empty when a file cannot be read or holds
 * a `+`/`-` line (entries from NIS): a group not in the group file (NSS, LDAP) may have any member.
 * Read only when a group-writable entry is met, once per process, in time linear in the files' size.
 */
function groupsAlone(files: AccountFiles): ReadonlySet<number> {
  const key = `${files.passwd}\0${files.group}`;
  let alone = aloneCache.get(key);
  if (!alone) {
    alone = readGroupsAlone(files);
    aloneCache.set(key, alone);
  }
  return alone;
}

function readGroupsAlone(files: AccountFiles): ReadonlySet<number> {
  const none = new Set<number>();
  if (typeof process.getuid !== 'function' || typeof process.getgid !== 'function') return none;
  const me = process.getuid();
  const mine = new Set<number>([process.getgid(), ...(process.getgroups?.() ?? [])]);
  let group: string;
  let passwd: string;
  try {
    group = readFileSync(files.group, 'utf8');
    passwd = readFileSync(files.passwd, 'utf8');
  } catch {
    return none;
  }
  const other = (uid: string) => !/^\d+$/.test(uid) || (Number(uid) !== me && Number(uid) !== 0);
  const listed = new Set<number>();
  const shared = new Set<number>();
  // Member name -> the groups of yours that list it.
  const members = new Map<string, number[]>();
  for (const line of group.split('\n')) {
    if (line.startsWith('+') || line.startsWith('-')) return none;
    const f = line.split(':');
    if (f.length < 4 || !/^\d+$/.test(f[2])) continue;
    const gid = Number(f[2]);
    if (!mine.has(gid)) continue;
    listed.add(gid);
    for (const name of f[3].split(',')) {
      const n = name.trim();
      if (n === '') continue;
      const of = members.get(n);
      if (of) of.push(gid);
      else members.set(n, [gid]);
    }
  }
  const named = new Set<string>();
  for (const line of passwd.split('\n')) {
    if (line.startsWith('+') || line.startsWith('-')) return none;
    const f = line.split(':');
    if (f.length < 4) continue;
    const gid = /^\d+$/.test(f[3]) ? Number(f[3]) : -1;
    const isOther = other(f[2]);
    if (isOther && mine.has(gid)) shared.add(gid);
    const of = members.get(f[0]);
    if (of) {
      named.add(f[0]);
      if (isOther) for (const g of of) shared.add(g);
    }
  }
  for (const [n, of] of members) if (!named.has(n)) for (const g of of) shared.add(g);
  return new Set([...listed].filter((g) => !shared.has(g)));
}

/**
 * The environment git runs in: the caller's, minus every `GIT_*` variable and every relative `PATH`
 * folder, plus ours. `GIT_EXEC_PATH` goes too: git starts its own commands from it (`git fetch` for a
 * partial clone's missing object), and without it git finds them where it was installed.
 */
export function gitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!/^GIT_/i.test(k)) out[k] = v;
  // git starts helpers by name too (a filter's program, git-lfs): never one from the work tree.
  for (const k of Object.keys(out)) if (k.toUpperCase() === 'PATH') out[k] = absolutePath(out[k]).join(path.delimiter);
  delete out.PAGER;
  delete out.SSH_ASKPASS;
  return {
    ...out,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_ASKPASS: '',
    LC_ALL: 'C',
  };
}

/** node:zlib, loaded when a commit object is first read (the hooks that read none never load it). */
const zlib = (): typeof import('node:zlib') => require('node:zlib') as typeof import('node:zlib');

/**
 * The git program this process runs for a work tree ('' when there is none; `passed` when a `git` on PATH
 * was passed over), looked up again when PATH or the work tree changes.
 */
let gitPath: { for: string | undefined; top: string; program: string; passed: boolean } | undefined;

function currentGitProgram(top: string): string {
  if (!gitPath || gitPath.for !== process.env.PATH || gitPath.top !== top) {
    const found = findGitProgram(process.env, top);
    gitPath = { for: process.env.PATH, top, program: found.program ?? '', passed: found.passed };
  }
  return gitPath.program;
}

/**
 * Run git in `cwd` for the repository whose work tree is `top` (see `gitProgram`); stdout, or null on
 * any failure (an exit code in `answers` is an answer: `check-ignore` exits 1 when no path is ignored).
 */
function run(
  top: string,
  cwd: string,
  argv: string[],
  timeoutMs: number,
  input?: Buffer,
  answers: readonly number[] = [],
): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      // Loaded on the first git run: the hooks that run no git never pay for node:child_process.
      const { execFile } = require('node:child_process') as typeof import('node:child_process');
      // By its absolute path: a bare name would also find a `git` the repository committed (a relative PATH folder).
      const program = currentGitProgram(top);
      if (!program) return resolve(null);
      const child = execFile(
        program,
        argv,
        { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, windowsHide: true, env: gitEnv() },
        (err, stdout) =>
          resolve(!err || (typeof err.code === 'number' && answers.includes(err.code) && !err.killed) ? stdout : null),
      );
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input);
    } catch {
      resolve(null);
    }
  });
}

/**
 * The full argv of a safe git run: the overrides, the git dir and work tree git itself found (named,
 * so a later run reads the config that was checked, whatever appears in the folder since),
 * `--no-optional-locks`, then `args` (diff/log/show also without external diff or textconv).
 */
function argvOf(repo: SafeRepo, args: string[]): string[] {
  const extra = args[0] === 'diff' || args[0] === 'log' || args[0] === 'show' ? ['--no-ext-diff', '--no-textconv'] : [];
  return [
    ...flagsOf(repo.config),
    `--git-dir=${repo.gitDir}`,
    `--work-tree=${repo.workTree}`,
    '--no-optional-locks',
    '--no-pager',
    args[0],
    ...extra,
    ...args.slice(1),
  ];
}

/** Run the real `git` binary safely in `cwd` (see the top of this file); stdout, or null on any failure. Never throws. */
export async function git(cwd: string, args: string[], timeoutMs = 10_000): Promise<string | null> {
  const repo = await safeRepo(cwd);
  return repo && readsOnlyFiles(repo) ? run(repo.top, cwd, argvOf(repo, args), timeoutMs) : null;
}

/**
 * The object name git would give `bytes` stored at `rel` (relative to the folder `root`, which may lie
 * below the work tree's top; git takes `--path` from the folder it runs in): its own reading of
 * line-end conversion (`core.autocrlf`, `core.eol`, the `text` and `eol` attributes) as
 * `git hash-object` applies it, which does not look at the index's copy (`git add` keeps CRLF that
 * the index already holds). The repository's own filter drivers are neutralised as in every run. Null
 * without a repository or git, when an attribute file git would read for the path is not a regular
 * file (a FIFO would hold git), or when git refuses.
 */
export async function storedBlobId(root: string, rel: string, bytes: Buffer): Promise<string | null> {
  const repo = await safeRepo(root);
  if (!repo) return null;
  const abs = path.resolve(root, rel);
  const fromTop = path.relative(repo.top, path.dirname(abs));
  if (fromTop.startsWith('..') || path.isAbsolute(fromTop)) return null;
  const folders = [repo.top];
  for (const part of fromTop ? fromTop.split(path.sep) : []) folders.push(path.join(folders[folders.length - 1], part));
  const attributeFiles = [
    ...folders.map((d) => path.join(d, '.gitattributes')),
    path.join(repo.commonDir, 'info', 'attributes'),
  ];
  if (attributeFiles.some((f) => lstatOrNullSync(f) !== null && !statOrNullSync(f)?.isFile()) || !readsOnlyFiles(repo))
    return null;
  const out = await run(repo.top, root, argvOf(repo, ['hash-object', `--path=${rel}`, '--stdin']), 10_000, bytes);
  const id = out?.trim() ?? '';
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(id) ? id : null;
}

/** The most paths one `ignoredByGit` asks about: more (a build writing a whole tree) is read as work. */
export const MAX_IGNORE_QUESTIONS = 2_000;

/**
 * Which of `rels` (paths relative to the folder `root`, `/`-separated; a folder ends with `/`) git
 * ignores, by git's own reading of every ignore file (`.gitignore` in each folder, `info/exclude`,
 * `core.excludesFile`): `git check-ignore`, in the same safe run as every other. A file git tracks is
 * never ignored, whatever a pattern says (a change to it shows in `git status`). Null when git gives
 * no answer (no repository, a config git is not run on, more than MAX_IGNORE_QUESTIONS paths).
 */
export async function ignoredByGit(root: string, rels: readonly string[]): Promise<Set<string> | null> {
  if (!rels.length) return new Set();
  if (rels.length > MAX_IGNORE_QUESTIONS || rels.some((r) => r.includes('\0'))) return null;
  const repo = await safeRepo(root);
  if (!repo || !readsOnlyFiles(repo)) return null;
  const input = Buffer.from(rels.map((r) => `${r}\0`).join(''));
  const out = await run(repo.top, root, argvOf(repo, ['check-ignore', '--stdin', '-z']), 10_000, input, [1]);
  if (out === null) return null;
  return new Set(out.split('\0').filter(Boolean));
}

const MAX_CHANGED_STAT = 500;

/**
 * Whether every file of the repository's own that `git status` or `git hash-object` opens, besides
 * its config, is a regular file or not there: the index, packed refs, the shallow and graft lists,
 * the exclude and attributes files under `info/`, the alternates list, and the ignore and attributes
 * files the config names. git reads a FIFO at one of them until its time limit; then it is not run.
 * (An ignore or attributes file of the work tree's own folders is read as git walks them.)
 */
function readsOnlyFiles(repo: SafeRepo): boolean {
  const files = [
    path.join(repo.gitDir, 'index'),
    path.join(repo.commonDir, 'packed-refs'),
    path.join(repo.commonDir, 'shallow'),
    path.join(repo.commonDir, 'info', 'exclude'),
    path.join(repo.commonDir, 'info', 'grafts'),
    path.join(repo.commonDir, 'info', 'attributes'),
    path.join(repo.commonDir, 'objects', 'info', 'alternates'),
    ...repo.named,
  ];
  // A FIFO holds git; a device other than the null device (git reading /dev/zero never ends) too. A
  // folder or a socket fails git's open or read at once.
  return files.every((f) => {
    const st = statOrNullSync(f);
    if (!st || st.isFile() || st.isDirectory() || st.isSocket()) return true;
    return !st.isFIFO() && realOrNull(f) === os.devNull;
  });
}

/** git's raw answer for a root: the safe repository, and its one `git status` output. */
export interface GitRun {
  repo: SafeRepo;
  out: string;
}

/**
 * How an evaluation reads git's facts: `run` starts git's one status run for a root (it may start
 * before the state files are read, and overlap their reading); `info` then makes the facts of it,
 * with the paths `ignore` names (the state files) left out of the change list.
 */
export interface GitReader {
  run(root: string, maxAgeMs?: number): Promise<GitRun | null>;
  info(root: string, run: GitRun, ignore: (rel: string, head: string | null) => boolean): Promise<GitInfo>;
  /** Why the last `run` for `root` gave null. */
  absence?(root: string): GitAbsence;
}

export const GIT_READER: GitReader = { run: runStatus, info: gitInfoOf, absence: gitAbsence };

/**
 * Read git facts for `root`. `ignore(rel, head)` excludes paths (the state files themselves) from the
 * change list; `head` is what HEAD holds at the path (StatusEntry). `maxAgeMs` > 0 takes the status of this process's last run for `root` when it began at most
 * that long ago (a caller that knows only state files changed since).
 */
export async function readGit(
  root: string,
  ignore: (rel: string, head: string | null) => boolean = () => false,
  maxAgeMs = 0,
): Promise<GitInfo | null> {
  const r = await runStatus(root, maxAgeMs);
  return r && gitInfoOf(root, r, ignore);
}

/** The safe repository holding `root` and its `git status` output (see `readGit`), or null. Never throws. */
async function runStatus(root: string, maxAgeMs = 0): Promise<GitRun | null> {
  const absent = (why: GitAbsence): null => {
    remember(absences, root, why, STATUS_CACHE_MAX);
    return null;
  };
  absences.delete(root);
  const dirs = await discoverGitDirs(root);
  if (dirs === REFUSED) return absent('not-run');
  if (dirs === INVALID) return absent('no-answer');
  if (!dirs) return absent('not-a-repository');
  const known = statusCache.get(root);
  if (known && maxAgeMs > 0 && Date.now() - known.at <= maxAgeMs && known.gitDir === dirs.gitDir) return known;
  const at = Date.now();
  if (!currentGitProgram(dirs.top)) return absent(gitPath?.passed ? 'git-passed-over' : 'no-git');
  const repo = await safeRepoOrWhy(root, dirs);
  if (typeof repo === 'string') return absent(repo);
  if (!readsOnlyFiles(repo)) return absent('not-run');
  const argv = argvOf(repo, [
    'status',
    '--porcelain=v2',
    '--branch',
    '--no-ahead-behind',
    '-z',
    '--untracked-files=all',
    '--ignore-submodules=dirty',
    '--',
    '.',
  ]);
  const out = await run(dirs.top, root, argv, 10_000);
  if (out === null) return absent('no-answer');
  const done = { at, gitDir: dirs.gitDir, repo, out };
  remember(statusCache, root, done, STATUS_CACHE_MAX);
  return done;
}

/**
 * Why there are no git facts for a root: it is in no repository, git is not run on its repository
 * (a file git would wait on, a config git is not run on: see the top of this file), git failed or
 * did not answer in time, there is no git program, or every `git` on PATH is one `gitProgram` passes
 * over (in the work tree, or one another user could have put there); or the folder was read in VS Code's
 * Restricted Mode, which runs no process.
 */
export type GitAbsence = 'not-a-repository' | 'not-run' | 'no-answer' | 'no-git' | 'git-passed-over' | 'restricted';

/** Why the last `runStatus` for a root gave no run (none when it gave one). */
const absences = new Map<string, GitAbsence>();

/** Why the last git status run for `root` gave no facts ('not-a-repository' when none was asked for). */
export function gitAbsence(root: string): GitAbsence {
  return absences.get(root) ?? 'not-a-repository';
}

/** The last `git status` output per root, and when its run began (for `readGit`'s `maxAgeMs`). */
const statusCache = new Map<string, { at: number; gitDir: string; repo: SafeRepo; out: string }>();
const STATUS_CACHE_MAX = 16;

async function gitInfoOf(
  root: string,
  { repo, out }: GitRun,
  ignore: (rel: string, head: string | null) => boolean,
): Promise<GitInfo> {
  const st = parseStatusV2(out);
  const top = repo.top;
  const changed: string[] = [];
  for (const e of st.entries) {
    // porcelain paths are relative to the repository top; make them relative to root.
    const rel = path.relative(root, path.join(top, e.path)).split(path.sep).join('/');
    if (!ignore(rel, e.head)) changed.push(rel);
  }
  let newest: number | null = null;
  for (const rel of changed.slice(0, MAX_CHANGED_STAT)) {
    // A deleted file carries no time.
    const s = lstatOrNullSync(path.join(root, rel));
    if (s && (newest === null || s.mtimeMs > newest)) newest = s.mtimeMs;
  }
  let headTime: number | null = null;
  if (st.head) headTime = (await commitTime(repo.commonDir, st.head)) ?? (await commitTimeByGit(root, repo, st.head));
  return { top, branch: st.branch, head: st.head, headTime, changed, newestChangeMtime: newest };
}

/**
 * A changed path (relative to the top) and the object name of what HEAD holds there (`hH`), null when
 * HEAD holds nothing at that path (untracked, added, a rename's new name, a conflict).
 */
export interface StatusEntry {
  path: string;
  head: string | null;
}

/**
 * `git status --porcelain=v2 --branch -z` output → branch, HEAD and the changed paths (relative to
 * the top). A rename or copy counts both its names: the old one changed too.
 */
export function parseStatusV2(out: string): {
  branch: string | null;
  head: string | null;
  paths: string[];
  entries: StatusEntry[];
} {
  let branch: string | null = null;
  let head: string | null = null;
  const entries: StatusEntry[] = [];
  const headOf = (e: string): string | null => {
    const h = e.split(' ', 8)[6] ?? '';
    return /^[0-9a-f]{40,64}$/.test(h) && !/^0+$/.test(h) ? h : null;
  };
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const e = parts[i];
    if (e.startsWith('# branch.oid ')) {
      const v = e.slice('# branch.oid '.length);
      head = /^[0-9a-f]{40,64}$/.test(v) ? v : null;
    } else if (e.startsWith('# branch.head ')) {
      const v = e.slice('# branch.head '.length);
      branch = v === '(detached)' ? null : v;
    } else if (e.startsWith('1 ')) {
      entries.push({ path: field(e, 8), head: headOf(e) });
    } else if (e.startsWith('2 ')) {
      entries.push({ path: field(e, 9), head: null });
      // The rename's source path follows: HEAD holds it.
      i++;
      if (parts[i]) entries.push({ path: parts[i], head: headOf(e) });
    } else if (e.startsWith('u ')) {
      entries.push({ path: field(e, 10), head: null });
    } else if (e.startsWith('? ')) {
      entries.push({ path: e.slice(2), head: null });
    }
  }
  return { branch, head, paths: entries.map((x) => x.path), entries };
}

/** The text after the n-th space (the path, which may itself hold spaces). */
function field(e: string, n: number): string {
  let at = 0;
  for (let k = 0; k < n; k++) {
    at = e.indexOf(' ', at) + 1;
    if (at === 0) return '';
  }
  return e.slice(at);
}

// ---------------------------------------------------------------------------------------------
// The HEAD commit's time, from the object database

/** The latest time a JavaScript date holds (ms): a commit dated past it has no time to compare. */
const MAX_DATE_MS = 8.64e15;

/** The committer time of a commit object's body, or null (none, or one no date can hold: a crafted commit). */
function committerTime(body: Buffer): number | null {
  const text = body.subarray(0, 64 * 1024).toString('utf8');
  const m = /^committer .*? (\d+) [+-]\d{4}$/m.exec(text);
  const ms = m ? Number(m[1]) * 1000 : NaN;
  return Number.isFinite(ms) && ms <= MAX_DATE_MS ? ms : null;
}

const INFLATE_MAX = 1024 * 1024;

/** The committer time of `oid` read from a loose object or a non-delta packed object; null when neither applies. */
async function commitTime(commonDir: string, oid: string): Promise<number | null> {
  if (!/^[0-9a-f]{40}$/.test(oid)) return null;
  const objects = path.join(commonDir, 'objects');
  try {
    const loose = path.join(objects, oid.slice(0, 2), oid.slice(2));
    // Synchronous, as every read of a small file here (src/core/files/fsread.ts says why); fs.promises
    // would also load Node's stream and readline modules.
    const st = lstatOrNullSync(loose);
    if (st?.isFile() && st.size < INFLATE_MAX) {
      const raw = zlib().inflateSync(readFileSync(loose), { maxOutputLength: INFLATE_MAX });
      const nul = raw.indexOf(0);
      if (nul > 0 && raw.subarray(0, 7).toString('latin1') === 'commit ') return committerTime(raw.subarray(nul + 1));
      return null;
    }
    const packDir = path.join(objects, 'pack');
    for (const name of await listDir(packDir)) {
      if (!name.endsWith('.idx')) continue;
      const off = await idxOffset(path.join(packDir, name), Buffer.from(oid, 'hex'));
      if (off === null) continue;
      return await packedCommitTime(path.join(packDir, `${name.slice(0, -4)}.pack`), off);
    }
  } catch {
    /* fall back to git */
  }
  return null;
}

/** The pack offset of `sha` in a version-2 pack index, by binary search (a few small reads). */
async function idxOffset(idx: string, sha: Buffer): Promise<number | null> {
  const st = lstatOrNullSync(idx);
  if (!st?.isFile()) return null;
  const fd = openSync(idx, 'r');
  try {
    const read = (pos: number, len: number) => {
      const b = Buffer.alloc(len);
      if (readSync(fd, b, 0, len, pos) !== len) throw new Error('short read');
      return b;
    };
    const head = read(0, 8 + 256 * 4);
    if (head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2) return null;
    const fan = (i: number) => head.readUInt32BE(8 + i * 4);
    const n = fan(255);
    let lo = sha[0] === 0 ? 0 : fan(sha[0] - 1);
    let hi = fan(sha[0]);
    const shaAt = 8 + 1024;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = Buffer.compare(read(shaAt + mid * 20, 20), sha);
      if (c === 0) {
        const offAt = shaAt + n * 20 + n * 4;
        const o = read(offAt + mid * 4, 4).readUInt32BE(0);
        if (!(o & 0x80000000)) return o;
        const big = read(offAt + n * 4 + (o & 0x7fffffff) * 8, 8);
        return Number(big.readBigUInt64BE(0));
      }
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The committer time of the commit stored whole at `offset` in a pack; null for a delta. */
async function packedCommitTime(pack: string, offset: number): Promise<number | null> {
  const fd = openSync(pack, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const bytesRead = readSync(fd, buf, 0, buf.length, offset);
    let i = 0;
    let c = buf[i++];
    const type = (c >> 4) & 7;
    while (c & 0x80 && i < bytesRead) c = buf[i++];
    if (type !== 1) return null; // 1 = commit; 6/7 are deltas
    const body = zlib().inflateSync(buf.subarray(i, bytesRead), {
      maxOutputLength: INFLATE_MAX,
      finishFlush: 2 /* Z_SYNC_FLUSH: the buffer may hold more than this object */,
    });
    return committerTime(body);
  } finally {
    closeSync(fd);
  }
}

async function commitTimeByGit(root: string, repo: SafeRepo, oid: string): Promise<number | null> {
  const out = await run(repo.top, root, argvOf(repo, ['cat-file', 'commit', oid]), 10_000);
  return out === null ? null : committerTime(Buffer.from(out));
}
