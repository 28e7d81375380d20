/**
 * The two manual items about the agent session (`feedback-stored`, `last-request`) are asked once for
 * the whole workspace, not once per detected system: on the demo workspace (five systems) the CLI's
 * `check` text and `--json`, the checkpoint's refusal, its one-sentence summary and the checklist show
 * and count two items, not ten. One confirmation (bare, or `S1:feedback-stored` as before) holds for
 * every system; a system's own manual item (S1's `state-reviewed`) stays its own. In the extension, the
 * tick of a session's item is reset when any detected system's state file changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { checkpoint, refusalSaid } from '../../src/core/checkpoint/checkpoint';
import { evaluate } from '../../src/core/report/evaluate';
import { sessionItems, type WorkspaceReport } from '../../src/core/model/model';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { countsOf } from '../../src/extension/pure/findings';
import { applyTicks, confirmedOf, stateHash, tickPlace } from '../../src/extension/pure/ticks';
import { CHECKLIST_STRINGS, cli, copyDemo, hookScript, rewrite, workspace } from './helpers';
import { emptyClaudeHome, OTHER_SID, scriptProgram, shownProgram, SID, transcript } from './checkpoint-fixtures';

const SESSION_IDS = ['feedback-stored', 'last-request'];

function demo(): string {
  const dir = workspace({});
  copyDemo(dir);
  return dir;
}

/** The lines of `text` that name a session's item by its id (a command's `--confirm` is no item's line). */
const idLines = (text: string) =>
  text.split('\n').filter((l) => /\b(feedback-stored|last-request)\b/.test(l) && !/--confirm/.test(l));

test('check on the demo (five systems): the two session items once in the text and in --json, not once per system', () => {
  const dir = demo();
  const text = cli(['check', '--root', dir]);
  assert.equal(text.code, 0, text.stderr);
  assert.equal(idLines(text.stdout).length, 2, text.stdout);
  assert.match(
    text.stdout,
    /^This session \(asked once for every system\):\n {2}\[ \] {2}feedback-stored {4}This session's feedback is stored in memory\.\n {2}\[ \] {2}last-request {7}The user's last request is completed or recorded\.$/m,
  );
  // Each system's own label says its files; the overall label waits for the session's items.
  assert.deepEqual(
    text.stdout.split('\n').filter((l) => / — [A-Z]+$/.test(l)),
    [
      'S0 majestic ledger — WORKING',
      'S1 session handoff — WORKING',
      'S2 context-kit — WORKING',
      'S3 Groundwork — WORKING',
      'S4 checkpointing — WORKING',
    ],
  );
  // Every system WORKING, the overall label PARTIAL: the line under it says why.
  assert.match(
    text.stdout,
    /\nOverall: PARTIAL\nThis session's 2 manual items are not ticked: the overall label is PARTIAL until they are\. [^\n]*\n\/compact [^\n]*\n?$/,
  );

  const j = JSON.parse(cli(['check', '--root', dir, '--json']).stdout);
  assert.equal(j.systems.length, 5);
  assert.deepEqual(
    j.sessionChecks.map((c: { id: string; status: string }) => [c.id, c.status]),
    [
      ['feedback-stored', 'manual-open'],
      ['last-request', 'manual-open'],
    ],
  );
  const manual = j.systems.flatMap((s: { checks: Array<{ severity: string }> }) =>
    s.checks.filter((c) => c.severity === 'manual'),
  );
  assert.deepEqual(manual, []);
  assert.equal(j.label, 'PARTIAL');

  // One confirmation, given as one system's (the old form), holds for every system.
  const one = cli(['check', '--root', dir, '--json', '--confirm', 'S1:feedback-stored,S1:last-request']);
  const k = JSON.parse(one.stdout);
  assert.deepEqual(
    k.sessionChecks.map((c: { status: string }) => c.status),
    ['manual-done', 'manual-done'],
  );
  assert.equal(k.label, 'WORKING');
});

test('check and status say how to confirm the open session items: the checkpoint command with both and the --root given, as its refusal gives it; nothing once both are confirmed', () => {
  const dir = demo();
  const command = (program: string, root = `\\\n     --root ${dir} `) =>
    `   ${program} \\\n     checkpoint ${root}\\\n     --confirm feedback-stored,last-request\n`;
  const said = `When they are true, confirm them with:\n${command('session-ledger')}`;
  const check = cli(['check', '--root', dir]);
  assert.equal(check.code, 0, check.stderr);
  assert.ok(check.stdout.includes(`completed or recorded.\n${said}\nOverall: PARTIAL`), check.stdout);
  // One confirmed in this run: the checkpoint, a run of its own, still needs both.
  const status = cli(['status', '--root', dir, '--confirm', 'feedback-stored']);
  assert.ok(status.stdout.includes(`completed or recorded.\n${said}\nOverall: PARTIAL`), status.stdout);
  const ja = cli(['check', '--root', dir], { env: { LANG: 'ja_JP.UTF-8' } });
  assert.ok(ja.stdout.includes(`事実になったら、次で確認してください:\n${command('session-ledger')}`), ja.stdout);
  const both = cli(['check', '--root', dir, '--confirm', 'feedback-stored,last-request']);
  assert.doesNotMatch(both.stdout, /confirm them|--confirm/);
  // Run as the installed hook script, the command names it as the guard's block does, in a way that runs from
  // any folder (the project is outside the home folder).
  assert.equal(cli(['hooks', 'install', '--root', dir]).code, 0);
  const home = workspace({}, 'sl-home-');
  const hook = hookScript('.claude/hooks/session-ledger.cjs', ['check'], { cwd: dir, env: { HOME: home } });
  assert.ok(hook.stdout.includes(command(shownProgram(scriptProgram(dir)), '')), hook.stdout);
});

test('while a check blocks, check and status say so before the command that confirms the session items (the checkpoint refuses it until then)', () => {
  const dir = demo();
  const first =
    'A blocking check fails (FAIL above): fix it first; until then a checkpoint is refused.\nWhen they are true, confirm them with:\n';
  // Nothing blocks in the demo: the command alone.
  assert.doesNotMatch(cli(['check', '--root', dir]).stdout, /A blocking check fails/);
  // S3's Now ▶ emptied: next-action fails and blocks.
  rewrite(dir, 'docs/state/STATE.md', (t) => t.replace(/^(- \*\*Now ▶\*\*).*$/m, '$1'));
  for (const command of ['check', 'status']) {
    const r = cli([command, '--root', dir]);
    assert.match(r.stdout, /FAIL next-action/, r.stdout);
    assert.ok(r.stdout.includes(`completed or recorded.\n${first}`), r.stdout);
  }
  const refused = cli(['checkpoint', '--root', dir, '--confirm', 'feedback-stored,last-request']);
  assert.equal(refused.code, 1, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /1 blocking check failed:/);
  const ja = cli(['check', '--root', dir], { env: { LANG: 'ja_JP.UTF-8' } });
  assert.ok(ja.stdout.includes('ブロックするチェックが失敗しています（上の FAIL）。'), ja.stdout);
});

test('check and status after a checkpoint: the items its marker confirmed for the session meant stay ticked, as in the checklist; not for a session nobody named while two run, nor once a state file changed', () => {
  const dir = demo();
  const home = emptyClaudeHome();
  transcript(home, dir, SID);
  const env = { CLAUDE_CONFIG_DIR: home };
  const run = (args: string[]) => cli([...args, '--root', dir], { env });
  const open = run(['check']);
  assert.match(open.stdout, /confirm them with/);
  const written = run(['checkpoint', '--confirm', 'feedback-stored,last-request']);
  assert.equal(written.code, 0, written.stdout + written.stderr);
  // What the session's items say after its checkpoint is what confirming them in the same run says.
  const confirmed = run(['check', '--confirm', 'feedback-stored,last-request']).stdout;
  assert.doesNotMatch(confirmed, /confirm them with/);
  assert.equal(run(['check']).stdout, confirmed);
  assert.equal(run(['status']).stdout, run(['status', '--confirm', 'feedback-stored,last-request']).stdout);
  assert.deepEqual(
    JSON.parse(run(['check', '--json']).stdout),
    JSON.parse(run(['check', '--json', '--confirm', 'feedback-stored,last-request']).stdout),
  );
  // A second session that runs now: which one is meant is not guessed, so no marker ticks anything, and
  // the command that confirms them is given for each session, as a checkpoint's refusal gives it.
  const other = transcript(home, dir, OTHER_SID);
  assert.match(run(['check']).stdout, /confirm them: --confirm feedback-stored,last-request \(the commands below/);
  rmSync(other);
  assert.equal(run(['check']).stdout, confirmed);
  // A state file written since the checkpoint opens the items again.
  rewrite(dir, '.agents/session_ledger.md', (t) => `${t}\n- one more note\n`);
  assert.match(run(['check']).stdout, /confirm them with/);
});

test('checkpoint on the demo: the refusal lists the two items once, names no system, and --confirm names each once', async () => {
  const dir = demo();
  const r = cli(['checkpoint', '--root', dir, '--session', SID]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^2 manual items not confirmed \(every one must be YES\):$/m);
  assert.equal(idLines(r.stderr).filter((l) => !/--confirm/.test(l)).length, 2, r.stderr);
  assert.doesNotMatch(r.stderr, /S[0-4] (feedback-stored|last-request)/);
  assert.match(r.stderr, /--confirm feedback-stored,last-request$/m);

  const json = JSON.parse(cli(['checkpoint', '--root', dir, '--session', SID, '--json']).stdout);
  const refused = json.refusals.find((x: { code: string }) => x.code === 'manual-unconfirmed');
  assert.deepEqual(
    refused.checks.map((c: { system: string | null; id: string }) => [c.system, c.id]),
    [
      [null, 'feedback-stored'],
      [null, 'last-request'],
    ],
  );
  assert.deepEqual(refused.ids, SESSION_IDS);

  // The extension's sentence for it: each item by its words, once ("S0, S1, S2, S3, S4: …" before).
  const home = emptyClaudeHome();
  const o = await checkpoint(dir, { sessionId: SID, claudeHome: home, codexHome: home, env: {} });
  const manual = o.refusals.find((x) => x.code === 'manual-unconfirmed');
  assert.ok(manual);
  assert.equal(manual.checks.length, 2);
  assert.equal(
    refusalSaid(manual).text,
    "2 manual items not ticked: This session's feedback is stored in memory. The user's last request is completed or recorded. Tick them in the checklist when they are true.",
  );

  // Confirmed as S1's, the way it was given before: the checkpoint goes through for every system.
  const w = await checkpoint(dir, {
    sessionId: SID,
    confirmed: ['S1:feedback-stored', 'S1:last-request'],
    claudeHome: home,
    codexHome: home,
    env: {},
  });
  assert.deepEqual(
    w.refusals.map((x) => x.code),
    [],
  );
  assert.equal(w.kind, 'written');
});

test("a system's own manual item stays its own: S1's state-reviewed beside the session's items", async () => {
  const dir = demo();
  const claudeHome = workspace({ 'STATE.md': '# State\n' }, 'sl-claude-');
  const r = await evaluate(dir, { claudeHome, noGit: true });
  const s1 = r.systems.find((s) => s.id === 'S1');
  assert.ok(s1);
  assert.equal(s1.label, 'PARTIAL');
  assert.equal(countsOf(s1).manual, 1);
  assert.deepEqual(
    sessionItems(r).map((c) => c.id),
    SESSION_IDS,
  );
  // `S3:state-reviewed` is no confirmation of S1's item: only S1's or the bare id.
  const other = await evaluate(dir, { claudeHome, noGit: true, confirmed: ['S3:state-reviewed', ...SESSION_IDS] });
  assert.equal(other.label, 'PARTIAL');
  const own = await evaluate(dir, { claudeHome, noGit: true, confirmed: ['S1:state-reviewed', ...SESSION_IDS] });
  assert.equal(own.label, 'WORKING');
});

test('the checklist on the demo: two boxes, above the systems; one tick each opens the write button', async () => {
  const dir = demo();
  const raw = await evaluate(dir, { noGit: true });
  const flags = { busy: false, trusted: true };
  const open = checklistState(raw, { name: 'demo', uri: 'file:///demo' }, CHECKLIST_STRINGS, flags);
  assert.equal(open.systems.length, 5);
  assert.deepEqual(
    open.sessionChecks.map((c) => [c.id, c.status]),
    [
      ['feedback-stored', 'manual-open'],
      ['last-request', 'manual-open'],
    ],
  );
  assert.deepEqual(
    open.systems.flatMap((s) => s.checks.filter((c) => c.severity === 'manual')),
    [],
  );
  assert.equal(open.manualOpen, 2);
  assert.equal(open.canWrite, false);
  assert.equal(open.overall, 'PARTIAL');
  // The tree's system rows count none of them (the folder's row does, once).
  assert.deepEqual(
    raw.systems.map((s) => countsOf(s).manual),
    [0, 0, 0, 0, 0],
  );

  // Ticked once, as the store gives the session's ticks: every system has them.
  const ticked = applyTicks(raw, { session: new Set(SESSION_IDS), system: () => new Set() });
  const done = checklistState(ticked, { name: 'demo', uri: 'file:///demo' }, CHECKLIST_STRINGS, flags);
  assert.equal(done.manualOpen, 0);
  assert.equal(done.canWrite, true);
  assert.equal(done.overall, 'WORKING');
  assert.deepEqual(confirmedOf(ticked), SESSION_IDS);
});

test("a session item's tick is kept for every system's state files as they are: any of them changing resets it", async () => {
  const dir = demo();
  const before = await evaluate(dir, { noGit: true });
  const s0 = before.systems[0];
  const s1 = before.systems.find((s) => s.id === 'S1') as WorkspaceReport['systems'][number];
  // The session's items are one place for every system; S1's own item is S1's.
  assert.deepEqual(tickPlace(before, s0, 'feedback-stored'), ['session', stateHash(before)]);
  assert.deepEqual(tickPlace(before, s1, 'feedback-stored'), ['session', stateHash(before)]);
  assert.equal(tickPlace(before, s1, 'state-reviewed')[0], 'S1');
  // Another system's home file changes (S4's): the version the ticks hold for is another.
  rewrite(dir, '.agents/STATE.md', (t) => `${t}\n`);
  const after = await evaluate(dir, { noGit: true });
  assert.notEqual(stateHash(after), stateHash(before));
  // Nothing changed: the same.
  assert.equal(stateHash(await evaluate(dir, { noGit: true })), stateHash(after));
  // A file that is no state file leaves it as it is.
  const more = workspace({});
  copyDemo(more);
  const base = stateHash(await evaluate(more, { noGit: true }));
  mkdirSync(path.join(more, 'x'), { recursive: true });
  writeFileSync(path.join(more, 'x', 'unrelated.txt'), 'not a state file\n');
  assert.equal(stateHash(await evaluate(more, { noGit: true })), base);
});
