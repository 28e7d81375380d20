/**
 * Integrated terminals and the agent sessions running in them, told by process: a terminal's shell
 * pid (`Terminal.processId`) and the live processes under it (Linux /proc, read once per question,
 * see process-tree.ts), matched against the parent chain each session's SessionStart hook recorded
 * (the agent process that ran the hook). Names (the terminal's, its shell path's) are only the
 * fallback where processes cannot be read. Read-only and best-effort; spawns nothing.
 */
import * as vscode from 'vscode';
import type { RecentSession } from '../core/context/sessions';
import { readSessionRecordFor } from '../core/hooks/session-record';
import { agentOfProcess, descendantsOf, firstAgent, sessionsRunBy } from './process-tree';
import {
  runsInTerminal,
  sessionPickItem,
  sharedCodexPids,
  type ActiveTerminal,
  type LiveSession,
} from './pure/session-pick';
import { agentInText, type AgentName } from './pure/terminal-match';

/** The terminal's shell pid, or undefined when it does not say within half a second. */
function shellPid(t: vscode.Terminal): Promise<number | undefined> {
  return Promise.race([
    Promise.resolve(t.processId).catch(() => undefined),
    new Promise<undefined>((r) => setTimeout(() => r(undefined), 500)),
  ]);
}

function byName(t: vscode.Terminal): AgentName | undefined {
  const opts = t.creationOptions as vscode.TerminalOptions;
  return (
    agentInText(t.name) ??
    agentInText(typeof opts?.shellPath === 'string' ? opts.shellPath.split(/[\\/]/).pop() : undefined)
  );
}

/** Open terminals only (a disposed one can linger as the active terminal for a moment). */
function openTerminals(): vscode.Terminal[] {
  return vscode.window.terminals.filter((t) => t.exitStatus === undefined);
}

/**
 * What a terminal runs, by process: its shell, the live processes under it (the shell too when it
 * is itself the agent), the agent among them, and — only when no session's recorded agent is among
 * them — the sessions (of `sessions`) an agent process there names or holds open. The agent falls
 * back to the terminal's name where processes cannot be read.
 */
export async function terminalProcesses(
  t: vscode.Terminal,
  sessions: ReadonlyArray<RecentSession & Pick<LiveSession, 'pids'>> = [],
): Promise<ActiveTerminal> {
  const shell = await shellPid(t);
  let below = shell === undefined ? null : await descendantsOf(shell);
  if (below && shell !== undefined && (await agentOfProcess(shell))) below = [shell, ...below];
  const agent = below ? (await firstAgent(below))?.agent : byName(t);
  const out: ActiveTerminal = { name: t.name, below };
  if (shell !== undefined) out.shell = shell;
  if (agent) out.agent = agent;
  const shared = sharedCodexPids(sessions);
  if (below && sessions.length && !sessions.some((s) => runsInTerminal(s, out, shared)))
    out.runs = await sessionsRunBy(below, sessions);
  return out;
}

/** The agent a terminal runs: by the processes under its shell where they can be read, else by its name or shell. */
export async function agentOfTerminal(t: vscode.Terminal): Promise<AgentName | undefined> {
  return (await terminalProcesses(t)).agent ?? byName(t);
}

/** The terminal running an agent: the active one first, then the others. */
export async function findAgentTerminal(): Promise<{ terminal: vscode.Terminal; agent: AgentName } | undefined> {
  const all = openTerminals();
  const active = vscode.window.activeTerminal;
  const ordered = active && all.includes(active) ? [active, ...all.filter((t) => t !== active)] : all;
  for (const t of ordered) {
    const agent = await agentOfTerminal(t);
    if (agent) return { terminal: t, agent };
  }
  return undefined;
}

/** The sessions with the parent chain their SessionStart hook recorded (none when not recorded). */
export async function withRecordedPids<S extends RecentSession>(
  root: string,
  sessions: readonly S[],
): Promise<Array<S & Pick<LiveSession, 'pids'>>> {
  return Promise.all(
    sessions.map(async (s) => ({ ...s, pids: (await readSessionRecordFor(root, s.sessionId))?.pids ?? [] })),
  );
}

/** The active terminal (if open) with what runs under it. */
export async function activeTerminalProcesses(
  sessions: ReadonlyArray<RecentSession & Pick<LiveSession, 'pids'>>,
): Promise<{ terminal: vscode.Terminal; index: number; procs: ActiveTerminal } | undefined> {
  const active = vscode.window.activeTerminal;
  const all = openTerminals();
  if (!active || !all.includes(active)) return undefined;
  return { terminal: active, index: all.indexOf(active) + 1, procs: await terminalProcesses(active, sessions) };
}

/**
 * The terminal that runs each session, where it can be told by process (see `runsInTerminal`): its
 * place among the open terminals (1-based, as two terminals may share a name) and its name.
 */
export async function terminalsOfSessions(
  root: string,
  sessions: readonly RecentSession[],
): Promise<Map<string, { index: number; name: string }>> {
  const out = new Map<string, { index: number; name: string }>();
  const terminals = openTerminals();
  const recorded = await withRecordedPids(root, sessions);
  const shared = sharedCodexPids(recorded);
  for (let i = 0; i < terminals.length; i++) {
    const procs = await terminalProcesses(terminals[i], recorded);
    // Newest first, as the meter takes them: after /clear one agent process has run two sessions.
    for (const s of [...recorded].sort((a, b) => b.lastWrite - a.lastWrite)) {
      if (out.has(s.sessionId) || !runsInTerminal(s, procs, shared)) continue;
      out.set(s.sessionId, { index: i + 1, name: terminals[i].name });
    }
  }
  return out;
}

/** Ask which of several recent sessions a checkpoint is for. Undefined when the user cancels. */
export async function pickSession(
  root: string,
  sessions: readonly RecentSession[],
  windowMinutes: number,
): Promise<RecentSession | undefined> {
  const t = vscode.l10n.t;
  const where = await terminalsOfSessions(root, sessions).catch(
    () => new Map<string, { index: number; name: string }>(),
  );
  const now = Date.now();
  const items = sessions.map((s) => {
    const terminal = where.get(s.sessionId);
    return {
      ...sessionPickItem(t, s, terminal, now),
      session: { ...s, ...(terminal ? { terminal: terminal.name } : {}) },
    };
  });
  const pick = await vscode.window.showQuickPick(items, {
    title: t('Which agent session is this checkpoint for?'),
    placeHolder: t('{0} sessions of this folder wrote in the last {1} minutes', sessions.length, windowMinutes),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return pick?.session;
}
