// What the PreCompact guard reads of the state files after a checkpoint: it masks and parses only the
// documents its decision looks at (each system's home for the skeleton check, and what a reader itself
// needs); every other document stays as the reading left it, masked and parsed only if something asks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { evaluateSystems } from '../../src/core/report/evaluate';
import { HOOK_SYSTEMS } from '../../src/core/systems/hooks';
import type { StateDoc } from '../../src/core/model/model';
import { cli, demoRepo } from './helpers';
import { preCompact, SID } from './checkpoint-fixtures';

/** The document was never masked nor parsed: its text is still the accessor that does both on first use. */
const unparsed = (d: StateDoc): boolean => typeof Object.getOwnPropertyDescriptor(d, 'text')?.get === 'function';

test("the guard's allow after a checkpoint parses no document its decision does not look at (S4's PROGRESS.md and checkpoint file stay unparsed)", async () => {
  const dir = demoRepo();
  const c = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(c.code, 0, c.stdout + c.stderr);
  // The reading the guard makes of its own (the skeleton check only, without git), given to it as a caller's report.
  const report = await evaluateSystems(HOOK_SYSTEMS, dir, { noGit: true, rules: 'skeleton' });
  const s4 = report.systems.find((s) => s.id === 'S4');
  const others = (s4?.docs ?? []).filter((d) => d.relPath !== s4?.home);
  assert.deepEqual(others.map((d) => d.relPath.replace(/^\.agents\/checkpoints\/.+\.md$/, 'checkpoint')).sort(), [
    'PROGRESS.md',
    'checkpoint',
  ]);
  assert.ok(others.every(unparsed), 'unparsed after the reading');
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false, report });
  assert.equal(d.allow, true, d.log);
  assert.equal(d.rule, 'idle', d.log);
  for (const doc of others) assert.ok(unparsed(doc), `${doc.relPath} was parsed by the guard`);
  // Each home was parsed for the skeleton check, as before.
  for (const s of report.systems) {
    const home = s.docs.find((x) => x.relPath === s.home);
    assert.ok(home && !unparsed(home), `${s.id} home ${s.home}`);
  }
});
