/**
 * S1's companion stores: `tasks/lessons.md` (v2 meta lines `> conf: 0.5 · seen: YYYY-MM-DD · obs: 1`),
 * `context-log.md` (`[DATE] [TYPE] [ttl:Nd|permanent] [risk:X] [ref:N] text`) and `MEMORY.md`
 * (its "Key Files" section is what Phase 3 step 8 verifies).
 */
import { clip, mk } from '../checks/common';
import { defaultItem, sectionize, type MdBlock, type MdOutline } from '../markdown';
import type { Check, Item, StateDoc } from '../model';
import { matchKey, type KeyTable } from '../sections';
import type { ParsedContent } from '../workspace';
import { daysSince, parseDay } from './s1-util';

// ---------------------------------------------------------------------------------------------
// Lessons

const CONF_RE = /\bconf\s*[:：=]?\s*(\d(?:\.\d+)?)\b/i;
const SEEN_RE = /\bseen\s*[:：=]?\s*(\d{4}-\d{2}-\d{2})\b/i;
const OBS_RE = /\bobs\s*[:：=]?\s*(\d+)\b/i;

/** Archive rule of the seed: conf < 0.4 and last seen more than 90 days ago. */
export const ARCHIVE = { conf: 0.4, days: 90 } as const;

function lessonItem(b: MdBlock, now: number): Item | null {
  const it = defaultItem(b);
  if (!it) return null;
  const conf = b.quoted || /^>/.test(it.text) ? CONF_RE.exec(it.text) : null;
  if (conf) {
    it.flags.push(`conf:${conf[1]}`);
    const seen = SEEN_RE.exec(it.text);
    if (seen) it.flags.push(`seen:${seen[1]}`);
    const obs = OBS_RE.exec(it.text);
    if (obs) it.flags.push(`obs:${obs[1]}`);
    const day = seen ? parseDay(seen[1]) : null;
    if (Number(conf[1]) < ARCHIVE.conf && day !== null && daysSince(day, now) > ARCHIVE.days) it.flags.push('archive');
  }
  return it;
}

const LESSON_KEYS: KeyTable = [
  ['synthesis', /^synthesis\b/],
  ['pending', /^pending patterns?\b/],
];

export function parseLessons(outline: MdOutline, now: number): ParsedContent {
  const sections = sectionize(outline, (t, h) => (h.level === 1 ? 'title' : matchKey(t, LESSON_KEYS)), { toItem: (b) => lessonItem(b, now) });
  for (const s of sections) if (s.items.some((i) => i.flags.some((f) => f.startsWith('conf:')))) s.key = 'lesson';
  return { sections };
}

function flag(it: Item, name: string): string | undefined {
  const f = it.flags.find((x) => x.startsWith(`${name}:`));
  return f?.slice(name.length + 1);
}

export function checkLessons(doc: StateDoc | null, now: number): Check {
  if (!doc) return mk('S1', 'lessons', 'info', 'skip', 'No tasks/lessons.md.');
  if (!doc.text) return mk('S1', 'lessons', 'info', 'skip', `${doc.relPath} cannot be read.`, { path: doc.relPath });
  const lessons = doc.sections.filter((s) => s.key === 'lesson');
  const metas = lessons.flatMap((s) => s.items.filter((i) => flag(i, 'conf') !== undefined).slice(0, 1).map((i) => ({ s, i })));
  const noSeen = metas.filter(({ i }) => flag(i, 'seen') === undefined).length;
  const archive = metas.filter(({ i }) => i.flags.includes('archive'));
  const headed = doc.sections.filter((s) => s.level >= 3 && s.key !== 'lesson').length;
  const extra = [noSeen ? `${noSeen} without seen:` : '', headed ? `${headed} heading(s) without a meta line` : ''].filter(Boolean).join(', ');
  if (archive.length === 0) {
    return mk('S1', 'lessons', 'info', true, `${metas.length} lesson(s) with conf/seen/obs meta${extra ? ` (${extra})` : ''}; no archive candidates.`, { path: doc.relPath });
  }
  const list = archive.slice(0, 5).map(({ s, i }) => `"${clip(s.title, 60)}" (conf ${flag(i, 'conf')}, seen ${flag(i, 'seen')}, ${daysSince(parseDay(flag(i, 'seen') ?? '') ?? now, now)} days ago)`);
  return mk(
    'S1',
    'lessons',
    'info',
    false,
    `${archive.length} archive candidate(s) (conf < ${ARCHIVE.conf} and seen > ${ARCHIVE.days} days ago): ${list.join('; ')}${archive.length > 5 ? '; …' : ''}.`,
    { path: doc.relPath, line: archive[0].s.line },
    'Move them to tasks/_archive/lessons-pre-YYYY-MM.md (the seed\'s monthly cleanup).',
  );
}

// ---------------------------------------------------------------------------------------------
// Context log

const ENTRY_RE = /^\[(\d{4}-\d{2}-\d{2})\]/;
const TAG_RE = /[[`]\s*(ttl|risk|ref)\s*[:：]\s*([^\]`\s]+)\s*[\]`]/gi;
const TYPE_RE = /^\[\d{4}-\d{2}-\d{2}\]\s*\[([A-Za-z_][A-Za-z0-9_ -]*)\]/;

/** Entry flags of one context-log line, or null when it is not an entry. */
export function contextEntryFlags(text: string, now: number): string[] | null {
  const t = text.trim();
  const m = ENTRY_RE.exec(t);
  if (!m) return null;
  const flags = [`date:${m[1]}`];
  const type = TYPE_RE.exec(t);
  if (type && !/^(?:ttl|risk|ref)\b/i.test(type[1])) flags.push(`type:${type[1].trim().toUpperCase()}`);
  let ttl: string | null = null;
  let ref: number | null = null;
  for (const tag of t.matchAll(TAG_RE)) {
    const k = tag[1].toLowerCase();
    const v = tag[2];
    if (k === 'ttl' && ttl === null) {
      ttl = v.toLowerCase();
      flags.push(`ttl:${ttl}`);
    } else if (k === 'risk' && !flags.some((f) => f.startsWith('risk:'))) flags.push(`risk:${v.toUpperCase()}`);
    else if (k === 'ref' && ref === null && /^\d+$/.test(v)) {
      ref = Number(v);
      flags.push(`ref:${ref}`);
    }
  }
  const day = parseDay(m[1]);
  const days = ttl ? /^(\d+)d$/.exec(ttl) : null;
  if (day !== null && days && daysSince(day, now) > Number(days[1])) flags.push('expired');
  if (ref !== null && ref >= 3) flags.push('promote');
  return flags;
}

export function parseContextLog(outline: MdOutline, now: number): ParsedContent {
  const sections = sectionize(outline, (t, h) => (h.level === 1 ? 'title' : 'log'), {
    toItem: (b) => {
      const it = defaultItem(b);
      if (!it) return null;
      const flags = contextEntryFlags(it.text, now);
      if (flags) it.flags.push(...flags);
      return it;
    },
  });
  for (const s of sections) if (s.key === 'preamble' && s.items.some((i) => i.flags.some((f) => f.startsWith('date:')))) s.key = 'log';
  return { sections };
}

function lineList(items: Item[]): string {
  return items.slice(0, 5).map((i) => i.line).join(', ') + (items.length > 5 ? ', …' : '');
}

export function checkContextLog(doc: StateDoc | null): Check[] {
  if (!doc) return [mk('S1', 'context-log', 'info', 'skip', 'No context-log.md.')];
  if (!doc.text) return [mk('S1', 'context-log', 'info', 'skip', `${doc.relPath} cannot be read.`, { path: doc.relPath })];
  const entries = doc.sections.flatMap((s) => s.items).filter((i) => i.flags.some((f) => f.startsWith('date:')));
  const expired = entries.filter((i) => i.flags.includes('expired'));
  const promote = entries.filter((i) => i.flags.includes('promote'));
  const noTtl = entries.filter((i) => !i.flags.some((f) => f.startsWith('ttl:')));
  const out: Check[] = [];
  if (expired.length) {
    out.push(mk('S1', 'context-log', 'info', false, `${expired.length} of ${entries.length} entries are past their TTL (lines ${lineList(expired)}).`, { path: doc.relPath, line: expired[0].line }, 'Delete expired entries, or promote the ones still true to MEMORY.md.'));
  }
  if (promote.length) {
    out.push(mk('S1', 'context-log', 'info', false, `${promote.length} promotion candidate(s) with ref ≥ 3 (lines ${lineList(promote)}): review them for MEMORY.md.`, { path: doc.relPath, line: promote[0].line }, 'Move lasting facts into MEMORY.md.'));
  }
  if (noTtl.length) {
    out.push(mk('S1', 'context-log', 'info', false, `${noTtl.length} entr${noTtl.length === 1 ? 'y has' : 'ies have'} no ttl tag (lines ${lineList(noTtl)}); the seed makes TTL tagging mandatory.`, { path: doc.relPath, line: noTtl[0].line }, 'Tag each entry `[ttl:90d]`, `[ttl:30d]` or `[ttl:permanent]`.'));
  }
  if (out.length === 0) out.push(mk('S1', 'context-log', 'info', true, `${entries.length} entries; none past its TTL; no promotion candidates.`, { path: doc.relPath }));
  return out;
}

// ---------------------------------------------------------------------------------------------
// MEMORY.md

const MEMORY_KEYS: KeyTable = [['key-files', /key files|key paths|important files|핵심 ?파일|주요 ?파일|重要ファイル/u]];

export function parseMemory(outline: MdOutline): ParsedContent {
  return { sections: sectionize(outline, (t, h) => (h.level === 1 ? 'title' : matchKey(t, MEMORY_KEYS))) };
}
