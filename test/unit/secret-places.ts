/**
 * A state file of each system with text added at a place its seed writes items (a section's first line),
 * evaluated in a git repository: what the secret tests read the model and the surfaces from.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { StateDoc, WorkspaceReport } from '../../src/core/model/model';
import { fixtureCopy, gitInit } from './helpers';

/** [system, fixture, the state file, the line after which the text goes]. */
const PLACES: ReadonlyArray<[string, string, string, string]> = [
  ['S0', 's0/good', '.agents/session_ledger.md', '## Constraints/Assumptions\n'],
  ['S1', 's1/compression-low', 'memory/session-handoff-LATEST.md', '## Pending decisions\n'],
  ['S2', 's2/good', '.claude/session-ledger.md', '## OPEN\n'],
  ['S3', 's3/good', 'docs/state/STATE.md', '## Handoff: read this first\n\n'],
  ['S4', 's4/good', '.agents/checkpoints/2026-03-05-171200.md', '## 将来のアクション\n'],
];

export interface SecretPlace {
  name: string;
  dir: string;
  file: string;
  /** The file's lines as written. */
  lines: string[];
  report: WorkspaceReport;
  /** The state file's document in the model. */
  doc: StateDoc;
}

/** `add` written into each system's state file, then `check` run on what it reads. */
export async function inEachSystem(add: string, check: (p: SecretPlace) => void): Promise<void> {
  for (const [name, fixture, rel, after] of PLACES) {
    const dir = fixtureCopy(fixture);
    const file = path.join(dir, rel);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes(after), `${name}: ${after}`);
    writeFileSync(file, text.replace(after, after + add));
    gitInit(dir);
    const report = await evaluate(dir);
    const doc = report.systems.flatMap((s) => s.docs).find((d) => d.relPath === rel);
    assert.ok(doc, `${name}: ${rel}`);
    check({ name, dir, file, lines: readFileSync(file, 'utf8').split('\n'), report, doc });
  }
}
