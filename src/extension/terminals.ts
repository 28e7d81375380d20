/**
 * Find an integrated terminal that runs `claude` or `codex`: by its name, by its shell path, or
 * (Linux) by the processes under its shell. Read-only and best-effort.
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { RecentSession } from '../core/context/sessions';
import { readSessionRecordFor } from '../core/hooks/session-record';
import { agentInCmdline, agentInText, type AgentName } from './pure/terminal-match';

async function children(pid: number): Promise<number[]> {
  try {
    const tasks = await fs.readdir(`/proc/${pid}/task`);
    const out: number[] = [];
    for (const t of tasks) {
      const txt = await fs.readFile(`/proc/${pid}/task/${t}/children`, 'utf8').catch(() => '');
      for (const c of txt.split(/\s+/)) if (/^\d+$/.test(c)) out.push(Number(c));
    }
    return out;
  } catch {
    return [];
  }
}

async function agentInProcessTree(pid: number, depth = 3): Promise<AgentName | undefined> {
  if (process.platform !== 'linux') return undefined;
  const queue: Array<[number, number]> = [[pid, 0]];
  let seen = 0;
  while (queue.length && seen < 64) {
    const [p, d] = queue.shift() as [number, number];
    seen++;
    if (p !== pid) {
      const cmd = await fs.readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '');
      const hit = agentInCmdline(cmd) ?? agentInText(await fs.readFile(`/proc/${p}/comm`, 'utf8').catch(() => ''));
      if (hit) return hit;
    }
    if (d < depth) for (const c of await children(p)) queue.push([c, d + 1]);
  }
  return undefined;
}

export async function agentOfTerminal(t: vscode.Terminal): Promise<AgentName | undefined> {
  const byName = agentInText(t.name);
  if (byName) return byName;
  const opts = t.creationOptions as vscode.TerminalOptions;
  const byShell = agentInText(typeof opts?.shellPath === 'string' ? opts.shellPath.split(/[\\/]/).pop() : undefined);
  if (byShell) return byShell;
  const pid = await Promise.race([t.processId, new Promise<undefined>((r) => setTimeout(() => r(undefined), 500))]);
  return pid ? agentInProcessTree(pid) : undefined;
}

/** The terminal running an agent: the active one first, then the others. */
export async function findAgentTerminal(): Promise<{ terminal: vscode.Terminal; agent: AgentName } | undefined> {
  // Only terminals still open (a disposed one can linger as the active terminal for a moment).
  const all = vscode.window.terminals.filter((t) => t.exitStatus === undefined);
  const active = vscode.window.activeTerminal;
  const ordered = active && all.includes(active) ? [active, ...all.filter((t) => t !== active)] : all;
  for (const t of ordered) {
    const agent = await agentOfTerminal(t);
    if (agent) return { terminal: t, agent };
  }
  return undefined;
}

/** Descendants of `pid` (breadth first, at most `limit`, `depth` levels). Linux only; [] elsewhere. */
async function descendants(pid: number, depth = 4, limit = 64): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const out: number[] = [];
  let level = [pid];
  for (let d = 0; d < depth && level.length && out.length < limit; d++) {
    const next: number[] = [];
    for (const p of level) for (const c of await children(p)) if (out.length < limit) (out.push(c), next.push(c));
    level = next;
  }
  return out;
}

/** Does this agent process run `session`: its arguments name the id, or it holds the transcript open. */
async function processRunsSession(pid: number, session: RecentSession): Promise<boolean> {
  const cmd = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!agentInCmdline(cmd)) return false;
  if (cmd.split('\0').some((a) => a === session.sessionId || a.endsWith(`=${session.sessionId}`))) return true;
  const fds = await fs.readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds.slice(0, 256))
    if ((await fs.readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === session.transcriptPath) return true;
  return false;
}

async function shellPid(t: vscode.Terminal): Promise<number | undefined> {
  return Promise.race([t.processId, new Promise<undefined>((r) => setTimeout(() => r(undefined), 500))]);
}

/**
 * The integrated terminal that runs each session, where it can be told: the SessionStart hook's
 * record holds its parent chain (a terminal's shell pid is in it), or an agent process under the
 * terminal's shell names the session id or holds its transcript open.
 */
export async function terminalsOfSessions(
  root: string,
  sessions: readonly RecentSession[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const terminals = vscode.window.terminals.filter((t) => t.exitStatus === undefined);
  const pids = await Promise.all(terminals.map((t) => shellPid(t)));
  const trees = new Map<number, number[]>();
  for (const s of sessions) {
    const rec = await readSessionRecordFor(root, s.sessionId);
    let hit = rec?.pids?.length
      ? terminals.find((_, i) => pids[i] !== undefined && rec.pids?.includes(pids[i] as number))
      : undefined;
    for (let i = 0; !hit && i < terminals.length; i++) {
      const pid = pids[i];
      if (pid === undefined) continue;
      if (!trees.has(pid)) trees.set(pid, await descendants(pid));
      for (const p of trees.get(pid) ?? []) {
        if (await processRunsSession(p, s)) {
          hit = terminals[i];
          break;
        }
      }
    }
    if (hit) out.set(s.sessionId, hit.name);
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
  const names = await terminalsOfSessions(root, sessions).catch(() => new Map<string, string>());
  const now = Date.now();
  const items = sessions.map((s) => {
    const min = Math.max(0, Math.round((now - s.lastWrite) / 60_000));
    const terminal = names.get(s.sessionId);
    return {
      label: s.firstUserLine ?? t('(no user message yet)'),
      description: terminal ? t('terminal "{0}"', terminal) : s.agent === 'claude' ? 'Claude Code' : 'Codex CLI',
      detail: t('{0} · last write {1} min ago', s.sessionId, min),
      session: { ...s, ...(terminal ? { terminal } : {}) },
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
