/**
 * The shared flow of the hook commands: plan (core), preview the change as a diff (both sides with
 * secrets and personal data masked, `shownChange`: a settings file may hold an API key) with every change
 * the plan makes said in the dialog (`hooksDialog`), confirm, apply (core), which writes the file's own bytes.
 */
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
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
  const t = quotedT(vscode.l10n.t);
  // Restricted Mode writes nothing (the commands that call this have said so already).
  if (!vscode.workspace.isTrusted) return false;
  if (plan.error) {
    void vscode.window.showErrorMessage(
      hooksProblemText(t, vscode.workspace.asRelativePath(plan.settingsPath, false), plan.problem, plan.error),
    );
    return false;
  }
  // Every change the plan makes, in the words of the CLI's dry run, and the file it changes previewed.
  // Loaded when asked, as the core's install module is: activation compiles none of it.
  const { hooksDialog, notesSaid, removedText } = await import('../pure/hooks-dialog');
  if (!plan.changed) {
    if (verb === 'remove') {
      void vscode.window.showInformationMessage(t('No Session Ledger hooks to remove in {0}.', plan.settingsPath));
      return false;
    }
    // What still keeps the installed hooks from doing their work (a status line that hides the relay) is said too.
    const already = t('The guard hooks are already installed in {0}.', plan.settingsPath);
    const notes = notesSaid(plan, t, true);
    if (notes.length) void vscode.window.showWarningMessage([already, ...notes].join(' '));
    else void vscode.window.showInformationMessage(already);
    return true;
  }
  const dialog = hooksDialog(plan, t);
  const ok = await s.previews.confirm({
    ...dialog,
    confirmLabel: verb === 'install' ? t('Install') : t('Remove'),
  });
  if (!ok) return false;
  try {
    const { applyHooksPlan } = await import('../../core/hooks/install');
    await applyHooksPlan(plan, { cliBundle: cliBundle(s) });
    s.log.info(`Hooks ${verb}: ${plan.settingsPath}`);
    const rel = vscode.workspace.asRelativePath(plan.settingsPath, false);
    // Installed, but a setting of Claude Code's own keeps the guard from running: no "/compact now asks".
    const off = notesSaid(plan, t, true, ['hooks-off']);
    if (verb === 'install' && off.length)
      void vscode.window.showWarningMessage([t('Guard hooks installed in {0}.', rel), ...off].join(' '));
    else
      void vscode.window.showInformationMessage(
        verb === 'install'
          ? (installed?.(rel) ?? t('Guard hooks installed in {0}. /compact now asks for a checkpoint first.', rel))
          : removedText(plan, t),
      );
    // Installed, but the relay does not run: said apart from the dialog, which the user may have skimmed.
    for (const hidden of notesSaid(plan, t, true, ['relay-hidden', 'relay-off']))
      void vscode.window.showWarningMessage(hidden);
  } catch (err) {
    void vscode.window.showErrorMessage(t('Nothing was changed: {0}', errorText(t, err)));
    void s.store.scan(folder);
    return false;
  }
  void s.store.scan(folder);
  return true;
}
