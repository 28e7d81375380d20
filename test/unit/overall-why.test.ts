/**
 * Overall PARTIAL while every system says WORKING: the session's manual items are the reason (no system's
 * label counts them). The core says so once (`overallWhy`); the checklist shows it under its overall label
 * and the tree's session row in its tooltip, so the two surfaces never seem to disagree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../../src/core/report/evaluate';
import { overallWhy } from '../../src/core/report/report';
import { applyTicks } from '../../src/core/report/ticks';
import { sessionItems } from '../../src/core/model/model';
import { checklistState, overallWhyText } from '../../src/extension/pure/checklist-model';
import { manualRow } from '../../src/extension/pure/tree-text';
import { CHECKLIST_STRINGS, enT, fixtureCopy, jaT, koT } from './helpers';

const FOLDER = { name: 'w', uri: 'file:///w' };

test("overall PARTIAL, its system WORKING: the session's open items are said as the reason on the checklist and the tree", async () => {
  const dir = fixtureCopy('s3/good');
  const r = await evaluate(dir, { noGit: true });
  assert.equal(r.label, 'PARTIAL');
  assert.deepEqual(
    r.systems.map((s) => s.label),
    ['WORKING'],
  );
  const open = sessionItems(r).filter((c) => c.status === 'manual-open').length;
  assert.equal(open, 2);
  const why = overallWhy(r);
  assert.equal(
    why?.text,
    "This session's 2 manual items are not ticked: the overall label is PARTIAL until they are. Each system's own label leaves them out.",
  );
  // The checklist: beside "Overall: PARTIAL", the same sentence.
  const state = checklistState(r, FOLDER, CHECKLIST_STRINGS, { busy: false, trusted: true }, enT);
  assert.equal(state.overall, 'PARTIAL');
  assert.equal(state.overallWhy, why?.text);
  // The tree: the session's row, first above the WORKING root, says it in its tooltip and its name.
  const row = manualRow(enT, open, 'This session (every system)', {
    about: 'Asked once.',
    why: state.overallWhy ?? '',
  });
  assert.ok(row.tooltip.split('\n').includes(why?.text ?? '-'), row.tooltip);
  assert.ok(row.name.includes('the overall label is PARTIAL until they are'), row.name);
  // In the user's language.
  assert.match(overallWhyText(jaT, r) ?? '', /^このセッションの手動項目 2 件が未チェックです: .*PARTIAL/);
  assert.match(overallWhyText(koT, r) ?? '', /^이 세션의 수동 항목 2개가 .*PARTIAL/);

  // One item ticked: the singular sentence; both: WORKING overall, nothing to explain.
  const one = applyTicks(r, () => new Set(['feedback-stored']));
  assert.match(
    overallWhy(one)?.text ?? '',
    /^This session's manual item is not ticked: the overall label is PARTIAL until it is\./,
  );
  const both = applyTicks(r, () => new Set(['feedback-stored', 'last-request']));
  assert.equal(both.label, 'WORKING');
  assert.equal(overallWhy(both), null);
  assert.equal(checklistState(both, FOLDER, CHECKLIST_STRINGS, { busy: false, trusted: true }).overallWhy, null);
});

test("the overall label is the worst system's: nothing to explain", async () => {
  const dir = fixtureCopy('e2e-workspace');
  const r = await evaluate(dir, { noGit: true });
  assert.ok(
    r.systems.some((s) => s.label === r.label),
    r.label,
  );
  assert.equal(overallWhy(r), null);
  assert.equal(overallWhy({ systems: [], label: 'WORKING' }), null);
});
