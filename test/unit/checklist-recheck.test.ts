/**
 * Re-check in the checklist always says it was done: the time it read the folder again and whether the
 * page changed, in the user's language (the webview shows it in a polite live region). Before, a press
 * that changed nothing left the page exactly as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { checklistState, recheckedText } from '../../src/extension/pure/checklist-model';
import type { ChecklistStrings } from '../../src/protocol/checklist';
import { s3Workspace } from './checkpoint-fixtures';
import { enT, jaT, koT } from './helpers';

const strings = new Proxy(
  {},
  { get: (_, k) => (k === 'status' || k === 'severity' ? {} : String(k)) },
) as ChecklistStrings;

test('Re-check says when it read the folder again, and that nothing changed or that the page shows what did, in en, ja and ko', async () => {
  const dir = s3Workspace();
  const page = async () =>
    checklistState(await evaluate(dir), { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true });
  const before = await page();
  const same = await page();
  const at = new Date(2026, 11, 7, 8, 42, 5).getTime();
  assert.equal(recheckedText(enT, before, same, at), 'Checked again at 08:42:05: nothing changed.');
  assert.equal(recheckedText(jaT, before, same, at), '08:42:05 に再チェックしました: 変わったものはありません。');
  assert.equal(recheckedText(koT, before, same, at), '08:42:05에 다시 검사했습니다: 바뀐 것이 없습니다.');
  appendFileSync(path.join(dir, 'docs/state/STATE.md'), '\nTODO: fill in\n');
  const changed = await page();
  assert.notDeepEqual(changed, before);
  assert.equal(
    recheckedText(enT, before, changed, at),
    'Checked again at 08:42:05: the checklist above shows what changed.',
  );
  assert.match(recheckedText(jaT, before, changed, at), /^08:42:05 に再チェックしました: /);
  assert.match(recheckedText(koT, before, changed, at), /^08:42:05에 다시 검사했습니다: /);
  // No page before the read (the folder's first scan): what it shows now is new.
  assert.match(recheckedText(enT, undefined, changed, at), /shows what changed/);
});
