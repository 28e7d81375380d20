/**
 * CodeLens on the first line of every state file a system shows: its label (`S3 Groundwork —
 * PARTIAL`), its counts, "Checkpoint now" (trusted workspaces) and "Open checklist". Refreshed when
 * the store changes.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { countsOf, countsText, systemDocs, systemLabel } from './pure/findings';
import type { LedgerStore } from './store';

export class LedgerCodeLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this._onDidChange.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly store: LedgerStore) {
    this.sub = store.onDidChange(() => this._onDidChange.fire());
  }

  register(): vscode.Disposable {
    return vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const state = this.store.folder(document.uri);
    const r = state?.report;
    if (!state || !r) return [];
    const rel = path.relative(state.folder.uri.fsPath, document.uri.fsPath).split(path.sep).join('/');
    const t = vscode.l10n.t;
    const top = new vscode.Range(0, 0, 0, 0);
    const out: vscode.CodeLens[] = [];
    for (const s of r.systems) {
      if (!systemDocs(r, s).some((d) => d.relPath === rel && d.doc)) continue;
      const show = { command: 'workbench.view.extension.sessionLedger', title: '' };
      out.push(
        new vscode.CodeLens(top, { ...show, title: systemLabel(s), tooltip: t('Show the Session Ledger view') }),
      );
      const counts = countsText(t, countsOf(s));
      if (counts)
        out.push(new vscode.CodeLens(top, { ...show, title: counts, tooltip: t('Show the Session Ledger view') }));
      if (vscode.workspace.isTrusted)
        out.push(
          new vscode.CodeLens(top, {
            command: 'sessionLedger.checkpointNow',
            title: `$(save) ${t('Checkpoint now')}`,
            arguments: [{ folderUri: state.folder.uri }],
          }),
        );
      out.push(
        new vscode.CodeLens(top, {
          command: 'sessionLedger.openChecklist',
          title: `$(checklist) ${t('Open checklist')}`,
          arguments: [state.folder.uri],
        }),
      );
    }
    return out;
  }

  dispose(): void {
    this.sub.dispose();
    this._onDidChange.dispose();
  }
}
