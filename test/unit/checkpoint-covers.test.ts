/**
 * "Checkpoint done" means the checkpoint covers the state as it is now: a state file whose bytes are not
 * the ones the marker vouched for is not covered, whenever it was written, though the guard still lets
 * /compact through on its marker while what changed passes every blocking check. Every surface that
 * says it (the status bar, the status line, the reminder) takes it from the guard's decision
 * (`guardCheckpointed`), and agrees with the tree's manual items, which reset when the handoff changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { guardCheckpointed } from '../../src/core/checkpoint/freshness';
import { markerRel } from '../../src/core/checkpoint/marker';
import { checkpointDone, preCompactGuard } from '../../src/core/hooks/guard';
import { checkpointCovers } from '../../src/core/hooks/remind';
import { evaluate } from '../../src/core/report/evaluate';
import { applyAttest, planAttest } from '../../src/core/systems/s1/attest';
import { countsOf } from '../../src/extension/pure/findings';
import { checkpointed, guardSentence, guardViewOf, statusLabel } from '../../src/extension/pure/status-text';
import { applyTicks, homeHash } from '../../src/extension/pure/ticks';
import { sessionItems, type ContextUsage } from '../../src/core/model/model';
import { fixtureCopy, rewrite, enT } from './helpers';
import { CONFIRMED, emptyClaudeHome, preCompact, SID } from './checkpoint-fixtures';

const HANDOFF = 'memory/session-handoff-LATEST.md';
const asWritten = enT;

/** Set a file's times to `at` (ms). */
function setTime(file: string, at: number): void {
  utimesSync(file, at / 1000, at / 1000);
}

/** A checkpoint of `dir` for SID with every manual item ticked (`home`: an empty Claude Code and Codex home): it writes the marker. */
async function writtenFor(dir: string, home: string): Promise<void> {
  const ok = await checkpoint(dir, {
    sessionId: SID,
    confirmed: CONFIRMED,
    claudeHome: home,
    codexHome: home,
    env: {},
  });
  assert.equal(ok.kind, 'written', ok.lines.join('\n'));
}

/** S1's good handoff checkpointed for SID, its marker dated five minutes ago; the ticks given then (hash of the handoff then). */
async function checkpointedS1(): Promise<{ dir: string; markerAt: number; tickedHash: string }> {
  const dir = fixtureCopy('s1/good');
  await writtenFor(dir, emptyClaudeHome());
  const markerAt = Date.now() - 5 * 60_000;
  setTime(path.join(dir, markerRel(SID)), markerAt);
  for (const rel of [HANDOFF, 'memory/.session-handoff.sha256', 'memory/MEMORY.md', 'memory/context-log.md'])
    setTime(path.join(dir, rel), markerAt - 60_000);
  const s1 = (await evaluate(dir, { noGit: true })).systems.find((s) => s.id === 'S1');
  assert.ok(s1);
  return { dir, markerAt, tickedHash: homeHash(s1) };
}

/** A pending decision added to the handoff (it stays whole), dated `at`, then attested as the `attest` quick fix does. */
async function editAndAttest(dir: string, at: number): Promise<void> {
  const file = rewrite(dir, HANDOFF, (x) =>
    x.replace(
      '## Pending decisions\n',
      '## Pending decisions\n- File name of the export: date first or customer first · urgency: L\n',
    ),
  );
  setTime(file, at);
  const plan = await planAttest(dir, HANDOFF);
  assert.ok(plan?.changed, 'the sidecar is rewritten for the new handoff');
  await applyAttest(plan);
  setTime(path.join(dir, 'memory/.session-handoff.sha256'), at);
}

const usage: ContextUsage = {
  agent: 'claude',
  sessionId: SID,
  transcriptPath: '/home/u/.claude/projects/x/s.jsonl',
  model: 'claude-sonnet-4-5',
  usedTokens: 120_000,
  windowTokens: 200_000,
  percent: 60,
  source: 'transcript',
  afterCompaction: false,
  at: null,
};

test('S1: the handoff changed and attested after the checkpoint: /compact still passes the guard on its fresh marker, but no surface says "checkpoint done", as the tree asks for the manual items again and a checkpoint refuses until they are ticked', async () => {
  const { dir, markerAt, tickedHash } = await checkpointedS1();
  // Untouched since: the checkpoint is done on every surface.
  const idle = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(idle.rule, 'idle', idle.log);
  assert.equal(guardCheckpointed(idle, NaN), true, idle.log);

  await editAndAttest(dir, markerAt + 2 * 60_000);
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  // The seed's guard: the change fails no blocking check (the attestation matches), the marker is fresh.
  assert.equal(d.allow, true, d.log);
  assert.equal(d.rule, 'fresh', d.log);
  // The checkpoint vouched for other bytes: it does not cover the handoff as it is now.
  assert.equal(guardCheckpointed(d, NaN), false, 'core: not done');
  assert.deepEqual(d.changed, [HANDOFF, 'memory/.session-handoff.sha256'], d.log);
  const view = guardViewOf(d, true, 480);
  assert.equal(checkpointed(view, usage), false, 'the status bar');
  const label = statusLabel(asWritten, usage, { profile: 'S1', propose: 50, urgent: 80 }, 'propose', view);
  assert.doesNotMatch(label, /Checkpoint done/);
  assert.match(label, /Checkpoint proposed\./);
  assert.equal(
    guardSentence(asWritten, view),
    '/compact would pass the guard: a fresh checkpoint marker; memory/session-handoff-LATEST.md, memory/.session-handoff.sha256 changed since, and their blocking checks still pass. The checkpoint does not cover those changes: checkpoint again to vouch for the newest work.',
  );
  // Said whether or not the guard is installed: it is why no checkpoint is done.
  assert.match(
    label,
    /; memory\/session-handoff-LATEST\.md, memory\/\.session-handoff\.sha256 changed since, and their blocking checks still pass\. The checkpoint does not cover those changes: checkpoint again/,
  );
  assert.match(
    guardSentence(asWritten, { ...view, installed: false }),
    /^\/compact is not guarded: .*\. memory\/session-handoff-LATEST\.md, memory\/\.session-handoff\.sha256 changed after the last checkpoint/,
  );
  const q = { sessionId: SID, transcript: null, env: {}, figureAt: '' };
  assert.equal(await checkpointDone(dir, q), false, 'the status line');
  assert.equal(await checkpointCovers(dir, q, checkpointDone), false, 'the reminder');

  // The tree and the checklist: the ticks were given for the handoff as it was; for this one both items are open.
  const raw = await evaluate(dir, { noGit: true });
  const ticked = applyTicks(raw, (s) => new Set(s.id === 'S1' && homeHash(s) === tickedHash ? CONFIRMED : []));
  const s1 = ticked.systems.find((s) => s.id === 'S1');
  assert.ok(s1);
  // The session's items are the folder's row, once for every system; S1's own row has none of them.
  assert.equal(
    sessionItems(ticked).filter((c) => c.status === 'manual-open').length,
    2,
    "the tree: the session's 2 manual items to tick",
  );
  assert.equal(countsOf(s1).manual, 0);
  const home = emptyClaudeHome();
  const again = await checkpoint(dir, { sessionId: SID, report: ticked, claudeHome: home, codexHome: home, env: {} });
  assert.deepEqual(
    again.refusals.map((r) => r.code),
    ['manual-unconfirmed'],
  );

  // Ticked for the new handoff and checkpointed again: done again.
  await writtenFor(dir, home);
  const after = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(guardCheckpointed(after, NaN), true, after.log);
  assert.equal(await checkpointDone(dir, q), true);
});

test('a state file only saved again after the checkpoint (the same bytes) is still covered; one changed even within the grace after the marker, or with its time set back, is not, as its ticks reset', async () => {
  const { dir, markerAt, tickedHash } = await checkpointedS1();
  const file = path.join(dir, HANDOFF);
  // Saved again ten minutes later, the same bytes: covered.
  setTime(file, markerAt + 10 * 60_000);
  const touched = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(touched.rule, 'fresh', touched.log);
  assert.equal(touched.changed, undefined, touched.log);
  assert.equal(guardCheckpointed(touched, NaN), true, touched.log);
  // Changed and attested 20 s after the marker: the guard's idle rule lets it through, but the checkpoint
  // read the bytes before, and the ticks given for them no longer apply.
  await editAndAttest(dir, markerAt + 20_000);
  const within = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(within.rule, 'idle', within.log);
  assert.equal(within.allow, true, within.log);
  assert.equal(guardCheckpointed(within, NaN), false, within.log);
  const s1 = (await evaluate(dir, { noGit: true })).systems.find((s) => s.id === 'S1');
  assert.ok(s1);
  assert.notEqual(homeHash(s1), tickedHash, 'the ticks given at the checkpoint do not apply');
  // The same change with its time set back before the marker (a copy that kept its old time).
  setTime(file, markerAt - 60 * 60_000);
  const back = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(back.allow, true, back.log);
  assert.deepEqual(back.changed, [HANDOFF, 'memory/.session-handoff.sha256'], back.log);
  assert.equal(guardCheckpointed(back, NaN), false, back.log);
});

test('a marker written by hand (it vouches for no bytes): a home file written past the grace after it is work the checkpoint does not cover; untouched, it is done', async () => {
  const dir = fixtureCopy('s1/good');
  const marker = path.join(dir, markerRel(SID));
  const markerAt = Date.now() - 5 * 60_000;
  for (const rel of [HANDOFF, 'memory/.session-handoff.sha256', 'memory/MEMORY.md', 'memory/context-log.md'])
    setTime(path.join(dir, rel), markerAt - 60_000);
  mkdirSync(path.dirname(marker), { recursive: true });
  writeFileSync(marker, '');
  setTime(marker, markerAt);
  const idle = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(idle.rule, 'idle', idle.log);
  assert.equal(guardCheckpointed(idle, NaN), true, idle.log);
  setTime(path.join(dir, HANDOFF), markerAt + 2 * 60_000);
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(d.rule, 'fresh', d.log);
  assert.deepEqual(d.changed, [HANDOFF], d.log);
  assert.equal(guardCheckpointed(d, NaN), false, d.log);
});
