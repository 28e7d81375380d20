/**
 * The processes under an integrated terminal's shell, read from /proc (Linux). vscode-free, spawns
 * nothing (so it is as safe in Restricted Mode as anywhere), never throws, and reads each process
 * under the shell once: its threads' `children` lists, breadth first, at most `limit` processes.
 * A kernel without `/proc/<pid>/task/<tid>/children` is read through every `/proc/<pid>/stat` once
 * instead (its parent pid), which is linear in the number of processes. Elsewhere (no /proc) the
 * answer is null: the caller falls back to what the SessionStart hook recorded and to names.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ppidOfStat } from '../core/hooks/session-record';
import { agentInCmdline, agentInText, type AgentName } from './pure/terminal-match';

export interface ProcOptions {
  /** At most this many processes are read. */
  limit?: number;
  /** Read parents from every `/proc/<pid>/stat` even where `children` lists exist (what a kernel without them gets). */
  byStat?: boolean;
}

const PROC = '/proc';

const DEFAULT_LIMIT = 256;

/** A process's children from its threads' `children` files; null when the kernel has no such file. */
async function childrenOf(proc: string, pid: number): Promise<number[] | null> {
  let tasks: string[];
  try {
    tasks = await fs.readdir(path.join(proc, String(pid), 'task'));
  } catch {
    return []; // gone
  }
  const out: number[] = [];
  for (const t of tasks) {
    let text: string;
    try {
      text = await fs.readFile(path.join(proc, String(pid), 'task', t, 'children'), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code === 'ENOENT' && (await exists(path.join(proc, String(pid), 'task', t))))
        return null; // the thread is there, its children list is not: CONFIG_PROC_CHILDREN is off
      continue; // the thread ended meanwhile
    }
    for (const c of text.split(/\s+/)) if (/^\d+$/.test(c)) out.push(Number(c));
  }
  return out;
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

/** Every process's children, from one read of each `/proc/<pid>/stat`. */
async function childrenByStat(proc: string): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  const names = await fs.readdir(proc).catch(() => [] as string[]);
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    const ppid = ppidOfStat(await fs.readFile(path.join(proc, n, 'stat'), 'utf8').catch(() => ''));
    if (ppid === null) continue;
    const kids = map.get(ppid);
    if (kids) kids.push(Number(n));
    else map.set(ppid, [Number(n)]);
  }
  return map;
}

/**
 * The live processes under `pid` (not `pid` itself), breadth first, at most `limit`. [] when `pid`
 * has none or is gone; null where processes cannot be read (no /proc).
 */
export async function descendantsOf(pid: number, opts: ProcOptions = {}): Promise<number[] | null> {
  const proc = PROC;
  const limit = opts.limit ?? DEFAULT_LIMIT;
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return null;
  if (!(await exists(path.join(proc, String(pid))))) return (await exists(path.join(proc, 'self'))) ? [] : null;
  const out: number[] = [];
  const seen = new Set<number>([pid]);
  let byStat = opts.byStat ? await childrenByStat(proc) : undefined;
  const queue = [pid];
  for (let i = 0; i < queue.length && out.length < limit; i++) {
    let kids = byStat ? (byStat.get(queue[i]) ?? []) : await childrenOf(proc, queue[i]);
    if (kids === null) {
      byStat = await childrenByStat(proc);
      kids = byStat.get(queue[i]) ?? [];
    }
    for (const k of kids) {
      if (seen.has(k) || out.length >= limit) continue;
      seen.add(k);
      out.push(k);
      queue.push(k);
    }
  }
  return out;
}

/** A process's arguments (`/proc/<pid>/cmdline`, NUL-separated), or ''. */
async function cmdlineOf(pid: number): Promise<string> {
  return fs.readFile(path.join(PROC, String(pid), 'cmdline'), 'utf8').catch(() => '');
}

/** The agent the process runs: its program or script (`claude`, `codex`, their npm packages), else its name. */
export async function agentOfProcess(pid: number): Promise<AgentName | undefined> {
  const hit = agentInCmdline(await cmdlineOf(pid));
  if (hit) return hit;
  return agentInText(await fs.readFile(path.join(PROC, String(pid), 'comm'), 'utf8').catch(() => ''));
}

/** The first agent among `pids` (in their order), with its pid. */
export async function firstAgent(pids: readonly number[]): Promise<{ pid: number; agent: AgentName } | undefined> {
  for (const pid of pids) {
    const agent = await agentOfProcess(pid);
    if (agent) return { pid, agent };
  }
  return undefined;
}

/** A session as far as a process can name it: its id, and its transcript. */
export interface SessionFile {
  sessionId: string;
  transcriptPath: string;
}

const MAX_FDS = 256;

/**
 * The sessions that agent processes among `pids` run, as the processes themselves say it: an
 * argument is the session id (`--resume <id>`, `--session-id=<id>`), or an open file is the
 * transcript. Only agent processes are looked into, at most 256 open files each.
 */
export async function sessionsRunBy(pids: readonly number[], sessions: readonly SessionFile[]): Promise<string[]> {
  const out = new Set<string>();
  const byPath = new Map(sessions.filter((s) => s.transcriptPath).map((s) => [s.transcriptPath, s.sessionId]));
  for (const pid of pids) {
    const cmd = await cmdlineOf(pid);
    if (!agentInCmdline(cmd)) continue;
    const args = cmd.split('\0');
    for (const s of sessions)
      if (args.some((a) => a === s.sessionId || a.endsWith(`=${s.sessionId}`))) out.add(s.sessionId);
    const dir = path.join(PROC, String(pid), 'fd');
    const fds = await fs.readdir(dir).catch(() => [] as string[]);
    for (const fd of fds.slice(0, MAX_FDS)) {
      const id = byPath.get(await fs.readlink(path.join(dir, fd)).catch(() => ''));
      if (id) out.add(id);
    }
  }
  return [...out];
}
