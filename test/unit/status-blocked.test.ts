/**
 * The status item while a blocking check fails: a checkpoint would be refused, so the item does not ask
 * for one. It says a check blocks the checkpoint and names it (system and check id, as the checklist's top
 * note does), offers its row in the checklist instead of Checkpoint now, and its click opens that row. Once
 * the check passes, the words asking for a checkpoint come back. On a copy of the demo, with S3's
 * `- **Now ▶**` line emptied, the checks as the core runs them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { evaluate } from '../../src/core/report/evaluate';
import { blockingOf, noFigureView, statusView } from '../../src/extension/pure/status-text';
import { contextUsage, copyDemo, enT, jaT, koT, rewrite, workspace } from './helpers';

const S3 = { profile: 'S3', propose: 15, urgent: 40 };
const NOW = Date.parse('2026-12-01T00:05:00Z');
const view = (blocking: ReturnType<typeof blockingOf>, level: 'ok' | 'propose' | 'urgent', t = enT) =>
  statusView(
    t,
    contextUsage({ percent: level === 'urgent' ? 46 : level === 'propose' ? 34 : 10, at: '2026-12-01T00:00:00Z' }),
    S3,
    level,
    undefined,
    undefined,
    NOW,
    true,
    null,
    blocking,
  );
const NAMED = 'S3 next-action: The next action is empty (Now ▶ in ## Handoff).';

test('while a blocking check fails, the status item names it and leads to its row, not to a checkpoint that is refused; once it passes, "Checkpoint proposed" again', async () => {
  const dir = workspace({});
  copyDemo(dir);
  // Nothing blocks in the demo: today's words, and the click is Checkpoint now.
  const clean = blockingOf(await evaluate(dir));
  assert.deepEqual(clean, []);
  const before = view(clean, 'propose');
  assert.equal(
    before.label,
    'Session Ledger: context 34 percent, past the checkpoint mark for S3. Checkpoint proposed.',
  );
  assert.match(before.tooltip, /Checkpoint proposed\./);
  assert.match(before.tooltip, /\(command:sessionLedger\.checkpointNow\)/);
  assert.equal(before.focus, undefined);

  // S3's Now ▶ emptied: next-action fails and blocks; the core's checkpoint refuses on that same check.
  let kept = '';
  rewrite(dir, 'docs/state/STATE.md', (s) => {
    kept = s;
    return s.replace(/^(- \*\*Now ▶\*\*).*$/m, '$1');
  });
  const report = await evaluate(dir);
  const blocking = blockingOf(report);
  const refused = await checkpoint(dir, { report, sessionId: 'abc-123', env: {} });
  assert.equal(refused.kind, 'refused');
  assert.deepEqual(
    blocking.map((b) => `${b.system} ${b.checkId}`),
    refused.blocking.map((c) => `${c.system} ${c.id}`),
  );
  assert.deepEqual(
    blocking.map((b) => `${b.system} ${b.checkId}`),
    ['S3 next-action'],
  );

  const v = view(blocking, 'propose');
  assert.equal(
    v.label,
    `Session Ledger: context 34 percent, past the checkpoint mark for S3. A blocking check fails, so a checkpoint is refused: ${NAMED} Fix it first; the item opens its row in the checklist.`,
  );
  assert.doesNotMatch(v.tooltip, /Checkpoint proposed|checkpointNow|Checkpoint now/);
  assert.match(v.tooltip, /\$\(error\) A blocking check fails, so a checkpoint is refused: fix it first\./);
  // The check's row, a link that opens the checklist on it; the checklist link opens there too.
  const link = `command:sessionLedger.openChecklist?${encodeURIComponent(JSON.stringify([null, { system: 'S3', checkId: 'next-action' }]))}`;
  assert.ok(v.tooltip.includes(`- [S3 next-action](${link}): The next action is empty`), v.tooltip);
  assert.ok(v.tooltip.includes(`[$(checklist) Open checklist](${link})`), v.tooltip);
  // The click: the checklist on that row.
  assert.deepEqual(v.focus, { system: 'S3', checkId: 'next-action' });
  // Still the warning colour and icon: there is something to do now (the fix).
  assert.equal(v.background, 'statusBarItem.warningBackground');

  // Past the urgent mark: no "Checkpoint now" either.
  const urgent = view(blocking, 'urgent');
  assert.equal(
    urgent.label,
    `Session Ledger: context 46 percent, past the urgent mark for S3. A blocking check fails, so a checkpoint is refused: ${NAMED} Fix it first; the item opens its row in the checklist.`,
  );
  assert.doesNotMatch(urgent.tooltip, /checkpoint now|checkpointNow/i);
  // Under the mark, the click would be refused as well: said after the figure.
  const under = view(blocking, 'ok');
  assert.match(under.label, /under the checkpoint mark for S3 \(15 percent\)\. A blocking check fails/);
  assert.deepEqual(under.focus, { system: 'S3', checkId: 'next-action' });
  // No figure yet: the same.
  const none = noFigureView(enT, { agent: 'claude', sessionId: 'abc-123' }, S3, undefined, true, blocking);
  assert.match(none.label, /A blocking check fails, so a checkpoint is refused: S3 next-action:/);
  assert.doesNotMatch(none.tooltip, /checkpointNow/);
  assert.deepEqual(none.focus, { system: 'S3', checkId: 'next-action' });

  // Japanese and Korean.
  assert.match(
    view(blocking, 'propose', jaT).label,
    /ブロックするチェックが失敗しているため、チェックポイントは拒否されます: S3 next-action: /,
  );
  assert.match(view(blocking, 'propose', koT).label, /차단 검사가 실패하여 체크포인트가 거부됩니다: S3 next-action: /);

  // Two blocking checks: both named, the click on the first.
  const two = view([...blocking, { ...blocking[0], system: 'S1', checkId: 'other' }], 'propose');
  assert.match(
    two.label,
    /2 blocking checks fail, so a checkpoint is refused: S3 next-action: .* S1 other: .* Fix them first/,
  );
  assert.deepEqual(two.focus, { system: 'S3', checkId: 'next-action' });

  // Fixed: today's words come back.
  rewrite(dir, 'docs/state/STATE.md', () => kept);
  const after = view(blockingOf(await evaluate(dir)), 'propose');
  assert.equal(after.label, before.label);
  assert.equal(after.focus, undefined);
});
