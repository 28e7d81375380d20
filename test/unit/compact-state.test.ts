import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { WriteRefused } from '../../src/core/files/atomic';
import { applyCompactState, planCompactState } from '../../src/core/systems/s4/compact-state';
import { evaluate } from '../../src/core/report/evaluate';
import { sha256 } from '../../src/core/files/fsread';
import { errorText } from '../../src/extension/pure/error-text';
import { EXTERNAL_CORPUS, jaT, OWN_CORPUS, workspace } from './helpers';
import { run } from './checkpoint-fixtures';

const HEAD = `# Agent State

## Main Agent

Claude Code

## Repository Identity

Ledgerly: a double-entry bookkeeping API.

## Progress Tracker

Rolling progress summary (latest 5 checkpoints): [PROGRESS.md](../PROGRESS.md)

---
`;
const block = (kind: string, name: string, next: string) =>
  `\n## ${kind}: ${name}\n<!-- orchestra:block-id: ${name} -->\n\n### Context\n\n- Goal: ${name}.\n\n### Next Steps\n\n- ${next}\n\n---\n`;

const P1 = block('Current Project', 'ledger-v1', 'Ship the v1 API.');
const B1 = block('Current Bug Fix', 'rounding-error', 'Fix rounding in balance.go.');
const F1 = block('Current Feature', 'multi-currency', 'Add BalanceByCurrency to internal/ledger/balance.go.');
const NOTES = `\n## Manual notes\n\n- Keep Postgres 16; do not upgrade mid-feature.\n`;
const B2 = block('Current Bug Fix', 'timezone-drift', 'Store timestamps in UTC.');
const P2 = block('Current Project', 'ledger-v2', 'Plan the v2 schema migration with go test ./... green.');
const STATE = HEAD + P1 + B1 + F1 + NOTES + B2 + P2;
const EXPECTED = HEAD + F1 + NOTES + B2 + P2;

test('the newest block of each kind stays, everything else verbatim in order; older blocks go', async () => {
  const dir = workspace({ '.agents/STATE.md': STATE });
  const plan = await planCompactState(dir);
  assert.ok(plan);
  assert.equal(plan.after, EXPECTED);
  assert.equal(plan.hash, sha256(Buffer.from(STATE)));
  assert.equal(plan.changed, true);
  assert.equal(plan.structureOk, true);
  const lineOf = (s: string) => STATE.split('\n').indexOf(s) + 1;
  assert.deepEqual(plan.pruned, [
    { kind: 'Current Project', line: lineOf('## Current Project: ledger-v1') },
    { kind: 'Current Bug Fix', line: lineOf('## Current Bug Fix: rounding-error') },
  ]);
  assert.equal(readFileSync(path.join(dir, '.agents/STATE.md'), 'utf8'), STATE, 'the preview writes nothing');
});

test('CLI: the preview prints the result and the hash; apply with that hash writes it and re-checks the structure', async () => {
  const dir = workspace({ '.agents/STATE.md': STATE });
  const p = run(['compact-state', '--root', dir]);
  assert.equal(p.code, 0, p.stderr);
  assert.ok(p.stdout.startsWith(EXPECTED.trimEnd()), p.stdout);
  const hash = sha256(Buffer.from(STATE));
  assert.match(p.stdout, new RegExp(`state_hash_before: ${hash}`));
  assert.match(p.stdout, /structure: ok/);
  assert.equal(readFileSync(path.join(dir, '.agents/STATE.md'), 'utf8'), STATE);
  const a = run(['compact-state', '--root', dir, '--apply', '--expect-hash', hash]);
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /Compacted \.agents\/STATE\.md: 2 older blocks removed/);
  assert.equal(readFileSync(path.join(dir, '.agents/STATE.md'), 'utf8'), EXPECTED);
  const report = await evaluate(dir);
  const c = report.systems.find((s) => s.id === 'S4')?.checks.find((x) => x.id === 'compaction');
  assert.equal(c?.status, 'pass', c?.message);
  const again = run(['compact-state', '--root', dir, '--apply']);
  assert.equal(again.code, 0);
  assert.match(again.stdout, /nothing to compact/);
});

test('apply refuses a hash mismatch or a state changed since the preview; the file is intact', async () => {
  const dir = workspace({ '.agents/STATE.md': STATE });
  const file = path.join(dir, '.agents/STATE.md');
  const wrong = run(['compact-state', '--root', dir, '--apply', '--expect-hash', '0'.repeat(64)]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /changed since the preview/);
  assert.equal(readFileSync(file, 'utf8'), STATE);
  const plan = await planCompactState(dir);
  assert.ok(plan);
  const edited = `${STATE}\n- a note the agent added meanwhile\n`;
  writeFileSync(file, edited);
  await assert.rejects(
    applyCompactState(dir, plan.hash),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'changed',
  );
  // The extension says it in the user's language, from the reason and the file.
  const err = await applyCompactState(dir, plan.hash).catch((e: unknown) => e);
  assert.equal(
    errorText(jaT, err),
    '.agents/STATE.md はプレビューの後に変更されました。何も書き込んでいません。もう一度プレビューしてください。',
  );
  assert.equal(readFileSync(file, 'utf8'), edited);
  assert.equal(run(['compact-state', '--root', dir, '--expect-hash', 'xyz']).code, 2);
});

test('a state whose structure is already broken is not compacted', async () => {
  const broken = `${STATE}\n# Agent State\n\n## Progress Tracker\n`;
  const dir = workspace({ '.agents/STATE.md': broken });
  const p = run(['compact-state', '--root', dir]);
  assert.equal(p.code, 1);
  assert.match(p.stdout, /structure: INVALID — 2 "# Agent State" headings/);
  const plan = await planCompactState(dir);
  assert.ok(plan);
  await assert.rejects(applyCompactState(dir, plan.hash), /would be invalid/);
  assert.equal(readFileSync(path.join(dir, '.agents/STATE.md'), 'utf8'), broken);
});

test('CRLF line ends and a BOM are kept; no S4 state → null and exit 1', async () => {
  const crlf = `\uFEFF${STATE.replace(/\n/g, '\r\n')}`;
  const dir = workspace({ '.agents/STATE.md': crlf });
  const plan = await planCompactState(dir);
  assert.ok(plan);
  await applyCompactState(dir, plan.hash);
  assert.equal(readFileSync(path.join(dir, '.agents/STATE.md'), 'utf8'), `\uFEFF${EXPECTED.replace(/\n/g, '\r\n')}`);

  const other = workspace({ '.agents/STATE.md': '# Sprint notes\n\n- nothing of S4 here\n' });
  assert.equal(await planCompactState(other), null);
  assert.equal(run(['compact-state', '--root', other]).code, 1);
  assert.equal(await planCompactState(workspace()), null);
});

const TWO_BUGFIX_STATES = [
  {
    corpus: 'in-repo corpus own/frame-app',
    file: path.join(OWN_CORPUS, 'F5/own__frame-app__.agents__STATE.md'),
    kept: '## Current Bug Fix: web-results-not-shown',
  },
  ...(EXTERNAL_CORPUS
    ? [
        {
          corpus: 'external corpus sasaco/fempy',
          file: path.join(EXTERNAL_CORPUS, 'F5/sasaco__fempy__.agents__STATE.md'),
          kept: '## Current Bug Fix: framewebforjs-results-not-displayed',
        },
      ]
    : []),
];

for (const { corpus, file, kept } of TWO_BUGFIX_STATES)
  test(`${corpus} .agents/STATE.md (two Current Bug Fix blocks, Japanese text) loses the older bug fix only`, async () => {
    const text = readFileSync(file, 'utf8');
    const dir = workspace({ '.agents/STATE.md': text });
    const plan = await planCompactState(dir);
    assert.ok(plan);
    assert.deepEqual(
      plan.pruned.map((p) => p.kind),
      ['Current Bug Fix'],
    );
    const lines = text.split('\n');
    const { line, endLine } = plan.prunedBlocks[0];
    assert.equal(plan.after, [...lines.slice(0, line - 1), ...lines.slice(endLine)].join('\n'));
    assert.equal(plan.structureOk, true);
    await applyCompactState(dir, plan.hash);
    const after = readFileSync(path.join(dir, '.agents/STATE.md'), 'utf8');
    assert.ok(after.includes(kept), kept);
    assert.equal(after.split('## Current Bug Fix:').length, 2, 'one bug fix block left');
  });

test('--apply without --expect-hash, STATE.md changed between its own read and the write: the refusal says it changed since it was read and to run it again (no preview was shown)', async () => {
  const dir = workspace({ '.agents/STATE.md': STATE });
  const plan = await planCompactState(dir);
  assert.ok(plan);
  writeFileSync(path.join(dir, '.agents/STATE.md'), `${STATE}\n- a note the agent added meanwhile\n`);
  const err = await applyCompactState(dir, plan.hash, true).catch((e: unknown) => e);
  assert.ok(err instanceof WriteRefused && err.reason === 'changed');
  assert.equal(err.message, '.agents/STATE.md changed since it was read; nothing was written. Run it again.');
});
