/**
 * Read-only previews for write commands: a TextDocumentContentProvider on its own scheme holds both
 * sides of the diff, the texts the core shows (a state or settings file with its secrets and personal
 * data masked), never the file on disk beside them; the user confirms in a modal.
 */
import * as vscode from 'vscode';

export const PREVIEW_SCHEME = 'session-ledger-preview';

export class PreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private seq = 0;

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  /** A read-only document holding `content`, named like the file it previews. */
  put(name: string, content: string, side: 'before' | 'after'): vscode.Uri {
    const base = name.replace(/^\/+/, '');
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${side}/${base}`, query: String(++this.seq) });
    this.docs.set(uri.toString(), content);
    this._onDidChange.fire(uri);
    return uri;
  }

  /**
   * Show `before` (empty when the file is created) against `after` in the diff editor, then ask.
   * Returns true when the user confirmed with `confirmLabel`. The preview tab is closed afterwards.
   */
  async confirm(opts: {
    name: string;
    before: string | null;
    after: string;
    title: string;
    question: string;
    detail?: string;
    confirmLabel: string;
  }): Promise<boolean> {
    const left = this.put(opts.name, opts.before ?? '', 'before');
    const right = this.put(opts.name, opts.after, 'after');
    await vscode.commands.executeCommand('vscode.diff', left, right, opts.title, { preview: true });
    const pick = await vscode.window.showInformationMessage(
      opts.question,
      { modal: true, detail: opts.detail },
      opts.confirmLabel,
    );
    await this.close(right, left);
    return pick === opts.confirmLabel;
  }

  private async close(right: vscode.Uri, left: vscode.Uri): Promise<void> {
    const key = right.toString();
    for (const g of vscode.window.tabGroups.all) {
      for (const tab of g.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputTextDiff && input.modified.toString() === key)
          await vscode.window.tabGroups.close(tab);
      }
    }
    // Drop both sides' content once nobody shows them.
    setTimeout(() => {
      this.docs.delete(key);
      this.docs.delete(left.toString());
    }, 60_000);
  }

  dispose(): void {
    this._onDidChange.dispose();
    this.docs.clear();
  }
}
