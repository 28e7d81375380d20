/**
 * What a checkpoint says once it wrote the marker, on every surface: the marker the tool wrote (and
 * that it changed no state file), then each system's closing under its id in its seed's words (S0's
 * Step 5 confirmation then /clear and reload the ledger; S1's and S2's lines verbatim; S3's fresh
 * session with /clear and the resume prompt; S4's report in Japanese), and, when the systems end
 * differently (/clear and /compact), one sentence that says which names which and that one of the
 * two is typed. The CLI and the checklist's result take the same sentences from the core; the
 * notification takes their short form (the step to type, for which systems) from there too. Real files of the demo workspace and the fixtures, real git, the built CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { render, type Msg } from '../../src/core/model/messages';
import { closingChoice, closingReport } from '../../src/core/report/closing';
import { clipAtWord } from '../../src/core/markdown/text';
import { outcomeMessage } from '../../src/extension/pure/checkpoint-text';
import { quoted } from '../../src/extension/pure/findings';
import { demoRepo, enT, fixtureCopy, gitInit, jaT, koT, REPO, workspace } from './helpers';
import {
  CONFIRM_ALL,
  CONFIRMED,
  emptyClaudeHome,
  run,
  S0_CONFIG,
  S0_LEDGER,
  s3Workspace,
  SID,
  S2_GO_SIGNAL as S2_LINE,
  S3_STATE,
} from './checkpoint-fixtures';

/** S1's closing line as its seed prescribes it, verbatim (S2's: S2_GO_SIGNAL). */
const S1_LINE = 'checkpoint complete. Run /compact to compress context. Handoff: memory/session-handoff-LATEST.md';
/** S4's report: the checkpoint path, blocks pruned, sections preserved, research notes archived, validation, risks. */
const S4_PARTS = [
  'チェックポイント: ',
  '刈り込む状態ブロック: ',
  '保持したセクション: ',
  'アーカイブした研究ノート: ',
  '検証結果: ',
  '残りのリスク: ',
];
/** A part cut or closed badly: a comma or full stop before the separator or the ellipsis. */
const DANGLING = /[,;:.]\s*[;…]|,\)/;

/** Every message id of `m` and its message arguments. */
function ids(m: Msg): string[] {
  return [m.id, ...(m.parts ?? []).flatMap((p) => (p ? ids(p) : []))];
}

test('after Write marker on the demo (all five systems): the marker the tool wrote, the choice between /clear and /compact, each system on its own line under its id in its seed\'s words; no ",;"', async () => {
  const dir = demoRepo();
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'written', o.lines.join('\n'));
  // The checklist's result box shows every sentence, one a line (the notification as many as fit).
  const lines = quoted(outcomeMessage(o, enT).full).split('\n');
  assert.equal(
    lines[0],
    `Marker written: .claude/.checkpoint-ready.${SID}. Session Ledger checked the state files and changed none of them.`,
  );
  // No guard hook is installed in the demo: the marker is not what stops /compact.
  const choice =
    'The systems here end differently. Type one of the two, not both: /clear (S0, S3) starts afresh from the state files, with the resume prompt; /compact (S1, S2, S4) keeps a summary of this conversation too. Either is safe: the files are checked. No guard here: nothing stops /compact.';
  assert.equal(lines[2], choice);
  assert.deepEqual(
    lines.slice(3, 8).map((l) => l.slice(0, 4)),
    ['S0: ', 'S1: ', 'S2: ', 'S3: ', 'S4: '],
    lines.join('\n'),
  );
  // S0: its Step 5 confirmation first, then /clear and reload the ledger (preferred over repeated /compact).
  assert.match(
    lines[3],
    /^S0: Checkpoint saved to \.agents\/session_ledger\.md \(Goal: Flag frozen gauges: .*…; State: 2 done, now: .*…, next: Send one alert per run, not per reading, from the ingest job\)\. Run \/clear, then reload the ledger: \/clear \+ ledger reload is preferred over repeated \/compact\.$/,
  );
  assert.equal(lines[4], `S1: ${S1_LINE}`);
  assert.equal(lines[5], `S2: ${S2_LINE}`);
  // S3: a fresh session, /clear, then paste the resume prompt.
  assert.equal(
    lines[6],
    'S3: Handoff docs/state/STATE.md checked. Start a fresh session with /clear, then paste the resume prompt.',
  );
  // S4: its seed's report in Japanese, its six parts in order, then S2's go-signal (its seed names no step).
  assert.ok(lines[7].startsWith('S4: チェックポイント: .agents/checkpoints/2026-12-01-180000.md。'), lines[7]);
  let at = 0;
  for (const part of S4_PARTS) {
    const next = lines[7].indexOf(part, at);
    assert.ok(next >= at, `${part} in ${lines[7]}`);
    at = next;
  }
  assert.ok(lines[7].endsWith(`。 ${S2_LINE}`), lines[7]);
  assert.equal(lines[1], 'The resume prompt is on the clipboard.');
  assert.equal(lines.length, 8, lines.join('\n'));
  for (const l of lines) assert.doesNotMatch(l, DANGLING, l);

  // The CLI (and the hook script, which is the CLI) says the same under each system's id, in the
  // seed's shape, the choice last; its marker line names the session.
  const cli = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(cli.code, 0, cli.stderr);
  const out = cli.stdout.trimEnd().split('\n');
  assert.equal(out[out.length - 1], choice);
  const block = (id: string) => {
    const from = out.indexOf(`${id}:`);
    assert.ok(from > 0, `${id} has its block\n${cli.stdout}`);
    const to = out.indexOf('', from);
    return out.slice(from + 1, to < 0 ? undefined : to).map((l) => l.slice(2));
  };
  const s0 = o.closing[0].s0;
  assert.ok(s0);
  assert.deepEqual(block('S0').slice(0, 4), [
    'Checkpoint saved to .agents/session_ledger.md',
    `- Goal: ${s0.goal}`,
    `- State: 2 done, now: ${s0.now}, next: ${s0.next}`,
    'Run /clear, then reload the ledger (.agents/session_ledger.md): /clear + ledger reload is preferred over repeated /compact.',
  ]);
  assert.deepEqual(block('S1'), [S1_LINE]);
  assert.equal(block('S2').at(-1), S2_LINE);
  assert.deepEqual(block('S3'), [
    'Handoff docs/state/STATE.md checked. Start a fresh session with /clear, then paste the resume prompt.',
    '```',
    'Read docs/state/STATE.md and continue from the Now ▶ action.',
    '```',
  ]);
  const s4 = block('S4');
  assert.deepEqual(
    s4.slice(0, 6).map((l, k) => l.startsWith(S4_PARTS[k])),
    S4_PARTS.map(() => true),
    s4.join('\n'),
  );
  assert.deepEqual(s4.slice(6), [S2_LINE]);
  // The notification's S4 line is the CLI's report on one line.
  assert.equal(lines[7], `S4: ${s4.slice(0, 6).join('。')}。 ${S2_LINE}`);
  assert.doesNotMatch(cli.stdout, /,;/);
  assert.equal(cli.stdout.split('Marker written:').length - 1, 1, cli.stdout);
  const json = JSON.parse(run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL, '--json']).stdout);
  assert.equal(json.choice, choice);
  assert.deepEqual(
    json.closing.map((c: { system: string; prescribed: boolean }) => [c.system, c.prescribed]),
    [
      ['S0', true],
      ['S1', true],
      ['S2', true],
      ['S3', true],
      ['S4', false],
    ],
  );

  // Japanese and Korean: every sentence and every message inside one has its translation.
  const report = closingReport(o.closing, { marker: o.marker, copied: true });
  for (const [lang, tr] of [
    ['ja', jaT],
    ['ko', koT],
  ] as const) {
    const bundle = JSON.parse(readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8')) as Record<
      string,
      string
    >;
    for (const m of report) for (const id of ids(m)) assert.ok(bundle[id], `${lang}: ${id}`);
    const said = report.map((m) => render(m, tr));
    assert.ok(said[2].includes('/clear（S0, S3）') || said[2].includes('/clear(S0, S3)'), said[2]);
    assert.notEqual(said[0], report[0].text);
    // S4's report stays in Japanese in every language.
    assert.ok(said[7].includes('チェックポイント: .agents/checkpoints/2026-12-01-180000.md。'), said[7]);
  }
});

test("the demo's notification (all five systems) says in a few words what to do now: written, the resume prompt on the clipboard, /clear or /compact and for which systems, whether anything stops /compact; each system's closing words are the log's and the checklist's result's", async () => {
  const dir = demoRepo();
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'written', o.lines.join('\n'));
  assert.equal(o.guarded, false);
  const m = outcomeMessage(o, enT);
  assert.equal(
    m.text,
    'Checkpoint written. The resume prompt is on the clipboard. Type one of the two, not both: /clear (S0, S3) or /compact (S1, S2, S4). No guard here: nothing stops /compact. The closing steps of S0, S1, S2, S3, S4 are in the log (Show log).',
  );
  // A toast covers the checklist's result and is cut at 1,000 characters: a sentence or two, in every language.
  for (const [lang, tr] of [
    ['en', enT],
    ['ja', jaT],
    ['ko', koT],
  ] as const) {
    const text = outcomeMessage(o, tr).text;
    assert.ok(text.length < 300, `${lang}: ${text.length} characters: ${text}`);
    assert.match(text, /\/clear.*\/compact/, `${lang}: ${text}`);
    assert.ok(!text.includes('.checkpoint-ready'), `${lang}: no marker path: ${text}`);
    assert.ok(!text.includes('North Pier'), `${lang}: no system's closing report: ${text}`);
    assert.ok(!text.includes('\n'), `${lang}: one line: ${text}`);
    // A Japanese sentence follows the one before with no space.
    assert.ok(!text.includes('\u3002 '), `${lang}: no space after a full-width full stop: ${text}`);
  }
  // Each system's closing words: in the log (its button), and in the checklist's result, every sentence.
  assert.deepEqual(m.inLog, ['S0', 'S1', 'S2', 'S3', 'S4']);
  const full = quoted(m.full).split('\n');
  assert.equal(full.length, 8);
  assert.equal(
    full[0],
    `Marker written: .claude/.checkpoint-ready.${SID}. Session Ledger checked the state files and changed none of them.`,
  );
  assert.equal(full[1], 'The resume prompt is on the clipboard.');
  assert.match(full[2], /^The systems here end differently\. Type one of the two, not both: /);
  assert.deepEqual(
    full.slice(3).map((l) => l.slice(0, 4)),
    ['S0: ', 'S1: ', 'S2: ', 'S3: ', 'S4: '],
  );
  // The CLI says each system's closing as before.
  for (const id of ['S0', 'S1', 'S2', 'S3', 'S4']) assert.ok(o.lines.includes(`${id}:`), id);
});

test("one system: its notification names its step in short, the checklist's result says its closing words; nothing left to the log", async () => {
  const dir = fixtureCopy('s3/good');
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'written', o.lines.join('\n'));
  const m = outcomeMessage(o, enT);
  assert.equal(
    m.text,
    'Checkpoint written. The resume prompt is on the clipboard. Type /clear (S3). No guard here: nothing stops /compact.',
  );
  assert.deepEqual(m.inLog, []);
  assert.match(quoted(m.full), /^S3: Handoff docs\/state\/STATE\.md checked\. Start a fresh session with \/clear/m);
});

test('S0: a goal wrapped over lines is said whole, cut at a word with an ellipsis; no part ends on a comma, semicolon or full stop of its own', async () => {
  const goal =
    "Flag frozen gauges: a station that reports the same level for 12 readings in a row raises an alert,\ndone when `npm test` passes and last week's North Pier outage is caught.";
  const ledger = S0_LEDGER.replace(/## Goal\n[^\n]*\n/, `## Goal\n${goal}\n`);
  assert.notEqual(ledger, S0_LEDGER);
  const dir = workspace({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': ledger });
  gitInit(dir);
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'written', o.lines.join('\n'));
  const [c] = o.closing;
  const whole = goal.replace(/\s+/g, ' ');
  const shown = c.s0?.goal ?? '';
  assert.ok(shown.endsWith('…'), shown);
  const kept = shown.slice(0, -1);
  assert.ok(whole.startsWith(kept), shown);
  // Cut where a word ends, and past the first line (the paragraph was read whole).
  assert.match(whole.slice(kept.length), /^[\s,;:]/, shown);
  assert.ok(kept.length > goal.indexOf('\n') - 20, shown);
  assert.doesNotMatch(kept, /[\s,;:]$/, shown);
  assert.doesNotMatch(c.notice.text, DANGLING, c.notice.text);
  assert.doesNotMatch(c.notice.text, /excel\.;/i, c.notice.text);

  // The rule itself: never inside a word, never a dangling comma, semicolon or colon before the ellipsis.
  assert.equal(clipAtWord('alpha beta, gamma delta', 14), 'alpha beta…');
  assert.equal(clipAtWord('alpha beta; gamma', 12), 'alpha beta…');
  assert.equal(clipAtWord('short enough', 12), 'short enough');
  assert.equal(clipAtWord('x'.repeat(30), 10), `${'x'.repeat(9)}…`);
  // A code span cut in half is closed after the ellipsis, within the length: no lone backtick is shown.
  const next = "Call `queueReminder(db, loan, 'overdue', day)` for each loan";
  for (let n = 8; n < next.length; n++) {
    const c = clipAtWord(next, n);
    assert.ok(c.length <= n, `${n}: ${c}`);
    assert.equal((c.match(/`/g)?.length ?? 0) % 2, 0, `${n}: ${c}`);
  }
  assert.equal(clipAtWord(next, 30), 'Call `queueReminder(db…`');
  assert.equal(clipAtWord('run `npm test` then `git push origin main` now', 31), 'run `npm test` then `git push…`');
});

test("S4, whose seed names no step, counts with its go-signal's /compact: beside S3 the choice is asked; S0 and S3 (both /clear) ask none", async () => {
  const s34 = fixtureCopy('s4/good');
  writeFileSync(path.join(s34, 'README.md'), '# p\n');
  mkdirSync(path.join(s34, 'docs/state'), { recursive: true });
  writeFileSync(path.join(s34, 'docs/state/STATE.md'), S3_STATE);
  gitInit(s34);
  const a = await checkpoint(s34, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(a.kind, 'written', a.lines.join('\n'));
  assert.deepEqual(
    a.closing.map((c) => [c.system, c.step, c.prescribed]),
    [
      ['S3', '/clear', true],
      ['S4', '/compact', false],
    ],
  );
  assert.match(closingChoice(a.closing)?.text ?? '', /\/clear \(S3\) .*\/compact \(S4\) /);
  assert.match(a.lines.join('\n'), /end differently/);

  const s03 = s3Workspace({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER });
  const b = await checkpoint(s03, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(b.kind, 'written', b.lines.join('\n'));
  assert.deepEqual(
    b.closing.map((c) => c.step),
    ['/clear', '/clear'],
  );
  assert.equal(closingChoice(b.closing), null);
  assert.doesNotMatch(outcomeMessage(b, enT).text, /end differently/);
});
