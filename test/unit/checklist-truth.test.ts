/**
 * The checklist says what is true now and what the other surfaces say (src/extension/pure/checklist-model.ts):
 * a result under the write button holds only while the checks it was given on are unchanged, and an
 * information-level finding is marked as information, as the tree, the Problems panel and the CLI mark it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { checkLine } from '../../src/core/report/report';
import { evaluate } from '../../src/core/report/evaluate';
import { checklistState, pastResult, resultBasis, resultHolds } from '../../src/extension/pure/checklist-model';
import { levelOf, partsWords } from '../../src/extension/pure/findings';
import { severityPrefix } from '../../src/extension/pure/tree-text';
import { applyTicks } from '../../src/extension/pure/ticks';
import type { ChecklistStrings } from '../../src/protocol/checklist';
import type { Check, WorkspaceReport } from '../../src/core/model/model';
import { CHECKLIST_STRINGS, enT, REPO, workspace } from './helpers';
import { CONFIRMED, emptyClaudeHome, s3Workspace, SID, S0_CONFIG, S0_LEDGER } from './checkpoint-fixtures';

test('a written result holds through the re-read after the write, and is past once Now ▶ is emptied (BROKEN): no go-signal stays', async () => {
  const root = s3Workspace();
  const shown = await evaluate(root, { confirmed: CONFIRMED });
  const o = await checkpoint(root, {
    report: shown,
    sessionId: SID,
    claudeHome: emptyClaudeHome(),
    codexHome: emptyClaudeHome(),
    env: {},
  });
  assert.equal(o.kind, 'written');
  const basis = resultBasis(o.report, shown);
  assert.equal(resultHolds(basis, shown), true, 'shown over the report it was decided on');
  const after = await evaluate(root, { confirmed: CONFIRMED });
  assert.equal(
    resultHolds(basis, after),
    true,
    'the marker written and the folder read again: nothing it spoke of changed',
  );

  const file = path.join(root, 'docs/state/STATE.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/(- \*\*Now ▶\*\*).*/, '$1'));
  const broken = await evaluate(root, { confirmed: CONFIRMED });
  assert.equal(broken.label, 'BROKEN');
  assert.equal(resultHolds(basis, broken), false, 'the checks changed: the result is past');
  const past = pastResult(enT);
  assert.equal(past.kind, 'past');
  assert.doesNotMatch(partsWords(past.parts), /safe|compact|saved/i, 'the past result repeats no go-signal');
});

test('a result is past once a manual item is unticked or a check changes without a file changing; ticks of another session do not make it past at once', async () => {
  const root = s3Workspace();
  const raw = await evaluate(root);
  const all = applyTicks(raw, (s) => new Set(s.checks.filter((c) => c.severity === 'manual').map((c) => c.id)));
  const none = applyTicks(raw, () => new Set());
  // Decided for the session picked (every item ticked for it), shown over the session the checklist follows (none ticked).
  const other = resultBasis(all, none);
  assert.equal(resultHolds(other, none), true);
  const basis = resultBasis(all, all);
  assert.equal(resultHolds(basis, all), true);
  assert.equal(resultHolds(basis, none), false, 'an item unticked after the result');
  const s3 = all.systems[0];
  const changed = {
    ...all,
    systems: [
      {
        ...s3,
        checks: s3.checks.map((c, i) =>
          i === s3.checks.findIndex((x) => x.severity !== 'manual') ? { ...c, status: 'fail' as const } : c,
        ),
      },
    ],
  };
  assert.equal(resultHolds(basis, changed), false, 'a check that now fails (git moved on, the file the same)');
  assert.equal(resultHolds(basis, undefined), false, 'nothing detected any more');
});

/** A language's l10n bundle (l10n/bundle.l10n.<lang>.json). */
function l10nBundle(lang: string): Record<string, string> {
  return JSON.parse(readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8'));
}

/** The words the panel gives the checklist in a language (l10n/bundle.l10n.<lang>.json). */
function stringsIn(lang: string): ChecklistStrings {
  const bundle = l10nBundle(lang);
  const tr = (m: string) => bundle[m] ?? m;
  const map = <K extends string>(x: Record<K, string>) =>
    Object.fromEntries(Object.entries(x).map(([k, v]) => [k, tr(v as string)])) as Record<K, string>;
  return {
    ...CHECKLIST_STRINGS,
    status: map(CHECKLIST_STRINGS.status),
    info: tr(CHECKLIST_STRINGS.info),
    failBlocks: tr(CHECKLIST_STRINGS.failBlocks),
  };
}

/** The Japanese words the panel gives the checklist. */
const jaStrings = (): ChecklistStrings => stringsIn('ja');

test('an info-level finding (S0 unconfirmed) is marked and worded as information in the checklist, as the tree, the Problems panel and the CLI say it', async () => {
  const root = workspace({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER });
  const report = await evaluate(root);
  const check = report.systems.find((s) => s.id === 'S0')!.checks.find((c) => c.id === 'unconfirmed')!;
  assert.deepEqual([check.severity, check.status], ['info', 'warn'], 'the fixture holds an info-level finding');
  // What the other surfaces say of it.
  assert.equal(levelOf(check), 'information', 'Problems panel');
  assert.equal(severityPrefix(enT, check), 'Info', 'tree');
  assert.match(checkLine(check), /^ {2}info unconfirmed/, 'CLI');

  /** The checklist's row of S0's `unconfirmed` in `r`, worded with `strings`. */
  const rowOf = (r: typeof report, strings: ChecklistStrings) =>
    checklistState(r, { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true })
      .systems.find((s) => s.id === 'S0')!
      .checks.find((c) => c.id === 'unconfirmed')!;
  const row = rowOf(report, CHECKLIST_STRINGS);
  assert.equal(row.mark, 'info', 'marked as information (its icon and its bar), not as a warning');
  assert.equal(row.said, 'info');
  assert.equal(rowOf(report, jaStrings()).said, '情報', 'ja: 情報, not 警告 · 情報');
  // A finding of warning severity still says so.
  const warns = rowOf(
    {
      ...report,
      systems: report.systems.map((s) => ({
        ...s,
        checks: s.checks.map((c) => (c.id === 'unconfirmed' ? { ...c, severity: 'warn' as const } : c)),
      })),
    },
    CHECKLIST_STRINGS,
  );
  assert.deepEqual([warns.mark, warns.said], ['warn', 'warning']);
});

test('a check row says what the check does now: a pass is "pass", a warning "warning", and only a failing blocking check says it blocks (en, ja, ko)', () => {
  const chk = (id: string, severity: Check['severity'], status: Check['status']): Check => ({
    id,
    system: 'S3',
    severity,
    status,
    message: `${id}.`,
    messageId: `${id}.`,
    args: [],
  });
  const report = {
    root: '/w',
    label: 'BROKEN',
    systems: [
      {
        id: 'S3',
        name: 'STATE handoff (Groundwork)',
        label: 'BROKEN',
        home: 'docs/state/STATE.md',
        next: null,
        docs: [],
        unconfirmed: [],
        checks: [
          chk('exists', 'block', 'pass'),
          chk('fresh', 'warn', 'pass'),
          chk('gates', 'warn', 'warn'),
          chk('next-action', 'block', 'fail'),
          chk('work-explained', 'warn', 'skipped'),
          chk('lessons', 'info', 'pass'),
        ],
      },
    ],
  } as unknown as WorkspaceReport;
  const said = (strings: ChecklistStrings) =>
    checklistState(report, { name: 'w', uri: 'file:///w' }, strings, {
      busy: false,
      trusted: true,
    }).systems[0].checks.map((c) => [c.id, c.said]);
  assert.deepEqual(said(CHECKLIST_STRINGS), [
    ['exists', 'pass'],
    ['fresh', 'pass'],
    ['gates', 'warning'],
    ['next-action', 'fail · blocks the marker'],
    ['work-explained', 'skipped'],
    ['lessons', 'pass'],
  ]);
  for (const lang of ['ja', 'ko']) {
    const tr = l10nBundle(lang);
    assert.deepEqual(said(stringsIn(lang)), [
      ['exists', tr['pass']],
      ['fresh', tr['pass']],
      ['gates', tr['warning']],
      ['next-action', tr['fail · blocks the marker']],
      ['work-explained', tr['skipped']],
      ['lessons', tr['pass']],
    ]);
    assert.ok(tr['fail · blocks the marker'], `${lang}: the failing blocking check's words are translated`);
  }
});
