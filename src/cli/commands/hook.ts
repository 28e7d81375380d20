/**
 * `session-ledger hook pre-compact|session-start|remind [--root DIR] [--codex]`: the Claude Code hooks
 * (with --codex: Codex CLI's). They read the hook JSON on stdin. pre-compact exits 2 with the reason
 * on stderr to block a manual /compact, 0 otherwise; with --codex it blocks as Codex reads a block,
 * `{"continue":false,"stopReason":"<reason>"}` on stdout and exit 0; anything unexpected (bad stdin, an internal error, a bad option) allows and is logged
 * to `.claude/log/session-ledger-hook.log`. session-start prints the resume block after /clear and
 * /compact and always exits 0. remind (./hook-remind) only ever adds a suggestion and exits 0.
 */
import { checkpointDone, preCompactGuard } from '../../core/hooks/guard';
import { appendHookLog, hookRoot } from '../../core/hooks/io';
import { sessionStartHook } from '../../core/hooks/session-start';
import { terminalSafe, type Io } from '../io';
import { hookLanguage } from '../locale';
import { rootOpt, run as runRemind } from './hook-remind';

export async function run(args: string[], io: Io): Promise<number> {
  if (args[0] === 'remind') return runRemind(args.slice(1), io, checkpointDone);
  return runGuardHooks(args, io);
}

/**
 * Every hook but `remind` (pre-compact, session-start, and the answer to a hook name that is none):
 * what the hook script's own part for the hooks runs (../hooks-main), without the meter's reminder.
 */
export async function runGuardHooks(args: string[], io: Io): Promise<number> {
  const [which, ...rest] = args;
  // A hook never fails the agent: whatever goes wrong here allows and is logged.
  let stdin = '';
  try {
    stdin = await io.stdin();
  } catch {
    stdin = '';
  }
  const codex = rest.includes('--codex');
  const { root, bad } = rootOpt(rest.filter((a) => a !== '--codex'));
  // Both hooks know the client whose hook runs: the guard answers in its wire, the record names it.
  const opts = { env: io.env, cwd: io.cwd, script: io.script, root, agent: codex ? 'codex' : 'claude' } as const;
  try {
    if (which === 'pre-compact') {
      // The block in the locale's language (the hook script's own words); its log line stays English.
      const lang = hookLanguage(io.env, io.words);
      const d = await preCompactGuard(stdin, { ...opts, lang, inputTooLarge: io.stdinCut?.() ?? false });
      if (!d.allow) {
        if (codex) {
          io.stdout(codexBlock(d.reason));
          return 0;
        }
        io.stderr(d.reason);
        return 2;
      }
      return 0;
    }
    if (which === 'session-start') {
      const r = await sessionStartHook(stdin, opts);
      if (r.stdout) io.stdout(r.stdout);
      return 0;
    }
    const where = root ?? hookRoot(null, io.env, io.cwd);
    await appendHookLog(
      where,
      'hook',
      `unknown hook '${which ?? ''}'${bad.length ? ` (${bad.join(' ')})` : ''}; allowed`,
    );
    io.stderr(`session-ledger hook: unknown hook '${which ?? ''}' (pre-compact|session-start|remind); allowing.`);
    return 0;
  } catch (err) {
    try {
      await appendHookLog(
        root ?? hookRoot(null, io.env, io.cwd),
        `hook ${which ?? ''}`,
        `allow (internal error: ${(err as Error)?.message ?? String(err)})`,
      );
    } catch {
      /* nothing left to do */
    }
    return 0;
  }
}

/**
 * A blocked compaction as Codex CLI reads it (0.171.0, its PreCompact output schema): `continue`
 * false stops the compaction and shows `stopReason`; an exit code 2 or `"decision":"block"` is taken
 * as a failed hook, and the compaction goes ahead.
 */
export function codexBlock(reason: string): string {
  // Terminal-safe before it is serialised, as the reason on stderr is: JSON.stringify would write an
  // escape sequence from the repository as \u escapes, and Codex decodes them back.
  return JSON.stringify({ continue: false, stopReason: terminalSafe(reason) });
}
