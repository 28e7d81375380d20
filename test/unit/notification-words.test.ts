/**
 * What the notifications and the checklist's lines say, by the one rule of code spans (`messageParts`):
 * the checklist draws a code span as code, a notification (like the Problems panel and the tree) shows
 * it in ‘quotes’, and neither shows a backtick. A refused checkpoint, and the warning after a go-signal,
 * name their checks in the words the checklist and the tree show for them, in the user's language,
 * never by the checks' ids.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint, type CheckpointOutcome } from '../../src/core/checkpoint/checkpoint';
import { planHooksInstall } from '../../src/core/hooks/install';
import type { Check } from '../../src/core/model/model';
import { ENABLE_TITLE } from '../../src/core/systems/s0/fixes';
import { planEnableLedger } from '../../src/core/systems/s0/enable';
import { checklistState } from '../../src/extension/pure/checklist-model';
import {
  checkpointButtons,
  outcomeMessage,
  refusalButtons,
  said,
  writtenButtons,
} from '../../src/extension/pure/checkpoint-text';
import { partsWords, quoted, quotedT } from '../../src/extension/pure/findings';
import { hooksProblemText } from '../../src/extension/pure/error-text';
import { findingLabel } from '../../src/extension/pure/tree-text';
import type { TextPart } from '../../src/protocol/checklist';
import { CHECKLIST_STRINGS, demoRepo, enT, fixtureCopy, gitInit, jaT, koT, REPO, rewrite, workspace } from './helpers';
import { CONFIRMED, emptyClaudeHome, SID, S0_LEDGER } from './checkpoint-fixtures';

const LANGUAGES = [
  { name: 'en', t: enT },
  { name: 'ja', t: jaT },
  { name: 'ko', t: koT },
];

/** The checks as the checklist shows them: each row's system and the words of its message, in `t`'s language. */
function checklistWords(o: CheckpointOutcome, t: typeof enT): Map<string, string> {
  const state = checklistState(
    o.report,
    { name: 'w', uri: 'file:///w' },
    CHECKLIST_STRINGS,
    { busy: false, trusted: true },
    t,
  );
  const out = new Map<string, string>();
  for (const s of state.systems) for (const c of s.checks) out.set(`${s.id} ${c.id}`, partsWords(c.messageParts));
  for (const c of state.sessionChecks) out.set(`session ${c.id}`, partsWords(c.messageParts));
  return out;
}

/** No part shows a backtick, and the code parts are those given. */
function assertCode(parts: readonly TextPart[], code: string[]): void {
  for (const p of parts) assert.doesNotMatch(p.text, /`/, JSON.stringify(p));
  assert.deepEqual(
    parts.filter((p) => p.code).map((p) => p.text),
    code,
  );
}

test("a refused checkpoint names each manual item not ticked as the checklist asks it (the session's by its words alone), never by its id (en, ja, ko)", async () => {
  const dir = fixtureCopy('s1/good');
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, claudeHome: emptyClaudeHome() });
  assert.deepEqual(
    o.refusals.map((r) => r.code),
    ['manual-unconfirmed'],
  );
  assert.equal(
    outcomeMessage(o, enT).text,
    "Checkpoint not written: 2 manual items not ticked: This session's feedback is stored in memory. The user's last request is completed or recorded. Tick them in the checklist when they are true.",
  );
  for (const { name, t } of LANGUAGES) {
    const text = outcomeMessage(o, t).text;
    const words = checklistWords(o, t);
    for (const id of ['feedback-stored', 'last-request']) {
      assert.ok(text.includes(words.get(`session ${id}`) as string), `${name}: ${text}`);
      assert.ok(!text.includes(`S1: ${words.get(`session ${id}`)}`), `${name}: no system before it in ${text}`);
      assert.ok(!text.includes(id), `${name}: no check id in ${text}`);
    }
  }
});

test("the demo's refusal (two boxes, the session's two questions, once for the five systems) names each question once, after no system", async () => {
  const o = await checkpoint(demoRepo(), { sessionId: SID, claudeHome: emptyClaudeHome() });
  const m = outcomeMessage(o, enT);
  assert.equal(
    m.text,
    "Checkpoint not written: 2 manual items not ticked: This session's feedback is stored in memory. The user's last request is completed or recorded. Tick them in the checklist when they are true.",
  );
  // The checklist's result says the same words.
  assert.equal(partsWords(m.full), m.text);
});

test("a blocking check is named by the tree's and the checklist's words, its code spans in quotes in the notification and as code in the checklist's result (en, ja, ko)", async () => {
  const dir = fixtureCopy('s0/good');
  rewrite(dir, '.agents.yml', () => 'session:\n  ledger: true\n  x: [a, b\n');
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.deepEqual(
    o.refusals.map((r) => r.code),
    ['blocking-checks'],
  );
  const config = o.refusals[0].checks[0] as Check;
  assert.equal(config.id, 'config');
  assert.match(config.message, /a `\[` or `\{` above is not closed/, 'the message holds code spans');
  for (const { name, t } of LANGUAGES) {
    const m = outcomeMessage(o, t);
    // The tree's row (and the Problems panel) say the check in these words, code spans in quotes.
    const row = findingLabel(t, config);
    assert.match(row, /‘\[’.*‘\{’/, `${name}: ${row}`);
    assert.equal(m.text, t('Checkpoint not written: {0}', t('1 blocking check failed: {0}', `S0: ${row}`)), name);
    assert.ok(!/`|\bconfig\b/.test(m.text), `${name}: no backtick, no check id: ${m.text}`);
    // The checklist's row says the same words; its result draws the spans as code.
    assert.ok(partsWords(m.full).includes(checklistWords(o, t).get('S0 config') as string), name);
    assertCode(m.full, ['[', '{']);
  }
});

test("a written checkpoint's closing words, plain, quote the code spans of the ledger's words; the checklist's result draws them as code; the notification says the step in short", async () => {
  const dir = fixtureCopy('s0/good');
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'written');
  const m = outcomeMessage(o, enT);
  const plain = quoted(m.full);
  assert.match(
    plain,
    /now: Wire ‘exportCsv\(\)’ into the Export button in src\/invoices\.ts and pass the current filter,/,
  );
  assert.match(plain, /Goal: Ship CSV export for the invoices page; done when ‘npm test’ passes/);
  assert.doesNotMatch(plain, /`/);
  assertCode(m.full, ['npm test', 'exportCsv()']);
  assert.equal(partsWords(m.full), plain.replace(/[‘’]/g, ''));
  assert.equal(
    m.text,
    'Checkpoint written. The resume prompt is on the clipboard. Type /clear (S0). No guard here: nothing stops /compact.',
  );
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

/**
 * How wide VS Code 1.100 draws a toast's bottom line (workbench.css): the toast at most 450 px, its item
 * padded 5 px a side and the line 5 px more on the left, so 435 px for the source ("Source: Session
 * Ledger", which gets what the buttons leave: cut or wrapped out of sight past that) and the buttons,
 * each its text at 12 px, padded 10 px and 5 px of margin a side. Text at 12 px, as measured in Debian's
 * Chromium with the workbench's own CSS: a Latin character about 6.4 px ("Source: Session Ledger" 140
 * px, "Open checklist" 91 px), taken as 6.5; a kana, kanji or Hangul one 12 px (one em).
 */
const TOAST_LINE_PX = 435;
const BUTTON_AROUND_PX = 30;
const textPx = (s: string): number =>
  [...s].reduce((w, c) => w + (/[\u1100-\u11ff\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(c) ? 12 : 6.5), 0);

/** How far `buttons` cut into the toast's source, in px (0 or less: the source is whole). */
const sourceCut = (buttons: readonly string[]): number =>
  textPx('Source: Session Ledger') + buttons.reduce((w, b) => w + textPx(b) + BUTTON_AROUND_PX, 0) - TOAST_LINE_PX;

test("a refused checkpoint's buttons leave its toast room for the whole source, Session Ledger, in English, Japanese and Korean", () => {
  for (const { name, t } of LANGUAGES) {
    const buttons = refusalButtons(checkpointButtons(quotedT(t)), { blocking: true, agent: true });
    assert.equal(buttons.length, 2, name);
    const cut = sourceCut(buttons);
    assert.ok(cut <= 0, `${name}: ${buttons.join(' | ')} take ${cut} px of the source`);
  }
  // Blocking checks without an agent: the checklist alone; only manual items open: none (the checklist opens on them).
  const b = checkpointButtons(enT);
  assert.deepEqual(refusalButtons(b, { blocking: true, agent: false }), ['Open checklist']);
  assert.deepEqual(refusalButtons(b, { blocking: false, agent: true }), []);
  assert.deepEqual(refusalButtons(b, { blocking: true, agent: true }), ['Ask the agent', 'Open checklist']);
});

test("a written checkpoint's buttons leave its toast room for the whole source, Session Ledger, in English, Japanese and Korean, whichever apply", async () => {
  const cases = [false, true].flatMap((inLog) =>
    [false, true].flatMap((agent) => [false, true].map((copied) => ({ inLog, agent, copied }))),
  );
  const cut: string[] = [];
  for (const { name, t } of LANGUAGES)
    for (const o of cases) {
      const buttons = writtenButtons(checkpointButtons(quotedT(t)), o);
      const px = sourceCut(buttons);
      if (px > 0) cut.push(`${name} ${JSON.stringify(o)}: ${buttons.join(' | ')} take ${px} px of the source`);
    }
  assert.deepEqual(cut, []);
  const b = checkpointButtons(enT);
  // The log first when the notification names it, then the agent, the checklist, the resume prompt again.
  assert.deepEqual(writtenButtons(b, { inLog: false, agent: false, copied: true }), ['Open checklist', 'Copy again']);
  assert.deepEqual(writtenButtons(b, { inLog: false, agent: false, copied: false }), ['Open checklist']);
  assert.deepEqual(writtenButtons(b, { inLog: false, agent: true, copied: true }), ['Ask the agent', 'Open checklist']);
  assert.deepEqual(writtenButtons(b, { inLog: true, agent: false, copied: true }), ['Show log', 'Open checklist']);
  assert.deepEqual(writtenButtons(b, { inLog: true, agent: true, copied: true }), ['Show log', 'Ask the agent']);
  // "Copy again" stands beside a notification that says the prompt is on the clipboard, in each language.
  const dir = fixtureCopy('s0/good');
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.ok(o.kind === 'written' && o.resumePrompt !== '');
  for (const { name, t } of LANGUAGES) {
    const m = outcomeMessage(o, quotedT(t));
    assert.ok(m.text.includes(t('The resume prompt is on the clipboard.')), `${name}: ${m.text}`);
    assert.ok(
      writtenButtons(checkpointButtons(quotedT(t)), { inLog: false, agent: false, copied: true }).includes(
        t('Copy again'),
      ),
      name,
    );
  }
});
