/**
 * Overall PARTIAL while every system says WORKING: the session's manual items are the reason (no system's
 * label counts them). The core says so once (`overallWhy`); the checklist shows it under its overall label
 * and the tree's session row in its tooltip, so the two surfaces never seem to disagree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { overallWhy } from '../../src/core/report/report';
import { applyTicks } from '../../src/core/report/ticks';
import { sessionItems } from '../../src/core/model/model';
import { checklistState, overallWhyText } from '../../src/extension/pure/checklist-model';
import { manualRow } from '../../src/extension/pure/tree-text';
import { CHECKLIST_STRINGS, cli, enT, fixtureCopy, HOOK_SCRIPT, jaT, koT, locale } from './helpers';

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

test("the CLI's status and check say the same sentence under their Overall line, in the user's language, and --json carries it", async () => {
  const dir = fixtureCopy('s3/good');
  const r = await evaluate(dir, { noGit: true });
  const why = overallWhy(r);
  assert.ok(why);
  for (const cmd of ['status', 'check']) {
    const out = cli([cmd, '--root', dir]).stdout.split('\n');
    const at = out.indexOf('Overall: PARTIAL');
    assert.ok(at > 0, out.join('\n'));
    assert.equal(out[at + 1], overallWhyText(enT, r), `${cmd}: the checklist's and the tree's sentence`);
    const j = JSON.parse(cli([cmd, '--root', dir, '--json']).stdout) as { label: string; overallWhy?: unknown };
    assert.equal(j.label, 'PARTIAL');
    assert.deepEqual(j.overallWhy, { message: why.text, messageId: why.id, args: ['2', 'PARTIAL'] });
    for (const [lang, tr, overall] of [
      ['ja_JP.UTF-8', jaT, '全体'],
      ['ko_KR.UTF-8', koT, '전체'],
    ] as const) {
      const said = cli([cmd, '--root', dir], { env: locale(lang) }).stdout.split('\n');
      const i = said.findIndex((l) => l.startsWith(`${tr('Overall')}: PARTIAL`));
      assert.ok(i > 0 && tr('Overall') === overall, said.join('\n'));
      assert.equal(said[i + 1], overallWhyText(tr, r), `${cmd} in ${lang}`);
    }
  }
  // The hook script a project holds has no translations beside it: the sentence in English, as its other words.
  const script = path.join(dir, '.claude', 'hooks', 'session-ledger.cjs');
  mkdirSync(path.dirname(script), { recursive: true });
  copyFileSync(HOOK_SCRIPT, script);
  const h = spawnSync(process.execPath, [script, 'status', '--root', dir], {
    cwd: dir,
    env: { ...process.env, ...locale('ja_JP.UTF-8') },
    encoding: 'utf8',
  });
  assert.equal(h.status, 0, h.stderr);
  const lines = h.stdout.split('\n');
  assert.equal(lines[lines.indexOf('Overall: PARTIAL') + 1], why.text);

  // Nothing to explain: the Overall line alone, and no overallWhy in --json.
  const ticked = cli(['status', '--root', dir, '--confirm', 'feedback-stored,last-request']).stdout.split('\n');
  const w = ticked.indexOf('Overall: WORKING');
  assert.ok(w > 0 && !ticked[w + 1].startsWith("This session's"), ticked.join('\n'));
  const tj = JSON.parse(cli(['check', '--root', dir, '--json', '--confirm', 'feedback-stored,last-request']).stdout);
  assert.equal('overallWhy' in tj, false);
});
