/**
 * The tree's "manual items to tick" rows (a system's own, the session's once for every system) open the
 * checklist on those items, not at its top: a click names the first item still to tick, Open checklist passes it to the panel, which scrolls to
 * it and focuses its box (webview/main.ts, focusCheck). What a command's second argument holds is
 * checked: any caller may pass anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Check, SystemReport, WorkspaceReport } from '../../src/core/model/model';
import {
  focusOfArgument,
  manualFocus,
  manualRowArguments,
  sessionFocus,
} from '../../src/extension/pure/checklist-model';
import { REPO } from './helpers';

const check = (id: string, severity: Check['severity'], status: Check['status']): Check =>
  ({ system: 'S1', id, severity, status, message: id }) as Check;

const s1 = (checks: Check[]) => ({ id: 'S1', checks }) as Pick<SystemReport, 'id' | 'checks'>;

test("a system's manual row opens the checklist on the system's own first item still to tick", () => {
  const folder = { fsPath: '/w' };
  const s = s1([
    check('exists', 'block', 'pass'),
    check('feedback-stored', 'manual', 'manual-open'),
    check('state-reviewed', 'manual', 'manual-open'),
  ]);
  // The session's items are not the system's: its row opens on its own item.
  assert.deepEqual(manualFocus(s), { system: 'S1', checkId: 'state-reviewed' });
  assert.deepEqual(manualRowArguments(folder, manualFocus(s)), [folder, { system: 'S1', checkId: 'state-reviewed' }]);
  // Every item ticked (a row drawn a moment before the tick): the first own manual item; none: the folder alone.
  assert.deepEqual(manualFocus(s1([check('state-reviewed', 'manual', 'manual-done')])), {
    system: 'S1',
    checkId: 'state-reviewed',
  });
  assert.equal(manualFocus(s1([check('feedback-stored', 'manual', 'manual-open')])), undefined);
  assert.deepEqual(manualRowArguments(folder, manualFocus(s1([check('exists', 'block', 'pass')]))), [folder]);
});

test("the session's manual row opens the checklist on the session's first item still to tick, in no system", () => {
  const report = {
    systems: [
      s1([check('feedback-stored', 'manual', 'manual-done'), check('last-request', 'manual', 'manual-open')]),
      {
        id: 'S3',
        checks: [check('feedback-stored', 'manual', 'manual-done'), check('last-request', 'manual', 'manual-open')],
      },
    ],
  } as Pick<WorkspaceReport, 'systems'>;
  assert.deepEqual(sessionFocus(report), { system: null, checkId: 'last-request' });
  assert.deepEqual(focusOfArgument({ system: null, checkId: 'last-request' }), {
    system: null,
    checkId: 'last-request',
  });
});

test('Open checklist takes a check to open on only from an argument that names one', () => {
  assert.deepEqual(focusOfArgument({ system: 'S3', checkId: 'last-request' }), {
    system: 'S3',
    checkId: 'last-request',
  });
  for (const bad of [
    undefined,
    null,
    'S3',
    [{ system: 'S3', checkId: 'x' }],
    { system: 'S9', checkId: 'x' },
    { system: 'S3' },
    { system: 'S3', checkId: 5 },
    { system: 'S3', checkId: '' },
    { system: 'S3', checkId: 'x'.repeat(300) },
  ])
    assert.equal(focusOfArgument(bad), undefined, JSON.stringify(bad));
});

test('the row, the command and the panel are wired: the row passes the item, the command hands it to the panel', () => {
  const code = (rel: string) => readFileSync(path.join(REPO, rel), 'utf8');
  assert.match(
    code('src/extension/tree/system-node.ts'),
    /arguments: manualRowArguments\(this\.folder\.uri, this\.focus\)/,
  );
  assert.match(
    code('src/extension/commands/open-checklist.ts'),
    /run\(s: Services, arg\?: unknown, focus\?: unknown\)[\s\S]*s\.checklist\.show\(state, focusOfArgument\(focus\)[,)]/,
  );
  // The page scrolls to the row and focuses its box.
  assert.match(code('webview/main.ts'), /function focusCheck[\s\S]*scrollIntoView[\s\S]*\.focus\(\)/);
});
