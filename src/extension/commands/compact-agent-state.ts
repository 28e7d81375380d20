/**
 * Compact S4 checkpointing (.agents/STATE.md): keep the newest Current Project / Feature / Bug Fix block of each kind,
 * everything else verbatim (core `planCompactState`). The change opens in the diff editor, both sides
 * with secrets and personal data masked (`compactPreview`); only after the user confirms does the core
 * write it, the file's own bytes, pinned to the hash that was previewed.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { requireTrust } from '../trust';
import { errorText } from '../pure/error-text';
import { notCompactedText, quotedT } from '../pure/findings';
import { compactedText, compactPreview } from '../pure/write-previews';
import { pickFolder } from './pick';
import { said } from '../pure/checkpoint-text';
import { factsOf } from '../../core/systems/facts';
import type { SystemId } from '../../core/model/model';

/** The write action this command runs (declared in its system's facts). */
const COMPACT = 'compact-state';

/** Whether system `id`'s home declares this command's write action (S4's compact phase). */
export const offersCompactState = (id: SystemId): boolean => !!factsOf(id).commands?.[COMPACT];

export const id = 'sessionLedger.compactAgentState';

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  const t = quotedT(vscode.l10n.t);
  await s.store.ready;
  // The folders where a system with this write action (S4's compact phase) is present.
  const withIt = s.store.folders().filter((f) => f.report?.systems.some((x) => offersCompactState(x.id)));
  const state = withIt.length === 1 && !arg ? withIt[0] : await pickFolder(s, arg, { withSystems: true });
  if (!state) return;
  const { planCompactState, applyCompactState, NO_STATE } = await import('../../core/systems/s4/compact-state');
  let plan;
  try {
    plan = await planCompactState(state.folder.uri.fsPath);
  } catch (err) {
    // A state file with more than one hard link is refused before any preview.
    void vscode.window.showErrorMessage(t('Not compacted: {0}', errorText(t, err)));
    return;
  }
  if (!plan) {
    void vscode.window.showInformationMessage(said(NO_STATE, t));
    return;
  }
  const rel = vscode.workspace.asRelativePath(plan.path, false);
  if (!plan.changed) {
    void vscode.window.showInformationMessage(t('{0} is already compact: one block of each kind.', rel));
    return;
  }
  if (!plan.structureOk) {
    void vscode.window.showErrorMessage(notCompactedText(t, plan.headings));
    return;
  }
  const sides = compactPreview(t, plan);
  const ok = await s.previews.confirm({
    name: rel,
    before: sides.before,
    after: sides.after,
    title: t('{0}: compact the working blocks (preview)', rel),
    question: t('Replace {0} with the compacted version?', rel),
    detail: sides.detail,
    confirmLabel: t('Compact'),
  });
  if (!ok) return;
  try {
    await applyCompactState(state.folder.uri.fsPath, plan.hash);
    const n = plan.prunedBlocks.length;
    s.log.info(`Compacted ${plan.path}: ${n === 1 ? '1 block' : `${n} blocks`} removed.`);
    void vscode.window.showInformationMessage(compactedText(t, rel, n));
  } catch (err) {
    void vscode.window.showErrorMessage(t('Not compacted: {0}', errorText(t, err)));
  }
  void s.store.scan(state.folder);
}
