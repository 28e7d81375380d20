/**
 * `session-ledger hooks install|uninstall [--root DIR] [--local] [--statusline] [--remind] [--codex] [--dry-run]`: wire
 * the PreCompact guard and the SessionStart resume hook (with --remind also the UserPromptSubmit reminder) into `.claude/settings.json` (or
 * `.claude/settings.local.json`) and install `.claude/hooks/session-ledger.cjs`; with --codex the guard and
 * the resume hook into Codex CLI's `.codex/hooks.json` and `.codex/hooks/session-ledger.cjs`. Uninstall removes
 * exactly that. Exit 0 done (or nothing to do), 1 refused, 2 bad usage.
 */
import * as path from 'node:path';
import { readTextFile } from '../../core/files/fsread';
import {
  applyHooksPlan,
  changesSettings,
  CODEX_HOOKS_REL,
  hooksInstalledIn,
  SETTINGS_LOCAL_REL,
  SETTINGS_REL,
  planDiff,
  planHooksInstall,
  planHooksUninstall,
  type HooksPlan,
} from '../../core/hooks/install';
import { CLI_HOOK_COMMANDS, noteSaid, notesToSay, planSaid } from '../../core/hooks/install-words';
import { ENGLISH, t, type Language, type Msg } from '../../core/model/messages';
import { hooksProblemText } from '../../extension/pure/error-text';
import { parse, resolveRoot, SaidUsageError } from '../args';
import { cliLanguage } from '../bundle';
import { UsageError, type Io } from '../io';
import { stepOrSay, wordsOf } from '../refused';

/**
 * What the plan changes (or changed: `done`), in the words every surface says it (`planSaid`), then its
 * notes (`notesToSay`), then `after`; what Codex needs before it runs the hooks comes last, the step the
 * user takes next.
 */
function describe(plan: HooksPlan, done: boolean, lang: Language, after: Msg[] = []): string[] {
  const notes = notesToSay(plan, done).map((n) => ({ n, m: noteSaid(n, CLI_HOOK_COMMANDS, done) }));
  return [
    ...planSaid(plan, done),
    ...notes.filter(({ n }) => n.kind !== 'codex-trust').map(({ m }) => m),
    ...after,
    ...notes.filter(({ n }) => n.kind === 'codex-trust').map(({ m }) => m),
  ].map((m) => lang.msg(m));
}

/**
 * Why the plan cannot be carried out: the plan's own English, or in Japanese and Korean the
 * extension's sentence for the same problem (a missing script of the package stays the plan's words).
 */
function refusalOf(plan: HooksPlan & { error: string }, lang: Language): string {
  if (lang === ENGLISH || !plan.problem || plan.problem.kind === 'no-bundle') return plan.error;
  const rel = path.relative(plan.root, plan.settingsPath).split(path.sep).join('/');
  const said = hooksProblemText(wordsOf(lang), rel, plan.problem, plan.error);
  // The flag that finds the hooks where they are, as the English says it.
  if (plan.problem.kind !== 'elsewhere') return said;
  return `${said} ${lang.msg(rel === SETTINGS_LOCAL_REL ? t('Drop --local.') : t('Add --local.'))}`;
}

/** Nothing to uninstall for this client, but the other client's file has our hooks: say which flag finds them. */
async function otherClientHint(root: string, codex: boolean): Promise<Msg[]> {
  const files = codex ? [SETTINGS_REL, SETTINGS_LOCAL_REL] : [CODEX_HOOKS_REL];
  for (const rel of files) {
    const f = await readTextFile(path.join(root, rel), 4 * 1024 * 1024);
    if (f.ok && hooksInstalledIn(f.text).PreCompact)
      return [
        codex
          ? rel === SETTINGS_LOCAL_REL
            ? t('The Claude Code hooks are in {0}: run it without --codex, with --local.', rel)
            : t('The Claude Code hooks are in {0}: run it without --codex.', rel)
          : t('The Codex CLI hooks are in {0}: add --codex.', rel),
      ];
  }
  return [];
}

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      root: { type: 'string' },
      local: { type: 'boolean' },
      statusline: { type: 'boolean' },
      remind: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      'cli-bundle': { type: 'string' },
      codex: { type: 'boolean' },
    },
    true,
  );
  const [action, ...extra] = positionals;
  if ((action !== 'install' && action !== 'uninstall') || extra.length)
    throw new UsageError(
      'hooks install|uninstall [--root DIR] [--local] [--statusline] [--remind] [--codex] [--dry-run]',
    );
  const codex = Boolean(values.codex);
  for (const flag of ['local', 'statusline', 'remind'] as const)
    if (codex && values[flag])
      throw new SaidUsageError(
        t(
          "{0} is for Claude Code's settings; --codex wires Codex's .codex/hooks.json (the guard and the resume hook only)",
          `--${flag}`,
        ),
      );
  if (action === 'uninstall' && values.statusline)
    throw new SaidUsageError(t('--statusline is for install (uninstall always puts your statusLine back)'));
  if (action === 'uninstall' && values.remind)
    throw new SaidUsageError(t('--remind is for install (uninstall always removes the reminder too)'));
  const lang = await cliLanguage(io.env);
  const root = await resolveRoot(values.root, io.cwd);
  const cliBundle = values['cli-bundle'] ? path.resolve(io.cwd, values['cli-bundle']) : undefined;
  const plan =
    action === 'install'
      ? await planHooksInstall(root, {
          local: values.local,
          statusline: values.statusline,
          remind: values.remind,
          cliBundle,
          codex,
          env: io.env,
        })
      : await planHooksUninstall(root, { local: values.local, codex });
  if (plan.error) {
    io.stderr(`session-ledger hooks ${action}: ${refusalOf({ ...plan, error: plan.error }, lang)}`);
    return 1;
  }
  const dry = Boolean(values['dry-run']);
  if (dry) {
    io.stdout([...describe(plan, false, lang), ...(changesSettings(plan) ? ['', ...planDiff(plan)] : [])].join('\n'));
    return 0;
  }
  if (!(await stepOrSay(io, `hooks ${action}`, () => applyHooksPlan(plan, { cliBundle }), lang))) return 1;
  const after: Msg[] = [];
  if (action === 'uninstall' && !plan.changed) after.push(...(await otherClientHint(root, codex)));
  if (action === 'install' && plan.changed)
    after.push(
      t(
        'Remove them with: {0}',
        'session-ledger hooks uninstall' + (values.local ? ' --local' : codex ? ' --codex' : ''),
      ),
    );
  io.stdout(describe(plan, true, lang, after).join('\n'));
  return 0;
}
