/**
 * A message's code spans (`git rev-parse --short HEAD`, a ledger item's `UNCONFIRMED`) are cut out once,
 * by `messageParts`, and every surface that renders no Markdown shows them alike: the checklist as code
 * elements, the Problems panel and the tree's rows in quotes ‘…’, the tree's accessible names as the
 * row's words without the quotes; never raw backticks. The template's spans are found in the template,
 * each argument's in the argument alone, so a stray backtick in a file name pairs with nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { messageParts, quoted, systemFindings } from '../../src/extension/pure/findings';
import {
  diagnosticMessage,
  docTooltip,
  findingLabel,
  findingName,
  itemLabel,
  itemName,
  lineLabel,
  problemTooltip,
  sectionLabel,
  shownSections,
  systemTooltip,
} from '../../src/extension/pure/tree-text';
import { CHECKLIST_STRINGS, DEMO, enT, jaT, systemIn, workspace } from './helpers';

const BRANCH_HEAD = 'Update Branch / HEAD from `git branch --show-current` and `git rev-parse --short HEAD`.';
const code = (text: string) => ({ text, code: true as const });
const prose = (text: string) => ({ text });

test("the template's code spans are code; the text between them is prose", () => {
  assert.deepEqual(messageParts(enT, BRANCH_HEAD, []), [
    prose('Update Branch / HEAD from '),
    code('git branch --show-current'),
    prose(' and '),
    code('git rev-parse --short HEAD'),
    prose('.'),
  ]);
  // In the user's language: the translated template's spans.
  assert.deepEqual(messageParts(jaT, BRANCH_HEAD, []), [
    code('git branch --show-current'),
    prose(' と '),
    code('git rev-parse --short HEAD'),
    prose(' で Branch / HEAD を更新してください。'),
  ]);
});

test('an argument: inside a template span it is code whole; in prose its own spans are code, found in it alone', () => {
  assert.deepEqual(messageParts(enT, '`{0}` could not be started: {1}', ['node `x`.mjs', 'spawn `node` ENOENT']), [
    code('node `x`.mjs'),
    prose(' could not be started: spawn '),
    code('node'),
    prose(' ENOENT'),
  ]);
  // A ledger item as S0's UNCONFIRMED finding quotes it.
  assert.deepEqual(messageParts(enT, 'Unconfirmed: {0}', ['A frozen sensor repeats `UNCONFIRMED`']), [
    prose('Unconfirmed: A frozen sensor repeats '),
    code('UNCONFIRMED'),
  ]);
  // A stray backtick in a file name is shown as written and takes nothing after it into code.
  assert.deepEqual(messageParts(enT, '{0} has no `ledger` or `compaction` key: not read as S2.', ['we`ird.md']), [
    prose('we`ird.md has no '),
    code('ledger'),
    prose(' or '),
    code('compaction'),
    prose(' key: not read as S2.'),
  ]);
  // Two arguments' stray backticks do not pair with each other either.
  assert.deepEqual(messageParts(enT, '{0} and {1}', ['a`b', 'c`d']), [prose('a`b and c`d')]);
});

test('unmatched, nested and empty spans as Markdown has them', () => {
  const parts = (s: string) => messageParts(enT, '{0}', [s]);
  // A run nothing closes is text; so is the rest of the line after it.
  assert.deepEqual(parts('run `npm test now'), [prose('run `npm test now')]);
  assert.deepEqual(parts('a `` b'), [prose('a `` b')]);
  assert.deepEqual(parts('``'), [prose('``')]);
  // A run closes only on a run of its own length: a longer run holds shorter ones.
  assert.deepEqual(parts('x ``a ` b`` y'), [prose('x '), code('a ` b'), prose(' y')]);
  assert.deepEqual(parts('`a``b`'), [code('a``b')]);
  assert.deepEqual(parts('`` `x` ``'), [code('`x`')]); // one blank each side dropped, as Markdown does
  assert.deepEqual(parts('` `'), [code(' ')]); // only blanks: kept
  // A backslash-escaped run opens nothing.
  assert.deepEqual(parts('\\`a` b'), [prose('\\`a` b')]);
  assert.deepEqual(parts(''), []);
});

test('hostile arguments: placeholders and markup in an argument are text; a long run of backticks is read in linear time', () => {
  assert.deepEqual(messageParts(enT, '{0} then {1}', ['{1}', '<img src=x onerror=alert(1)>']), [
    prose('{1} then <img src=x onerror=alert(1)>'),
  ]);
  assert.deepEqual(messageParts(enT, '`{0}` is missing.', ['{0}`{0}']), [code('{0}`{0}'), prose(' is missing.')]);
  const many = '`a'.repeat(100_000);
  const t0 = Date.now();
  const p = messageParts(enT, 'Unconfirmed: {0}', [many]);
  assert.ok(Date.now() - t0 < 2_000, `${Date.now() - t0} ms`);
  assert.equal(p.filter((x) => x.code).length, 50_000);
  assert.equal(quoted(p).replace(/[‘’`]/g, ''), `Unconfirmed: ${'a'.repeat(100_000)}`);
});

test("the demo's findings: the Problems panel, the tree's rows and tooltips quote code, the accessible names say its words, none shows a backtick", async () => {
  const dir = workspace({}, 'sl-demo-');
  cpSync(DEMO, dir, { recursive: true });
  const s3 = await systemIn(dir, 'S3', { noGit: true });
  const f = systemFindings(s3, () => true).find((x) => x.check.id === 'template');
  assert.ok(f, "S3's template finding");
  const said = diagnosticMessage(enT, f).split('\n');
  assert.equal(said[1], 'Fix: Update Branch / HEAD from ‘git branch --show-current’ and ‘git rev-parse --short HEAD’.');
  assert.match(problemTooltip(enT, f.check), /\nFix: Update Branch \/ HEAD from ‘git branch --show-current’ and/);
  assert.match(
    findingName(enT, f.check, f.path, f.line),
    / Fix: Update Branch \/ HEAD from git branch --show-current and git rev-parse --short HEAD\.$/,
  );
  assert.match(diagnosticMessage(jaT, f), /‘git branch --show-current’ と ‘git rev-parse --short HEAD’ で/);

  const s0 = await systemIn(dir, 'S0', { noGit: true });
  const u = systemFindings(s0, () => true).filter((x) => x.check.id === 'unconfirmed');
  assert.ok(u.length > 0, "S0's UNCONFIRMED findings");
  for (const x of [...u, f]) {
    const label = findingLabel(enT, x.check);
    assert.doesNotMatch(label, /`/, label);
    assert.doesNotMatch(diagnosticMessage(enT, x), /`/);
    assert.doesNotMatch(problemTooltip(enT, x.check), /`/);
    // The accessible name: the label's words, the quotes left out.
    assert.ok(findingName(enT, x.check, x.path, x.line).includes(label.replace(/[‘’]/g, '')), label);
  }
  assert.match(findingLabel(enT, u[0].check), /^Unconfirmed: .*‘UNCONFIRMED’$/);
});

test('the checklist gets each message and hint in parts, code apart', async () => {
  const dir = workspace({}, 'sl-demo-');
  cpSync(DEMO, dir, { recursive: true });
  const s3 = await systemIn(dir, 'S3', { noGit: true });
  const report = { root: dir, systems: [s3], label: s3.label };
  const state = checklistState(report, { name: 'w', uri: 'file:///w' }, CHECKLIST_STRINGS, {
    busy: false,
    trusted: true,
  });
  const c = state.systems[0].checks.find((x) => x.id === 'template' && x.status === 'fail');
  assert.ok(c?.hintParts);
  assert.deepEqual(
    c.hintParts.filter((p) => p.code).map((p) => p.text),
    ['git branch --show-current', 'git rev-parse --short HEAD'],
  );
  for (const x of state.systems[0].checks)
    assert.equal(x.messageParts.map((p) => p.text).join(''), x.message.replace(/`/g, ''), x.message);
});

test("the demo's ledger text in the tree: next action, section and item rows show code spans in quotes like the finding rows, never a backtick", async () => {
  const dir = workspace({}, 'sl-demo-');
  cpSync(DEMO, dir, { recursive: true });
  const s3 = await systemIn(dir, 'S3', { noGit: true });
  // The next action's row and the tooltips that say it.
  const NEXT = /replay test in ‘test\/anomaly\.test\.ts’ \(72 identical readings must give one ‘flatLines\(\)’ run\)$/;
  assert.match(lineLabel(s3.next ?? ''), NEXT);
  assert.match(systemTooltip(enT, s3), /\nNext action: .*replay test in ‘test\/anomaly\.test\.ts’ /);
  assert.match(docTooltip(enT, s3, s3.home, s3.docs[0]), /\nNext action: .*replay test in ‘test\/anomaly\.test\.ts’ /);
  let items = 0;
  for (const id of ['S0', 'S1', 'S2', 'S3', 'S4']) {
    const s = await systemIn(dir, id, { noGit: true });
    assert.doesNotMatch(lineLabel(s.next ?? ''), /`/, `${id} next action`);
    for (const d of s.docs)
      for (const sec of shownSections(d)) {
        assert.doesNotMatch(sectionLabel(enT, sec), /`/, `${id} ${d.relPath} ${sec.title}`);
        for (const it of sec.items) {
          const label = itemLabel(it);
          assert.doesNotMatch(label, /`/, `${id} ${d.relPath}:${it.line}`);
          if (it.text.includes('`')) {
            items++;
            assert.match(label, /‘[^‘’]+’/, label);
            // The accessible name says the words, neither the quotes nor the backticks.
            assert.doesNotMatch(itemName(enT, it, d.relPath), /[`‘’]/, label);
          }
        }
      }
  }
  assert.ok(items > 5, `items with code spans in the demo: ${items}`);
  // A heading's code span, and a ledger item's text inside a finding: the same quotes.
  assert.equal(
    sectionLabel(enT, { title: 'Fix `expireHolds`', key: 'x', level: 2, line: 1, endLine: 2, items: [] }),
    'Fix ‘expireHolds’',
  );
  const s0 = await systemIn(dir, 'S0', { noGit: true });
  const u = systemFindings(s0, () => true).filter((x) => x.check.id === 'unconfirmed');
  const quotes = (x: string): string[] => x.match(/‘[^‘’]*’/g) ?? [];
  const spans = u.flatMap((x) => quotes(findingLabel(enT, x.check)));
  assert.ok(spans.length > 0, 'the UNCONFIRMED findings quote code');
  const unconfirmed = s0.docs
    .flatMap((d) => d.sections.flatMap((x) => x.items))
    .filter((i) => i.flags.includes('unconfirmed'));
  for (const q of spans)
    assert.ok(
      unconfirmed.some((i) => quotes(itemLabel(i)).includes(q)),
      `${q} as the item row shows it`,
    );
});
