/**
 * S1's companion stores: `tasks/lessons.md` (v2 meta lines `> conf: 0.5 · seen: YYYY-MM-DD · obs: 1`),
 * `context-log.md` (`[DATE] [TYPE] [ttl:Nd|permanent] [risk:X] [ref:N] text`) and `MEMORY.md`
 * (its "Key Files" section is what Phase 3 step 8 verifies). The reader records the tags as item
 * flags; which entries are due (archive, expired, promotion) is judged by S1's checks.
 */
import { defaultItem, sectionize, type MdBlock, type MdOutline } from '../../markdown/markdown';
import type { Item } from '../../model/model';
import { matchKey, type KeyTable } from '../../markdown/sections';
import type { ParsedContent } from '../../model/workspace';

// ---------------------------------------------------------------------------------------------
// Lessons

// `conf: 0.8`, `seen 2026-01-02`, `obs=3`: the blanks around the optional colon are taken whole, once (a
// lookahead and its backreference give nothing back). With `\s*[:：=]?\s*`, a long run of blanks after
// `conf` that no number follows was split between the two `\s*` in every way: time with the run's square.
const CONF_RE = /\bconf(?=(\s*))\1[:：=]?(?=(\s*))\2(\d(?:\.\d+)?)\b/i;
const SEEN_RE = /\bseen(?=(\s*))\1[:：=]?(?=(\s*))\2(\d{4}-\d{2}-\d{2})\b/i;
const OBS_RE = /\bobs(?=(\s*))\1[:：=]?(?=(\s*))\2(\d+)\b/i;

function lessonItem(b: MdBlock): Item | null {
  const it = defaultItem(b);
  if (!it) return null;
  const conf = b.quoted || /^>/.test(it.text) ? CONF_RE.exec(it.text) : null;
  if (conf) {
    it.flags.push(`conf:${conf[3]}`);
    const seen = SEEN_RE.exec(it.text);
    if (seen) it.flags.push(`seen:${seen[3]}`);
    const obs = OBS_RE.exec(it.text);
    if (obs) it.flags.push(`obs:${obs[3]}`);
  }
  return it;
}

const LESSON_KEYS: KeyTable = [
  ['synthesis', /^synthesis\b/],
  ['pending', /^pending patterns?\b/],
];

export function parseLessons(outline: MdOutline): ParsedContent {
  const sections = sectionize(outline, (t, h) => (h.level === 1 ? 'title' : matchKey(t, LESSON_KEYS)), {
    toItem: lessonItem,
  });
  for (const s of sections) if (s.items.some((i) => i.flags.some((f) => f.startsWith('conf:')))) s.key = 'lesson';
  return { sections };
}

// ---------------------------------------------------------------------------------------------
// Context log

const ENTRY_RE = /^\[(\d{4}-\d{2}-\d{2})\]/;
/** A tag's head, tried where a `[` or a backtick stands: `[ttl:`, `` `risk : `` … */
const TAG_HEAD = /[[`]\s*(ttl|risk|ref)\s*[:：]\s*/iy;

/**
 * The `[ttl: 30d]`, `` `risk: H` `` and `[ref: 2]` tags of a line, as [key, value]: what
 * /[[`]\s*(ttl|risk|ref)\s*[:：]\s*([^\]`\s]+)\s*[\]`]/gi finds, in one pass. The value runs to the first
 * `]`, backtick or blank, and a `]` or backtick must close it after any blanks. Every tag head inside
 * one run of value characters shares that run's end, which is found once: the pattern scanned the run
 * again from each head in it, so a line of 40,000 `[ttl:K` took 8 s.
 */
function tagsOf(t: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let runEnd = -1; // where the last value run ended
  let closeAt = -1; // the first character after the blanks that follow it
  for (let i = 0; i < t.length; i++) {
    if (t[i] !== '[' && t[i] !== '`') continue;
    TAG_HEAD.lastIndex = i;
    const head = TAG_HEAD.exec(t);
    if (!head) continue;
    const from = TAG_HEAD.lastIndex;
    if (from >= runEnd) {
      runEnd = from;
      while (runEnd < t.length && t[runEnd] !== ']' && t[runEnd] !== '`' && !/\s/.test(t[runEnd])) runEnd++;
      closeAt = runEnd;
      while (closeAt < t.length && /\s/.test(t[closeAt])) closeAt++;
    }
    if (runEnd === from || (t[closeAt] !== ']' && t[closeAt] !== '`')) continue;
    out.push([head[1], t.slice(from, runEnd)]);
    i = closeAt;
  }
  return out;
}
const TYPE_RE = /^\[\d{4}-\d{2}-\d{2}\]\s*\[([A-Za-z_][A-Za-z0-9_ -]*)\]/;

/** Entry flags of one context-log line, or null when it is not an entry. */
export function contextEntryFlags(text: string): string[] | null {
  const t = text.trim();
  const m = ENTRY_RE.exec(t);
  if (!m) return null;
  const flags = [`date:${m[1]}`];
  const type = TYPE_RE.exec(t);
  if (type && !/^(?:ttl|risk|ref)\b/i.test(type[1])) flags.push(`type:${type[1].trim().toUpperCase()}`);
  let ttl: string | null = null;
  let ref: number | null = null;
  for (const [key, v] of tagsOf(t)) {
    const k = key.toLowerCase();
    if (k === 'ttl' && ttl === null) {
      ttl = v.toLowerCase();
      flags.push(`ttl:${ttl}`);
    } else if (k === 'risk' && !flags.some((f) => f.startsWith('risk:'))) flags.push(`risk:${v.toUpperCase()}`);
    else if (k === 'ref' && ref === null && /^\d+$/.test(v)) {
      ref = Number(v);
      flags.push(`ref:${ref}`);
    }
  }
  return flags;
}

export function parseContextLog(outline: MdOutline): ParsedContent {
  const sections = sectionize(outline, (_t, h) => (h.level === 1 ? 'title' : 'log'), {
    toItem: (b) => {
      const it = defaultItem(b);
      if (!it) return null;
      const flags = contextEntryFlags(it.text);
      if (flags) it.flags.push(...flags);
      return it;
    },
  });
  for (const s of sections)
    if (s.key === 'preamble' && s.items.some((i) => i.flags.some((f) => f.startsWith('date:')))) s.key = 'log';
  return { sections };
}

// ---------------------------------------------------------------------------------------------
// MEMORY.md

const MEMORY_KEYS: KeyTable = [
  ['key-files', /key files|key paths|important files|핵심 ?파일|주요 ?파일|重要ファイル/u],
];

export function parseMemory(outline: MdOutline): ParsedContent {
  return { sections: sectionize(outline, (t, h) => (h.level === 1 ? 'title' : matchKey(t, MEMORY_KEYS))) };
}
