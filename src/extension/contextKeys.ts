/** Context keys for `when` clauses: `sessionLedger.ready` (first scan done), `sessionLedger.hasS4`. */
import * as vscode from 'vscode';
import type { LedgerStore } from './store';

export function bindContextKeys(store: LedgerStore): vscode.Disposable {
  let hasS4: boolean | undefined;
  const update = () => {
    const now = store.folders().some((f) => f.report?.systems.some((s) => s.id === 'S4'));
    if (now !== hasS4) {
      hasS4 = now;
      void vscode.commands.executeCommand('setContext', 'sessionLedger.hasS4', now);
    }
  };
  void store.ready.then(() => {
    update();
    void vscode.commands.executeCommand('setContext', 'sessionLedger.ready', true);
  });
  return store.onDidChange(update);
}
