// Whether git tracks a path, read from the index file itself (the hooks start no git): every index
// format git writes, made by real git: versions 2, 3 (an intent-to-add entry) and 4 (names
// prefix-compressed), a SHA-256 repository, and a split index whose entries stand in its shared part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gitTracks, gitTracksEach, indexHas } from '../../src/core/git/tracked';
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

/** What the index says of three paths, asked one at a time; asked at once (one read of the index), it says the same. */
async function both(dir: string): Promise<[boolean | null, boolean | null, boolean | null]> {
  const files = [MARKER, '.claude/.checkpoint-ready.x', 'src/a.ts'].map((rel) => path.join(dir, rel));
  const each: [boolean | null, boolean | null, boolean | null] = [
    await gitTracks(files[0]),
    await gitTracks(files[1]),
    await gitTracks(files[2]),
  ];
  assert.deepEqual(await gitTracksEach(files), each, 'gitTracksEach says what gitTracks says of each');
  return each;
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
    assert.equal(indexHas(idx, 20, 'src')?.at, -1, 'a folder of tracked files is no entry');
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
  assert.ok(main && main.at < 0 && main.shared, 'the marker stands in the shared index only');
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

test('a split index whose delete bitmap removes the marker (git rm --cached) does not track it; one that removes another file still does', async () => {
  const split = repo();
  git(split, 'update-index', '--split-index');
  git(split, 'rm', '-q', '--cached', MARKER);
  assert.equal(git(split, 'ls-files', MARKER).trim(), '');
  assert.equal(await gitTracks(path.join(split, MARKER)), false);
  const other = repo();
  git(other, 'update-index', '--split-index');
  git(other, 'rm', '-q', '--cached', 'src/a.ts');
  assert.deepEqual(await both(other), [true, false, false]);
});

test('a sparse index: a path under a folder outside the cone is "not known", not "untracked"', async () => {
  const dir = repo();
  git(dir, 'sparse-checkout', 'init', '--cone', '--sparse-index');
  git(dir, 'sparse-checkout', 'set', 'src');
  const idx = readFileSync(path.join(dir, '.git/index'));
  assert.ok(indexHas(idx, 20, MARKER)?.sparse, 'the index holds .claude/ as a sparse folder');
  assert.equal(await gitTracks(path.join(dir, MARKER)), null);
  assert.equal(await gitTracks(path.join(dir, 'src/a.ts')), true);
});

/** A version-4 index of `count` entries, each name the previous one and one byte more (stripping nothing). */
function growingNames(count: number): Buffer {
  const buf = Buffer.alloc(12 + count * 65 + 20);
  buf.write('DIRC', 0, 'latin1');
  buf.writeUInt32BE(4, 4);
  buf.writeUInt32BE(count, 8);
  let at = 12;
  for (let i = 0; i < count; i++) {
    at += 62;
    buf[at++] = 0;
    buf[at++] = 0x61;
    buf[at++] = 0;
  }
  return buf;
}

test('a version-4 index of ever longer names is read in one pass (a 39 MB index whose last name is 600 KB)', () => {
  // Copying each previous name whole, as the first reader did, moves about 180 GB here (20 s at memory speed); one
  // growing buffer moves each suffix byte once (tens of milliseconds). The bound is far from both.
  const buf = growingNames(600_000);
  const t = process.hrtime.bigint();
  assert.equal(indexHas(buf, 20, MARKER)?.at, -1);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  assert.ok(ms < 5000, `${ms.toFixed(0)} ms for ${buf.length} bytes`);
});

test('a version-4 name length whose varint passes 32 bits is no index: no name buffer of gigabytes, no throw', () => {
  const entry = (varint: number[], name: Buffer) => {
    const fixed = Buffer.alloc(62);
    fixed.writeUInt32BE(0o100644, 24);
    return Buffer.concat([fixed, Buffer.from(varint), name, Buffer.from([0])]);
  };
  // git's varint: each continuation adds one before the shift.
  const enc = (v: number) => {
    const out = [v & 0x7f];
    while ((v >>= 7)) {
      v--;
      out.unshift(0x80 | (v & 0x7f));
    }
    return out;
  };
  const prev = enc((1 << 24) + 5);
  // ((2^24 + 6) << 7) | 5 wraps below zero in 32 bits.
  const wraps = [...prev.slice(0, -1), prev[prev.length - 1] | 0x80, 0x05];
  const b = Buffer.from('b');
  const entries = [entry([0], Buffer.alloc((1 << 24) + 10, 0x61)), entry(wraps, b), entry(wraps, b), entry(wraps, b)];
  const head = Buffer.alloc(12);
  head.write('DIRC', 0, 'latin1');
  head.writeUInt32BE(4, 4);
  head.writeUInt32BE(entries.length, 8);
  assert.equal(indexHas(Buffer.concat([head, ...entries, Buffer.alloc(20)]), 20, 'x'), null);
});
