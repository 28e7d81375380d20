/**
 * What a repository's config costs before git runs in it stays bounded: each config file is parsed
 * once however it is spelled, a config with more files or more filter drivers than git is ever given
 * means git is not run, and nothing waits on git's time limit. The git runs are counted (./git-helpers).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readGit, safeRepo } from '../../src/core/git/git';
import { evaluate } from '../../src/core/report/evaluate';
import { HOSTILE_REPO_STATE } from './hostile-helpers';
import { gitInit, workspace } from './helpers';
import { countGit, REAL_GIT } from './git-helpers';

function repo(): string {
  const dir = workspace({ 'a.txt': 'hello\n' });
  gitInit(dir);
  return dir;
}

test('a config file that includes itself under other spellings is parsed once, not once a spelling a level', async (t) => {
  const dir = repo();
  appendFileSync(path.join(dir, '.git/config'), '[include]\n\tpath = x.cfg\n');
  // Two spellings at each of git's ten include levels: 2^10 files to parse when each spelling counts as a file.
  writeFileSync(path.join(dir, '.git/x.cfg'), '[include]\n\tpath = ./x.cfg\n\tpath = .//x.cfg\n');
  const runs = countGit(t);
  await readGit(dir);
  const parsed = runs().filter((r) => r === 'config').length;
  assert.ok(parsed <= 2, `config files parsed: ${parsed} (the config and x.cfg)`);
});

test('more included config files than git is ever given: git is not run, after a bounded number of parses', async (t) => {
  const dir = repo();
  mkdirSync(path.join(dir, '.git/inc'));
  let includes = '[include]\n';
  for (let i = 0; i < 200; i++) {
    includes += `\tpath = inc/f${i}.cfg\n`;
    writeFileSync(path.join(dir, `.git/inc/f${i}.cfg`), `[user]\n\tx${i} = 1\n`);
  }
  appendFileSync(path.join(dir, '.git/config'), includes);
  const runs = countGit(t);
  assert.equal(await readGit(dir), null);
  const seen = runs();
  assert.ok(seen.length <= 70, `git runs: ${seen.length}`);
  assert.equal(seen.includes('status'), false);
});

test('more filter drivers than git takes as -c options at a reasonable cost: git is not run; a few are overridden', async (t) => {
  const dir = repo();
  const filters = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `[filter "f${from + i}"]\n\tclean = false\n`).join('');
  appendFileSync(path.join(dir, '.git/config'), filters(0, 20));
  const runs = countGit(t);
  assert.ok(await readGit(dir), 'twenty drivers: git runs, each driver emptied');
  assert.ok(runs().includes('status'));
  // git's own time grows with the square of the -c options: 5,000 drivers took it past its 10 s limit on every run.
  appendFileSync(path.join(dir, '.git/config'), filters(20, 2000));
  const before = runs().length;
  assert.equal(await readGit(dir), null);
  assert.equal(runs().slice(before).includes('status'), false);
});

/**
 * A repository whose .git/config includes `n` other files. readRepoConfig counts every path it looks at
 * (CONFIG_FILES_MAX, 64): the config, each file it includes, then .git/config.worktree, which counts
 * even when it is absent, as it is here. So 62 includes are 64 paths (git runs), 63 are 65 (it does not).
 */
function withIncludes(n: number): string {
  const dir = repo();
  mkdirSync(path.join(dir, '.git/inc'));
  let includes = '[include]\n';
  for (let i = 0; i < n; i++) {
    includes += `\tpath = inc/f${i}.cfg\n`;
    writeFileSync(path.join(dir, `.git/inc/f${i}.cfg`), `[user]\n\tx${i} = 1\n`);
  }
  appendFileSync(path.join(dir, '.git/config'), includes);
  return dir;
}

test('at the config file bound: 63 config files and the absent config.worktree (64 looked at), git runs; one more file, it is not run', async (t) => {
  const at = withIncludes(62);
  assert.equal(existsSync(path.join(at, '.git/config.worktree')), false);
  const runs = countGit(t);
  assert.ok(await readGit(at), 'the config and 62 included files: git runs');
  assert.equal(runs().filter((r) => r === 'config').length, 63, 'each of the 63 files parsed once');
  assert.ok(runs().includes('status'));
  const over = withIncludes(63);
  const before = runs().length;
  assert.equal(await readGit(over), null, 'the config and 63 included files: git is not run');
  assert.equal(runs().slice(before).includes('status'), false);
  assert.deepEqual(
    runs()
      .slice(before)
      .filter((r) => r !== 'config'),
    [],
    'nothing but the config files parsed',
  );
});

/**
 * The filter drivers and protocols the user's own system config names (the global one is emptied
 * for the test): each counts towards the bound with the repository's.
 */
function ownOverrides(): number {
  let out = '';
  try {
    out = execFileSync(REAL_GIT, ['config', '--system', '--list', '-z'], { encoding: 'utf8' });
  } catch {
    return 0; // no system config
  }
  const names = new Set<string>();
  for (const entry of out.split('\0')) {
    const key = entry.split('\n', 1)[0];
    const m = /^(filter)\.(.+)\.[^.]+$/.exec(key) ?? /^(protocol)\.(.+)\.allow$/.exec(key);
    if (m) names.add(`${m[1]} ${m[2]}`);
  }
  return names.size;
}

test("at the filter bound: 100 filter drivers (the user's own counted), git runs with each one emptied; 101, it is not run", async (t) => {
  // A home of its own: a global config's drivers (git lfs install writes one) would count too.
  const home = workspace({}, 'sl-home-');
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = path.join(home, '.config');
  t.after(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });
  const n = 100 - ownOverrides();
  assert.ok(n > 0, 'the system config names fewer than 100 filter drivers and protocols');
  const filters = (count: number) =>
    Array.from({ length: count }, (_, i) => `[filter "f${i}"]\n\tclean = false\n`).join('');
  const at = repo();
  appendFileSync(path.join(at, '.git/config'), filters(n));
  const runs = countGit(t);
  const safe = await safeRepo(at);
  assert.ok(safe, `${n} drivers in the repository's config, 100 in all: git runs`);
  assert.equal(safe.filters.length, 100);
  for (const f of ['f0', `f${n - 1}`]) assert.ok(safe.config.includes(`filter.${f}.clean=`), `${f} is emptied`);
  assert.ok(await readGit(at));
  assert.ok(runs().includes('status'));
  const over = repo();
  appendFileSync(path.join(over, '.git/config'), filters(n + 1));
  const before = runs().length;
  assert.equal(await safeRepo(over), null, '101 in all: git is not run');
  assert.equal(await readGit(over), null);
  assert.equal(runs().slice(before).includes('status'), false);
});

/** A FIFO `fifo` beside `config`, included by it: git reading that config waits on the FIFO until its time limit. */
function fifoInclude(gitDir: string): void {
  execFileSync('mkfifo', [path.join(gitDir, 'fifo')]);
  appendFileSync(path.join(gitDir, 'config'), '[include]\n\tpath = fifo\n');
}

/** git is not run at all (neither where it finds the repository nor anything after), and readGit says so at once. */
async function notRun(t: TestContext, dir: string): Promise<void> {
  const runs = countGit(t);
  const t0 = Date.now();
  assert.equal(await readGit(dir), null);
  assert.deepEqual(
    runs().filter((r) => r !== 'config'),
    [],
  );
  // Not a speed figure: git waiting on the FIFO would sit there until its 10 s time limit.
  assert.ok(Date.now() - t0 < 5_000, `${Date.now() - t0} ms`);
}

test('the repository git finds is the one whose config was read: a commondir with a trailing space', async (t) => {
  const dir = repo();
  const g = path.join(dir, '.gd');
  mkdirSync(g);
  cpSync(path.join(dir, '.git/HEAD'), path.join(g, 'HEAD'));
  cpSync(path.join(dir, '.git/index'), path.join(g, 'index'));
  cpSync(path.join(dir, '.git'), path.join(g, 'common'), { recursive: true });
  cpSync(path.join(dir, '.git'), path.join(g, 'common '), { recursive: true });
  rmSync(path.join(dir, '.git'), { recursive: true });
  // git takes off only the line end: its common dir is "common ", whose config includes the FIFO.
  writeFileSync(path.join(g, 'commondir'), 'common \n');
  writeFileSync(path.join(dir, '.git'), `gitdir: ${g}\n`);
  fifoInclude(path.join(g, 'common '));
  await notRun(t, dir);
});

test('the repository git finds is the one whose config was read: the folder is itself a git directory', async (t) => {
  const outer = repo();
  const dir = path.join(outer, 'sub');
  mkdirSync(dir);
  execFileSync(REAL_GIT, ['init', '-q', '--bare', dir]);
  fifoInclude(dir);
  await notRun(t, dir);
});

test('the repository git finds is the one whose config was read: a gitdir with .. after a link', async (t) => {
  const dir = repo();
  const elsewhere = workspace({});
  mkdirSync(path.join(elsewhere, 'deep'));
  mkdirSync(path.join(dir, 'sub'));
  cpSync(path.join(dir, '.git'), path.join(dir, 'sub/g'), { recursive: true });
  renameSync(path.join(dir, '.git'), path.join(elsewhere, 'g'));
  symlinkSync(path.join(elsewhere, 'deep'), path.join(dir, 'sub/link'));
  // The file system takes sub/link/.. to `elsewhere`, not to sub: git's repository is elsewhere/g.
  writeFileSync(path.join(dir, '.git'), 'gitdir: sub/link/../g\n');
  fifoInclude(path.join(elsewhere, 'g'));
  await notRun(t, dir);
});

for (const file of ['HEAD', 'commondir'])
  test(`a FIFO at .git/${file}, which git's discovery reads, means git is not run`, async (t) => {
    const dir = repo();
    rmSync(path.join(dir, '.git', file), { force: true });
    execFileSync('mkfifo', [path.join(dir, '.git', file)]);
    await notRun(t, dir);
  });

for (const [name, rel, config] of [
  ['the index', '.git/index', ''],
  ['packed refs', '.git/packed-refs', ''],
  ['info/exclude', '.git/info/exclude', ''],
  ['the alternates list', '.git/objects/info/alternates', ''],
  ['the shallow list', '.git/shallow', ''],
  ['core.excludesFile', '.git/ex', '[core]\n\texcludesFile = .git/ex\n'],
  ['core.attributesFile', 'attrs', '[core]\n\tattributesFile = attrs\n'],
])
  test(`a FIFO at ${name}, which git status opens: git is not run (no wait on its time limit)`, async (t) => {
    const dir = repo();
    const file = path.join(dir, rel);
    rmSync(file, { force: true });
    mkdirSync(path.dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
    if (config) appendFileSync(path.join(dir, '.git/config'), config);
    const runs = countGit(t);
    const t0 = Date.now();
    assert.equal(await readGit(dir), null);
    assert.equal(runs().includes('status'), false);
    assert.ok(Date.now() - t0 < 5_000, `${Date.now() - t0} ms`);
  });

test('a check without git facts says why: no repository, git not run on it, or no git program', async () => {
  const fresh = async (dir: string) =>
    (await evaluate(dir)).systems.find((s) => s.id === 'S3')?.checks.find((c) => c.id === 'fresh')?.message ?? '';
  const dir = workspace({ 'docs/state/STATE.md': HOSTILE_REPO_STATE });
  assert.match(await fresh(dir), /^Not a git repository: freshness cannot be judged\./);
  gitInit(dir);
  assert.doesNotMatch(await fresh(dir), /git/i);
  rmSync(path.join(dir, '.git/index'));
  execFileSync('mkfifo', [path.join(dir, '.git/index')]);
  assert.match(
    await fresh(dir),
    /^No git facts: git is not run on this repository \(a FIFO at its config, HEAD, index/,
  );
  rmSync(path.join(dir, '.git/index'));
  const before = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    assert.match(await fresh(dir), /^No git facts: no git program was found/);
  } finally {
    process.env.PATH = before;
  }
});

test('a repository read in Restricted Mode: the checks that need git say it does not run there, not that the folder is no repository', async () => {
  const dir = workspace({ 'docs/state/STATE.md': HOSTILE_REPO_STATE });
  gitInit(dir);
  const checks = (await evaluate(dir, { noGit: 'restricted' })).systems.find((s) => s.id === 'S3')?.checks ?? [];
  for (const id of ['fresh', 'work-explained', 'branch-head']) {
    const c = checks.find((x) => x.id === id);
    assert.equal(c?.status, 'skipped', id);
    assert.equal(
      c?.message,
      'No git facts: git does not run in Restricted Mode. Trust this folder to have it checked.',
      `${id}: ${c?.message}`,
    );
  }
});

test('ordinary config is no refusal: core.excludesFile and core.attributesFile at /dev/null, or empty, leave git running', async () => {
  for (const value of ['/dev/null', '']) {
    const dir = repo();
    appendFileSync(path.join(dir, '.git/config'), `[core]\n\texcludesFile = ${value}\n\tattributesFile = ${value}\n`);
    writeFileSync(path.join(dir, 'b.txt'), 'new\n');
    const info = await readGit(dir);
    assert.ok(info, `${JSON.stringify(value)}: git facts read`);
    assert.deepEqual(info.changed, ['b.txt']);
  }
  // A device git would read without end is refused like a FIFO.
  const dir = repo();
  appendFileSync(path.join(dir, '.git/config'), '[core]\n\tattributesFile = /dev/zero\n');
  assert.equal(await readGit(dir), null);
});

test('where git itself fails (a .git file leading nowhere, a worktree container without a work tree), the check says git failed, not that git is not run', async () => {
  const fresh = async (dir: string) =>
    (await evaluate(dir)).systems.find((s) => s.id === 'S3')?.checks.find((c) => c.id === 'fresh')?.message ?? '';
  const gone = workspace({ 'docs/state/STATE.md': HOSTILE_REPO_STATE });
  writeFileSync(path.join(gone, '.git'), `gitdir: ${path.join(gone, 'moved-away')}\n`);
  const bare = workspace({ 'docs/state/STATE.md': HOSTILE_REPO_STATE });
  execFileSync(REAL_GIT, ['init', '-q', '--bare', path.join(bare, '.bare')]);
  writeFileSync(path.join(bare, '.git'), 'gitdir: ./.bare\n');
  for (const dir of [gone, bare]) {
    assert.match(
      await fresh(dir),
      /^No git facts: git failed here, or did not answer within 10 s\. Run git status/,
      dir,
    );
    assert.notEqual(spawnSync(REAL_GIT, ['status'], { cwd: dir }).status, 0, 'control: git status fails there too');
  }
});
