/** Open state file: at a tree node's line, or the home file the user picks. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { OpenTarget } from '../tree/node';
import { quotedT, systemLabel } from '../pure/findings';
import { roleText } from '../pure/tree-text';

export const id = 'sessionLedger.openStateFile';

function targetOf(arg: unknown): OpenTarget | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as Partial<OpenTarget> & { target?: OpenTarget };
  if (a.uri instanceof vscode.Uri) return { uri: a.uri, line: typeof a.line === 'number' ? a.line : 1 };
  if (a.target && a.target.uri instanceof vscode.Uri) return a.target;
  return undefined;
}

export async function openAt(target: OpenTarget): Promise<void> {
  const line = Math.max(0, target.line - 1);
  const pos = new vscode.Position(line, 0);
  await vscode.window.showTextDocument(target.uri, { selection: new vscode.Range(pos, pos), preview: true });
}

export async function run(s: Services, arg?: unknown): Promise<void> {
  const t = quotedT(vscode.l10n.t);
  const direct = targetOf(arg);
  if (direct) return openAt(direct);
  const items: Array<vscode.QuickPickItem & { target: OpenTarget }> = [];
  const multi = s.store.folders().length > 1;
  for (const f of s.store.folders()) {
    for (const sys of f.report?.systems ?? []) {
      for (const d of sys.docs) {
        items.push({
          label: d.relPath,
          description: `${systemLabel(sys)}${multi ? ` · ${f.folder.name}` : ''}`,
          detail: d.relPath === sys.home ? t('home file') : roleText(t, d.role),
          target: { uri: vscode.Uri.joinPath(f.folder.uri, ...d.relPath.split('/')), line: 1 },
        });
      }
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(t('No state file detected in this workspace.'));
    return;
  }
  const pick =
    items.length === 1
      ? items[0]
      : await vscode.window.showQuickPick(items, { placeHolder: t('Open which state file?') });
  if (pick) await openAt(pick.target);
}
