/**
 * A root of the ledger tree: one detected system, labelled `S3 Groundwork — PARTIAL`. Its children
 * answer first what the user came for: the next action (`Next action: …`), then one row per finding that
 * blocks or warns, the manual items still to tick, and last "Documents" with the files as written.
 */
import * as vscode from 'vscode';
import type { SystemReport, WorkspaceReport } from '../../core/model/model';
import { countsOf, countsText, filesIn, systemDocs, systemFindings, systemLabel } from '../pure/findings';
import { labelIcon, lineLabel, manualRow, nextTooltip, placeName, spoken, systemTooltip } from '../pure/tree-text';
import { oneLine } from '../../core/model/messages';
import { systemName } from '../../core/systems/facts';
import { manualFocus, manualRowArguments, type ChecklistFocus } from '../pure/checklist-model';
import { DocNode } from './doc-node';
import { FindingNode } from './finding-node';
import { describe, openCommand, themeIcon, type LedgerNode, type OpenTarget } from './node';

export class SystemNode implements LedgerNode {
  readonly target: OpenTarget;
  readonly id: string;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly report: WorkspaceReport,
    readonly system: SystemReport,
  ) {
    this.id = `${folder.uri.toString()}|${system.id}`;
    this.target = { uri: vscode.Uri.joinPath(folder.uri, ...system.home.split('/')), line: 1 };
  }

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const s = this.system;
    const ti = new vscode.TreeItem(systemLabel(s), vscode.TreeItemCollapsibleState.Expanded);
    ti.id = this.id;
    // Beside the label, what asks for action (blocking, warnings, manual items): the info count stays in the
    // tooltip, the CodeLens and the rows below. A count beside the label that does not fit the sidebar's
    // default width draws VS Code's ellipsis over the end of the label (`S1 session handoff — WORKING`).
    const counts = countsText(t, { ...countsOf(s), info: 0 });
    // First results of a scan: the checks that need git are not judged yet.
    const waiting = s.checks.some((c) => c.pending) ? t('Waiting for git…') : '';
    // A file of the system is being written and did not parse: this is its last good read.
    const updating = s.updating ? t('Updating…') : '';
    // Switched off by its own configuration (S0 without `session.ledger: true`): shown, checked, never checkpointed.
    const off = s.skipped ? t('not enabled') : '';
    ti.description = [off, counts, waiting, updating].filter(Boolean).join(' · ') || undefined;
    describe(ti, systemTooltip(t, s));
    ti.iconPath = themeIcon(labelIcon(s.label));
    ti.contextValue = `system.${s.id}${s.skipped ? '.off' : ''}`;
    return ti;
  }

  getChildren(): LedgerNode[] {
    const s = this.system;
    const out: LedgerNode[] = [];
    if (s.next) {
      const at = s.checks.find((c) => c.id === 'next-action' && c.line);
      const path = at?.path ?? s.home;
      out.push(
        new NextNode(`${this.id}|next`, s.next, {
          uri: vscode.Uri.joinPath(this.folder.uri, ...path.split('/')),
          line: at?.line ?? 1,
        }),
      );
    }
    systemFindings(s, filesIn(this.folder.uri.fsPath)).forEach((f, i) =>
      out.push(
        new FindingNode(
          `${this.id}|!${f.check.id}:${f.path}:${f.line}:${i}`,
          f,
          vscode.Uri.joinPath(this.folder.uri, ...f.path.split('/')),
        ),
      ),
    );
    const manual = countsOf(s).manual;
    if (manual) out.push(new ManualNode(`${this.id}|manual`, manual, this.folder, systemName(s.id), manualFocus(s)));
    const docs = systemDocs(this.report, s);
    out.push(
      new DocumentsNode(
        `${this.id}|docs`,
        docs.map((d) => new DocNode(`${this.id}|${d.relPath}`, this.folder, s, d.relPath, d.doc)),
      ),
    );
    return out;
  }
}

/** `Next action: <the next action>`: a click opens it in its file. */
class NextNode implements LedgerNode {
  constructor(
    readonly id: string,
    private readonly next: string,
    readonly target: OpenTarget,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const text = this.next.replace(/^\s*now\s*▶\s*/i, '');
    // The row without emphasis markers or link targets; its tooltip keeps the text as written (code spans in quotes).
    const t = vscode.l10n.t;
    const ti = new vscode.TreeItem(t('Next action: {0}', lineLabel(text)), vscode.TreeItemCollapsibleState.None);
    ti.id = this.id;
    const rel = vscode.workspace.asRelativePath(this.target.uri, false);
    describe(
      ti,
      nextTooltip(t, text, rel, this.target.line),
      spoken([t('Next action: {0}', text), placeName(t, rel, this.target.line)]),
    );
    ti.iconPath = new vscode.ThemeIcon('play', new vscode.ThemeColor('testing.iconPassed'));
    ti.contextValue = 'next';
    ti.command = openCommand(this.target);
    return ti;
  }

  getChildren(): LedgerNode[] {
    return [];
  }
}

/**
 * The manual items still to tick, a system's own or (at the folder's top) the session's, asked once for
 * every system: a click opens the checklist on the first of them (scrolled to it, its box focused).
 */
export class ManualNode implements LedgerNode {
  constructor(
    readonly id: string,
    private readonly n: number,
    private readonly folder: vscode.WorkspaceFolder,
    /** Whose items: a system's name, or the session's words. */
    private readonly whose: string,
    private readonly focus: ChecklistFocus | undefined,
    /** The session's row, at the folder's top: said beside its label, and when a tick is reset in its tooltip. */
    private readonly session?: { about: string; why?: string },
  ) {}

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const row = manualRow(t, this.n, this.whose, this.session);
    const ti = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    ti.id = this.id;
    // Beside the folder's systems, the row says whose items it counts.
    if (row.description) ti.description = row.description;
    describe(ti, row.tooltip, row.name);
    ti.iconPath = new vscode.ThemeIcon('checklist', new vscode.ThemeColor('list.warningForeground'));
    ti.contextValue = 'manual';
    ti.command = {
      command: 'sessionLedger.openChecklist',
      title: t('Open checklist'),
      arguments: manualRowArguments(this.folder.uri, this.focus),
    };
    return ti;
  }

  getChildren(): LedgerNode[] {
    return [];
  }
}

/** "Documents": the system's files, each once in the tree, with their sections and items. */
class DocumentsNode implements LedgerNode {
  constructor(
    readonly id: string,
    private readonly docs: DocNode[],
  ) {}

  getTreeItem(): vscode.TreeItem {
    const t = vscode.l10n.t;
    const ti = new vscode.TreeItem(t('Documents'), vscode.TreeItemCollapsibleState.Collapsed);
    ti.id = this.id;
    ti.description = String(this.docs.length);
    describe(ti, t('Documents') + '\n' + this.docs.map((d) => oneLine(d.relPath)).join('\n'));
    ti.iconPath = new vscode.ThemeIcon('files');
    ti.contextValue = 'documents';
    return ti;
  }

  getChildren(): LedgerNode[] {
    return this.docs;
  }
}
