/**
 * The go-signal of `checkpoint`: said only when true, for every detected system by its own seed,
 * for a session that is known. Real files in temp workspaces, real git, the built CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { parseMarker } from '../../src/core/checkpoint/marker';
import { fixtureCopy, gitInit, workspace, write } from './helpers';
import {
  CONFIRM_ALL,
  CONFIRMED,
  emptyClaudeHome,
  markers,
  run,
  S0_LEDGER,
  S2_GO_SIGNAL as CHECKPOINT_SAVED,
  s3Workspace,
  SID,
} from './checkpoint-fixtures';

const S3_PROMPT = 'Read docs/state/STATE.md and continue from the Now ▶ action.';
const S1_LINE = 'checkpoint complete. Run /compact to compress context. Handoff: memory/session-handoff-LATEST.md';
const S0_SKIP = 'Checkpoint skipped - session.ledger not enabled in .agents.yml';

function gitFixture(rel: string): string {
  const dir = fixtureCopy(rel);
  gitInit(dir);
  return dir;
}

test('nothing detected: no marker, exit 1, and the message says what was looked for; --nothing-to-preserve writes the opt-out marker', () => {
  const dir = workspace({ 'README.md': '# a project\n' });
  gitInit(dir);
  const r = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(r.code, 1);
  // the same list status and check print: each system's home file, and how to start one
  assert.ok(
    r.stderr.includes(
      'No state files detected (looked for S0 .agents/session_ledger.md, S1 memory/session-handoff-LATEST.md, S2 .claude/session-ledger.md, S3 docs/state/STATE.md, S4 .agents/STATE.md): there is nothing to vouch for.',
    ),
    r.stderr,
  );
  assert.match(r.stderr, /session-ledger init/);
  assert.doesNotMatch(r.stdout + r.stderr, /Safe to run|checkpoint complete|Marker written/);
  assert.deepEqual(markers(dir), []);
  const j = JSON.parse(run(['checkpoint', '--root', dir, '--session', SID, '--json']).stdout);
  assert.equal(j.outcome, 'refused');
  assert.deepEqual(
    j.refusals.map((x: { code: string }) => x.code),
    ['nothing-detected'],
  );
  assert.ok(
    j.refusals[0].lookedFor.some(
      (l: { system: string; paths: string[] }) => l.system === 'S3' && l.paths.includes('docs/state/STATE.md'),
    ),
  );

  const n = run(['checkpoint', '--root', dir, '--session', SID, '--nothing-to-preserve']);
  assert.equal(n.code, 0, n.stderr);
  assert.equal(
    parseMarker(readFileSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`), 'utf8')).nothingToPreserve,
    true,
  );
  assert.match(n.stdout, /nothing-to-preserve/);
});

test('manual items unconfirmed: no marker, exit 1, the items listed; --confirm naming them writes; an unknown id is a usage error', () => {
  const dir = s3Workspace();
  const r = run(['checkpoint', '--root', dir, '--session', SID]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /2 manual items not confirmed/);
  // The session's items, named without a system: they are every system's.
  assert.match(r.stderr, /^ {2}feedback-stored: This session's feedback is stored in memory\.$/m);
  assert.match(r.stderr, /^ {2}last-request: The user's last request is completed or recorded\.$/m);
  assert.match(r.stderr, /--confirm feedback-stored,last-request/);
  assert.deepEqual(markers(dir), []);

  // One of two confirmed: still refused, only the other one listed.
  const half = run(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'S3:feedback-stored']);
  assert.equal(half.code, 1);
  assert.match(half.stderr, /1 manual item not confirmed/);
  assert.doesNotMatch(half.stderr, /feedback-stored:/);
  assert.deepEqual(markers(dir), []);

  const bad = run(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,all-good']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--confirm: unknown item all-good/);
  assert.deepEqual(markers(dir), []);

  const ok = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`]);
});

test('S1: while a Phase 4 item is NO not a word of /compact; once all are YES its own line, verbatim', async () => {
  const dir = gitFixture('s1/good');
  const r = run(['checkpoint', '--root', dir, '--session', SID]);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stdout + r.stderr, /\/compact/);
  const j = JSON.parse(run(['checkpoint', '--root', dir, '--session', SID, '--json']).stdout);
  assert.equal(j.outcome, 'refused');
  assert.doesNotMatch(j.lines.join('\n'), /\/compact/);

  const ok = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(ok.kind, 'written', ok.lines.join('\n'));
  assert.deepEqual(
    ok.closing.map((c) => [c.system, c.step]),
    [['S1', '/compact']],
  );
  assert.equal(ok.lines[ok.lines.length - 1], S1_LINE);
  // The resume prompt is printed too, before the seed's own closing block (which stays as the seed writes it).
  assert.match(
    ok.lines.join('\n'),
    /\nResume prompt for the fresh context:\n {4}Read memory\/session-handoff-LATEST\.md [^\n]*\n\nS1:\ncheckpoint complete\./,
  );
});

test("S2 and S4 end with S2's go-signal line (S4 after its report; its seed names no step); S3 with /clear and its prompt verbatim, no /compact", async () => {
  for (const rel of ['s2/good', 's4/good']) {
    const dir = gitFixture(rel);
    const r = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
    assert.equal(r.kind, 'written', `${rel}: ${r.lines.join('\n')}`);
    assert.equal(r.lines[r.lines.length - 1], CHECKPOINT_SAVED, rel);
    assert.equal(r.closing[0].step, '/compact');
    assert.equal(r.closing[0].notice.text.endsWith(CHECKPOINT_SAVED), true, rel);
    if (rel === 's2/good') {
      // S2's hand-off: at most four lines, NEXT verbatim, the go-signal last.
      assert.deepEqual(r.closing[0].lines, [
        'Ledger .claude/session-ledger.md checked: 2 decided, 3 verified, 1 open, 2 dropped.',
        'NEXT: Stream rows from `InvoiceRepo.cursor()` into `csvWriter` in src/export/csv.ts and run `npm test -- export`.',
        CHECKPOINT_SAVED,
      ]);
    } else {
      assert.equal(r.closing[0].prescribed, false);
      assert.match(r.closing[0].lines[0], /^チェックポイント: /);
    }
  }
  const dir = s3Workspace();
  const c = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(c.code, 0, c.stderr);
  assert.doesNotMatch(c.stdout, /\/compact/);
  const out = c.stdout.trimEnd().split('\n');
  const at = out.indexOf('S3:');
  assert.ok(at > 0, c.stdout);
  // what the tool did (it checked the handoff; the agent wrote it), /clear said once, then the prompt to paste
  assert.deepEqual(out.slice(at + 1), [
    'Handoff docs/state/STATE.md checked. Start a fresh session with /clear, then paste the resume prompt.',
    '```',
    S3_PROMPT,
    '```',
  ]);
  assert.doesNotMatch(c.stdout, /Handoff written/);
  assert.equal(c.stdout.split('/clear').length - 1, 1, c.stdout);
});

test('several systems in one workspace: each gets its own closing step', async () => {
  const dir = fixtureCopy('s2/good');
  write(dir, 'docs/state/STATE.md', readFileSync(path.join(s3Workspace(), 'docs/state/STATE.md'), 'utf8'));
  gitInit(dir);
  const r = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(r.kind, 'written', r.lines.join('\n'));
  assert.deepEqual(
    r.closing.map((c) => [c.system, c.step]),
    [
      ['S2', '/compact'],
      ['S3', '/clear'],
    ],
  );
  const text = r.lines.join('\n');
  assert.match(
    text,
    /\nS2:\n {2}Ledger \.claude\/session-ledger\.md checked: .*\n {2}NEXT: Stream rows .*\n {2}Checkpoint saved\. Safe to run \/compact now\.\n/,
  );
  assert.match(
    text,
    /\nS3:\n {2}Handoff docs\/state\/STATE\.md checked\. Start a fresh session with \/clear, then paste the resume prompt\.\n/,
  );
  // They end differently: the last line says so, and which system names which (no guard hook is installed here).
  assert.equal(
    r.lines[r.lines.length - 1],
    'The systems here end differently. Type one of the two, not both: /clear (S3) starts afresh from the state files, with the resume prompt; /compact (S2) keeps a summary of this conversation too. Either is safe: the files are checked. No guard here: nothing stops /compact.',
  );
});

test("S0: only a YAML boolean true switches the ledger on; off → the seed's skip line and nothing else, no marker, exit 0 (skipping is the seed's normal return)", async () => {
  for (const cfg of [
    'session:\n  ledger: "true"\n',
    'session:\n  ledger: yes\n',
    'session:\n  ledger: false\n',
    'config_version: 1\n',
    'session:\n  ledger_path: .agents/session_ledger.md\n',
  ]) {
    const dir = workspace({ '.agents.yml': cfg, '.agents/session_ledger.md': S0_LEDGER });
    gitInit(dir);
    const r = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
    assert.equal(r.code, 0, cfg);
    const j = run(['checkpoint', '--root', dir, '--session', SID, '--json', ...CONFIRM_ALL]);
    assert.equal(j.code, 0, cfg);
    assert.deepEqual([JSON.parse(j.stdout).outcome, JSON.parse(j.stdout).ok], ['skipped', false], cfg);
    assert.equal(r.stdout.trim(), S0_SKIP, cfg);
    assert.equal(r.stderr, '', cfg);
    assert.deepEqual(markers(dir), [], cfg);
    const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED });
    assert.equal(o.kind, 'skipped');
    assert.deepEqual(o.skipped, [{ system: 'S0', line: S0_SKIP, said: { id: S0_SKIP, args: [], text: S0_SKIP } }]);
  }
});

test('S0 switched off beside another system: its skip line, and the other system is checkpointed', async () => {
  const dir = s3Workspace({ '.agents.yml': 'session:\n  ledger: false\n' });
  const r = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(r.kind, 'written', r.lines.join('\n'));
  assert.equal(r.lines[0], S0_SKIP);
  assert.deepEqual(
    r.closing.map((c) => c.system),
    ['S3'],
  );
  assert.doesNotMatch(r.resumePrompt, /session_ledger/);
});

test('S0 on: its Step 5 confirmation (saved to, Goal, State: N done, now, next), then /clear and reload the ledger', async () => {
  const dir = gitFixture('s0/good');
  const r = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout.split('\n');
  const at = out.indexOf('Checkpoint saved to .agents/session_ledger.md');
  assert.ok(at > 0, r.stdout);
  assert.equal(
    out[at + 1],
    '- Goal: Ship CSV export for the invoices page; done when `npm test` passes and the export opens in Excel.',
  );
  assert.equal(
    out[at + 2],
    '- State: 2 done, now: Wire `exportCsv()` into the Export button in src/invoices.ts and pass the current filter, next: Add an end-to-end test that downloads the file and opens it with the csv parser.',
  );
  assert.equal(
    out[at + 3],
    'Run /clear, then reload the ledger (.agents/session_ledger.md): /clear + ledger reload is preferred over repeated /compact.',
  );
  assert.match(out[at + 5], /^ {4}Read \.agents\/session_ledger\.md, validate its UNCONFIRMED items with me first/);
  assert.doesNotMatch(r.stdout, /Safe to run \/compact/);
  const j = JSON.parse(run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL, '--json']).stdout);
  assert.equal(j.closing[0].step, '/clear');
  assert.equal(j.closing[0].s0.done, 2);
});

test("the resume prompt stands outside each seed's closing block: S2's hand-off keeps its four-line ceiling, S4's report stays Japanese", async () => {
  const s2 = gitFixture('s2/good');
  const r = await checkpoint(s2, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(r.kind, 'written', r.lines.join('\n'));
  const handOff = r.lines.slice(r.lines.findIndex((l) => l.startsWith('Ledger .claude/session-ledger.md checked')));
  assert.ok(handOff.length <= 4, handOff.join('\n'));
  assert.equal(handOff[handOff.length - 1], 'Checkpoint saved. Safe to run /compact now.');
  assert.match(r.lines.join('\n'), /Resume prompt for the fresh context[^\n]*\n {4}Read \.claude\/session-ledger\.md/);
  const s4 = gitFixture('s4/good');
  const r4 = await checkpoint(s4, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  const report = r4.lines.slice(r4.lines.findIndex((l) => l.startsWith('チェックポイント')));
  assert.doesNotMatch(report.join('\n'), /Resume prompt/);
});

test("S0's State line drops the now part's own full stop, not an abbreviation's (etc., e.g., a.m., Dr.)", async () => {
  for (const [now, shown] of [
    ['Tidy the CSV exports, etc.', 'Tidy the CSV exports, etc.'],
    ['Compare the candidates, e.g.', 'Compare the candidates, e.g.'],
    ['Tidy the CSV exports.', 'Tidy the CSV exports'],
    ['Call the pier office at 9 a.m.', 'Call the pier office at 9 a.m.'],
    ['Ask Dr.', 'Ask Dr.'],
    ['Deploy to server B.', 'Deploy to server B'],
  ]) {
    const dir = fixtureCopy('s0/good');
    const p = path.join(dir, '.agents/session_ledger.md');
    writeFileSync(p, readFileSync(p, 'utf8').replace(/^Wire `exportCsv\(\)`.*$/m, now));
    gitInit(dir);
    const r = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
    assert.equal(r.kind, 'written', r.lines.join('\n'));
    assert.ok(
      r.lines.some((l) => l.includes(`now: ${shown}, next:`)),
      `${now}\n${r.lines.join('\n')}`,
    );
  }
});

test("S2's hand-off counts an OPEN that says it holds nothing (None, N/A) as 0 open, as pending-recorded says none", async () => {
  for (const none of ['None', 'None (all settled)', 'N/A']) {
    const dir = gitFixture('s2/good');
    const file = path.join(dir, '.claude/session-ledger.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/## OPEN\n- [^\n]+\n/, `## OPEN\n- ${none}\n`));
    const r = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
    assert.equal(r.kind, 'written', `${none}: ${r.lines.join('\n')}`);
    const pending = r.report.systems.find((s) => s.id === 'S2')?.checks.find((c) => c.id === 'pending-recorded');
    assert.equal(pending?.message, 'OPEN: none, stated explicitly.', none);
    assert.equal(
      r.closing[0].lines[0],
      'Ledger .claude/session-ledger.md checked: 2 decided, 3 verified, 0 open, 2 dropped.',
      none,
    );
  }
});
