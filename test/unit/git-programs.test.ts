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
import { absolutePath, gitEnv, gitProgram, othersCannotPlace } from '../../src/core/git/git';
import { cliProcess, gitInit, workspace, write, type CliResult } from './helpers';

/** True when the status read git's facts: its work-explained check ran (it is skipped without git). */
function gitRan(r: CliResult): boolean {
  const report = JSON.parse(r.stdout) as { systems: Array<{ checks: Array<{ id: string; status: string }> }> };
  return report.systems.some((s) => s.checks.some((c) => c.id === 'work-explained' && c.status !== 'skipped'));
}

/**
 * A `git` that writes a marker when run, at `rel` in a new folder outside the repository `dir`, and its
 * folder first on PATH; `runs('git')` is whether plain git by name in `dir` starts it (the control),
 * `runs('tool')` whether a status run of the tool does (when it does not, git's facts must come from the
 * git further down PATH).
 */
function plantGit(dir: string, rel: string) {
  const shared = workspace({});
  const mark = path.join(shared, 'PWNED');
  const fake = write(shared, rel, `#!/bin/sh\necho "$@" >> ${JSON.stringify(mark)}\nexit 1\n`);
  chmodSync(fake, 0o755);
  const bin = path.dirname(fake);
  const PATH = [bin, process.env.PATH].join(path.delimiter);
  const runs = (by: 'git' | 'tool'): boolean => {
    rmSync(mark, { force: true });
    if (by === 'git') spawnSync('sh', ['-c', 'git status'], { cwd: dir, env: { ...process.env, PATH } });
    else {
      const r = cliProcess(['status', '--json', '--root', dir], { cwd: dir, env: { PATH } });
      if (!existsSync(mark)) assert.ok(gitRan(r), `git's facts were read, by the git further down PATH (${r.stderr})`);
    }
    return existsSync(mark);
  };
  return { shared, bin, fake, PATH, runs };
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
  // Each reason it passes one over, named: a group another user may be in too.
  assert.match(
    said,
    /belongs to another user, or may be written by everyone or by a group that is not yours alone/,
    said,
  );
});

test(
  'a git in a folder another user owns, or everyone may write to, is never run (npm run in a project under /tmp names /tmp/node_modules/.bin)',
  { skip: process.getuid?.() !== 0 && 'needs root: the planted folder belongs to another user' },
  () => {
    const dir = workspace({ 'docs/state/STATE.md': S3 });
    gitInit(dir);
    // Another user's folder outside the repository, first on PATH.
    const { shared, bin, fake, PATH, runs } = plantGit(dir, 'node_modules/.bin/git');
    const NOBODY = 65534;
    const owners = (uid: number) => {
      for (const p of [path.join(shared, 'node_modules'), bin, fake]) chownSync(p, uid, uid);
    };
    owners(NOBODY);
    // The control: plain git by name runs the other user's program.
    assert.ok(runs('git'), "the control ran the other user's git");
    assert.equal(runs('tool'), false, "the tool ran the other user's git");
    // Yours, in a folder everyone may write to (no sticky bit): another user could have swapped it.
    owners(0);
    chmodSync(bin, 0o777);
    assert.equal(runs('tool'), false, 'the tool ran a git from a folder everyone may write to');
    // With the sticky bit the folder's entries are their owners' own: that git is yours and runs.
    chmodSync(bin, 0o1777);
    assert.equal(gitProgram({ PATH }, dir), fake);
    assert.equal(runs('tool'), true, 'your own git in a sticky folder ran');
  },
);

test(
  "a git in a folder its group may write, when that group is not yours alone, is never run; your own group's 775 folder still runs it",
  { skip: process.getuid?.() !== 0 && 'needs root: the planted folder belongs to another group' },
  () => {
    // This machine's own account files, as the tool reads them: group 1 (daemon) is another user's
    // primary group and not yours; your own primary group has no member but you (root).
    const mine = process.getgid!();
    const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
    assert.ok(
      passwd.some((l) => l.split(':')[2] !== '0' && l.split(':')[3] === '1'),
      'another user has group 1 as primary group',
    );
    assert.ok(
      !passwd.some((l) => l.split(':')[2] !== '0' && l.split(':')[3] === String(mine)),
      'no other user has your primary group',
    );
    const dir = workspace({ 'docs/state/STATE.md': S3 });
    gitInit(dir);
    const { shared, bin, fake, PATH, runs } = plantGit(dir, 'bin/git');
    // The folder root:daemon 775 (as /opt/tools/bin root:devs 775): a member of the group could put a git there.
    chownSync(bin, 0, 1);
    chmodSync(bin, 0o775);
    assert.ok(runs('git'), "the control ran the group's git");
    assert.equal(runs('tool'), false, 'the tool ran a git from a folder another group may write to');
    // Setgid too, as Debian's old /usr/local/bin (root:staff 2775).
    chmodSync(bin, 0o2775);
    assert.equal(runs('tool'), false, 'the tool ran a git from a setgid folder another group may write to');
    // The folder only yours, the file its group may write: a member could rewrite it.
    chmodSync(bin, 0o755);
    chownSync(fake, 0, 1);
    chmodSync(fake, 0o775);
    assert.equal(runs('tool'), false, 'the tool ran a git its group may rewrite');
    // A folder above it its group may write: a member could move `bin` away and put another there.
    chownSync(fake, 0, 0);
    chmodSync(fake, 0o755);
    chownSync(shared, 0, 1);
    chmodSync(shared, 0o775);
    assert.equal(runs('tool'), false, 'the tool ran a git below a folder another group may write to');
    // Your own private group's 775 folder (~/bin, ~/.local/bin with user private groups): it runs.
    chownSync(shared, 0, mine);
    chownSync(bin, 0, mine);
    chmodSync(bin, 0o775);
    assert.equal(gitProgram({ PATH }, dir), fake);
    assert.equal(runs('tool'), true, "your own git in your own group's 775 folder ran");
  },
);

test(
  "whose group's write counts: a group yours alone by the account files, never one they do not show to be",
  { skip: process.getuid?.() !== 0 && 'needs root: the folders are given to other groups' },
  () => {
    const mine = process.getgid!();
    const home = workspace({});
    const bin = path.join(home, 'bin');
    const git = write(home, 'bin/git', '#!/bin/sh\nexit 0\n');
    chmodSync(git, 0o755);
    /** Whether `git` passes with these account files (new files each time: each pair is read once per process). */
    const passes = (group: string | null, passwd: string): boolean => {
      const at = workspace({}, 'sl-accounts-');
      const files = { passwd: write(at, 'passwd', passwd), group: path.join(at, 'group') };
      if (group !== null) write(at, 'group', group);
      return othersCannotPlace(git, files);
    };
    const root = 'root:x:0:0:root:/root:/bin/bash\n';
    const alice = 'alice:x:1001:1001::/home/alice:/bin/sh\n';
    const own = `me:x:${mine}:\n`;
    // Your group's 775 folder, the group yours alone: passes.
    chownSync(bin, 0, mine);
    chmodSync(bin, 0o775);
    assert.equal(passes(own, root + alice), true, 'your own group, no other member');
    assert.equal(passes(`me:x:${mine}:root\n`, root + alice), true, 'root listed as a member (root may write anyway)');
    // Another user listed as a member, or with it as primary group, or a member no password entry names.
    assert.equal(passes(`me:x:${mine}:root,alice\n`, root + alice), false, 'another member listed');
    assert.equal(
      passes(own, root + `bob:x:1002:${mine}::/home/bob:/bin/sh\n`),
      false,
      'another user whose primary group it is',
    );
    assert.equal(passes(`me:x:${mine}:ghost\n`, root + alice), false, 'a member the password file does not name');
    // A second entry for the same group id adds its members.
    assert.equal(
      passes(own + `again:x:${mine}:alice\n`, root + alice),
      false,
      'a member under another name of the group',
    );
    // What the files cannot tell: the group not in them (NSS, LDAP), entries from NIS, a file not read.
    assert.equal(passes('other:x:4242:\n', root), false, 'your group not in the group file');
    assert.equal(passes(own + '+:::\n', root), false, 'a NIS line in the group file');
    assert.equal(passes(own, root + '+::::::\n'), false, 'a NIS line in the password file');
    assert.equal(passes(null, root), false, 'the group file cannot be read');
    // A group not yours, even with no member: refused (a group password lets a non-member in).
    chownSync(bin, 0, 4242);
    assert.equal(passes(own + 'tools:x:4242:\n', root), false, 'a group you are not in');
    // The sticky bit keeps each entry its owner's: the folder's group may add entries, not replace yours.
    chmodSync(bin, 0o1775);
    assert.equal(passes(null, root), true, 'a sticky folder its group may write');
    // Not group-writable at all: the files are not needed (a missing one changes nothing).
    chmodSync(bin, 0o755);
    assert.equal(passes(null, root), true, 'a folder only you may write');
    // The file itself its group may write, in your own folder.
    chownSync(git, 0, 4242);
    chmodSync(git, 0o775);
    assert.equal(passes(own + 'tools:x:4242:\n', root), false, 'a file another group may rewrite');
    // Each pair of files is read once per process: a later change to them is not seen.
    chownSync(git, 0, mine);
    const at = workspace({}, 'sl-accounts-');
    const files = { passwd: write(at, 'passwd', root), group: write(at, 'group', own) };
    assert.equal(othersCannotPlace(git, files), true, 'your group yours alone, the file 775');
    write(at, 'group', `me:x:${mine}:alice\n`);
    write(at, 'passwd', root + alice);
    assert.equal(othersCannotPlace(git, files), true, 'the files are not read again');
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
