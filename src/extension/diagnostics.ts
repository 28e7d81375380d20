/**
 * Findings in the Problems panel: every failing or warning check becomes a diagnostic on its file
 * and line (`source` "Session Ledger", `code` the check id linked to docs/reference.md's "What is
 * checked"), rebuilt from the store whenever a folder's report changes — so a finding disappears
 * as soon as the file is fixed. Reading only: it works in Restricted Mode too. Off with
 * `sessionLedger.diagnostics.enabled`.
 */
import * as vscode from 'vscode';
import { onDidChangeSettings, readSettings } from './config';
import { filesIn, reportFindings, lineRange, type Finding, type FindingLevel } from './pure/findings';
import { diagnosticMessage } from './pure/tree-text';
import type { LedgerStore } from './store';

export const DIAGNOSTIC_SOURCE = 'Session Ledger';

const SEVERITY: Record<FindingLevel, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** A diagnostic and the finding it shows (the quick fixes start from it). */
export interface PlacedFinding {
  folder: vscode.WorkspaceFolder;
  finding: Finding;
  uri: vscode.Uri;
  diagnostic: vscode.Diagnostic;
}

export class LedgerDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('sessionLedger');
  private byUri = new Map<string, PlacedFinding[]>();
  private readonly subs: vscode.Disposable[];
  private readonly docsUri: vscode.Uri;

  constructor(
    private readonly store: LedgerStore,
    extensionUri: vscode.Uri,
  ) {
    this.docsUri = vscode.Uri.joinPath(extensionUri, 'docs', 'reference.md').with({ fragment: 'what-is-checked' });
    this.subs = [store.onDidChange(() => this.update()), onDidChangeSettings(() => this.update())];
  }

  /** Rebuild every diagnostic from the store's reports. */
  update(): void {
    const t = vscode.l10n.t;
    const next = new Map<string, PlacedFinding[]>();
    for (const f of this.store.folders()) {
      if (!f.report || !readSettings(f.folder.uri).diagnosticsEnabled) continue;
      for (const finding of reportFindings(f.report, filesIn(f.folder.uri.fsPath))) {
        const uri = vscode.Uri.joinPath(f.folder.uri, ...finding.path.split('/'));
        const doc = finding.system.docs.find((d) => d.relPath === finding.path);
        const r = lineRange(doc?.text ?? '', finding.line);
        const range = new vscode.Range(r.line, r.start, r.line, r.end);
        const d = new vscode.Diagnostic(range, diagnosticMessage(t, finding), SEVERITY[finding.level]);
        d.source = DIAGNOSTIC_SOURCE;
        d.code = { value: finding.check.id, target: this.docsUri };
        const key = uri.toString();
        const list = next.get(key) ?? [];
        list.push({ folder: f.folder, finding, uri, diagnostic: d });
        next.set(key, list);
      }
    }
    for (const key of this.byUri.keys()) if (!next.has(key)) this.collection.delete(vscode.Uri.parse(key));
    const before = this.byUri;
    this.byUri = new Map();
    for (const [key, list] of next) {
      this.byUri.set(key, list);
      // A re-read under a busy agent mostly finds what was there: a file whose problems read the same is not sent again.
      const was = before.get(key);
      if (was && signature(was) === signature(list)) continue;
      this.collection.set(
        list[0].uri,
        list.map((p) => p.diagnostic),
      );
    }
  }

  /** The findings shown on a file whose diagnostics VS Code passes back (matched by code and line). */
  findingsFor(uri: vscode.Uri, diagnostics: readonly vscode.Diagnostic[]): PlacedFinding[] {
    const placed = this.byUri.get(uri.toString()) ?? [];
    const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code ?? ''));
    return placed.filter((p) =>
      diagnostics.some(
        (d) =>
          d.source === DIAGNOSTIC_SOURCE &&
          codeOf(d) === codeOf(p.diagnostic) &&
          d.range.start.line === p.diagnostic.range.start.line,
      ),
    );
  }

  /** Every finding on a file. */
  onFile(uri: vscode.Uri): PlacedFinding[] {
    return this.byUri.get(uri.toString()) ?? [];
  }

  /** What the Problems panel holds (the test API): file, line, severity, code, message. */
  snapshot(): Array<{ path: string; line: number; severity: FindingLevel; code: string; message: string }> {
    return [...this.byUri.values()].flat().map((p) => ({
      path: vscode.workspace.asRelativePath(p.uri, false),
      line: p.diagnostic.range.start.line + 1,
      severity: p.finding.level,
      code: String((p.diagnostic.code as { value: string }).value),
      message: p.diagnostic.message,
    }));
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.collection.dispose();
    this.byUri.clear();
  }
}

/** What the Problems panel shows of a file's diagnostics: range, severity, code and message of each. */
function signature(list: readonly PlacedFinding[]): string {
  return JSON.stringify(
    list.map(({ diagnostic: d }) => [
      d.range.start.line,
      d.range.start.character,
      d.range.end.character,
      d.severity,
      typeof d.code === 'object' ? d.code.value : d.code,
      d.message,
    ]),
  );
}
