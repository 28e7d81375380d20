/** Remove the guard hooks (Claude Code's settings files, Codex CLI's .codex/hooks.json): only Session Ledger's own entries, after a preview. */
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
import type { Services } from '../services';
import { requireTrust } from '../trust';
import { previewAndApply } from './hooks';
import { pickFolder } from './pick';

export const id = 'sessionLedger.removeHooks';

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  const t = quotedT(vscode.l10n.t);
  const state = await pickFolder(s, arg);
  if (!state) return;
  const { planHooksUninstall } = await import('../../core/hooks/install');
  const root = state.folder.uri.fsPath;
  const { removalChoices } = await import('../pure/hooks-dialog');
  const plans = removalChoices(
    await Promise.all([
      planHooksUninstall(root, { local: false }),
      planHooksUninstall(root, { local: true }),
      planHooksUninstall(root, { codex: true }),
    ]),
  );
  if (plans.length === 0) {
    void vscode.window.showInformationMessage(t('No Session Ledger hooks are installed in {0}.', state.folder.name));
    return;
  }
  let plan = plans[0];
  if (plans.length > 1) {
    const pick = await vscode.window.showQuickPick(
      plans.map((p) => ({ label: vscode.workspace.asRelativePath(p.settingsPath, false), plan: p })),
      { placeHolder: t('Remove the hooks from which settings file?') },
    );
    if (!pick) return;
    plan = pick.plan;
  }
  await previewAndApply(s, plan, state.folder, 'remove');
}
