/**
 * What the real `git` binary says about a workspace. Never throws: outside a repository (or
 * without git) the answer is `null` and the checks that need it say `skipped`.
 *
 * A repository is untrusted input, and git executes what its config names: an fsmonitor hook, a
 * clean/smudge filter on `status`, a pager, an external diff, a textconv. So every run here
 *
 * - passes `-c` overrides that switch those off (`core.fsmonitor=false`, hooks to the null device,
 *   `cat` as the pager, no external diff, no signature check, no protocol at all), and empties the
 *   `clean`/`smudge`/`process` command of every filter driver the repository's own config files
 *   define, as git itself parses them (`git config --file F --list -z`, includes followed; a driver
 *   name `-c` cannot express, or a config file that is not a regular file, means git is not run);
 * - runs with a clean environment: no inherited `GIT_*` variable (no `GIT_DIR` or
 *   `GIT_CONFIG_PARAMETERS` from a caller), `GIT_OPTIONAL_LOCKS=0` so a read never takes the index
 *   lock from the agent's own git, `GIT_TERMINAL_PROMPT=0`, and a 10 s timeout.
 *
 * Everything the checks need comes from ONE `git status --porcelain=v2 --branch` run per root:
 * the branch, the HEAD commit and the changed paths. The HEAD commit's time is read from the
 * object database directly (a loose object, or a whole object in a pack); only a deltified packed
 * commit costs a second run (`git cat-file commit`).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listDir, lstatOrNullSync, readTextFile, statOrNullSync } from '../files/fsread';

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

/** Where the repository holding `dir` keeps its data: the work tree top, its git dir, and the common dir (linked worktrees). */
export interface GitDirs {
  top: string;
  gitDir: string;
  commonDir: string;
}

/** Find the repository the way git does (the nearest `.git` folder or `gitdir:` file upwards). Never throws. */
export async function findGitDirs(dir: string): Promise<GitDirs | null> {
  let d = path.resolve(dir);
  for (let depth = 0; depth < 256; depth++) {
    const dotgit = path.join(d, '.git');
    // Synchronous, as the readers' file calls are (src/core/files/fsread.ts says why).
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

/** A repository config file over this size is not handed to git (nor is git run on the repository). */
const CONFIG_MAX = 1024 * 1024;

/**
 * The filter drivers defined in the repository's config files (`[filter "x"]`, any spelling git
 * accepts), as git itself reads them: each file is parsed by `git config --file F --list -z
 * --no-includes`, and every `include.path` / `includeIf.*.path` it names (whatever the condition)
 * is followed the same way. Only a regular file is handed to git (a FIFO would block it); null when
 * a config file cannot be read that way (a FIFO, a permission error, too large, git refusing it):
 * then git is not run, since git itself would read it.
 */
export async function repoFilterDrivers(dirs: GitDirs): Promise<string[] | null> {
  const key = `${dirs.gitDir}\0${dirs.commonDir}`;
  const known = driverCache.get(key);
  if (known && known.files.every(([f, id]) => fileIdentity(f) === id)) return known.drivers;
  const names = new Set<string>();
  const seen = new Set<string>();
  const identities: Array<[string, string]> = [];
  const files = [path.join(dirs.commonDir, 'config'), path.join(dirs.gitDir, 'config.worktree')];
  if (dirs.gitDir !== dirs.commonDir) files.push(path.join(dirs.commonDir, 'config.worktree'));
  const visit = async (file: string, depth: number): Promise<boolean> => {
    if (seen.has(file) || depth > 10) return true;
    seen.add(file);
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
    // Run from the file system's root, outside the repository: started inside it, git first reads the
    // repository's own config with its includes, and an included FIFO holds it until the time limit.
    const out = await run(path.parse(file).root, ['config', '--file', file, '--no-includes', '--list', '-z'], 10_000);
    if (out === null) return false;
    for (const entry of out.split('\0')) {
      const nl = entry.indexOf('\n');
      const key = nl < 0 ? entry : entry.slice(0, nl);
      const value = nl < 0 ? null : entry.slice(nl + 1);
      const dot = key.indexOf('.');
      const last = key.lastIndexOf('.');
      if (dot < 0) continue;
      const section = key.slice(0, dot).toLowerCase();
      if (section === 'filter' && last > dot) names.add(key.slice(dot + 1, last));
      if ((section === 'include' || section === 'includeif') && key.slice(last + 1).toLowerCase() === 'path' && value) {
        const inc = value.startsWith('~/')
          ? path.join(os.homedir(), value.slice(2))
          : path.resolve(path.dirname(file), value);
        if (!(await visit(inc, depth + 1))) return false;
      }
    }
    return true;
  };
  for (const f of files) if (!(await visit(f, 0))) return null;
  const drivers = [...names];
  if (driverCache.size >= DRIVER_CACHE_MAX) driverCache.delete(driverCache.keys().next().value as string);
  driverCache.set(key, { files: identities, drivers });
  return drivers;
}

/**
 * The drivers found per repository, with the identity of every config file read for them (a missing
 * include included). A process that runs git again and again (the extension under a busy agent)
 * asks git for the config once, not before every run: the drivers depend on those files' contents
 * only (every include is followed whatever its condition), and any write to one of them, or a
 * missing include appearing, changes its identity, so the next call reads them all again.
 */
const driverCache = new Map<string, { files: Array<[string, string]>; drivers: string[] }>();
const DRIVER_CACHE_MAX = 32;

/** A file's identity for the cache: device, inode, size and both times, or "none". */
function fileIdentity(file: string): string {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return 'none';
  }
}

/** The `-c` overrides for a repository: the safe config plus every repository filter driver emptied. null: do not run git. */
function overrides(drivers: readonly string[]): string[] | null {
  const out = [...SAFE_CONFIG];
  for (const n of drivers) {
    // `-c` splits at the first `=`; a name with one (or a control character) cannot be overridden.
    if (/[=\u0000-\u001f\u007f]/.test(n)) return null;
    for (const k of ['clean', 'smudge', 'process']) out.push(`filter.${n}.${k}=`);
    // A required filter without a command is an error for git: not required, it is simply not run.
    out.push(`filter.${n}.required=false`);
  }
  return out;
}

/** The environment git runs in: the caller's, minus every `GIT_*` variable, plus ours. */
export function gitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!/^GIT_/i.test(k) || k === 'GIT_EXEC_PATH') out[k] = v;
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

function run(cwd: string, argv: string[], timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      // Loaded on the first git run: the hooks that run no git never pay for node:child_process.
      const { execFile } = require('node:child_process') as typeof import('node:child_process');
      execFile(
        'git',
        argv,
        { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, windowsHide: true, env: gitEnv() },
        (err, stdout) => resolve(err ? null : stdout),
      );
    } catch {
      resolve(null);
    }
  });
}

/** The full argv of a safe git run: overrides, `--no-optional-locks`, then `args` (diff/log also without external diff or textconv). */
export function safeArgv(drivers: readonly string[], args: string[]): string[] | null {
  const cfg = overrides(drivers);
  if (!cfg) return null;
  const extra = args[0] === 'diff' || args[0] === 'log' || args[0] === 'show' ? ['--no-ext-diff', '--no-textconv'] : [];
  return [...cfg.flatMap((c) => ['-c', c]), '--no-optional-locks', '--no-pager', args[0], ...extra, ...args.slice(1)];
}

/** Run the real `git` binary safely in `cwd` (see the top of this file); stdout, or null on any failure. Never throws. */
export async function git(cwd: string, args: string[], timeoutMs = 10_000): Promise<string | null> {
  const dirs = await findGitDirs(cwd);
  if (!dirs) return null;
  const drivers = await repoFilterDrivers(dirs);
  const argv = drivers && safeArgv(drivers, args);
  return argv ? run(cwd, argv, timeoutMs) : null;
}

const MAX_CHANGED_STAT = 500;

/**
 * Read git facts for `root`. `ignore(rel)` excludes paths (the state files themselves) from the change
 * list. `maxAgeMs` > 0 takes the status of this process's last run for `root` when it began at most
 * that long ago (a caller that knows only state files changed since).
 */
export async function readGit(
  root: string,
  ignore: (rel: string) => boolean = () => false,
  maxAgeMs = 0,
): Promise<GitInfo | null> {
  const dirs = await findGitDirs(root);
  if (!dirs) return null;
  const known = statusCache.get(root);
  if (known && maxAgeMs > 0 && Date.now() - known.at <= maxAgeMs && known.top === dirs.top)
    return gitInfoOf(root, dirs, known.drivers, known.out, ignore);
  const at = Date.now();
  const drivers = await repoFilterDrivers(dirs);
  const argv =
    drivers &&
    safeArgv(drivers, [
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
  if (!argv) return null;
  const out = await run(root, argv, 10_000);
  if (out === null) return null;
  if (statusCache.size >= STATUS_CACHE_MAX) statusCache.delete(statusCache.keys().next().value as string);
  statusCache.set(root, { at, top: dirs.top, drivers, out });
  return gitInfoOf(root, dirs, drivers, out, ignore);
}

/** The last `git status` output per root, and when its run began (for `readGit`'s `maxAgeMs`). */
const statusCache = new Map<string, { at: number; top: string; drivers: string[]; out: string }>();
const STATUS_CACHE_MAX = 16;

async function gitInfoOf(
  root: string,
  dirs: GitDirs,
  drivers: readonly string[],
  out: string,
  ignore: (rel: string) => boolean,
): Promise<GitInfo> {
  const st = parseStatusV2(out);
  const top = dirs.top;
  const changed: string[] = [];
  for (const p of st.paths) {
    // porcelain paths are relative to the repository top; make them relative to root.
    const rel = path.relative(root, path.join(top, p)).split(path.sep).join('/');
    if (!ignore(rel)) changed.push(rel);
  }
  let newest: number | null = null;
  for (const rel of changed.slice(0, MAX_CHANGED_STAT)) {
    // A deleted file carries no time.
    const s = lstatOrNullSync(path.join(root, rel));
    if (s && (newest === null || s.mtimeMs > newest)) newest = s.mtimeMs;
  }
  let headTime: number | null = null;
  if (st.head) headTime = (await commitTime(dirs, st.head)) ?? (await commitTimeByGit(root, drivers, st.head));
  return { top, branch: st.branch, head: st.head, headTime, changed, newestChangeMtime: newest };
}

/** `git status --porcelain=v2 --branch -z` output → branch, HEAD and the changed paths (relative to the top). */
export function parseStatusV2(out: string): { branch: string | null; head: string | null; paths: string[] } {
  let branch: string | null = null;
  let head: string | null = null;
  const paths: string[] = [];
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
      paths.push(field(e, 8));
    } else if (e.startsWith('2 ')) {
      paths.push(field(e, 9));
      i++; // the rename's source path follows
    } else if (e.startsWith('u ')) {
      paths.push(field(e, 10));
    } else if (e.startsWith('? ')) {
      paths.push(e.slice(2));
    }
  }
  return { branch, head, paths };
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

function committerTime(body: Buffer): number | null {
  const text = body.subarray(0, 64 * 1024).toString('utf8');
  const m = /^committer .*? (\d+) [+-]\d{4}$/m.exec(text);
  return m ? Number(m[1]) * 1000 : null;
}

const INFLATE_MAX = 1024 * 1024;

/** The committer time of `oid` read from a loose object or a non-delta packed object; null when neither applies. */
async function commitTime(dirs: GitDirs, oid: string): Promise<number | null> {
  if (!/^[0-9a-f]{40}$/.test(oid)) return null;
  const objects = path.join(dirs.commonDir, 'objects');
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

async function commitTimeByGit(root: string, drivers: readonly string[], oid: string): Promise<number | null> {
  const argv = safeArgv(drivers, ['cat-file', 'commit', oid]);
  const out = argv ? await run(root, argv, 10_000) : null;
  return out === null ? null : committerTime(Buffer.from(out));
}
