/**
 * A file the checkpoint vouched for, emptied (0 bytes) after it: every surface renders one decision.
 * Where the file's own seed takes an empty one for a failed state (a home, S4's PROGRESS.md, S4's
 * checkpoint, S1's sidecar), `check` fails it, `status --json`
 * says BROKEN, the extension's checklist withholds the go-signal, `checkpoint` refuses, the status line
 * and the status bar say no checkpoint covers the session, and the guard blocks naming the check that
 * fails. Where it does not (S1's MEMORY.md, context-log.md and
 * lessons, S2's manifest, project state and plan: S1's seed creates its stores and appends only when
 * there are items), `check` passes it, the
 * guard still blocks (what the file held would not come back) and says that a new checkpoint vouches for
 * the state without it, which is what then happens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpointDone, preCompactGuard } from '../../src/core/hooks/guard';
import { markerRel, parseMarker } from '../../src/core/checkpoint/marker';
import { evaluate } from '../../src/core/report/evaluate';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { checkpointed } from '../../src/extension/pure/status-text';
import { CHECKLIST_STRINGS, cli, copyTree, gitInit, REPO, workspace, copyDemo } from './helpers';
import { preCompact, SID } from './checkpoint-fixtures';

const CONFIRM = ['feedback-stored', 'last-request'];

/** The demo workspace (five systems, S2 with a plan), in git, checkpointed for SID a minute ago. */
function demo(): string {
  const dir = workspace({});
  copyDemo(dir);
  writeFileSync(path.join(dir, 'docs/plan.md'), '# Plan\n\n- [ ] step one\n');
  appendFileSync(path.join(dir, '.claude/session-ledger.md'), '- Plan: `docs/plan.md`\n');
  gitInit(dir);
  const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', CONFIRM.join(',')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const t = (Date.now() - 60_000) / 1000;
  utimesSync(path.join(dir, markerRel(SID)), t, t);
  return dir;
}

/** The files the marker vouches for (the `sha256sum` lines after its first). */
function vouched(dir: string): string[] {
  return parseMarker(readFileSync(path.join(dir, markerRel(SID)), 'utf8')).hashes.map((h) => h.path);
}

/** The files whose seed takes an empty one for a failed state, and the check that says it. */
const REFUSED: Record<string, RegExp> = {
  '.agents/session_ledger.md': /S0 not-skeleton/,
  'memory/session-handoff-LATEST.md': /S1 (?:not-skeleton|attestation)/,
  'memory/.session-handoff.sha256': /S1 attestation/,
  '.claude/session-ledger.md': /S2 not-skeleton/,
  'docs/state/STATE.md': /S3 not-skeleton/,
  '.agents/STATE.md': /S4 not-skeleton/,
  'PROGRESS.md': /S4 template/,
  '.agents/checkpoints/2026-12-01-180000.md': /S4 template/,
};
/** The files an empty one of which its seed allows: what they held is gone, the state is whole. */
const TAKEN = [
  'memory/MEMORY.md',
  'memory/context-log.md',
  'tasks/lessons.md',
  'context-manifest.yaml',
  '.claude/project-state.md',
  'docs/plan.md',
];

/** Every surface's answer for SID now, from the same files. */
async function surfaces(dir: string) {
  const check = cli(['check', '--root', dir, '--confirm', CONFIRM.join(',')]);
  const status = JSON.parse(cli(['status', '--json', '--root', dir, '--confirm', CONFIRM.join(',')]).stdout) as {
    label: string;
  };
  const report = await evaluate(dir, { confirmed: CONFIRM });
  const list = checklistState(report, { name: 'w', uri: 'file:///w' }, CHECKLIST_STRINGS, {
    busy: false,
    trusted: true,
  });
  const guard = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  const bar = checkpointed({ ...guard, maxAgeMin: 480, installed: true }, undefined);
  const line = await checkpointDone(dir, { sessionId: SID, transcript: null, env: {}, figureAt: '' });
  return { check, label: status.label, canWrite: list.canWrite, guard, bar, line };
}

test('a vouched file emptied after the checkpoint: check, status, the checklist, checkpoint, the status line and bar and the guard give one decision', async () => {
  const base = demo();
  const files = vouched(base).filter((f) => f !== '.agents.yml');
  assert.deepEqual([...files].sort(), [...Object.keys(REFUSED), ...TAKEN].sort(), 'the files the marker vouches for');
  const untouched = await surfaces(base);
  assert.deepEqual(
    [untouched.check.code, untouched.canWrite, untouched.guard.allow, untouched.bar, untouched.line],
    [0, true, true, true, true],
    untouched.guard.reason,
  );
  // Every surface that disagrees with the decision, per file: all of them listed at once.
  const wrong: string[] = [];
  for (const rel of files) {
    const dir = workspace({});
    copyTree(base, dir);
    writeFileSync(path.join(dir, rel), '');
    const s = await surfaces(dir);
    const refused = REFUSED[rel];
    const said = (ok: boolean, what: string) => {
      if (!ok) wrong.push(`${rel}: ${what}`);
    };
    // The guard blocks every one of them: what the file held would not come back after the summary.
    said(!s.guard.allow, `the guard allows (${s.guard.rule})`);
    said(
      /so what it held would not come back after the summary\./.test(s.guard.reason),
      'the guard says otherwise what is lost',
    );
    said(!s.bar, 'the status bar says checkpoint done');
    said(!s.line, 'the status line says checkpoint done');
    const again = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', CONFIRM.join(',')]);
    const after = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    if (refused) {
      said(s.check.code === 1, `check exits ${s.check.code}`);
      said(
        new RegExp(`FAIL ${refused.source.replace(/S\d /, '')}`).test(s.check.stdout),
        `check does not fail ${refused.source}`,
      );
      said(s.label === 'BROKEN', `status --json says ${s.label}`);
      said(!s.canWrite, "the checklist's go-signal is on");
      // The guard names the check a checkpoint refuses on, and a checkpoint does refuse.
      const fails =
        /^ {3}As it is now the state fails (.+), so a checkpoint refuses until that is fixed \(`session-ledger check` shows the fix\)\.$/m.exec(
          s.guard.reason,
        );
      said(refused.test(fails?.[1] ?? ''), `the guard does not name ${refused.source}`);
      said(again.code === 1, `checkpoint exits ${again.code}`);
      said(!/Safe to/.test(again.stdout + again.stderr), 'checkpoint says "Safe to"');
      said(!after.allow, 'the guard allows after the new checkpoint');
    } else {
      said(s.check.code === 0, `check exits ${s.check.code}`);
      said(s.label !== 'BROKEN', `status --json says ${s.label}`);
      said(s.canWrite, "the checklist's go-signal is off");
      // What the guard says is what happens: the next checkpoint vouches for the state without it.
      said(
        /^ {3}As it is now the state fails no blocking check, so the checkpoint below vouches for it without what it held\.$/m.test(
          s.guard.reason,
        ),
        'the guard does not say that a new checkpoint takes the state without it',
      );
      said(!/the file itself is the problem/.test(s.guard.reason), 'the guard says the file itself is the problem');
      said(again.code === 0, `checkpoint exits ${again.code}`);
      said(after.allow, `the guard blocks after the new checkpoint (${after.rule})`);
    }
  }
  assert.deepEqual(wrong, []);
});

test("an emptied or blank PROGRESS.md is refused in its seed's words; an empty S1 memory store created by hand is no failure", () => {
  const dir = workspace({});
  copyDemo(dir);
  gitInit(dir);
  writeFileSync(path.join(dir, 'memory/context-log.md'), '');
  writeFileSync(path.join(dir, 'memory/MEMORY.md'), '');
  writeFileSync(path.join(dir, 'PROGRESS.md'), '\n  \n');
  const r = cli(['check', '--root', dir]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stdout, /FAIL template +No checkpoint summaries in PROGRESS\.md: S4's format requires it\./);
  assert.doesNotMatch(r.stdout, /FAIL .*(?:MEMORY|context-log)\.md/, r.stdout);
  // PROGRESS.md back holds its entries: nothing fails.
  writeFileSync(path.join(dir, 'PROGRESS.md'), readFileSync(path.join(REPO, 'examples/demo-workspace/PROGRESS.md')));
  const ok = cli(['check', '--root', dir]);
  assert.equal(ok.code, 0, ok.stdout);
});
