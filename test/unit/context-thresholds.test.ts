import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS, detectSystems, levelOf, thresholdProfile } from '../../src/core/context';
import { FACTS, presenceGlobs } from '../../src/core/systems/facts';
import { READERS } from '../../src/core/systems/readers';
import { workspace } from './helpers';

const S0 = 'S0';
const S2 = 'S2';
const S3 = 'S3';

test('the profile follows the detected system; the earliest cue wins; default when none', () => {
  assert.deepEqual(thresholdProfile([S3]), { profile: 'S3', propose: 15, urgent: 40 });
  assert.deepEqual(thresholdProfile([S2]), { profile: 'S2', propose: 50, urgent: null });
  assert.deepEqual(thresholdProfile([S0]), { profile: 'S0', propose: 70, urgent: 85 });
  assert.deepEqual(thresholdProfile([S0, S2, S3]), { profile: 'S3', propose: 15, urgent: 40 });
  assert.deepEqual(thresholdProfile([S0, S2]), { profile: 'S2', propose: 50, urgent: null });
  assert.deepEqual(thresholdProfile([]), DEFAULT_THRESHOLDS);
  assert.deepEqual(thresholdProfile(['X']), DEFAULT_THRESHOLDS, 'an unknown id is ignored');
  assert.deepEqual(FACTS.S1.thresholds, { propose: 50, urgent: 80 });
  assert.deepEqual(FACTS.S4.thresholds, { propose: 50, urgent: 80 });
});

test('settings override wins, field by field', () => {
  assert.deepEqual(thresholdProfile([S3], { propose: 30 }), { profile: 'custom', propose: 30, urgent: 40 });
  assert.deepEqual(
    thresholdProfile([S3], { urgent: null, propose: null }),
    { profile: 'S3', propose: 15, urgent: 40 },
    'null is "not set"',
  );
  assert.deepEqual(thresholdProfile([], { propose: 20, urgent: 30 }), { profile: 'custom', propose: 20, urgent: 30 });
  assert.deepEqual(
    thresholdProfile([S3], { profile: 'S0' }),
    { profile: 'S0', propose: 70, urgent: 85 },
    'a profile setting names the system',
  );
  assert.deepEqual(thresholdProfile([S0], { profile: 'auto', urgent: 90 }), {
    profile: 'custom',
    propose: 70,
    urgent: 90,
  });
  assert.deepEqual(thresholdProfile([S0], {}), { profile: 'S0', propose: 70, urgent: 85 });
  assert.deepEqual(
    thresholdProfile([S0], { propose: 150 }),
    { profile: 'S0', propose: 70, urgent: 85 },
    'invalid override ignored',
  );
});

test('settings that put the proposal above the urgent mark are read the other way round (the lower proposes), and the profile says so', () => {
  // The walkthrough's settings: propose 40, urgent 30; at 34 % the meter said "past the urgent mark".
  const p = thresholdProfile([S3], { propose: 40, urgent: 30 });
  assert.deepEqual(p, { profile: 'custom', propose: 30, urgent: 40, inverted: { propose: 40, urgent: 30 } });
  assert.equal(levelOf(29, p), 'ok');
  assert.equal(levelOf(34, p), 'propose', 'past the lower mark only: a checkpoint is proposed, not urgent');
  assert.equal(levelOf(40, p), 'urgent');
  // One override past the system's own other mark: S3 urges at 40 %, a proposal at 50 % is above it.
  assert.deepEqual(thresholdProfile([S3], { propose: 50 }), {
    profile: 'custom',
    propose: 40,
    urgent: 50,
    inverted: { propose: 50, urgent: 40 },
  });
  // Equal marks, a single-cue system and ordered marks are not inverted.
  assert.deepEqual(thresholdProfile([], { propose: 30, urgent: 30 }), { profile: 'custom', propose: 30, urgent: 30 });
  assert.deepEqual(thresholdProfile([S2], { propose: 90 }), { profile: 'custom', propose: 90, urgent: null });
  assert.equal(thresholdProfile([S3], { propose: 20, urgent: 30 }).inverted, undefined);
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

test('detectSystems finds the systems present in a workspace by their presence globs, none in an empty one', async () => {
  assert.deepEqual(await detectSystems(workspace()), []);
  const root = workspace({ 'docs/state/STATE.md': '# STATE\n\n## Handoff\n\nNow ▶ write the parser tests\n' });
  assert.deepEqual(await detectSystems(root), ['S3']);
  // File existence only: the content is never parsed (the status line's cost does not grow with it).
  const mixed = workspace({
    'docs/state/STATE.md': '\u0000\u0001 not markdown',
    '.claude/session-ledger-x.md': '',
    'PROGRESS.md': '# p',
  });
  assert.deepEqual(await detectSystems(mixed), ['S2', 'S3', 'S4']);
});

test("the presence pre-check uses every system's presence globs from the facts table, and finds each of them", async () => {
  const { anyPresent } = await import('../../src/core/context/systems');
  const PRESENCE_GLOBS = presenceGlobs();
  assert.deepEqual(
    READERS.map((r) => r.id),
    Object.keys(FACTS),
    'one reader per system, in the order of the facts table',
  );
  assert.equal(await anyPresent(workspace({ 'README.md': '# x', 'docs/state/OTHER.md': 'x' })), false);
  for (const g of PRESENCE_GLOBS) {
    const rel = g.replace(/\*/g, 'v2').replace(/\?/g, 'x');
    assert.equal(await anyPresent(workspace({ [rel]: 'x' })), true, g);
  }
});
