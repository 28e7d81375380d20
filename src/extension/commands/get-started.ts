/** Get started: open the extension's walkthrough (state file, guard hooks, context meter, first checkpoint). */
import * as vscode from 'vscode';

export const id = 'sessionLedger.getStarted';
export const WALKTHROUGH = 'session-ledger.session-ledger#sessionLedger.start';

export async function run(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
}
