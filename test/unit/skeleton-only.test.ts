/**
 * The guard, once a checkpoint marker exists, asks only whether a state file is still an empty
 * skeleton, so it runs each system's `not-skeleton` check alone (`rules: 'skeleton'`). That check must
 * say exactly what the full evaluation says, on every fixture, every system's starter (a skeleton by
 * design), every corpus file alone and every corpus repository together.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { starterFor, STARTER_SYSTEMS } from '../../src/core/systems/starter';
import type { WorkspaceReport } from '../../src/core/model/model';
import { CORPORA, corpusRows, FIXTURES, fixtureCopy, workspace, type CorpusRow } from './helpers';

function skeletonChecks(r: WorkspaceReport): string[] {
  return r.systems.flatMap((s) =>
    s.checks
      .filter((c) => c.id === 'not-skeleton')
      .map((c) => `${c.system} ${c.status} ${c.path ?? ''}:${c.line ?? ''} ${c.message}`),
  );
}

/** The not-skeleton checks of a full evaluation and of the skeleton-only one, which must be the same. */
async function same(dir: string, label: string): Promise<string[]> {
  const now = Date.now();
  const full = await evaluate(dir, { now, noGit: true });
  const only = await evaluate(dir, { now, noGit: true, rules: 'skeleton' });
  assert.deepEqual(skeletonChecks(only), skeletonChecks(full), label);
  assert.deepEqual(
    only.systems.map((s) => s.id),
    full.systems.map((s) => s.id),
    `${label}: the same systems`,
  );
  assert.ok(
    only.systems.every((s) =>
      s.checks.every((c) => c.id === 'not-skeleton' || c.id === 'exists' || c.severity === 'manual'),
    ),
    `${label}: no other rule ran (${only.systems.flatMap((s) => s.checks.map((c) => c.id)).join(', ')})`,
  );
  return skeletonChecks(full);
}

test('the skeleton-only evaluation says what the full one says: every fixture and every system’s starter', async () => {
  const statuses = new Set<string>();
  for (const sys of readdirSync(FIXTURES).filter((d) => /^s\d$/.test(d)))
    for (const f of readdirSync(path.join(FIXTURES, sys))) {
      if (!statSync(path.join(FIXTURES, sys, f)).isDirectory()) continue;
      for (const c of await same(fixtureCopy(`${sys}/${f}`), `${sys}/${f}`)) statuses.add(c.split(' ')[1]);
    }
  await same(fixtureCopy('e2e-workspace'), 'e2e-workspace');
  for (const id of STARTER_SYSTEMS) {
    const files: Record<string, string> = {};
    for (const f of starterFor(id).files) files[f.path] = f.content;
    const checks = await same(workspace(files), `${id} starter`);
    assert.ok(
      checks.some((c) => c.startsWith(`${id} fail`)),
      `${id}'s starter is a skeleton (${checks.join(' | ')})`,
    );
  }
  // Both answers are among the cases compared (a test of one answer could not tell them apart).
  assert.ok(statuses.has('pass') && statuses.has('fail'), [...statuses].join(','));
});

function layOut(corpus: string, dir: string, rs: CorpusRow[]): void {
  for (const r of rs) {
    const dest = path.join(dir, r.path);
    mkdirSync(path.dirname(dest), { recursive: true });
    copyFileSync(path.join(corpus, r.savedAs), dest);
  }
}

for (const { name, dir: corpus } of CORPORA) {
  test(`${name}: the skeleton-only evaluation says what the full one says, each file alone and each repository together`, async () => {
    const rows = corpusRows(corpus, ['F1', 'F2', 'F3', 'F4', 'F5']);
    const byRepo = new Map<string, CorpusRow[]>();
    for (const r of rows) {
      const dir = workspace();
      layOut(corpus, dir, [r]);
      await same(dir, r.savedAs);
      byRepo.set(r.repo, [...(byRepo.get(r.repo) ?? []), r]);
    }
    for (const [repo, rs] of byRepo) {
      const dir = workspace();
      layOut(corpus, dir, rs);
      await same(dir, repo);
    }
  });
}
