/**
 * git's run starts as the first state file is read, while the others are still read and parsed; what
 * counts as work is decided once every state file is known. A state file of any system, read early or
 * late, is never work; a file of the project is.
 */
import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { GIT_READER, type GitReader } from '../../src/core/git/git';
import { evaluate, evaluateSystems } from '../../src/core/report/evaluate';
import { SYSTEMS } from '../../src/core/systems/index';
import { HOOK_SYSTEMS } from '../../src/core/systems/hooks';
import { fixtureCopy, gitInit, oneCheck, workspace, write } from './helpers';

test('state files of all five systems are no work; a project file is', async () => {
  const dir = fixtureCopy('e2e-workspace');
  gitInit(dir);
  const first = await evaluate(dir);
  assert.deepEqual(first.systems.map((s) => s.id).sort(), ['S0', 'S1', 'S2', 'S3', 'S4']);
  // Every document any system read changes (a blank line more): none of them is work.
  const docs = [...new Set(first.systems.flatMap((s) => s.docs.map((d) => d.relPath)))];
  assert.ok(docs.length >= 10, `the demo's systems read ${docs.length} documents`);
  for (const rel of docs) appendFileSync(path.join(dir, rel), '\n');
  const stateOnly = await evaluate(dir);
  for (const s of stateOnly.systems) {
    const c = oneCheck(s.checks, 'work-explained');
    assert.equal(c.status, 'pass', `${s.id}: ${c.message}`);
    assert.match(c.message, /No uncommitted changes/, s.id);
  }
  write(dir, 'src/feature.ts', 'export const x = 1;\n');
  const worked = await evaluate(dir);
  for (const s of worked.systems)
    assert.doesNotMatch(oneCheck(s.checks, 'work-explained').message, /No uncommitted changes/, s.id);
});

/** The real git reader, counting the runs it starts. */
function countingReader(): GitReader & { runs: number } {
  const r = {
    runs: 0,
    run: (root: string, maxAgeMs?: number) => {
      r.runs++;
      return GIT_READER.run(root, maxAgeMs);
    },
    info: GIT_READER.info,
  };
  return r;
}

test('git runs only when a system is found whose checks ask it, and after the first results', async () => {
  // S0 switched off by its own configuration, and a file of a generic name that is no system's: no git.
  // A home file that is empty or cannot be read as text: no check of its system asks git either.
  for (const dir of [
    fixtureCopy('s0/disabled'),
    workspace({ 'CONTINUITY.md': '# Notes\n\nnothing here\n' }),
    workspace({ 'docs/state/STATE.md': '' }),
    workspace({ 'docs/state/STATE.md': 'a\0b' }),
  ]) {
    gitInit(dir);
    const reader = countingReader();
    await evaluateSystems(SYSTEMS, dir, {}, reader);
    assert.equal(reader.runs, 0, dir);
  }
  const dir = fixtureCopy('e2e-workspace');
  gitInit(dir);
  const reader = countingReader();
  await evaluateSystems(SYSTEMS, dir, {}, reader);
  assert.equal(reader.runs, 1, 'one run for all five systems');
  // The extension's first results come before git's run starts.
  const first = countingReader();
  let atFirst = -1;
  const full = await evaluateSystems(SYSTEMS, dir, { onGitPending: () => (atFirst = first.runs) }, first);
  assert.equal(atFirst, 0);
  assert.equal(first.runs, 1);
  assert.equal(full.gitPending, undefined);
});

test("S1's attestation sidecar, new since the last commit, is no work for any system", async () => {
  const dir = fixtureCopy('e2e-workspace');
  const sidecar = path.join(dir, 'memory', '.session-handoff.sha256');
  const attested = readFileSync(sidecar);
  rmSync(sidecar);
  gitInit(dir);
  // `session-ledger attest` writes it after the commit (the handoff unchanged).
  writeFileSync(sidecar, attested);
  const r = await evaluate(dir);
  assert.equal(r.systems.length, 5);
  for (const s of r.systems) assert.match(oneCheck(s.checks, 'work-explained').message, /No uncommitted changes/, s.id);
});

test('without every rule (the hooks) a home file is not parsed to decide about git: its text stays unread until asked for', async () => {
  const dir = workspace({ 'docs/state/STATE.md': '# STATE\n\n## Handoff\nNow ▶ ship it\n' });
  gitInit(dir);
  for (const rules of [false, 'start'] as const) {
    const r = await evaluateSystems(HOOK_SYSTEMS, dir, { noGit: true, rules });
    const home = r.systems[0].docs.find((d) => d.relPath === 'docs/state/STATE.md');
    assert.ok(home, String(rules));
    assert.equal(
      typeof Object.getOwnPropertyDescriptor(home, 'text')?.get,
      'function',
      `rules ${String(rules)}: parsed`,
    );
  }
});
