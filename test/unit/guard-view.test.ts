/**
 * The status bar's "checkpoint done" reads the guard's decision as the status line reads it
 * (`guardCheckpointed`): what it keeps of the decision (`guardViewOf`) includes that the guard allowed
 * only because it could not check a state file, and then no checkpoint is done on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { guardCheckpointed } from '../../src/core/checkpoint/freshness';
import { evaluate } from '../../src/core/report/evaluate';
import { checkpointed, guardViewOf } from '../../src/extension/pure/status-text';
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
