/**
 * Which agent session the context meter shows when several sessions of the workspace are live: the
 * one running under the active terminal, told by process (the agent process its SessionStart record
 * names is alive under the terminal's shell), else the newest of the client the terminal runs, else
 * the workspace's newest, said to be that. The others are listed in the tooltip. vscode-free (unit tested).
 */
import type { T } from './tree-text';
import { code, mdText } from './status-text';
import { agoText } from './time-text';
import { clientName } from '../../core/context/records';

/** A session as the core lists it (`recentSessions`). */
export interface LiveSession {
  agent: 'claude' | 'codex';
  sessionId: string | null;
  transcriptPath: string;
  /** Last write to the transcript (ms). */
  lastWrite: number;
  /** The first thing the user asked (for telling sessions apart), or null. */
  firstUserLine?: string | null;
  /** The SessionStart hook's parent chain for the session (the agent process, the terminal's shell, …), nearest first. */
  pids?: readonly number[];
}

/** What is known about the active integrated terminal. */
export interface ActiveTerminal {
  /** The agent it runs (by its processes, else its name or shell), if any. */
  agent?: 'claude' | 'codex';
  /** Its shell's process id. */
  shell?: number;
  /** The live processes under the shell; null (or absent) where they cannot be read (no /proc). */
  below?: readonly number[] | null;
  /** Sessions an agent process under it names by id or holds the transcript of open. */
  runs?: readonly string[];
  name?: string;
}

/**
 * How the shown session was chosen: `process` — it runs under the active terminal (an agent
 * process there started it or says it runs it); `agent` — the terminal runs that client but which
 * of its sessions is not known (only the newest of that client); `newest` — the terminal runs no
 * agent of this workspace: the newest session of the workspace; `no-terminal` — no terminal is open
 * in the window to tell by: the newest session of the workspace.
 */
export type ShownBy = 'process' | 'agent' | 'newest' | 'no-terminal';

/** A session counts as live when its transcript was written within this many minutes. */
export const LIVE_MINUTES = 30;

export function liveSessions<S extends LiveSession>(all: readonly S[], now: number): S[] {
  return all.filter((s) => now - s.lastWrite <= LIVE_MINUTES * 60_000).sort((a, b) => b.lastWrite - a.lastWrite);
}

/**
 * Does `s` run in the terminal, by process: the agent process that started it (its SessionStart
 * record's parent chain) is alive under the terminal's shell, or an agent process there names it.
 * Where the processes cannot be read, a recorded chain that holds the terminal's shell counts.
 * A chain that holds the shell but no live process under it is a session that ended there.
 */
export function runsInTerminal(s: LiveSession, term: ActiveTerminal, shared: ReadonlySet<number> = new Set()): boolean {
  if (s.sessionId && term.runs?.includes(s.sessionId)) return true;
  const pids = (s.pids ?? []).filter((p) => !shared.has(p));
  if (!pids.length) return false;
  if (term.below) {
    const below = new Set(term.below);
    return pids.some((p) => below.has(p));
  }
  return term.shell !== undefined && pids.includes(term.shell);
}

/**
 * Process ids that tell no Codex session from another: ones in the recorded chains of two Codex
 * sessions. Codex's screen runs hooks in a background server shared by its sessions (started under
 * whichever terminal ran Codex first), so that server's chain says nothing about which terminal a
 * session runs in. One Claude Code process that ran two sessions (after /clear) is its newer one's.
 */
export function sharedCodexPids(all: readonly LiveSession[]): Set<number> {
  const seen = new Map<number, string>();
  const out = new Set<number>();
  for (const s of all) {
    if (s.agent !== 'codex') continue;
    for (const p of new Set(s.pids ?? [])) {
      const other = seen.get(p);
      if (other !== undefined && other !== (s.sessionId ?? s.transcriptPath)) out.add(p);
      else seen.set(p, s.sessionId ?? s.transcriptPath);
    }
  }
  return out;
}

/** The session to show and the others, newest first, and how it was chosen. `null` when there is none. */
export function chooseShownSession<S extends LiveSession>(
  all: readonly S[],
  active: ActiveTerminal | undefined,
  now: number,
): { shown: S; others: S[]; by: ShownBy } | null {
  const live = liveSessions(all, now);
  const pool = live.length ? live : [...all].sort((a, b) => b.lastWrite - a.lastWrite).slice(0, 1);
  if (pool.length === 0) return null;
  let shown: S | undefined;
  let by: ShownBy = active ? 'newest' : 'no-terminal';
  if (active) {
    // Newest first: after /clear one agent process has run two sessions; the newer is its own now.
    const shared = sharedCodexPids(all);
    shown = pool.find((s) => runsInTerminal(s, active, shared));
    if (shown) by = 'process';
    else if (active.agent) {
      shown = pool.find((s) => s.agent === active.agent);
      if (shown) by = 'agent';
    }
  }
  shown ??= pool[0];
  return { shown, others: pool.filter((s) => s !== shown), by };
}

export { clientName };

/** A session id as shown: its first 8 characters and an ellipsis when longer. */
export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}

/** `Claude Code session 3f2a1b2c…`, with `(terminal 2 "bash")` when the terminal is known. */
export function sessionName(
  t: T,
  s: { agent: 'claude' | 'codex'; sessionId: string | null },
  terminal?: { index: number; name: string },
): string {
  const head = s.sessionId
    ? t('{0} session {1}', clientName(s.agent), shortId(s.sessionId))
    : t('{0} session', clientName(s.agent));
  return terminal ? `${head} (${t('terminal {0} "{1}"', terminal.index, terminal.name)})` : head;
}

/**
 * One choice of the question which session a checkpoint is for: the first line the user typed, the
 * client and session (with the terminal that runs it, when known), its id and its last write.
 */
export function sessionPickItem(
  t: T,
  s: { agent: 'claude' | 'codex'; sessionId: string; lastWrite: number; firstUserLine: string | null },
  terminal: { index: number; name: string } | undefined,
  now: number,
): { label: string; description: string; detail: string } {
  return {
    label: s.firstUserLine ?? t('(no user message yet)'),
    description: sessionName(t, s, terminal),
    // How long ago as every session list says it ("just now" under a minute, as the CLI's list does).
    detail: t('{0} · last write {1}', s.sessionId, agoText(t, now - s.lastWrite)),
  };
}

/**
 * Whose figure the status item shows when several sessions are live: a line for the tooltip
 * (Markdown) and a sentence for the accessible label (also the line above the tree and in the
 * checklist). The newest session, shown because the active terminal runs none of them (or its
 * session is not known, or no terminal is open), is said to be that.
 */
export function shownSessionText(
  t: T,
  s: { agent: 'claude' | 'codex'; sessionId: string | null },
  by: ShownBy,
): { line: string; label: string } {
  const name = sessionName(t, s);
  if (by === 'process') {
    const said = t('{0}, running in the active terminal', name);
    return { line: `$(terminal) ${mdText(said)}`, label: `${said}.` };
  }
  const said =
    by === 'agent'
      ? t(
          'Newest {0} session in this workspace ({1}): which one runs in the active terminal is not known',
          clientName(s.agent),
          name,
        )
      : by === 'no-terminal'
        ? t(
            'Newest session in this workspace ({0}): no terminal is open in this window to tell which one you use',
            name,
          )
        : t('Newest session in this workspace ({0}): the active terminal runs no agent session of it', name);
  return { line: `$(info) ${mdText(said)}`, label: `${said}.` };
}

/** Markdown lines for the tooltip: the other live sessions, newest first. */
export function otherSessionsLines(t: T, others: readonly LiveSession[], now: number): string[] {
  if (!others.length) return [];
  const lines = ['', `${t('Other live sessions of this workspace')}:`];
  for (const s of others.slice(0, 5)) {
    const agent = clientName(s.agent);
    const what = s.firstUserLine ? ` — ${code(s.firstUserLine.slice(0, 60))}` : '';
    lines.push(
      `- ${agent}${s.sessionId ? ` ${code(s.sessionId.slice(0, 8))}` : ''} · ${agoText(t, now - s.lastWrite)}${what}`,
    );
  }
  if (others.length > 5) lines.push(`- ${t('… and {0} more', others.length - 5)}`);
  return lines;
}
