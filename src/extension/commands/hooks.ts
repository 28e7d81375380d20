/**
 * The shared flow of the hook commands: plan (core), preview the settings change as a diff (both sides
 * with secrets and personal data masked, `shownSettings`: a settings file may hold an API key), confirm,
 * apply (core), which writes the file's own bytes.
 */
import * as vscode from 'vscode';
import type { HooksPlan } from '../../core/hooks/install';
import { errorText, hooksProblemText } from '../pure/error-text';
import type { Services } from '../services';

/** The extension's own hook script build, which the installer copies to .claude/hooks/session-ledger.cjs (Codex: .codex/hooks/). */
export function cliBundle(s: Services): string {
  return vscode.Uri.joinPath(s.context.extensionUri, 'dist', 'session-ledger.cjs').fsPath;
}

export async function previewAndApply(
  s: Services,
  plan: HooksPlan,
  folder: vscode.WorkspaceFolder,
  verb: 'install' | 'remove',
  /** What to say once installed, for the settings file's relative path (default: the guard is on). */
  installed?: (rel: string) => string,
): Promise<boolean> {
  const t = vscode.l10n.t;
  // Restricted Mode writes nothing (the commands that call this have said so already).
  if (!vscode.workspace.isTrusted) return false;
  if (plan.error) {
    void vscode.window.showErrorMessage(
      hooksProblemText(t, vscode.workspace.asRelativePath(plan.settingsPath, false), plan.problem, plan.error),
    );
    return false;
  }
  if (!plan.changed) {
    void vscode.window.showInformationMessage(
      verb === 'install'
        ? t('The guard hooks are already installed in {0}.', plan.settingsPath)
        : t('No Session Ledger hooks to remove in {0}.', plan.settingsPath),
    );
    return verb === 'install';
  }
  const rel = vscode.workspace.asRelativePath(plan.settingsPath, false);
  const details: string[] = [];
  if (plan.script === 'write')
    details.push(t('Copies the hook script to {0}.', vscode.workspace.asRelativePath(plan.scriptPath, false)));
  if (plan.script === 'remove')
    details.push(t('Removes {0}.', vscode.workspace.asRelativePath(plan.scriptPath, false)));
  if (plan.deleteSettings) details.push(t('{0} holds nothing else and is removed.', rel));
  details.push(...plan.notes);
  const label = verb === 'install' ? t('Install') : t('Remove');
  const { shownSettings } = await import('../../core/hooks/install');
  const shown = shownSettings(plan);
  const ok = await s.previews.confirm({
    name: rel,
    before: shown.before,
    after: shown.after,
    title:
      verb === 'install'
        ? t('{0}: install the guard hooks (preview)', rel)
        : t('{0}: remove the guard hooks (preview)', rel),
    question:
      verb === 'install'
        ? t('Install the Session Ledger guard hooks in {0}?', rel)
        : t('Remove the Session Ledger guard hooks from {0}?', rel),
    detail: details.join('\n'),
    confirmLabel: label,
  });
  if (!ok) return false;
  try {
    const { applyHooksPlan } = await import('../../core/hooks/install');
    await applyHooksPlan(plan, { cliBundle: cliBundle(s) });
    s.log.info(`Hooks ${verb}: ${plan.settingsPath}`);
    void vscode.window.showInformationMessage(
      verb === 'install'
        ? (installed?.(rel) ?? t('Guard hooks installed in {0}. /compact now asks for a checkpoint first.', rel))
        : t('Guard hooks removed from {0}.', rel),
    );
  } catch (err) {
    void vscode.window.showErrorMessage(t('Nothing was changed: {0}', errorText(t, err)));
    void s.store.scan(folder);
    return false;
  }
  void s.store.scan(folder);
  return true;
}
