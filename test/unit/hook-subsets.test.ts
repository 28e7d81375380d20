/**
 * The hooks run a part of each system's rules, and that part must say exactly what the full
 * evaluation says, on every fixture, every system's starter (a skeleton by design), every corpus file
 * alone and every corpus repository together:
 * - the guard, once a checkpoint marker exists, asks only whether a state file is still an empty
 *   skeleton: each system's `not-skeleton` check alone (`rules: 'skeleton'`);
 * - SessionStart gives the new context what it needs to resume: each system's next action, open
 *   UNCONFIRMED items and resume prompt, S1's attestation, said at every start, and why a home file
 *   could not be read (`rules: 'resume'`).
 * Both run as the hooks run them: over each system's hook home (src/core/systems/hooks.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate, evaluateSystems } from '../../src/core/report/evaluate';
import { HOOK_SYSTEMS } from '../../src/core/systems/hooks';
import { starterFor, STARTER_SYSTEMS } from '../../src/core/systems/starter';
import type { WorkspaceReport } from '../../src/core/model/model';
import { CORPORA, corpusRows, FIXTURES, fixtureCopy, layOutCorpus, workspace, type CorpusRow } from './helpers';

function skeletonChecks(r: WorkspaceReport): string[] {
  return r.systems.flatMap((s) =>
    s.checks
      .filter((c) => c.id === 'not-skeleton')
      .map((c) => `${c.system} ${c.status} ${c.path ?? ''}:${c.line ?? ''} ${c.message}`),
  );
}

/** What a fresh context is given of each system: the next action, the open UNCONFIRMED items, the resume prompt and the attestation. */
function resumeOf(r: WorkspaceReport): string[] {
  return r.systems.flatMap((s) => [
    `${s.id} next: ${s.next}`,
    ...s.unconfirmed.map((it) => `${s.id} unconfirmed ${it.line}: ${it.text}`),
    `${s.id} prompt: ${s.resumePrompt}`,
    ...s.checks
      .filter((c) => c.id === 'attestation' || (c.id === 'readable' && c.path === s.home))
      .map((c) => `${s.id} ${c.id} ${c.status} ${c.path ?? ''}: ${c.message}`),
  ]);
}

/** Each subset against the full evaluation; returns the full evaluation's not-skeleton checks and resume lines. */
async function same(dir: string, label: string): Promise<{ skeleton: string[]; resume: string[] }> {
  const now = Date.now();
  const full = await evaluate(dir, { now, noGit: true });
  // As the hooks evaluate: each system as the hooks take it (no analyse, no git reader).
  const skeleton = await evaluateSystems(HOOK_SYSTEMS, dir, { now, noGit: true, rules: 'skeleton' });
  const resume = await evaluateSystems(HOOK_SYSTEMS, dir, { now, noGit: true, rules: 'resume' });
  const ids = full.systems.map((s) => s.id);
  assert.deepEqual(skeletonChecks(skeleton), skeletonChecks(full), `${label}: not-skeleton`);
  assert.deepEqual(resumeOf(resume), resumeOf(full), `${label}: what a fresh context is given`);
  for (const [name, r] of [
    ['skeleton', skeleton],
    ['resume', resume],
  ] as const)
    assert.deepEqual(
      r.systems.map((s) => s.id),
      ids,
      `${label}: the same systems (${name})`,
    );
  const only = (r: WorkspaceReport, ids: readonly string[]) =>
    r.systems.every((s) => s.checks.every((c) => ids.includes(c.id) || c.severity === 'manual'));
  assert.ok(
    only(skeleton, ['not-skeleton', 'exists']),
    `${label}: no other rule ran (${skeleton.systems.flatMap((s) => s.checks.map((c) => c.id)).join(', ')})`,
  );
  assert.ok(
    // S0's `config`: where its ledger is kept is not known while .agents.yml cannot be read, and the resume says why.
    only(resume, ['attestation', 'readable', 'exists', 'internal', 'config']),
    `${label}: no other rule ran for the resume (${resume.systems.flatMap((s) => s.checks.map((c) => c.id)).join(', ')})`,
  );
  return { skeleton: skeletonChecks(full), resume: resumeOf(full) };
}

test('the skeleton-only and the resume-only evaluations say what the full one says: every fixture and every system’s starter', async () => {
  const statuses = new Set<string>();
  const resumes = new Set<string>();
  for (const sys of readdirSync(FIXTURES).filter((d) => /^s\d$/.test(d)))
    for (const f of readdirSync(path.join(FIXTURES, sys))) {
      if (!statSync(path.join(FIXTURES, sys, f)).isDirectory()) continue;
      const r = await same(fixtureCopy(`${sys}/${f}`), `${sys}/${f}`);
      for (const c of r.skeleton) statuses.add(c.split(' ')[1]);
      for (const l of r.resume) resumes.add(l.replace(/:.*/s, ''));
    }
  await same(fixtureCopy('e2e-workspace'), 'e2e-workspace');
  for (const id of STARTER_SYSTEMS) {
    const files: Record<string, string> = {};
    for (const f of starterFor(id).files) files[f.path] = f.content;
    const { skeleton } = await same(workspace(files), `${id} starter`);
    assert.ok(
      skeleton.some((c) => c.startsWith(`${id} fail`)),
      `${id}'s starter is a skeleton (${skeleton.join(' | ')})`,
    );
  }
  // Home files that cannot be read (binary, not UTF-8): why reaches a fresh context as the full evaluation says it.
  for (const [rel, bytes] of [
    ['docs/state/STATE.md', Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02, 0x0a])],
    ['.claude/session-ledger.md', Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x41, 0x0a])],
  ] as const) {
    const dir = workspace();
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), bytes);
    const { resume } = await same(dir, rel);
    assert.ok(
      resume.some((l) => l.includes(` readable fail ${rel}: `)),
      `${rel}: ${resume.join(' | ')}`,
    );
  }
  // Both answers are among the cases compared (a test of one answer could not tell them apart).
  assert.ok(statuses.has('pass') && statuses.has('fail'), [...statuses].join(','));
  // Every kind of resume line is among them too: UNCONFIRMED items and each attestation state.
  for (const kind of ['S0 unconfirmed', 'S1 attestation pass', 'S1 attestation fail', 'S1 attestation warn'])
    assert.ok(
      [...resumes].some((l) => l.startsWith(kind)),
      `${kind} among the fixtures (${[...resumes].join(', ')})`,
    );
});

for (const { name, dir: corpus } of CORPORA) {
  test(`${name}: the skeleton-only and the resume-only evaluations say what the full one says, each file alone and each repository together`, async () => {
    const rows = corpusRows(corpus, ['F1', 'F2', 'F3', 'F4', 'F5']);
    const byRepo = new Map<string, CorpusRow[]>();
    for (const r of rows) {
      const dir = workspace();
      layOutCorpus(corpus, dir, [r]);
      await same(dir, r.savedAs);
      byRepo.set(r.repo, [...(byRepo.get(r.repo) ?? []), r]);
    }
    for (const [repo, rs] of byRepo) {
      const dir = workspace();
      layOutCorpus(corpus, dir, rs);
      await same(dir, repo);
    }
  });
}
