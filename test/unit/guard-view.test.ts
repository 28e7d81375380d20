/**
 * The status bar's "checkpoint done" reads the guard's decision as the status line reads it
 * (`guardCheckpointed`): what it keeps of the decision (`guardViewOf`) includes that the guard allowed
 * only because it could not check a state file, and then no checkpoint is done on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import * as path from 'node:path';
import { markerRel } from '../../src/core/checkpoint/marker';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { guardCheckpointed } from '../../src/core/checkpoint/freshness';
import { evaluate } from '../../src/core/report/evaluate';
import { checkpointed, guardViewOf, verdictEndsAt } from '../../src/extension/pure/status-text';
import { CONFIRMED, preCompact, run, s3Workspace, SID } from './checkpoint-fixtures';

test("a guard's allow that could not check a state file (the store's report: S3's reader failed): the status bar says no checkpoint is done, as the status line does", async () => {
  const dir = s3Workspace();
  const r = run(['checkpoint', '--root', dir, '--session', SID, '--confirm', CONFIRMED.join(',')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = await evaluate(dir, { confirmed: CONFIRMED });
  const s3 = report.systems.find((s) => s.id === 'S3');
  assert.ok(s3);
  // What the store holds when a system's reader failed (a fault of the tool's own): its files were not read.
  s3.docs = [];
  s3.checks = [
    {
      id: 'internal',
      system: 'S3',
      severity: 'block',
      status: 'fail',
      message: 'Internal error while checking S3: boom',
    },
  ] as typeof s3.checks;
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false, report });
  assert.equal(d.allow, true, d.log);
  assert.match(d.unchecked ?? '', /boom/, d.log);
  assert.equal(guardCheckpointed(d, NaN), false, 'the status line');
  const view = guardViewOf(d, true, 480);
  assert.equal(checkpointed(view), false, `the status bar: ${JSON.stringify(view)}`);
  // The same decision without the failure: done on both.
  const whole = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(guardCheckpointed(whole, NaN), true, whole.log);
  assert.equal(checkpointed(guardViewOf(whole, true, 480)), true);
});

test('the status bar looks at the guard again when a fresh marker grows older than its max age, with no file changed: the verdict was "checkpoint done" until something else changed', async () => {
  const dir = s3Workspace();
  const r = run(['checkpoint', '--root', dir, '--session', SID, '--confirm', CONFIRMED.join(',')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  // Work since the checkpoint that fails no check (the state file saved again a minute after the marker):
  // the guard allows on the marker's age alone.
  const marker = path.join(dir, markerRel(SID));
  const at = (Date.now() - 120_000) / 1000;
  utimesSync(marker, at, at);
  utimesSync(path.join(dir, 'docs/state/STATE.md'), at + 60, at + 60);
  const fresh = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(fresh.rule, 'fresh', fresh.log);
  const view = guardViewOf(fresh, true, 480);
  assert.equal(checkpointed(view), true);
  const ends = verdictEndsAt(view);
  assert.equal(ends, (fresh.markerMtime ?? NaN) + 480 * 60_000, 'ends when the marker is 480 minutes old');
  // At that time, with no file changed, the guard decides otherwise: the view must be computed again then.
  const later = await preCompactGuard(preCompact(dir), { root: dir, log: false, now: (ends ?? 0) + 1000 });
  assert.equal(later.allow, false, later.log);
  assert.equal(checkpointed(guardViewOf(later, true, 480)), false);
  // A verdict that changes only with a file has no end.
  assert.equal(verdictEndsAt(guardViewOf(later, true, 480)), null);
});
