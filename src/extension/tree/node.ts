/** What every node of the ledger tree is: a TreeItem factory with children and, maybe, a place in a file. */
import * as vscode from 'vscode';
import { spoken, type Icon } from '../pure/tree-text';

/** A file and a 1-based line: what "open at the line" opens. */
export interface OpenTarget {
  uri: vscode.Uri;
  line: number;
}

export interface LedgerNode {
  /** The row's id (its TreeItem's id): the same for the same row in every report. */
  readonly id: string;
  readonly target?: OpenTarget;
  getTreeItem(): vscode.TreeItem;
  getChildren(): LedgerNode[];
}

export function themeIcon(icon: Icon): vscode.ThemeIcon {
  return new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

/** The click command of a node with a place in a file. */
export function openCommand(target: OpenTarget): vscode.Command {
  return { command: 'sessionLedger.openStateFile', title: vscode.l10n.t('Open state file'), arguments: [target] };
}

/**
 * A string tooltip, and the accessible name a screen reader speaks (the tests find items by it):
 * `name` when given, else the tooltip read as plain text (no Markdown markers, one line).
 */
export function describe(item: vscode.TreeItem, tooltip: string, name?: string): void {
  item.tooltip = tooltip;
  item.accessibilityInformation = { label: name ?? spoken(tooltip.split('\n')) };
}
