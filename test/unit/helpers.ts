/** Test helpers: real temp workspaces, real git, the shared corpus. */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { evaluate, type EvaluateOptions } from '../../src/core/evaluate';
import type { SystemReport } from '../../src/core/model';

/** The repository root (tests run from out/test/unit). */
export const REPO = path.resolve(__dirname, '..', '..', '..');
/** The shared corpus of real files (`../shared/corpus` beside the repository). */
export const CORPUS = process.env.SESSION_LEDGER_CORPUS ?? path.resolve(REPO, '..', 'shared', 'corpus');
export const SEEDS = path.resolve(CORPUS, '..', 'seeds');
export const CLI = path.join(REPO, 'dist', 'cli.js');
export const FIXTURES = path.join(REPO, 'test', 'fixtures');

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

/** Run real git in `dir`. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' },
  });
}

/** `git init` + commit everything in `dir`. */
export function gitInit(dir: string, message = 'init'): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
}

export function corpusFile(rel: string): string {
  return path.join(CORPUS, rel);
}

export function corpusAvailable(): boolean {
  return existsSync(CORPUS);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the built CLI as a real process. */
export function cli(args: string[], opts: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
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
  return dir;
}

/** 1-based line of the first line of `file` that contains `needle`, read from the file itself. */
export function lineOf(file: string, needle: string): number {
  const i = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle));
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
