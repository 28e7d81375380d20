/**
 * What the notifications and the checklist's lines say, by the one rule of code spans (`messageParts`):
 * the checklist draws a code span as code, a notification (like the Problems panel and the tree) shows
 * it in ‘quotes’, and neither shows a backtick.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { planHooksInstall } from '../../src/core/hooks/install';
import { ENABLE_TITLE } from '../../src/core/systems/s0/fixes';
import { planEnableLedger } from '../../src/core/systems/s0/enable';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { outcomeMessage, said } from '../../src/extension/pure/checkpoint-text';
import { partsWords, quotedT } from '../../src/extension/pure/findings';
import { hooksProblemText } from '../../src/extension/pure/error-text';
import type { TextPart } from '../../src/protocol/checklist';
import { CHECKLIST_STRINGS, enT, fixtureCopy, gitInit, jaT, koT, REPO, workspace } from './helpers';
import { CONFIRMED, emptyClaudeHome, SID, S0_LEDGER } from './checkpoint-fixtures';

const LANGUAGES = [
  { name: 'en', t: enT },
  { name: 'ja', t: jaT },
  { name: 'ko', t: koT },
];

/** No part shows a backtick, and the code parts are those given. */
function assertCode(parts: readonly TextPart[], code: string[]): void {
  for (const p of parts) assert.doesNotMatch(p.text, /`/, JSON.stringify(p));
  assert.deepEqual(
    parts.filter((p) => p.code).map((p) => p.text),
    code,
  );
}

test("a written checkpoint's notification quotes the code spans of the ledger's words; the checklist's result draws them as code", async () => {
  const dir = fixtureCopy('s0/good');
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'written');
  const m = outcomeMessage(o, enT);
  assert.match(
    m.text,
    /now: Wire ‘exportCsv\(\)’ into the Export button in src\/invoices\.ts and pass the current filter,/,
  );
  assert.match(m.text, /Goal: Ship CSV export for the invoices page; done when ‘npm test’ passes/);
  assert.doesNotMatch(m.text, /`/);
  assertCode(m.full, ['npm test', 'exportCsv()']);
  assert.equal(partsWords(m.full), m.text.replace(/[‘’]/g, ''));
});

test("the checklist's Next line: the next action's code spans apart, drawn as code", async () => {
  const dir = fixtureCopy('s0/good');
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, claudeHome: emptyClaudeHome() });
  const state = checklistState(o.report, { name: 'w', uri: 'file:///w' }, CHECKLIST_STRINGS, {
    busy: false,
    trusted: true,
  });
  assert.deepEqual(state.systems[0].next, [
    { text: 'Wire ' },
    { text: 'exportCsv()', code: true },
    { text: ' into the Export button in src/invoices.ts and pass the current filter.' },
  ]);
});

test("Enable the ledger's error, its dialog and its quick fix's title quote `session: ledger: true` (en, ja, ko)", async () => {
  const list = workspace({ '.agents.yml': '- a\n', '.agents/session_ledger.md': S0_LEDGER });
  const refused = await planEnableLedger(list);
  assert.ok(!refused.ok);
  assert.equal(
    said(refused.why, enT),
    '.agents.yml is not a mapping of settings; add ‘session: ledger: true’ by hand.',
  );
  const none = workspace({ '.agents/session_ledger.md': S0_LEDGER });
  const plan = await planEnableLedger(none);
  assert.ok(plan.ok);
  assert.equal(said(plan.plan.question, enT), 'Create .agents.yml with ‘session: ledger: true’?');
  assert.equal(quotedT(enT)(ENABLE_TITLE.id), 'Enable the ledger: add ‘session: ledger: true’ to .agents.yml');
  for (const { name, t } of LANGUAGES)
    for (const x of [said(refused.why, t), said(plan.plan.question, t), quotedT(t)(ENABLE_TITLE.id)]) {
      assert.doesNotMatch(x, /`/, `${name}: ${x}`);
      assert.match(x, /‘session: ledger: true’/, `${name}: ${x}`);
    }
});

test("Install guard hooks' error over a settings file that is not JSON quotes the parser's code spans (en, ja, ko)", async () => {
  const root = workspace({ '.claude/settings.json': '{ "hooks": {}\n' });
  const plan = await planHooksInstall(root);
  assert.equal(plan.problem?.kind, 'not-json');
  for (const { name, t } of LANGUAGES) {
    const x = hooksProblemText(quotedT(t), '.claude/settings.json', plan.problem, plan.error ?? '');
    assert.doesNotMatch(x, /`/, `${name}: ${x}`);
    assert.match(x, /‘\}’.*‘\{’/, `${name}: ${x}`);
  }
});

/** The extension's sources (src/extension), each with its text. */
function extensionSources(): Array<{ file: string; text: string }> {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = path.join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
    });
  return walk(path.join(REPO, 'src', 'extension')).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

test('every file that shows a notification says its words through quotedT (or a builder that quotes, given vscode.l10n.t): none calls vscode.l10n.t itself', () => {
  const bad: string[] = [];
  for (const { file, text } of extensionSources()) {
    if (!/\.show(Information|Warning|Error)Message\(/.test(text)) continue;
    // A call of vscode.l10n.t, or a name for it that a call would use.
    const bare = text.match(/^.*vscode\.l10n\.t(\s*\(|\s*;).*$/gm) ?? [];
    for (const line of bare) bad.push(`${path.relative(REPO, file)}: ${line.trim()}`);
  }
  assert.deepEqual(bad, []);
});
