/**
 * A repository with a submodule whose own config (`.git/modules/<name>/config`) names commands: an
 * fsmonitor hook, a clean filter its `.gitattributes` applies, an external diff, a pager; the
 * superproject's `.gitmodules` and config ask for the submodule's work tree to be looked at
 * (`ignore = none`, `diff.ignoreSubmodules = none`, `status.submoduleSummary`, `submodule.recurse`).
 * Plain git runs them (the control); our scans (`status`, `check`, SessionStart, the S3 git calls)
 * run none, neither from the superproject nor with the submodule itself opened as the workspace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readGit } from '../../src/core/git/git';
import { git, workspace, write } from './helpers';
import { HOSTILE_REPO_STATE, runIn } from './hostile-helpers';
import { sessionStart } from './checkpoint-fixtures';

/** A superproject with a submodule `sub` whose config names a command for every hook; `marks` is where each would leave a trace. */
function withSubmodule(): { top: string; sub: string; marks: string } {
  const base = workspace({}, 'sl-submod-');
  const marks = path.join(base, 'marks');
  const script = write(base, 'evil.sh', `#!/bin/sh\necho "$0 $*" >> '${marks}'\ncat\n`);
  chmodSync(script, 0o755);
  const origin = path.join(base, 'origin');
  write(origin, 'a.txt', 'hello\n');
  write(origin, '.gitattributes', '* filter=evil diff=evil\n');
  git(origin, 'init', '-q', '-b', 'main');
  git(origin, 'add', '.');
  git(origin, 'commit', '-qm', 'sub');
  const top = path.join(base, 'top');
  write(top, 'docs/state/STATE.md', HOSTILE_REPO_STATE);
  git(top, 'init', '-q', '-b', 'main');
  git(top, 'add', '.');
  git(top, 'commit', '-qm', 'init');
  git(top, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'sub');
  git(top, 'commit', '-qm', 'add sub');
  // The superproject asks for the submodule's work tree to be looked at, every way it can.
  git(top, 'config', '-f', '.gitmodules', 'submodule.sub.ignore', 'none');
  git(top, 'config', 'submodule.sub.ignore', 'none');
  git(top, 'config', 'diff.ignoreSubmodules', 'none');
  git(top, 'config', 'status.submoduleSummary', 'true');
  git(top, 'config', 'submodule.recurse', 'true');
  git(top, 'commit', '-qam', 'ignore none');
  // The submodule's own config, kept by the superproject in .git/modules/sub/config.
  const subConfig = path.join(top, '.git', 'modules', 'sub', 'config');
  assert.ok(existsSync(subConfig));
  appendFileSync(
    subConfig,
    [
      '[core]',
      `\tfsmonitor = ${script}`,
      `\tpager = ${script}`,
      '[diff]',
      `\texternal = ${script}`,
      '[diff "evil"]',
      `\ttextconv = ${script}`,
      '[filter "evil"]',
      `\tclean = ${script}`,
      '',
    ].join('\n'),
  );
  // A tracked file of the submodule with a new mtime and the same size: git must look at its content.
  const a = path.join(top, 'sub', 'a.txt');
  writeFileSync(a, 'HELLO\n');
  utimesSync(a, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
  return { top, sub: path.join(top, 'sub'), marks };
}

const ran = (marks: string): string => (existsSync(marks) ? readFileSync(marks, 'utf8') : '');

test("the hostile submodule is real: plain git status in the superproject and in the submodule runs the submodule's commands", () => {
  const { top, sub, marks } = withSubmodule();
  git(top, 'status');
  assert.notEqual(ran(marks), '', 'plain git status in the superproject ran a command of the submodule');
  rmSync(marks, { force: true });
  git(sub, 'status', '--porcelain');
  assert.notEqual(ran(marks), '', 'plain git status in the submodule ran its commands');
});

test('status, check, SessionStart and the git facts run nothing a submodule names (from the superproject)', async () => {
  const { top, marks } = withSubmodule();
  const st = await runIn(['status', '--json', '--root', top]);
  assert.equal(st.code, 0, st.stderr);
  // S3 compared its Branch / HEAD with git: the three git calls of that check ran too.
  const s3 = (JSON.parse(st.stdout) as { systems: Array<{ id: string; checks: Array<{ id: string }> }> }).systems.find(
    (s) => s.id === 'S3',
  );
  assert.ok(s3?.checks.some((c) => c.id === 'branch-head'));
  await runIn(['check', '--root', top]);
  await runIn(['hook', 'session-start'], {
    cwd: top,
    stdin: sessionStart(top, 'compact'),
    env: { CLAUDE_PROJECT_DIR: top },
  });
  const g = await readGit(top);
  assert.equal(g?.branch, 'main');
  assert.equal(ran(marks), '', `a command of the submodule ran:\n${ran(marks)}`);
});

test('with the submodule itself opened as the workspace, its config runs nothing either', async () => {
  const { sub, marks } = withSubmodule();
  write(sub, 'docs/state/STATE.md', HOSTILE_REPO_STATE);
  const st = await runIn(['status', '--json', '--root', sub]);
  assert.equal(st.code, 0, st.stderr);
  const g = await readGit(sub);
  assert.ok(g?.changed.includes('a.txt'), 'git looked at the changed file');
  assert.equal(ran(marks), '', `a command of the submodule ran:\n${ran(marks)}`);
});
