import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS, detectSystems, levelOf, thresholdProfile } from '../../src/core/context';
import { SYSTEMS } from '../../src/core/formats';
import { workspace } from './helpers';

const S0 = { id: 'S0', thresholds: { propose: 70, urgent: 85 } };
const S2 = { id: 'S2', thresholds: { propose: 50, urgent: null } };
const S3 = { id: 'S3', thresholds: { propose: 15, urgent: 40 } };

test('the profile follows the detected system; the earliest cue wins; default when none', () => {
  assert.deepEqual(thresholdProfile([S3]), { profile: 'S3', propose: 15, urgent: 40 });
  assert.deepEqual(thresholdProfile([S2]), { profile: 'S2', propose: 50, urgent: null });
  assert.deepEqual(thresholdProfile([S0]), { profile: 'S0', propose: 70, urgent: 85 });
  assert.deepEqual(thresholdProfile([S0, S2, S3]), { profile: 'S3', propose: 15, urgent: 40 });
  assert.deepEqual(thresholdProfile([S0, S2]), { profile: 'S2', propose: 50, urgent: null });
  assert.deepEqual(thresholdProfile([]), DEFAULT_THRESHOLDS);
  assert.deepEqual(thresholdProfile([{ id: 'X', thresholds: { propose: NaN, urgent: 3 } }]), DEFAULT_THRESHOLDS);
});

test('settings override wins, field by field', () => {
  assert.deepEqual(thresholdProfile([S3], { propose: 30 }), { profile: 'custom', propose: 30, urgent: 40 });
  assert.deepEqual(thresholdProfile([S3], { urgent: null }), { profile: 'custom', propose: 15, urgent: null });
  assert.deepEqual(thresholdProfile([], { propose: 20, urgent: 30, profile: 'mine' }), { profile: 'mine', propose: 20, urgent: 30 });
  assert.deepEqual(thresholdProfile([S0], {}), { profile: 'S0', propose: 70, urgent: 85 });
  assert.deepEqual(thresholdProfile([S0], { propose: 150 }), { profile: 'S0', propose: 70, urgent: 85 }, 'invalid override ignored');
});

test('levelOf: ok below propose, propose from it, urgent from urgent; single-cue systems never urgent', () => {
  const s3 = thresholdProfile([S3]);
  assert.equal(levelOf(14.99, s3), 'ok');
  assert.equal(levelOf(15, s3), 'propose');
  assert.equal(levelOf(39.9, s3), 'propose');
  assert.equal(levelOf(40, s3), 'urgent');
  assert.equal(levelOf(100, s3), 'urgent');
  const s2 = thresholdProfile([S2]);
  assert.equal(levelOf(49, s2), 'ok');
  assert.equal(levelOf(99, s2), 'propose');
  const s0 = thresholdProfile([S0]);
  assert.equal(levelOf(69, s0), 'ok');
  assert.equal(levelOf(70, s0), 'propose');
  assert.equal(levelOf(85, s0), 'urgent');
  assert.equal(levelOf(NaN, s0), 'ok');
});

test('detectSystems finds the systems present in a workspace (their own load), none in an empty one', async () => {
  assert.deepEqual(await detectSystems(workspace()), []);
  const root = workspace({ 'docs/state/STATE.md': '# STATE\n\n## Handoff\n\nNow ▶ write the parser tests\n' });
  const found = await detectSystems(root);
  const s3 = SYSTEMS.find((s) => s.id === 'S3');
  assert.ok(s3);
  assert.ok(found.includes(s3), `S3 detected (found: ${found.map((s) => s.id).join(',')})`);
});

test('the presence pre-check covers every system\'s watchGlobs, and finds each of them', async () => {
  const { PRESENCE_GLOBS, anyPresent } = await import('../../src/core/context/systems');
  const missing = SYSTEMS.flatMap((m) => m.watchGlobs).filter((g) => !PRESENCE_GLOBS.includes(g));
  assert.deepEqual(missing, [], 'add these to PRESENCE_GLOBS in src/core/context/systems.ts');
  assert.equal(await anyPresent(workspace({ 'README.md': '# x', 'docs/state/OTHER.md': 'x' })), false);
  for (const g of PRESENCE_GLOBS) {
    const rel = g.replace(/\*/g, 'v2').replace(/\?/g, 'x');
    assert.equal(await anyPresent(workspace({ [rel]: 'x' })), true, g);
  }
});
