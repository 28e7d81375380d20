/** The extension's rendering of a checkpoint outcome: from the typed fields, through l10n, never from the core's prose. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { closingMessage, outcomeMessage } from '../../src/extension/pure/checkpoint-text';
import { quoted } from '../../src/extension/pure/findings';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { evaluate } from '../../src/core/report/evaluate';
import type { ChecklistStrings } from '../../src/protocol/checklist';
import { cli, fixtureCopy, gitInit, workspace, copyDemo } from './helpers';
import { CONFIRMED, emptyClaudeHome, s3Workspace, SID, S0_LEDGER } from './checkpoint-fixtures';

/** Formats like vscode.l10n.t, and marks every string it translated, so prose that bypassed it shows. */
const t = (m: string, ...args: Array<string | number | boolean>) =>
  `«${m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]))}»`;

test("written: the notification in short; the checklist's result the marker, the clipboard, the choice between the systems' steps, each system's closing step under its id, one sentence a line: all through l10n", async () => {
  const dir = fixtureCopy('s2/good');
  const s3 = s3Workspace();
  const { readFileSync, writeFileSync, mkdirSync } = await import('node:fs');
  mkdirSync(`${dir}/docs/state`, { recursive: true });
  writeFileSync(`${dir}/docs/state/STATE.md`, readFileSync(`${s3}/docs/state/STATE.md`));
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  const m = outcomeMessage(o, t);
  assert.equal(m.severity, 'info');
  // The notification: the closing in short; the checklist's result: every sentence.
  assert.equal(
    m.text,
    '«Checkpoint written.» «The resume prompt is on the clipboard.» «Type one of the two, not both: /clear (S3) or /compact (S2).» «No guard here: nothing stops /compact.» «The closing steps of S2, S3 are in the log (Show log).»',
  );
  assert.deepEqual(quoted(m.full).split('\n'), [
    `«Marker written: .claude/.checkpoint-ready.${SID}. Session Ledger checked the state files and changed none of them.»`,
    '«The resume prompt is on the clipboard.»',
    '«The systems here end differently. Type one of the two, not both: /clear (S3) starts afresh from the state files, with the resume prompt; /compact (S2) keeps a summary of this conversation too. Either is safe: the files are checked. No guard here: nothing stops /compact.»',
    '«S2: «Checkpoint saved. Safe to run /compact now.»»',
    '«S3: «Handoff docs/state/STATE.md checked. Start a fresh session with /clear, then paste the resume prompt.»»',
  ]);
});

test('refused: the reasons by code, each check in its own words; S1 with manual items open says no /compact', async () => {
  const dir = fixtureCopy('s1/good');
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'refused');
  const m = outcomeMessage(o, t);
  assert.equal(m.severity, 'warning');
  // "not ticked", as the checklist ("not ticked yet") and the tree ("to tick") say: the CLI's word is "confirm" (--confirm).
  assert.equal(
    m.text,
    // The session's items are named by their words alone: they are every system's.
    "«Checkpoint not written: «2 manual items not ticked: ««This session's feedback is stored in memory.» «The user's last request is completed or recorded.»» Tick them in the checklist when they are true.»»",
  );
  assert.doesNotMatch(m.text, /\/compact/);
});

test("S0 switched off: the seed's skip line only; S0 on: the Step 5 figures in the closing step", async () => {
  const off = workspace({ '.agents.yml': 'session:\n  ledger: false\n', '.agents/session_ledger.md': S0_LEDGER });
  gitInit(off);
  const o = await checkpoint(off, { sessionId: SID, confirmed: CONFIRMED });
  const skip = '«Checkpoint skipped - session.ledger not enabled in .agents.yml»';
  assert.deepEqual(outcomeMessage(o, t), { severity: 'info', text: skip, full: [{ text: skip }], inLog: [] });
  const on = fixtureCopy('s0/good');
  gitInit(on);
  const w = await checkpoint(on, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.match(
    closingMessage(w.closing, t),
    /^«S0: «Checkpoint saved to \.agents\/session_ledger\.md \(Goal: Ship CSV export.*; State: 2 done, now: Wire .*next: Add an end-to-end test.*\)\. Run \/clear, then reload the ledger: \/clear \+ ledger reload is preferred over repeated \/compact\.»»$/m,
  );
});

const strings = new Proxy(
  {},
  { get: (_, k) => (k === 'status' || k === 'severity' ? {} : String(k)) },
) as ChecklistStrings;

test('checklist: the write button is off while manual items are open, and when every system is switched off', async () => {
  const dir = s3Workspace();
  const open = checklistState(await evaluate(dir), { name: 'w', uri: 'file:///w' }, strings, {
    busy: false,
    trusted: true,
  });
  assert.equal(open.blocked, false);
  assert.equal(open.manualOpen, 2);
  assert.equal(open.canWrite, false);
  const done = checklistState(await evaluate(dir, { confirmed: CONFIRMED }), { name: 'w', uri: 'file:///w' }, strings, {
    busy: false,
    trusted: true,
  });
  assert.equal(done.manualOpen, 0);
  assert.equal(done.canWrite, true);
  assert.equal(
    checklistState(await evaluate(dir, { confirmed: CONFIRMED }), { name: 'w', uri: 'file:///w' }, strings, {
      busy: true,
      trusted: true,
    }).canWrite,
    false,
  );
  assert.equal(
    checklistState(await evaluate(dir, { confirmed: CONFIRMED }), { name: 'w', uri: 'file:///w' }, strings, {
      busy: false,
      trusted: false,
    }).canWrite,
    false,
  );
  const off = workspace({ '.agents.yml': 'session:\n  ledger: false\n' });
  const s = checklistState(await evaluate(off), { name: 'w', uri: 'file:///w' }, strings, {
    busy: false,
    trusted: true,
  });
  assert.equal(s.systems.length, 1);
  assert.equal(s.blocked, true);
  assert.equal(s.canWrite, false);
});

test("checkpoint prints each system's warnings under its own heading, and an information check as info (as the Problems panel has it)", async () => {
  const dir = workspace({});
  copyDemo(dir);
  gitInit(dir);
  const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const lines = r.stdout.split('\n');
  let system = '';
  for (const l of lines) {
    const head = /^(S[0-4]) .* — [A-Z]+$/.exec(l);
    if (head) system = head[1];
    const check = /^ {2}(S[0-4]) (\S+) /.exec(l);
    if (check) assert.equal(check[1], system, `${l} stands under ${system}`);
  }
  assert.ok(
    lines.some((l) => /^ {2}S0 info unconfirmed /.test(l)),
    r.stdout,
  );
  assert.ok(!lines.some((l) => /^ {2}S0 warn unconfirmed /.test(l)), r.stdout);
});
