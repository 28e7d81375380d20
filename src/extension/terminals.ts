/**
 * Find an integrated terminal that runs `claude` or `codex`: by its name, by its shell path, or
 * (Linux) by the processes under its shell. Read-only and best-effort.
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { agentInCmdline, agentInText, type AgentName } from './pure/terminalMatch';

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
