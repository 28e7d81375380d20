/**
 * The agent sessions of a workspace that wrote recently: every Claude Code transcript
 * (`projects/<encoded cwd>/<session-id>.jsonl`) and Codex CLI rollout of this folder modified within
 * the last N minutes, newest first, each with the first line the user typed. A checkpoint never
 * vouches for a guessed session: when more than one of these is there and none was named, it
 * refuses and lists them.
 *
 * Bounded: directory listings and a stat per transcript; for each recent one only its head
 * (256 KB) is read, never the whole file.
 */
import * as path from 'node:path';
import { isSessionId } from '../checkpoint/marker';
import { readSessionRecordFor, SESSION_RECORDS_DIR_REL, type SessionRecord } from '../hooks/session-record';
import { isInside, ownFileLinkProblem } from '../files/atomic';
import { gitTracks } from '../git/tracked';
import {
  claudeHome,
  claudeTranscriptCwd,
  cwdIsOurs,
  CLAUDE_MAX_DIR,
  codexDayDirs,
  codexHome,
  codexIdFromName,
  codexSessionMeta,
  CODEX_RECENT_DAYS,
  encodeClaudeProjectDir,
  rootForms,
  samePath,
  type MeterOptions,
} from './discovery';
import { listNames, parseObject, readHead, statOrNull } from './files';
import { maskSecrets } from '../secrets/secrets';

export const DEFAULT_SESSION_WINDOW_MIN = 30;
export const SESSION_WINDOW_ENV = 'SESSION_LEDGER_SESSION_WINDOW_MIN';

export interface RecentSession {
  agent: 'claude' | 'codex';
  sessionId: string;
  /** Absolute path of the transcript / rollout. */
  transcriptPath: string;
  /** Modification time of the transcript (ms since the epoch). */
  lastWrite: number;
  /** The first line of the first thing the user typed in the session (clipped), or null. */
  firstUserLine: string | null;
  /** The integrated terminal that runs the session, when the caller (the extension) can tell. */
  terminal?: string;
}

export interface RecentSessionsOptions extends MeterOptions {
  /** Sessions that wrote within this many minutes count. Default: the env, else 30. */
  windowMinutes?: number;
  /** Clock (ms since the epoch). */
  now?: number;
}

/** `SESSION_LEDGER_SESSION_WINDOW_MIN`, or 30 when unset or not a positive number. */
export function sessionWindowMinutes(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[SESSION_WINDOW_ENV];
  if (raw === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(raw) || Number(raw) <= 0) return DEFAULT_SESSION_WINDOW_MIN;
  return Number(raw);
}

const HEAD_BYTES = 256 * 1024;

function clipLine(text: string, n = 120): string | null {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return null;
  // What the user typed can hold a key or a password: its secrets are masked as a state file's are,
  // before the line is clipped (a token cut short is no longer recognised as one).
  const shown = maskSecrets(line).text;
  return shown.length > n ? `${shown.slice(0, n - 1)}…` : shown;
}

/** Text the client injects as a user record (slash-command echoes, reminders, caveats), not typed by the user. */
function isInjected(text: string): boolean {
  const t = text.trimStart();
  return (
    /^<(?:command-|local-command-|system-reminder|user-prompt-submit-hook|environment_context|user_instructions|bash-)/.test(
      t,
    ) || /^Caveat: The messages below/.test(t)
  );
}

function textOfContent(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  for (const b of content) {
    if (b && typeof b === 'object') {
      const o = b as Record<string, unknown>;
      if ((o.type === 'text' || o.type === 'input_text') && typeof o.text === 'string') return o.text;
      if (o.type === 'tool_result') return null;
    }
  }
  return null;
}

/** What Codex's editor extension and desktop app send before the user's own words: the open files, the active file. */
const CODEX_REQUEST = '## My request for Codex:';

/** The user's request inside that wrapper (`# Context from my IDE setup: … ## My request for Codex:`), else the text. */
function codexRequest(text: string): string {
  const at = text.indexOf(CODEX_REQUEST);
  return at < 0 ? text : text.slice(at + CODEX_REQUEST.length);
}

/**
 * Context Codex adds as a user-role message, by its opening: the AGENTS.md instructions, the environment, a
 * `!` shell command and its output, an interrupted turn, a skill, a subagent's report, a Stop hook's prompt.
 */
const CODEX_CONTEXT =
  /^(?:# AGENTS\.md instructions\b|<(?:environment_context|user_instructions|user_shell_command|turn_aborted|skill|subagent_notification|hook_prompt)\b)/;

/**
 * What the user typed, in one record of a Codex CLI rollout: a user-role `response_item` message. Codex
 * 0.171 (its terminal screen, `codex exec` and the app server editors drive alike) writes nothing else of
 * it, and marks each part with where it came from: `provenance` `user` for the user's words, `agents_md` or
 * `harness` for the AGENTS.md instructions, the environment, a `!` shell command, a hook's prompt. Older
 * versions mark no part and also write an `event_msg` `user_message`. `marked`: the record says the words
 * are the user's (that event, or a part marked `user`); a part no provenance marks is taken unless it
 * opens as context Codex adds.
 */
function codexUserText(o: Record<string, unknown>): { text: string; marked: boolean } | null {
  const p = o.payload as Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object') return null;
  if (o.type === 'event_msg')
    return p.type === 'user_message' && typeof p.message === 'string' ? { text: p.message, marked: true } : null;
  if (o.type !== 'response_item' || p.type !== 'message' || p.role !== 'user' || !Array.isArray(p.content)) return null;
  const passthrough = p.internal_chat_message_metadata_passthrough as Record<string, unknown> | undefined;
  const meta = passthrough && typeof passthrough === 'object' ? passthrough.content_item_metadata : undefined;
  for (const [i, part] of (p.content as unknown[]).entries()) {
    const c = part as Record<string, unknown> | null;
    if (!c || typeof c !== 'object' || c.type !== 'input_text' || typeof c.text !== 'string' || !c.text.trim())
      continue;
    const m = Array.isArray(meta) ? (meta[i] as Record<string, unknown> | null) : null;
    const prov = m && typeof m === 'object' ? (m.provenance as Record<string, unknown> | undefined) : undefined;
    const from = prov && typeof prov === 'object' ? prov.type : undefined;
    if (from === 'user') return { text: c.text, marked: true };
    if (from === undefined && !CODEX_CONTEXT.test(c.text.trimStart())) return { text: c.text, marked: false };
  }
  return null;
}

/**
 * The first line the user typed, from the records of a transcript's head, and whether a record says it is
 * the user's (`sure`). For Codex CLI a line a record marks as the user's is taken before any unmarked one
 * in the head: a version that marks nothing writes the `user_message` event too, and a text it adds that
 * opens in a way not known here is not the user's; an unmarked line is the answer only when no record in
 * the head marks one.
 */
function userLineOf(head: string, agent: 'claude' | 'codex'): { line: string; sure: boolean } | null {
  const lines = head.split('\n');
  // The last line of a head may be cut: only complete lines are read.
  if (!head.endsWith('\n')) lines.pop();
  let unmarked: string | null = null;
  for (const line of lines) {
    if (!line.includes('user')) continue;
    const o = parseObject(line);
    if (!o) continue;
    if (agent === 'codex') {
      const said = codexUserText(o);
      const l = said && clipLine(codexRequest(said.text));
      if (!l) continue;
      if (said.marked) return { line: l, sure: true };
      unmarked ??= l;
      continue;
    }
    if (o.type !== 'user' || o.isMeta === true || o.isSidechain === true || o.isCompactSummary === true) continue;
    const m = o.message as Record<string, unknown> | undefined;
    const text = m && typeof m === 'object' ? textOfContent(m.content) : null;
    if (text === null || isInjected(text)) continue;
    const l = clipLine(text);
    if (l) return { line: l, sure: true };
  }
  return unmarked === null ? null : { line: unmarked, sure: false };
}

/** The first line the user typed, from the records of a transcript's head (`userLineOf`). */
export function firstUserLineOf(head: string, agent: 'claude' | 'codex'): string | null {
  return userLineOf(head, agent)?.line ?? null;
}

/**
 * First user lines already found, by transcript path. A transcript only grows at its end, so a line
 * once found in its head stays true: the status bar asks every 10 s without reading the head again.
 * A miss is not kept (the first prompt may not be written yet), nor a line no record marks as the
 * user's (a record written later may).
 */
const firstLines = new Map<string, string>();
const FIRST_LINES_MAX = 256;

async function firstUserLine(file: string, agent: 'claude' | 'codex'): Promise<string | null> {
  const known = firstLines.get(file);
  if (known !== undefined) return known;
  const head = await readHead(file, HEAD_BYTES);
  const found = head ? userLineOf(head.toString('utf8'), agent) : null;
  if (found?.sure) {
    if (firstLines.size >= FIRST_LINES_MAX) firstLines.clear();
    firstLines.set(file, found.line);
  }
  return found?.line ?? null;
}

/** Claude Code transcripts of this folder (top-level `<id>.jsonl`, subagent files excluded) modified since `since`. */
async function recentClaude(
  root: string,
  opts: MeterOptions,
  since: number,
): Promise<Array<Omit<RecentSession, 'firstUserLine'>>> {
  const projects = path.join(claudeHome(opts), 'projects');
  const forms = await rootForms(root);
  const dirs = new Set<string>();
  let listing: string[] | null = null;
  const cut: string[] = [];
  for (const form of forms) {
    const enc = encodeClaudeProjectDir(form);
    dirs.add(enc);
    if (enc.length > CLAUDE_MAX_DIR) {
      listing ??= await listNames(projects);
      for (const name of listing) if (name !== enc && name.startsWith(enc.slice(0, CLAUDE_MAX_DIR))) cut.push(name);
    }
  }
  const out: Array<Omit<RecentSession, 'firstUserLine'>> = [];
  const seen = new Set<string>();
  for (const dir of [...dirs, ...cut]) {
    const isCut = !dirs.has(dir);
    for (const name of await listNames(path.join(projects, dir))) {
      if (!name.endsWith('.jsonl') || name.startsWith('agent-')) continue;
      const id = name.slice(0, -'.jsonl'.length);
      if (!isSessionId(id) || seen.has(id)) continue;
      const p = path.join(projects, dir, name);
      const st = await statOrNull(p);
      if (!st || !st.isFile() || st.mtimeMs < since) continue;
      // A cut name says nothing by itself: its transcript must name this folder. Any other
      // transcript whose own cwd is another folder (`/x/my-app` and `/x/my/app` share
      // `-x-my-app`) is that folder's session, not this one's.
      const cwd = await claudeTranscriptCwd(p);
      if (!cwdIsOurs(cwd, forms) || (isCut && cwd === null)) continue;
      seen.add(id);
      out.push({ agent: 'claude', sessionId: id, transcriptPath: p, lastWrite: st.mtimeMs });
    }
  }
  return out;
}

/** Codex CLI rollouts of this folder modified since `since` (the 14 newest day folders). */
async function recentCodex(
  root: string,
  opts: MeterOptions,
  since: number,
): Promise<Array<Omit<RecentSession, 'firstUserLine'>>> {
  const sessions = path.join(codexHome(opts), 'sessions');
  const forms = await rootForms(root);
  const out: Array<Omit<RecentSession, 'firstUserLine'>> = [];
  for (const day of await codexDayDirs(sessions, CODEX_RECENT_DAYS)) {
    for (const name of await listNames(day)) {
      if (!name.startsWith('rollout-') || !name.endsWith('.jsonl')) continue;
      const p = path.join(day, name);
      const st = await statOrNull(p);
      if (!st || !st.isFile() || st.mtimeMs < since) continue;
      const meta = await codexSessionMeta(p);
      if (meta.cwd === null || !forms.some((f) => samePath(f, meta.cwd as string))) continue;
      const id = meta.id ?? codexIdFromName(p);
      if (!id) continue;
      out.push({ agent: 'codex', sessionId: id, transcriptPath: p, lastWrite: st.mtimeMs });
    }
  }
  return out;
}

const caseInsensitiveFs = process.platform === 'win32' || process.platform === 'darwin';

/**
 * A recorded `cwd` names one of `forms` (the folder as given, its real path) or a folder inside it, as
 * written. Not resolved: `/proc/self/cwd` resolves to the folder of whatever process reads it (the CLI
 * run from the workspace), so a resolved cwd would name any folder. The clients send the folder they
 * run in with its links resolved (getcwd), which is the real path's form.
 */
function ranIn(cwd: string | null, forms: readonly string[]): boolean {
  if (!cwd || !path.isAbsolute(cwd)) return false;
  const fold = (p: string) => (caseInsensitiveFs ? p.toLowerCase() : p);
  return forms.some((f) => isInside(fold(path.resolve(cwd)), fold(path.resolve(f))));
}

/**
 * The SessionStart record at `rel` (root-relative) is this machine's hook's own, of a session that ran
 * in this folder (`forms`: `rootForms`), so it may name the session a checkpoint is for: its `cwd`
 * names the folder (`ranIn`); the file is reached through no link and has no second hard link (the
 * hook writes its records through none); and git does not track it (one that came with the repository
 * names whatever session its author chose; a checkout gives it a fresh file time). `tracked: false`
 * leaves git out (the caller asks it for a bounded number of records).
 */
export async function recordedHere(
  root: string,
  rel: string,
  rec: Pick<SessionRecord, 'cwd'>,
  forms: readonly string[],
  o: { tracked?: boolean } = {},
): Promise<boolean> {
  if (!ranIn(rec.cwd, forms)) return false;
  const file = path.join(root, rel);
  if (ownFileLinkProblem(file, root) !== null) return false;
  return o.tracked === false || (await gitTracks(file)) !== true;
}

/** The most recorded sessions git is asked about, newest first (the hook keeps 32 records). */
const MAX_TRACKED_ASKED = 64;

/**
 * Sessions the SessionStart hook recorded (`.claude/session-ledger/sessions/<id>.json`) within the
 * window: when no transcript is found, a live session known only from its start is as much a
 * candidate as one whose transcript wrote, and two of them are as ambiguous as two transcripts. Each
 * is of the client whose hook recorded it (a record that does not say is Claude Code's). Only the
 * hook's own records of sessions that ran in this folder (`recordedHere`): one the repository ships
 * is no session running here. Git reads its index for each record it is asked about, so it is asked
 * about the newest MAX_TRACKED_ASKED: any more are each taken as a candidate, which makes the
 * checkpoint ask which session is meant rather than guess. Never throws.
 */
async function recordedSessions(
  root: string,
  since: number,
  known: ReadonlySet<string>,
): Promise<Array<Omit<RecentSession, 'firstUserLine'>>> {
  const dir = path.join(root, SESSION_RECORDS_DIR_REL);
  const forms = await rootForms(root);
  const found: Array<Omit<RecentSession, 'firstUserLine'> & { rel: string }> = [];
  for (const name of await listNames(dir)) {
    const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
    if (!isSessionId(id) || known.has(id)) continue;
    const st = await statOrNull(path.join(dir, name));
    if (!st || !st.isFile() || st.mtimeMs < since) continue;
    const rec = await readSessionRecordFor(root, id);
    const rel = `${SESSION_RECORDS_DIR_REL}/${name}`;
    if (!rec || !(await recordedHere(root, rel, rec, forms, { tracked: false }))) continue;
    found.push({
      agent: rec.agent ?? 'claude',
      sessionId: id,
      transcriptPath: rec.transcript_path ?? '',
      lastWrite: st.mtimeMs,
      rel,
    });
  }
  found.sort((a, b) => b.lastWrite - a.lastWrite);
  const out: Array<Omit<RecentSession, 'firstUserLine'>> = [];
  for (const [i, { rel, ...s }] of found.entries())
    if (i >= MAX_TRACKED_ASKED || (await gitTracks(path.join(root, rel))) !== true) out.push(s);
  return out;
}

/**
 * Every Claude Code and Codex CLI session of this workspace folder that wrote within the window
 * (`windowMinutes`, else `SESSION_LEDGER_SESSION_WINDOW_MIN`, else 30 minutes), newest first.
 * Never throws: an unreadable folder counts as no sessions.
 */
export async function recentSessions(root: string, opts: RecentSessionsOptions = {}): Promise<RecentSession[]> {
  const all = await sessionsWithin(root, opts);
  return Promise.all(
    all.map(async (s) => ({
      ...s,
      firstUserLine: s.transcriptPath ? await firstUserLine(s.transcriptPath, s.agent).catch(() => null) : null,
    })),
  );
}

/** `recentSessions` without the first user line of each (no transcript is opened). */
async function sessionsWithin(
  root: string,
  opts: RecentSessionsOptions,
): Promise<Array<Omit<RecentSession, 'firstUserLine'>>> {
  const now = opts.now ?? Date.now();
  const minutes = opts.windowMinutes ?? sessionWindowMinutes(opts.env ?? process.env);
  const since = now - minutes * 60_000;
  const [c, x] = await Promise.all([
    recentClaude(root, opts, since).catch(() => []),
    recentCodex(root, opts, since).catch(() => []),
  ]);
  // With no transcript found at all, the sessions the SessionStart hook recorded are the candidates.
  const r = c.length + x.length === 0 ? await recordedSessions(root, since, new Set()).catch(() => []) : [];
  return [...c, ...x, ...r].sort((a, b) => b.lastWrite - a.lastWrite);
}

/**
 * More than one session of the folder wrote recently, whatever their clients: a checkpoint cannot
 * tell which one is meant. One Claude Code and one Codex CLI session are as ambiguous as two of one
 * client: each client's guard reads the marker of its own session, so the marker of the wrong one
 * would be a go-signal for a session the user did not mean.
 */
export function ambiguous(sessions: readonly RecentSession[]): boolean {
  return sessions.length > 1;
}

/**
 * The client of a session of this folder named by its id: the client of the live session it is (one
 * that wrote within the window), else of the SessionStart record of it; undefined when neither knows
 * it. Never throws.
 */
export async function clientOfSession(
  root: string,
  sessionId: string,
  opts: RecentSessionsOptions = {},
): Promise<RecentSession['agent'] | undefined> {
  const live = await sessionsWithin(root, opts).catch(() => []);
  const found = live.find((s) => s.sessionId === sessionId);
  if (found) return found.agent;
  return (await readSessionRecordFor(root, sessionId).catch(() => null))?.agent;
}
