// Whether git tracks a path, read from the index file itself (the hooks start no git): every index
// format git writes, made by real git: versions 2, 3 (an intent-to-add entry) and 4 (names
// prefix-compressed), a SHA-256 repository, and a split index whose entries stand in its shared part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gitTracks, indexHas } from '../../src/core/git/tracked';
import { git, workspace, write } from './helpers';

const MARKER = '.claude/.checkpoint-ready';

/** A repository with the marker and a few neighbours committed, and one file not added. */
function repo(initArgs: string[] = []): string {
  const dir = workspace({});
  git(dir, 'init', '-q', ...initArgs);
  for (const rel of ['.agents/STATE.md', MARKER, '.claude/hooks/x.cjs', '.claude/settings.json', 'src/a.ts'])
    write(dir, rel, `${rel}\n`);
  git(dir, 'add', '-f', '.');
  git(dir, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  write(dir, '.claude/.checkpoint-ready.x', 'not added\n');
  return dir;
}

async function both(dir: string): Promise<[boolean | null, boolean | null, boolean | null]> {
  return [
    await gitTracks(path.join(dir, MARKER)),
    await gitTracks(path.join(dir, '.claude/.checkpoint-ready.x')),
    await gitTracks(path.join(dir, 'src/a.ts')),
  ];
}

test('git index version 2, 3 and 4: a committed path is tracked, a file never added is not', async () => {
  for (const version of ['2', '3', '4']) {
    const dir = repo();
    git(dir, 'update-index', '--index-version', version);
    if (version === '3') {
      // An intent-to-add entry carries the extended flags that make git write version 3.
      write(dir, 'src/b.ts', 'b\n');
      git(dir, 'add', '-N', 'src/b.ts');
    }
    const idx = readFileSync(path.join(dir, '.git/index'));
    assert.equal(idx.readUInt32BE(4), Number(version), `index version ${version}`);
    assert.deepEqual(await both(dir), [true, false, true], `version ${version}`);
    assert.equal(indexHas(idx, 20, 'src')?.found, false, 'a folder of tracked files is no entry');
  }
});

test('a SHA-256 repository and a split index are read too', async () => {
  const sha = repo(['--object-format=sha256']);
  assert.deepEqual(await both(sha), [true, false, true], 'sha256');
  const split = repo();
  git(split, 'update-index', '--split-index');
  // A change after the split: its entry is in the main index, the others in the shared one.
  write(split, 'src/a.ts', 'changed\n');
  git(split, 'add', 'src/a.ts');
  const main = indexHas(readFileSync(path.join(split, '.git/index')), 20, MARKER);
  assert.ok(main && !main.found && main.shared, 'the marker stands in the shared index only');
  assert.deepEqual(await both(split), [true, false, true], 'split index');
});

test('outside a repository nothing is tracked; a damaged index is "not known", never a crash', async () => {
  const plain = workspace({ [MARKER]: '' });
  assert.equal(await gitTracks(path.join(plain, MARKER)), false);
  const dir = repo();
  const idx = readFileSync(path.join(dir, '.git/index'));
  write(dir, '.git/index', idx.subarray(0, 40));
  assert.equal(await gitTracks(path.join(dir, MARKER)), null);
  write(dir, '.git/index', 'not an index');
  assert.equal(await gitTracks(path.join(dir, MARKER)), null);
});
