import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi, workspaceRoot } from '../helpers';

describe('activation', () => {
  it('activates in the fixture workspace and returns its API', async () => {
    const api = await getApi();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    assert.equal(api.trusted(), true);
    assert.equal(vscode.workspace.isTrusted, true);
  });

  it('detects all five systems in the fixture', async () => {
    const api = await getApi();
    const report = api.report();
    assert.ok(report, 'a report for the first folder');
    assert.equal(report.root, workspaceRoot());
    assert.deepEqual(report.systems.map((s) => s.id).sort(), ['S0', 'S1', 'S2', 'S3', 'S4']);
    const home = Object.fromEntries(report.systems.map((s) => [s.id, s.home]));
    assert.deepEqual(home, {
      S0: '.agents/session_ledger.md',
      S1: 'memory/session-handoff-LATEST.md',
      S2: '.claude/session-ledger.md',
      S3: 'docs/state/STATE.md',
      S4: '.agents/STATE.md',
    });
    // nothing blocks in the fixture; S4 carries two "Current Feature" blocks (a compaction warning)
    for (const s of report.systems) assert.notEqual(s.label, 'BROKEN', `${s.id} is not BROKEN`);
    const s4 = report.systems.find((s) => s.id === 'S4')!;
    assert.equal(s4.checks.find((c) => c.id === 'compaction')?.status, 'warn');
    assert.equal(s4.label, 'PARTIAL');
  });

  it('showed first results before git answered: the checks that need git waited, no system was WORKING, and the full report replaced them', async () => {
    const api = await getApi();
    const first = api.firstShown();
    assert.ok(first, 'a first report was shown');
    assert.equal(first.gitPending, true, 'the first report was the first results, given while git ran');
    const waiting = first.systems.flatMap((s) => s.checks.filter((c) => c.pending));
    assert.ok(waiting.length > 0, 'some check waited for git');
    for (const c of waiting)
      assert.ok(['fresh', 'work-explained', 'branch-head', 'debt'].includes(c.id), `${c.system} ${c.id} needs git`);
    for (const s of first.systems) assert.notEqual(s.label, 'WORKING', `${s.id} was not WORKING before git answered`);
    const full = api.report();
    assert.ok(full && !full.gitPending, 'the full report replaced the first results');
    assert.deepEqual(
      full.systems.flatMap((s) => s.checks.filter((c) => c.pending)),
      [],
    );
    const tree = JSON.stringify(await api.treeSnapshot());
    assert.ok(!tree.includes('Waiting for git'), 'the tree no longer waits for git');
  });

  it('contributes every command of the contract, in the "Session Ledger" category', async () => {
    const all = await vscode.commands.getCommands(true);
    const ids = [
      'checkpointNow',
      'copyResumePrompt',
      'openChecklist',
      'openStateFile',
      'refresh',
      'installHooks',
      'removeHooks',
      'createStarterFile',
      'compactAgentState',
      'askAgentToCheckpoint',
    ].map((c) => `sessionLedger.${c}`);
    for (const id of ids) assert.ok(all.includes(id), `${id} is registered`);
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { commands: { command: string; category: string }[] };
    };
    for (const id of ids) {
      const c = pkg.contributes.commands.find((x) => x.command === id);
      assert.ok(c, `${id} is contributed`);
    }
  });
});
