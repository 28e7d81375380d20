/** An item of a section: its text as written, its flags as description and icon. */
import * as vscode from 'vscode';
import type { Item } from '../../core/model/model';
import { itemDescription, itemIcon, itemLabel, itemName, itemTooltip } from '../pure/tree-text';
import { describe, openCommand, themeIcon, type LedgerNode, type OpenTarget } from './node';

export class ItemNode implements LedgerNode {
  readonly target: OpenTarget;

  constructor(
    readonly id: string,
    private readonly item: Item,
    private readonly relPath: string,
    uri: vscode.Uri,
  ) {
    this.target = { uri, line: item.line };
  }

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const ti = new vscode.TreeItem(itemLabel(this.item), vscode.TreeItemCollapsibleState.None);
    ti.id = this.id;
    ti.description = itemDescription(t, this.item) || undefined;
    describe(ti, itemTooltip(t, this.item, this.relPath), itemName(t, this.item, this.relPath));
    ti.iconPath = themeIcon(itemIcon(this.item));
    ti.contextValue = this.item.flags.includes('unconfirmed') ? 'item.unconfirmed' : 'item';
    ti.command = openCommand(this.target);
    return ti;
  }

  getChildren(): LedgerNode[] {
    return [];
  }
}
