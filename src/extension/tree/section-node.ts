/** A section of a state document: its title as written, its items as children. */
import * as vscode from 'vscode';
import type { Section } from '../../core/model/model';
import { sectionDescription, sectionIcon, sectionLabel, sectionTooltip } from '../pure/tree-text';
import { ItemNode } from './item-node';
import { describe, openCommand, themeIcon, type LedgerNode, type OpenTarget } from './node';

/** Sections a resumer reads first start expanded. */
const EXPANDED = new Set(['now', 'next', 'handoff', 'open', 'pending', 'blocked']);

export class SectionNode implements LedgerNode {
  readonly target: OpenTarget;

  constructor(
    readonly id: string,
    private readonly section: Section,
    private readonly relPath: string,
    private readonly uri: vscode.Uri,
  ) {
    this.target = { uri, line: section.line || 1 };
  }

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const state = this.section.items.length
      ? EXPANDED.has(String(this.section.key))
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None;
    const ti = new vscode.TreeItem(sectionLabel(t, this.section), state);
    ti.id = this.id;
    ti.description = sectionDescription(t, this.section);
    describe(ti, sectionTooltip(t, this.section, this.relPath));
    ti.iconPath = themeIcon(sectionIcon(this.section));
    ti.contextValue = `section.${String(this.section.key)}`;
    ti.command = openCommand(this.target);
    return ti;
  }

  getChildren(): LedgerNode[] {
    return this.section.items.map((it, i) => new ItemNode(`${this.id}/${it.line}:${i}`, it, this.relPath, this.uri));
  }
}
