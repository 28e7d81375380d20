/**
 * What a guard-hooks plan changes, in words: one sentence for each file it writes, edits or removes,
 * or that there is nothing to do, and its notes. Every surface says these: the CLI's `--dry-run` and
 * its report after the change, the extension's dialog before it (each message's id is its English
 * template, which the extension translates). Where a sentence names a hook command, each surface
 * names its own (`HookCommands`).
 */
import { t, type Msg } from '../model/messages';
import { hooksStoppedSaid, relayStoppedSaid } from './client-settings';
import {
  changesSettings,
  eventsChanged,
  GITIGNORE_HEADER,
  hookGroup,
  relOf,
  REMIND_EVENT,
  type HooksNote,
  type HooksPlan,
} from './install';

/** How a surface names the install and uninstall commands in a sentence, quoted as it quotes them. */
export interface HookCommands {
  install: string;
  uninstall: string;
  /** The install with the status line relay in `.claude/settings.local.json`. */
  installLocal: string;
}

/** The command-line tool's names for them. */
export const CLI_HOOK_COMMANDS: HookCommands = {
  install: '`hooks install`',
  uninstall: '`hooks uninstall`',
  installLocal: '`hooks install --statusline --local`',
};

/**
 * The plan's notes to say: in a preview (`done` false: the dry run, the extension's dialog) all but what
 * Codex needs before it runs the hooks, which the user can do only once they are installed: the report
 * after the install says it, once, where the user acts on it.
 */
export function notesToSay(plan: HooksPlan, done: boolean): HooksNote[] {
  return done ? plan.notes : plan.notes.filter((n) => n.kind !== 'codex-trust');
}

/**
 * A plan's note in words, naming the commands as `commands` does: what was done, or (`done` false, a
 * preview: the dry run, the extension's dialog before the change) what would be done.
 */
export function noteSaid(note: HooksNote, commands: HookCommands, done = true): Msg {
  switch (note.kind) {
    case 'relay-added':
      return done ? t('statusLine: the context relay was added.') : t('statusLine: the context relay would be added.');
    case 'relay-not-command':
      return done
        ? t('statusLine: yours is not a command; it was left alone (the relay was not wired).')
        : t('statusLine: yours is not a command; it would be left alone (the relay would not be wired).');
    case 'relay-own-script':
      return done
        ? t("statusLine: the relay now runs the status line's own script.")
        : t("statusLine: the relay would run the status line's own script.");
    case 'relay-wraps':
      if (!done)
        return note.command
          ? t(
              'statusLine: the relay would wrap your command ({0}); {1} puts it back.',
              note.command,
              commands.uninstall,
            )
          : t('statusLine: the relay would wrap your command (an empty one); {0} puts it back.', commands.uninstall);
      return note.command
        ? t('statusLine: the relay now wraps your command ({0}); {1} puts it back.', note.command, commands.uninstall)
        : t('statusLine: the relay now wraps your command (an empty one); {0} puts it back.', commands.uninstall);
    case 'relay-wraps-from':
      return done
        ? t(
            'statusLine: the relay now wraps your command from {0} ({1}), which stays as it is; {2} takes the relay out.',
            note.file,
            note.command,
            commands.uninstall,
          )
        : t(
            'statusLine: the relay would wrap your command from {0} ({1}), which stays as it is; {2} takes the relay out.',
            note.file,
            note.command,
            commands.uninstall,
          );
    case 'status-line-hidden':
      return done
        ? t(
            'statusLine: your own status line in {0} no longer shows in this project (project settings take precedence over it); {1} keeps it, wrapped.',
            note.file,
            commands.installLocal,
          )
        : t(
            'statusLine: your own status line in {0} would no longer show in this project (project settings take precedence over it); {1} keeps it, wrapped.',
            note.file,
            commands.installLocal,
          );
    case 'hooks-off':
      return hooksStoppedSaid(note.stop);
    case 'relay-off':
      return relayStoppedSaid(note.stop);
    case 'relay-hidden':
      return done
        ? t(
            "statusLine: the relay in {0} does not run in this project: {1} sets a status line of its own, which Claude Code takes over it, so Claude Code's own context figure is not recorded for the meter. {2} wraps that status line instead, or remove the statusLine from {1}.",
            note.file,
            note.by,
            commands.installLocal,
          )
        : t(
            "statusLine: the relay in {0} would not run in this project: {1} sets a status line of its own, which Claude Code takes over it, so Claude Code's own context figure would not be recorded for the meter. {2} wraps that status line instead, or remove the statusLine from {1}.",
            note.file,
            note.by,
            commands.installLocal,
          );
    case 'relay-removed':
      return done
        ? t('statusLine: the context relay was removed.')
        : t('statusLine: the context relay would be removed.');
    case 'command-back':
      if (!done)
        return note.command
          ? t('statusLine: your command would come back ({0}).', note.command)
          : t('statusLine: your command would come back (an empty one).');
      return note.command
        ? t('statusLine: your command is back ({0}).', note.command)
        : t('statusLine: your command is back (an empty one).');
    case 'script-kept':
      return done
        ? t(
            '{0} was changed since {1} wrote it, so it was kept: delete it yourself once you no longer need it.',
            note.file,
            commands.install,
          )
        : t(
            '{0} was changed since {1} wrote it, so it would be kept: delete it yourself once you no longer need it.',
            note.file,
            commands.install,
          );
    case 'records-left':
      return note.files.length === 1
        ? t(
            '.gitignore keeps its Session Ledger lines: {0} is still there. Delete it, then run {1} again to take the lines out.',
            note.files[0],
            commands.uninstall,
          )
        : t(
            '.gitignore keeps its Session Ledger lines: {0} are still there. Delete them, then run {1} again to take the lines out.',
            note.files.join(', '),
            commands.uninstall,
          );
    case 'codex-trust':
      return t(
        'Codex skips these hooks without a word until you trust them: start `codex` in this folder, choose "Trust and continue" for the folder, then "Trust all and continue" when it says "Hooks need review" (or review the two one by one; /hooks lists them any time).',
      );
  }
}

/**
 * The plan's changes, each file once: what would be done, or (`done`) what was done. Install: the
 * hook script, the status line's script, the settings, `.gitignore`; uninstall: the settings, the
 * scripts, `.gitignore`. A plan that changes nothing says so.
 */
export function planSaid(plan: HooksPlan, done: boolean): Msg[] {
  const rel = (p: string) => relOf(plan, p);
  const settings = rel(plan.settingsPath);
  if (!plan.changed)
    return [
      plan.action === 'install'
        ? t('Hooks already installed in {0}; nothing to do.', settings)
        : t('No Session Ledger hooks in {0}; nothing to do.', settings),
    ];
  const out: Msg[] = [];
  const g = plan.gitignore;
  if (plan.action === 'install') {
    if (plan.script === 'write') {
      const script = rel(plan.scriptPath);
      out.push(
        done
          ? t('Wrote {0} (the bundled CLI, one plain JavaScript file; it needs only node).', script)
          : t('Would write {0} (the bundled CLI, one plain JavaScript file; it needs only node).', script),
      );
    }
    if (plan.statuslineScript === 'write') {
      const script = rel(plan.statuslinePath);
      out.push(
        done
          ? t("Wrote {0} (the status line's own script, one plain JavaScript file).", script)
          : t("Would write {0} (the status line's own script, one plain JavaScript file).", script),
      );
    }
    // Only the hooks this change adds or rewrites: a relay or the reminder added to an install already
    // there names no other.
    const changed = eventsChanged(plan);
    const guard = changed.some((e) => e !== REMIND_EVENT);
    if (!guard && changed.includes(REMIND_EVENT))
      out.push(
        done
          ? t('Added hooks.UserPromptSubmit (the reminder) to {0}.', settings)
          : t('Would add hooks.UserPromptSubmit (the reminder) to {0}.', settings),
      );
    if (guard) {
      const pre = hookGroup('PreCompact', plan.client).matcher ?? '';
      const start = hookGroup('SessionStart', plan.client).matcher ?? '';
      if (changed.includes(REMIND_EVENT))
        out.push(
          done
            ? t(
                'Added hooks.PreCompact (matcher {1}), hooks.SessionStart (matcher {2}) and hooks.UserPromptSubmit (the reminder) to {0}.',
                settings,
                pre,
                start,
              )
            : t(
                'Would add hooks.PreCompact (matcher {1}), hooks.SessionStart (matcher {2}) and hooks.UserPromptSubmit (the reminder) to {0}.',
                settings,
                pre,
                start,
              ),
        );
      else
        out.push(
          done
            ? t(
                'Added hooks.PreCompact (matcher {1}) and hooks.SessionStart (matcher {2}) to {0}.',
                settings,
                pre,
                start,
              )
            : t(
                'Would add hooks.PreCompact (matcher {1}) and hooks.SessionStart (matcher {2}) to {0}.',
                settings,
                pre,
                start,
              ),
        );
    }
    if (g) {
      const lines = g.lines.join('  ');
      out.push(
        done
          ? t("Added to {0} (this tool's own files stay out of git): {1}", rel(g.path), lines)
          : t("Would add to {0} (this tool's own files stay out of git): {1}", rel(g.path), lines),
      );
    }
    return out;
  }
  if (changesSettings(plan)) {
    if (plan.deleteSettings)
      out.push(
        done
          ? t('Removed the Session Ledger hooks from {0} (left empty: the file was removed).', settings)
          : t('Would remove the Session Ledger hooks from {0} (left empty: the file would be removed).', settings),
      );
    else
      out.push(
        done
          ? t('Removed the Session Ledger hooks from {0}.', settings)
          : t('Would remove the Session Ledger hooks from {0}.', settings),
      );
  }
  for (const [file, removed] of [
    [plan.statuslinePath, plan.statuslineScript === 'remove'],
    [plan.scriptPath, plan.script === 'remove'],
  ] as const)
    if (removed) out.push(done ? t('Removed {0}.', rel(file)) : t('Would remove {0}.', rel(file)));
  if (g) {
    // The lines taken out; none of the tool's own lines only when the header goes alone.
    const lines = g.lines.join('  ') || GITIGNORE_HEADER;
    const file = rel(g.path);
    if (g.remove)
      out.push(
        done
          ? t('Removed from {0} (left empty: the file goes): {1}', file, lines)
          : t('Would remove from {0} (left empty: the file goes): {1}', file, lines),
      );
    else out.push(done ? t('Removed from {0}: {1}', file, lines) : t('Would remove from {0}: {1}', file, lines));
  }
  return out;
}
