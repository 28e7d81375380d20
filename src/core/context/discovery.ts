/**
 * Which transcript belongs to a workspace folder: Claude Code's newest `<session-id>.jsonl` under
 * `projects/<encoded cwd>/`, and Codex CLI's newest `sessions/YYYY/MM/DD/rollout-*.jsonl` whose
 * `session_meta` names the folder. Bounded: a handful of directory listings and stats per call.
 */
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import * as path from 'node:path';
import { listNames, openRead, parseObject, readAt, readFirstLine, readHead, realPathOrNull, statOrNull } from './files';

export interface MeterOptions {
  /** Claude Code's config folder. Default: `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
  claudeHome?: string;
  /** Codex CLI's home. Default: `$CODEX_HOME` or `~/.codex`. */
  codexHome?: string;
  /** Override of the context window size (tokens), for figures read from a transcript. */
  windowTokens?: number;
  /** Environment to read `CLAUDE_CONFIG_DIR` / `CODEX_HOME` / `HOME` from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface SessionRef {
  agent: 'claude' | 'codex';
  sessionId: string | null;
  /** Absolute path of the transcript. */
  path: string;
  /** Modification time of the transcript (ms since the epoch). */
  mtime: number;
}

/** The home folder `env` names; `node:os` is loaded only when it names none (the status line's figure from a transcript runs this). */
function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || (require('node:os') as typeof import('node:os')).homedir();
}

export function claudeHome(opts: MeterOptions = {}): string {
  const env = opts.env ?? process.env;
  return path.resolve(opts.claudeHome ?? (env.CLAUDE_CONFIG_DIR || path.join(homeDir(env), '.claude')));
}

export function codexHome(opts: MeterOptions = {}): string {
  const env = opts.env ?? process.env;
  return path.resolve(opts.codexHome ?? (env.CODEX_HOME || path.join(homeDir(env), '.codex')));
}

/** Claude Code's project folder name: every non-alphanumeric character of the absolute path becomes `-`. */
export function encodeClaudeProjectDir(absPath: string): string {
  return absPath.replace(/[^a-zA-Z0-9]/g, '-');
}

/** Claude Code cuts encoded names longer than this and appends a hash suffix. */
export const CLAUDE_MAX_DIR = 200;

/** Java's `String.hashCode` over UTF-16 code units, as a signed 32-bit integer. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The folder Claude Code keeps a project's transcripts in, under `projects/`: the encoded path, or,
 * when that is longer than 200 characters, its first 200 characters, `-`, and the base-36 absolute
 * value of the Java string hash of the path itself (seen in Claude Code 2.1.332: a 242-character
 * path went to `<200 chars>-rwt8zd`).
 */
export function claudeProjectDirName(absPath: string): string {
  const enc = encodeClaudeProjectDir(absPath);
  if (enc.length <= CLAUDE_MAX_DIR) return enc;
  return `${enc.slice(0, CLAUDE_MAX_DIR)}-${Math.abs(javaHash(absPath)).toString(36)}`;
}

const caseInsensitiveFs = process.platform === 'win32' || process.platform === 'darwin';

function normPath(p: string): string {
  let r = path.resolve(p);
  if (r.length > 1 && (r.endsWith('/') || r.endsWith('\\'))) r = r.slice(0, -1);
  return caseInsensitiveFs ? r.toLowerCase() : r;
}

/** The folder as given and, when different, its real path (symbolic links resolved). */
export async function rootForms(root: string): Promise<string[]> {
  const abs = path.resolve(root);
  const forms = [abs];
  const real = await realPathOrNull(abs);
  if (real !== null && real !== abs) forms.push(real);
  return forms;
}

export function samePath(a: string, b: string): boolean {
  return normPath(a) === normPath(b);
}

/** At most this many transcripts of one project folder are asked for their `cwd` (newest first) before giving up. */
const MAX_CWD_CHECKS = 64;

/**
 * Newest top-level `<session-id>.jsonl` of a Claude Code project folder (sidechain `agent-*.jsonl`
 * files excluded) that belongs to one of `forms`: two folders can share a project folder name
 * (`/x/my-app` and `/x/my/app` both encode to `-x-my-app`), so a transcript whose own `cwd` is
 * another folder is passed over; one that records no `cwd` yet is taken (a session just begun),
 * one whose first 16 MB name none is not (nothing says whose it is).
 */
async function newestClaudeTranscript(dir: string, forms: readonly string[]): Promise<SessionRef | null> {
  const found: SessionRef[] = [];
  for (const name of await transcriptNames(dir)) {
    const p = path.join(dir, name);
    // A folder can hold thousands of sessions: one synchronous stat each (microseconds) instead
    // of a round trip through the thread pool per file.
    let st: Stats | undefined;
    try {
      st = statSync(p, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st || !st.isFile()) continue;
    found.push({ agent: 'claude', sessionId: name.slice(0, -'.jsonl'.length), path: p, mtime: st.mtimeMs });
  }
  found.sort((a, b) => b.mtime - a.mtime);
  for (const ref of found.slice(0, MAX_CWD_CHECKS)) if (await transcriptIsOurs(ref.path, forms)) return ref;
  return null;
}

/** Top-level `<session-id>.jsonl` names of a project folder, listed again only when the folder's mtime changed (a session added or removed). */
const namesCache = new Map<string, { mtimeMs: number; names: string[] }>();

async function transcriptNames(dir: string): Promise<string[]> {
  const st = await statOrNull(dir);
  if (!st || !st.isDirectory()) return [];
  const cached = namesCache.get(dir);
  if (cached && cached.mtimeMs === st.mtimeMs) return cached.names;
  const names = (await listNames(dir)).filter((n) => n.endsWith('.jsonl') && !n.startsWith('agent-'));
  if (namesCache.size > 256) namesCache.clear();
  // A folder changed in the last seconds may change again within its mtime's resolution: list it again next time.
  if (Date.now() - st.mtimeMs > 2000) namesCache.set(dir, { mtimeMs: st.mtimeMs, names });
  return names;
}

/**
 * Transcript `cwd`s found, by path, for the file found there (its identity): the first record that
 * names one is never rewritten, but another file can take the path.
 */
const cwdCache = new Map<string, { cwd: string; id: string }>();

/** How many bytes of a transcript's start its identity holds. */
const IDENTITY_BYTES = 256;

/**
 * Which file a path names, and which transcript it holds: its device, inode and birth time (an
 * inode number is reused once freed) and its first bytes (a transcript is only appended to: a file
 * emptied and written again, or rewritten in place, starts otherwise).
 */
function identityOf(st: { dev: number; ino: number; birthtimeMs: number }, head: Buffer): string {
  return `${st.dev}:${st.ino}:${st.birthtimeMs}:${head.toString('latin1')}`;
}

/** The identity of the file at `file` now and its size, or null. */
function identityAt(file: string): { id: string; size: number } | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const head = Buffer.alloc(IDENTITY_BYTES);
    return { id: identityOf(st, head.subarray(0, readSync(fd, head, 0, IDENTITY_BYTES, 0))), size: st.size };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** How far into a transcript its `cwd` is looked for by its whole lines. */
const CWD_HEAD_BYTES = 256 * 1024;
/** Past the head, the `cwd` member is looked for this many bytes at a time, up to CWD_SCAN_MAX_BYTES into the file. */
const CWD_CHUNK_BYTES = 1024 * 1024;
const CWD_SCAN_MAX_BYTES = 16 * 1024 * 1024;
/** Each read past the head starts this far before where the last one ended: a member it cut off is read whole (a path is short). */
const CWD_OVERLAP_BYTES = 64 * 1024;
/** Members whose value is no JSON string that one look passes over before it gives up (linear in any file). */
const CWD_BAD_MEMBERS_MAX = 64;

/**
 * What `claudeTranscriptCwd` says of a transcript that names no `cwd` in its first 16 MB (or holds
 * more than CWD_BAD_MEMBERS_MAX `cwd` members that are no string before one that is): Claude Code
 * writes the `cwd` into every message record, so such a file is no session just begun, and nothing
 * in it says which folder it belongs to.
 */
export const CWD_UNCONFIRMED = Symbol('cwd unconfirmed');

/**
 * Where the look for a transcript's `cwd` goes on, for the file it read (its identity): a transcript
 * only grows, and what was read names none. Another file at that path, or a shorter one, is read anew.
 */
const noCwdUntil = new Map<string, { id: string; until: number; unconfirmed: boolean }>();

/** A `cwd` member's name and string value, matched where the name starts. */
const CWD_MEMBER = /"cwd"[ \t\r\n]*:[ \t\r\n]*"((?:[^"\\]|\\.)*)"/y;

/** JSON's white space (space, tab, CR, LF). */
const jsonSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 10;

/**
 * The value of the first `cwd` member in `text` that is a JSON string; `bad` counts those that are
 * not. A member's name follows `{` or `,` (at most 64 white-space characters between): a key that
 * only ends in `cwd` is none. Linear: each `"cwd"` is looked at once, from where it stands.
 */
export function cwdMember(text: string, bad = { n: 0 }): string | null {
  for (let at = text.indexOf('"cwd"'); at >= 0 && bad.n < CWD_BAD_MEMBERS_MAX; at = text.indexOf('"cwd"', at + 5)) {
    let b = at - 1;
    while (b >= 0 && at - b <= 64 && jsonSpace(text.charCodeAt(b))) b--;
    if (b < 0 || (text[b] !== '{' && text[b] !== ',')) continue;
    CWD_MEMBER.lastIndex = at;
    const m = CWD_MEMBER.exec(text);
    if (!m) continue;
    if (!m[1].includes('\\')) return m[1];
    try {
      return JSON.parse(`"${m[1]}"`) as string;
    } catch {
      bad.n++;
    }
  }
  return null;
}

/**
 * The `cwd` of the first record of a Claude Code transcript that names one: null when none does
 * yet (a session just begun: its records so far are summaries, snapshots or queued prompts),
 * CWD_UNCONFIRMED when its first 16 MB name none. The head's lines that hold the field are decoded
 * whole; past the head (a queued prompt with a pasted file can fill it) the member is looked for in
 * the text, as every record names its `cwd` before its message.
 */
export async function claudeTranscriptCwd(file: string): Promise<string | null | typeof CWD_UNCONFIRMED> {
  const known = cwdCache.get(file);
  let from = noCwdUntil.get(file);
  const now = known || from ? identityAt(file) : null;
  if (known && known.id === now?.id) return known.cwd;
  let cwd: string | null = null;
  if (from) {
    if (from.id !== now?.id || now.size < from.until) from = undefined;
    else if (from.unconfirmed) return CWD_UNCONFIRMED;
  }
  if (!from) {
    const head = await readHead(file, CWD_HEAD_BYTES);
    if (!head) return null;
    for (let at = head.indexOf('"cwd"'); at >= 0 && cwd === null;) {
      const start = head.lastIndexOf(10, at) + 1;
      const nl = head.indexOf(10, at);
      const end = nl < 0 ? head.length : nl;
      const o = parseObject(head.subarray(start, end));
      if (o && typeof o.cwd === 'string') cwd = o.cwd;
      at = nl < 0 ? -1 : head.indexOf('"cwd"', end);
    }
    // A first record longer than the head: the member itself.
    if (cwd === null) cwd = cwdMember(head.toString('utf8'));
    if (cwd === null && head.length < CWD_HEAD_BYTES) return null;
    from = { id: '', until: CWD_HEAD_BYTES - CWD_OVERLAP_BYTES, unconfirmed: false };
  }
  if (cwd === null) {
    const found = await cwdPast(file, from.until);
    if (typeof found !== 'string') {
      if (noCwdUntil.size > 1024) noCwdUntil.clear();
      if (found.id) noCwdUntil.set(file, found);
      return found.unconfirmed ? CWD_UNCONFIRMED : null;
    }
    cwd = found;
  }
  const found = identityAt(file);
  if (cwdCache.size > 1024) cwdCache.clear();
  if (found) cwdCache.set(file, { cwd, id: found.id });
  return cwd;
}

/**
 * The first `cwd` member at or after byte `from` (read CWD_CHUNK_BYTES at a time, up to
 * CWD_SCAN_MAX_BYTES), else where to go on next time (the file's end less the overlap), and whether
 * the look is over: CWD_SCAN_MAX_BYTES read, or too many members that are no JSON string.
 */
async function cwdPast(
  file: string,
  from: number,
): Promise<string | { id: string; until: number; unconfirmed: boolean }> {
  const fh = await openRead(file);
  if (!fh) return { id: '', until: from, unconfirmed: false };
  try {
    const head = Buffer.alloc(IDENTITY_BYTES);
    const id = identityOf(await fh.stat(), head.subarray(0, await readAt(fh, head, 0)));
    const buf = Buffer.allocUnsafe(CWD_CHUNK_BYTES);
    const bad = { n: 0 };
    for (let pos = from; ; pos += CWD_CHUNK_BYTES - CWD_OVERLAP_BYTES) {
      const n = await readAt(fh, buf, pos);
      const cwd = cwdMember(buf.toString('utf8', 0, n), bad);
      if (cwd !== null) return cwd;
      if (pos + n >= CWD_SCAN_MAX_BYTES || bad.n >= CWD_BAD_MEMBERS_MAX)
        return { id, until: pos + n, unconfirmed: true };
      if (n < CWD_CHUNK_BYTES) return { id, until: Math.max(pos, pos + n - CWD_OVERLAP_BYTES), unconfirmed: false };
    }
  } catch {
    return { id: '', until: from, unconfirmed: false };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** True unless the transcript's own `cwd` names a folder other than `forms` (its text, or its real path). */
export async function transcriptIsOurs(file: string, forms: readonly string[]): Promise<boolean> {
  return cwdIsOurs(await claudeTranscriptCwd(file), forms);
}

/** A transcript's `cwd` (null: it names none yet) is one of these forms of the folder, or its real path is. */
export function cwdIsOurs(cwd: string | null | typeof CWD_UNCONFIRMED, forms: readonly string[]): boolean {
  if (cwd === CWD_UNCONFIRMED) return false;
  if (cwd === null || forms.some((f) => samePath(f, cwd))) return true;
  try {
    const real = realpathSync.native(cwd);
    return forms.some((f) => samePath(f, real));
  } catch {
    return false;
  }
}

/**
 * The newest Claude Code transcript of this workspace folder: `projects/<name>/` for the folder
 * (and its real path), named as Claude Code names it (`claudeProjectDirName`). When that folder is
 * absent and the name is long enough to have been cut, folders sharing the cut prefix are accepted
 * when their transcripts' `cwd` is this folder. Never a file under `<session-id>/subagents/`.
 */
export async function findClaudeSession(root: string, opts: MeterOptions = {}): Promise<SessionRef | null> {
  const projects = path.join(claudeHome(opts), 'projects');
  const forms = await rootForms(root);
  let best: SessionRef | null = null;
  const consider = (r: SessionRef | null) => {
    if (r && (!best || r.mtime > best.mtime)) best = r;
  };
  let listing: string[] | null = null;
  for (const form of forms) {
    const enc = encodeClaudeProjectDir(form);
    const named = claudeProjectDirName(form);
    const plain = await newestClaudeTranscript(path.join(projects, named), forms);
    if (plain) {
      consider(plain);
      continue;
    }
    if (enc.length <= CLAUDE_MAX_DIR) continue;
    // Cut names whose hash we did not reproduce (another client version, another hash): match the
    // cwd recorded inside the transcripts of the folders sharing the cut prefix.
    listing ??= await listNames(projects);
    const prefix = enc.slice(0, CLAUDE_MAX_DIR);
    for (const name of listing) {
      if (!name.startsWith(prefix) || name === named) continue;
      const cand = await newestClaudeTranscript(path.join(projects, name), forms);
      if (!cand) continue;
      // Here the folder name itself says nothing: only a transcript that names this folder counts.
      if (typeof (await claudeTranscriptCwd(cand.path)) === 'string') consider(cand);
    }
  }
  return best;
}

/** session_meta facts of a rollout, cached by path (the first line of a rollout never changes). */
interface CodexMeta {
  cwd: string | null;
  id: string | null;
}
const codexMetaCache = new Map<string, CodexMeta>();

export async function codexSessionMeta(file: string): Promise<CodexMeta> {
  const cached = codexMetaCache.get(file);
  if (cached) return cached;
  const first = await readFirstLine(file);
  let meta: CodexMeta = { cwd: null, id: null };
  if (first) {
    const o = first.complete ? parseObject(first.line) : null;
    const payload =
      o && o.type === 'session_meta' && o.payload && typeof o.payload === 'object'
        ? (o.payload as Record<string, unknown>)
        : null;
    if (payload) {
      meta = {
        cwd: typeof payload.cwd === 'string' ? payload.cwd : null,
        id: typeof payload.id === 'string' ? payload.id : null,
      };
    } else if (!first.complete && first.line.includes('"session_meta"')) {
      // An enormous first record: take the fields from its text.
      const cwd = /"cwd"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(first.line);
      const id = /"payload"\s*:\s*\{\s*"id"\s*:\s*"([^"]*)"/.exec(first.line);
      try {
        meta = { cwd: cwd ? (JSON.parse(`"${cwd[1]}"`) as string) : null, id: id ? id[1] : null };
      } catch {
        /* leave it empty */
      }
    }
    // Only a complete first line is final; a file still being created is asked again next time.
    if (first.complete || meta.cwd !== null) {
      if (codexMetaCache.size > 5000) codexMetaCache.clear();
      codexMetaCache.set(file, meta);
    }
  }
  return meta;
}

const ROLLOUT_ID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** The session id a rollout's file name carries, or null. */
export function codexIdFromName(file: string): string | null {
  return ROLLOUT_ID.exec(path.basename(file))?.[1] ?? null;
}

/** Day folders `sessions/YYYY/MM/DD`, newest first, at most `limit`. */
export async function codexDayDirs(sessions: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  const desc = (names: string[]) => names.filter((n) => /^\d+$/.test(n)).sort((a, b) => Number(b) - Number(a));
  for (const y of desc(await listNames(sessions))) {
    for (const m of desc(await listNames(path.join(sessions, y)))) {
      for (const d of desc(await listNames(path.join(sessions, y, m)))) {
        out.push(path.join(sessions, y, m, d));
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

/** Day folders always looked at (a long session keeps its start day's folder). */
export const CODEX_RECENT_DAYS = 14;
/** When none of those holds this workspace, look this far back, and no further. */
const CODEX_MAX_DAYS = 120;

/**
 * The newest Codex CLI rollout whose `session_meta` cwd is this workspace folder. Looks at the 14
 * most recent day folders (then further back, up to 120, only while nothing matched); each
 * rollout's first line is read once per process.
 */
export async function findCodexSession(root: string, opts: MeterOptions = {}): Promise<SessionRef | null> {
  const sessions = path.join(codexHome(opts), 'sessions');
  const forms = await rootForms(root);
  const days = await codexDayDirs(sessions, CODEX_MAX_DAYS);
  let best: SessionRef | null = null;
  for (let i = 0; i < days.length; i++) {
    if (i >= CODEX_RECENT_DAYS && best) break;
    const names = (await listNames(days[i])).filter((n) => n.startsWith('rollout-') && n.endsWith('.jsonl'));
    for (const name of names) {
      const p = path.join(days[i], name);
      const st = await statOrNull(p);
      if (!st || !st.isFile()) continue;
      if (best && st.mtimeMs <= best.mtime) continue;
      const meta = await codexSessionMeta(p);
      if (meta.cwd === null || !forms.some((f) => samePath(f, meta.cwd as string))) continue;
      best = { agent: 'codex', sessionId: meta.id ?? codexIdFromName(p), path: p, mtime: st.mtimeMs };
    }
  }
  return best;
}

/** Both agents' newest session of this folder, newest first. */
export async function findSessions(root: string, opts: MeterOptions = {}): Promise<SessionRef[]> {
  const [c, x] = await Promise.all([
    findClaudeSession(root, opts).catch(() => null),
    findCodexSession(root, opts).catch(() => null),
  ]);
  return [c, x].filter((r): r is SessionRef => r !== null).sort((a, b) => b.mtime - a.mtime);
}
