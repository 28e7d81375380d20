/**
 * git's run starts as the first state file is read, while the others are still read and parsed; what
 * counts as work is decided once every state file is known. A state file of any system, read early or
 * late, is never work; a file of the project is.
 */
import { strict as assert } from 'node:assert';
import { appendFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { evaluate } from '../../src/core/report/evaluate';
import { fixtureCopy, gitInit, oneCheck, write } from './helpers';

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
