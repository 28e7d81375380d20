/**
 * A box a checkpoint's marker ticked that the user unticks: the item is no longer confirmed, and any item
 * not confirmed withholds the go-signal. The core's one decision (`markerStand`, `untickPlan`) takes the
 * item off the marker's ticks whatever else it confirmed, says the marker must be withdrawn, and keeps
 * its other items; `withdrawMarker` removes that very marker (not one another checkpoint wrote since), after
 * which the guard stops /compact; until then no surface says a checkpoint is done on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { guardCheckpointed } from '../../src/core/checkpoint/freshness';
import { markerRel } from '../../src/core/checkpoint/marker';
import { itemKey, markerStand, untickPlan, type MarkerTicks } from '../../src/core/checkpoint/marker-stand';
import { markerTicks, withdrawMarker } from '../../src/core/checkpoint/marker-ticks';
import { WriteRefused } from '../../src/core/files/atomic';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { sessionItems } from '../../src/core/model/model';
import { evaluate } from '../../src/core/report/evaluate';
import { checkpointed, guardSentence, guardViewOf } from '../../src/extension/pure/status-text';
import { applyTicks } from '../../src/extension/pure/ticks';
import { CONFIRM_ALL, preCompact, run, s3Workspace, SID } from './checkpoint-fixtures';
import { whileActing } from './helpers';

const en = (m: string, ...a: unknown[]) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)]));

const M: MarkerTicks = {
  marker: markerRel(SID),
  hash: 'a'.repeat(64),
  session: ['feedback-stored', 'last-request'],
  systems: { S1: ['state-reviewed'] },
};

test('markerStand: an item unticked while this marker gave it is off its ticks, and the marker is to be withdrawn', () => {
  const on = (keys: string[]) => (hash: string) => (hash === M.hash ? keys : []);
  assert.deepEqual(markerStand(M, on([])), { marker: M.marker, ticks: M, unticked: [] });
  assert.deepEqual(markerStand(null, on(['feedback-stored'])), { marker: null, ticks: null, unticked: [] });
  // Unticks kept against another marker (an earlier checkpoint's) take nothing off this one.
  assert.deepEqual(markerStand(M, () => []).unticked, []);
  assert.deepEqual(markerStand({ ...M, hash: 'b'.repeat(64) }, on(['feedback-stored'])).unticked, []);
  const one = markerStand(M, on(['feedback-stored']));
  assert.deepEqual(one.unticked, ['feedback-stored']);
  assert.deepEqual(one.ticks?.session, ['last-request']);
  assert.deepEqual(one.ticks?.systems, { S1: ['state-reviewed'] });
  // A system's own item is named after its system; bare, it is no item of this marker.
  assert.equal(itemKey('S1', 'state-reviewed'), 'S1:state-reviewed');
  assert.equal(itemKey('S3', 'feedback-stored'), 'feedback-stored');
  assert.deepEqual(markerStand(M, on(['state-reviewed'])).unticked, []);
  const own = markerStand(M, on(['S1:state-reviewed']));
  assert.deepEqual(own.unticked, ['S1:state-reviewed']);
  assert.deepEqual(own.ticks?.systems, {});
  assert.deepEqual(own.ticks?.session, M.session);
  // Everything unticked: no ticks left, the marker still named (it is what stands).
  const all = markerStand(M, on(['feedback-stored', 'last-request', 'S1:state-reviewed', 'not-an-item']));
  assert.equal(all.ticks, null);
  assert.equal(all.marker, M.marker);
  assert.deepEqual(all.unticked.sort(), ['S1:state-reviewed', 'feedback-stored', 'last-request']);
});

test('untickPlan: an item the marker confirmed is unticked against that marker and its other items stay ticked; one it did not confirm touches no marker', () => {
  assert.deepEqual(untickPlan(M, 'feedback-stored'), { hash: M.hash, keep: ['last-request', 'S1:state-reviewed'] });
  assert.deepEqual(untickPlan(M, 'S1:state-reviewed'), { hash: M.hash, keep: ['feedback-stored', 'last-request'] });
  assert.equal(untickPlan(M, 'state-reviewed'), null);
  assert.equal(untickPlan({ ...M, session: ['last-request'] }, 'feedback-stored'), null);
  assert.equal(untickPlan(null, 'feedback-stored'), null);
});

test('a checkpoint with --confirm, one item unticked: the box is open, no surface says checkpoint done, and withdrawing the marker stops /compact until a new checkpoint', async () => {
  const root = s3Workspace();
  assert.equal(run(['checkpoint', '--root', root, '--session', SID, ...CONFIRM_ALL]).code, 0);
  const marker = path.join(root, markerRel(SID));
  const raw = await evaluate(root);
  const m = await markerTicks(root, SID, raw);
  assert.ok(m);
  assert.match(m.hash, /^[0-9a-f]{64}$/);
  // The user unticks "feedback stored": as the extension renders the boxes, that one is open.
  const plan = untickPlan(m, 'feedback-stored');
  assert.ok(plan);
  const kept = (h: string) => (h === plan.hash ? ['feedback-stored'] : []);
  const stand = markerStand(m, kept);
  const boxes = sessionItems(applyTicks(raw, { session: new Set(stand.ticks?.session), system: () => new Set() }));
  assert.deepEqual(
    boxes.map((c) => [c.id, c.status]),
    [
      ['feedback-stored', 'manual-open'],
      ['last-request', 'manual-done'],
    ],
  );
  // While the marker stands, the guard still lets /compact through on it, but no checkpoint is done on it.
  const d = await preCompactGuard(preCompact(root), { root, log: false });
  assert.equal(d.allow, true, d.log);
  // The status item compares the guard's marker with the one that stands: the same relative path.
  assert.equal(d.marker, m.marker);
  assert.equal(guardCheckpointed(d, NaN), true, 'the marker alone');
  assert.equal(guardCheckpointed({ ...d, unticked: stand.unticked }, NaN), false, 'with the untick');
  const view = guardViewOf({ ...d, unticked: stand.unticked }, true, 480);
  assert.equal(checkpointed(view), false);
  assert.match(
    guardSentence(en, view),
    /^\/compact would pass the guard: .*You unticked an item the checkpoint confirmed, but its marker \.claude\/\.checkpoint-ready\.[0-9a-f-]+ could not be withdrawn/,
  );
  assert.match(guardSentence(en, view, undefined, false), /in Restricted Mode Session Ledger removes nothing/);
  // Withdrawn: gone, /compact stopped, no ticks from it.
  assert.equal(await withdrawMarker(root, m), 'withdrawn');
  assert.equal(existsSync(marker), false);
  const after = await preCompactGuard(preCompact(root), { root, log: false });
  assert.equal(after.allow, false, after.log);
  assert.equal(after.rule, 'no-marker');
  assert.equal(await markerTicks(root, SID, raw), null);
  // Already gone: nothing to do, withdrawn all the same.
  assert.equal(await withdrawMarker(root, m), 'withdrawn');
  // A new checkpoint confirms again: another marker, whose ticks an untick of the old one does not take off.
  assert.equal(run(['checkpoint', '--root', root, '--session', SID, ...CONFIRM_ALL]).code, 0);
  const again = await markerTicks(root, SID, await evaluate(root));
  assert.ok(again);
  assert.notEqual(again.hash, m.hash);
  assert.deepEqual(markerStand(again, kept).unticked, [], 'the unticks are kept against the old marker only');
  assert.deepEqual(markerStand(again, kept).ticks?.session.sort(), ['feedback-stored', 'last-request']);
});

/** A workspace whose session checkpointed with every manual item confirmed, and the ticks its marker gives. */
async function confirmedCheckpoint(): Promise<{ root: string; m: MarkerTicks }> {
  const root = s3Workspace();
  assert.equal(run(['checkpoint', '--root', root, '--session', SID, ...CONFIRM_ALL]).code, 0);
  const m = await markerTicks(root, SID, await evaluate(root));
  assert.ok(m);
  return { root, m };
}

test('withdrawMarker leaves a marker another checkpoint wrote since (its confirmed items are the newer word)', async () => {
  const { root, m } = await confirmedCheckpoint();
  const file = path.join(root, markerRel(SID));
  const newer = readFileSync(file, 'utf8').replace(/^(\S+ )\S+/, `$1${new Date(Date.now() + 1000).toISOString()}`);
  writeFileSync(file, newer);
  assert.equal(await withdrawMarker(root, m), 'changed');
  assert.equal(readFileSync(file, 'utf8'), newer);
});

test('withdrawMarker removes nothing through a link: .claude swapped for a link to another folder of the workspace since the marker was read is refused, and that folder keeps its file', async () => {
  const { root, m } = await confirmedCheckpoint();
  // Between the read and the untick, `.claude` becomes a link to a folder inside the workspace holding the same bytes.
  renameSync(path.join(root, '.claude'), path.join(root, 'elsewhere'));
  symlinkSync('elsewhere', path.join(root, '.claude'));
  const there = path.join(root, 'elsewhere', path.basename(markerRel(SID)));
  await assert.rejects(
    withdrawMarker(root, m),
    (err: unknown) =>
      err instanceof WriteRefused &&
      err.reason === 'link' &&
      /\.claude \(a folder on the way to \.claude\/\.checkpoint-ready\.[0-9a-f-]+\) is a symbolic link: Session Ledger never writes its own files through a link; nothing was written/.test(
        err.message,
      ),
  );
  assert.equal(existsSync(there), true, 'the file the link leads to is still there');
  assert.deepEqual(
    readdirSync(path.join(root, 'elsewhere')).sort(),
    [path.basename(markerRel(SID))],
    'no lock left there',
  );
});

test('withdrawMarker: .claude swapped for a link to another folder of the workspace at the very removal removes nothing there', async () => {
  const { root, m } = await confirmedCheckpoint();
  const name = path.basename(markerRel(SID));
  const elsewhere = path.join(root, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(path.join(elsewhere, name), readFileSync(path.join(root, markerRel(SID))));
  let swapped = false;
  await whileActing(
    (file, call) => {
      if (swapped || !['rm', 'unlink', 'rmSync', 'unlinkSync'].includes(call) || path.basename(file) !== name) return;
      swapped = true;
      renameSync(path.join(root, '.claude'), path.join(root, '.claude.orig'));
      symlinkSync('elsewhere', path.join(root, '.claude'));
    },
    () => withdrawMarker(root, m).catch(() => undefined),
  );
  assert.ok(swapped, 'the removal was reached');
  assert.equal(existsSync(path.join(elsewhere, name)), true, 'the file the link leads to is still there');
  assert.deepEqual(readdirSync(elsewhere), [name], 'no lock left there');
  // The marker was removed in the folder that was checked (moved away by the swap).
  assert.equal(existsSync(path.join(root, '.claude.orig', name)), false);
});

test('withdrawMarker removes no link planted at the marker: refused, the link and what it leads to stay', async () => {
  const { root, m } = await confirmedCheckpoint();
  const file = path.join(root, markerRel(SID));
  renameSync(file, path.join(root, 'copy'));
  symlinkSync('../copy', file);
  await assert.rejects(withdrawMarker(root, m), (err: unknown) => err instanceof WriteRefused && err.reason === 'link');
  assert.equal(lstatSync(file).isSymbolicLink(), true);
  assert.equal(existsSync(path.join(root, 'copy')), true);
});
