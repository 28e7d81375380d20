/**
 * The checklist says what the other surfaces say (src/extension/pure/checklist-model.ts): an
 * information-level finding is marked as information, as the tree, the Problems panel and the CLI mark it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkLine } from '../../src/core/report/report';
import { evaluate } from '../../src/core/report/evaluate';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { levelOf } from '../../src/extension/pure/findings';
import { severityPrefix } from '../../src/extension/pure/tree-text';
import type { ChecklistStrings } from '../../src/protocol/checklist';
import { CHECKLIST_STRINGS, REPO, workspace } from './helpers';
import { S0_CONFIG, S0_LEDGER } from './checkpoint-fixtures';

const en = (m: string, ...a: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(a[Number(i)]));

/** The Japanese words the panel gives the checklist (l10n/bundle.l10n.ja.json). */
function jaStrings(): ChecklistStrings {
  const ja: Record<string, string> = JSON.parse(readFileSync(path.join(REPO, 'l10n/bundle.l10n.ja.json'), 'utf8'));
  const tr = (m: string) => ja[m] ?? m;
  const map = <K extends string>(x: Record<K, string>) =>
    Object.fromEntries(Object.entries(x).map(([k, v]) => [k, tr(v as string)])) as Record<K, string>;
  return { ...CHECKLIST_STRINGS, status: map(CHECKLIST_STRINGS.status), severity: map(CHECKLIST_STRINGS.severity) };
}

test('an info-level finding (S0 unconfirmed) is marked and worded as information in the checklist, as the tree, the Problems panel and the CLI say it', async () => {
  const root = workspace({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER });
  const report = await evaluate(root);
  const check = report.systems.find((s) => s.id === 'S0')!.checks.find((c) => c.id === 'unconfirmed')!;
  assert.deepEqual([check.severity, check.status], ['info', 'warn'], 'the fixture holds an info-level finding');
  // What the other surfaces say of it.
  assert.equal(levelOf(check), 'information', 'Problems panel');
  assert.equal(severityPrefix(en, check), 'Info', 'tree');
  assert.match(checkLine(check), /^ {2}info unconfirmed/, 'CLI');

  const rowOf = (strings: ChecklistStrings) =>
    checklistState(report, { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true })
      .systems.find((s) => s.id === 'S0')!
      .checks.find((c) => c.id === 'unconfirmed')!;
  const row = rowOf(CHECKLIST_STRINGS);
  assert.equal(row.mark, 'info', 'marked as information (its icon and its bar), not as a warning');
  assert.equal(row.said, 'info');
  assert.equal(rowOf(jaStrings()).said, '情報', 'ja: 情報, not 警告 · 情報');
  // A finding of warning severity still says so.
  const warns = checklistState(
    {
      ...report,
      systems: report.systems.map((s) => ({
        ...s,
        checks: s.checks.map((c) => (c.id === 'unconfirmed' ? { ...c, severity: 'warn' as const } : c)),
      })),
    },
    { name: 'w', uri: 'file:///w' },
    CHECKLIST_STRINGS,
    { busy: false, trusted: true },
  )
    .systems.find((s) => s.id === 'S0')!
    .checks.find((c) => c.id === 'unconfirmed')!;
  assert.deepEqual([warns.mark, warns.said], ['warn', 'warning · warns']);
});
