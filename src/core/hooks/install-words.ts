/**
 * What a guard-hooks plan changes, in words: one sentence for each file it writes, edits or removes,
 * or that there is nothing to do. Every surface says these: the CLI's `--dry-run` and its report after
 * the change, the extension's dialog before it (each message's id is its English template, which the
 * extension translates).
 */
import { t, type Msg } from '../model/messages';
import { changesSettings, GITIGNORE_HEADER, hookGroup, relOf, type HooksPlan } from './install';

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
    if (changesSettings(plan)) {
      const pre = hookGroup('PreCompact', plan.client).matcher ?? '';
      const start = hookGroup('SessionStart', plan.client).matcher ?? '';
      if (plan.events.includes('UserPromptSubmit'))
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
