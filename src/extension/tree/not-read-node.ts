/** A file at a system's path that is not in that system's format: present, not read, and why; a click opens it. */
import * as vscode from 'vscode';
import type { NotRead } from '../../core/model/model';
import { describe, openCommand, type LedgerNode, type OpenTarget } from './node';

export class NotReadNode implements LedgerNode {
  readonly target: OpenTarget;
  readonly id: string;

  constructor(
    folder: vscode.WorkspaceFolder,
    private readonly entry: NotRead,
  ) {
    this.target = { uri: vscode.Uri.joinPath(folder.uri, ...entry.path.split('/')), line: 1 };
    this.id = `not-read:${this.target.uri.toString()}:${entry.system}`;
  }

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const n = this.entry;
    const ti = new vscode.TreeItem(n.path, vscode.TreeItemCollapsibleState.None);
    ti.id = this.id;
    ti.description = t('not read as {0}', n.system);
    // The reason in the user's language when the bundle has it, else as the core wrote it.
    describe(ti, t(n.reasonId, ...n.args));
    ti.iconPath = new vscode.ThemeIcon('circle-slash');
    ti.contextValue = 'notRead';
    ti.command = openCommand(this.target);
    return ti;
  }

  getChildren(): LedgerNode[] {
    return [];
  }
}
