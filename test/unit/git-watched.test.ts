/**
 * What the extension watches so git's facts follow a commit, a checkout, a reset or a stage without a
 * Refresh (src/core/git/watched.ts): the files of each repository layout (a plain repository, a
 * workspace folder below the top, a linked worktree, a `.git` file naming a git dir elsewhere, a
 * detached HEAD, a branch whose folder is not there yet, reftable), and, with real git, that every
 * such operation rewrites a file the plan made before it names, while the tool's own git runs
 * rewrite none (no read of its own starts another).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, realpathSync, statSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { readGit } from '../../src/core/git/git';
import { gitWatches, gitWatchesOf, headRef, type GitWatch } from '../../src/core/git/watched';
import { gitEventKind, gitFilesOf, stateTest } from '../../src/extension/pure/git-events';
import { git, workspace, write } from './helpers';

const exists = (dirs: string[]) => (abs: string) => dirs.includes(abs);
/** A plain repository at /w, the workspace folder its top. */
const PLAIN = { root: '/w', dirs: { top: '/w', gitDir: '/w/.git', commonDir: '/w/.git' } };

test('a plain repository: HEAD and the index in .git, packed-refs, the branch in refs/heads, the .git at the top', () => {
  const w = gitWatchesOf({ ...PLAIN, head: 'ref: refs/heads/main\n' }, exists(['/w/.git/refs', '/w/.git/refs/heads']));
  assert.deepEqual(w, [
    { dir: '/w', names: ['.git'] },
    { dir: '/w/.git', names: ['HEAD', 'index', 'packed-refs'] },
    { dir: '/w/.git/refs/heads', names: ['main'] },
  ]);
});

test('a workspace folder below the top: the .git of every folder from the top down to it (a repository made nearer is found first), also below a folder whose name starts with two dots (`..cache`)', () => {
  for (const [root, dirs] of [
    ['/r/a/b', ['/r', '/r/a', '/r/a/b']],
    ['/r/..cache/x', ['/r', '/r/..cache', '/r/..cache/x']],
  ] as const) {
    const w = gitWatchesOf(
      { root, dirs: { top: '/r', gitDir: '/r/.git', commonDir: '/r/.git' }, head: 'ref: refs/heads/main' },
      exists(['/r/.git/refs', '/r/.git/refs/heads']),
    );
    assert.deepEqual(
      w.filter((x) => x.names.includes('.git')).map((x) => x.dir),
      dirs,
      root,
    );
  }
});

test('a linked worktree: its own HEAD, index and commondir in its git dir, the branch and packed-refs in the common dir, and its .git file', () => {
  const w = gitWatchesOf(
    {
      root: '/wt',
      dirs: { top: '/wt', gitDir: '/main/.git/worktrees/wt', commonDir: '/main/.git' },
      head: 'ref: refs/heads/topic\n',
    },
    exists(['/main/.git/refs', '/main/.git/refs/heads']),
  );
  assert.deepEqual(w, [
    { dir: '/main/.git', names: ['packed-refs'] },
    { dir: '/main/.git/refs/heads', names: ['topic'] },
    { dir: '/main/.git/worktrees/wt', names: ['HEAD', 'commondir', 'index'] },
    { dir: '/wt', names: ['.git'] },
  ]);
});

test('refs git keeps per worktree (bisect, worktree, rewritten) are watched in the worktree git dir', () => {
  const w = gitWatchesOf(
    {
      root: '/wt',
      dirs: { top: '/wt', gitDir: '/main/.git/worktrees/wt', commonDir: '/main/.git' },
      head: 'ref: refs/worktree/here',
    },
    exists(['/main/.git/worktrees/wt/refs', '/main/.git/worktrees/wt/refs/worktree']),
  );
  assert.ok(w.some((x) => x.dir === '/main/.git/worktrees/wt/refs/worktree' && x.names.includes('here')));
});

test('a branch whose folder is not there yet (feature/x before its first commit) is watched at the nearest folder that is, for the next name', () => {
  const w = gitWatchesOf(
    { ...PLAIN, head: 'ref: refs/heads/feature/x' },
    exists(['/w/.git/refs', '/w/.git/refs/heads']),
  );
  assert.deepEqual(w.find((x) => x.dir === '/w/.git/refs/heads')?.names, ['feature']);
  // No refs/heads at all: refs, for "heads".
  const bare = gitWatchesOf({ ...PLAIN, head: 'ref: refs/heads/main' }, exists(['/w/.git/refs']));
  assert.deepEqual(bare.find((x) => x.dir === '/w/.git/refs')?.names, ['heads']);
});

test("a detached HEAD watches no ref (HEAD itself moves); a reftable repository watches tables.list; no repository watches the folder's .git", () => {
  const detached = gitWatchesOf({ ...PLAIN, head: `${'a'.repeat(40)}\n` }, exists(['/w/.git/refs']));
  assert.deepEqual(
    detached.map((x) => x.dir),
    ['/w', '/w/.git'],
  );
  const reftable = gitWatchesOf({ ...PLAIN, head: 'ref: refs/heads/.invalid' }, exists(['/w/.git/reftable']));
  assert.deepEqual(reftable.find((x) => x.dir === '/w/.git/reftable')?.names, ['tables.list']);
  assert.deepEqual(gitWatchesOf({ root: '/w', dirs: null, head: null }, exists([])), [{ dir: '/w', names: ['.git'] }]);
});

test('HEAD naming a ref that leaves its folder (`..`, an empty part) watches no ref', () => {
  for (const head of ['ref: refs/../../etc/passwd', 'ref: refs/heads//x', 'ref: refs/heads/./x', 'ref: heads/main', ''])
    assert.equal(headRef(head), null, head);
  assert.equal(headRef('ref:   refs/heads/main  \r\n'), 'refs/heads/main');
  const w = gitWatchesOf(
    { ...PLAIN, head: 'ref: refs/../../../etc/x' },
    exists(['/w/.git/refs', '/w/.git/refs/heads']),
  );
  assert.deepEqual(
    w.map((x) => x.dir),
    ['/w', '/w/.git'],
  );
});

// ---------------------------------------------------------------------------------------------
// With real git

/**
 * Each watched file's identity: device, inode, size, modification time; 'none' when it is not there.
 * A folder (a `.git` folder, a ref's folder) by its inode alone: a watch of the folder above it sees
 * it made, removed or replaced, not what is written inside it.
 */
function identities(watches: readonly GitWatch[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of gitFilesOf(watches)) {
    try {
      const st = statSync(f, { bigint: true });
      out.set(f, st.isDirectory() ? `${st.dev}:${st.ino}` : `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`);
    } catch {
      out.set(f, 'none');
    }
  }
  return out;
}

/** The watched files (relative to `base`) that `op` rewrote, made or removed, by the plan made before it. */
async function touchedBy(root: string, base: string, op: () => unknown): Promise<string[]> {
  const { watches } = await gitWatches(root);
  const before = identities(watches);
  await op();
  const after = identities(watches);
  return [...before.keys()].filter((f) => before.get(f) !== after.get(f)).map((f) => path.relative(base, f));
}

function repoWith(files: Record<string, string> = { 'a.txt': 'a\n' }): string {
  const dir = realpathSync(workspace(files));
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'first');
  return dir;
}

const commit = (dir: string, rel: string, msg: string) => () => {
  appendFileSync(path.join(dir, rel), `${msg}\n`);
  git(dir, 'add', '--', rel);
  git(dir, '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', msg);
};

test('with real git, in a plain repository: a commit, a stage, a branch switch, a reset, packed refs and a detached commit each rewrite a watched file', async () => {
  const dir = repoWith();
  const branch = git(dir, 'symbolic-ref', '--short', 'HEAD').trim();
  const touched = await touchedBy(dir, dir, commit(dir, 'a.txt', 'two'));
  assert.ok(touched.includes(`.git/refs/heads/${branch}`), touched.join(', '));
  assert.ok(touched.includes('.git/index'), touched.join(', '));
  write(dir, 'b.txt', 'b\n');
  assert.deepEqual(await touchedBy(dir, dir, () => git(dir, 'add', 'b.txt')), ['.git/index']);
  assert.ok((await touchedBy(dir, dir, () => git(dir, 'checkout', '-q', '-b', 'feature/x'))).includes('.git/HEAD'));
  // The plan made after the switch watches the new branch.
  assert.ok(
    (await touchedBy(dir, dir, commit(dir, 'b.txt', 'three'))).includes('.git/refs/heads/feature/x'),
    'a commit on feature/x',
  );
  assert.ok(
    (await touchedBy(dir, dir, () => git(dir, 'reset', '-q', '--soft', 'HEAD~1'))).includes(
      '.git/refs/heads/feature/x',
    ),
  );
  // The branch only in packed-refs (its loose ref removed, and with it the empty feature/ folder): a commit
  // writes the loose ref again, seen where the plan made after pack-refs looks.
  assert.ok((await touchedBy(dir, dir, () => git(dir, 'pack-refs', '--all'))).includes('.git/packed-refs'));
  const again = await touchedBy(dir, dir, commit(dir, 'a.txt', 'four'));
  assert.ok(again.includes('.git/refs/heads/feature') || again.includes('.git/refs/heads/feature/x'), again.join(', '));
  assert.ok((await touchedBy(dir, dir, () => git(dir, 'checkout', '-q', '--detach'))).includes('.git/HEAD'));
  assert.ok((await touchedBy(dir, dir, commit(dir, 'a.txt', 'five'))).includes('.git/HEAD'), 'a detached commit');
});

test("with real git, a repository's first commit makes the branch's ref the plan watches (unborn HEAD), and a branch whose folder is new makes that folder", async () => {
  const dir = realpathSync(workspace({ 'a.txt': 'a\n' }));
  git(dir, 'init', '-q');
  git(dir, 'checkout', '-q', '-b', 'team/first');
  git(dir, 'add', 'a.txt');
  const touched = await touchedBy(dir, dir, () =>
    git(dir, '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'first'),
  );
  assert.ok(touched.includes('.git/refs/heads/team'), touched.join(', '));
  assert.ok(
    (await touchedBy(dir, dir, commit(dir, 'a.txt', 'two'))).includes('.git/refs/heads/team/first'),
    'the next plan watches the ref itself',
  );
});

test('with real git, a workspace folder below the top: the folders up to the top are watched, and a commit made there is seen', async () => {
  const dir = repoWith({ 'sub/deep/a.txt': 'a\n' });
  const root = path.join(dir, 'sub', 'deep');
  const { watches } = await gitWatches(root);
  assert.deepEqual(
    watches.filter((w) => w.names.includes('.git')).map((w) => path.relative(dir, w.dir)),
    ['', 'sub', 'sub/deep'],
  );
  assert.ok((await touchedBy(root, dir, commit(dir, 'sub/deep/a.txt', 'two'))).includes('.git/index'));
});

test("with real git, a linked worktree (git worktree add): its .git file, its own HEAD and index under the main repository's worktrees/, the branch in the common dir", async () => {
  const main = repoWith();
  const wt = path.join(realpathSync(workspace()), 'wt');
  git(main, 'worktree', 'add', '-q', '-b', 'side', wt);
  const { dirs, watches } = await gitWatches(wt);
  assert.ok(dirs && dirs.gitDir !== dirs.commonDir, 'a linked worktree');
  const files = [...gitFilesOf(watches)];
  assert.deepEqual(
    files.filter((f) => !f.startsWith(`${main}${path.sep}`)),
    [path.join(wt, '.git')],
    'in the worktree itself only its .git file',
  );
  const touched = await touchedBy(wt, main, commit(wt, 'a.txt', 'on side'));
  assert.ok(touched.includes('.git/refs/heads/side'), touched.join(', '));
  assert.ok(
    touched.some((f) => /^\.git\/worktrees\/[^/]+\/index$/.test(f)),
    touched.join(', '),
  );
  assert.ok(
    (await touchedBy(wt, main, () => git(wt, 'checkout', '-q', '-b', 'side2'))).some((f) =>
      /^\.git\/worktrees\/[^/]+\/HEAD$/.test(f),
    ),
  );
  // A commit in the main worktree moves its own branch and index: nothing the linked worktree's facts rest on.
  const mainBranch = git(main, 'symbolic-ref', '--short', 'HEAD').trim();
  assert.deepEqual(await touchedBy(wt, main, commit(main, 'a.txt', 'on main')), [], `a commit on ${mainBranch}`);
});

test('with real git, a .git file naming a git dir elsewhere (git init --separate-git-dir): the git dir is watched there, and the .git file itself', async () => {
  const root = realpathSync(workspace({ 'a.txt': 'a\n' }));
  const gd = path.join(realpathSync(workspace()), 'store.git');
  git(root, 'init', '-q', `--separate-git-dir=${gd}`);
  git(root, 'add', 'a.txt');
  git(root, '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'first');
  assert.ok(statSync(path.join(root, '.git')).isFile());
  const { watches } = await gitWatches(root);
  const files = [...gitFilesOf(watches)];
  assert.ok(files.includes(path.join(root, '.git')), files.join(', '));
  assert.ok(files.includes(path.join(gd, 'HEAD')) && files.includes(path.join(gd, 'index')), files.join(', '));
  const touched = await touchedBy(root, gd, commit(root, 'a.txt', 'two'));
  assert.ok(touched.includes('index') && touched.some((f) => f.startsWith('refs/heads/')), touched.join(', '));
  // The .git file moved to another git dir (git init --separate-git-dir again): it changes, and the next plan follows.
  const gd2 = path.join(realpathSync(workspace()), 'moved.git');
  assert.ok((await touchedBy(root, root, () => git(root, 'init', '-q', `--separate-git-dir=${gd2}`))).includes('.git'));
  assert.ok([...gitFilesOf((await gitWatches(root)).watches)].includes(path.join(gd2, 'HEAD')));
});

test("the tool's own git runs rewrite no watched file (its read never starts another), where plain git status rewrites the index (the control)", async () => {
  const dir = repoWith();
  const a = path.join(dir, 'a.txt');
  const stale = () => {
    // Same bytes, a new time: git status refreshes the index entry's stat data.
    const t = new Date(Date.now() + 10_000 + Math.random() * 10_000);
    utimesSync(a, t, t);
  };
  stale();
  assert.deepEqual(await touchedBy(dir, dir, () => readGit(dir)), [], 'readGit');
  assert.equal(readFileSync(a, 'utf8'), 'a\n');
  stale();
  assert.deepEqual(
    await touchedBy(dir, dir, () => git(dir, 'status', '--porcelain')),
    ['.git/index'],
    'plain git status',
  );
});

// ---------------------------------------------------------------------------------------------
// Which events call for a read with git run again (src/extension/pure/git-events.ts)

test("an event is git's when it is a watched file, work when it is a file of the work tree, else none (git's own folders, nested repositories, the tool's files, state files)", () => {
  const watches: GitWatch[] = [
    { dir: '/w', names: ['.git'] },
    { dir: '/main/.git/worktrees/w', names: ['HEAD', 'index'] },
    { dir: '/main/.git/refs/heads', names: ['side'] },
  ];
  const ctx = {
    root: '/w',
    gitFiles: gitFilesOf(watches),
    gitDirs: ['/main/.git/worktrees/w', '/main/.git'],
    isState: stateTest(['docs/state/STATE.md', '.claude/session-ledger*.md'], ['docs/state/log/2026-10.md']),
  };
  const kinds = Object.fromEntries(
    [
      '/w/.git',
      '/main/.git/worktrees/w/index',
      '/main/.git/refs/heads/side',
      '/main/.git/refs/heads/other',
      '/main/.git/worktrees/w/logs/HEAD',
      '/main/.git/objects/ab/cdef',
      '/w/src/a.ts',
      '/w/README.md',
      '/w/vendor/lib/.git/index',
      '/w/.git/objects/x',
      '/w/docs/state/STATE.md',
      '/w/docs/state/log/2026-10.md',
      '/w/.claude/session-ledger.md',
      '/w/.claude/log/session-ledger-hook.log',
      '/w/.claude/.checkpoint-ready-abc',
      '/w/.claude/session-ledger/install.json',
      '/w/docs/state/.STATE.md.4242.0badcafe.tmp',
      '/w/docs/state/.STATE.md.session-ledger.lock',
      '/w/src/a.ts.tmp',
      '/w',
      '/elsewhere/x.ts',
      '/w2/x.ts',
    ].map((p) => [p, gitEventKind(p, ctx)]),
  );
  assert.deepEqual(kinds, {
    '/w/.git': 'git',
    '/main/.git/worktrees/w/index': 'git',
    '/main/.git/refs/heads/side': 'git',
    '/main/.git/refs/heads/other': 'none',
    '/main/.git/worktrees/w/logs/HEAD': 'none',
    '/main/.git/objects/ab/cdef': 'none',
    '/w/src/a.ts': 'work',
    '/w/README.md': 'work',
    '/w/vendor/lib/.git/index': 'none',
    '/w/.git/objects/x': 'none',
    '/w/docs/state/STATE.md': 'none',
    '/w/docs/state/log/2026-10.md': 'none',
    '/w/.claude/session-ledger.md': 'none',
    '/w/.claude/log/session-ledger-hook.log': 'none',
    '/w/.claude/.checkpoint-ready-abc': 'none',
    '/w/.claude/session-ledger/install.json': 'none',
    '/w/docs/state/.STATE.md.4242.0badcafe.tmp': 'none',
    '/w/docs/state/.STATE.md.session-ledger.lock': 'none',
    '/w/src/a.ts.tmp': 'work',
    '/w': 'none',
    '/elsewhere/x.ts': 'none',
    '/w2/x.ts': 'none',
  });
});
