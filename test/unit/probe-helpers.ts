/**
 * Probes for the seeds' requirements: a copy of a system's good fixture with one edit, evaluated
 * for real (real files in a temp folder, the real evaluator), so a test can say which check refuses.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Check, SystemReport } from '../../src/core/model/model';
import { checksWith, fixtureCopy, systemIn } from './helpers';

/** The home file of each system's good fixture. */
export const HOME: Record<string, string> = {
  S0: '.agents/session_ledger.md',
  S1: 'memory/session-handoff-LATEST.md',
  S2: '.claude/session-ledger.md',
  S3: 'docs/state/STATE.md',
  S4: '.agents/STATE.md',
};

export type Edit = (text: string) => string;

/** A copy of `test/fixtures/<s>/good` with `edits` (file → change, or null to delete it) applied. */
export function goodWith(system: string, edits: Record<string, Edit | string | null> = {}): string {
  const dir = fixtureCopy(`${system.toLowerCase()}/good`);
  for (const [rel, e] of Object.entries(edits)) {
    const abs = path.join(dir, rel);
    if (e === null) {
      rmSync(abs, { force: true });
      continue;
    }
    let before = '';
    try {
      before = readFileSync(abs, 'utf8');
    } catch {
      /* a new file */
    }
    const after = typeof e === 'string' ? e : e(before);
    if (typeof e !== 'string') assert.notEqual(after, before, `the edit of ${rel} changed nothing`);
    writeFileSync(abs, after);
  }
  return dir;
}

/** Replace `from` by `to` in a file, failing the test when `from` is not there (a probe that edits nothing proves nothing). */
export function swap(from: string | RegExp, to: string): Edit {
  return (text) => {
    const out = text.replace(from, to);
    assert.notEqual(out, text, `${String(from)} not found`);
    return out;
  };
}

/** The system's report for `dir`, read without git (the probes judge the files, not the repository). */
export function report(dir: string, system: string): Promise<SystemReport> {
  return systemIn(dir, system, { noGit: true, now: Date.UTC(2026, 4, 5) });
}

/** The checks that refuse (block and fail). */
export function refusals(s: SystemReport): Check[] {
  return s.checks.filter((c) => c.severity === 'block' && c.status === 'fail');
}

/** Assert that check `id` refuses in `s`, and return it. */
export function assertRefuses(s: SystemReport, id: string, why = ''): Check {
  const cs = checksWith(s.checks, id).filter((c) => c.status === 'fail');
  assert.ok(
    cs.length > 0,
    `${s.id} ${id} should refuse ${why}; checks: ${
      s.checks
        .filter((c) => c.id === id)
        .map((c) => `${c.status} ${c.message}`)
        .join(' | ') || 'none'
    }`,
  );
  return cs[0];
}

/** Assert that nothing refuses in `s` (the good state of a seed). */
export function assertNoRefusal(s: SystemReport, why = ''): void {
  assert.deepEqual(
    refusals(s).map((c) => `${c.id}: ${c.message}`),
    [],
    `${s.id} refuses ${why}`,
  );
}
