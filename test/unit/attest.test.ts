import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { WriteRefused } from '../../src/core/files/atomic';
import { applyAttest, planAttest } from '../../src/core/systems/s1/attest';
import { evaluate } from '../../src/core/report/evaluate';
import { workspace, write } from './helpers';
import { run } from './checkpoint-fixtures';

const HANDOFF = `# Session Handoff

## What to do now (priority order)
1. **MEMORY.md diet** — trim the Key Files section under 24KB (\`wc -c MEMORY.md\`)

## Pending decisions
- Auth: OAuth2 vs API key · urgency: H

## Outstanding issues
- CI flaky test root cause untraced · risk: M
`;

const hex = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

test('attest writes the lowercase hex SHA-256 of the handoff bytes, no newline; S1 then reads MATCH', async () => {
  const bytes = Buffer.concat([Buffer.from('\uFEFF'), Buffer.from(HANDOFF.replace(/\n/g, '\r\n'))]); // raw bytes, BOM and CRLF included
  const dir = workspace({ 'memory/session-handoff-LATEST.md': bytes });
  const before = await evaluate(dir);
  assert.match(
    before.systems.find((s) => s.id === 'S1')?.checks.find((c) => c.id === 'attestation')?.message ?? '',
    /NO_SIDECAR/,
  );
  const r = run(['attest', '--root', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Wrote memory\/\.session-handoff\.sha256 = [0-9a-f]{64} \(was NO_SIDECAR\)/);
  const sidecar = readFileSync(path.join(dir, 'memory/.session-handoff.sha256'));
  assert.equal(sidecar.toString('utf8'), hex(bytes));
  assert.equal(sidecar.length, 64);
  const after = await evaluate(dir);
  const check = after.systems.find((s) => s.id === 'S1')?.checks.find((c) => c.id === 'attestation');
  assert.equal(check?.status, 'pass');
  assert.match(check?.message ?? '', /^MATCH/);
  const again = run(['attest', '--root', dir]);
  assert.match(again.stdout, /already matches/);
});

test('a tampered sidecar is rewritten; --dry-run shows it and writes nothing', () => {
  const dir = workspace({
    'memory/session-handoff-LATEST.md': HANDOFF,
    'memory/.session-handoff.sha256': `${'0'.repeat(64)}\n`,
  });
  const dry = run(['attest', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 0);
  assert.match(dry.stdout, /Would write .* \(was TAMPERED: 0{64}\)/);
  assert.equal(readFileSync(path.join(dir, 'memory/.session-handoff.sha256'), 'utf8'), `${'0'.repeat(64)}\n`);
  const j = JSON.parse(run(['attest', '--root', dir, '--json']).stdout);
  assert.deepEqual(j, {
    handoff: 'memory/session-handoff-LATEST.md',
    sidecar: 'memory/.session-handoff.sha256',
    sha256: hex(HANDOFF),
    before: 'TAMPERED',
    written: true,
  });
  assert.equal(readFileSync(path.join(dir, 'memory/.session-handoff.sha256'), 'utf8'), hex(HANDOFF));
});

test('the older .claude/memory place is attested beside its handoff; no handoff → exit 1, nothing written', () => {
  const dir = workspace({ '.claude/memory/session-handoff-LATEST.md': HANDOFF });
  assert.equal(run(['attest', '--root', dir]).code, 0);
  assert.equal(readFileSync(path.join(dir, '.claude/memory/.session-handoff.sha256'), 'utf8'), hex(HANDOFF));
  const empty = workspace();
  const r = run(['attest', '--root', empty]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /not found/);
  assert.equal(existsSync(path.join(empty, 'memory')), false);
});

test('a sidecar or handoff changed after the plan: refused, files intact', async () => {
  const dir = workspace({ 'memory/session-handoff-LATEST.md': HANDOFF });
  const plan = await planAttest(dir);
  assert.ok(plan);
  const side = write(dir, 'memory/.session-handoff.sha256', 'written by the agent meanwhile');
  await assert.rejects(applyAttest(plan), (e: unknown) => e instanceof WriteRefused && e.reason === 'exists');
  assert.equal(readFileSync(side, 'utf8'), 'written by the agent meanwhile');

  const plan2 = await planAttest(dir);
  assert.ok(plan2);
  writeFileSync(path.join(dir, 'memory/session-handoff-LATEST.md'), `${HANDOFF}- one more line\n`);
  await assert.rejects(applyAttest(plan2), WriteRefused);
  assert.equal(readFileSync(side, 'utf8'), 'written by the agent meanwhile');
});

test('attest and the S1 reader agree on a sha256sum-style sidecar (`<hash>  <file>`): MATCH, rewritten to the exact form', async () => {
  const dir = workspace({
    'memory/session-handoff-LATEST.md': HANDOFF,
    'memory/.session-handoff.sha256': `${hex(HANDOFF)}  session-handoff-LATEST.md\n`,
  });
  const plan = await planAttest(dir);
  assert.equal(plan?.status, 'MATCH');
  assert.equal(plan?.changed, true);
  const check = (await evaluate(dir)).systems.find((s) => s.id === 'S1')?.checks.find((c) => c.id === 'attestation');
  assert.match(check?.message ?? '', /^MATCH/);
});
