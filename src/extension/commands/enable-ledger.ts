/**
 * Enable the ledger: a system switched off by its own configuration (S0 without `session.ledger:
 * true` in `.agents.yml`) is switched on by its home's write action. The change opens in the diff
 * editor, both sides with secrets masked; only after the user confirms does the core write it, refused when the file changed since
 * the preview, atomically and never through a link. Restricted Mode writes nothing.
 */
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
import type { Services } from '../services';
import { requireTrust } from '../trust';
import { errorText } from '../pure/error-text';
import { said } from '../pure/checkpoint-text';
import { pickFolder } from './pick';

export const id = 'sessionLedger.enableLedger';

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  const t = quotedT(vscode.l10n.t);
  await s.store.ready;
  const state = await pickFolder(s, arg, { withSystems: true });
  if (!state) return;
  const root = state.folder.uri.fsPath;
  const { planEnableLedger, applyEnableLedger } = await import('../../core/systems/s0/enable');
  const o = await planEnableLedger(root);
  if (!o.ok) {
    void vscode.window.showErrorMessage(said(o.why, t));
    return;
  }
  const plan = o.plan;
  if (!plan.already) {
    // Both sides masked (`shown`): the file on disk would show its secrets, and each masked line as a change.
    const ok = await s.previews.confirm({
      name: plan.rel,
      before: plan.created ? null : plan.shown.before,
      after: plan.shown.after,
      title: t('{0}: enable the ledger (preview)', plan.rel),
      question: said(plan.question, t),
      detail: said(plan.detail, t),
      confirmLabel: t('Enable'),
    });
    if (!ok) return;
    try {
      await applyEnableLedger(root, plan);
      s.log.info(`Enabled the ledger in ${plan.path}.`);
    } catch (err) {
      void vscode.window.showErrorMessage(t('Not enabled: {0}', errorText(t, err)));
      return;
    }
  }
  void s.store.scan(state.folder);
}
