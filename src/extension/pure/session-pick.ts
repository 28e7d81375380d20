/**
 * Which agent session the context meter shows when several sessions of the workspace are live: the
 * one running in the active terminal (by its recorded terminal process, else by the agent the
 * terminal runs), else the newest. The others are listed in the tooltip. vscode-free (unit tested).
 */
import type { T } from './tree-text';
import { code } from './status-text';

/** A session as the core lists it (`recentSessions`). */
export interface LiveSession {
  agent: 'claude' | 'codex';
  sessionId: string | null;
  transcriptPath: string;
  /** Last write to the transcript (ms). */
  lastWrite: number;
  /** The first thing the user asked (for telling sessions apart), or null. */
  firstUserLine?: string | null;
  /** The terminal the session runs in, when the core knows it (a process id, or a terminal name). */
  terminal?: number | string | null;
}

/** What is known about the active integrated terminal. */
export interface ActiveTerminal {
  /** The agent it runs (by name, shell or process tree), if any. */
  agent?: 'claude' | 'codex';
  /** Its shell's process id and the process ids under it. */
  pids?: readonly number[];
  name?: string;
}

/** A session counts as live when its transcript was written within this many minutes. */
export const LIVE_MINUTES = 30;

export function liveSessions<S extends LiveSession>(all: readonly S[], now: number): S[] {
  return all.filter((s) => now - s.lastWrite <= LIVE_MINUTES * 60_000).sort((a, b) => b.lastWrite - a.lastWrite);
}

/** The session to show and the others, newest first. `null` when there is none. */
export function chooseShownSession<S extends LiveSession>(
  all: readonly S[],
  active: ActiveTerminal | undefined,
  now: number,
): { shown: S; others: S[]; byTerminal: boolean } | null {
  const live = liveSessions(all, now);
  const pool = live.length ? live : [...all].sort((a, b) => b.lastWrite - a.lastWrite).slice(0, 1);
  if (pool.length === 0) return null;
  let shown: S | undefined;
  if (active) {
    shown = pool.find(
      (s) =>
        (typeof s.terminal === 'number' && active.pids?.includes(s.terminal)) ||
        (typeof s.terminal === 'string' && !!active.name && s.terminal === active.name),
    );
    if (!shown && active.agent) shown = pool.find((s) => s.agent === active.agent);
  }
  const byTerminal = !!shown;
  shown ??= pool[0];
  return { shown, others: pool.filter((s) => s !== shown), byTerminal };
}

function ago(t: T, ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  return m < 1 ? t('just now') : t('{0} min ago', m);
}

/** Markdown lines for the tooltip: the other live sessions, newest first. */
export function otherSessionsLines(t: T, others: readonly LiveSession[], now: number): string[] {
  if (!others.length) return [];
  const lines = ['', `${t('Other live sessions of this workspace')}:`];
  for (const s of others.slice(0, 5)) {
    const agent = s.agent === 'claude' ? 'Claude Code' : 'Codex CLI';
    const what = s.firstUserLine ? ` — ${code(s.firstUserLine.slice(0, 60))}` : '';
    lines.push(
      `- ${agent}${s.sessionId ? ` ${code(s.sessionId.slice(0, 8))}` : ''} · ${ago(t, now - s.lastWrite)}${what}`,
    );
  }
  if (others.length > 5) lines.push(`- ${t('… and {0} more', others.length - 5)}`);
  return lines;
}
