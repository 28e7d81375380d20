/** A finding of a system (a check that blocks or warns): its message, its check id; a click opens its line. */
import * as vscode from 'vscode';
import type { Finding } from '../pure/findings';
import { findingPlace } from '../pure/findings';
import { findingLabel, findingName, problemTooltip } from '../pure/tree-text';
import { describe, openCommand, type LedgerNode, type OpenTarget } from './node';

const ICON = {
  error: ['error', 'list.errorForeground'],
  warning: ['warning', 'list.warningForeground'],
  information: ['info', 'foreground'],
} as const;

export class FindingNode implements LedgerNode {
  readonly target: OpenTarget;

  constructor(
    readonly id: string,
    private readonly finding: Finding,
    uri: vscode.Uri,
  ) {
    this.target = { uri, line: finding.line };
  }

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const c = this.finding.check;
    // What is wrong first (the field, the section), the file after it: rows differ where the sidebar cuts them.
    const ti = new vscode.TreeItem(findingLabel(t, c), vscode.TreeItemCollapsibleState.None);
    ti.id = this.id;
    ti.description = c.id === 'attestation' && c.status === 'fail' ? `TAMPERED · ${c.id}` : c.id;
    // Said where the core puts it, as the CLI says it, even when the row opens the home file (a missing file).
    const at = findingPlace(this.finding);
    describe(ti, problemTooltip(t, c), findingName(t, c, at.path, at.line));
    const [icon, color] = ICON[this.finding.level];
    ti.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    ti.contextValue = `finding.${c.id}`;
    ti.command = openCommand(this.target);
    return ti;
  }

  getChildren(): LedgerNode[] {
    return [];
  }
}
