/**
 * The durability steps of an atomic write, observed on the real file system: the calls go to the
 * real `node:fs` (wrapped to record them, never replaced), so each test sees the write really
 * happen and fails when a step is dropped or reordered: the temp file's fsync before the rename,
 * the rename of that temp file onto the target, the folder's fsync after it, and the
 * changed-since-read check before anything is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { sha256 } from '../../src/core/files/fsread';
import { workspace, write } from './helpers';

type Call = { op: string; target: string };

const WATCHED = ['openSync', 'writeFileSync', 'fsyncSync', 'closeSync', 'renameSync'] as const;

/** Run `f` with the watched fs calls recorded (file descriptors named by the path they were opened on). */
async function recorded(f: () => Promise<unknown>): Promise<Call[]> {
  const calls: Call[] = [];
  const fds = new Map<number, string>();
  const real = new Map<string, unknown>();
  const mod = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
  const name = (x: unknown) => (typeof x === 'number' ? `fd:${fds.get(x) ?? x}` : String(x));
  for (const op of WATCHED) {
    const orig = mod[op];
    real.set(op, orig);
    mod[op] = function (this: unknown, ...args: unknown[]) {
      const r = orig.apply(this, args);
      if (op === 'openSync' && typeof r === 'number') fds.set(r, String(args[0]));
      calls.push({ op, target: op === 'renameSync' ? `${name(args[0])} -> ${name(args[1])}` : name(args[0]) });
      return r;
    };
  }
  try {
    await f();
  } finally {
    for (const op of WATCHED) mod[op] = real.get(op) as (...a: unknown[]) => unknown;
  }
  return calls;
}

/** The calls that write: any call on a temp file, any write, fsync or rename (reading the target to hash it is not one). */
const writes = (calls: Call[]) =>
  calls.filter((c) => c.target.includes('.tmp') || ['writeFileSync', 'fsyncSync', 'renameSync'].includes(c.op));

const isTemp = (file: string) => (p: string) =>
  p.includes(`.${path.basename(file)}.${process.pid}.`) && p.endsWith('.tmp');

test('durable write: temp file written and fsynced, closed, renamed onto the target, then the folder fsynced', async () => {
  const dir = workspace();
  const file = write(dir, 'STATE.md', 'old');
  const calls = await recorded(() => writeAtomic(file, 'new bytes', { expectHash: sha256(Buffer.from('old')) }));
  assert.equal(fs.readFileSync(file, 'utf8'), 'new bytes');
  const temp = calls.find((c) => c.op === 'openSync' && isTemp(file)(c.target));
  assert.ok(temp, JSON.stringify(calls));
  const tmp = temp.target;
  const seq = calls.map((c) => `${c.op} ${c.target}`);
  const at = (s: string) => {
    const i = seq.indexOf(s);
    assert.ok(i >= 0, `${s} not called: ${seq.join(' | ')}`);
    return i;
  };
  const opened = at(`openSync ${tmp}`);
  const written = at(`writeFileSync fd:${tmp}`);
  const synced = at(`fsyncSync fd:${tmp}`);
  const closed = at(`closeSync fd:${tmp}`);
  const renamed = at(`renameSync ${tmp} -> ${fs.realpathSync(file)}`);
  const dirOpened = at(`openSync ${fs.realpathSync(dir)}`);
  const dirSynced = at(`fsyncSync fd:${fs.realpathSync(dir)}`);
  assert.ok(opened < written && written < synced && synced < closed && closed < renamed, seq.join(' | '));
  assert.ok(renamed < dirOpened && dirOpened < dirSynced, seq.join(' | '));
  assert.ok(seq.indexOf(`closeSync fd:${fs.realpathSync(dir)}`) > dirSynced, 'the folder is closed after its fsync');
  // No temp file is left and the target was never written in place.
  assert.deepEqual(fs.readdirSync(dir), ['STATE.md']);
  assert.ok(!seq.some((s) => s.startsWith('writeFileSync') && !s.includes('.tmp')), seq.join(' | '));
});

test('durable write of a new file in new folders: the same steps; the temp file is created exclusively with the mode', async () => {
  const dir = workspace();
  const file = path.join(dir, 'a', 'b', 'new.md');
  const calls = await recorded(() => writeAtomic(file, 'x', { expectHash: null, mode: 0o600 }));
  assert.equal(fs.readFileSync(file, 'utf8'), 'x');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const seq = calls.map((c) => c.op);
  assert.deepEqual(seq, [
    'openSync',
    'writeFileSync',
    'fsyncSync',
    'closeSync',
    'renameSync',
    'openSync',
    'fsyncSync',
    'closeSync',
  ]);
});

test('durable: false (a cache the next run rewrites): no fsync at all, the rename still makes it atomic', async () => {
  const dir = workspace();
  const file = write(dir, 'cache.json', '{}');
  const calls = await recorded(() => writeAtomic(file, '{"a":1}', { durable: false }));
  assert.equal(fs.readFileSync(file, 'utf8'), '{"a":1}');
  assert.deepEqual(
    calls.map((c) => c.op),
    ['openSync', 'writeFileSync', 'closeSync', 'renameSync'],
  );
});

test('an existing file keeps its mode across the rename', async () => {
  const dir = workspace();
  const file = write(dir, 'run.sh', 'echo 1');
  fs.chmodSync(file, 0o751);
  await writeAtomic(file, 'echo 2', { mode: 0o600 });
  assert.equal(fs.statSync(file).mode & 0o7777, 0o751);
});

test('changed since read: refused before anything is written (no temp file opened), the file intact', async () => {
  const dir = workspace();
  const file = write(dir, 'STATE.md', 'what the agent wrote');
  const stale = sha256(Buffer.from('what we read'));
  const calls = await recorded(() =>
    assert.rejects(
      writeAtomic(file, 'ours', { expectHash: stale }),
      (e: unknown) =>
        e instanceof WriteRefused && e.reason === 'changed' && /changed since it was read/.test(e.message),
    ),
  );
  assert.deepEqual(writes(calls), [], 'no temp file opened, nothing written, synced or renamed');
  assert.equal(fs.readFileSync(file, 'utf8'), 'what the agent wrote');
  // The hash as read, in either case, lets the write through.
  const h = sha256(Buffer.from('what the agent wrote'));
  await writeAtomic(file, 'ours', { expectHash: h.toUpperCase() });
  assert.equal(fs.readFileSync(file, 'utf8'), 'ours');
  // A file deleted since it was read is a change too.
  fs.rmSync(file);
  await assert.rejects(
    writeAtomic(file, 'again', { expectHash: h }),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'changed',
  );
  assert.equal(fs.existsSync(file), false);
});

test('changed between the temp write and the rename: refused at the second check, no rename, temp removed', async () => {
  const dir = workspace();
  const file = write(dir, 'STATE.md', 'v1');
  const calls = await recorded(() =>
    assert.rejects(
      writeAtomic(file, 'v2', {
        expectHash: sha256(Buffer.from('v1')),
        beforeRename: () => fs.appendFileSync(file, ' + agent'),
      }),
      (e: unknown) => e instanceof WriteRefused && e.reason === 'changed',
    ),
  );
  assert.ok(!calls.some((c) => c.op === 'renameSync'), JSON.stringify(calls));
  assert.equal(fs.readFileSync(file, 'utf8'), 'v1 + agent');
  assert.deepEqual(fs.readdirSync(dir), ['STATE.md']);
});

test('a file that must not exist: refused when it does, written when it does not', async () => {
  const dir = workspace();
  const file = write(dir, 'new.md', 'here already');
  const calls = await recorded(() =>
    assert.rejects(
      writeAtomic(file, 'x', { expectHash: null }),
      (e: unknown) => e instanceof WriteRefused && e.reason === 'exists',
    ),
  );
  assert.deepEqual(writes(calls), []);
  assert.equal(fs.readFileSync(file, 'utf8'), 'here already');
});

test('no hash to compare: a folder or FIFO at the target is refused, not replaced', async () => {
  const dir = workspace();
  const sub = path.join(dir, 'sub');
  fs.mkdirSync(sub);
  await assert.rejects(
    writeAtomic(sub, 'x'),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'io' && e.detail === 'not-file',
  );
  assert.ok(fs.statSync(sub).isDirectory());
  await assert.rejects(
    writeAtomic(sub, 'x', { expectHash: 'ab' }),
    (e: unknown) => e instanceof WriteRefused && e.detail === 'not-file',
  );
});
