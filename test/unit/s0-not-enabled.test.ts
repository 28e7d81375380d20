/**
 * S0 without `session.ledger: true` (no `.agents.yml`, or one that does not switch it on) is not
 * enabled: the checkpoint says the seed's skip line and writes nothing; `check` and the tree show
 * the ledger with the same line and a fix that enables it; the fix writes `.agents.yml` atomically,
 * refuses a file that changed since it was read and never writes through a link. Real files, the
 * built CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { evaluate } from '../../src/core/report/evaluate';
import { ledgerOn } from '../../src/core/systems/s0/switch';
import { switchedOn } from '../../src/core/context/systems';
import { applyEnableLedger, enableLedger, planEnableLedger } from '../../src/core/systems/s0/enable';
import { fixOffers } from '../../src/core/systems/fixes';
import { closingSteps } from '../../src/core/report/closing';
import { said } from '../../src/extension/pure/checkpoint-text';
import { WriteRefused } from '../../src/core/files/atomic';
import type { SystemReport } from '../../src/core/model/model';
import { CONFIRM_ALL, CONFIRMED, emptyClaudeHome, markers, run, S0_LEDGER, SID } from './checkpoint-fixtures';
import { gitInit, jaT, workspace } from './helpers';

const SKIP = 'Checkpoint skipped - session.ledger not enabled in .agents.yml';
const LEDGER = '.agents/session_ledger.md';

async function s0Of(dir: string): Promise<SystemReport> {
  const r = await evaluate(dir, { noGit: true });
  const s = r.systems.find((x) => x.id === 'S0');
  assert.ok(s, 'S0 detected');
  return s;
}

test('S0 without .agents.yml is not enabled: skip line in checkpoint, the same line and its fix in check; no marker', async () => {
  const dir = workspace({ [LEDGER]: S0_LEDGER });
  gitInit(dir);
  const s = await s0Of(dir);
  assert.equal(s.skipped, SKIP);
  // `exists` is not a failure: skipped with the seed's skip line, the words the checkpoint says
  const ex = s.checks.filter((c) => c.id === 'exists');
  assert.deepEqual(
    ex.map((c) => [c.status, c.message]),
    [['skipped', SKIP]],
  );
  const cfg = s.checks.filter((c) => c.id === 'config');
  assert.equal(cfg.length, 1);
  assert.deepEqual(
    [cfg[0].severity, cfg[0].status, cfg[0].message],
    [
      'info',
      'warn',
      'Never checkpointed: .agents/session_ledger.md is read and checked, but .agents.yml does not set `session: ledger: true`.',
    ],
  );
  assert.match(cfg[0].hint ?? '', /Add `session: ledger: true` to \.agents\.yml \(created if missing\)/);
  // the ledger is still read and checked
  assert.ok(s.checks.some((c) => c.id === 'next-action'));

  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'skipped');
  assert.deepEqual(
    o.skipped.map((x) => x.line),
    [SKIP],
  );
  const r = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), SKIP);
  assert.deepEqual(markers(dir), []);

  const c = run(['check', '--root', dir]);
  assert.ok(c.stdout.includes(`skip ${'exists'.padEnd(18)} ${SKIP}`), c.stdout);
  assert.ok(c.stdout.includes(`info ${'config'.padEnd(18)} ${cfg[0].message}`), c.stdout);
  assert.match(c.stdout, /fix: Add `session: ledger: true` to \.agents\.yml \(created if missing\)/);
  // the meter's advice follows the same switch
  assert.equal(await ledgerOn(dir), false);
  assert.deepEqual(await switchedOn(dir, ['S0', 'S3']), ['S3']);
});

test('S0 not enabled offers the fix that enables it; the other config findings do not', async () => {
  const s = await s0Of(workspace({ [LEDGER]: S0_LEDGER }));
  const cfg = s.checks.find((c) => c.id === 'config')!;
  const place = { check: cfg, path: LEDGER, onHome: true, onCheckLine: false };
  assert.deepEqual(
    fixOffers('S0', place).map((f) => f.kind),
    ['enable-ledger'],
  );
  const broken = await s0Of(workspace({ '.agents.yml': 'session: [\n', [LEDGER]: S0_LEDGER }));
  for (const c of broken.checks.filter((x) => x.id === 'config'))
    assert.deepEqual(
      fixOffers('S0', { check: c, path: '.agents.yml', onHome: false, onCheckLine: true }).map((f) => f.kind),
      [],
    );
  const on = await s0Of(workspace({ '.agents.yml': 'session:\n  ledger: true\n', [LEDGER]: S0_LEDGER }));
  assert.equal(on.skipped, undefined);
  assert.deepEqual(
    on.checks.filter((c) => c.id === 'config'),
    [],
  );
});

test('enable the ledger: creates .agents.yml when missing; edits an existing one keeping comments; the checkpoint then confirms the ledger', async () => {
  const dir = workspace({ [LEDGER]: S0_LEDGER });
  gitInit(dir);
  const plan = await enableLedger(dir);
  assert.equal(plan.created, true);
  assert.equal(readFileSync(path.join(dir, '.agents.yml'), 'utf8'), 'session:\n  ledger: true\n');
  assert.equal((await s0Of(dir)).skipped, undefined);
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'written', o.lines.join('\n'));
  assert.ok(o.lines.includes(`Checkpoint saved to ${LEDGER}`), o.lines.join('\n'));

  const dir2 = workspace({
    '.agents.yml':
      '# project settings\nreview:\n  strict: true # keep\nsession:\n  ledger: false\n  ledger_path: .agents/session_ledger.md\n',
    [LEDGER]: S0_LEDGER,
  });
  await enableLedger(dir2);
  assert.equal(
    readFileSync(path.join(dir2, '.agents.yml'), 'utf8'),
    '# project settings\nreview:\n  strict: true # keep\nsession:\n  ledger: true\n  ledger_path: .agents/session_ledger.md\n',
  );
  // already on: nothing written
  const again = await planEnableLedger(dir2);
  assert.ok(again.ok && again.plan.already);
});

test('enable the ledger refuses: changed since read, appeared since read, a planted link, YAML it cannot edit', async () => {
  const dir = workspace({ '.agents.yml': 'session:\n  ledger: false\n', [LEDGER]: S0_LEDGER });
  const p = await planEnableLedger(dir);
  assert.ok(p.ok);
  writeFileSync(path.join(dir, '.agents.yml'), 'session:\n  ledger: false\nother: 1\n');
  await assert.rejects(
    applyEnableLedger(dir, p.plan),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'changed',
  );
  assert.equal(readFileSync(path.join(dir, '.agents.yml'), 'utf8'), 'session:\n  ledger: false\nother: 1\n');

  const fresh = workspace({ [LEDGER]: S0_LEDGER });
  const q = await planEnableLedger(fresh);
  assert.ok(q.ok && q.plan.created);
  writeFileSync(path.join(fresh, '.agents.yml'), 'mine: 1\n');
  await assert.rejects(
    applyEnableLedger(fresh, q.plan),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'exists',
  );
  assert.equal(readFileSync(path.join(fresh, '.agents.yml'), 'utf8'), 'mine: 1\n');

  // A link the repository planted at .agents.yml (to a file outside or inside): never written through.
  const outside = workspace({ 'target.yml': 'session:\n  ledger: false\n' });
  const linked = workspace({ [LEDGER]: S0_LEDGER });
  symlinkSync(path.join(outside, 'target.yml'), path.join(linked, '.agents.yml'));
  await assert.rejects(enableLedger(linked), (e: unknown) => e instanceof WriteRefused);
  assert.equal(readFileSync(path.join(outside, 'target.yml'), 'utf8'), 'session:\n  ledger: false\n');
  const inside = workspace({ 'real.yml': 'session:\n  ledger: false\n', [LEDGER]: S0_LEDGER });
  symlinkSync('real.yml', path.join(inside, '.agents.yml'));
  await assert.rejects(enableLedger(inside), (e: unknown) => e instanceof WriteRefused && e.reason === 'link');
  assert.equal(readFileSync(path.join(inside, 'real.yml'), 'utf8'), 'session:\n  ledger: false\n');

  for (const bad of ['session: [\n', '- a list\n', 'session: on-by-default\n']) {
    const d = workspace({ '.agents.yml': bad, [LEDGER]: S0_LEDGER });
    const o = await planEnableLedger(d);
    assert.equal(o.ok, false, bad);
    await assert.rejects(enableLedger(d), WriteRefused);
    assert.equal(readFileSync(path.join(d, '.agents.yml'), 'utf8'), bad);
  }
});

test('S0 closing notice in Japanese: a missing goal, now or next is said in Japanese, not "(none)"', async () => {
  const dir = workspace({
    '.agents.yml': 'session:\n  ledger: true\n',
    [LEDGER]:
      '# Session Ledger\n\n_Last updated: 2026-05-04T14:20:00Z_\n\n## Goal\n\n## State\n\n### Done\n- wrote the parser\n',
  });
  const s = await s0Of(dir);
  const [c] = closingSteps([s]);
  const ja = said(c.notice, jaT);
  assert.doesNotMatch(ja, /\(none\)/, ja);
  assert.match(ja, /（なし）/, ja);
  // English keeps its words
  assert.match(c.notice.text, /Goal: \(none\)/);
  const ko = JSON.parse(
    readFileSync(path.join(__dirname, '..', '..', '..', 'l10n', 'bundle.l10n.ko.json'), 'utf8'),
  ) as Record<string, string>;
  assert.ok(ko['(none)'] && ko[c.notice.id], 'Korean bundle has the notice and (none)');
  assert.ok(readdirSync(dir).includes('.agents.yml'));
});
