/**
 * The extension reads a folder again after work files change, unless git ignores every one of them:
 * `ignoredByGit` asks real git (`check-ignore`, in the safe run), and `IgnoredPaths` remembers what it
 * said, an ignored folder answering for everything below it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ignoredByGit, MAX_IGNORE_QUESTIONS } from '../../src/core/git/git';
import { IgnoredPaths, isIgnoreFile } from '../../src/extension/pure/git-events';
import { git, gitInit, workspace } from './helpers';

/** A repository with a build folder and logs ignored, one log tracked all the same, and a subfolder's own ignore file. */
function repo(): string {
  const dir = workspace({
    '.gitignore': 'build/\n*.log\n',
    'src/a.ts': 'export {};\n',
    'src/.gitignore': 'gen/\n',
    'kept.log': 'tracked before the pattern came\n',
  });
  gitInit(dir);
  // Tracked all the same: added by force, as a file tracked before its pattern came.
  git(dir, 'add', '-f', 'kept.log');
  git(dir, 'commit', '-q', '-m', 'kept.log');
  mkdirSync(path.join(dir, 'build', 'x'), { recursive: true });
  mkdirSync(path.join(dir, 'src', 'gen'), { recursive: true });
  writeFileSync(path.join(dir, 'build', 'x', 'out.js'), '');
  writeFileSync(path.join(dir, 'app.log'), '');
  return dir;
}

test("ignoredByGit answers with git's own reading: ignored files and folders, a subfolder's .gitignore, never a file git tracks", async () => {
  const dir = repo();
  assert.equal(git(dir, 'ls-files', 'kept.log').trim(), 'kept.log', 'the log is tracked');
  const asked = [
    'build/',
    'build/x/',
    'build/x/out.js',
    'app.log',
    'later.log',
    'src/gen/',
    'src/a.ts',
    'src/',
    'kept.log',
  ];
  const said = await ignoredByGit(dir, asked);
  assert.deepEqual([...(said ?? [])].sort(), [
    'app.log',
    'build/',
    'build/x/',
    'build/x/out.js',
    'later.log',
    'src/gen/',
  ]);
  // None ignored (git exits 1 then): an answer, not a failure.
  assert.deepEqual(await ignoredByGit(dir, ['src/a.ts', 'kept.log']), new Set());
  assert.deepEqual(await ignoredByGit(dir, []), new Set());
  // From a folder below the top, paths are the folder's own.
  assert.deepEqual(await ignoredByGit(path.join(dir, 'src'), ['gen/', 'a.ts']), new Set(['gen/']));
});

test('ignoredByGit gives no answer where git gives none: no repository, too many paths at once', async () => {
  const plain = workspace({ 'a.log': '' });
  assert.equal(existsSync(path.join(plain, '.git')), false);
  assert.equal(await ignoredByGit(plain, ['a.log']), null);
  const dir = repo();
  const many = Array.from({ length: MAX_IGNORE_QUESTIONS + 1 }, (_, i) => `build/${i}.js`);
  assert.equal(await ignoredByGit(dir, many), null);
});

test('IgnoredPaths asks git once per path and folder, answers for what is below an ignored folder, and reads again for a kept file', async () => {
  const dir = repo();
  const known = new IgnoredPaths();
  const burst = ['build/x/out.js', 'app.log'];
  const ask = known.questions(burst);
  assert.deepEqual(ask, ['build/', 'build/x/', 'build/x/out.js', 'app.log']);
  known.learn(ask!, (await ignoredByGit(dir, ask!))!);
  assert.equal(known.allIgnored(burst), true);
  // Below an ignored folder, and the same log again: nothing more to ask.
  assert.deepEqual(known.questions(['build/y/z/new.js', 'app.log']), []);
  assert.equal(known.allIgnored(['build/y/z/new.js', 'app.log']), true);
  // A work file: asked once, then known kept (the burst is read whatever the others are).
  const mixed = ['src/a.ts', 'app.log'];
  const ask2 = known.questions(mixed);
  assert.deepEqual(ask2, ['src/', 'src/a.ts']);
  known.learn(ask2!, (await ignoredByGit(dir, ask2!))!);
  assert.equal(known.allIgnored(mixed), false);
  assert.equal(known.questions(['src/a.ts']), null);
  // Forgotten whole when what git ignores may have changed.
  known.clear();
  assert.deepEqual(known.questions(['app.log']), ['app.log']);
});

test('a .gitignore anywhere is an ignore file (saving one changes what git ignores); a file that only ends alike is not', () => {
  assert.equal(isIgnoreFile('.gitignore'), true);
  assert.equal(isIgnoreFile('src/.gitignore'), true);
  assert.equal(isIgnoreFile('my.gitignore'), false);
  assert.equal(isIgnoreFile('.gitignore.bak'), false);
});
