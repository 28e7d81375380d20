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
import { CLI_HOOK_COMMANDS, noteSaid, planSaid } from '../../core/hooks/install-words';
import { parse, resolveRoot } from '../args';
import { stepOrSay, UsageError, type Io } from '../io';

/** What the plan changes (or changed: `done`), in the words every surface says it (`planSaid`), then its notes. */
function describe(plan: HooksPlan, done: boolean): string[] {
  return [...planSaid(plan, done), ...plan.notes.map((n) => noteSaid(n, CLI_HOOK_COMMANDS, done))].map((m) => m.text);
}

/** Nothing to uninstall for this client, but the other client's file has our hooks: say which flag finds them. */
async function otherClientHint(root: string, codex: boolean): Promise<string[]> {
  const files = codex ? [SETTINGS_REL, SETTINGS_LOCAL_REL] : [CODEX_HOOKS_REL];
  for (const rel of files) {
    const f = await readTextFile(path.join(root, rel), 4 * 1024 * 1024);
    if (f.ok && hooksInstalledIn(f.text).PreCompact)
      return [
        codex
          ? `The Claude Code hooks are in ${rel}: run it without --codex${rel === SETTINGS_LOCAL_REL ? ', with --local' : ''}.`
          : `The Codex CLI hooks are in ${rel}: add --codex.`,
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
      throw new UsageError(
        `--${flag} is for Claude Code's settings; --codex wires Codex's .codex/hooks.json (the guard and the resume hook only)`,
      );
  if (action === 'uninstall' && values.statusline)
    throw new UsageError('--statusline is for install (uninstall always puts your statusLine back)');
  if (action === 'uninstall' && values.remind)
    throw new UsageError('--remind is for install (uninstall always removes the reminder too)');
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
    io.stderr(`session-ledger hooks ${action}: ${plan.error}`);
    return 1;
  }
  const dry = Boolean(values['dry-run']);
  if (dry) {
    io.stdout([...describe(plan, false), ...(changesSettings(plan) ? ['', ...planDiff(plan)] : [])].join('\n'));
    return 0;
  }
  if (!(await stepOrSay(io, `hooks ${action}`, () => applyHooksPlan(plan, { cliBundle })))) return 1;
  const lines = describe(plan, true);
  if (action === 'uninstall' && !plan.changed) lines.push(...(await otherClientHint(root, codex)));
  if (action === 'install' && plan.changed)
    lines.push(
      'Remove them with: session-ledger hooks uninstall' + (values.local ? ' --local' : codex ? ' --codex' : ''),
    );
  io.stdout(lines.join('\n'));
  return 0;
}
