/** A workspace folder, shown only in a multi-root workspace: its state documents are its children. */
import * as vscode from 'vscode';
import type { FolderState } from '../store';
import { overallWhyText } from '../pure/checklist-model';
import { labelIcon } from '../pure/tree-text';
import { describe, themeIcon, type LedgerNode } from './node';
import { systemNodes } from './roots';

export class FolderNode implements LedgerNode {
  readonly id: string;

  constructor(private readonly state: FolderState) {
    this.id = `folder:${state.folder.uri.toString()}`;
  }

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const r = this.state.report;
    const ti = new vscode.TreeItem(this.state.folder.name, vscode.TreeItemCollapsibleState.Expanded);
    ti.id = this.id;
    if (!r) ti.description = this.state.error ? t('scan failed') : t('scanning…');
    else if (r.systems.length === 0) ti.description = t('nothing detected');
    else ti.description = r.label;
    // Its overall label, and why it is worse than its systems' when it is.
    const why = r ? overallWhyText(t, r) : null;
    describe(
      ti,
      [
        [this.state.folder.name, ti.description as string, this.state.error ?? ''].filter(Boolean).join(' — '),
        why ?? '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
    ti.iconPath = r && r.systems.length ? themeIcon(labelIcon(r.label)) : new vscode.ThemeIcon('root-folder');
    ti.contextValue = 'folder';
    return ti;
  }

  getChildren(): LedgerNode[] {
    return systemNodes(this.state);
  }
}
