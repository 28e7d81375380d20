/**
 * How many times a session was compacted, from its transcript:
 *
 * - Claude Code: its `compact_boundary` records (`{"type":"system","subtype":"compact_boundary",
 *   "compactMetadata":{…}}`, main chain, this session's id);
 * - Codex CLI: its rollout's `compacted` records (`{"timestamp":…,"ordinal":…,"type":"compacted",
 *   "payload":{…}}`), one per compaction, by `/compact` or automatic. The record carries what the
 *   thread keeps after it (the summary, the user's messages), so it can be long: it is told from its
 *   head, its members up to its own `type`.
 *
 * S0's seed: after 2–3 compactions in one session, checkpoint to the ledger and `/clear` for a fresh
 * context with the state preserved (each /compact cycle loses detail).
 *
 * Counting needs every line once, so it is a forward pass, done incrementally: per transcript the
 * count and the offset read so far are cached (by file identity and size), in memory and in the
 * user's cache folder for the next process (a CLI run, a hook), and each call reads only the bytes
 * appended since. Only lines that contain the marker text are looked at, and only as much of a line
 * as can hold the record: a Claude Code line longer than 64 KB is a message, never a boundary record,
 * and is skipped without being kept; of a Codex CLI line only the first 4 KB are kept.
 *
 * A short-lived process passes a byte budget: it counts at most that much further and says whether
 * the count is complete, so its figure never waits for a pass over a 1 GB transcript; the next
 * process goes on from where it stopped.
 */
import * as path from 'node:path';
import { ALL_FACTS, FACTS } from '../systems/facts';
import type { Msg } from '../model/messages';
import type { SystemId } from '../model/model';
import { cacheKey, pruneCache, readCacheText, userCacheDir, writeCacheFile } from '../files/user-cache';
import { giveBuffer, openRead, parseObject, readAt, statOrNull, takeBuffer } from './files';
import type { Agent } from './records';

/** A seed's advice after N compactions in one session (S0's: checkpoint, then /clear instead of another /compact). */
export interface CompactionsAdvice {
  system: SystemId;
  /** From this many compactions on. */
  at: number;
  /** For a UI: `{0}` is the count. */
  said: Msg;
  /** For the CLI (English). */
  line: string;
}

/** The advice of the first of `ids` (the systems present and switched on) whose seed gives one, or null. */
export function compactionsAdviceOf(ids: readonly SystemId[]): CompactionsAdvice | null {
  for (const id of ids) {
    const f = FACTS[id].freshContext;
    if (f.clearAfterCompactions && f.compactionsAdvice)
      return {
        system: id,
        at: f.clearAfterCompactions,
        said: f.compactionsAdvice.said,
        line: f.compactionsAdvice.line,
      };
  }
  return null;
}

/** The fewest compactions after which any seed advises a fresh context (S0's guideline: after 2–3). */
export const COMPACTIONS_ADVICE_AT = Math.min(
  ...ALL_FACTS.map((f) => f.freshContext.clearAfterCompactions ?? Infinity),
);

/**
 * What one short-lived process (`context`) reads of a transcript to count its compactions, going on
 * from where the last call stopped (the count is `null`, unknown, until it reaches the end), so a
 * first call on a huge transcript costs what a later one does. Every byte of the budget costs fresh
 * memory for the buffer it is read into: 1 MB was about 240 more page faults than 256 KB (`perf stat`).
 */
export const COUNT_BUDGET_BYTES = 256 * 1024;

const CHUNK = 1024 * 1024;

/** How one client's compaction record is found in its transcript. */
interface RecordKind {
  /** Text every such record holds; a line without it is never parsed. */
  needle: Buffer;
  /** The most of a line kept to tell it (a line in progress is copied up to this). */
  keep: number;
  /**
   * True: the record is told from the first `keep` bytes of its line, however long the line is.
   * False: a line longer than `keep` is never the record, and is skipped.
   */
  byHead: boolean;
  /** The record's time when `line` (the whole line, or its head) is one of this session's compactions, else null. */
  match(line: Buffer, sessionId: string | null): { at: string | null } | null;
}

const CLAUDE_KIND: RecordKind = {
  needle: Buffer.from('compact_boundary'),
  keep: 64 * 1024,
  byHead: false,
  match(line, sessionId) {
    if (line.indexOf(this.needle) < 0) return null;
    const o = parseObject(line);
    if (!o || o.type !== 'system' || o.subtype !== 'compact_boundary' || o.isSidechain === true) return null;
    if (sessionId && typeof o.sessionId === 'string' && o.sessionId !== sessionId) return null;
    return { at: typeof o.timestamp === 'string' ? o.timestamp : null };
  },
};

const CODEX_KIND: RecordKind = {
  needle: Buffer.from('"compacted"'),
  keep: 4 * 1024,
  byHead: true,
  match(line) {
    const i = line.indexOf(this.needle);
    if (i < 0) return null;
    // The record's members up to the marker, closed: an object only when the marker is the value of
    // a member of the record itself (nested, or inside a string, it leaves the text unbalanced).
    const o = parseObject(`${line.toString('utf8', 0, i + this.needle.length)}}`);
    if (!o || o.type !== 'compacted') return null;
    return { at: typeof o.timestamp === 'string' ? o.timestamp : null };
  },
};

const KINDS: Record<Agent, RecordKind> = { claude: CLAUDE_KIND, codex: CODEX_KIND };

interface Entry {
  agent: Agent;
  dev: number;
  ino: number;
  /** Bytes consumed: just after the last complete line. */
  offset: number;
  count: number;
  /** ISO time of the newest compaction record, or null. */
  last: string | null;
  /** `offset` is inside a line already told (or too long to be the record): the rest of it up to its newline is skipped. */
  skipping?: boolean;
}

const cache = new Map<string, Entry>();
/**
 * When this process last stored each transcript's count (ms) and the count it stored. A process
 * that follows a transcript as it grows (the extension) stores a changed count at once and an
 * unchanged one at most every `STORE_EVERY_MS`: the next process then reads on from a slightly
 * older offset, which its own byte budget covers.
 */
const stored = new Map<string, { at: number; count: number }>();
const STORE_EVERY_MS = 5000;

/** Where the count of `file` is kept between processes, or null. */
function storeFile(file: string): string | null {
  const dir = userCacheDir();
  return dir && path.join(dir, `compactions-${cacheKey(file)}.json`);
}

/** The count another process kept for `file`, when it is for this very file read as `agent`'s. */
function storedEntry(file: string, agent: Agent): Entry | undefined {
  const f = storeFile(file);
  if (!f) return undefined;
  const text = readCacheText(f);
  if (text === null) return undefined;
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    const num = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
    // An entry that names no client was kept before Codex CLI's rollouts were counted: Claude Code's.
    if (
      o.file !== file ||
      (o.agent ?? 'claude') !== agent ||
      !num(o.dev) ||
      !num(o.ino) ||
      !num(o.offset) ||
      !num(o.count) ||
      !(o.last === null || typeof o.last === 'string')
    )
      return undefined;
    return {
      agent,
      dev: o.dev as number,
      ino: o.ino as number,
      offset: o.offset as number,
      count: o.count as number,
      last: o.last as string | null,
      skipping: o.skipping === true,
    };
  } catch {
    return undefined;
  }
}

export interface Compactions {
  /** Compaction records of this session in the transcript (Claude Code's `compact_boundary`, Codex CLI's `compacted`). */
  count: number;
  /** ISO time of the newest one, or null. */
  last: string | null;
  /** False when the byte budget ran out before the end of the file: `count` is what was counted so far. */
  complete: boolean;
}

/**
 * The compactions of the session a transcript belongs to: a Claude Code transcript (its file name is
 * the session id) or, with `agent` `codex`, a Codex CLI rollout (one thread). Reads only what was
 * appended since the last call for the same file, and at most `maxBytes` of it (the result says
 * whether it reached the end); a file replaced or cut shorter is counted again from the start.
 * Never throws: an unreadable file counts 0.
 */
export async function countCompactions(
  file: string,
  maxBytes = Infinity,
  agent: Agent = 'claude',
): Promise<Compactions> {
  const kind = KINDS[agent];
  const st = await statOrNull(file);
  if (!st || !st.isFile()) {
    cache.delete(file);
    return { count: 0, last: null, complete: true };
  }
  let e = cache.get(file);
  if (e?.agent !== agent) e = storedEntry(file, agent);
  const from = e?.offset;
  if (!e || e.dev !== st.dev || e.ino !== st.ino || st.size < e.offset)
    e = { agent, dev: st.dev, ino: st.ino, offset: 0, count: 0, last: null };
  // A budget over twice the most kept of a line always gets past a long line (it is then skipped, across calls).
  const end = Math.min(st.size, e.offset + Math.max(maxBytes, 2 * kind.keep + 1));
  if (end > e.offset) {
    const base = path.basename(file, '.jsonl');
    const sessionId = agent === 'claude' && /^[0-9a-f-]{8,}$/i.test(base) ? base : null;
    const fh = await openRead(file);
    if (fh) {
      // Only the bytes to read (an append is usually far less than a chunk), in a reused buffer.
      const buf = takeBuffer(Math.min(CHUNK, end - e.offset));
      try {
        let pos = e.offset;
        // The line in progress: what is kept of it so far (`carry`), or `skipping` once it is told or too long.
        let carry: Buffer | null = null;
        let skipping = e.skipping === true;
        const count = (line: Buffer) => {
          const b = kind.match(line, sessionId);
          if (b) {
            e.count++;
            e.last = b.at ?? e.last;
          }
        };
        /** More of the line in progress (no newline in `rest`). */
        const grow = (rest: Buffer) => {
          if (skipping || rest.length === 0) return;
          const have = carry?.length ?? 0;
          if (have + rest.length <= kind.keep) {
            carry = carry ? Buffer.concat([carry, rest]) : Buffer.from(rest);
            return;
          }
          // Past what is kept of a line: a record told by its head is told now; a longer line is no record.
          if (kind.byHead)
            count(carry ? Buffer.concat([carry, rest.subarray(0, kind.keep - have)]) : rest.subarray(0, kind.keep));
          carry = null;
          skipping = true;
        };
        /** The line in progress ends with `rest`. */
        const endLine = (rest: Buffer) => {
          if (!skipping) {
            const line = carry ? Buffer.concat([carry, rest]) : rest;
            if (line.length <= kind.keep) count(line);
            else if (kind.byHead) count(line.subarray(0, kind.keep));
          }
          carry = null;
          skipping = false;
        };
        while (pos < end) {
          const n = await readAt(fh, buf.subarray(0, Math.min(buf.length, CHUNK, end - pos)), pos);
          if (n <= 0) break;
          const got = buf.subarray(0, n);
          const lastNl = got.lastIndexOf(10);
          if (lastNl < 0) {
            // No line ends in this chunk: it all belongs to the line in progress.
            grow(got);
            pos += n;
            continue;
          }
          // The line in progress ends at the first newline.
          const firstNl = got.indexOf(10);
          endLine(got.subarray(0, firstNl));
          // The complete lines after it: only a line holding the marker text is looked at, so a
          // chunk is searched once instead of line by line.
          for (let at = got.indexOf(kind.needle, firstNl + 1); at >= 0 && at < lastNl;) {
            const lineEnd = got.indexOf(10, at);
            const lineStart = got.lastIndexOf(10, at) + 1;
            if (lineEnd - lineStart <= kind.keep) count(got.subarray(lineStart, lineEnd));
            else if (kind.byHead && at + kind.needle.length - lineStart <= kind.keep)
              count(got.subarray(lineStart, lineStart + kind.keep));
            at = got.indexOf(kind.needle, lineEnd + 1);
          }
          e.offset = pos + lastNl + 1;
          e.skipping = false;
          grow(got.subarray(lastNl + 1));
          pos += n;
        }
        // Stopped inside a line already told or too long to be the record: the next call skips the rest of it from here.
        if (skipping) {
          e.offset = pos;
          e.skipping = true;
        }
      } catch {
        /* keep what was counted; the next call goes on from the last complete line */
      } finally {
        giveBuffer(buf);
        await fh.close().catch(() => undefined);
      }
    }
  }
  if (cache.size > 256) cache.clear();
  cache.set(file, e);
  const last = stored.get(file);
  const now = Date.now();
  if (e.offset !== from && (!last || last.count !== e.count || now - last.at >= STORE_EVERY_MS)) {
    const f = storeFile(file);
    if (stored.size > 256) stored.clear();
    stored.set(file, { at: now, count: e.count });
    if (f) {
      // A transcript counted for the first time: what old ones left behind goes.
      if (from === undefined) pruneCache(path.dirname(f));
      writeCacheFile(
        f,
        JSON.stringify({
          file,
          agent: e.agent,
          dev: e.dev,
          ino: e.ino,
          offset: e.offset,
          count: e.count,
          last: e.last,
          skipping: e.skipping === true,
        }),
      );
    }
  }
  return { count: e.count, last: e.last, complete: end >= st.size };
}

/** True from the fewest compactions after which a seed advises a fresh context. */
export function adviseClear(count: number): boolean {
  return count >= COMPACTIONS_ADVICE_AT;
}
