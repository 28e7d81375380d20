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
import { filesIn } from '../../src/extension/pure/findings';
import { goSignalNow, goSignalOf, withdrawal } from '../../src/extension/pure/go-signal';
import { findingLabel } from '../../src/extension/pure/tree-text';
import { applyTicks, homeHash, tickKey } from '../../src/extension/pure/ticks';
import { emptyClaudeHome, s3Workspace, SID } from './checkpoint-fixtures';
import { enT, jaT, koT, REPO } from './helpers';

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

/** S3's workspace checkpointed for SID with every manual item ticked: the marker written. */
async function checkpointed() {
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
  return { root, ticks, raw, o };
}

test('a go-signal holds while the state files, their checks, the ticks and the marker are as they were; any change says it no longer holds, and why', async () => {
  const { root, ticks, raw, o } = await checkpointed();
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
  // The edit resets the manual ticks (they belong to a version of the home file): the warning offers the
  // checklist to tick them, not a Checkpoint now that would be refused.
  const edited = await now();
  assert.deepEqual(withdrawal(t, g, 'state', '14:02:03', edited.report, filesIn(root)), {
    text: `The checkpoint notification of 14:02:03 (.claude/.checkpoint-ready.${SID}) no longer holds: the state files, their checks or the manual ticks changed after it. 2 manual items are not ticked: tick them in the checklist when they are true, then click "Write marker & copy resume prompt" there before /compact or /clear.`,
    offer: { kind: 'tick', system: null, checkId: 'feedback-stored', count: 2 },
  });
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
  assert.match(
    withdrawal(t, g, 'marker', '14:02:03', (await now()).report, filesIn(root)).text,
    /the marker was changed or removed since\./,
  );
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

test('the warning after a go-signal offers only a step that can succeed: the failing blocking check while one fails, the checklist while a manual item is open, Checkpoint now otherwise', async () => {
  const { root, ticks, raw, o } = await checkpointed();
  const marker = path.join(root, o.marker ?? '');
  const g = goSignalOf('file:///w', o, markerHash(marker), 0);
  assert.ok(g);
  const now = async () => ({ report: ticks.withTicksOf(await evaluate(root), SID), markerHash: markerHash(marker) });

  // The next action emptied (the walkthrough's "Now ▶ TBD"): BROKEN, Checkpoint now would only be refused.
  const state = path.join(root, 'docs/state/STATE.md');
  const before = readFileSync(state, 'utf8');
  writeFileSync(state, before.replace(/(- \*\*Now ▶\*\*).*/, '$1 TBD'));
  const broken = await now();
  assert.equal(broken.report.label, 'BROKEN');
  assert.equal(goSignalNow(g, broken), 'state');
  const w = withdrawal(t, g, 'state', '14:02:03', broken.report, filesIn(root));
  assert.equal(w.offer.kind, 'fix', 'no Checkpoint now while a blocking check fails');
  assert.ok(w.offer.kind === 'fix');
  assert.deepEqual(
    [w.offer.finding.check.system, w.offer.finding.check.id, w.offer.finding.path, w.offer.count],
    ['S3', 'next-action', 'docs/state/STATE.md', 1],
  );
  assert.equal(w.offer.finding.line, before.split('\n').findIndex((l) => l.includes('Now ▶')) + 1, 'on its line');
  // The check in the words the tree's row and the checklist show for it, not its id.
  assert.equal(findingLabel(t, w.offer.finding.check), 'The next action is vague: "TBD".');
  assert.match(
    w.text,
    /A blocking check fails now: S3: The next action is vague: "TBD"\. Fix it, then run "Checkpoint now" again \(in the checklist: "Write marker & copy resume prompt"\) before \/compact or \/clear\.$/,
  );

  // Fixed, but a manual item unticked for the marker's session: the checklist, on the item.
  writeFileSync(state, before);
  ticks.tickAll(raw, SID, false);
  const open = await now();
  const m = withdrawal(t, g, 'state', '14:02:03', open.report, filesIn(root));
  assert.equal(m.offer.kind, 'tick');
  assert.ok(m.offer.kind === 'tick');
  assert.deepEqual([m.offer.system, m.offer.checkId, m.offer.count], [null, 'feedback-stored', 2]);
  assert.match(m.text, /2 manual items are not ticked: tick them in the checklist when they are true/);

  // Everything holds again but the marker was rewritten: Checkpoint now can give the go-signal again.
  ticks.tickAll(raw, SID);
  writeFileSync(marker, 'done\n');
  const again = await now();
  assert.equal(goSignalNow(g, again), 'marker');
  const c = withdrawal(t, g, 'marker', '14:02:03', again.report, filesIn(root));
  assert.deepEqual(c.offer, { kind: 'checkpoint' });
  assert.match(
    c.text,
    / Run "Checkpoint now" again \(in the checklist: "Write marker & copy resume prompt"\) before \/compact or \/clear\.$/,
  );

  // In every language, the warning names the command by its title in the command palette and the checklist's
  // button by its label, so a user finds each by the name the warning gives it; the checklist is where the
  // manual items are ticked, so there it names the button.
  for (const [lang, l10n] of [
    ['', enT],
    ['.ja', jaT],
    ['.ko', koT],
  ] as const) {
    const nls = JSON.parse(readFileSync(path.join(REPO, `package.nls${lang}.json`), 'utf8')) as Record<string, string>;
    const command = nls['command.checkpointNow.title'];
    const button = l10n('Write marker & copy resume prompt');
    assert.equal(l10n('Checkpoint now'), command, `${lang}: the warning's own button is the command's title`);
    const said = withdrawal(l10n, g, 'marker', '14:02:03', again.report, filesIn(root)).text;
    assert.ok(said.includes(command) && said.includes(button), `${lang}: ${said}`);
    writeFileSync(state, before.replace(/(- \*\*Now ▶\*\*).*/, '$1 TBD'));
    const fix = withdrawal(l10n, g, 'state', '14:02:03', (await now()).report, filesIn(root)).text;
    assert.ok(fix.includes(command) && fix.includes(button), `${lang}: ${fix}`);
    writeFileSync(state, before);
    ticks.tickAll(raw, SID, false);
    const tick = withdrawal(l10n, g, 'state', '14:02:03', (await now()).report, filesIn(root)).text;
    assert.ok(tick.includes(button) && !tick.includes(command), `${lang}: ${tick}`);
    ticks.tickAll(raw, SID);
  }
});
