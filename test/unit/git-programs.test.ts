/**
 * Which programs a git run may start: git itself only from an absolute folder of `PATH` (a relative
 * one, `.` or `./node_modules/.bin` or an empty entry, names the work tree, where a repository can
 * commit a `git` of its own), and no filter driver at all, the user's own global ones included (the
 * files it runs on are the repository's, and so may be the program: `python -m x` finds the work
 * tree's `x.py` first). Each case starts from the hostile repository and a control run of plain git.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { absolutePath, gitEnv, gitProgram } from '../../src/core/git/git';
import { cliProcess, gitInit, workspace, write, type CliResult } from './helpers';

/** True when the status read git's facts: its work-explained check ran (it is skipped without git). */
function gitRan(r: CliResult): boolean {
  const report = JSON.parse(r.stdout) as { systems: Array<{ checks: Array<{ id: string; status: string }> }> };
  return report.systems.some((s) => s.checks.some((c) => c.id === 'work-explained' && c.status !== 'skipped'));
}

const S3 = `# State

## Handoff

- **Status:** hostile repo
- **Now ▶** run nothing the repository names

## Log

### 2026-11-30 - start
- Done: nothing
`;

test('only absolute PATH folders are searched for git, and git gets no relative one either', () => {
  const sep = path.delimiter;
  assert.deepEqual(absolutePath(['.', './node_modules/.bin', '', '/usr/bin', 'bin', '/bin'].join(sep)), [
    '/usr/bin',
    '/bin',
  ]);
  assert.equal(gitEnv({ PATH: `.${sep}${sep}/usr/bin` }).PATH, '/usr/bin');
});

test("a git the repository commits never runs, whatever relative folder PATH names: status still reads git's facts", () => {
  const dir = workspace({ 'docs/state/STATE.md': S3 });
  gitInit(dir);
  const mark = path.join(dir, 'PWNED');
  const fake = `#!/bin/sh\necho "$@" >> ${JSON.stringify(mark)}\nexit 1\n`;
  for (const rel of ['node_modules/.bin/git', 'git']) chmodSync(write(dir, rel, fake), 0o755);
  const sep = path.delimiter;
  const PATH = ['./node_modules/.bin', '', '.', process.env.PATH].join(sep);
  // The control: a plain `git` by name in the work tree runs the repository's.
  spawnSync('sh', ['-c', 'git status'], { cwd: dir, env: { ...process.env, PATH } });
  assert.ok(existsSync(mark), 'the control ran the committed git');
  const before = readFileSync(mark, 'utf8');
  const r = cliProcess(['status', '--json', '--root', dir], { cwd: dir, env: { PATH } });
  assert.equal(readFileSync(mark, 'utf8'), before, 'no run of the tool started the committed git');
  assert.ok(gitRan(r), `git's facts were read (${r.stderr})`);
});

test("a git the repository commits never runs from an absolute PATH folder of its work tree (npm run's node_modules/.bin of the folder and of the folders above it)", () => {
  // The workspace is a folder below the repository's top, as in a monorepo's package.
  const dir = workspace({ 'packages/app/docs/state/STATE.md': S3 });
  gitInit(dir);
  const app = path.join(dir, 'packages', 'app');
  const mark = path.join(dir, 'PWNED');
  const fake = `#!/bin/sh\necho "$@" >> ${JSON.stringify(mark)}\nexit 1\n`;
  for (const rel of ['packages/app/node_modules/.bin/git', 'node_modules/.bin/git', 'bin/git'])
    chmodSync(write(dir, rel, fake), 0o755);
  // What `npm run` in packages/app puts first on PATH (absolute), and a tool's own `bin` of the work tree.
  const PATH = [
    path.join(app, 'node_modules', '.bin'),
    path.join(dir, 'node_modules', '.bin'),
    path.join(dir, 'bin'),
    process.env.PATH,
  ].join(path.delimiter);
  // The control: git by name, as npm's scripts run it, is the repository's.
  spawnSync('sh', ['-c', 'git status'], { cwd: app, env: { ...process.env, PATH } });
  assert.ok(existsSync(mark), 'the control ran the committed git');
  const before = readFileSync(mark, 'utf8');
  const r = cliProcess(['status', '--json', '--root', app], { cwd: app, env: { PATH } });
  assert.equal(readFileSync(mark, 'utf8'), before, 'no run of the tool started the committed git');
  assert.ok(gitRan(r), `git's facts were read, by the git further down PATH (${r.stderr})`);
});

test('a git on PATH that is passed over is not called missing: the check says why no git ran, not to install git', () => {
  // The user's own git reached through a folder of the work tree (a home folder that is a repository,
  // ~/.local/bin/git), and no other git on PATH: it is passed over, and git is installed.
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(path.isAbsolute(real), 'a git to link to');
  const dir = workspace({ 'docs/state/STATE.md': S3 });
  gitInit(dir);
  const bin = path.join(dir, '.local', 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(real, path.join(bin, 'git'));
  const r = cliProcess(['status', '--json', '--root', dir], { cwd: dir, env: { PATH: bin } });
  const report = JSON.parse(r.stdout) as { systems: Array<{ checks: Array<{ id: string; message: string }> }> };
  const said = report.systems.flatMap((s) => s.checks).find((c) => c.id === 'work-explained')?.message ?? '';
  assert.doesNotMatch(said, /no git program was found|Install git/, said);
  assert.match(said, /no git on PATH is run here/, said);
  assert.match(said, /outside the work tree/, said);
});

test(
  'a git in a folder another user owns, or everyone may write to, is never run (npm run in a project under /tmp names /tmp/node_modules/.bin)',
  { skip: process.getuid?.() !== 0 && 'needs root: the planted folder belongs to another user' },
  () => {
    const dir = workspace({ 'docs/state/STATE.md': S3 });
    gitInit(dir);
    // Another user's folder outside the repository, first on PATH.
    const shared = workspace({});
    const mark = path.join(shared, 'PWNED-other-user');
    const bin = path.join(shared, 'node_modules', '.bin');
    const fake = write(shared, 'node_modules/.bin/git', `#!/bin/sh\necho "$@" >> ${JSON.stringify(mark)}\nexit 1\n`);
    chmodSync(fake, 0o755);
    const PATH = [bin, process.env.PATH].join(path.delimiter);
    const NOBODY = 65534;
    const owners = (uid: number) => {
      for (const p of [path.join(shared, 'node_modules'), bin, fake]) chownSync(p, uid, uid);
    };
    /** Whether a status run started the planted git; when it did not, git's facts came from the git further down PATH. */
    const toolRunsIt = () => {
      rmSync(mark, { force: true });
      const r = cliProcess(['status', '--json', '--root', dir], { cwd: dir, env: { PATH } });
      const ran = existsSync(mark);
      if (!ran) assert.ok(gitRan(r), `git's facts were read (${r.stderr})`);
      return ran;
    };
    owners(NOBODY);
    // The control: plain git by name runs the other user's program.
    spawnSync('sh', ['-c', 'git status'], { cwd: dir, env: { ...process.env, PATH } });
    assert.ok(existsSync(mark), "the control ran the other user's git");
    assert.equal(toolRunsIt(), false, "the tool ran the other user's git");
    // Yours, in a folder everyone may write to (no sticky bit): another user could have swapped it.
    owners(0);
    chmodSync(bin, 0o777);
    assert.equal(toolRunsIt(), false, 'the tool ran a git from a folder everyone may write to');
    // With the sticky bit the folder's entries are their owners' own: that git is yours and runs.
    chmodSync(bin, 0o1777);
    assert.equal(gitProgram({ PATH }, dir), fake);
    assert.equal(toolRunsIt(), true, 'your own git in a sticky folder ran');
  },
);

test("a filter driver of the user's global config is not run on the repository's files (the nbstripout pattern)", () => {
  const home = workspace({});
  const mark = path.join(home, 'PWNED-global-filter');
  // What a global filter install writes: a driver in ~/.gitconfig, its files in the global attributes.
  const filter = write(home, 'filter.sh', `#!/bin/sh\ntouch ${JSON.stringify(mark)}\ncat\n`);
  chmodSync(filter, 0o755);
  write(
    home,
    '.gitconfig',
    `[core]\n\tattributesFile = ${path.join(home, 'attributes')}\n[filter "nb"]\n\tclean = ${filter}\n\trequired = true\n`,
  );
  write(home, 'attributes', '*.ipynb filter=nb\n');
  const dir = workspace({ 'docs/state/STATE.md': S3, 'analysis.ipynb': '{"cells": []}\n' });
  gitInit(dir);
  // A new time on the file: git status hashes its content again, through the filter.
  const later = Date.now() / 1000 + 60;
  utimesSync(path.join(dir, 'analysis.ipynb'), later, later);
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  spawnSync('git', ['status'], { cwd: dir, env: { ...process.env, ...env } });
  assert.ok(existsSync(mark), 'the control: plain git status runs the global filter');
  utimesSync(path.join(dir, 'analysis.ipynb'), later + 60, later + 60);
  rmSync(mark);
  const r = cliProcess(['status', '--json', '--root', dir], { cwd: dir, env });
  assert.ok(!existsSync(mark), `the tool's git runs started no filter (${r.stderr})`);
  assert.ok(gitRan(r), "git's facts were read");
});
