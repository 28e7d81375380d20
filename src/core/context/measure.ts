/** One-shot measurement of a workspace (or one transcript): what `session-ledger context` prints. */
import * as path from 'node:path';
import type { ContextUsage } from '../model/model';
import {
  claudeHome,
  claudeProjectDirName,
  codexIdFromName,
  codexSessionMeta,
  findSessions,
  type MeterOptions,
  type SessionRef,
} from './discovery';
import { parseObject, statOrNull, openRead, scanBackward, visitHead } from './files';
import { ContextFollower, type FollowerOptions } from './follower';
import { agentOfRecord, type Agent } from './records';

export interface MeasureOptions extends MeterOptions {
  agent?: Agent;
  /** Measure this transcript instead of discovering the workspace's sessions. */
  transcript?: string;
  /**
   * The Claude Code session meant (the status line's `session_id`): its own transcript in the
   * workspace's project folder, never another session's; none there gives no figure.
   */
  sessionId?: string;
}

export interface MeasureResult {
  /** Sessions looked at (discovered, or the one transcript given). */
  sessions: SessionRef[];
  usages: ContextUsage[];
  /** One line per session (or for the workspace) that gave no figure. */
  reasons: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which agent wrote a transcript, as its first records (then its last ones) say, or null when none says. */
async function agentOfContent(file: string): Promise<Agent | null> {
  let said: Agent | null = null;
  await visitHead(file, (o) => (said = agentOfRecord(o)) !== null);
  if (said) return said;
  const fh = await openRead(file);
  if (fh) {
    try {
      const size = (await fh.stat()).size;
      let found: Agent | null = null;
      let n = 0;
      await scanBackward(fh, size, 1024 * 1024, (line) => {
        const o = parseObject(line);
        found = o ? agentOfRecord(o) : null;
        return found !== null || ++n > 50;
      });
      if (found) return found;
    } catch {
      /* fall through */
    } finally {
      await fh.close().catch(() => undefined);
    }
  }
  return null;
}

/** Which agent wrote a transcript, from its first records (then its last ones), else its name. */
export async function detectAgent(file: string): Promise<Agent> {
  return (await agentOfContent(file)) ?? (/(^|[\\/])rollout-[^\\/]*\.jsonl$/.test(file) ? 'codex' : 'claude');
}

const TRANSCRIPT_OF = { claude: 'Claude Code transcript', codex: 'Codex CLI rollout' } as const;

/**
 * Where a Claude Code subagent's transcript leaves its session's own, or null when the file is no
 * subagent's: one under a `subagents/` folder (Claude Code keeps them in `<session-id>/subagents/`
 * beside `<session-id>.jsonl`), or whose first records are all a sidechain's. The session id is
 * the one its records name, else its folder's.
 */
async function subagentsSession(file: string): Promise<{ dir: string; sessionId: string | null } | null> {
  let sidechain: boolean | null = null;
  let sessionId: string | null = null;
  await visitHead(file, (o) => {
    if (typeof o.isSidechain === 'boolean') sidechain = (sidechain ?? true) && o.isSidechain;
    if (sessionId === null && typeof o.sessionId === 'string' && UUID.test(o.sessionId)) sessionId = o.sessionId;
    return false;
  });
  const folder = path.dirname(file);
  const underSubagents = path.basename(folder) === 'subagents';
  if (!underSubagents && !sidechain) return null;
  if (!underSubagents) return { dir: folder, sessionId };
  const sessionFolder = path.dirname(folder);
  const named = path.basename(sessionFolder);
  return { dir: path.dirname(sessionFolder), sessionId: sessionId ?? (UUID.test(named) ? named : null) };
}

/** Why a session gave no figure, in one line that says what to do when there is something to do. */
async function noFigureReason(ref: SessionRef, follower: ContextFollower, agentGiven: boolean): Promise<string> {
  if (agentGiven) {
    const wrote = await agentOfContent(ref.path);
    if (wrote && wrote !== ref.agent)
      return `${ref.path} is a ${TRANSCRIPT_OF[wrote]}, not a ${TRANSCRIPT_OF[ref.agent]}: run without --agent ${ref.agent}`;
  }
  const sub = ref.agent === 'claude' ? await subagentsSession(ref.path) : null;
  if (sub) {
    const said = `${ref.path} is a subagent's transcript, whose usage is not the session's context:`;
    if (!sub.sessionId) return `${said} the session's own is a <session-id>.jsonl in ${sub.dir}`;
    const own = path.join(sub.dir, `${sub.sessionId}.jsonl`);
    const st = await statOrNull(own);
    return st?.isFile()
      ? `${said} run with --transcript ${own}`
      : `${said} the session's own is ${own}, which is not there`;
  }
  const limit = follower.scanLimit;
  if (follower.tooLarge !== null)
    return `the newest record of ${ref.path} (${sizeText(follower.tooLarge)}) is too large to read, and no usage was found ${
      limit === null
        ? 'before it'
        : `in the ${sizeText(limit)} of records before it, as far back as the meter reads (any usage is older)`
    }`;
  if (limit !== null)
    return `no usage found in the last ${sizeText(limit)} of ${ref.path}, as far back as the meter reads (any usage is older); the agent's next reply will give a figure`;
  return `no usage found yet in ${ref.path}`;
}

/** A SessionRef for a transcript given by path, or null when it is not a readable file. */
export async function refForTranscript(file: string, agent?: Agent): Promise<SessionRef | null> {
  const abs = path.resolve(file);
  const st = await statOrNull(abs);
  if (!st || !st.isFile()) return null;
  const a = agent ?? (await detectAgent(abs));
  let sessionId: string | null = null;
  if (a === 'codex') sessionId = codexIdFromName(abs) ?? (await codexSessionMeta(abs)).id;
  else {
    const base = path.basename(abs, '.jsonl');
    sessionId = UUID.test(base) ? base : null;
  }
  return { agent: a, sessionId, path: abs, mtime: st.mtimeMs };
}

/** `214 MB`, `16.8 MB`, `900 KB`: a record's size as the meter says it. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(bytes >= 100 * 1024 * 1024 ? 0 : 1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

/**
 * The one transcript named: `transcript`, else the Claude Code session `sessionId`'s own in the
 * workspace's project folder. null when neither names one (the caller discovers the sessions).
 */
async function namedSession(rootAbs: string, opts: MeasureOptions): Promise<SessionRef | string | null> {
  const byId =
    !opts.transcript && opts.sessionId && UUID.test(opts.sessionId) && opts.agent !== 'codex'
      ? path.join(claudeHome(opts), 'projects', claudeProjectDirName(rootAbs), `${opts.sessionId}.jsonl`)
      : undefined;
  if (!opts.transcript && !byId) return null;
  const ref = await refForTranscript((opts.transcript ?? byId) as string, opts.agent);
  if (ref) return ref;
  return opts.transcript
    ? `transcript not found or not a file: ${path.resolve(opts.transcript)}`
    : `no transcript of session ${opts.sessionId} for ${rootAbs}`;
}

/** Each session's figure, and a reason for each that gave none. */
async function measureSessions(
  rootAbs: string,
  sessions: SessionRef[],
  opts: MeasureOptions & FollowerOptions,
  byPath: boolean,
): Promise<MeasureResult> {
  const usages: ContextUsage[] = [];
  const reasons: string[] = [];
  for (const ref of sessions) {
    const follower = new ContextFollower(ref, { ...opts, root: rootAbs });
    const u = await follower.read();
    if (u) usages.push(u);
    else reasons.push(await noFigureReason(ref, follower, opts.agent !== undefined && byPath));
  }
  return { sessions, usages, reasons };
}

/** Measure every session of the workspace (or the one transcript), with reasons for those without a figure. */
export async function measureDetailed(
  root: string,
  opts: MeasureOptions & FollowerOptions = {},
): Promise<MeasureResult> {
  const rootAbs = path.resolve(root);
  const named = await namedSession(rootAbs, opts);
  if (typeof named === 'string') return { sessions: [], usages: [], reasons: [named] };
  if (named) return measureSessions(rootAbs, [named], opts, true);
  const sessions = (await findSessions(rootAbs, opts)).filter((s) => !opts.agent || s.agent === opts.agent);
  if (!sessions.length) {
    const who =
      opts.agent === 'codex' ? 'Codex CLI' : opts.agent === 'claude' ? 'Claude Code' : 'Claude Code or Codex CLI';
    return { sessions, usages: [], reasons: [`no ${who} session found for ${rootAbs}`] };
  }
  return measureSessions(rootAbs, sessions, opts, false);
}

/**
 * The figure of the one transcript named (`transcript`, else the session `sessionId`'s own), as the
 * status line asks it: none when neither names one, never the folder's newest session. It reaches
 * none of the session discovery, so the status line's part that holds it stays small.
 */
export async function measureNamed(root: string, opts: MeasureOptions = {}): Promise<ContextUsage[]> {
  const rootAbs = path.resolve(root);
  const named = await namedSession(rootAbs, opts);
  if (named === null || typeof named === 'string') return [];
  return (await measureSessions(rootAbs, [named], opts, true)).usages;
}

/** The figure of each agent's newest session of this workspace (or of the one transcript), newest session first. */
export async function measure(
  root: string,
  opts: MeterOptions & { agent?: 'claude' | 'codex'; transcript?: string } = {},
): Promise<ContextUsage[]> {
  return (await measureDetailed(root, opts)).usages;
}
