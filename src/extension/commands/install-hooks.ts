/**
 * Install the guard hooks (PreCompact guard + SessionStart resume block) for Claude Code, Codex CLI or
 * both, each after its own preview; for Claude Code also the status line relay and the UserPromptSubmit
 * reminder when chosen (off by default). The questions are one flow of quick picks under the command's
 * title, each with its step (./steps); Escape at any of them installs nothing.
 */
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
import type { Services } from '../services';
import { requireTrust } from '../trust';
import { cliBundle, previewAndApply } from './hooks';
import { folderItems, folderOrChoices } from './pick';
import { askSteps } from './steps';
import type { FolderState } from '../store';
import { readSettings } from '../config';

export const id = 'sessionLedger.installHooks';

type Row<T> = vscode.QuickPickItem & T;
/** The user's answers: the folder (when there are several to choose from), the agent, and for Claude Code its three choices. */
type Answers = {
  folder: Row<{ state: FolderState }>;
  client: Row<{ claude: boolean; codex: boolean }>;
  where: Row<{ local: boolean }>;
  relay: Row<{ statusline: boolean }>;
  remind: Row<{ remind: boolean }>;
};

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  const t = quotedT(vscode.l10n.t);
  const found = folderOrChoices(s, arg);
  if (!found) return;
  const choices = Array.isArray(found) ? found : [];
  // Claude Code's questions, asked unless Codex CLI alone was chosen.
  const claude = (a: Partial<Answers>) => a.client?.claude !== false;
  const a = await askSteps<Answers>(t('Install guard hooks'), {
    folder: {
      placeHolder: t('Choose a workspace folder'),
      items: folderItems(choices),
      shown: () => choices.length > 0,
    },
    client: {
      placeHolder: t('Install the guard hooks for which agent?'),
      items: [
        { label: 'Claude Code', description: '.claude/settings.json', claude: true, codex: false },
        { label: 'Codex CLI', description: '.codex/hooks.json', claude: false, codex: true },
        { label: t('Claude Code and Codex CLI'), claude: true, codex: true },
      ],
    },
    where: {
      placeHolder: t('Where should the hooks be configured?'),
      items: [
        { label: '.claude/settings.json', description: t('shared with the team (committed)'), local: false },
        { label: '.claude/settings.local.json', description: t('only on this machine (not committed)'), local: true },
      ],
      shown: claude,
    },
    relay: {
      placeHolder: t('Also relay the context figure from the status line?'),
      items: [
        { label: t('Hooks only'), statusline: false },
        {
          label: t("Hooks and Claude Code's status line relay"),
          detail: t("Records Claude Code's own context figure for the meter (keeps an existing status line command)."),
          statusline: true,
        },
      ],
      shown: claude,
    },
    // Off by default: the first item is no reminder.
    remind: {
      placeHolder: t('Remind the agent to checkpoint when the context crosses a mark?'),
      items: [
        { label: t('No reminder'), remind: false },
        {
          label: t('Also remind the agent at the context marks'),
          detail: t(
            "Before a prompt, once the context crosses a detected system's mark, Claude Code adds one line for the agent: which system, which mark, its checkpoint command. It only suggests.",
          ),
          remind: true,
        },
      ],
      shown: claude,
    },
  });
  // Cancelled: nothing is written.
  if (!a?.client) return;
  const state = a.folder?.state ?? (Array.isArray(found) ? undefined : found);
  if (!state) return;
  if (a.client.claude && a.where && a.relay && a.remind)
    await installClaude(s, state, { local: a.where.local, statusline: a.relay.statusline, remind: a.remind.remind });
  if (a.client.codex) await installCodex(s, state);
}

/** Codex CLI: `.codex/hooks.json` (no choices: one file, no status line relay, no reminder); then what Codex needs before it runs them. */
async function installCodex(s: Services, state: FolderState): Promise<void> {
  const t = quotedT(vscode.l10n.t);
  const { planHooksInstall } = await import('../../core/hooks/install');
  const plan = await planHooksInstall(state.folder.uri.fsPath, { codex: true, cliBundle: cliBundle(s) });
  const { codexInstalledText } = await import('../pure/hooks-dialog');
  // What Codex needs before it runs them is said once, in the notice after the install (the dialog leaves it out).
  await previewAndApply(s, plan, state.folder, 'install', (rel) => codexInstalledText(plan, t, rel));
}

/** Claude Code: the settings file chosen, with the status line relay and the reminder when chosen. */
async function installClaude(
  s: Services,
  state: FolderState,
  choice: { local: boolean; statusline: boolean; remind: boolean },
): Promise<void> {
  const { planHooksInstall } = await import('../../core/hooks/install');
  const plan = await planHooksInstall(state.folder.uri.fsPath, {
    ...choice,
    cliBundle: cliBundle(s),
    claudeHome: readSettings(state.folder.uri).claudeHome,
  });
  await previewAndApply(s, plan, state.folder, 'install');
}
