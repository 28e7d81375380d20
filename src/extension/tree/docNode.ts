/**
 * A root of the ledger tree: one detected state document (or the missing home file of a detected
 * system). Label: the relative path; description: `S3 · PARTIAL`; tooltip (= accessible name):
 * `S3 docs/state/STATE.md — PARTIAL` and details.
 */
import * as vscode from 'vscode';
import type { StateDoc, SystemReport } from '../../core/model';
import { docDescription, docProblems, docTooltip, isTampered, labelIcon } from '../pure/treeText';
import { describe, openCommand, themeIcon, type LedgerNode, type OpenTarget } from './node';
import { ProblemNode } from './problemNode';
import { SectionNode } from './sectionNode';

export class DocNode implements LedgerNode {
  readonly target: OpenTarget | undefined;
  readonly uri: vscode.Uri;

  constructor(
    private readonly id: string,
    readonly folder: vscode.WorkspaceFolder,
    readonly system: SystemReport,
    readonly relPath: string,
    private readonly doc: StateDoc | null,
  ) {
    this.uri = vscode.Uri.joinPath(folder.uri, ...relPath.split('/'));
    this.target = doc ? { uri: this.uri, line: 1 } : undefined;
  }

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const hasChildren = !!this.doc && (this.doc.sections.length > 0 || docProblems(this.system, this.relPath).length > 0);
    const ti = new vscode.TreeItem(this.relPath, hasChildren ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    ti.id = this.id;
    ti.description = docDescription(this.system);
    describe(ti, docTooltip(t, this.system, this.relPath, this.doc));
    ti.iconPath = isTampered(this.system, this.relPath) ? new vscode.ThemeIcon('shield', new vscode.ThemeColor('list.errorForeground')) : themeIcon(labelIcon(this.system.label));
    const home = this.relPath === this.system.home ? '.home' : '';
    ti.contextValue = this.doc ? `doc.${this.system.id}${home}` : `missing.${this.system.id}`;
    if (this.target) ti.command = openCommand(this.target);
    return ti;
  }

  getChildren(): LedgerNode[] {
    if (!this.doc) return [];
    const problems = docProblems(this.system, this.relPath).map((c, i) => new ProblemNode(`${this.id}/!${i}`, c, this.uri));
    const sections = this.doc.sections.map((s, i) => new SectionNode(`${this.id}/${s.line}:${i}`, s, this.relPath, this.uri));
    return [...problems, ...sections];
  }
}
