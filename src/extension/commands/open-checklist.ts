/**
 * Open checklist: the checks of a folder in the checklist webview. A second argument naming a check
 * (the tree's manual row names its first item to tick) opens it there: scrolled to, its box focused.
 */
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
import type { Services } from '../services';
import { focusOfArgument } from '../pure/checklist-model';
import { pickFolder } from './pick';

export const id = 'sessionLedger.openChecklist';

export async function run(s: Services, arg?: unknown, focus?: unknown): Promise<void> {
  const t = quotedT(vscode.l10n.t);
  await s.store.ready;
  const state = await pickFolder(s, arg, { withSystems: true });
  if (!state) {
    void vscode.window.showInformationMessage(t('Open a folder to see its checklist.'));
    return;
  }
  // Opened by the user: the boxes are the ticks of the session the status bar follows.
  s.checklist.show(state, focusOfArgument(focus), 'follow');
}
