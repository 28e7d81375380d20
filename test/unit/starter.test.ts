import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { WriteRefused } from '../../src/core/files/atomic';
import { FACTS } from '../../src/core/systems/facts';
import { planStarter, starterFor, STARTER_SYSTEMS, writeStarter } from '../../src/core/systems/starter';
import { workspace, write } from './helpers';

for (const id of STARTER_SYSTEMS) {
  const placeholder = FACTS[id].presence.length === 0;

  test(
    `starter ${id}: detected as ${id}, flagged as an empty template`,
    { skip: placeholder ? `the ${id} reader has not landed` : false },
    async () => {
      const root = workspace();
      const res = await writeStarter(root, id);
      const starter = starterFor(id);
      assert.deepEqual(res.written.sort(), starter.files.map((f) => f.path).sort());
      const report = await evaluate(root, { noGit: true });
      assert.deepEqual(
        report.systems.map((s) => s.id),
        [id],
        `only ${id} is detected`,
      );
      const sys = report.systems[0];
      assert.equal(sys.home, starter.home);
      assert.ok(
        sys.docs.some((d) => d.relPath === starter.home),
        'the home document is read',
      );
      const skeleton = sys.checks.find((c) => c.id === 'not-skeleton');
      assert.equal(skeleton?.status, 'fail', 'the starter is flagged as a skeleton until the agent fills it');
      const next = sys.checks.find((c) => c.id === 'next-action');
      assert.equal(next?.status, 'fail', 'a placeholder is not a next action');
      assert.equal(sys.label, 'BROKEN');
      assert.ok(!sys.checks.some((c) => c.id === 'no-secrets' && c.status === 'fail'));
    },
  );

  test(`starter ${id}: never overwrites`, async () => {
    const root = workspace();
    const home = starterFor(id).home;
    write(root, home, 'mine\n');
    const plan = await planStarter(root, id);
    assert.deepEqual(plan.conflicts, [home]);
    await assert.rejects(writeStarter(root, id), (e: unknown) => e instanceof WriteRefused && e.reason === 'exists');
    assert.equal(readFileSync(path.join(root, home), 'utf8'), 'mine\n');
    for (const f of starterFor(id).files.filter((f) => f.path !== home)) {
      assert.throws(() => readFileSync(path.join(root, f.path)), 'no companion written on refusal');
    }
  });
}

test('starter S0: an existing .agents.yml is kept, not overwritten', async () => {
  const root = workspace({ '.agents.yml': 'session:\n  ledger: true\nother: 1\n' });
  const res = await writeStarter(root, 'S0');
  assert.deepEqual(res.written, ['.agents/session_ledger.md']);
  assert.deepEqual(res.kept, ['.agents.yml']);
  assert.equal(readFileSync(path.join(root, '.agents.yml'), 'utf8'), 'session:\n  ledger: true\nother: 1\n');
});

test('starter S4: PROGRESS.md that exists is left alone', async () => {
  const root = workspace();
  writeFileSync(path.join(root, 'PROGRESS.md'), '# mine\n');
  const res = await writeStarter(root, 'S4');
  assert.deepEqual(res.written, ['.agents/STATE.md']);
  assert.equal(readFileSync(path.join(root, 'PROGRESS.md'), 'utf8'), '# mine\n');
});
