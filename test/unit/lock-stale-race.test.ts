/**
 * Taking over a stale lock (its process gone) never breaks a lock another run has just taken: two
 * runs that both find the same dead holder do not both go ahead. The takeover is done under a short
 * breaker (`<lock>.break`, O_EXCL) and removes the lock only if it still names a process that is
 * gone; a breaker left by a run that died is itself stale after a few seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { WriteRefused } from '../../src/core/files/atomic';
import { lockPath, withWriteLock } from '../../src/core/files/lock';
import { workspace } from './helpers';

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  assert.ok(r.pid);
  return r.pid;
}

test('two runs find the same dead holder; the first is held after that finding until the second holds the lock: the first waits, they never run at once', async () => {
  const dir = workspace({ 'f.md': 'x\n' });
  const file = path.join(dir, 'f.md');
  writeFileSync(lockPath(file), `${deadPid()} 2026-01-01T00:00:00Z\n`);
  let inside = 0;
  let most = 0;
  const order: string[] = [];
  const run = async (name: string, body: () => Promise<void>) => {
    inside++;
    most = Math.max(most, inside);
    order.push(`${name} in`);
    try {
      await body();
    } finally {
      inside--;
      order.push(`${name} out`);
    }
  };
  let bIn!: () => void;
  const bEntered = new Promise<void>((r) => (bIn = r));
  let aGoes!: () => void;
  const aWent = new Promise<void>((r) => (aGoes = r));
  // A: found the lock stale, then (the scheduler's gap) B takes it over and holds it.
  const a = withWriteLock(file, dir, () => run('A', async () => {}), {
    waitMs: 5_000,
    beforeTakeover: async () => {
      await bEntered;
      aGoes();
    },
  });
  // B: finds the same dead holder, takes the lock over, and holds it until A has gone on from its finding (and a moment more).
  const b = withWriteLock(
    file,
    dir,
    () =>
      run('B', async () => {
        bIn();
        await aWent;
        await new Promise((r) => setTimeout(r, 300));
      }),
    { waitMs: 5_000 },
  );
  await Promise.all([a, b]);
  assert.equal(most, 1, `never two at once: ${order.join(', ')}`);
  assert.deepEqual(order, ['B in', 'B out', 'A in', 'A out']);
  assert.equal(existsSync(lockPath(file)), false, 'the lock is gone');
  assert.equal(existsSync(`${lockPath(file)}.break`), false, 'the breaker is gone');
});

test('a breaker left by a run that died: a fresh one holds the takeover back, one older than a few seconds is itself stale', async () => {
  const dir = workspace({ 'f.md': 'x\n' });
  const file = path.join(dir, 'f.md');
  const lock = lockPath(file);
  writeFileSync(lock, `${deadPid()} 2026-01-01T00:00:00Z\n`);
  writeFileSync(`${lock}.break`, '');
  // Fresh: another run may be inside its takeover; this one waits, then refuses.
  await assert.rejects(
    withWriteLock(file, dir, async () => 'ran', { waitMs: 300 }),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'busy',
  );
  assert.ok(existsSync(lock), 'the stale lock was not taken over under a fresh breaker');
  // Old: its run is gone; the breaker goes, then the stale lock.
  const old = (Date.now() - 60_000) / 1000;
  utimesSync(`${lock}.break`, old, old);
  assert.equal(await withWriteLock(file, dir, async () => 'ran', { waitMs: 2_000 }), 'ran');
  assert.equal(existsSync(lock), false);
  assert.equal(existsSync(`${lock}.break`), false);
});
