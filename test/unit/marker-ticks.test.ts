/**
 * A checkpoint made on the command line with `--confirm feedback-stored,last-request` records what the
 * user confirmed in its marker, and the session's items count as ticked for that session (the tree and
 * the checklist stop asking) while the marker vouches for the state files as they are; a state file
 * that changes opens them again. A marker of another session, one written by hand, one that came with
 * the repository, a nothing-to-preserve, a hard-linked one and one written before markers recorded it
 * tick nothing; such an older marker still lets /compact through.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, linkSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { markerRel, parseMarker } from '../../src/core/checkpoint/marker';
import { markerTicks } from '../../src/core/checkpoint/marker-ticks';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { sessionItems } from '../../src/core/model/model';
import { evaluate } from '../../src/core/report/evaluate';
import { applyTicks } from '../../src/extension/pure/ticks';
import { git, write } from './helpers';
import { CONFIRM_ALL, OTHER_SID, preCompact, run, s3Workspace, SID } from './checkpoint-fixtures';

/** S3's workspace with the checkpoint of session SID written as the CLI writes it, with `args`. */
function checkpointed(args: string[] = CONFIRM_ALL): string {
  const root = s3Workspace();
  const r = run(['checkpoint', '--root', root, '--session', SID, ...args]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return root;
}

const markerOf = (root: string, sid = SID) => path.join(root, markerRel(sid));

test('a checkpoint with --confirm records the items in its marker, and they are the session ticks while the state files are as it vouched', async () => {
  const root = checkpointed();
  const text = readFileSync(markerOf(root), 'utf8');
  assert.match(text.split('\n')[1], /^confirmed (feedback-stored,last-request|last-request,feedback-stored)$/);
  assert.deepEqual(parseMarker(text).confirmed.sort(), ['feedback-stored', 'last-request']);
  const raw = await evaluate(root);
  const got = await markerTicks(root, SID, raw);
  assert.ok(got);
  assert.equal(got.marker, markerRel(SID));
  assert.deepEqual(got.session.sort(), ['feedback-stored', 'last-request']);
  // As the extension renders it: the session's two boxes ticked.
  const status = (ticks: string[]) =>
    sessionItems(applyTicks(raw, { session: new Set(ticks), system: () => new Set() })).map((c) => c.status);
  assert.deepEqual(status([]), ['manual-open', 'manual-open']);
  assert.deepEqual(status(got.session), ['manual-done', 'manual-done']);
  // Another session: nothing. No session: nothing.
  assert.equal(await markerTicks(root, OTHER_SID, raw), null);
  assert.equal(await markerTicks(root, null, raw), null);
  // The state file changes: the checkpoint no longer speaks for it, the items are open again.
  appendFileSync(path.join(root, 'docs/state/STATE.md'), '\n- one more line\n');
  assert.equal(await markerTicks(root, SID, await evaluate(root)), null);
});

test('a marker without the confirmed line (older versions) ticks nothing and still lets /compact through', async () => {
  const root = checkpointed();
  const file = markerOf(root);
  const lines = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, [lines[0], ...lines.slice(2)].join('\n'));
  assert.deepEqual(parseMarker(readFileSync(file, 'utf8')).confirmed, []);
  assert.equal(await markerTicks(root, SID, await evaluate(root)), null);
  const d = await preCompactGuard(preCompact(root), { root, log: false });
  assert.equal(d.allow, true, d.log);
  assert.match(d.rule, /^(fresh|idle)$/);
  // And a marker with the line is read by the guard as before.
  const root2 = checkpointed();
  const d2 = await preCompactGuard(preCompact(root2), { root: root2, log: false });
  assert.equal(d2.allow, true, d2.log);
  assert.equal(d2.rule, d.rule);
});

test('what no checkpoint of this session wrote ticks nothing: by hand, another session, committed, hard-linked, nothing-to-preserve', async () => {
  const hashesOf = (root: string) =>
    readFileSync(markerOf(root), 'utf8')
      .split('\n')
      .filter((l) => /^[0-9a-f]{64} /.test(l));
  // Written by hand: the session's id and a confirmed line, but not the checkpoint's first line.
  const byHand = checkpointed();
  writeFileSync(markerOf(byHand), [SID, 'confirmed feedback-stored,last-request', ...hashesOf(byHand), ''].join('\n'));
  assert.equal(await markerTicks(byHand, SID, await evaluate(byHand)), null);
  // The confirmed line anywhere but right below the checkpoint's own first line.
  const lower = checkpointed();
  const ls = readFileSync(markerOf(lower), 'utf8').split('\n');
  writeFileSync(markerOf(lower), [ls[0], ...ls.slice(2).filter(Boolean), ls[1], ''].join('\n'));
  assert.equal(await markerTicks(lower, SID, await evaluate(lower)), null);
  // The checkpoint's marker of another session, copied to this session's path.
  const other = s3Workspace();
  assert.equal(run(['checkpoint', '--root', other, '--session', OTHER_SID, ...CONFIRM_ALL]).code, 0);
  writeFileSync(markerOf(other), readFileSync(markerOf(other, OTHER_SID)));
  assert.equal(await markerTicks(other, SID, await evaluate(other)), null);
  assert.ok(await markerTicks(other, OTHER_SID, await evaluate(other)));
  // Committed with the repository: git tracks it.
  const committed = checkpointed();
  git(committed, 'add', '-f', markerRel(SID));
  git(committed, 'commit', '-qm', 'marker');
  assert.equal(await markerTicks(committed, SID, await evaluate(committed)), null);
  // A second hard link: no marker a checkpoint wrote.
  const linked = checkpointed();
  linkSync(markerOf(linked), path.join(linked, 'elsewhere'));
  assert.equal(await markerTicks(linked, SID, await evaluate(linked)), null);
  // Nothing to preserve confirms nothing, even with --confirm given.
  const none = checkpointed(['--nothing-to-preserve']);
  assert.doesNotMatch(readFileSync(markerOf(none), 'utf8'), /^confirmed /m);
  assert.equal(await markerTicks(none, SID, await evaluate(none)), null);
  // The shared marker, signed by no session, confirms nothing either.
  const shared = s3Workspace();
  write(shared, '.claude/.keep', '');
  assert.equal(run(['checkpoint', '--root', shared, '--shared', ...CONFIRM_ALL]).code, 0);
  assert.equal(await markerTicks(shared, SID, await evaluate(shared)), null);
});
