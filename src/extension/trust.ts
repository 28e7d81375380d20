/** Workspace trust: in Restricted Mode the extension reads and shows, and writes nothing. */
import * as vscode from 'vscode';
import { quotedT } from './pure/findings';
import { TRUST_COMMAND } from './pure/status-text';

/**
 * True when the workspace is trusted; otherwise says why nothing happens, offers the one step that works
 * (VS Code's workspace trust editor) and returns false.
 */
export function requireTrust(): boolean {
  if (vscode.workspace.isTrusted) return true;
  const t = quotedT(vscode.l10n.t);
  const manage = t('Manage Workspace Trust');
  void vscode.window
    .showWarningMessage(
      t(
        'This workspace is in Restricted Mode: Session Ledger reads and shows the state files but writes nothing. Trust the workspace to use this command.',
      ),
      manage,
    )
    .then((pick) => (pick === manage ? vscode.commands.executeCommand(TRUST_COMMAND) : undefined));
  return false;
}
