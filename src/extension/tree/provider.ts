/**
 * The ledger tree's data provider: reads the store; when the store changes, refreshes only the rows
 * whose rendering changed (`StableRows`), the whole tree only when its roots changed.
 */
import * as vscode from 'vscode';
import { Disposable } from '../dispose';
import { StableRows } from '../pure/stable-rows';
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
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<LedgerNode[] | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly rows = new StableRows<LedgerNode>({
    id: (n) => n.id,
    sig: (n) => JSON.stringify(n.getTreeItem()),
    children: (n) => n.getChildren(),
    sameKind: (a, b) => a.constructor === b.constructor,
    // The object VS Code knows for this id takes the new node's fields (nodes are plain data holders).
    adopt: (into, from) => Object.assign(into, from),
  });

  constructor(private readonly store: LedgerStore) {
    super();
    this._register(
      store.onDidChange(() => {
        const changed = this.rows.changes(this.roots());
        if (changed === 'all') this._onDidChangeTreeData.fire(undefined);
        else if (changed.length) this._onDidChangeTreeData.fire(changed);
      }),
    );
  }

  getTreeItem(node: LedgerNode): vscode.TreeItem {
    const ti = node.getTreeItem();
    this.rows.rendered(node, JSON.stringify(ti));
    return ti;
  }

  getChildren(node?: LedgerNode): LedgerNode[] {
    return this.rows.serve(node, node ? node.getChildren() : this.roots());
  }

  /** The top rows: one per folder in a multi-root workspace, else the first folder's systems. */
  private roots(): LedgerNode[] {
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
    return walk(this.roots());
  }
}
