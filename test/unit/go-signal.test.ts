/**
 * A go-signal notification ("Checkpoint saved. Safe to run /compact now.") stays in VS Code's list
 * once shown; what follows it says when it no longer holds. It holds while the state files (bytes),
 * every check's status, the ticks of the session the marker is for and the marker itself are as they
 * were when it was given; any change, and the warning names the notification by its time and marker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { sha256 } from '../../src/core/files/fsread';
import type { WorkspaceReport } from '../../src/core/model/model';
import { evaluate } from '../../src/core/report/evaluate';
import { goSignalNow, goSignalOf, withdrawalText } from '../../src/extension/pure/go-signal';
import { applyTicks, homeHash, tickKey } from '../../src/extension/pure/ticks';
import { emptyClaudeHome, s3Workspace, SID } from './checkpoint-fixtures';
import { enT } from './helpers';

const t = enT;

/** Ticks per session and per version of each home file, as the extension's tick store keeps them. */
function tickStore() {
  const table = new Map<string, Set<string>>();
  return {
    tickAll(report: WorkspaceReport, sessionId: string | null, ticked = true) {
      for (const s of report.systems)
        table.set(
          tickKey(sessionId, s.id, homeHash(s)),
          new Set(ticked ? s.checks.filter((c) => c.severity === 'manual').map((c) => c.id) : []),
        );
    },
    withTicksOf: (report: WorkspaceReport, sessionId: string | null) =>
      applyTicks(report, (s) => table.get(tickKey(sessionId, s.id, homeHash(s))) ?? new Set()),
  };
}

const markerHash = (file: string) => {
  try {
    return sha256(readFileSync(file));
  } catch {
    return null;
  }
};

test('a go-signal holds while the state files, their checks, the ticks and the marker are as they were; any change says it no longer holds, and why', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  const ticks = tickStore();
  const raw = await evaluate(root);
  ticks.tickAll(raw, SID);
  const o = await checkpoint(root, {
    report: raw,
    reportFor: (id) => ticks.withTicksOf(raw, id),
    sessionId: SID,
    claudeHome: home,
    codexHome: home,
    env: {},
  });
  assert.equal(o.kind, 'written', o.lines.join('\n'));
  assert.match(o.lines.join('\n'), /\/clear/, "S3's closing step");
  const marker = path.join(root, o.marker ?? '');
  const g = goSignalOf('file:///w', o, markerHash(marker), Date.parse('2026-12-06T14:02:03Z'));
  assert.ok(g);
  assert.equal(g.ticksFor, SID);
  assert.equal(g.key, `file:///w|.claude/.checkpoint-ready.${SID}`);
  const now = async () => ({ report: ticks.withTicksOf(await evaluate(root), SID), markerHash: markerHash(marker) });
  // Read again after the marker was written (the rescan): nothing changed, it holds.
  assert.equal(goSignalNow(g, await now()), 'holds');

  // The state file edited after it (still whole): the go-signal was given on other bytes.
  const state = path.join(root, 'docs/state/STATE.md');
  const before = readFileSync(state, 'utf8');
  writeFileSync(state, before.replace('- Done: marker format', '- Done: marker format\n- Done: guard hook'));
  assert.equal(goSignalNow(g, await now()), 'state');
  assert.equal(
    withdrawalText(t, g, 'state', '14:02:03'),
    `The checkpoint notification of 14:02:03 (.claude/.checkpoint-ready.${SID}) no longer holds: the state files, their checks or the manual ticks changed after it. Run Checkpoint now again before /compact or /clear.`,
  );
  // Put back as it was: holds again (the same bytes and checks).
  writeFileSync(state, before);
  assert.equal(goSignalNow(g, await now()), 'holds');

  // A manual item unticked for the session the marker is for: any NO takes the go-signal back.
  ticks.tickAll(raw, SID, false);
  assert.equal(goSignalNow(g, await now()), 'state');
  ticks.tickAll(raw, SID);
  // Another session's ticks change nothing for it.
  ticks.tickAll(raw, 'another-session', false);
  assert.equal(goSignalNow(g, await now()), 'holds');

  // The marker rewritten by hand, or removed: the guard no longer reads what the checkpoint wrote.
  writeFileSync(marker, 'done\n');
  assert.equal(goSignalNow(g, await now()), 'marker');
  assert.match(withdrawalText(t, g, 'marker', '14:02:03'), /the marker was changed or removed since\./);
  rmSync(marker);
  assert.equal(goSignalNow(g, await now()), 'marker');
});

test('only a checkpoint that wrote its marker with the closing steps gives a go-signal to follow; a marker that could not be read back is not compared', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  const refused = await checkpoint(root, { sessionId: SID, claudeHome: home, codexHome: home, env: {} });
  assert.equal(refused.kind, 'refused');
  assert.equal(goSignalOf('f', refused, null, 0), null);
  const opt = await checkpoint(root, { sessionId: SID, nothingToPreserve: true, claudeHome: home, codexHome: home });
  assert.equal(opt.kind, 'nothing-to-preserve');
  assert.equal(goSignalOf('f', opt, 'h', 0), null, 'nothing-to-preserve: its words hold whatever the files say');
  const ok = await checkpoint(root, {
    sessionId: SID,
    confirmed: ['feedback-stored', 'last-request'],
    claudeHome: home,
  });
  const g = goSignalOf('f', ok, null, 0);
  assert.ok(g);
  assert.equal(goSignalNow(g, { report: ok.report, markerHash: null }), 'holds');
});
