/**
 * `session-ledger checkpoint`: run the checks; when nothing blocks, write the marker of SPEC §3 and
 * hand back the resume prompt. The session id comes from the caller, else from the newest Claude
 * Code transcript of the workspace, else from what the SessionStart hook recorded. It is never
 * invented and never taken from a ledger.
 */
import * as path from 'node:path';
import { writeAtomic } from './atomic';
import { findClaudeSession } from './context';
import { evaluate } from './evaluate';
import { closingLine, resumePrompt as promptFor } from './facts';
import { readTextFile } from './fsread';
import { formatMarker, isSessionId, markerRel } from './marker';
import type { Check, SystemReport, WorkspaceReport } from './model';
import { checkLine } from './report';
import { readSessionRecord } from './session-record';

export interface CheckpointOptions {
  sessionId?: string;
  nothingToPreserve?: boolean;
  confirmed?: Iterable<string>;
  claudeHome?: string;
  env?: NodeJS.ProcessEnv;
  now?: number;
}

export interface CheckpointResult {
  /** False when something blocks (nothing written). */
  ok: boolean;
  report: WorkspaceReport;
  blocking: Check[];
  /** Absolute path written. */
  markerPath: string | null;
  sessionId: string | null;
  sessionSource: 'option' | 'transcript' | 'session-start' | null;
  /** Wrote the shared `.claude/.checkpoint-ready`. */
  shared: boolean;
  /** For the detected system(s). */
  resumePrompt: string;
  /** What the CLI prints, ending with `Checkpoint saved. Safe to run /compact now.` when ok. */
  lines: string[];
}

function fallbackPrompt(s: SystemReport): string {
  return promptFor(s.id, s.home, null, s.unconfirmed.length);
}

/** The prompt to paste into a fresh session: each detected system's own, one per line. */
export function resumePromptFor(report: WorkspaceReport): string {
  const prompts = report.systems.map((s) => (s.resumePrompt && s.resumePrompt.trim()) || fallbackPrompt(s));
  return [...new Set(prompts)].join('\n');
}

/** Where the session id comes from: the option, the newest transcript, the SessionStart record. */
export async function resolveSessionId(
  root: string,
  opts: Pick<CheckpointOptions, 'sessionId' | 'claudeHome' | 'env'> = {},
): Promise<{ sessionId: string | null; source: CheckpointResult['sessionSource'] }> {
  if (opts.sessionId !== undefined) return { sessionId: isSessionId(opts.sessionId) ? opts.sessionId : null, source: isSessionId(opts.sessionId) ? 'option' : null };
  try {
    const t = await findClaudeSession(root, { claudeHome: opts.claudeHome, env: opts.env });
    if (t && isSessionId(t.sessionId)) return { sessionId: t.sessionId, source: 'transcript' };
  } catch {
    /* no transcript: try the record */
  }
  const rec = await readSessionRecord(root);
  if (rec?.session_id) return { sessionId: rec.session_id, source: 'session-start' };
  return { sessionId: null, source: null };
}

const SOURCE_TEXT: Record<string, string> = {
  option: 'given with --session',
  transcript: 'from the newest Claude Code transcript of this folder',
  'session-start': 'recorded by the SessionStart hook',
};

export async function checkpoint(root: string, opts: CheckpointOptions = {}): Promise<CheckpointResult> {
  const abs = path.resolve(root);
  const now = opts.now ?? Date.now();
  const report = await evaluate(abs, { confirmed: opts.confirmed, now });
  const blocking = report.systems.flatMap((s) => s.checks.filter((c) => c.severity === 'block' && c.status === 'fail'));
  const resumePrompt = resumePromptFor(report);
  const res: CheckpointResult = { ok: false, report, blocking, markerPath: null, sessionId: null, sessionSource: null, shared: false, resumePrompt, lines: [] };
  const lines = res.lines;

  if (opts.sessionId !== undefined && !isSessionId(opts.sessionId)) {
    lines.push(`Checkpoint not written: '${opts.sessionId}' is not a session id (letters, digits, '.', '_', '-').`);
    return res;
  }
  if (report.systems.length === 0) lines.push('No state file detected in this folder.');
  for (const s of report.systems) lines.push(`${s.id} ${s.name} (${s.home}) — ${s.label}`);

  if (blocking.length && !opts.nothingToPreserve) {
    lines.push('', `Checkpoint blocked: ${blocking.length} blocking check${blocking.length === 1 ? '' : 's'} failed; nothing was written.`);
    for (const c of blocking) lines.push(`${c.system} ${checkLine(c).trimStart()}`);
    lines.push('', 'Fix them (or let the agent run its checkpoint), then run this again. Nothing worth preserving? Add --nothing-to-preserve.');
    return res;
  }
  for (const s of report.systems) {
    for (const c of s.checks) {
      if (c.status === 'warn' || c.status === 'manual-open' || (c.status === 'fail' && opts.nothingToPreserve)) lines.push(`  ${c.system} ${checkLine(c).trimStart()}`);
    }
  }

  const { sessionId, source } = await resolveSessionId(abs, opts);
  res.sessionId = sessionId;
  res.sessionSource = source;
  const rel = markerRel(sessionId);
  const file = path.join(abs, rel);
  const hashes = report.systems.flatMap((s) => s.docs.filter((d) => d.hash).map((d) => ({ hash: d.hash, path: d.relPath })));
  const content = formatMarker({ sessionId, at: new Date(now).toISOString(), label: report.label, nothingToPreserve: opts.nothingToPreserve, hashes });
  const old = await readTextFile(file, 1024 * 1024);
  try {
    await writeAtomic(file, content, { root: abs, expectHash: old.ok && !old.truncated ? old.hash : old.ok ? undefined : old.kind === 'missing' ? null : undefined });
  } catch (err) {
    lines.push('', `Checkpoint not written: ${(err as Error)?.message ?? String(err)}`);
    return res;
  }
  res.ok = true;
  res.markerPath = file;
  res.shared = sessionId === null;
  lines.push('');
  if (sessionId) lines.push(`Marker written: ${rel} (session ${sessionId}, ${SOURCE_TEXT[source ?? ''] ?? ''}).`);
  else {
    lines.push(
      `Marker written: ${rel} — the shared marker, because no session id is known (no --session, no Claude Code transcript for this folder, nothing recorded by the SessionStart hook). Where several sessions share this folder, pass --session ID.`,
    );
  }
  if (opts.nothingToPreserve) lines.push('Marked nothing-to-preserve: the PreCompact guard lets /compact through.');
  if (resumePrompt) {
    lines.push('', 'Resume prompt (paste it into the fresh session):');
    for (const l of resumePrompt.split('\n')) lines.push(`  ${l}`);
  }
  lines.push('', closingLine('S2'));
  return res;
}
