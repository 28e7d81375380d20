/**
 * Where git finds a repository and its config, and what else git can be made to start: a `.git` file
 * git reads otherwise than a quick parser would, a `.git` folder git passes over, a workspace folder
 * that is itself a git dir, worktree config, an `includeIf "onbranch:"` that holds only after a
 * branch switch, a partial clone whose missing objects git would fetch (a proxy, a transport or a
 * remote helper the config names), hooks, `GIT_CONFIG_*` in the caller's environment, and a
 * repository owned by another user. Each starts from a real repository whose config names a command
 * that leaves a mark; plain git runs it (the control), and no way this tool runs git ever does.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { configListingArgv, git as safeGit, namedInListing, readGit, type GitInfo } from '../../src/core/git/git';
import { git, gitInit, workspace, write } from './helpers';
import { HOSTILE_REPO_STATE, runIn } from './hostile-helpers';
import { sessionStart } from './checkpoint-fixtures';

/** A script that appends its arguments to `mark`, then passes its input through (a clean filter) or fails (a proxy, a transport). */
function evilScript(dir: string, mark: string, then: 'cat' | 'exit 1' = 'cat'): string {
  const f = write(dir, 'evil.sh', `#!/bin/sh\necho "$0 $*" >> '${mark}'\n${then}\n`);
  chmodSync(f, 0o755);
  return f;
}

/** A committed repository in `dir`: a.txt, which the `evil` filter applies to, and an S3 state file. */
function repoAt(dir: string): void {
  write(dir, 'a.txt', 'hello\n');
  write(dir, '.gitattributes', '*.txt filter=evil\n');
  write(dir, 'docs/state/STATE.md', HOSTILE_REPO_STATE);
  gitInit(dir);
}

/** A committed repository (`repoAt`) in a fresh folder, and a script outside it that leaves `mark` in it. */
function hostileRepo(prefix: string): { ws: string; mark: string; script: string } {
  const ws = workspace({}, prefix);
  repoAt(ws);
  const mark = path.join(ws, 'PWNED');
  return { ws, mark, script: evilScript(workspace({}, 'sl-bin-'), mark) };
}

let step = 0;
/** a.txt rewritten with the same size and a new mtime: git must look at its content again (the clean filter). */
function dirty(worktree: string): void {
  const a = path.join(worktree, 'a.txt');
  writeFileSync(a, `hel${String(++step % 100).padStart(2, '0')}\n`);
  const later = new Date(Date.now() + 5000 + 1000 * step);
  utimesSync(a, later, later);
}

const ran = (mark: string): string => (existsSync(mark) ? readFileSync(mark, 'utf8') : '');

/** Every way this tool runs git on `ws`: the git facts (returned), status, check, S3's merge-base and diff, cat-file. */
async function readEveryWay(ws: string): Promise<GitInfo | null> {
  const info = await readGit(ws);
  await runIn(['status', '--root', ws]);
  await runIn(['check', '--root', ws, '--json']);
  await safeGit(ws, ['merge-base', '--is-ancestor', 'HEAD', 'HEAD']);
  await safeGit(ws, ['diff', '--name-only', 'HEAD~0', 'HEAD']);
  await safeGit(ws, ['cat-file', 'commit', 'HEAD']);
  return info;
}

/** Control: plain git status in `ws` (after `dirty(worktree)`) does run what the config names. */
function plainGitRuns(ws: string, worktree: string, mark: string, env: NodeJS.ProcessEnv = process.env): void {
  dirty(worktree);
  try {
    execFileSync('git', ['status', '--porcelain'], { cwd: ws, env, stdio: 'ignore', timeout: 30_000 });
  } catch {
    /* the mark is what counts */
  }
  assert.notEqual(ran(mark), '', 'control: plain git status runs the command this repository names');
}

// ---------------------------------------------------------------------------------------------
// The git dir git itself finds

/** A repository in `ws` whose real git dir is `realName` (its config defines the filter), and a clean decoy repository `gd`. */
function gitfileRepo(gitfile: string, realName: string): { ws: string; mark: string } {
  const { ws, mark, script } = hostileRepo('sl-gitfile-');
  renameSync(path.join(ws, '.git'), path.join(ws, realName));
  appendFileSync(path.join(ws, realName, 'config'), `[filter "evil"]\n\tclean = ${script}\n`);
  git(ws, 'init', '-q', '--bare', 'gd');
  writeFileSync(path.join(ws, '.git'), gitfile);
  dirty(ws);
  return { ws, mark };
}

for (const c of [
  { name: 'two spaces after "gitdir:"', gitfile: 'gitdir:  gd\n', real: ' gd' },
  { name: 'a second "gitdir:" line', gitfile: 'gitdir: gd\ngitdir: other\n', real: 'gd\ngitdir: other' },
]) {
  test(`a .git file is read as git reads it ("gitdir: " and all that follows, to the end of the file): ${c.name}`, async () => {
    const { ws, mark } = gitfileRepo(c.gitfile, c.real);
    await readEveryWay(ws);
    assert.equal(ran(mark), '', 'the filter of the git dir git reads ran');
    plainGitRuns(ws, ws, mark);
  });
}

test('a .git folder git passes over (not a git dir) leaves git to the repository above, and its config runs nothing', async () => {
  const top = workspace({}, 'sl-passover-');
  const mark = path.join(top, 'PWNED');
  const script = evilScript(workspace({}, 'sl-bin-'), mark);
  write(top, 'sub/a.txt', 'hello\n');
  write(top, 'sub/.gitattributes', '*.txt filter=evil\n');
  write(top, 'sub/docs/state/STATE.md', HOSTILE_REPO_STATE);
  gitInit(top);
  appendFileSync(path.join(top, '.git/config'), `[filter "evil"]\n\tclean = ${script}\n`);
  // An empty .git folder in the workspace folder: no HEAD, no objects, so git looks further up.
  mkdirSync(path.join(top, 'sub/.git'));
  const ws = path.join(top, 'sub');
  dirty(ws);
  await readEveryWay(ws);
  assert.equal(ran(mark), '', 'the filter of the repository above ran');
  plainGitRuns(ws, ws, mark);
});

test('a workspace folder that is itself a git dir (HEAD, objects, refs, core.worktree) runs nothing its config names', async () => {
  const outer = workspace({}, 'sl-baredir-');
  gitInit(outer);
  const mark = path.join(outer, 'PWNED');
  const script = evilScript(workspace({}, 'sl-bin-'), mark);
  const ws = path.join(outer, 'ws');
  const wt = path.join(outer, 'wt');
  write(wt, 'a.txt', 'hello\n');
  write(wt, '.gitattributes', '*.txt filter=evil\n');
  git(outer, 'init', '-q', '--bare', 'ws');
  git(outer, '--git-dir=ws', 'config', 'core.bare', 'false');
  git(outer, '--git-dir=ws', 'config', 'core.worktree', wt);
  git(outer, '--git-dir=ws', `--work-tree=${wt}`, 'add', '.');
  git(outer, '--git-dir=ws', `--work-tree=${wt}`, 'commit', '-qm', 'w');
  appendFileSync(path.join(ws, 'config'), `[filter "evil"]\n\tclean = ${script}\n`);
  write(ws, 'docs/state/STATE.md', HOSTILE_REPO_STATE);
  dirty(wt);
  await readEveryWay(ws);
  assert.equal(ran(mark), '', 'the filter of the git dir the workspace folder is ran');
  plainGitRuns(ws, wt, mark);
});

// ---------------------------------------------------------------------------------------------
// Config git reads only in some worktrees, or only on some branches

test('worktree config (extensions.worktreeConfig): config.worktree of the main worktree and of a linked one runs nothing', async () => {
  const { ws: main, mark, script } = hostileRepo('sl-wtcfg-');
  git(main, 'config', 'extensions.worktreeConfig', 'true');
  writeFileSync(path.join(main, '.git/config.worktree'), `[filter "evil"]\n\tclean = ${script}\n`);
  dirty(main);
  assert.ok((await readEveryWay(main))?.changed.includes('a.txt'), 'git facts of the main worktree were read');
  assert.equal(ran(mark), '', 'the filter of the main worktree config ran');
  plainGitRuns(main, main, mark);

  const linked = path.join(workspace({}, 'sl-linked-'), 'lw');
  git(main, 'worktree', 'add', '-q', '-b', 'side', linked);
  writeFileSync(path.join(main, '.git/config.worktree'), '');
  git(linked, 'config', '--worktree', 'filter.evil.clean', script);
  rmSync(mark, { force: true });
  dirty(linked);
  const info = await readEveryWay(linked);
  assert.equal(info?.branch, 'side', 'git facts of the linked worktree were read');
  assert.ok(info?.changed.includes('a.txt'));
  assert.equal(ran(mark), '', 'the filter of the linked worktree config ran');
  plainGitRuns(linked, linked, mark);
});

test('an includeIf "onbranch:" that holds only after a branch switch runs nothing, read before and after the switch in one process', async () => {
  const { ws, mark, script } = hostileRepo('sl-onbranch-');
  git(ws, 'branch', 'feature');
  appendFileSync(path.join(ws, '.git/config'), '[includeIf "onbranch:feature"]\n\tpath = feature.cfg\n');
  writeFileSync(path.join(ws, '.git/feature.cfg'), `[filter "evil"]\n\tclean = ${script}\n`);
  dirty(ws);
  await readEveryWay(ws);
  // The agent switches branches (same commit, nothing checked out); this process reads the repository again.
  writeFileSync(path.join(ws, '.git/HEAD'), 'ref: refs/heads/feature\n');
  dirty(ws);
  assert.equal((await readEveryWay(ws))?.branch, 'feature', 'git facts were read on the new branch');
  assert.equal(ran(mark), '', 'the filter included on branch feature ran');
  plainGitRuns(ws, ws, mark);
});

test('a config git reads otherwise than it was read first (an included file swapped since, or one not read): git is not run on it', () => {
  const ws = workspace({}, 'sl-otherwise-');
  repoAt(ws);
  const extra = write(ws, 'extra.cfg', '[filter "evil"]\n\tclean = cat\n');
  appendFileSync(path.join(ws, '.git/config'), '[include]\n\tpath = ../extra.cfg\n');
  const id = (f: string) => {
    const st = statSync(f);
    return `${st.dev}:${st.ino}`;
  };
  const listing = () =>
    // As askGit asks it: with the git dir and work tree named, so each origin is an absolute path.
    execFileSync('git', configListingArgv(path.join(ws, '.git'), ws), {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
  const read = new Set([id(path.join(ws, '.git/config')), id(extra)]);
  const found = { filters: new Set<string>(), protocols: new Set<string>(), read };
  // Control: every file git reads was read first; the filter it names is found.
  assert.deepEqual([...(namedInListing(listing(), found)?.filters ?? [])], ['evil']);
  // A file never read (the include's identity not among those read): not run.
  assert.equal(namedInListing(listing(), { ...found, read: new Set([id(path.join(ws, '.git/config'))]) }), null);
  // The included file swapped for another since it was read (a new file renamed over it): not run.
  writeFileSync(`${extra}.new`, '[filter "evil"]\n\tclean = cat\n[core]\n\tfsmonitor = true\n');
  renameSync(`${extra}.new`, extra);
  assert.equal(namedInListing(listing(), found), null);
});

// ---------------------------------------------------------------------------------------------
// A partial clone: git fetches a missing object from its promisor remote, through what the config names

/**
 * What a partial clone's promisor remote is fetched through: the repository's config, and `global`, the
 * user's own (~/.gitconfig); `helper`: by the remote helper git-remote-evil.
 */
const PROMISOR: Array<{ name: string; config: (script: string) => string[][]; global?: string; helper?: boolean }> = [
  {
    name: 'git:// through core.gitProxy, protocol.git.allow = always',
    config: (s) => [
      ['remote.origin.url', 'git://127.0.0.1:9/x'],
      ['core.gitProxy', s],
      ['protocol.git.allow', 'always'],
    ],
  },
  {
    name: 'a remote helper, protocol.evil.allow = always',
    config: () => [
      ['remote.origin.url', 'evil::x'],
      ['protocol.evil.allow', 'always'],
    ],
    helper: true,
  },
  {
    name: 'a remote helper by remote.origin.vcs, protocol.evil.allow = user',
    config: () => [
      ['remote.origin.url', 'x'],
      ['remote.origin.vcs', 'evil'],
      ['protocol.evil.allow', 'user'],
    ],
    helper: true,
  },
  {
    name: 'ext:: transport, protocol.ext.allow = always',
    config: (s) => [
      ['remote.origin.url', `ext::${s} %S`],
      ['protocol.ext.allow', 'always'],
    ],
  },
  {
    name: 'a local path with remote.origin.uploadpack, protocol.file.allow = always',
    config: (s) => [
      ['remote.origin.url', '/nonexistent/x'],
      ['remote.origin.uploadpack', s],
      ['protocol.file.allow', 'always'],
    ],
  },
  {
    name: "git:// through core.gitProxy, protocol.git.allow = always in the user's own global config",
    config: (s) => [
      ['remote.origin.url', 'git://127.0.0.1:9/x'],
      ['core.gitProxy', s],
    ],
    global: '[protocol "git"]\n\tallow = always\n',
  },
  {
    name: 'ssh through core.sshCommand, protocol.allow = always',
    config: (s) => [
      ['remote.origin.url', 'ssh://127.0.0.1/x'],
      ['core.sshCommand', s],
      ['protocol.allow', 'always'],
    ],
  },
];

/** A remote helper the user has installed (git runs git-remote-<name> for a URL "<name>::…"), first on PATH for this test. */
function installHelper(t: TestContext): string {
  const bin = workspace({}, 'sl-helper-');
  const mark = path.join(bin, 'PWNED');
  write(bin, 'git-remote-evil', `#!/bin/sh\necho "$0 $*" >> '${mark}'\nexit 1\n`);
  chmodSync(path.join(bin, 'git-remote-evil'), 0o755);
  const before = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${before}`;
  t.after(() => (process.env.PATH = before));
  return mark;
}

for (const v of PROMISOR) {
  test(`a partial clone missing HEAD fetches nothing: ${v.name}`, async (t: TestContext) => {
    const ws = workspace({}, 'sl-promisor-');
    repoAt(ws);
    const mark = v.helper ? installHelper(t) : path.join(ws, 'PWNED');
    if (v.global) {
      const home = workspace({}, 'sl-home-');
      writeFileSync(path.join(home, '.gitconfig'), v.global);
      const before = process.env.HOME;
      process.env.HOME = home;
      t.after(() => (process.env.HOME = before));
    }
    const script = evilScript(workspace({}, 'sl-bin-'), mark, 'exit 1');
    git(ws, 'config', 'core.repositoryformatversion', '1');
    git(ws, 'config', 'extensions.partialClone', 'origin');
    git(ws, 'config', 'remote.origin.promisor', 'true');
    for (const [k, val] of v.config(script)) git(ws, 'config', k, val);
    const head = git(ws, 'rev-parse', 'HEAD').trim();
    rmSync(path.join(ws, '.git/objects', head.slice(0, 2), head.slice(2)));
    await readEveryWay(ws);
    assert.equal(ran(mark), '', `a fetch of the missing object started ${ran(mark)}`);
    plainGitRuns(ws, ws, mark);
  });
}

// ---------------------------------------------------------------------------------------------
// Hooks, the caller's environment, another user's repository

test('hooks never run: post-index-change in .git/hooks or in core.hooksPath', async () => {
  for (const where of ['.git/hooks', 'core.hooksPath'] as const) {
    const ws = workspace({}, 'sl-hooks-');
    repoAt(ws);
    const mark = path.join(ws, 'PWNED');
    const dir = where === '.git/hooks' ? path.join(ws, '.git/hooks') : path.join(ws, 'my-hooks');
    const hook = write(dir, 'post-index-change', `#!/bin/sh\necho "$0" >> '${mark}'\n`);
    chmodSync(hook, 0o755);
    if (where === 'core.hooksPath') git(ws, 'config', 'core.hooksPath', dir);
    // No filter here: only the hook can leave the mark.
    writeFileSync(path.join(ws, '.gitattributes'), '');
    dirty(ws);
    await readEveryWay(ws);
    assert.equal(ran(mark), '', `${where}: a hook ran`);
    plainGitRuns(ws, ws, mark);
  }
});

test("GIT_CONFIG_* and GIT_DIR in the caller's environment (a hook's, say) reach no git run", async (t: TestContext) => {
  const { ws, mark, script } = hostileRepo('sl-envcfg-');
  const other = workspace({}, 'sl-otherrepo-');
  repoAt(other);
  appendFileSync(path.join(other, '.git/config'), `[core]\n\tfsmonitor = ${script}\n`);
  const globalCfg = write(workspace({}, 'sl-global-'), 'gitconfig', `[core]\n\tpager = ${script}\n`);
  const hostile: NodeJS.ProcessEnv = {
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'filter.evil.clean',
    GIT_CONFIG_VALUE_0: script,
    GIT_CONFIG_KEY_1: 'core.fsmonitor',
    GIT_CONFIG_VALUE_1: script,
    GIT_CONFIG_PARAMETERS: `'diff.external'='${script}'`,
    GIT_CONFIG_GLOBAL: globalCfg,
    GIT_DIR: path.join(other, '.git'),
  };
  const saved = Object.fromEntries(Object.keys(hostile).map((k) => [k, process.env[k]]));
  Object.assign(process.env, hostile);
  t.after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  dirty(ws);
  await readEveryWay(ws);
  await runIn(['hook', 'session-start'], {
    cwd: ws,
    env: { CLAUDE_PROJECT_DIR: ws },
    stdin: sessionStart(ws, 'compact'),
  });
  assert.equal(ran(mark), '', 'a command named in the environment ran');
  plainGitRuns(ws, ws, mark, { ...process.env });
});

// git starts its own commands (`git fetch` for a partial clone's missing object) from GIT_EXEC_PATH: a
// relative one is the work tree's folder, an absolute one any folder the caller names.
for (const spelling of ['relative', 'absolute'] as const) {
  test(`GIT_EXEC_PATH in the caller's environment (${spelling}) starts no program of the repository`, async (t: TestContext) => {
    const ws = workspace({}, 'sl-execpath-');
    repoAt(ws);
    const mark = path.join(ws, 'PWNED');
    // git's own commands, as the repository commits them: each leaves the mark.
    for (const name of ['git', 'git-fetch']) {
      write(ws, `tools/${name}`, `#!/bin/sh\necho "$0 $*" >> '${mark}'\nexit 1\n`);
      chmodSync(path.join(ws, 'tools', name), 0o755);
    }
    git(ws, 'config', 'core.repositoryformatversion', '1');
    git(ws, 'config', 'extensions.partialClone', 'origin');
    git(ws, 'config', 'remote.origin.promisor', 'true');
    git(ws, 'config', 'remote.origin.url', '/nonexistent/x');
    const head = git(ws, 'rev-parse', 'HEAD').trim();
    rmSync(path.join(ws, '.git/objects', head.slice(0, 2), head.slice(2)));
    const before = process.env.GIT_EXEC_PATH;
    process.env.GIT_EXEC_PATH = spelling === 'relative' ? 'tools' : path.join(ws, 'tools');
    t.after(() => {
      if (before === undefined) delete process.env.GIT_EXEC_PATH;
      else process.env.GIT_EXEC_PATH = before;
    });
    await readEveryWay(ws);
    await runIn(['hook', 'session-start'], {
      cwd: ws,
      env: { CLAUDE_PROJECT_DIR: ws },
      stdin: sessionStart(ws, 'compact'),
    });
    assert.equal(ran(mark), '', `a program of the repository ran: ${ran(mark)}`);
    // Control: plain git in the same environment runs it.
    plainGitRuns(ws, ws, mark, { ...process.env });
  });
}

const isRoot = process.getuid?.() === 0;

test(
  "a repository owned by another user is not read (git's own ownership check), its own safe.directory notwithstanding",
  { skip: !isRoot && 'needs root to give the repository to another user' },
  async () => {
    const { ws, mark, script } = hostileRepo('sl-owner-');
    appendFileSync(path.join(ws, '.git/config'), `[safe]\n\tdirectory = *\n[filter "evil"]\n\tclean = ${script}\n`);
    dirty(ws);
    const chownAll = (dir: string): void => {
      chownSync(dir, 65534, 65534);
      for (const e of readdirSync(dir, { withFileTypes: true }))
        if (e.isDirectory()) chownAll(path.join(dir, e.name));
        else chownSync(path.join(dir, e.name), 65534, 65534);
    };
    chownAll(ws);
    assert.equal(await readGit(ws), null, 'git facts were read from a repository git itself refuses');
    await readEveryWay(ws);
    assert.equal(ran(mark), '');
    // Control: plain git refuses it too (the repository's own safe.directory counts for nothing).
    assert.throws(() => execFileSync('git', ['status'], { cwd: ws, stdio: 'pipe' }), /dubious ownership/);
  },
);
