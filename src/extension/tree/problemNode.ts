/** A blocking problem that points at a document (TAMPERED, a secret, an unreadable file): shown above its sections. */
import * as vscode from 'vscode';
import type { Check } from '../../core/model';
import { problemTooltip } from '../pure/treeText';
import { describe, openCommand, type LedgerNode, type OpenTarget } from './node';

export class ProblemNode implements LedgerNode {
  readonly target: OpenTarget;

  constructor(
    private readonly id: string,
    private readonly check: Check,
    uri: vscode.Uri,
  ) {
    this.target = { uri, line: check.line ?? 1 };
  }

  getTreeItem(): vscode.TreeItem {
    const ti = new vscode.TreeItem(this.check.message, vscode.TreeItemCollapsibleState.None);
    ti.id = this.id;
    ti.description = this.check.id === 'attestation' ? 'TAMPERED' : this.check.id;
    describe(ti, problemTooltip(vscode.l10n.t, this.check));
    ti.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
    ti.contextValue = 'problem';
    ti.command = openCommand(this.target);
    return ti;
  }

  getChildren(): LedgerNode[] {
    return [];
  }
}
