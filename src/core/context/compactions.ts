/**
 * How many times a Claude Code session was compacted: its `compact_boundary` records
 * (`{"type":"system","subtype":"compact_boundary","compactMetadata":{…}}`, main chain, this
 * session's id). S0's seed: after 2–3 compactions in one session, checkpoint to the ledger and
 * `/clear` for a fresh context with the state preserved (each /compact cycle loses detail).
 *
 * Counting needs every line once, so it is a forward pass, done incrementally: per transcript the
 * count and the offset read so far are cached (by file identity and size), in memory and in the
 * user's cache folder for the next process (a CLI run, a hook), and each call reads only the bytes
 * appended since. Only short lines that contain the marker text are parsed; a line
 * longer than 64 KB is a message, never a boundary record, and is skipped without being kept.
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
const MAX_LINE = 64 * 1024;
const NEEDLE = Buffer.from('compact_boundary');

interface Entry {
  dev: number;
  ino: number;
  /** Bytes consumed: just after the last complete line. */
  offset: number;
  count: number;
  /** ISO time of the newest boundary, or null. */
  last: string | null;
  /** `offset` is inside a line longer than the longest boundary record: the rest of it up to its newline is skipped. */
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

/** The count another process kept for `file`, when it is for this very file. */
function storedEntry(file: string): Entry | undefined {
  const f = storeFile(file);
  if (!f) return undefined;
  const text = readCacheText(f);
  if (text === null) return undefined;
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    const num = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
    if (
      o.file !== file ||
      !num(o.dev) ||
      !num(o.ino) ||
      !num(o.offset) ||
      !num(o.count) ||
      !(o.last === null || typeof o.last === 'string')
    )
      return undefined;
    return {
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
  /** `compact_boundary` records of this session in the transcript. */
  count: number;
  /** ISO time of the newest one, or null. */
  last: string | null;
  /** False when the byte budget ran out before the end of the file: `count` is what was counted so far. */
  complete: boolean;
}

/**
 * The line in progress after `rest` is added to `carry`: a copy while it may still be a boundary
 * record, else `skipping` (a line longer than the longest boundary record is skipped to its newline).
 */
function grow(carry: Buffer | null, rest: Buffer): [Buffer | null, boolean] {
  if (rest.length === 0) return [carry, false];
  if ((carry?.length ?? 0) + rest.length > MAX_LINE) return [null, true];
  return [carry ? Buffer.concat([carry, rest]) : Buffer.from(rest), false];
}

function isBoundary(line: Buffer, sessionId: string | null): { at: string | null } | null {
  if (line.indexOf(NEEDLE) < 0) return null;
  const o = parseObject(line);
  if (!o || o.type !== 'system' || o.subtype !== 'compact_boundary' || o.isSidechain === true) return null;
  if (sessionId && typeof o.sessionId === 'string' && o.sessionId !== sessionId) return null;
  return { at: typeof o.timestamp === 'string' ? o.timestamp : null };
}

/**
 * The compactions of the session a Claude Code transcript belongs to (its file name is the session
 * id). Reads only what was appended since the last call for the same file, and at most `maxBytes`
 * of it (the result says whether it reached the end); a file replaced or cut shorter is counted
 * again from the start. Never throws: an unreadable file counts 0.
 */
export async function countCompactions(file: string, maxBytes = Infinity): Promise<Compactions> {
  const st = await statOrNull(file);
  if (!st || !st.isFile()) {
    cache.delete(file);
    return { count: 0, last: null, complete: true };
  }
  let e = cache.get(file) ?? storedEntry(file);
  const from = e?.offset;
  if (!e || e.dev !== st.dev || e.ino !== st.ino || st.size < e.offset)
    e = { dev: st.dev, ino: st.ino, offset: 0, count: 0, last: null };
  // A budget over twice the longest boundary always gets past a long line (it is then skipped, across calls).
  const end = Math.min(st.size, e.offset + Math.max(maxBytes, 2 * MAX_LINE + 1));
  if (end > e.offset) {
    const base = path.basename(file, '.jsonl');
    const sessionId = /^[0-9a-f-]{8,}$/i.test(base) ? base : null;
    const fh = await openRead(file);
    if (fh) {
      // Only the bytes to read (an append is usually far less than a chunk), in a reused buffer.
      const buf = takeBuffer(Math.min(CHUNK, end - e.offset));
      try {
        let pos = e.offset;
        let carry: Buffer | null = null;
        let skipping = e.skipping === true;
        const count = (line: Buffer) => {
          const b = isBoundary(line, sessionId);
          if (b) {
            e.count++;
            e.last = b.at ?? e.last;
          }
        };
        while (pos < end) {
          const n = await readAt(fh, buf.subarray(0, Math.min(buf.length, CHUNK, end - pos)), pos);
          if (n <= 0) break;
          const got = buf.subarray(0, n);
          const lastNl = got.lastIndexOf(10);
          if (lastNl < 0) {
            // No line ends in this chunk: it all belongs to the line in progress.
            if (!skipping) [carry, skipping] = grow(carry, got);
            pos += n;
            continue;
          }
          // The line in progress ends at the first newline.
          const firstNl = got.indexOf(10);
          if (!skipping) {
            const head = got.subarray(0, firstNl);
            count(carry ? Buffer.concat([carry, head]) : head);
          }
          // The complete lines after it: only a line holding the marker text is looked at, so a
          // chunk is searched once instead of line by line.
          for (let at = got.indexOf(NEEDLE, firstNl + 1); at >= 0 && at < lastNl;) {
            const lineEnd = got.indexOf(10, at);
            const lineStart = got.lastIndexOf(10, at) + 1;
            if (lineEnd - lineStart <= MAX_LINE) count(got.subarray(lineStart, lineEnd));
            at = got.indexOf(NEEDLE, lineEnd + 1);
          }
          e.offset = pos + lastNl + 1;
          e.skipping = false;
          [carry, skipping] = grow(null, got.subarray(lastNl + 1));
          pos += n;
        }
        // Stopped inside a line too long to be a boundary: the next call skips the rest of it from here.
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
