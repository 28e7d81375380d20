/**
 * The guard-hooks commands' dialog for a plan, in the user's language: the preview's file and its two
 * sides, the question, and as its detail every change the plan makes in the core's words (`planSaid`,
 * the sentences of the CLI's dry run) with the plan's notes (`noteSaid`, naming the extension's own
 * commands where the CLI names its). A plan that leaves the settings file as it
 * is asks about, and previews, what it does change. vscode-free; `t` is vscode.l10n.t.
 */
import { changesSettings, relOf, shownChange, type HooksNote, type HooksPlan } from '../../core/hooks/install';
import { noteSaid, notesToSay, planSaid, type HookCommands } from '../../core/hooks/install-words';
import { render } from '../../core/model/messages';
import type { T } from './tree-text';

export interface HooksDialog {
  /** The file the preview shows (relative to the folder) and its two sides, as the core shows them. */
  name: string;
  before: string | null;
  after: string;
  title: string;
  question: string;
  detail: string;
}

/** The files a plan writes, edits or removes, relative to the folder. */
function changedFiles(plan: HooksPlan): string[] {
  const out: string[] = [];
  if (changesSettings(plan)) out.push(plan.settingsPath);
  const touched = plan.action === 'install' ? 'write' : 'remove';
  if (plan.script === touched) out.push(plan.scriptPath);
  if (plan.statuslineScript === touched) out.push(plan.statuslinePath);
  if (plan.gitignore) out.push(plan.gitignore.path);
  return out.map((f) => relOf(plan, f));
}

/** The extension's own commands, where the command-line tool's sentences name `hooks install` and `hooks uninstall`. */
function extensionCommands(t: T): HookCommands {
  return {
    install: t('"Install guard hooks"'),
    uninstall: t('"Remove guard hooks"'),
    installLocal: t('"Install guard hooks" with .claude/settings.local.json and the status line relay'),
  };
}

/**
 * The plan's notes in the user's language, naming the extension's commands: what was done (`done`), or
 * what would be (the dialog, which leaves what Codex needs to the notice after the install: `notesToSay`);
 * only those of the `kinds` given, if any.
 */
export function notesSaid(plan: HooksPlan, t: T, done: boolean, kinds?: readonly HooksNote['kind'][]): string[] {
  const commands = extensionCommands(t);
  return notesToSay(plan, done)
    .filter((n) => !kinds || kinds.includes(n.kind))
    .map((n) => render(noteSaid(n, commands, done), t));
}

/** The notice once Codex's hooks are installed in `rel`: that, and what Codex needs before it runs them. */
export function codexInstalledText(plan: HooksPlan, t: T, rel: string): string {
  return [t('Guard hooks installed in {0}.', rel), ...notesSaid(plan, t, true, ['codex-trust'])].join(' ');
}

/** The dialog for `plan`: an install plan's or an uninstall plan's (`plan.action`). */
export function hooksDialog(plan: HooksPlan, t: T): HooksDialog {
  const install = plan.action === 'install';
  const shown = shownChange(plan);
  const rel = relOf(plan, plan.settingsPath);
  const settings = changesSettings(plan);
  const lines = [...planSaid(plan, false).map((m) => render(m, t)), ...notesSaid(plan, t, false)];
  return {
    name: shown.rel,
    before: shown.before,
    after: shown.after,
    title: install
      ? t('{0}: install the guard hooks (preview)', shown.rel)
      : t('{0}: remove the guard hooks (preview)', shown.rel),
    question: install
      ? t('Install the Session Ledger guard hooks in {0}?', rel)
      : settings
        ? t('Remove the Session Ledger guard hooks from {0}?', rel)
        : t('Remove what the Session Ledger guard hooks left in {0}?', changedFiles(plan).join(', ')),
    detail: lines.join('\n'),
  };
}

/** What to say once a removal is done: the hooks gone from the settings file, or what was removed instead. */
export function removedText(plan: HooksPlan, t: T): string {
  return changesSettings(plan)
    ? t('Guard hooks removed from {0}.', relOf(plan, plan.settingsPath))
    : planSaid(plan, true)
        .map((m) => render(m, t))
        .join(' ');
}

/**
 * The uninstall plans to choose from, of those of each hook file (Claude Code's two settings files,
 * Codex's): the ones that take hooks out of their file, or cannot be carried out (not the one that only
 * says the hooks are in the other settings file). When none does, every
 * plan changes only what the hook files share (`.gitignore`, a script no settings file runs any more):
 * one of them, not a choice between files that hold no hooks.
 */
export function removalChoices(plans: readonly HooksPlan[]): HooksPlan[] {
  // A settings file whose only problem is that the hooks are in the other one is no choice: that one is.
  const withHooks = plans.filter(
    (p) => (p.error && p.problem?.kind !== 'elsewhere') || (!p.error && p.changed && changesSettings(p)),
  );
  return withHooks.length ? withHooks : plans.filter((p) => p.changed).slice(0, 1);
}
