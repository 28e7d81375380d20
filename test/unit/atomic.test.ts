import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { sha256 } from '../../src/core/files/fsread';
import { workspace, write } from './helpers';

test('writes atomically and keeps no temp file', async () => {
  const dir = workspace();
  const f = path.join(dir, 'a', 'b.txt');
  await writeAtomic(f, 'one');
  assert.equal(readFileSync(f, 'utf8'), 'one');
  assert.deepEqual(readdirSync(path.dirname(f)), ['b.txt']);
});

test('an own file gets its missing folders; a file where a folder should be fails the write, nothing written', async () => {
  const dir = workspace();
  const f = path.join(dir, '.claude', 'session-ledger', 'record.json');
  await writeAtomic(f, 'one', { root: dir, own: true, durable: false });
  assert.equal(readFileSync(f, 'utf8'), 'one');
  // The folders exist now: the next write needs none and replaces the file.
  await writeAtomic(f, 'two', { root: dir, own: true, durable: false });
  assert.equal(readFileSync(f, 'utf8'), 'two');
  assert.deepEqual(readdirSync(path.dirname(f)), ['record.json']);
  write(dir, 'plain', 'a file');
  await assert.rejects(writeAtomic(path.join(dir, 'plain', 'x.json'), 'three', { root: dir, own: true }));
  assert.equal(readFileSync(path.join(dir, 'plain'), 'utf8'), 'a file');
});

test('refuses when the file changed since it was read; the file is intact', async () => {
  const dir = workspace();
  const f = write(dir, 's.md', 'original');
  const h = sha256(Buffer.from('original'));
  writeFileSync(f, 'changed by the agent');
  await assert.rejects(
    writeAtomic(f, 'mine', { expectHash: h }),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'changed',
  );
  assert.equal(readFileSync(f, 'utf8'), 'changed by the agent');
});

test('a change racing between temp write and rename is refused', async () => {
  const dir = workspace();
  const f = write(dir, 's.md', 'v1');
  await assert.rejects(
    writeAtomic(f, 'v2', {
      expectHash: sha256(Buffer.from('v1')),
      beforeRename: () => writeFileSync(f, 'agent wrote this'),
    }),
    WriteRefused,
  );
  assert.equal(readFileSync(f, 'utf8'), 'agent wrote this');
  assert.deepEqual(readdirSync(dir), ['s.md']);
});

test('a crash between temp write and rename leaves the old file intact', async () => {
  const dir = workspace();
  const f = write(dir, 's.md', 'old');
  await assert.rejects(
    writeAtomic(f, 'new', {
      beforeRename: () => {
        throw new Error('crash');
      },
    }),
  );
  assert.equal(readFileSync(f, 'utf8'), 'old');
  assert.deepEqual(readdirSync(dir), ['s.md']);
});

test('expectHash null refuses to overwrite an existing file', async () => {
  const dir = workspace();
  const f = write(dir, 's.md', 'x');
  await assert.rejects(
    writeAtomic(f, 'y', { expectHash: null }),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'exists',
  );
});
