/**
 * Quick fixes for the findings whose fix is mechanical. A fix that edits the open document is a
 * `WorkspaceEdit` the user sees and can undo; its edits come from the core (`fixes`, `compact-state`,
 * `git`), the whole-file one through the Refactor Preview. A fix that writes another file (S1's
 * sidecar, the Log archives, `.agents.yml`) runs a command instead, and the core's write action
 * writes, as the command line does: under the file's write lock, refused when a file changed since
 * it was read or is a link, and after a preview where it moves text. Which finding offers which fix,
 * and its title, come from the system's home (`core/systems/<sN>/fixes.ts`). Nothing is applied
 * unless the user picks it, and in Restricted Mode none is offered (the workspace writes nothing and
 * runs no git).
 */
import * as vscode from 'vscode';
import type { FixKind, LineEdit } from '../core/systems/fixes';
import { DIAGNOSTIC_SOURCE, type LedgerDiagnostics, type PlacedFinding } from './diagnostics';
import type { PreviewDocuments } from './preview';
import { errorText } from './pure/error-text';
import { requireTrust } from './trust';
import { fixOffersOf, notCompactedText, quotedT } from './pure/findings';
import { prunedText, rotatePreview } from './pure/write-previews';

/** The commands the quick fixes that write another file run (registered with the provider, not in the palette). */
const ATTEST_COMMAND = 'sessionLedger.quickFix.attest';
const ROTATE_LOG_COMMAND = 'sessionLedger.quickFix.rotateLog';

class FixAction extends vscode.CodeAction {
  constructor(
    title: string,
    readonly fix: FixKind,
    readonly placed: PlacedFinding,
    readonly document: vscode.TextDocument,
    /** The button that confirms the fix when it asks first (the system's home words it; the title is the question). */
    readonly confirm?: string,
  ) {
    super(title, vscode.CodeActionKind.QuickFix);
    this.diagnostics = [placed.diagnostic];
  }
}

/** A core line edit as a range replacement in the open document (a deletion takes its line break along). */
function toRange(doc: vscode.TextDocument, e: LineEdit): { range: vscode.Range; text: string } {
  const last = doc.lineCount - 1;
  const first = Math.min(e.line - 1, last);
  const end = Math.min(e.endLine - 1, last);
  if (e.lines.length)
    return {
      range: new vscode.Range(first, 0, end, doc.lineAt(end).text.length),
      text: e.lines.join(doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n'),
    };
  if (end < last) return { range: new vscode.Range(first, 0, end + 1, 0), text: '' };
  if (first > 0)
    return {
      range: new vscode.Range(first - 1, doc.lineAt(first - 1).text.length, end, doc.lineAt(end).text.length),
      text: '',
    };
  return { range: new vscode.Range(0, 0, end, doc.lineAt(end).text.length), text: '' };
}

function lineEdits(doc: vscode.TextDocument, edits: readonly LineEdit[], label: string): vscode.WorkspaceEdit {
  const we = new vscode.WorkspaceEdit();
  for (const e of edits) {
    const r = toRange(doc, e);
    we.replace(doc.uri, r.range, r.text, { label, needsConfirmation: false });
  }
  return we;
}

export class LedgerQuickFixes implements vscode.CodeActionProvider<FixAction> {
  static readonly metadata: vscode.CodeActionProviderMetadata = {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
  };

  constructor(
    private readonly diagnostics: LedgerDiagnostics,
    private readonly log: vscode.LogOutputChannel,
    private readonly previews: PreviewDocuments,
  ) {}

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, this, LedgerQuickFixes.metadata),
      vscode.commands.registerCommand(ATTEST_COMMAND, (a: FixAction) => this.run(a, () => this.attest(a))),
      vscode.commands.registerCommand(ROTATE_LOG_COMMAND, (a: FixAction) => this.run(a, () => this.rotateLog(a))),
    );
  }

  /** A fix's command: nothing in Restricted Mode; a refusal is logged and shown, and nothing was written. */
  private async run(a: FixAction, fix: () => Promise<void>): Promise<void> {
    if (!requireTrust()) return;
    try {
      await fix();
    } catch (err) {
      this.log.warn(`Quick fix ${a.fix}: ${(err as Error)?.message ?? String(err)}`);
      const t = quotedT(vscode.l10n.t);
      void vscode.window.showWarningMessage(t('Session Ledger: {0}', errorText(t, err)));
    }
  }

  /**
   * "Attest the handoff": the core writes the sidecar (atomically, under its lock, never through a
   * link), after the user confirms when it held another hash. Not a WorkspaceEdit: VS Code would
   * write the file through a link a repository planted.
   */
  private async attest(a: FixAction): Promise<void> {
    const t = quotedT(vscode.l10n.t);
    const f = a.placed.finding;
    if (a.document.isDirty)
      throw new Error(t('Save {0} first: the attestation is the hash of the file on disk.', f.path));
    const { attestFix } = await import('./pure/attest-fix');
    const confirm = async () => {
      // The button from S1's home; an offer that did not expect to ask is titled with the same words.
      const label = a.confirm ?? a.title;
      const detail = t('TAMPERED: the file changed after it was attested.');
      return (await vscode.window.showWarningMessage(a.title, { modal: true, detail }, label)) === label;
    };
    const r = await attestFix(a.placed.folder.uri.fsPath, f.system.home, confirm);
    if (r.kind === 'no-handoff') throw new Error(t('{0} cannot be read.', f.system.home));
    if (r.kind === 'written') this.log.info(`Attested ${r.plan.handoff}: ${r.plan.sidecar} = ${r.plan.hash}.`);
  }

  /**
   * "Rotate the Log": the move is shown in the diff editor (STATE.md before and after, secrets and
   * personal data masked on both sides: `rotatePreview`) and asked;
   * then the core moves it (`applyRotateLog`: under the Log's write lock, refused when STATE.md or an
   * archive changed since the plan, never through a link or into a file with a second hard link). Not
   * a WorkspaceEdit: VS Code would overwrite an archive another rotation changed meanwhile, and
   * follow a link planted at it while the preview was open.
   */
  private async rotateLog(a: FixAction): Promise<void> {
    const t = quotedT(vscode.l10n.t);
    const f = a.placed.finding;
    if (a.document.isDirty) throw new Error(t('Save {0} first: the Log is rotated from the file on disk.', f.path));
    const root = a.placed.folder.uri.fsPath;
    const { planRotateLog, applyRotateLog } = await import('../core/systems/s3/rotate-log');
    // A Log archive or log folder that links out of the workspace is refused here, before the preview.
    const plan = await planRotateLog(root);
    if (!plan || !plan.changed) throw new Error(t('No dated Log entry can move: the newest entry always stays.'));
    const sides = rotatePreview(t, plan);
    const ok = await this.previews.confirm({
      name: f.path,
      before: sides.before,
      after: sides.after,
      title: t('{0}: rotate the Log (preview)', f.path),
      question: t('Move the oldest Log entries out of {0}?', f.path),
      detail: sides.detail,
      confirmLabel: t('Rotate'),
    });
    if (!ok) return;
    await applyRotateLog(root, plan.hash);
    this.log.info(`Rotated the Log of ${plan.path}: ${plan.moves.length} entries moved.`);
  }

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): FixAction[] {
    if (!vscode.workspace.isTrusted) return [];
    const t = quotedT(vscode.l10n.t);
    const out: FixAction[] = [];
    const placed = this.diagnostics.findingsFor(document.uri, context.diagnostics);
    if (!placed.length && context.diagnostics.some((d) => d.source === DIAGNOSTIC_SOURCE))
      this.log.debug(`Quick fixes: no current finding matches the diagnostics passed for ${document.uri.fsPath}.`);
    for (const p of placed) {
      for (const offer of fixOffersOf(p.finding)) {
        // A quick fix's title is plain text (the light bulb's menu, the attest dialog): code spans in quotes.
        const a = new FixAction(
          t(offer.title.id, ...offer.title.args),
          offer.kind,
          p,
          document,
          offer.confirm && t(offer.confirm.id, ...offer.confirm.args),
        );
        a.isPreferred = offer.kind === 'timestamp' || offer.kind === 'branch-head';
        // A fix that writes another file (or creates it) runs its command: preview, confirm, a refused stale write.
        if (offer.kind === 'enable-ledger')
          a.command = { command: 'sessionLedger.enableLedger', title: a.title, arguments: [p.folder.uri] };
        // S1's sidecar and the Log archives: the core writes them, never through a link.
        if (offer.kind === 'attest') a.command = { command: ATTEST_COMMAND, title: a.title, arguments: [a] };
        if (offer.kind === 'rotate-log') a.command = { command: ROTATE_LOG_COMMAND, title: a.title, arguments: [a] };
        out.push(a);
      }
    }
    return out;
  }

  async resolveCodeAction(a: FixAction): Promise<FixAction> {
    if (a.command) return a;
    try {
      a.edit = await this.editFor(a);
    } catch (err) {
      this.log.warn(`Quick fix ${a.fix}: ${(err as Error)?.message ?? String(err)}`);
      const t = quotedT(vscode.l10n.t);
      void vscode.window.showWarningMessage(t('Session Ledger: {0}', errorText(t, err)));
    }
    return a;
  }

  private async editFor(a: FixAction): Promise<vscode.WorkspaceEdit | undefined> {
    const t = quotedT(vscode.l10n.t);
    const doc = a.document;
    const root = a.placed.folder.uri.fsPath;
    const f = a.placed.finding;
    const label = a.title;
    const fixes = await import('../core/systems/fixes');
    switch (a.fix) {
      case 'timestamp':
        return lineEdits(
          doc,
          [fixes.timestampFix(doc.getText(), f.line, new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'))],
          label,
        );
      case 'delete-stale-line':
        return lineEdits(doc, [fixes.deleteLines(f.line)], label);
      case 'delete-done': {
        // A finished section goes whole (heading to its last line); a finished item, its line.
        const sec = f.system.docs
          .find((d) => d.relPath === f.path)
          ?.sections.find((s) => s.line === f.line && s.level > 0);
        return lineEdits(doc, [fixes.deleteLines(f.line, sec ? sec.endLine : f.line)], label);
      }
      case 'branch-head': {
        const { readGit } = await import('../core/git/git');
        const g = await readGit(root);
        if (!g) throw new Error(t('git gave no branch or HEAD for {0}.', a.placed.folder.name));
        const edits = fixes.branchHeadFix(doc.getText(), { branch: g.branch, head: g.head });
        if (!edits.length) throw new Error(t('Branch / HEAD already match git, or none is written in the handoff.'));
        return lineEdits(doc, edits, label);
      }
      case 'compact': {
        if (doc.isDirty) throw new Error(t('Save {0} first: the compaction starts from the file on disk.', f.path));
        const { planCompactState } = await import('../core/systems/s4/compact-state');
        const plan = await planCompactState(root);
        if (!plan || !plan.changed) throw new Error(t('{0} is already compact: one block of each kind.', f.path));
        if (!plan.structureOk) throw new Error(notCompactedText(t, plan.headings));
        if (plan.before !== doc.getText())
          throw new Error(t('{0} changed since it was read; nothing was written. Try again.', f.path));
        const we = new vscode.WorkspaceEdit();
        we.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), plan.after, {
          label,
          needsConfirmation: true,
          description: prunedText(t, plan.prunedBlocks.length),
        });
        return we;
      }
      case 'enable-ledger':
      case 'attest':
      case 'rotate-log':
        // These run their command (provideCodeActions gives them one, not an edit).
        return undefined;
    }
  }
}
