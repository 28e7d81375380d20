/**
 * A finding is shown in one place on every surface, the place the core gives it: the CLI prints the
 * check's file and line, and the tree and the Problems panel show it there (src/extension/pure/findings).
 * A folder is no such place: no editor opens it and no diagnostic stands on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { systemFindings } from '../../src/extension/pure/findings';
import { cli, fixtureCopy, lineOf, systemIn } from './helpers';

test("S4 without a checkpoint: one place, .agents/STATE.md at its Progress Tracker, in the core's check, the CLI, the tree and the Problems panel", async () => {
  const dir = fixtureCopy('s4/good');
  rmSync(path.join(dir, '.agents/checkpoints'), { recursive: true });
  const s = await systemIn(dir, 'S4');
  const c = s.checks.find((x) => x.id === 'template' && x.status === 'fail');
  assert.ok(c, JSON.stringify(s.checks.map((x) => [x.id, x.status, x.message])));
  const tracker = lineOf(path.join(dir, '.agents/STATE.md'), '## Progress Tracker');
  assert.deepEqual([c.path, c.line], ['.agents/STATE.md', tracker]);
  assert.ok(statSync(path.join(dir, c.path ?? '')).isFile(), 'a file the user can open');
  // The message says where the checkpoint belongs, and the fix how one gets there.
  assert.equal(c.message, ".agents/checkpoints/ has no checkpoint: the seed's format requires it.");
  assert.match(c.hint ?? '', /checkpoint\.py --summary-file .*writes the checkpoint into \.agents\/checkpoints\/\./);
  // The extension shows it where the core put it.
  const f = systemFindings(s).find((x) => x.check === c);
  assert.deepEqual([f?.path, f?.line], [c.path, c.line]);
  // The CLI names the same place.
  const r = cli(['status', '--root', dir]);
  const line = r.stdout.split('\n').find((l) => /FAIL template/.test(l)) ?? '';
  assert.ok(line.endsWith(`(.agents/STATE.md:${tracker})`), line);
});
