/** Test helpers: real temp workspaces, real git, the shared corpus, the CLI in process and as a process. */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  lstatSync,
  lutimesSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  existsSync,
  rmSync,
  type Stats,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { evaluate, type EvaluateOptions } from '../../src/core/report/evaluate';
import type { ContextUsage, SystemReport } from '../../src/core/model/model';
import { format } from '../../src/core/model/messages';
import type { ChecklistStrings } from '../../src/protocol/checklist';

/** The repository root (tests run from out/test/unit). */
export const REPO = path.resolve(__dirname, '..', '..', '..');
/**
 * The corpus kept in the repository (`test/corpus/`, INDEX.tsv in the external corpus's columns): files
 * written for this project in the shapes real ones take, so every corpus test runs on a fresh clone.
 */
export const OWN_CORPUS = path.join(REPO, 'test', 'corpus');
const externalDir = process.env.SESSION_LEDGER_CORPUS ?? path.resolve(REPO, '..', 'shared', 'corpus');
if (process.env.SESSION_LEDGER_CORPUS && !existsSync(externalDir))
  throw new Error(`SESSION_LEDGER_CORPUS names ${externalDir}, which does not exist`);
/**
 * The full external corpus of real files (`../shared/corpus` beside the repository, or
 * SESSION_LEDGER_CORPUS), or null when this checkout has none. Its files stay outside the repository
 * (third-party text); the tests of them are an extra that runs when it is there.
 */
export const EXTERNAL_CORPUS: string | null = existsSync(externalDir) ? externalDir : null;
/** Every corpus a generic corpus test runs over: the in-repo one always, the external one when present. */
export const CORPORA: ReadonlyArray<{ name: string; dir: string }> = [
  { name: 'in-repo corpus', dir: OWN_CORPUS },
  ...(EXTERNAL_CORPUS ? [{ name: 'external corpus', dir: EXTERNAL_CORPUS }] : []),
];
/**
 * `test` for a test of one external corpus file: registered only when the external corpus is here
 * (an extra, not a skip; each has an in-repo sibling). scripts/test.mjs says when the extra did not run.
 */
export const externalTest: typeof test = EXTERNAL_CORPUS ? test : ((() => undefined) as unknown as typeof test);
export const CLI = path.join(REPO, 'dist', 'cli.js');
/** The hook script build that `hooks install` copies to `.claude/hooks/session-ledger.cjs`. */
export const HOOK_SCRIPT = path.join(REPO, 'dist', 'session-ledger.cjs');
/** The status line's own script (the hook script without its core), which the installed relay runs. */
export const STATUSLINE_SCRIPT = path.join(REPO, 'dist', 'session-ledger-statusline.cjs');
export const FIXTURES = path.join(REPO, 'test', 'fixtures');

/** Every file under `dir`, at any depth (a link is followed, as statSync follows it). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** vscode.l10n.t in English: the template filled (a placeholder without its argument stays as written). */
export function enT(m: string, ...args: Array<string | number | boolean>): string {
  return format(m, args.map(String));
}

/** vscode.l10n.t with the extension's Japanese bundle; a string the bundle lacks stays English, so a test sees it. */
export function jaT(m: string, ...args: Array<string | number | boolean>): string {
  jaBundle ??= JSON.parse(readFileSync(path.join(REPO, 'l10n/bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
  return format(jaBundle[m] ?? m, args.map(String));
}
let jaBundle: Record<string, string> | undefined;

/** vscode.l10n.t with the extension's Korean bundle; a string the bundle lacks stays English, so a test sees it. */
export function koT(m: string, ...args: Array<string | number | boolean>): string {
  koBundle ??= JSON.parse(readFileSync(path.join(REPO, 'l10n/bundle.l10n.ko.json'), 'utf8')) as Record<string, string>;
  return format(koBundle[m] ?? m, args.map(String));
}
let koBundle: Record<string, string> | undefined;

/** A locale as a process sees it: LANG alone (LC_ALL and LC_MESSAGES set empty, which counts as unset). */
export const locale = (lang: string): NodeJS.ProcessEnv => ({ LC_ALL: '', LC_MESSAGES: '', LANG: lang });

/** The locales the tool speaks besides English: the locale, its words (the bundle's), a character of its script. */
export const LOCALE_LANGS = [
  ['ja_JP.UTF-8', jaT, /[\u3040-\u30ff\u4e00-\u9fff]/],
  ['ko_KR.UTF-8', koT, /[\uac00-\ud7af]/],
] as const;

/** `s` as a regular expression that matches it literally. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Run `fn` with `onOpen` told the path of each `fs.openSync` first (the module the product opens files
 * through; every call is passed on as it is), and put back after.
 */
export async function whileOpening<T>(onOpen: (file: string) => void, fn: () => Promise<T>): Promise<T> {
  const nodeFs = require('node:fs') as typeof import('node:fs');
  const open = nodeFs.openSync;
  nodeFs.openSync = ((file: import('node:fs').PathLike, ...rest: unknown[]) => {
    onOpen(String(file));
    return (open as (...a: unknown[]) => number)(file, ...rest);
  }) as typeof open;
  try {
    return await fn();
  } finally {
    nodeFs.openSync = open;
  }
}

/** The calls that create, rename or remove a file or folder, as the product makes them (node:fs and node:fs/promises). */
const ACTS = {
  sync: ['mkdirSync', 'renameSync', 'unlinkSync', 'rmSync', 'rmdirSync'],
  promises: ['mkdir', 'rename', 'unlink', 'rm', 'rmdir'],
} as const;

/**
 * Run `fn` with `onAct` told the path (the first argument) and the name of each call that creates,
 * renames or removes something (`fs.mkdirSync`, `fs.promises.rm`…) right before the call is made (each
 * is passed on as it is), and put back after: the moment between a check and the act it guards.
 */
export async function whileActing<T>(onAct: (file: string, call: string) => void, fn: () => Promise<T>): Promise<T> {
  const nodeFs = require('node:fs') as Record<string, unknown> & { promises: Record<string, unknown> };
  const put: Array<() => void> = [];
  for (const [where, names] of [
    [nodeFs, ACTS.sync],
    [nodeFs.promises, ACTS.promises],
  ] as const) {
    for (const name of names) {
      const real = where[name] as (...a: unknown[]) => unknown;
      where[name] = (...args: unknown[]) => {
        onAct(String(args[0]), name);
        return real(...args);
      };
      put.push(() => (where[name] = real));
    }
  }
  try {
    return await fn();
  } finally {
    for (const p of put) p();
  }
}

/** mulberry32: a tiny, good-enough seeded PRNG (the same inputs on every run). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** CPU time of this process (ms), not wall time: time the scheduler gives to other processes on a busy machine is not counted. */
function cpuMs(f: () => void): number {
  const t0 = process.cpuUsage();
  f();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1e3;
}

/**
 * Linear time: `f` on `small` and on `big` (4x the size), in CPU time, after a warm-up on `small`; a
 * quadratic step takes ~16x, a linear one ~4x. The bound (10x, the small run counted as at least
 * 10 ms so cache effects on fast inputs do not count) leaves room for a busy machine, which can stall
 * one measurement. `small` is the best of three (a stalled small run would let a slow big one pass);
 * `big` is measured once per attempt (a stalled big run only costs another attempt, and a quadratic
 * step is slow on every one of three). No absolute timing.
 */
export function assertLinear(name: string, f: (input: string) => unknown, small: string, big: string): void {
  f(small);
  let seen = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const a = Math.max(
      10,
      Math.min(
        cpuMs(() => f(small)),
        cpuMs(() => f(small)),
        cpuMs(() => f(small)),
      ),
    );
    const b = cpuMs(() => f(big));
    seen += ` ${a.toFixed(1)}/${b.toFixed(1)} ms`;
    if (b / a < 10) return;
  }
  assert.fail(`${name}: ${small.length} vs ${big.length} chars took${seen} (ratio over 10 on every attempt)`);
}

/** `assertLinear` for an async `f` (the CPU time of this process while it runs). */
export async function assertLinearAsync<T>(
  name: string,
  f: (input: T) => Promise<unknown>,
  small: T,
  big: T,
  size: (input: T) => number,
): Promise<void> {
  const cpuOf = async (input: T) => {
    const t0 = process.cpuUsage();
    await f(input);
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / 1e3;
  };
  await f(small);
  let seen = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const a = Math.max(10, Math.min(await cpuOf(small), await cpuOf(small), await cpuOf(small)));
    const b = await cpuOf(big);
    seen += ` ${a.toFixed(1)}/${b.toFixed(1)} ms`;
    if (b / a < 10) return;
  }
  assert.fail(`${name}: ${size(small)} vs ${size(big)} chars took${seen} (ratio over 10 on every attempt)`);
}

/**
 * A builtin method counted while `workOf` runs: the object that holds it, its name, and what one call adds
 * to the count (from the call's `this`, arguments and result).
 */
export type Counted = readonly [
  holder: object,
  name: string,
  units: (self: never, args: never[], out: never) => number,
];

/**
 * The work the `counted` builtins do while `f` runs: each is replaced by one that calls it and counts, and
 * put back after. The builtins themselves run; counted, not timed, so the same on a busy machine.
 */
export function workOf(counted: readonly Counted[], f: () => unknown): number {
  const holders = counted.map(
    ([o, k]) => [o as Record<string, unknown>, k, (o as Record<string, unknown>)[k]] as const,
  );
  let n = 0;
  counted.forEach(([, , units], i) => {
    const [o, k, real] = holders[i];
    o[k] = function (this: unknown, ...a: unknown[]) {
      const out = (real as (...x: unknown[]) => unknown).apply(this, a);
      n += (units as (self: unknown, args: unknown[], out: unknown) => number)(this, a, out);
      return out;
    };
  });
  try {
    f();
  } finally {
    for (const [o, k, real] of holders) o[k] = real;
  }
  return n;
}

/**
 * The characters the string builtins go through: a `split` its whole string, a `slice` or `substring` what it
 * returns, an `indexOf` from where it starts to what it finds (or the end), a `charCodeAt` one. Not a regular
 * expression's `exec`: once `RegExp.prototype` is written to, every regular expression of the process takes
 * the engine's slow path, also after it is put back (a later test of zero-width spaces then took 9 times as
 * long as its text without them). A line counted again from the text's start for each value
 * (`text.slice(0, i).split('\n')`, a loop of `indexOf` or of `charCodeAt`), or the text split again for each,
 * counts the text once per value.
 */
const STRING_WORK: readonly Counted[] = [
  [String.prototype, 'split', (self: string) => self.length],
  [String.prototype, 'slice', (_: string, __: unknown[], out: string) => out.length],
  [String.prototype, 'substring', (_: string, __: unknown[], out: string) => out.length],
  [
    String.prototype,
    'indexOf',
    (self: string, a: unknown[], at: number) => (at < 0 ? self.length : at) - Math.max(0, (a[1] as number) ?? 0),
  ],
  [String.prototype, 'charCodeAt', () => 1],
];

/**
 * The string builtins' work (`STRING_WORK`) per value at n and 4n values: about the same when the work is linear in the text, where
 * going through the text before each value again is 4 times as much.
 */
export function assertLinearStringWork(
  name: string,
  f: (text: string) => unknown,
  make: (n: number) => string,
  n: number,
): void {
  const [small, big] = [make(n), make(4 * n)];
  f(small);
  const a = workOf(STRING_WORK, () => f(small)) / n;
  const b = workOf(STRING_WORK, () => f(big)) / (4 * n);
  assert.ok(b <= a * 1.25 + 1, `${name}: ${a.toFixed(1)} and ${b.toFixed(1)} characters gone through per value`);
}

const made: string[] = [];
process.on('exit', () => {
  if (process.env.KEEP_TMP) return;
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh temp folder holding `files` (relative path → content). */
export function workspace(files: Record<string, string | Buffer> = {}, prefix = 'sl-ws-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) write(dir, rel, content);
  return dir;
}

export function write(dir: string, rel: string, content: string | Buffer): string {
  const abs = path.join(dir, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  return abs;
}

/** `dir`'s file `rel` written again as `f` makes its text; its path. */
export function rewrite(dir: string, rel: string, f: (text: string) => string): string {
  const abs = path.join(dir, rel);
  writeFileSync(abs, f(readFileSync(abs, 'utf8')));
  return abs;
}

/**
 * A script to preload (`--require`) into a process under test: when it ends, it writes to stderr
 * every module it required (`LOADED`) and every module Node loaded inside (`INTERNAL`). Read them
 * back with `loadedModules`.
 */
export function moduleRecorder(): string {
  return write(
    workspace({}, 'sl-rec-'),
    'rec.js',
    `const M = require('module'); const seen = new Set(); const load = M._load; M._load = function (r, ...a) { seen.add(r.replace(/^node:/, '')); return load.call(this, r, ...a); }; process.on('exit', () => { const internal = process.moduleLoadList.join('|'); require('fs').writeSync(2, 'LOADED ' + [...seen].join(' ') + '\\nINTERNAL ' + internal + '\\n'); });`,
  );
}

/** What `moduleRecorder` wrote: the modules required (`node:` dropped) and Node's internal load list (`NativeModule x`, …). */
export function loadedModules(stderr: string): { required: string[]; internal: string[] } {
  return {
    required: (/LOADED (.*)/.exec(stderr)?.[1] ?? '').split(' '),
    internal: (/INTERNAL (.*)/.exec(stderr)?.[1] ?? '').split('|'),
  };
}

/** Run real git in `dir`. */
export function git(dir: string, ...args: string[]): string {
  return gitWith(dir, {}, args);
}

function gitWith(dir: string, env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
      ...env,
    },
  });
}

/** Regular files and folders under `dir` (not .git), or null when it holds anything else (a link, a FIFO). */
function treeOf(dir: string, rel = ''): Array<[string, Stats]> | null {
  const out: Array<[string, Stats]> = [];
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    if (!rel && name === '.git') return null;
    const r = rel ? `${rel}/${name}` : name;
    const st = statSync(path.join(dir, r), { throwIfNoEntry: false });
    if (!st) return null;
    if (st.isDirectory()) {
      const sub = treeOf(dir, r);
      if (!sub) return null;
      out.push([r, st], ...sub);
    } else if (st.isFile()) out.push([r, st]);
    else return null;
  }
  return out;
}

/**
 * `src` copied into `dest` (made if missing): folders, files with their mode, and symbolic links as they
 * are (not followed); every file and link keeps its access and modification times (git compares its
 * index's time with the files'; a folder's are the copy's, as a folder made now has). `cpSync` does the
 * same at about twice the CPU time (its checks for every entry).
 */
export function copyTree(src: string, dest: string): void {
  mkdirSync(dest, { recursive: true });
  for (const e of readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, e.name);
    const to = path.join(dest, e.name);
    if (e.isDirectory()) {
      copyTree(from, to);
      continue;
    }
    const st = lstatSync(from);
    if (e.isSymbolicLink()) {
      symlinkSync(readlinkSync(from), to);
      lutimesSync(to, st.atime, st.mtime);
    } else {
      copyFileSync(from, to);
      utimesSync(to, st.atime, st.mtime);
    }
  }
}

/** What `git init -q -b main` made in this process, by the environment git read it with: copied instead of made again. */
const emptyRepos = new Map<string, string>();

/**
 * `git init -q -b main` in `dir`. The first time in this process (for a given git environment and the file
 * system of the temp folder), real git does it; later a folder without .git gets a copy of that .git, which
 * is what git writes there (its config, HEAD, hooks' samples, info/exclude: no path of the folder itself).
 * A .git that is already there is git's to re-initialise.
 */
function initRepo(dir: string): void {
  const tmp = os.tmpdir();
  const elsewhere = process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined;
  if (elsewhere || existsSync(path.join(dir, '.git')) || path.relative(tmp, dir).startsWith('..')) {
    git(dir, 'init', '-q', '-b', 'main');
    return;
  }
  const key = JSON.stringify(Object.entries(process.env).filter(([k]) => /^(GIT_|HOME$|XDG_CONFIG_HOME$)/.test(k)));
  let made = emptyRepos.get(key);
  if (!made) {
    made = workspace({}, 'sl-git-init-');
    git(made, 'init', '-q', '-b', 'main');
    emptyRepos.set(key, made);
  }
  copyTree(path.join(made, '.git'), path.join(dir, '.git'));
}

/** Repositories made by gitInit in this process, by content: copied instead of made again. */
const repos = new Map<string, string>();

/**
 * `git init` + commit everything in `dir`, the commit dated when the newest file was written. The
 * first time a given set of files (paths, bytes, modes) and message is committed in this process,
 * real git does it; later calls copy that repository's .git and its files' modification times, which
 * leaves the same commit, the same HEAD and the same "written before/after the commit" order.
 */
export function gitInit(dir: string, message = 'init'): void {
  const tree = treeOf(dir);
  const key =
    tree &&
    createHash('sha256')
      .update(message)
      .update(
        JSON.stringify(
          tree.map(([r, st]) => [
            r,
            st.mode,
            st.isFile()
              ? createHash('sha256')
                  .update(readFileSync(path.join(dir, r)))
                  .digest('hex')
              : '',
          ]),
        ),
      )
      .digest('hex');
  const made = key ? repos.get(key) : undefined;
  if (made && tree) {
    copyTree(path.join(made, '.git'), path.join(dir, '.git'));
    for (const [r] of tree) {
      const st = statSync(path.join(made, r));
      utimesSync(path.join(dir, r), st.atime, st.mtime);
    }
    return;
  }
  // The commit is dated when its newest file was written (as if committed at once), not when git got
  // to run: on a busy machine that can be seconds later, and `fresh` would see files older than it.
  const newest = Math.max(0, ...(tree ?? []).filter(([, st]) => st.isFile()).map(([, st]) => st.mtimeMs));
  const date = newest
    ? {
        GIT_AUTHOR_DATE: `@${Math.floor(newest / 1000)} +0000`,
        GIT_COMMITTER_DATE: `@${Math.floor(newest / 1000)} +0000`,
      }
    : {};
  initRepo(dir);
  git(dir, 'add', '-A');
  // Without git's housekeeping after the commit (`git maintenance run --auto`, a process of its own that
  // finds nothing to do in a repository this small).
  gitWith(dir, date, ['-c', 'maintenance.auto=false', 'commit', '-q', '--allow-empty', '-m', message]);
  if (!key || !tree) return;
  const copy = workspace({}, 'sl-repo-');
  copyTree(dir, copy);
  repos.set(key, copy);
}

/** A file of the external corpus (only called by tests registered with `externalTest` or over `CORPORA`). */
export function corpusFile(rel: string): string {
  assert.ok(EXTERNAL_CORPUS, 'the external corpus is not here');
  return path.join(EXTERNAL_CORPUS, rel);
}

/**
 * The INDEX.tsv rows of a corpus (external or in-repo, same columns), optionally of some formats only.
 * `savedAs` is the file in the corpus folder, `path` where it lived in its repository.
 */
export function corpusRows(dir: string, formats?: readonly string[]): CorpusRow[] {
  const [head, ...rest] = readFileSync(path.join(dir, 'INDEX.tsv'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'));
  const at = (name: string) => head.indexOf(name);
  return rest
    .map((c) => ({ format: c[at('format')], repo: c[at('repo')], path: c[at('path')], savedAs: c[at('saved_as')] }))
    .filter((r) => !formats || formats.includes(r.format));
}

/**
 * A corpus's real-shaped agent sessions and what a careful reading of each gives (figures computed
 * by hand from the records: the last main-chain assistant usage, the last token_count's
 * last_token_usage). `file`s are absolute; `cwd` is the folder written in the records, which tests
 * rewrite to a temp workspace.
 */
export interface CorpusSessions {
  corpus: string;
  claude: {
    file: string;
    subagent: string;
    id: string;
    cwd: string;
    firstUserLine: string;
    used: number;
    lastCompaction: string;
  };
  codex: { file: string; id: string; cwd: string; used: number; firstUserLine: RegExp };
}

const OWN_SID = '5d3c1e2a-8b7f-4c6d-9e0a-1f2b3c4d5e6f';
const REAL_SID = '258c7280-ae70-4798-800f-63464d01a85d';
/** The in-repo corpus's sessions always; the external corpus's when it is here. */
export const CORPUS_SESSIONS: readonly CorpusSessions[] = [
  {
    corpus: 'in-repo corpus',
    claude: {
      file: path.join(OWN_CORPUS, `F6/own__notes-app__claude__${OWN_SID}.jsonl`),
      subagent: path.join(OWN_CORPUS, `F6/own__notes-app__claude__${OWN_SID}__subagents__agent-b7e2f0a.jsonl`),
      id: OWN_SID,
      cwd: '/home/USER/projects/notes-app',
      firstUserLine: 'Implement the CSV export for the notes list',
      // 1 + 402 + 19718: the last main-chain record; the sidechain record before it (90,010) is a subagent's.
      used: 20121,
      lastCompaction: '2026-03-05T09:02:41.250Z',
    },
    codex: {
      file: path.join(
        OWN_CORPUS,
        'F6/own__notes-app__codex__rollout-2026-03-06T10-00-00-019d1f2e-3a4b-7c5d-8e6f-7a8b9c0d1e2f.jsonl',
      ),
      id: '019d1f2e-3a4b-7c5d-8e6f-7a8b9c0d1e2f',
      cwd: '/redacted/path/notes-app',
      // The last token_count's last_token_usage.total_tokens (41250 + 730), not its running total (70902).
      used: 41980,
      firstUserLine: /^add a --json flag to the report command$/,
    },
  },
  ...(EXTERNAL_CORPUS
    ? [
        {
          corpus: 'external corpus',
          claude: {
            file: path.join(EXTERNAL_CORPUS, `F6/marot__spotter__test__fixtures__transcripts__${REAL_SID}.jsonl`),
            subagent: path.join(
              EXTERNAL_CORPUS,
              `F6/marot__spotter__test__fixtures__transcripts__${REAL_SID}__subagents__agent-a881341.jsonl`,
            ),
            id: REAL_SID,
            cwd: '/home/USER/projects/spotter-worktrees/spotter-gqc',
            firstUserLine: 'Implement spotter-gqc',
            used: 38983,
            lastCompaction: '2026-02-11T21:18:41.543Z',
          },
          codex: {
            file: path.join(
              EXTERNAL_CORPUS,
              'F6/madshn__localpush__src-tauri__tests__fixtures__codex__2026-02-23__raw__sessions__rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl',
            ),
            id: '019c8a4c-ed82-79a1-aa28-7738fc5ab61a',
            cwd: '/redacted/path/fa3f7eaace',
            used: 164699,
            firstUserLine: /^\[REDACTED_MESSAGE len=\d+/,
          },
        },
      ]
    : []),
];

export interface CorpusRow {
  format: string;
  repo: string;
  path: string;
  savedAs: string;
}

/** Copy corpus files into `dir`, each at the path it had in its repository. */
export function layOutCorpus(corpus: string, dir: string, rs: readonly CorpusRow[]): void {
  for (const r of rs) {
    const dest = path.join(dir, r.path);
    mkdirSync(path.dirname(dest), { recursive: true });
    copyFileSync(path.join(corpus, r.savedAs), dest);
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  input?: string;
  env?: NodeJS.ProcessEnv;
}

let worker: { worker: Worker; port: MessagePort; flag: Int32Array } | null = null;

/**
 * Run the built CLI (dist/cli.js, the bundle users run) in this process: its `main(args, io)` in a
 * worker thread, with `input` as stdin, the environment `{...process.env, ...opts.env}` and `cwd`. Same
 * result as `cliProcess` without starting Node for every call; use `cliProcess` where the process
 * itself is under test (exit status, another user, a signal).
 */
export function cli(args: string[], opts: CliOptions = {}): CliResult {
  return inWorker(`session-ledger ${args.join(' ')}`, { args }, opts);
}

/**
 * Run an installed hook script (`node <script> <args>` as Claude Code runs it, in `opts.cwd`) in this
 * process: the script's own entry (`hotMain`, which `node <script>` calls) in the CLI's worker thread,
 * with `input` as stdin. The exit code is what the script's process would exit with; use a real process
 * (spawnSync) where the process itself is under test.
 */
export function hookScript(script: string, args: string[], opts: CliOptions = {}): CliResult {
  const abs = path.resolve(opts.cwd ?? process.cwd(), script);
  return inWorker(`node ${script} ${args.join(' ')}`, { args, script: abs }, opts);
}

/**
 * What a hook script compiles, part by part: `require` preloads a recorder into its process (`node --require
 * <it> <script> <args>`), and `compiled()` names each part compiled since it was last asked, by
 * the marker of `markers` (name, marker line) above the line its code starts on (loadPart hands
 * vm.compileFunction that line).
 */
export function partCompiles(
  script: string,
  markers: ReadonlyArray<readonly [string, string]>,
): { require: string[]; compiled: () => string[] } {
  const lines = readFileSync(script, 'utf8').split('\n');
  const at = markers.map(([name, m]) => [name, lines.indexOf(m)] as const).sort((a, b) => a[1] - b[1]);
  const log = path.join(workspace({}, 'sl-parts-'), 'compiled');
  const recorder = path.join(path.dirname(log), 'recorder.cjs');
  writeFileSync(
    recorder,
    `const vm = require('node:vm'); const fs = require('node:fs'); const compile = vm.compileFunction;
     vm.compileFunction = (body, params, o) => { fs.appendFileSync(${JSON.stringify(log)}, (o && o.lineOffset) + '\\n'); return compile(body, params, o); };`,
  );
  return {
    require: ['--require', recorder],
    compiled: () => {
      const offsets = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
      writeFileSync(log, '');
      return offsets.map((o) => at.filter(([, m]) => m >= 0 && m < o).pop()?.[0] ?? `line ${o}`);
    },
  };
}

function inWorker(what: string, req: { args: string[]; script?: string }, opts: CliOptions): CliResult {
  if (!worker) {
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const w = new Worker(path.join(__dirname, 'cli-worker.js'), {
      workerData: { cli: CLI, flag: flag.buffer, port: port2 },
      transferList: [port2],
    });
    w.unref();
    worker = { worker: w, port: port1, flag };
  }
  const { port, flag } = worker;
  Atomics.store(flag, 0, 0);
  worker.worker.postMessage({
    ...req,
    cwd: opts.cwd ?? process.cwd(),
    input: opts.input ?? '',
    env: { ...process.env, ...opts.env },
  });
  if (Atomics.wait(flag, 0, 0, 120_000) === 'timed-out') {
    void worker.worker.terminate();
    worker = null;
    throw new Error(`${what}: no answer in 120 s`);
  }
  // The reply is posted before the signal, but a message between threads can land on the port a moment
  // after the signal: look again for up to 5 s before calling it missing.
  let reply = receiveMessageOnPort(port);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; !reply && i < 500; i++) {
    Atomics.wait(pause, 0, 0, 10);
    reply = receiveMessageOnPort(port);
  }
  if (!reply) throw new Error(`${what}: the worker signalled without a reply`);
  return reply.message as CliResult;
}

/** Run the built CLI as a real process. */
export function cliProcess(args: string[], opts: CliOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, ...opts.env },
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A temp copy of the fixture workspace `test/fixtures/<rel>` (the fixture itself stays untouched). */
export function fixtureCopy(rel: string): string {
  const dir = workspace({}, `sl-${rel.replace(/[^A-Za-z0-9]+/g, '-')}-`);
  cpSync(path.join(FIXTURES, rel), dir, { recursive: true });
  // As the e2e set-up lays out e2e-workspace: its handoff's fill-in variable filled.
  fillHeadVariable(dir);
  return dir;
}

export const DEMO = path.join(REPO, 'examples', 'demo-workspace');

/**
 * The demo workspace copied to `dest` as `npm start` serves it: its S3 handoff's `{{HEAD}}` filled in
 * (scripts/lib/workspace.mjs writes the commit there; here, before any commit, words that record no
 * hash). Copied as it is, the handoff still holds the fill-in variable, which the template check refuses.
 */
export function copyDemo(dest: string): void {
  cpSync(DEMO, dest, { recursive: true });
  fillHeadVariable(dest);
}

/**
 * The `{{HEAD}}` of `dir`'s docs/state/STATE.md, if there (the demo's, the e2e workspace's: the set-up
 * that serves them writes the commit), as words that record no hash.
 */
export function fillHeadVariable(dir: string): void {
  const state = path.join(dir, 'docs', 'state', 'STATE.md');
  if (!existsSync(state)) return;
  const text = readFileSync(state, 'utf8');
  if (text.includes('{{HEAD}}')) writeFileSync(state, text.replaceAll('{{HEAD}}', '(no hash recorded)'));
}

/** A committed copy of the demo workspace (examples/demo-workspace: all five systems, filled in as `npm start` serves it), no checkpoint yet. */
export function demoRepo(): string {
  const dir = workspace({});
  copyDemo(dir);
  gitInit(dir);
  return dir;
}

/** 1-based line of the first line of `file` that contains `needle`, read from the file itself. */
export function lineOf(file: string, needle: string): number {
  const i = readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`${needle} not in ${file}`);
  return i + 1;
}

/** The checks with this id; `one` throws unless there is exactly one. */
export function checksWith<T extends { id: string }>(checks: readonly T[], id: string): T[] {
  return checks.filter((c) => c.id === id);
}

export function oneCheck<T extends { id: string }>(checks: readonly T[], id: string): T {
  const cs = checksWith(checks, id);
  if (cs.length !== 1) throw new Error(`expected one ${id} check, got ${cs.length}: ${JSON.stringify(cs)}`);
  return cs[0];
}

/** Evaluate `dir` and return the report of system `id`; throws when that system is not detected. */
export async function systemIn(dir: string, id: string, options: EvaluateOptions = {}): Promise<SystemReport> {
  const r = await evaluate(dir, options);
  const s = r.systems.find((x) => x.id === id);
  if (!s) throw new Error(`${id} not detected in ${dir}; got ${r.systems.map((x) => x.id).join(',') || 'nothing'}`);
  return s;
}

/** Hostile YAML: nested aliases that would expand to 9^4 nodes (the yaml package refuses to). */
export const YAML_ALIAS_BOMB =
  'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\nsession: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';

/**
 * A copy of the CLI bundle that every user can read and run (a folder under the system temp dir,
 * mode 755), for tests that run it as another user: the repository itself may sit in a private
 * folder (mkdtemp makes them 0700) that user cannot enter. Returns the bundle's path, or the reason
 * that user could not reach it (a temp dir inside a private folder).
 */
export function sharedCli(): { cli: string } | { reason: string } {
  for (let d = os.tmpdir(); ; d = path.dirname(d)) {
    const st = statSync(d, { throwIfNoEntry: false });
    if (!st || (st.mode & 0o001) === 0)
      return {
        reason: `another user cannot enter ${d} (on the way to the temp folder ${os.tmpdir()}); set TMPDIR to a folder every user can reach`,
      };
    if (path.dirname(d) === d) break;
  }
  const dir = workspace({}, 'sl-cli-');
  chmodSync(dir, 0o755);
  const cli = path.join(dir, 'cli.js');
  // The CLI with the scripts it runs beside it (the hook script holds the whole CLI).
  for (const f of ['cli.js', 'session-ledger.cjs', 'session-ledger-statusline.cjs', 'session-ledger-meter.cjs'])
    copyFileSync(path.join(path.dirname(CLI), f), path.join(dir, f));
  chmodSync(cli, 0o755);
  return { cli };
}

/** The error a promise rejects with (it must reject). */
export async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected a refusal');
}

/** The checklist's words in English, as the panel gives them (src/extension/checklist/panel.ts). */
export const CHECKLIST_STRINGS: ChecklistStrings = {
  title: 'Session Ledger Checklist',
  overall: 'Overall',
  writeMarker: 'Write marker & copy resume prompt',
  refresh: 'Re-check',
  blocked: 'A blocking check fails: fix it (or ask the agent to checkpoint) before the marker can be written.',
  manualOpenOne: '1 manual item not ticked yet: tick it when it is true.',
  manualOpen: '{0} manual items not ticked yet: tick them when they are true.',
  sessionTitle: 'This session (every system)',
  sessionHelp:
    "Asked once for this agent session, for every system. A tick is reset when any detected system's state file changes.",
  untrusted: 'Restricted Mode: Session Ledger shows the checks but writes nothing.',
  manageTrust: 'Manage Workspace Trust',
  nothing: 'No agent state file detected in this folder.',
  next: 'Next action:',
  fix: 'Fix:',
  busy: 'Writing the marker…',
  ready: 'Nothing blocks and every manual item is ticked: the marker can be written.',
  result: 'Result',
  status: {
    pass: 'pass',
    fail: 'fail',
    warn: 'warning',
    'manual-open': 'to tick',
    'manual-done': 'ticked',
    skipped: 'skipped',
  },
  info: 'info',
  failBlocks: 'fail · blocks the marker',
};

/** A context figure of Claude Code's transcript as the meter reads one (46 % of 200k); `o` changes any field. */
export function contextUsage(o: Partial<ContextUsage> = {}): ContextUsage {
  return {
    agent: 'claude',
    sessionId: 'abc-123',
    transcriptPath: '/t.jsonl',
    model: 'claude-opus-4',
    usedTokens: 92_000,
    windowTokens: 200_000,
    percent: 46,
    at: '2026-12-01T00:00:00Z',
    afterCompaction: false,
    source: 'transcript',
    ...o,
  };
}
