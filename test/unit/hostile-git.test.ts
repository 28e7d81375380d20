/**
 * A cloned repository whose own config names commands (fsmonitor hook, filter driver, pager,
 * external diff, textconv, and every other key whose value git runs): reading it runs none of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { git as safeGit, parseStatusV2, readGit, safeRepo } from '../../src/core/git/git';
import { CLI, git, gitInit, workspace, write } from './helpers';
import { runIn } from './hostile-helpers';

const S3 = `# State

## Handoff

- **Status:** hostile repo
- **Branch / HEAD:** main
- **Now ▶** read the config and run nothing from it

## Log

### 2026-11-30 - start
- Done: nothing
`;

/**
 * More keys whose value git runs as a program, none of them in a command this tool runs (an editor, a
 * signature check, a pager per command, a driver's diff command, what a fetch or a push would start):
 * set all the same, `[section "sub"] key` written as `section "sub".key`, with the name of its mark.
 */
const OTHER_KEYS: ReadonlyArray<[string, string]> = [
  ['diff "evil".command', 'diffcmd'],
  ['pager.status', 'pagerstatus'],
  ['pager.diff', 'pagerdiff'],
  ['core.editor', 'editor'],
  ['sequence.editor', 'seqeditor'],
  ['gpg.program', 'gpg'],
  ['gpg "ssh".program', 'gpgssh'],
  ['core.alternateRefsCommand', 'altrefs'],
  ['core.askPass', 'askpass'],
  ['core.sshCommand', 'ssh'],
  ['core.gitProxy', 'gitproxy'],
  ['credential.helper', 'credential'],
  ['uploadpack.packObjectsHook', 'packhook'],
  ['merge "evil".driver', 'mergedriver'],
];

/** A repository with a committed S3 state, then a config that names a command for every hook git has. */
function hostileRepo(): { dir: string; pwned: string[] } {
  const dir = workspace({
    'docs/state/STATE.md': S3,
    'src/a.txt': 'hello\n',
    '.gitattributes': '* filter=evil diff=evil\n',
  });
  gitInit(dir);
  const names = ['fsmonitor', 'filter', 'pager', 'extdiff', 'textconv', 'incfilter', ...OTHER_KEYS.map(([, n]) => n)];
  const marks = names.map((n) => path.join(dir, `PWNED-${n}`));
  const script = (name: string) => {
    const f = write(dir, `.git/evil-${name}.sh`, `#!/bin/sh\ntouch '${path.join(dir, `PWNED-${name}`)}'\ncat\n`);
    chmodSync(f, 0o755);
    return f;
  };
  const cfg = [
    '[core]',
    `\tfsmonitor = ${script('fsmonitor')}`,
    `\tpager = ${script('pager')}`,
    '[diff]',
    `\texternal = ${script('extdiff')}`,
    '[diff "evil"]',
    `\ttextconv = ${script('textconv')}`,
    '[filter "evil"]',
    `\tclean = ${script('filter')}`,
    '[include]',
    '\tpath = extra.config',
    ...OTHER_KEYS.map(
      ([key, n]) => `[${key.slice(0, key.lastIndexOf('.'))}]\n\t${key.slice(key.lastIndexOf('.') + 1)} = ${script(n)}`,
    ),
  ].join('\n');
  writeFileSync(
    path.join(dir, '.git/config'),
    `${require('node:fs').readFileSync(path.join(dir, '.git/config'), 'utf8')}\n${cfg}\n`,
  );
  // A second driver, defined only in an included file, in the old `[filter.name]` spelling.
  write(dir, '.git/extra.config', `[filter.inc]\n\tclean = ${script('incfilter')}\n`);
  write(dir, '.gitattributes', '* filter=evil diff=evil merge=evil\n*.txt filter=inc\n');
  // A tracked file with a new mtime and the same size: git must look at its content (the clean filter).
  const a = path.join(dir, 'src/a.txt');
  writeFileSync(a, 'HELLO\n');
  utimesSync(a, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
  return { dir, pwned: marks };
}

test('the hostile config is real: plain git status runs its fsmonitor and filter commands', () => {
  const { dir, pwned } = hostileRepo();
  git(dir, 'status', '--porcelain');
  assert.ok(existsSync(pwned[0]), 'plain git ran the fsmonitor hook');
  assert.ok(existsSync(pwned[1]) || existsSync(pwned[5]), 'plain git ran a clean filter');
});

test('status, check and the hooks read a hostile repository without running anything it names', async () => {
  const { dir, pwned } = hostileRepo();
  const r = await runIn(['status', '--root', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /S3/);
  await runIn(['check', '--root', dir, '--json']);
  const info = await readGit(dir);
  assert.ok(info, 'git facts were read');
  assert.equal(info.branch, 'main');
  assert.match(info.head ?? '', /^[0-9a-f]{40}$/);
  assert.ok(info.headTime && info.headTime > 0);
  assert.ok(info.changed.includes('src/a.txt'), `changed: ${info.changed.join(', ')}`);
  // Commands that diff or log, as the S3 branch check uses them.
  await safeGit(dir, ['diff', 'HEAD', '--', '.']);
  await safeGit(dir, ['log', '-1', '-p']);
  for (const p of pwned) assert.equal(existsSync(p), false, `${path.basename(p)} must not exist`);
});

test('the filter drivers are found in the config and its includes (both spellings)', async () => {
  const { dir } = hostileRepo();
  const repo = await safeRepo(path.join(dir, 'docs'));
  assert.equal(repo?.top, dir);
  assert.deepEqual(repo?.filters.sort(), ['evil', 'inc']);
});

test('a config that is a FIFO, or a driver name -c cannot express, means git is not run at all (no hang)', async () => {
  const { dir } = hostileRepo();
  const fifo = path.join(dir, '.git/extra.config');
  rmSync(fifo);
  require('node:child_process').execFileSync('mkfifo', [fifo]);
  const t0 = Date.now();
  assert.equal(await readGit(dir), null);
  // Not a speed figure: git reading the FIFO would sit there until its 10 s time limit.
  assert.ok(Date.now() - t0 < 5_000, `git was left waiting on the FIFO (${Date.now() - t0} ms)`);
  rmSync(fifo);
  write(dir, '.git/extra.config', '[filter "a=b"]\n\tclean = x\n');
  assert.equal(await readGit(dir), null);
});

test("git runs without the caller's GIT_* variables: a filter they name never runs (and does run for plain git)", () => {
  const dir = workspace({ 'docs/state/STATE.md': S3, 'src/a.txt': 'hello\n', '.gitattributes': '* filter=envf\n' });
  gitInit(dir);
  const mark = (n: string) => path.join(dir, `PWNED-${n}`);
  const script = (n: string) => {
    const f = write(dir, `.git/evil-${n}.sh`, `#!/bin/sh\ntouch '${mark(n)}'\ncat\n`);
    chmodSync(f, 0o755);
    return f;
  };
  // A config file the environment names (as a repository's .envrc could), and a filter given in the environment itself.
  write(dir, '.git/env.config', `[filter "envf"]\n\tclean = ${script('global')}\n`);
  const cases: Array<[string, NodeJS.ProcessEnv]> = [
    ['global', { GIT_CONFIG_GLOBAL: path.join(dir, '.git/env.config') }],
    ['count', { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'filter.envf.clean', GIT_CONFIG_VALUE_0: script('count') }],
  ];
  const touch = () => {
    // A tracked file with a new mtime and the same size: git must look at its content (the clean filter).
    const a = path.join(dir, 'src/a.txt');
    writeFileSync(a, 'HELLO\n');
    utimesSync(a, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
  };
  for (const [name, env] of cases) {
    touch();
    const ours = spawnSync(process.execPath, [CLI, 'status', '--root', dir], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    assert.equal(ours.status, 0, ours.stderr);
    assert.equal(existsSync(mark(name)), false, `${name}: the filter the environment names did not run`);
    touch();
    spawnSync('git', ['status', '--porcelain'], { cwd: dir, env: { ...process.env, ...env } });
    assert.ok(existsSync(mark(name)), `${name}: control, plain git with that environment runs it`);
  }
});

test('HEAD time comes from a loose object, a packed object, or git itself, and agrees with git', async () => {
  const dir = workspace({ 'a.md': 'a\n' });
  gitInit(dir);
  const want = Number(git(dir, 'log', '-1', '--format=%ct').trim()) * 1000;
  assert.equal((await readGit(dir))?.headTime, want);
  git(dir, 'gc', '-q');
  assert.equal(
    existsSync(path.join(dir, '.git/objects', git(dir, 'rev-parse', 'HEAD').trim().slice(0, 2))),
    false,
    'HEAD is packed now',
  );
  assert.equal((await readGit(dir))?.headTime, want);
});

test('porcelain v2 parsing: renames (both names), unmerged, untracked, paths with spaces, detached HEAD, what HEAD holds', () => {
  const a = 'a'.repeat(40);
  const out = [
    '# branch.oid 0123456789abcdef0123456789abcdef01234567',
    '# branch.head (detached)',
    `1 .M N... 100644 100644 100644 ${a} ${'b'.repeat(40)} src/with space.ts`,
    `1 A. N... 000000 100644 100644 ${'0'.repeat(40)} ${'b'.repeat(40)} added.md`,
    `2 R. N... 100644 100644 100644 ${a} ${a} R100 new name.md`,
    'old name.md',
    'u UU N... 100644 100644 100644 100644 a b c conflict.txt',
    '? untracked dir/file.txt',
    '',
  ].join('\0');
  const paths = [
    'src/with space.ts',
    'added.md',
    'new name.md',
    'old name.md',
    'conflict.txt',
    'untracked dir/file.txt',
  ];
  assert.deepEqual(parseStatusV2(out), {
    branch: null,
    head: '0123456789abcdef0123456789abcdef01234567',
    paths,
    entries: paths.map((p) => ({ path: p, head: p === 'src/with space.ts' || p === 'old name.md' ? a : null })),
  });
});
