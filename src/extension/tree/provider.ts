/** The ledger tree's data provider: reads the store, refreshes when the store changes. */
import * as vscode from 'vscode';
import { Disposable } from '../dispose';
import type { LedgerStore } from '../store';
import { FolderNode } from './folder-node';
import type { LedgerNode } from './node';
import { hasRows, systemNodes } from './roots';

export interface TreeSnapshotNode {
  label: string;
  description?: string;
  /** What a screen reader speaks for the row (its accessibilityInformation label). */
  name?: string;
  children: TreeSnapshotNode[];
}

export class LedgerTreeProvider extends Disposable implements vscode.TreeDataProvider<LedgerNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<LedgerNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  constructor(private readonly store: LedgerStore) {
    super();
    this._register(store.onDidChange(() => this._onDidChangeTreeData.fire(undefined)));
  }

  getTreeItem(node: LedgerNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  getChildren(node?: LedgerNode): LedgerNode[] {
    if (node) return node.getChildren();
    const folders = this.store.folders();
    // Nothing detected and nothing present-but-not-read anywhere: no nodes, so the welcome content (with "Create starter file") shows.
    if (!folders.some(hasRows)) return [];
    if (folders.length > 1) return folders.map((f) => new FolderNode(f));
    return folders[0] ? systemNodes(folders[0]) : [];
  }

  /** The whole tree as labels and descriptions (the test API). */
  snapshot(): TreeSnapshotNode[] {
    const walk = (nodes: LedgerNode[]): TreeSnapshotNode[] =>
      nodes.map((n) => {
        const ti = n.getTreeItem();
        const label = typeof ti.label === 'string' ? ti.label : (ti.label?.label ?? '');
        const out: TreeSnapshotNode = { label, children: walk(n.getChildren()) };
        if (typeof ti.description === 'string' && ti.description) out.description = ti.description;
        if (ti.accessibilityInformation) out.name = ti.accessibilityInformation.label;
        return out;
      });
    return walk(this.getChildren());
  }
}
