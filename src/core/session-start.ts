/**
 * The SessionStart hook: records the session Claude Code announces (`.claude/session-ledger/session.json`)
 * and, after `/clear` or `/compact`, hands the new context the resume block through
 * `hookSpecificOutput.additionalContext`: the file to read, the next action, the open UNCONFIRMED
 * items to validate first (S0's post-clear protocol) and the blocking findings. `startup` and
 * `resume` print nothing. Nothing here can block `/clear`, and nothing here throws.
 */
import { evaluate } from './evaluate';
import { cliCommand } from './guard';
import { appendHookLog, hookRun, str, type HookRunOptions } from './hook-io';
import { isSessionId, markerRel } from './marker';
import type { WorkspaceReport } from './model';
import { parentPids, writeSessionRecord } from './session-record';
import { resumePromptFor } from './checkpoint';

export type SessionStartOptions = HookRunOptions;

export interface SessionStartResult {
  /** What the hook prints on stdout (the hook JSON), or null for nothing. */
  stdout: string | null;
  additionalContext: string | null;
  source: string | null;
  sessionId: string | null;
  /** Absolute path of the session record written, or null. */
  recorded: string | null;
  root: string;
  log: string;
}

function clip(s: string, n = 240): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

/** The resume block for a fresh context, or null when no state file is detected. */
export function resumeBlock(report: WorkspaceReport, sessionId: string | null, source: string, cli = 'session-ledger'): string | null {
  if (report.systems.length === 0) return null;
  const out: string[] = [`Session Ledger — resuming after /${source === 'compact' ? 'compact' : 'clear'}. Before any other work:`];
  let n = 1;
  for (const s of report.systems) {
    out.push(`${n++}. Read ${s.home} (${s.id} ${s.name}, ${s.label}).`);
    out.push(`   Next action: ${s.next ? clip(s.next) : '(none recorded — ask the user what to do next)'}`);
  }
  const unconfirmed = report.systems.flatMap((s) => s.unconfirmed.map((it) => ({ s, it })));
  if (unconfirmed.length) {
    out.push(`${n++}. Validate these UNCONFIRMED items with the user before continuing (ask 1-3 short questions, then resume from the next action):`);
    for (const { s, it } of unconfirmed.slice(0, 12)) out.push(`   - ${clip(it.text)} (${s.home}:${it.line})`);
    if (unconfirmed.length > 12) out.push(`   - … ${unconfirmed.length - 12} more in the file`);
  }
  const blocking = report.systems.flatMap((s) => s.checks.filter((c) => c.severity === 'block' && c.status === 'fail'));
  if (blocking.length) {
    out.push(`${n++}. Blocking findings (fix them before the next checkpoint):`);
    for (const c of blocking.slice(0, 12)) out.push(`   - ${c.system} ${c.id}: ${clip(c.message)}${c.path ? ` (${c.path}${c.line ? `:${c.line}` : ''})` : ''}`);
  }
  out.push(`Resume prompt: ${resumePromptFor(report)}`);
  out.push(`Checkpoint marker for this session: ${markerRel(sessionId)}${sessionId ? '' : ' (no session id known: shared marker)'} — written by \`${cli} checkpoint\` before the next /compact.`);
  return out.join('\n');
}

/** Run the SessionStart hook from its raw stdin. Never throws. */
export async function sessionStartHook(stdin: string, opts: SessionStartOptions = {}): Promise<SessionStartResult> {
  const { now, parsed, root } = hookRun(stdin, opts);
  const res: SessionStartResult = { stdout: null, additionalContext: null, source: null, sessionId: null, recorded: null, root, log: '' };
  if (!parsed.ok) {
    res.log = `nothing (malformed stdin: ${parsed.error})`;
    if (opts.log !== false) await appendHookLog(root, 'session-start', res.log, now);
    return res;
  }
  const p = parsed.payload;
  const source = str(p.source);
  const sid = isSessionId(p.session_id) ? p.session_id : null;
  res.source = source;
  res.sessionId = sid;
  const logs: string[] = [];
  try {
    const event = str(p.hook_event_name);
    if (event && event !== 'SessionStart') {
      res.log = `nothing (hook_event_name is ${event}, not SessionStart)`;
      if (opts.log !== false) await appendHookLog(root, 'session-start', res.log, now);
      return res;
    }
    if (sid || str(p.transcript_path)) {
      try {
        res.recorded = await writeSessionRecord(root, {
          session_id: sid,
          transcript_path: str(p.transcript_path),
          source,
          cwd: str(p.cwd),
          at: new Date(now).toISOString(),
          pids: await parentPids(),
        });
        logs.push(`recorded session ${sid ?? '(no id)'}`);
      } catch (err) {
        logs.push(`could not record the session: ${(err as Error)?.message ?? String(err)}`);
      }
    } else {
      logs.push('no session id to record');
    }
    if (source === 'clear' || source === 'compact') {
      const report = await evaluate(root, { now });
      const block = resumeBlock(report, sid, source, cliCommand(root));
      if (block) {
        res.additionalContext = block;
        res.stdout = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: block } });
        logs.push(`resume block for ${report.systems.map((s) => s.id).join(',')} (source=${source})`);
      } else {
        logs.push(`no state file detected (source=${source})`);
      }
    } else {
      logs.push(`nothing to print (source=${source ?? 'missing'})`);
    }
  } catch (err) {
    res.stdout = null;
    res.additionalContext = null;
    logs.push(`internal error: ${(err as Error)?.message ?? String(err)}`);
  }
  res.log = logs.join('; ');
  // Only unusual runs are logged: a session start is routine.
  if (opts.log !== false && /error|malformed|could not/.test(res.log)) await appendHookLog(root, 'session-start', res.log, now);
  return res;
}
