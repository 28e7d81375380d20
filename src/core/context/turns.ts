/**
 * When a session's turns began, from its transcript: a turn begins with what the user sends. In a Claude
 * Code transcript that is a main-chain `user` record that is no tool result, no record the client marks
 * as its own (`isMeta`) and no compaction's summary (a typed prompt, a command, a shell line, an
 * interruption: each counts); in a Codex CLI rollout a `user_message` or `task_started` event. Read from
 * the end backwards, only as far back as asked, never whole.
 */
import { openRead, parseObject, scanBackward } from './files';

/** The most bytes read back from the end of a transcript to find the turns after a time. */
const TURNS_BUDGET = 8 * 1024 * 1024;
/** The longest record read: a longer one (a pasted file) cannot be told apart, so nothing is told then. */
const TURNS_MAX_LINE = 4 * 1024 * 1024;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);

/** A record that begins a turn (the rule above). */
export function beginsTurn(o: Obj): boolean {
  if (o.type === 'event_msg') {
    const p = obj(o.payload);
    return p?.type === 'user_message' || p?.type === 'task_started';
  }
  const m = obj(o.message);
  if (o.type !== 'user' || !m || o.isSidechain === true || o.isMeta === true || o.isCompactSummary === true)
    return false;
  const c = m.content;
  if (typeof c === 'string') return true;
  return Array.isArray(c) && c.some((b) => obj(b)?.type !== 'tool_result');
}

/**
 * A record the client writes as it happens (a Claude Code `user` or `assistant` record, a Codex CLI event
 * or response item), so its time orders it: scanning back, one dated at or before a time ends the search.
 */
function writtenInTurn(o: Obj): boolean {
  return o.type === 'user' || o.type === 'assistant' || o.type === 'event_msg' || o.type === 'response_item';
}

/**
 * The first turn of the transcript `file` that began after `from` and at or before `to` (ms): when it
 * began; null when none did; undefined when the transcript cannot tell (there is none, it cannot be read,
 * a record on the way is longer than this reads, or more than TURNS_BUDGET bytes were written after
 * `from`). Never throws.
 */
export async function firstTurnBetween(file: string, from: number, to: number): Promise<number | null | undefined> {
  const fh = await openRead(file);
  if (!fh) return undefined;
  try {
    const size = (await fh.stat()).size;
    let first: number | null = null;
    let unreadable = false;
    const ended = await scanBackward(
      fh,
      size,
      TURNS_BUDGET,
      (line) => {
        const o = parseObject(line);
        const at = o && typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : NaN;
        if (!o || !Number.isFinite(at)) return false;
        if (at <= from) return writtenInTurn(o);
        if (at <= to && beginsTurn(o)) first = at;
        return false;
      },
      undefined,
      TURNS_MAX_LINE,
      () => {
        unreadable = true;
      },
    );
    return unreadable || (ended !== 'stopped' && ended !== 'start') ? undefined : first;
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}
