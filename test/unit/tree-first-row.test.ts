/**
 * The tree's first row, the session's manual items: a short label that the sidebar's default width shows
 * whole in every language (the words a system row counts them in), whose items beside it, and the whole
 * sentence in the tooltip and the accessible name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countsText } from '../../src/extension/pure/findings';
import { manualRow } from '../../src/extension/pure/tree-text';
import { enT, jaT, koT } from './helpers';

/** Width in half-width cells: a CJK character or a full-width form takes two. */
const cells = (s: string) =>
  [...s].reduce((n, c) => n + (/[\u1100-\u11ff\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(c) ? 2 : 1), 0);

test("the session's row: short label, whose items beside it, the sentence in the tooltip and the name", () => {
  const about = enT(
    "Asked once for this agent session, for every system. A tick is reset when any detected system's state file changes.",
  );
  const row = manualRow(enT, 2, enT('This session (every system)'), { about });
  assert.equal(row.label, '2 manual to tick');
  assert.equal(row.label, countsText(enT, { block: 0, warn: 0, info: 0, manual: 2 }), "a system row's words");
  assert.equal(row.description, 'This session (every system)');
  assert.equal(row.tooltip.split('\n')[0], '2 manual items to tick');
  assert.ok(row.tooltip.includes(about));
  assert.match(row.name, /^This session \(every system\): 2 manual items to tick\. Asked once/);
  // A system's own row: no description (its system is the row above), its name says whose.
  const own = manualRow(enT, 1, 'S1 session handoff');
  assert.equal(own.label, '1 manual to tick');
  assert.equal(own.description, undefined);
  assert.match(own.name, /^S1 session handoff: 1 manual item to tick\. Open the checklist/);
});

test('the label fits where the Japanese sentence was cut: at most 18 cells (half-width) in every language', () => {
  for (const [lang, t] of [
    ['en', enT],
    ['ja', jaT],
    ['ko', koT],
  ] as const) {
    const row = manualRow(t, 12, t('This session (every system)'), { about: '' });
    assert.ok(cells(row.label) <= 18, `${lang}: ${row.label} (${cells(row.label)} cells)`);
    // The sentence the label was before, in the tooltip.
    assert.equal(row.tooltip.split('\n')[0], t('{0} manual items to tick', 12));
    assert.notEqual(row.label, row.tooltip.split('\n')[0], lang);
  }
});
