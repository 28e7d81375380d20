/**
 * Follows one transcript in constant time: the first read scans backwards from the end until the
 * figure is found; later reads read only the bytes appended since. A file that shrank, was
 * replaced, or was rewritten under us is read again from its tail. A torn last line (the agent is
 * mid-write) is tried and, when it does not parse, skipped until it is complete.
 */
import type { ContextUsage } from '../model/model';
import type { MeterOptions, SessionRef } from './discovery';
import { FeedReader, feedPath, type FeedInfo } from './feed';
import { giveBuffer, openRead, parseObject, readAt, scanBackward, statOrNull, takeBuffer, type Handle } from './files';
import { trackerFor, type Figure, type Tracker } from './records';
import { baseModel, claudeWindow, percentOf, type WindowChoice } from './window';

export interface FollowerOptions extends MeterOptions {
  /** Workspace root: its statusLine feed is consulted (Claude Code only). */
  root?: string;
  /**
   * Give up the backward scan after this many bytes (`scanLimit`). Default 64 MB: the scan
   * stops at the newest usage record, so it reads only what came after it (a pasted image, a long
   * tool run); the cap only bounds a file that holds no usage at all.
   */
  maxScanBytes?: number;
  /** Once the figure is found, look this much further back for the model it ran on. Default 1 MB. */
  modelLookback?: number;
}

export const DEFAULT_MAX_SCAN = 64 * 1024 * 1024;
/** A record longer than this (a pasted image or document) is passed over unread: no usage record is that long. */
export const MAX_RECORD = 16 * 1024 * 1024;
const DEFAULT_MODEL_LOOKBACK = 1024 * 1024;
/** Bytes kept from just before the offset, to notice a file rewritten in place. */
const FINGERPRINT = 64;
const FORWARD_CHUNK = 1024 * 1024;
/** A torn tail longer than this is not worth parsing until it is complete. */
const MAX_TORN = 4 * 1024 * 1024;

function sameFigure(a: Figure | null, b: Figure | null): boolean {
  return (
    a === b ||
    (a !== null &&
      b !== null &&
      a.usedTokens === b.usedTokens &&
      a.at === b.at &&
      a.afterCompaction === b.afterCompaction &&
      a.model === b.model)
  );
}

export class ContextFollower {
  readonly ref: SessionRef;
  private readonly opts: FollowerOptions;
  private readonly maxScan: number;
  /** State from every complete line before `offset`. */
  private tracker: Tracker;
  /** Bytes consumed: just after the last complete line read (-1 before the first read). */
  private offset = -1;
  private fingerprint: Buffer = Buffer.alloc(0);
  /** The bytes after the offset as the last forward read saw them (a record not ended by a newline yet), or null. */
  private tornTail: Buffer | null = null;
  private ino = -1;
  private dev = -1;
  private size = -1;
  private mtime = -1;
  /** The figure including the torn tail, when it parsed. */
  private current: Figure | null = null;
  private feed: FeedReader | null = null;
  private feedSession: string | null = null;
  /**
   * A record newer than the figure that is too large to read (longer than MAX_RECORD: a pasted
   * file), with its size in bytes; null when the figure is the newest. The figure then is the last
   * one before it.
   */
  private tooLargeBytes: number | null = null;
  /** The last backward scan stopped at its byte limit, and no figure was found. */
  private gaveUp = false;

  /** The newest record passed over as too large to read, when it is newer than the figure (its size in bytes), else null. */
  get tooLarge(): number | null {
    return this.tooLargeBytes;
  }

  /**
   * With no figure: the bytes the backward scan read from the end before it gave up (any usage is
   * older than them), or null when it read back to the file's start (or found a figure).
   */
  get scanLimit(): number | null {
    return this.gaveUp ? this.maxScan : null;
  }

  constructor(ref: SessionRef, opts: FollowerOptions = {}) {
    this.ref = ref;
    this.opts = opts;
    this.maxScan = opts.maxScanBytes ?? DEFAULT_MAX_SCAN;
    this.tracker = trackerFor(ref.agent);
  }

  /** Reads in flight run one after the other (a watcher may fire twice). */
  private queue: Promise<unknown> = Promise.resolve();

  /** The figure now, or null when no usage was found yet. Never throws on content. */
  read(): Promise<ContextUsage | null> {
    const next = this.queue.then(() => this.readNow());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async readNow(): Promise<ContextUsage | null> {
    let fig: Figure | null = null;
    try {
      fig = await this.readTranscript();
    } catch {
      fig = this.current;
    }
    const feed = this.ref.agent === 'claude' && this.opts.root ? await this.readFeed(fig).catch(() => null) : null;
    const transcript = fig ? this.usage(fig, feed) : null;
    if (transcript && this.tooLargeBytes !== null) transcript.tooLargeRecordBytes = this.tooLargeBytes;
    if (!feed?.figure) return transcript;
    const tTime = transcript
      ? transcript.at !== null && Number.isFinite(Date.parse(transcript.at))
        ? Date.parse(transcript.at)
        : this.mtime
      : -Infinity;
    if (feed.figure.receivedAt <= tTime) return transcript;
    const f = feed.figure;
    return {
      agent: 'claude',
      sessionId: f.sessionId,
      transcriptPath: this.ref.path,
      model: f.model ?? transcript?.model ?? null,
      usedTokens: f.usedTokens,
      windowTokens: f.windowTokens,
      windowSource: 'client',
      percent: f.percent,
      at: new Date(f.receivedAt).toISOString(),
      afterCompaction: false,
      source: 'statusline',
    };
  }

  /** This session's statusLine record (its figure and the window Claude Code reported), or null. */
  private async readFeed(fig: Figure | null): Promise<FeedInfo | null> {
    const sid = this.ref.sessionId ?? fig?.sessionId ?? null;
    if (!sid || !this.opts.root) return null;
    if (!this.feed || this.feedSession !== sid) {
      this.feed = new FeedReader(feedPath(this.opts.root, sid), this.opts.root);
      this.feedSession = sid;
    }
    const f = await this.feed.read();
    return f && f.sessionId === sid ? f : null;
  }

  private async readTranscript(): Promise<Figure | null> {
    const st = await statOrNull(this.ref.path);
    if (!st || !st.isFile()) {
      this.reset();
      return null;
    }
    const replaced = st.ino !== this.ino || st.dev !== this.dev;
    if (this.offset >= 0 && !replaced && st.size === this.size && st.mtimeMs === this.mtime) return this.current;
    const fh = await openRead(this.ref.path);
    if (!fh) return this.current;
    try {
      // The size from the stat above: bytes appended since are read next time.
      const size = st.size;
      this.tornTail = null;
      if (this.offset < 0 || replaced || size < this.offset) {
        await this.tail(fh, size);
      } else if (size - this.offset > this.maxScan) {
        // Too much appended to read forwards: the tail holds the answer (keep ours if it does not).
        await this.tail(fh, size, true);
      } else if (!(await this.forward(fh, size))) {
        await this.tail(fh, size);
      }
      this.ino = st.ino;
      this.dev = st.dev;
      this.size = size;
      this.mtime = st.mtimeMs;
      this.current = await this.withTornTail(fh, size);
    } finally {
      await fh.close().catch(() => undefined);
    }
    return this.current;
  }

  private reset(): void {
    this.tracker = trackerFor(this.ref.agent);
    this.offset = -1;
    this.fingerprint = Buffer.alloc(0);
    this.ino = this.dev = this.size = this.mtime = -1;
    this.current = null;
    this.tooLargeBytes = null;
    this.gaveUp = false;
  }

  /** Scan backwards from `size`. With `keepIfNone`, an unsuccessful scan keeps the old state. */
  private async tail(fh: Handle, size: number, keepIfNone = false): Promise<void> {
    const t = trackerFor(this.ref.agent);
    let lastStart = -1;
    let first = true;
    let settledAt = -1;
    /** The newest record passed over as too large before the figure was found. */
    let tooLarge: number | null = null;
    const lookback = this.opts.modelLookback ?? DEFAULT_MODEL_LOOKBACK;
    const ended = await scanBackward(
      fh,
      size,
      this.maxScan,
      (line, start) => {
        if (first) {
          first = false;
          if (start + line.length === size) {
            // The last line has no newline yet: it is the torn tail, tried separately.
            lastStart = start;
            return false;
          }
        }
        if (settledAt >= 0 && settledAt - start > lookback) return true;
        if (!t.relevant(line)) return false;
        const o = parseObject(line);
        if (!o) return false;
        const r = t.pushBackward(o);
        if (r === 'done') return true;
        if (r === 'figure' && settledAt < 0) settledAt = start;
        return false;
      },
      undefined,
      MAX_RECORD,
      (length) => {
        first = false;
        if (tooLarge === null && settledAt < 0 && !t.figure()) tooLarge = length;
      },
    );
    if (keepIfNone && !t.figure()) {
      // Nothing in reach: keep the old figure, continue after what was appended.
      this.offset = lastStart >= 0 ? lastStart : size;
      if (tooLarge !== null) this.tooLargeBytes = tooLarge;
    } else {
      this.tracker = t;
      this.offset = lastStart >= 0 ? lastStart : size;
      this.tooLargeBytes = tooLarge;
    }
    this.gaveUp = ended === 'budget' && !this.tracker.figure();
    this.fingerprint = await this.fingerprintAt(fh, this.offset);
  }

  private async fingerprintAt(fh: Handle, offset: number): Promise<Buffer> {
    const n = Math.min(FINGERPRINT, offset);
    const buf = Buffer.alloc(n);
    await readAt(fh, buf, offset - n);
    return buf;
  }

  /**
   * Read `[offset, size)` forwards. False when the bytes before the offset changed (rewritten file).
   * An append is usually one read: the fingerprint comes with the first chunk, the next fingerprint
   * and the torn tail are taken from the bytes read.
   */
  private async forward(fh: Handle, size: number): Promise<boolean> {
    const fp = this.fingerprint;
    let pos = this.offset;
    let carry: Buffer | null = null;
    let consumed = this.offset;
    let last: { data: Buffer; start: number } | null = null;
    /** Inside a record longer than MAX_RECORD: its bytes are passed over up to its newline (how many so far). */
    let skipping = false;
    let skipped = 0;
    let first = true;
    // One buffer for every chunk of this read (reused by the next read): nothing below keeps a view of it.
    const space = takeBuffer(fp.length + Math.min(FORWARD_CHUNK, size - pos));
    try {
      while (pos < size) {
        const head = first ? fp.length : 0;
        const want = Math.min(FORWARD_CHUNK, size - pos);
        const buf = space.subarray(0, head + want);
        const got = await readAt(fh, buf, pos - head);
        if (first) {
          first = false;
          if (got < head || !buf.subarray(0, head).equals(fp)) return false;
        }
        const n = got - head;
        if (n <= 0) break;
        const chunk = buf.subarray(head, got);
        const data: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
        const dataStart = pos - (carry ? carry.length : 0);
        last = { data, start: dataStart };
        let i = 0;
        if (skipping) {
          const nl = data.indexOf(10);
          if (nl < 0) {
            skipped += n;
            pos += n;
            continue;
          }
          skipping = false;
          this.tooLargeBytes = skipped + nl;
          i = nl + 1;
          consumed = dataStart + i;
        }
        for (;;) {
          const nl = data.indexOf(10, i);
          if (nl < 0) break;
          const line = data.subarray(i, nl);
          if (line.length && this.tracker.relevant(line)) {
            const o = parseObject(line);
            if (o && this.tooLargeBytes === null) this.tracker.push(o);
            else if (o) {
              // A new figure after a record too large to read: that record is older than the figure now.
              const before = this.tracker.figure();
              this.tracker.push(o);
              if (!sameFigure(before, this.tracker.figure())) this.tooLargeBytes = null;
            }
          }
          i = nl + 1;
          consumed = dataStart + i;
        }
        carry = i < data.length ? Buffer.from(data.subarray(i)) : null;
        if (carry && carry.length > MAX_RECORD) {
          skipped = carry.length;
          carry = null;
          skipping = true;
        }
        pos += n;
      }
      this.offset = consumed;
      const fpLen = Math.min(FINGERPRINT, consumed);
      this.fingerprint =
        last && consumed - fpLen >= last.start && consumed <= last.start + last.data.length
          ? Buffer.from(last.data.subarray(consumed - fpLen - last.start, consumed - last.start))
          : await this.fingerprintAt(fh, consumed);
      if (!skipping && carry && consumed + carry.length === pos) this.tornTail = carry;
      return true;
    } finally {
      giveBuffer(space);
    }
  }

  /** The figure, counting the bytes after the last newline when they already form a whole record. */
  private async withTornTail(fh: Handle, size: number): Promise<Figure | null> {
    const torn = size - this.offset;
    if (torn <= 0 || torn > MAX_TORN) return this.tracker.figure();
    let line: Buffer;
    if (this.tornTail && this.tornTail.length === torn) line = this.tornTail;
    else {
      const buf = Buffer.alloc(torn);
      const n = await readAt(fh, buf, this.offset);
      line = buf.subarray(0, n);
    }
    if (!this.tracker.relevant(line)) return this.tracker.figure();
    const o = parseObject(line);
    if (!o) return this.tracker.figure();
    const t = this.tracker.clone();
    t.push(o);
    return t.figure();
  }

  /**
   * The transcript's figure as a ContextUsage. Claude Code: the window it reported for this session
   * (when the statusLine record names the same model), else the setting, the model's window, or
   * unknown (no percentage). Codex: the window the rollout names, else the setting, else unknown
   * (Codex names the window it runs with in every count when it has one, its fallback for a model it
   * has no metadata for included).
   */
  private usage(f: Figure, feed: FeedInfo | null): ContextUsage {
    let window: WindowChoice;
    if (this.ref.agent === 'claude') {
      const sameModel =
        feed && (f.model === null || feed.model === null || baseModel(feed.model) === baseModel(f.model));
      window = claudeWindow(f.model, f.usedTokens, this.opts.windowTokens, sameModel ? feed.windowTokens : null);
    } else {
      window = f.windowTokens
        ? { tokens: f.windowTokens, source: 'client' }
        : this.opts.windowTokens
          ? { tokens: this.opts.windowTokens, source: 'setting' }
          : { tokens: null, source: 'unknown' };
    }
    return {
      agent: this.ref.agent,
      sessionId: this.ref.sessionId ?? f.sessionId,
      transcriptPath: this.ref.path,
      model: f.model,
      usedTokens: f.usedTokens,
      windowTokens: window.tokens,
      windowSource: window.source,
      percent: percentOf(f.usedTokens, window.tokens),
      at: f.at,
      afterCompaction: f.afterCompaction,
      source: 'transcript',
    };
  }
}
