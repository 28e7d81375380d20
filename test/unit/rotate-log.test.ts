import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { WriteRefused } from '../../src/core/files/atomic';
import { evaluate } from '../../src/core/report/evaluate';
import { sha256 } from '../../src/core/files/fsread';
import { applyRotateLog, planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { errorText } from '../../src/extension/pure/error-text';
import { gitInit, jaT, workspace } from './helpers';
import { run } from './checkpoint-fixtures';

const HANDOFF = `# STATE: live project state

## Handoff: read this first

- **Status:** building
- **Phase:** build
- **Branch / HEAD:** main
- **Gates:** checks green, tests 42/42
- **Now ▶** wire the Stop hook into settings.json per the plan in the newest log entry
- **Blocked on:** nothing

## Log

<!-- Newest first. -->
`;

/** A dated entry of `n` bullet lines (plus heading and blank lines). */
function entry(date: string, title: string, n: number): string {
  return `\n### ${date} - ${title}\n\n${Array.from({ length: n }, (_, i) => `- ${title}: step ${i + 1}`).join('\n')}\n`;
}

// Newest first, as S3 writes it: 2026-08-03, 2026-08-01, 2026-07-20, 2026-07-02, 2026-06-30.
const E = [
  entry('2026-08-03', 'stop hook', 32),
  entry('2026-08-01', 'checkpoint skill', 32),
  entry('2026-07-20', 'agent file cap', 32),
  entry('2026-07-02', 'budgets', 32),
  entry('2026-06-30', 'begin', 5),
];
const STATE = HANDOFF + E.join('');

test('over 150 lines: the oldest entries move, verbatim, to docs/state/log/YYYY-MM.md until STATE.md fits', async () => {
  const dir = workspace({
    'docs/state/STATE.md': STATE,
    'docs/state/log/2026-07.md': '# Log 2026-07\n\n### 2026-07-01 - older\n\n- was here before\n',
  });
  assert.ok(STATE.split('\n').length > 150);
  const plan = await planRotateLog(dir);
  assert.ok(plan);
  assert.equal(plan.hash, sha256(Buffer.from(STATE)));
  assert.deepEqual(
    plan.moves.map((m) => [m.date, m.dest]),
    [
      ['2026-06-30', 'docs/state/log/2026-06.md'],
      ['2026-07-02', 'docs/state/log/2026-07.md'],
    ],
  );
  assert.ok(plan.linesAfter <= 150 && plan.withinBudget);
  assert.equal(plan.after, HANDOFF + E.slice(0, 3).join(''));
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), STATE, 'the preview writes nothing');

  const r = run(['rotate-log', '--root', dir, '--apply']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Moved 2 Log entries \(oldest first\)/);
  const state = readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8');
  assert.equal(state, HANDOFF + E.slice(0, 3).join(''));
  assert.ok(state.split('\n').length <= 150);
  const june = readFileSync(path.join(dir, 'docs/state/log/2026-06.md'), 'utf8');
  assert.equal(june, `# Log 2026-06\n\n${E[4].trim()}\n`);
  const july = readFileSync(path.join(dir, 'docs/state/log/2026-07.md'), 'utf8');
  assert.equal(
    july,
    `# Log 2026-07\n\n### 2026-07-01 - older\n\n- was here before\n\n${E[3].trim()}\n`,
    'appended after what it held',
  );
  // Nothing lost, nothing twice.
  for (const e of E) {
    const where = [state, june, july].filter((t) => t.includes(e.trim()));
    assert.equal(where.length, 1, e.split('\n')[1]);
  }
  const report = await evaluate(dir);
  const budget = report.systems.find((s) => s.id === 'S3')?.checks.find((c) => c.id === 'budget');
  assert.equal(budget?.status, 'pass', budget?.message);
});

test('a STATE.md with CRLF line breaks: its archives get CRLF line breaks too, with no stray carriage return', async () => {
  const crlf = (t: string) => t.replace(/\n/g, '\r\n');
  const dir = workspace({
    'docs/state/STATE.md': crlf(STATE),
    'docs/state/log/2026-07.md': crlf('# Log 2026-07\n\n### 2026-07-01 - older\n\n- was here before\n'),
  });
  const r = run(['rotate-log', '--root', dir, '--apply']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), crlf(HANDOFF + E.slice(0, 3).join('')));
  assert.equal(
    readFileSync(path.join(dir, 'docs/state/log/2026-06.md'), 'utf8'),
    crlf(`# Log 2026-06\n\n${E[4].trim()}\n`),
  );
  assert.equal(
    readFileSync(path.join(dir, 'docs/state/log/2026-07.md'), 'utf8'),
    crlf(`# Log 2026-07\n\n### 2026-07-01 - older\n\n- was here before\n\n${E[3].trim()}\n`),
  );
});

test('a file where the Log archives folder goes: the preview and the apply say so, nothing is written', async () => {
  const dir = workspace({ 'docs/state/STATE.md': STATE, 'docs/state/log': 'notes\n' });
  for (const args of [[], ['--apply', '--expect-hash', sha256(Buffer.from(STATE))]]) {
    const r = run(['rotate-log', '--root', dir, ...args]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /docs\/state\/log is not a folder, and the Log archives go in it; nothing was planned/);
  }
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), STATE);
  assert.equal(readFileSync(path.join(dir, 'docs/state/log'), 'utf8'), 'notes\n');
});

/** Text of `bytes` bytes or more: one bullet line after another under `head`. */
function over(head: string, bytes: number): string {
  const lines = [head];
  for (let n = head.length; n < bytes; n += 24) lines.push(`- filler line ${String(n).padStart(9, '0')}`);
  return `${lines.join('\n')}\n`;
}

test('a Log archive over the 4 MB read limit: the preview and the apply say it is too large (size, limit, what to do), nothing is written', async () => {
  // An archive over the limit is read cut short: appending to that part would lose the rest, so it is refused.
  const big = over('# Log 2026-07\n', 5 * 1024 * 1024);
  const dir = workspace({ 'docs/state/STATE.md': STATE, 'docs/state/log/2026-07.md': big });
  await assert.rejects(planRotateLog(dir), (e: unknown) => {
    assert.ok(e instanceof WriteRefused && e.detail === 'too-large' && e.file === 'docs/state/log/2026-07.md');
    // The extension says it in the user's language.
    assert.equal(
      errorText(jaT, e),
      'docs/state/log/2026-07.md は大きすぎて安全に編集できません。何も変更していません。',
    );
    return true;
  });
  for (const args of [[], ['--apply', '--expect-hash', sha256(Buffer.from(STATE))]]) {
    const r = run(['rotate-log', '--root', dir, ...args]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      new RegExp(
        `docs/state/log/2026-07\\.md is ${Buffer.byteLength(big)} bytes, over the limit of 4194304 bytes \\(4 MB\\) .*nothing was written\\. Move it aside`,
      ),
    );
    assert.doesNotMatch(r.stderr, /changed since/);
  }
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), STATE);
  assert.equal(readFileSync(path.join(dir, 'docs/state/log/2026-07.md'), 'utf8'), big);
  assert.equal(existsSync(path.join(dir, 'docs/state/log/2026-06.md')), false);
});

test('a STATE.md over the 4 MB read limit: rotate-log says it is too large to rewrite (size, limit), not that there is no S3 state', async () => {
  const big = STATE.replace(
    '<!-- Newest first. -->\n',
    over('<!-- Newest first. -->\n\n### 2026-09-01 - big\n', 5 * 1024 * 1024),
  );
  const dir = workspace({ 'docs/state/STATE.md': big });
  await assert.rejects(
    planRotateLog(dir),
    (e: unknown) => e instanceof WriteRefused && e.detail === 'too-large' && e.file === 'docs/state/STATE.md',
  );
  for (const args of [[], ['--apply', '--expect-hash', sha256(Buffer.from(big))]]) {
    const r = run(['rotate-log', '--root', dir, ...args]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      new RegExp(
        `docs/state/STATE\\.md is ${Buffer.byteLength(big)} bytes, over the limit of 4194304 bytes \\(4 MB\\)`,
      ),
    );
    assert.doesNotMatch(r.stderr, /no state file of S3/);
  }
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), big);
  assert.equal(existsSync(path.join(dir, 'docs/state/log')), false);
});

test('the newest entry never moves; undated entries stay; under budget nothing moves', async () => {
  const huge =
    HANDOFF +
    entry('2026-08-03', 'newest', 200) +
    '\n### Notes without a date\n\n- keep me\n' +
    entry('2026-08-01', 'older', 5);
  const dir = workspace({ 'docs/state/STATE.md': huge });
  const plan = await planRotateLog(dir);
  assert.ok(plan);
  assert.deepEqual(
    plan.moves.map((m) => m.date),
    ['2026-08-01'],
  );
  assert.equal(plan.withinBudget, false);
  const r = run(['rotate-log', '--root', dir]);
  assert.match(r.stdout, /Would move 1 Log entry/);
  assert.match(r.stdout, /Still over budget/);
  assert.equal(existsSync(path.join(dir, 'docs/state/log')), false);

  const small = workspace({ 'docs/state/STATE.md': HANDOFF + E.slice(0, 2).join('') });
  const s = run(['rotate-log', '--root', small, '--apply']);
  assert.equal(s.code, 0);
  assert.match(s.stdout, /nothing to move/);
  assert.equal(run(['rotate-log', '--root', workspace()]).code, 1);
});

test('checks/config.json budgets.stateMdLines is the budget when set', async () => {
  const dir = workspace({
    'docs/state/STATE.md': HANDOFF + E.slice(0, 3).join(''),
    'checks/config.json': JSON.stringify({ budgets: { stateMdLines: 60 } }),
  });
  const plan = await planRotateLog(dir);
  assert.ok(plan);
  assert.equal(plan.budget, 60);
  assert.deepEqual(
    plan.moves.map((m) => m.date),
    ['2026-07-20', '2026-08-01'],
  );
});

test('a STATE.md changed since the preview is refused; no archive is written', async () => {
  const dir = workspace({ 'docs/state/STATE.md': STATE });
  gitInit(dir);
  const plan = await planRotateLog(dir);
  assert.ok(plan);
  const edited = STATE.replace('tests 42/42', 'tests 43/43');
  writeFileSync(path.join(dir, 'docs/state/STATE.md'), edited);
  await assert.rejects(
    applyRotateLog(dir, plan.hash),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'changed',
  );
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), edited);
  assert.equal(existsSync(path.join(dir, 'docs/state/log')), false);
  const r = run(['rotate-log', '--root', dir, '--apply', '--expect-hash', plan.hash]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /changed since the preview/);
});

test('--apply without --expect-hash, STATE.md changed between its own read and the write: the refusal says it changed since it was read and to run it again (no preview was shown)', async () => {
  const dir = workspace({ 'docs/state/STATE.md': STATE });
  gitInit(dir);
  const plan = await planRotateLog(dir);
  assert.ok(plan);
  writeFileSync(path.join(dir, 'docs/state/STATE.md'), STATE.replace('tests 42/42', 'tests 43/43'));
  const err = await applyRotateLog(dir, plan.hash, { unpreviewed: true }).catch((e: unknown) => e);
  assert.ok(err instanceof WriteRefused && err.reason === 'changed');
  assert.equal(err.message, 'docs/state/STATE.md changed since it was read; nothing was written. Run it again.');
  assert.equal(existsSync(path.join(dir, 'docs/state/log')), false);
});
