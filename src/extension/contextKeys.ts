/**
 * Context keys for `when` clauses and the walkthrough's completion events:
 * `sessionLedger.ready` (first scan done), `sessionLedger.hasS4`, `sessionLedger.hasStateFile` (a
 * system's home file exists), `sessionLedger.meterActive` (the context meter follows a session).
 */
import * as vscode from 'vscode';
import type { SessionMeter } from './status/sessionMeter';
import type { LedgerStore } from './store';

export function bindContextKeys(store: LedgerStore, meter: SessionMeter): vscode.Disposable {
  const values = new Map<string, boolean>();
  const set = (key: string, v: boolean) => {
    if (values.get(key) === v) return;
    values.set(key, v);
    void vscode.commands.executeCommand('setContext', key, v);
  };
  const update = () => {
    const systems = store.folders().flatMap((f) => f.report?.systems ?? []);
    set('sessionLedger.hasS4', systems.some((s) => s.id === 'S4'));
    set('sessionLedger.hasStateFile', systems.some((s) => s.docs.some((d) => d.relPath === s.home)));
  };
  void store.ready.then(() => {
    update();
    set('sessionLedger.ready', true);
  });
  return vscode.Disposable.from(
    store.onDidChange(update),
    meter.onDidChange((m) => set('sessionLedger.meterActive', !!m)),
  );
}
