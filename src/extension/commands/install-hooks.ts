/** Install Claude Code guard hooks (PreCompact guard + SessionStart resume block; the UserPromptSubmit reminder when chosen, off by default), after a preview. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { requireTrust } from '../trust';
import { cliBundle, previewAndApply } from './hooks';
import { pickFolder } from './pick';

export const id = 'sessionLedger.installHooks';

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  const t = vscode.l10n.t;
  const state = await pickFolder(s, arg);
  if (!state) return;
  const where = await vscode.window.showQuickPick(
    [
      { label: '.claude/settings.json', description: t('shared with the team (committed)'), local: false },
      { label: '.claude/settings.local.json', description: t('only on this machine (not committed)'), local: true },
    ],
    { placeHolder: t('Where should the hooks be configured?'), ignoreFocusOut: true },
  );
  if (!where) return;
  // two steps of one choice: a click elsewhere (or a walkthrough step taking the focus) keeps them open; Escape cancels
  const relay = await vscode.window.showQuickPick(
    [
      { label: t('Hooks only'), statusline: false },
      {
        label: t("Hooks and Claude Code's status line relay"),
        detail: t("Records Claude Code's own context figure for the meter (keeps an existing status line command)."),
        statusline: true,
      },
    ],
    { placeHolder: t('Also relay the context figure from the status line?'), ignoreFocusOut: true },
  );
  if (!relay) return;
  // Off by default: the first item is no reminder.
  const remind = await vscode.window.showQuickPick(
    [
      { label: t('No reminder'), remind: false },
      {
        label: t('Also remind the agent at the context marks'),
        detail: t(
          "Before a prompt, once the context crosses a detected system's mark, Claude Code adds one line for the agent: which system, which mark, its checkpoint command. It only suggests.",
        ),
        remind: true,
      },
    ],
    { placeHolder: t('Remind the agent to checkpoint when the context crosses a mark?'), ignoreFocusOut: true },
  );
  if (!remind) return;
  const { planHooksInstall } = await import('../../core/hooks/install');
  const plan = await planHooksInstall(state.folder.uri.fsPath, {
    local: where.local,
    statusline: relay.statusline,
    remind: remind.remind,
    cliBundle: cliBundle(s),
  });
  await previewAndApply(s, plan, state.folder, 'install');
}
