/**
 * The checkpoint marker (S2's `.claude/.checkpoint-ready.<session-id>`): what a checkpoint writes, and
 * what the PreCompact guard reads to let a compaction through.
 *
 * Content, one line, the manual items the user confirmed (when any), then one line per vouched state
 * file (that part is `sha256sum` format):
 *
 *     <session-id|-> <ISO time> <LABEL>[ nothing-to-preserve]
 *     confirmed <id>,<S1:id>…
 *     <sha256>  <relative path>
 *
 * Markers written before the `confirmed` line existed hold none: they confirm nothing, and every
 * reader that does not know the line passes it by (it is no line that vouches for a file, and names
 * no session and no opt-out).
 *
 * The first whitespace-separated token is the session id, so every guard that reads it agrees on
 * who signed it; `-` (or an empty file, as S2's `touch` writes it) means "unsigned".
 */
import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { lstatOrNullSync, readStart, readTextFile } from '../files/fsread';
import { localTime } from '../model/time';
import { t, type Msg } from '../model/messages';

export const MARKER_DIR = '.claude';
export const SHARED_MARKER_REL = '.claude/.checkpoint-ready';
export const NOTHING_TO_PRESERVE = 'nothing-to-preserve';

/**
 * A session id as it may become part of a file name: letters, digits, `.`, `_`, `-`, starting with a
 * letter or digit (Claude Code's ids are UUIDs). Anything else counts as no id at all.
 */
export function isSessionId(s: unknown): s is string {
  return (
    typeof s === 'string' &&
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(s) &&
    // The word in a marker is the opt-out: an id that holds it would make every marker of its session one.
    !s.toLowerCase().includes(NOTHING_TO_PRESERVE)
  );
}

/** `.claude/.checkpoint-ready.<id>`, or the shared `.claude/.checkpoint-ready` without an id. */
export function markerRel(sessionId: string | null | undefined): string {
  return isSessionId(sessionId) ? `${SHARED_MARKER_REL}.${sessionId}` : SHARED_MARKER_REL;
}

export interface MarkerContent {
  /** The first of `sessionIds`, or null when unsigned. */
  sessionId: string | null;
  /**
   * The sessions that sign the marker: the one the checkpoint's first line names (`<id> <time>
   * <label>`), else every session UUID the marker names anywhere (lower-cased; S2's `echo <id> >`,
   * JSON, `session-<id>`). None for what else a person writes (`touch`, `date >`, `echo done >`).
   */
  sessionIds: string[];
  /** ISO time written by `session-ledger checkpoint`, or null. */
  at: string | null;
  label: string | null;
  /** The content says `nothing-to-preserve` (case-insensitive, as S2's guard greps), outside the lines that vouch for a file. */
  nothingToPreserve: boolean;
  /** State files the marker vouches for. */
  hashes: Array<{ hash: string; path: string }>;
  /**
   * The manual items the checkpoint had confirmed (`feedback-stored`, `S1:state-reviewed`): its
   * `confirmed` line, read only below the checkpoint's own first line. Empty for any other marker.
   */
  confirmed: string[];
}

/** A manual item's id as a marker's `confirmed` line holds it: bare, or after its system (`S1:`). */
const CONFIRMED_ID = /^(?:S[0-9]:)?[a-z][a-z0-9-]{0,63}$/;
/** The line of the confirmed items, right below the checkpoint's first line. */
const CONFIRMED_LINE = /^confirmed ([^\s]+)$/;

export function formatMarker(m: {
  sessionId: string | null;
  at: string;
  label: string;
  nothingToPreserve?: boolean;
  hashes?: ReadonlyArray<{ hash: string; path: string }>;
  confirmed?: readonly string[];
}): string {
  const head = [isSessionId(m.sessionId) ? m.sessionId : '-', m.at, m.label];
  if (m.nothingToPreserve) head.push(NOTHING_TO_PRESERVE);
  const lines = [head.join(' ')];
  const confirmed = (m.confirmed ?? []).filter((id) => CONFIRMED_ID.test(id) && !OPT_OUT.test(id));
  if (confirmed.length) lines.push(`confirmed ${confirmed.join(',')}`);
  // As `sha256sum` writes a name with a backslash or a line break: the line starts with `\` and the
  // name is escaped, so a file name can never start a line of its own in the marker. A name that
  // says nothing-to-preserve is escaped too (`nothing\-to\-preserve`): the word in a marker is the
  // opt-out to every guard that greps it, and a file name must never say it.
  for (const h of m.hashes ?? [])
    lines.push(
      /[\\\n\r]/.test(h.path) || OPT_OUT.test(h.path)
        ? `\\${h.hash}  ${h.path
            .replace(/\\/g, '\\\\')
            .replace(/\n/g, '\\n')
            .replace(/\r/g, '\\r')
            .replace(OPT_OUT_ALL, (w) => w.replace(/-/g, '\\-'))}`
        : `${h.hash}  ${h.path}`,
    );
  return `${lines.join('\n')}\n`;
}

/** A session UUID as Claude Code and Codex make them. */
const UUID_SRC = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID = new RegExp(`^${UUID_SRC}$`, 'i');
/** The same anywhere in a text (not inside a longer run of hex digits). */
const UUID_ANY = new RegExp(`(?<![0-9a-f])${UUID_SRC}(?![0-9a-f])`, 'gi');

/** One session id as a marker may write it: the same id, or the same UUID in another case. */
export function sameSession(a: string, b: string | null): boolean {
  return a === b || (b !== null && a.toLowerCase() === b.toLowerCase() && UUID.test(a));
}
/** The first line the checkpoint writes: the session id (or `-`), its ISO time and its label. */
const TOOL_HEAD = /^(\S+) \d{4}-\d{2}-\d{2}T\S+ (?:WORKING|PARTIAL|BROKEN)(?: |$)/;

/** The opt-out word, as the guards find it (any case). */
const OPT_OUT = /nothing-to-preserve/i;
const OPT_OUT_ALL = /nothing-to-preserve/gi;
/** A line that vouches for a file: `<sha256>  <name>`, or `\<sha256>  <escaped name>`. */
const HASH_LINE = /^(\\?)([0-9a-f]{64}) [ *]([^\n]+)$/;

/** Read marker content tolerantly: whatever an agent or another tool wrote. */
export function parseMarker(text: string): MarkerContent {
  const lines = text.split(/\r?\n/);
  const head = (lines[0] ?? '').trim().split(/\s+/).filter(Boolean);
  const at = head[1] && !Number.isNaN(Date.parse(head[1])) ? head[1] : null;
  // The checkpoint's own first line names its session by its first word, as written; the rest of
  // that line, and every other line but those that vouch for a file, names each session UUID in it
  // (JSON, quoted, `session-<id>`: however written).
  const toolId = TOOL_HEAD.exec(lines[0] ?? '')?.[1];
  const own = isSessionId(toolId) ? [toolId] : [];
  const body = own.length ? [(lines[0] ?? '').slice(own[0].length), ...lines.slice(1)] : lines;
  const rest = body.filter((l) => !HASH_LINE.test(l)).join('\n');
  const signers = [...new Set([...own, ...(rest.match(UUID_ANY) ?? []).map((u) => u.toLowerCase())])];
  const label = head[2] && /^(WORKING|PARTIAL|BROKEN)$/.test(head[2]) ? head[2] : null;
  const hashes: MarkerContent['hashes'] = [];
  for (const l of lines.slice(1)) {
    const m = HASH_LINE.exec(l);
    if (m)
      hashes.push({
        hash: m[2],
        path: m[1] ? m[3].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c)) : m[3],
      });
  }
  // The confirmed items only as the checkpoint writes them: its own first line, then theirs.
  const said = own.length ? CONFIRMED_LINE.exec(lines[1] ?? '')?.[1] : undefined;
  const confirmed = said ? [...new Set(said.split(',').filter((id) => CONFIRMED_ID.test(id)))] : [];
  return {
    sessionId: signers[0] ?? null,
    sessionIds: signers,
    confirmed,
    at,
    label,
    // Anywhere but in a line that vouches for a file: that line's name is the file's, whatever it says.
    nothingToPreserve: lines.some((l) => OPT_OUT.test(l) && !HASH_LINE.test(l)),
    hashes,
  };
}

export interface MarkerFile {
  /** Relative path (`.claude/.checkpoint-ready…`). */
  rel: string;
  path: string;
  mtime: number;
  text: string;
  content: MarkerContent;
}

/** The largest marker read: the tool's own hold a line and one line per state file. */
export const MARKER_MAX_BYTES = 64 * 1024;

/**
 * The first folder between the root and `rel` (root-relative, with `/`) that is a symbolic link, or
 * null. The tool writes its markers through no link, so a marker reached through a linked `.claude`
 * (a repository can commit the link, and whoever can write where it leads can place a marker there
 * at any time) is none of its.
 */
export function linkedFolderOf(root: string, rel: string): string | null {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const shown = parts.slice(0, i).join('/');
    if (lstatOrNullSync(path.join(root, shown))?.isSymbolicLink()) return shown;
  }
  return null;
}

/** How far ahead of the clock a marker's time may be (another machine's clock on a shared folder) before it is no marker. */
const MARKER_CLOCK_SLACK_MS = 5 * 60_000;

/**
 * What stands at a marker's path: a marker (`marker`); nothing (all null); something no checkpoint
 * wrote (`planted`, what it is): a symbolic link, a folder or another non-file, a file with a second
 * hard link, one reached through a linked folder, one larger than any marker, or one dated in the
 * future (its age would count as none), each of which would let every /compact through; or a file
 * that cannot be read (`error`: permission, I/O). Never throws.
 */
export async function markerAt(
  root: string,
  rel: string,
  now: number,
): Promise<{ marker: MarkerFile | null; error: string | null; planted: Msg | null }> {
  const abs = path.join(root, rel);
  const st = lstatOrNullSync(abs);
  if (!st) return { marker: null, error: null, planted: null };
  const planted = plantedOf(root, rel, st, now);
  if (planted) return { marker: null, error: null, planted };
  const marker = await readMarker(root, rel);
  if (marker) return { marker, error: null, planted: null };
  // Only a read that failed (permission, I/O) is an error; a file that changed under the read is no marker.
  const f = await readTextFile(abs, 1);
  const failed = !f.ok && f.kind !== 'missing' && f.kind !== 'binary' && f.kind !== 'not-utf8';
  return { marker: null, error: failed ? f.message : null, planted: null };
}

/** What stands at a marker's path and is no marker a checkpoint wrote (see `markerAt`), from its file data alone, or null (nothing there, or a marker's file). */
export function plantedAt(root: string, rel: string, now: number): Msg | null {
  const st = lstatOrNullSync(path.join(root, rel));
  return st ? plantedOf(root, rel, st, now) : null;
}

/** What stands there, as a part of a sentence ("{0} is {1}, not a marker …"). */
function plantedOf(root: string, rel: string, st: Stats, now: number): Msg | null {
  const linked = linkedFolderOf(root, rel);
  if (linked !== null) return t('reached through {0}, a symbolic link', linked);
  if (st.isSymbolicLink()) return t('a symbolic link');
  if (st.isDirectory()) return t('a folder');
  if (!st.isFile()) return t('not a regular file');
  if (st.nlink > 1) return t('a file with {0} hard links', st.nlink);
  if (st.size > MARKER_MAX_BYTES) return t('larger than {0} KB', MARKER_MAX_BYTES / 1024);
  if (st.mtimeMs > now + MARKER_CLOCK_SLACK_MS) return t('dated in the future ({0})', localTime(st.mtimeMs));
  return null;
}

/** The marker file at `rel`, read as it stands (`markerAt` says first whether a checkpoint could have written it); null when none or larger than MARKER_MAX_BYTES. */
async function readMarker(root: string, rel: string): Promise<MarkerFile | null> {
  const abs = path.join(root, rel);
  const f = await readTextFile(abs, MARKER_MAX_BYTES);
  // Larger than any marker the tool writes: what it names past its first 64 KB is not read, so it is none.
  if (f.ok && f.truncated) return null;
  if (!f.ok) {
    // An empty file reads fine; a binary one is still a marker that exists (S2's `touch` semantics).
    if (f.kind === 'binary' || f.kind === 'not-utf8') {
      // Still read for the session it names: UTF-16 as Windows shells write it, else byte for byte.
      // One byte more than a marker may hold: a file of exactly MARKER_MAX_BYTES is read whole.
      const bytes = readStart(abs, MARKER_MAX_BYTES + 1);
      if (!bytes || bytes.length > MARKER_MAX_BYTES) return null;
      const text = bytes ? otherEncoding(bytes) : '';
      return { rel, path: abs, mtime: f.mtime, text, content: parseMarker(text) };
    }
    return null;
  }
  return { rel, path: abs, mtime: f.mtime, text: f.text, content: parseMarker(f.text) };
}

/** A marker's text that is no UTF-8: UTF-16 by its byte order mark, else each byte as a character. */
function otherEncoding(bytes: Buffer): string {
  const even = (b: Buffer) => b.subarray(0, b.length - (b.length % 2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return even(bytes.subarray(2)).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return Buffer.from(even(bytes.subarray(2)))
      .swap16()
      .toString('utf16le');
  // Without a byte order mark: each byte, NULs left out (UTF-16 text of ASCII reads as its ASCII).
  return Buffer.from(bytes.filter((b) => b !== 0)).toString('latin1');
}

/** Every per-session marker under `.claude/` (names only), for views and clean-up. */
export async function listMarkers(root: string): Promise<string[]> {
  try {
    return (await fs.readdir(path.join(root, MARKER_DIR)))
      .filter((n) => n === '.checkpoint-ready' || n.startsWith('.checkpoint-ready.'))
      .map((n) => `${MARKER_DIR}/${n}`);
  } catch {
    return [];
  }
}
