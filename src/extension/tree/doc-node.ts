/**
 * A document of a system, under its "Documents" row: label the relative path, description its role;
 * children its sections as written (empty sections and the title/preamble metadata are left out).
 */
import * as vscode from 'vscode';
import type { StateDoc, SystemReport } from '../../core/model/model';
import { docTooltip, isTampered, roleText, shownSections } from '../pure/tree-text';
import { describe, openCommand, themeIcon, type LedgerNode, type OpenTarget } from './node';
import { SectionNode } from './section-node';

export class DocNode implements LedgerNode {
  readonly target: OpenTarget | undefined;
  readonly uri: vscode.Uri;

  constructor(
    readonly id: string,
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
    const sections = this.doc ? shownSections(this.doc) : [];
    const ti = new vscode.TreeItem(
      this.relPath,
      sections.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    ti.id = this.id;
    const home = this.relPath === this.system.home;
    ti.description = !this.doc ? t('missing') : home ? t('home file') : roleText(t, this.doc.role);
    describe(ti, docTooltip(t, this.system, this.relPath, this.doc));
    ti.iconPath = isTampered(this.system, this.relPath)
      ? new vscode.ThemeIcon('shield', new vscode.ThemeColor('list.errorForeground'))
      : themeIcon({ id: this.doc ? 'file' : 'circle-slash' });
    ti.contextValue = this.doc ? `doc.${this.system.id}${home ? '.home' : ''}` : `missing.${this.system.id}`;
    if (this.target) ti.command = openCommand(this.target);
    return ti;
  }

  getChildren(): LedgerNode[] {
    if (!this.doc) return [];
    return shownSections(this.doc).map(
      (s, i) => new SectionNode(`${this.id}/${s.line}:${i}`, s, this.relPath, this.uri),
    );
  }
}
