/**
 * Rules whose one-line bugs the first mutation runs showed no test would notice: S0's finished Now,
 * S1's forward-only handoff and the snapshot block's place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Check, SystemReport } from '../../src/core/model/model';
import { checksWith, fixtureCopy, systemIn, workspace } from './helpers';

const S0_CONFIG = { '.agents.yml': 'session:\n  ledger: true\n' };
const ledger = (now: string) => `# Session Ledger\n\n## Goal\nShip CSV export.\n\n## Decisions\n- UTC dates\n\n## Now\n${now}\n\n## Next\n- Wire exportCsv() into the Export button in src/invoices.ts\n\n## Open Questions\n- none\n`;

test('S0: a Now that says the work is finished falls to Next, in every spelling; a real Now stays', async () => {
  const next = 'Wire exportCsv() into the Export button in src/invoices.ts';
  for (const now of ['Done.', 'All done', 'complete', 'Nothing left to do', 'Finished!', 'Готово к публикации.', 'Задача выполнена.', 'The export is done.', 'Tests have been completed', '作業完了', '작업 완료']) {
    const s = await systemIn(workspace({ ...S0_CONFIG, '.agents/session_ledger.md': ledger(now) }), 'S0');
    assert.equal(s.next, next, now);
  }
  const real = await systemIn(workspace({ ...S0_CONFIG, '.agents/session_ledger.md': ledger('Quote the Excel cells in src/export/csv.ts') }), 'S0');
  assert.equal(real.next, 'Quote the Excel cells in src/export/csv.ts');
  // "done" inside a longer action is not a finished Now.
  const longer = await systemIn(workspace({ ...S0_CONFIG, '.agents/session_ledger.md': ledger('Make `npm run done-check` pass in scripts/done.ts') }), 'S0');
  assert.equal(longer.next, 'Make `npm run done-check` pass in scripts/done.ts');
});

const HANDOFF = 'memory/session-handoff-LATEST.md';
function s1With(edit: (text: string) => string): Promise<SystemReport> {
  const dir = fixtureCopy('s1/good');
  const file = path.join(dir, HANDOFF);
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return systemIn(dir, 'S1');
}
const only = (s: SystemReport, id: string): Check[] => checksWith(s.checks, id);

test('S1 future-oriented: a Done or history section warns with its line; a finished-work list item too; neither passes', async () => {
  const good = await s1With((t) => t);
  assert.deepEqual(only(good, 'future-oriented').map((c) => c.status), ['pass']);
  for (const [title, line] of [['## Done this session', 'Done this session'], ['## History', 'History']]) {
    const s = await s1With((t) => `${t.trimEnd()}\n\n${title}\n- exported the CSV\n`);
    const c = only(s, 'future-oriented');
    assert.deepEqual(c.map((x) => [x.status, x.message]), [['warn', `"${line}" lists work already done: the handoff must say only what the next session does (Invariant 2).`]]);
    assert.equal(c[0].line, s.docs[0].text.split('\n').indexOf(title) + 1);
  }
  const item = await s1With((t) => t.replace('## Current work status\n', '## Current work status\n- Completed: the CSV writer\n'));
  assert.deepEqual(only(item, 'future-oriented').map((c) => [c.status, c.message]), [['warn', 'A list of finished work: "Completed: the CSV writer" (Invariant 2).']]);
});

test('S1 snapshot place: right after the front matter (blank lines and comments between are fine); below text or the title warns', async () => {
  const fm = (t: string) => t.indexOf('<!-- state-snapshot v1 -->');
  const ok = await s1With((t) => `${t.slice(0, fm(t))}\n<!-- note -->\n\n${t.slice(fm(t))}`);
  assert.deepEqual(only(ok, 'snapshot').map((c) => c.status), ['pass']);
  const below = await s1With((t) => `${t.slice(0, fm(t))}Some words first.\n\n${t.slice(fm(t))}`);
  const b = only(below, 'snapshot');
  assert.equal(b[0].status, 'warn');
  assert.equal(b[0].message, 'The state-snapshot v1 block sits below other text (line 5): the seed puts it right after the front matter, before the title.');
  // Without front matter the block belongs at the very top.
  const top = await s1With((t) => t.slice(t.indexOf('---', 3) + 4));
  assert.deepEqual(only(top, 'snapshot').map((c) => c.status), ['pass']);
  const afterTitle = await s1With((t) => {
    const block = t.slice(fm(t), t.indexOf('```', t.indexOf('```') + 3) + 4);
    const rest = t.replace(block, '');
    const title = rest.indexOf('\n# ') + 1;
    const eol = rest.indexOf('\n', title) + 1;
    return rest.slice(0, eol) + block + rest.slice(eol);
  });
  const a = only(afterTitle, 'snapshot');
  assert.equal(a[0].status, 'warn');
  assert.match(a[0].message, /^The state-snapshot v1 block sits after the title \(line \d+\)/);
});
