/**
 * Git under a busy agent: what is asked of git again and again is asked once, and never at the cost
 * of running what a repository's config defines. The git runs are counted by a `git` first on PATH
 * that logs its arguments and runs the real git.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readGit } from '../../src/core/git/git';
import { evaluate, evaluateChanged } from '../../src/core/report/evaluate';
import { fixtureCopy, git, gitInit, workspace, write } from './helpers';
import { countGit, REAL_GIT } from './git-helpers';

/** A repository whose tracked a.txt git must clean again (same size, new mtime), with a filter command that leaves a mark. */
function repo(): { dir: string; mark: string; clean: string; dirty: () => void } {
  const dir = workspace({ 'a.txt': 'hello\n' });
  gitInit(dir);
  const mark = path.join(dir, 'PWNED');
  const clean = write(dir, '.git/evil-clean.sh', `#!/bin/sh\ntouch '${mark}'\ncat\n`);
  chmodSync(clean, 0o755);
  writeFileSync(path.join(dir, '.gitattributes'), '*.txt filter=evil\n');
  let k = 0;
  const dirty = () => {
    const a = path.join(dir, 'a.txt');
    // The size of the committed 'hello\n': git must hash the content, through the clean filter.
    writeFileSync(a, `hel${String(++k).padStart(2, '0')}\n`);
    const later = new Date(Date.now() + 5000 + 1000 * k);
    utimesSync(a, later, later);
  };
  return { dir, mark, clean, dirty };
}

test("a repository's config is asked of git once, until one of its config files or its HEAD changes", async (t) => {
  const { dir } = repo();
  git(dir, 'branch', 'other');
  const runs = countGit(t);
  await readGit(dir);
  await readGit(dir);
  // .git/config includes nothing: git lists it whole, and need not parse it alone first.
  const asked = ['where', 'listing'];
  assert.deepEqual(runs(), [...asked, 'status', 'status'], 'the second read asks git for the config no more');
  const cfg = path.join(dir, '.git/config');
  writeFileSync(cfg, `${readFileSync(cfg, 'utf8')}[core]\n\tautocrlf = false\n`);
  await readGit(dir);
  assert.deepEqual(runs().slice(4), [...asked, 'status'], 'a changed .git/config is read again');
  // A branch switch: an includeIf "onbranch:" may hold now, so git's own reading is asked again.
  writeFileSync(path.join(dir, '.git/HEAD'), 'ref: refs/heads/other\n');
  await readGit(dir);
  assert.deepEqual(runs().slice(7), [...asked, 'status'], 'a moved HEAD is read again');
});

test(".git/config is parsed by git alone first only when its bytes hold 'include' in some case", async (t) => {
  const runs = countGit(t);
  const cases: Array<[string, string, boolean]> = [
    ['nothing added', '', false],
    ['a filter of its own', '[filter "x"]\n\tclean = false\n', false],
    ['an include', '[include]\n\tpath = none.cfg\n', true],
    ['an includeIf in mixed case', '[InClUdEiF "gitdir:/"]\n\tpath = none.cfg\n', true],
    ['the word in a comment only', '# include nothing\n', true],
  ];
  for (const [name, added, parsed] of cases) {
    const { dir } = repo();
    const cfg = path.join(dir, '.git/config');
    writeFileSync(cfg, `${readFileSync(cfg, 'utf8')}${added}`);
    const before = runs().length;
    assert.ok(await readGit(dir), `${name}: git facts read`);
    assert.deepEqual(
      runs().slice(before),
      [...(parsed ? ['config'] : []), 'where', 'listing', 'status'],
      `${name}: the config parsed alone first: ${parsed}`,
    );
  }
});

test('a filter added after the drivers were read, in .git/config or in an include that was missing, is still never run', async (t) => {
  countGit(t);
  for (const where of ['config', 'include'] as const) {
    const { dir, mark, clean, dirty } = repo();
    const cfg = path.join(dir, '.git/config');
    // The include names a file that does not exist yet: git skips it, and so does the first read.
    writeFileSync(cfg, `${readFileSync(cfg, 'utf8')}[include]\n\tpath = later.cfg\n`);
    dirty();
    assert.ok((await readGit(dir))?.changed.includes('a.txt'));
    const filter = `[filter "evil"]\n\tclean = ${clean}\n`;
    if (where === 'config') writeFileSync(cfg, `${readFileSync(cfg, 'utf8')}${filter}`);
    else write(dir, '.git/later.cfg', filter);
    dirty();
    const info = await readGit(dir);
    assert.ok(info?.changed.includes('a.txt'), `${where}: git facts still read`);
    assert.equal(existsSync(mark), false, `${where}: the filter added after the first read ran`);
    // Control: plain git runs it, so the read above really had to empty it.
    dirty();
    execFileSync(REAL_GIT, ['status', '--porcelain'], { cwd: dir });
    assert.ok(existsSync(mark), `${where}: control, plain git runs the filter`);
  }
});

test("git's status is reused only when asked to, and only for as long as asked", async (t) => {
  const { dir } = repo();
  const runs = countGit(t);
  await readGit(dir);
  await readGit(dir, undefined, 60_000);
  assert.deepEqual(runs(), ['where', 'listing', 'status'], 'a read within the age takes the last status');
  await readGit(dir);
  assert.deepEqual(runs().slice(3), ['status'], 'a read without an age runs git');
  await new Promise((r) => setTimeout(r, 30));
  await readGit(dir, undefined, 10);
  assert.deepEqual(runs().slice(4), ['status'], 'a status older than the age is not taken');
});

test('a re-read after a change of state files only takes git from the last run; any other change runs git', async (t) => {
  const root = fixtureCopy('e2e-workspace');
  gitInit(root);
  const runs = countGit(t);
  const options = { stateOnlyGitMaxAgeMs: 60_000 };
  const prev = await evaluate(root, options);
  const n = runs().filter((r) => r === 'status').length;
  assert.ok(n >= 1, 'the whole read ran git status');
  const state = path.join(root, 'docs/state/STATE.md');
  writeFileSync(state, readFileSync(state, 'utf8').replace('Now ▶', 'Now ▶ (edited)'));
  const next = await evaluateChanged(root, options, prev, ['docs/state/STATE.md']);
  assert.ok(next.systems.some((s) => s.id === 'S3'));
  assert.equal(runs().filter((r) => r === 'status').length, n, 'no git status for a state file edit');
  write(root, 'src/work.ts', 'export {};\n');
  const after = await evaluateChanged(root, options, next, ['src/work.ts']);
  assert.equal(runs().filter((r) => r === 'status').length, n + 1, 'a change outside the state files runs git');
  assert.ok(after.systems.length > 0);
});

test("S3's HEAD behind git by commits to docs/state/ only: asked of git once while HEAD stays, again when HEAD moves", async (t) => {
  const dir = fixtureCopy('s3/good');
  gitInit(dir);
  const recorded = git(dir, 'rev-parse', '--short', 'HEAD').trim();
  const state = path.join(dir, 'docs/state/STATE.md');
  writeFileSync(state, readFileSync(state, 'utf8').replace('(no hash recorded)', recorded));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'handoff');
  const runs = countGit(t);
  const branchHead = async () =>
    (await evaluate(dir)).systems.find((s) => s.id === 'S3')?.checks.find((c) => c.id === 'branch-head');
  const asked = () => runs().filter((r) => r === 'other').length;
  const first = await branchHead();
  assert.equal(
    first?.status,
    'pass',
    `HEAD moved past ${recorded} only by a commit to docs/state/: ${JSON.stringify(first)}`,
  );
  assert.equal(asked(), 2, 'merge-base and diff, once');
  assert.equal((await branchHead())?.status, 'pass');
  assert.equal(asked(), 2, 'the same HEAD: not asked again');
  write(dir, 'src/work.ts', 'export {};\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'work');
  const n = asked();
  const moved = await branchHead();
  assert.equal(asked(), n + 2, 'a new HEAD is asked again');
  assert.notEqual(moved?.status, 'pass', 'a commit of work after the recorded HEAD: out of date');
});
