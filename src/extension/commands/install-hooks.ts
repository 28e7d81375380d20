/**
 * Install the guard hooks (PreCompact guard + SessionStart resume block) for Claude Code, Codex CLI or
 * both, each after its own preview; for Claude Code also the status line relay and the UserPromptSubmit
 * reminder when chosen (off by default).
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { requireTrust } from '../trust';
import { cliBundle, previewAndApply } from './hooks';
import { pickFolder } from './pick';
import type { FolderState } from '../store';
import { readSettings } from '../config';

export const id = 'sessionLedger.installHooks';

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  const t = vscode.l10n.t;
  const state = await pickFolder(s, arg);
  if (!state) return;
  const client = await vscode.window.showQuickPick(
    [
      { label: 'Claude Code', description: '.claude/settings.json', claude: true, codex: false },
      { label: 'Codex CLI', description: '.codex/hooks.json', claude: false, codex: true },
      { label: t('Claude Code and Codex CLI'), claude: true, codex: true },
    ],
    { placeHolder: t('Install the guard hooks for which agent?'), ignoreFocusOut: true },
  );
  if (!client) return;
  if (client.claude && !(await installClaude(s, state))) return;
  if (client.codex) await installCodex(s, state);
}

/** Codex CLI: `.codex/hooks.json` (no choices: one file, no status line relay, no reminder); then what Codex needs before it runs them. */
async function installCodex(s: Services, state: FolderState): Promise<void> {
  const t = vscode.l10n.t;
  const { planHooksInstall } = await import('../../core/hooks/install');
  const plan = await planHooksInstall(state.folder.uri.fsPath, { codex: true, cliBundle: cliBundle(s) });
  // Said once, when installed: until Codex trusts them the hooks guard nothing.
  plan.notes = plan.notes.filter((n) => n.kind !== 'codex-trust');
  await previewAndApply(s, plan, state.folder, 'install', (rel) =>
    t(
      'Guard hooks installed in {0}. Codex runs them only once you trust them: start codex in this folder, choose "Trust and continue" for the folder, then "Trust all and continue" when it says "Hooks need review" (or review the two one by one; /hooks lists them any time). Until then Codex skips them without a word.',
      rel,
    ),
  );
}

/** Claude Code: which settings file, the status line relay, the reminder; false when the user cancelled a choice. */
async function installClaude(s: Services, state: FolderState): Promise<boolean> {
  const t = vscode.l10n.t;
  const where = await vscode.window.showQuickPick(
    [
      { label: '.claude/settings.json', description: t('shared with the team (committed)'), local: false },
      { label: '.claude/settings.local.json', description: t('only on this machine (not committed)'), local: true },
    ],
    { placeHolder: t('Where should the hooks be configured?'), ignoreFocusOut: true },
  );
  if (!where) return false;
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
  if (!relay) return false;
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
  if (!remind) return false;
  const { planHooksInstall } = await import('../../core/hooks/install');
  const plan = await planHooksInstall(state.folder.uri.fsPath, {
    local: where.local,
    statusline: relay.statusline,
    remind: remind.remind,
    cliBundle: cliBundle(s),
    claudeHome: readSettings(state.folder.uri).claudeHome,
  });
  await previewAndApply(s, plan, state.folder, 'install');
  return true;
}
