// The first results of a scan: every check that needs no git, given while git's run is still out
// (the extension shows them on a folder's first scan). No system may look better in them than git
// would allow, and the full report that follows carries no trace of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { labelOf, type Check, type WorkspaceReport } from '../../src/core/model/model';
import { fixtureCopy, git, gitInit } from './helpers';

// `debt` reads the files git says changed (S3's defer: markers at their site).
const GIT_CHECKS = new Set(['fresh', 'work-explained', 'branch-head', 'debt']);

/** S3's good STATE, its Branch / HEAD filled in from the repository, committed: every check passes once ticked. */
function s3Good(): string {
  const dir = fixtureCopy('s3/good');
  gitInit(dir);
  const head = git(dir, 'rev-parse', '--short', 'HEAD').trim();
  const p = path.join(dir, 'docs/state/STATE.md');
  writeFileSync(p, readFileSync(p, 'utf8').replace('(no hash recorded)', head));
  return dir;
}

/** S4's good workspace, committed. */
function s4Good(): string {
  const dir = fixtureCopy('s4/good');
  gitInit(dir);
  return dir;
}

async function both(
  dir: string,
  confirmed: string[] = [],
): Promise<{ first: WorkspaceReport[]; full: WorkspaceReport }> {
  const first: WorkspaceReport[] = [];
  const full = await evaluate(dir, { confirmed, onGitPending: (r) => first.push(r) });
  return { first, full };
}

const key = (c: Check): string => `${c.system} ${c.id} ${c.path ?? ''}:${c.line ?? ''}`;

test('first results: the checks that need git wait for it, the others are as in the full report, and no system is WORKING before git answers', async () => {
  for (const dir of [s3Good(), s4Good()]) {
    const { first, full } = await both(dir, ['feedback-stored', 'last-request']);
    assert.equal(first.length, 1, 'called once');
    const f = first[0];
    assert.equal(f.gitPending, true);
    assert.equal(full.gitPending, undefined);
    assert.deepEqual(
      f.systems.map((s) => s.id),
      full.systems.map((s) => s.id),
    );
    const waiting = f.systems.flatMap((s) => s.checks.filter((c) => c.pending));
    assert.ok(waiting.length > 0, 'some check waits for git');
    for (const c of waiting) {
      assert.ok(GIT_CHECKS.has(c.id), `${c.id} needs no git`);
      assert.equal(c.status, 'skipped');
      assert.equal(c.messageId, 'Waiting for git…');
    }
    // Every other check says in the first results what it says in the full report.
    const rest = new Map(
      f.systems.flatMap((s) => s.checks.filter((c) => !c.pending).map((c) => [key(c), c.status] as const)),
    );
    for (const s of full.systems) {
      assert.ok(s.checks.every((c) => !c.pending));
      for (const c of s.checks) if (!GIT_CHECKS.has(c.id)) assert.equal(rest.get(key(c)), c.status, key(c));
    }
    // The full report: everything passes (WORKING); the first results: not yet.
    assert.deepEqual(
      full.systems.map((s) => s.label),
      full.systems.map(() => 'WORKING'),
    );
    assert.deepEqual(
      f.systems.map((s) => s.label),
      f.systems.map(() => 'PARTIAL'),
    );
    assert.equal(f.label, 'PARTIAL');
  }
});

test('first results: not given without git (Restricted Mode), nor for a folder where nothing was detected', async () => {
  const calls: WorkspaceReport[] = [];
  const dir = s3Good();
  const r = await evaluate(dir, { noGit: true, onGitPending: (x) => calls.push(x) });
  assert.equal(r.systems.length, 1);
  const empty = fixtureCopy('s3/good');
  await evaluate(path.join(empty, 'docs'), { onGitPending: (x) => calls.push(x) });
  assert.equal(calls.length, 0);
});

test('a check still waiting for its facts keeps a system from WORKING, and a blocking one still makes it BROKEN', () => {
  const pass: Check = {
    id: 'exists',
    system: 'S3',
    severity: 'block',
    status: 'pass',
    message: 'ok',
    messageId: 'ok',
    args: [],
  };
  const waiting: Check = {
    id: 'fresh',
    system: 'S3',
    severity: 'warn',
    status: 'skipped',
    pending: true,
    message: 'Waiting for git…',
    messageId: 'Waiting for git…',
    args: [],
  };
  assert.equal(labelOf([pass]), 'WORKING');
  assert.equal(labelOf([pass, waiting]), 'PARTIAL');
  assert.equal(labelOf([{ ...pass, status: 'fail' }, waiting]), 'BROKEN');
});
