import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { OLD_SESSION_ID, SESSION_ID, getApi, markers, sleep, waitFor, workspaceRoot } from '../helpers';

function checklistTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('sessionLedger.checklist'));
}

describe('checkpoint', () => {
  before(async () => {
    await getApi();
    for (const m of markers(workspaceRoot())) rmSync(join(workspaceRoot(), '.claude', m));
  });

  it('with manual items still open, "Checkpoint now" writes nothing and opens the checklist', async () => {
    await vscode.env.clipboard.writeText('untouched');
    void vscode.commands.executeCommand('sessionLedger.checkpointNow');
    const tab = await waitFor('the checklist tab', () => checklistTab());
    assert.equal(tab.label, 'Session Ledger Checklist');
    await sleep(1500);
    assert.deepEqual(markers(workspaceRoot()), [], 'no marker yet');
    assert.equal(await vscode.env.clipboard.readText(), 'untouched');
    // One click: the folder read once, decided once on that report (refused: nothing written, no rescan).
    assert.deepEqual((await getApi()).lastCheckpointRun(), { evaluations: 1, decisions: 1, writes: 0, rescans: 0 });
  });

  it('from the checklist, still with a manual item open, it writes nothing (any NO blocks the go-signal)', async () => {
    void vscode.commands.executeCommand('sessionLedger.checkpointNow', { fromChecklist: true });
    await sleep(1500);
    assert.deepEqual(markers(workspaceRoot()), [], 'no marker');
  });

  it("items ticked for the session the status bar follows do not vouch for another session's checkpoint", async () => {
    const root = workspaceRoot();
    const api = await getApi();
    await api.tickManualItems(true);
    await waitFor('the ticks applied', () =>
      api.report()!.systems.every((s) => s.checks.every((c) => c.status !== 'manual-open')) ? true : undefined,
    );
    const before = api.lastCheckpointRun();
    // The checklist shows every item ticked (for the session it follows); the user names the older session.
    void vscode.commands.executeCommand('sessionLedger.checkpointNow', {
      fromChecklist: true,
      sessionId: OLD_SESSION_ID,
    });
    await waitFor('the run decided', () => api.lastCheckpointRun() !== before);
    assert.deepEqual(markers(root), [], `no .checkpoint-ready.${OLD_SESSION_ID}: no item was ticked for it`);
    assert.deepEqual(api.lastCheckpointRun(), { evaluations: 1, decisions: 1, writes: 0, rescans: 0 });
  });

  it('once the manual items are ticked it writes .claude/.checkpoint-ready.<session id> and copies the resume prompt', async () => {
    assert.ok(SESSION_ID, 'the fixture session id is known');
    const root = workspaceRoot();
    const api = await getApi();
    await api.tickManualItems(true);
    await waitFor('the ticks applied', () =>
      api.report()!.systems.every((s) => s.checks.every((c) => c.status !== 'manual-open')) ? true : undefined,
    );
    const report = api.report()!;
    await vscode.env.clipboard.writeText('');
    // the command awaits its notification's buttons, so it is not awaited here
    void vscode.commands.executeCommand('sessionLedger.checkpointNow', { fromChecklist: true });
    const marker = join(root, '.claude', `.checkpoint-ready.${SESSION_ID}`);
    await waitFor(`the marker ${marker}`, () => existsSync(marker));
    assert.deepEqual(
      markers(root),
      [`.checkpoint-ready.${SESSION_ID}`],
      "only this session's marker (not the older session's, not the shared one)",
    );
    assert.ok(readFileSync(marker, 'utf8').includes(SESSION_ID), 'the marker is signed with the session id');
    // One click: one evaluation (none inside the decision), one decision, one write, one rescan.
    const counts = await waitFor('the run counted', () => {
      const c = api.lastCheckpointRun();
      return c && c.writes ? c : undefined;
    });
    assert.deepEqual(counts, { evaluations: 1, decisions: 1, writes: 1, rescans: 1 });
    const clip = await waitFor(
      'the resume prompt on the clipboard',
      async () => (await vscode.env.clipboard.readText()) || undefined,
    );
    assert.ok(
      clip.includes('Read docs/state/STATE.md and continue from the Now ▶ action.'),
      `S3's verbatim resume prompt (got: ${clip})`,
    );
    for (const s of report.systems)
      assert.ok(clip.includes(s.resumePrompt.split('\n')[0]), `${s.id}'s resume prompt is in the clipboard`);
  });
});
