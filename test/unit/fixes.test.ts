/** The quick fixes' line edits: S0 timestamp, S3 Branch / HEAD from git, deleting lines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyLineEdits, branchHeadFix, deleteLines, timestampFix } from '../../src/core/systems/fixes';
import { evaluate } from '../../src/core/report/evaluate';
import { workspace } from './helpers';
import { S0_LEDGER } from './checkpoint-fixtures';

const NOW = '2026-12-02T17:00:00Z';

test('fixes: S0 _Last updated:_ set to now, the markup around the value kept', () => {
  const text = '# Session Ledger\n\n_Last updated: <timestamp>_\n\n## Goal\n- x\n';
  const e = timestampFix(text, 3, NOW);
  assert.deepEqual(e, { line: 3, endLine: 3, lines: [`_Last updated: ${NOW}_`] });
  assert.equal(applyLineEdits(text, [e]), `# Session Ledger\n\n_Last updated: ${NOW}_\n\n## Goal\n- x\n`);
  assert.deepEqual(timestampFix('- **Last updated:** TBD', 1, NOW).lines, [`- **Last updated:** ${NOW}`]);
});

test('S0 _Last updated:_ on a line that keeps line ends (a file made CRLF twice, a stray \\r, U+2028): the check reads it, the fix replaces it in place', async () => {
  for (const end of ['\r', '\r\r', '\u2028']) {
    const line = `_Last updated: 2026-11-01T10:00:00Z_${end}`;
    assert.deepEqual(
      timestampFix(`# Ledger\n\n${line}\n`, 3, NOW).lines,
      [`_Last updated: ${NOW}_${end.replace(/\r$/, '')}`],
      JSON.stringify(end),
    );
    const dir = workspace({
      '.agents.yml': 'session:\n  ledger: true\n',
      '.agents/session_ledger.md': S0_LEDGER.replace(/^_Last updated:.*$/m, line),
    });
    const r = await evaluate(dir, { noGit: true });
    const c = r.systems.find((x) => x.id === 'S0')?.checks.find((x) => x.id === 'timestamp');
    assert.equal(c?.status, 'pass', `${JSON.stringify(end)}: ${c?.message}`);
  }
});

test('fixes: S0 without a _Last updated:_ line gets one under the title', () => {
  const text = '# Session Ledger\n## Goal\n- x';
  assert.equal(
    applyLineEdits(text, [timestampFix(text, 1, NOW)]),
    `# Session Ledger\n\n_Last updated: ${NOW}_\n## Goal\n- x`,
  );
  assert.equal(applyLineEdits('## Goal', [timestampFix('## Goal', 1, NOW)]), `_Last updated: ${NOW}_\n\n## Goal`);
});

test('fixes: S3 Branch / HEAD from git, only the branch and the commit change', () => {
  const text =
    '# STATE\n\n## Handoff: read this first\n- **Status:** green\n- **Branch / HEAD:** `feat/old` @ af8d3b6 (pushed)\n- **Gates:** ok\n- Now ▶ do it\n';
  const edits = branchHeadFix(text, { branch: 'main', head: '76234b9aa0c1e6f00d1d2a3b4c5d6e7f8a9b0c1d' });
  assert.deepEqual(edits, [{ line: 5, endLine: 5, lines: ['- **Branch / HEAD:** `main` @ 76234b9 (pushed)'] }]);
  assert.deepEqual(
    branchHeadFix(text, { branch: 'feat/old', head: 'af8d3b6ffff' }),
    [],
    'nothing to change when git agrees',
  );
});

test('fixes: S3 separate Branch and HEAD lines', () => {
  const text = '## Handoff\n**Branch:** old\n**HEAD:** 1234567abc\nNow ▶ go on with x y\n';
  const edits = branchHeadFix(text, { branch: 'main', head: 'fedcba9876543210' });
  assert.equal(
    applyLineEdits(text, edits),
    '## Handoff\n**Branch:** main\n**HEAD:** fedcba9876\nNow ▶ go on with x y\n',
  );
});

test('fixes: deleting a line or a section', () => {
  const text = 'a\nb\nc\nd';
  assert.equal(applyLineEdits(text, [deleteLines(2)]), 'a\nc\nd');
  assert.equal(applyLineEdits(text, [deleteLines(2, 3)]), 'a\nd');
});

/** The handoff line `before` after the Branch / HEAD fix, with git at `main` @ b9e8ff1. */
function branchHeadFixed(before: string): string {
  const text = `## Handoff: read this first\n- **Status:** x\n${before}\n- **Now ▶** do it\n`;
  const git = { branch: 'main', head: 'b9e8ff1c0ffee0123456789abcdef0123456789a' };
  return applyLineEdits(text, branchHeadFix(text, git)).split('\n')[2];
}

test('fixes: S3 Branch / HEAD still template text gets git branch and commit, the comment after it kept', () => {
  // The S3 starter writes TBD: the fix wrote "main" alone, and the finding that followed ("No HEAD hash") offered
  // the same fix, which then had nothing to change.
  for (const [before, after] of [
    ['- **Branch / HEAD:** TBD', '- **Branch / HEAD:** main @ b9e8ff1'],
    ['- **Branch / HEAD:** TBD <!-- branch @ sha -->', '- **Branch / HEAD:** main @ b9e8ff1 <!-- branch @ sha -->'],
    ['- **Branch / HEAD:** `<branch>` @ `<sha>`', '- **Branch / HEAD:** main @ b9e8ff1'],
    ['- **Branch / HEAD:**', '- **Branch / HEAD:** main @ b9e8ff1'],
    ['- **Branch / HEAD:** <!-- fill in -->', '- **Branch / HEAD:** main @ b9e8ff1 <!-- fill in -->'],
    ['- **Branch:** TBD', '- **Branch:** main'],
    ['- **HEAD:** <sha>', '- **HEAD:** b9e8ff1'],
  ])
    assert.equal(branchHeadFixed(before), after, before);
});

test('fixes: S3 Branch / HEAD that names the branch but no commit gets git commit after the branch', () => {
  for (const [before, after] of [
    ['- **Branch / HEAD:** main', '- **Branch / HEAD:** main @ b9e8ff1'],
    ['- **Branch / HEAD:** `main` (pushed)', '- **Branch / HEAD:** `main` @ b9e8ff1 (pushed)'],
    ['- **Branch / HEAD:** `feat/x`', '- **Branch / HEAD:** `main` @ b9e8ff1'],
  ])
    assert.equal(branchHeadFixed(before), after, before);
});
