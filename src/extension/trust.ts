/** Workspace trust: in Restricted Mode the extension reads and shows, and writes nothing. */
import * as vscode from 'vscode';

/** True when the workspace is trusted; otherwise says why nothing happens and returns false. */
export function requireTrust(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(
    vscode.l10n.t(
      'This workspace is in Restricted Mode: Session Ledger reads and shows the state files but writes nothing. Trust the workspace to use this command.',
    ),
  );
  return false;
}
