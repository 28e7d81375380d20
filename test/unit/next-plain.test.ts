/**
 * The next action as every surface that renders no Markdown shows it: one plain line from one core
 * function (shownLine), emphasis markers and link targets gone, code spans kept. The CLI's `next:`,
 * the checklist's "Next:" (its code spans drawn as code), the tree's rows and tooltips (code spans in
 * quotes) say the same words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shownLine } from '../../src/core/markdown/shown-line';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { docTooltip, lineLabel } from '../../src/extension/pure/tree-text';
import { cli, fixtureCopy, rewrite, systemIn, CHECKLIST_STRINGS, enT } from './helpers';

const t = enT;

const PLAIN = 'run the replay test in `test/anomaly.test.ts` per ADR 1';

test('a next action with bold, a link and a comment: the same plain line in the CLI, the checklist and the tree', async () => {
  const dir = fixtureCopy('s3/good');
  rewrite(dir, 'docs/state/STATE.md', (x) =>
    x.replace(
      /^- \*\*Now ▶\*\*.*$/m,
      '- **Now ▶** run **the replay test** in `test/anomaly.test.ts` per [ADR 1](../decisions/0001.md) <!-- note -->',
    ),
  );
  const s = await systemIn(dir, 'S3', { noGit: true });
  assert.match(s.next ?? '', /\*\*the replay test\*\*/, 'the report keeps the text as written');
  assert.equal(shownLine(s.next ?? ''), PLAIN);
  // The CLI's status.
  const out = cli(['status', '--root', dir]).stdout;
  assert.ok(out.split('\n').includes(`  next: ${PLAIN}`), out);
  // The checklist's "Next:" line.
  const state = checklistState(
    { root: dir, label: s.label, systems: [s] },
    { name: 'w', uri: 'file:///w' },
    CHECKLIST_STRINGS,
    { busy: false, trusted: true },
  );
  // Its code spans apart: the page draws them as code, without their backticks.
  assert.deepEqual(state.systems[0].next, [
    { text: 'run the replay test in ' },
    { text: 'test/anomaly.test.ts', code: true },
    { text: ' per ADR 1' },
  ]);
  // The next-action check says it the same way (the CLI's check line, the checklist's row).
  assert.equal(s.checks.find((c) => c.id === 'next-action')?.message, `Next action: ${PLAIN}`);
  assert.ok(out.includes(`Next action: ${PLAIN}`), out);
  // The tree: the row (lineLabel) and the home's tooltip, plain text: the code span in quotes, as its finding rows show one.
  const QUOTED = PLAIN.replace(/`([^`]*)`/g, '‘$1’');
  assert.equal(lineLabel(s.next ?? ''), QUOTED);
  assert.ok(docTooltip(t, s, s.home, s.docs[0]).split('\n').includes(`Next action: ${QUOTED}`));
});

test('emphasis inside a code span stays; underscores and stars as words stay', () => {
  assert.equal(shownLine('edit `__init__.py` and **ship**'), 'edit `__init__.py` and ship');
  assert.equal(shownLine('**'), '**');
  assert.equal(shownLine('a * b __ c'), 'a * b __ c');
});
