/**
 * `session-ledger hook remind [--root DIR]`: Claude Code's UserPromptSubmit hook, installed only by
 * `hooks install --remind`. Reads the hook JSON on stdin; when the session's context crossed a mark
 * of a detected system, prints the suggestion as `hookSpecificOutput.additionalContext` (Claude Code
 * adds it to the prompt's context). Always exits 0 and never blocks the prompt. It runs before every
 * prompt, so it loads as little as the status line (the hook script runs it without the rest of the CLI).
 * It writes nothing but its own record; `SESSION_LEDGER_REMIND_DEBUG=1` prints why it said what it said on stderr.
 */
import { hookRun } from '../../core/hooks/io';
import { remind, type CheckpointDone } from '../../core/hooks/remind';
import { terminalSafe, type Io } from '../io';
import { hookLanguage } from '../locale';

/** `--root DIR` / `--root=DIR` among a hook's arguments, and whatever else was given. */
export function rootOpt(args: string[]): { root?: string; bad: string[] } {
  const bad: string[] = [];
  let root: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--root' && i + 1 < args.length) root = args[++i];
    else if (a.startsWith('--root=')) root = a.slice(7);
    else bad.push(a);
  }
  return { root, bad };
}

/** What Claude Code reads from a UserPromptSubmit hook's stdout to add context without blocking. */
export function promptContext(text: string): string {
  // Terminal-safe before it is serialised, as every string a hook's JSON answer holds (Claude Code decodes it).
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: terminalSafe(text) },
  });
}

/**
 * `checkpointDone` is the guard's "checkpoint done" (core's `checkpointDone`): the core passes its own,
 * the hook script's meter one that loads the guard's part when asked; without it only
 * nothing-to-preserve keeps the reminder silent.
 */
export async function run(args: string[], io: Io, checkpointDone: CheckpointDone | null = null): Promise<number> {
  let stdin = '';
  try {
    stdin = await io.stdin();
  } catch {
    stdin = '';
  }
  const { root: rootArg } = rootOpt(args);
  const { env, now, parsed, root } = hookRun(stdin, { env: io.env, cwd: io.cwd, root: rootArg });
  // It writes nothing but its own per-session record (not even the hook log): bad stdin says nothing.
  if (!parsed.ok) return 0;
  const p = parsed.payload;
  const r = await remind({
    root,
    sessionId: typeof p.session_id === 'string' ? p.session_id : null,
    transcript: typeof p.transcript_path === 'string' && p.transcript_path ? p.transcript_path : null,
    agent: 'claude',
    env,
    now,
    checkpointDone,
    // In the locale's language (the hook script's own words, read only then); its debug line stays English.
    lang: hookLanguage(env, io.words),
  });
  if (r.text) io.stdout(promptContext(r.text));
  if (env.SESSION_LEDGER_REMIND_DEBUG === '1') io.stderr(`session-ledger hook remind: ${r.log}`);
  return 0;
}
