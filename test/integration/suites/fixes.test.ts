import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { getApi, waitFor, workspaceRoot } from '../helpers';

const S0 = '.agents/session_ledger.md';
const S4 = '.agents/STATE.md';

function diagnosticsOf(rel: string, code: string): vscode.Diagnostic[] {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, ...rel.split('/'));
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === 'Session Ledger' && typeof d.code === 'object' && d.code.value === code);
}

async function actionsAt(rel: string, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, ...rel.split('/'));
  // resolve every action (its edit is computed when the user picks it)
  return (
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      range,
      vscode.CodeActionKind.QuickFix.value,
      20,
    )) ?? []
  );
}

describe('quick fixes', () => {
  it('S0 "_Last updated:_ to now": the placeholder becomes a diagnostic, the fix edits that line, and the finding disappears', async () => {
    await getApi();
    const file = join(workspaceRoot(), S0);
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace(/_Last updated: [^_]*_/, '_Last updated: <timestamp>_'));
    const [d] = await waitFor('the timestamp warning', () =>
      diagnosticsOf(S0, 'timestamp').length ? diagnosticsOf(S0, 'timestamp') : undefined,
    );
    assert.equal(d.range.start.line + 1, 3, 'on the _Last updated:_ line');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    // the diagnostic reaches the workbench's marker service a moment after the extension host has it
    const fix = await waitFor(
      'the quick fix with its edit',
      async () => (await actionsAt(S0, d.range)).find((a) => a.title === 'Set _Last updated:_ to now' && a.edit),
      20_000,
      500,
    );
    assert.ok(fix.edit);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(doc.lineAt(2).text, /^_Last updated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ_$/);
    assert.equal(
      doc.getText().replace(/_Last updated: [^_]*_/, ''),
      before.replace(/_Last updated: [^_]*_/, ''),
      'nothing else changed',
    );
    await doc.save();
    await waitFor('the timestamp warning to disappear', () => diagnosticsOf(S0, 'timestamp').length === 0);
    // and the user can take it back
    await vscode.commands.executeCommand('undo');
    assert.match(doc.lineAt(2).text, /<timestamp>/);
    await vscode.commands.executeCommand('redo');
    await doc.save();
  });

  it('S4 compaction: the fix is a whole-file edit that needs confirmation (Refactor Preview) and keeps one block per kind', async () => {
    const [d] = diagnosticsOf(S4, 'compaction');
    assert.ok(d, 'the compaction warning');
    const doc = await vscode.workspace.openTextDocument(
      vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.agents', 'STATE.md'),
    );
    const fix = (await actionsAt(S4, d.range)).find((a) => a.title.startsWith('Compact .agents/STATE.md'));
    assert.ok(
      fix?.edit,
      `the compaction fix with its edit (got ${(await actionsAt(S4, d.range)).map((a) => a.title).join(' | ')})`,
    );
    const [[uri, edits]] = fix.edit.entries();
    assert.equal(uri.toString(), doc.uri.toString());
    const after = edits[0].newText;
    assert.equal((after.match(/^## Current Feature/gm) ?? []).length, 1, 'one Current Feature block left');
    assert.match(after, /## Current Feature: reservation queue/, 'the newest block stays');
    assert.equal(
      readFileSync(doc.uri.fsPath, 'utf8').includes('overdue scan'),
      true,
      'nothing written before the user applies it',
    );
  });

  it('CodeLens on the first line of a state file: label, counts, Checkpoint now, Open checklist', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.agents', 'STATE.md');
    const lenses = await waitFor('the lenses', async () => {
      const l =
        (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)) ?? [];
      return l.length ? l : undefined;
    });
    const titles = lenses.filter((l) => l.range.start.line === 0).map((l) => l.command?.title);
    assert.match(titles[0] ?? '', /^S4 checkpointing — (PARTIAL|WORKING)$/);
    assert.match(titles[1] ?? '', /^1 warning( · \d manual to tick)?$/);
    assert.deepEqual(titles.slice(2), ['$(save) Checkpoint now', '$(checklist) Open checklist']);
  });
});
