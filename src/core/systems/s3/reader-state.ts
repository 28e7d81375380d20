/**
 * S3 (Groundwork checkpoint, seed 003) — pure parsing of `docs/state/STATE.md`, no I/O.
 *
 * Exports for other modules (log rotation builds on these):
 * - `readS3Structure(outline)`: the `## Handoff` block and its fields (Status, Phase, Branch, HEAD —
 *   also the combined `Branch / HEAD` —, Gates, `Now ▶`, `Blocked on`), each with its value as
 *   written (HTML comments removed) and its 1-based line; the `## Log` range; and every Log entry
 *   (`### YYYY-MM-DD - title` headings, or top-level `- YYYY-MM-DD …` items) with its date, its line
 *   range (inclusive, up to the line before the next entry or the end of the Log) and its
 *   "Docs touched" lines. Lines are those of `splitLines(text)`.
 * - `parseBranchHead(value)`: branch name and commit hash out of a `Branch / HEAD` value.
 * - `parseS3(text, outline)`: the `StateDoc` content (sections keyed `title`, `handoff`, `log`,
 *   `log-entry`, `other`; `meta.s3` holds the structure above).
 */
import { oneOf, plainText, trimEndWhere, trimStartWhere } from '../../markdown/text';
import { blocksBetween, headingEnds, sectionize, type MdBlock, type MdOutline } from '../../markdown/markdown';
import type { Item, SectionKey } from '../../model/model';
import { normalizeTitle } from '../../markdown/sections';
import type { ParsedContent } from '../../model/workspace';

export type S3FieldName = 'status' | 'phase' | 'branch' | 'head' | 'branchHead' | 'gates' | 'now' | 'blocked';

export interface S3Field {
  name: S3FieldName;
  /** The label as written (`Branch / HEAD`, `Now ▶`). */
  label: string;
  /** The value as written, markup kept, HTML comments removed, trimmed. */
  value: string;
  line: number;
}

export interface S3LogEntry {
  /** `YYYY-MM-DD` from the entry's heading or item, or null when undated. */
  date: string | null;
  /** Heading or item text as written. */
  title: string;
  line: number;
  endLine: number;
  /** Heading level (3, 4 …), or 0 for a list-item entry. */
  level: number;
  /** The "Docs touched" lines of the entry (its item and nested items). */
  docsTouched: Array<{ text: string; line: number }>;
}

export interface S3Structure {
  /** The `# …` title heading line, when there is one. */
  titleLine: number | null;
  handoff: { title: string; line: number; endLine: number } | null;
  fields: S3Field[];
  log: { title: string; line: number; endLine: number } | null;
  entries: S3LogEntry[];
  /** Lines that carry `Now ▶` anywhere in the file (S3's own checker only asks that it is present). */
  nowLines: number[];
}

const LABELS = 'status|phase|branch\\s*(?:\\/|&|and|\\+)\\s*head|branch|head|gates?|now\\s*▶|blocked(?:\\s+on)?';
/**
 * White space taken whole, once: `(?=(\s*))` takes the run and the backreference steps over it, giving
 * nothing back. Between the field's label, its `**` and its colons, a long run of blanks was split
 * between the pattern's adjacent `\s*` in every way, each try scanning the value again, when the value
 * held a line break character (U+2028) after other text: `**Status:**`, 5,000 blanks and `x\u2028y`
 * held check 38 s. No match is lost: none of `**`, `__` or a colon is white space, so every way of
 * splitting a run reaches the same place, and a value that stops short of the line's end does so from
 * wherever it starts.
 */
const ws = (name: string) => `(?=(?<${name}>\\s*))\\k<${name}>`;
const FIELD_RE = new RegExp(
  `^${ws('w1')}(?<bold>\\*\\*|__)?${ws('w2')}(?<label>${LABELS})(?=[\\s*_:：]|$)${ws('w3')}(?:\\*\\*|__)?${ws('w4')}(?<colon>[:：])?${ws('w5')}(?:\\*\\*|__)?${ws('w6')}(?<colon2>[:：])?${ws('w7')}(?<value>.*)$`,
  'i',
);

export function stripComments(s: string): string {
  return s
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function fieldName(label: string): S3FieldName {
  const l = label.toLowerCase().replace(/\s+/g, ' ');
  if (l.startsWith('branch') && l.includes('head')) return 'branchHead';
  if (l.startsWith('now')) return 'now';
  if (l.startsWith('blocked')) return 'blocked';
  if (l.startsWith('gate')) return 'gates';
  return l as S3FieldName;
}

/** A handoff field out of one line of text, or null. */
export function parseField(text: string, line: number): S3Field | null {
  const g = FIELD_RE.exec(text)?.groups;
  // A label counts when it is bold, followed by a colon, or is `Now ▶` (which takes neither).
  if (!g || !(g.bold || g.colon || g.colon2 || /^now/i.test(g.label))) return null;
  return { name: fieldName(g.label), label: g.label.trim(), value: stripComments(g.value), line };
}

const DATE_RE = /\b(\d{4}-\d{2}-\d{2})\b/;
const DATED_ITEM = /^\s*(?:\*\*|__|\[)?\s*(\d{4}-\d{2}-\d{2})\b/;

function isHandoff(title: string): boolean {
  return /^handoff\b/.test(normalizeTitle(title));
}

function isLog(title: string): boolean {
  return /^(?:log|session log|work log)\b/.test(normalizeTitle(title));
}

/** Docs touched: the item that starts with it, plus its nested items. */
function docsTouched(blocks: readonly MdBlock[]): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (!/^docs touched\b/i.test(plainText(b.text))) continue;
    out.push({ text: b.text, line: b.line });
    for (let j = i + 1; j < blocks.length && blocks[j].kind === 'list-item' && blocks[j].depth > b.depth; j++)
      out.push({ text: blocks[j].text, line: blocks[j].line });
  }
  return out;
}

function textBlocks(outline: MdOutline, from: number, to: number): MdBlock[] {
  return blocksBetween(outline, from, to).filter((b) => b.kind === 'list-item' || b.kind === 'line');
}

export function readS3Structure(outline: MdOutline): S3Structure {
  const { headings } = outline;
  const ends = headingEnds(outline);
  const endOf = (idx: number): number => ends[idx];
  const h1 = headings.find((h) => h.level === 1);
  const hi = headings.findIndex((h) => h.level <= 2 && isHandoff(h.title));
  const handoff = hi >= 0 ? { title: headings[hi].title, line: headings[hi].line, endLine: endOf(hi) } : null;
  const fields: S3Field[] = [];
  if (handoff) {
    for (const b of textBlocks(outline, handoff.line + 1, handoff.endLine)) {
      const f = parseField(b.text, b.line);
      if (f) fields.push(f);
    }
  }
  const nowLines = outline.blocks.filter((b) => b.kind !== 'code' && /Now\s*▶/.test(b.text)).map((b) => b.line);
  // A `Now ▶` line written outside the handoff block still counts as the next action: a line its
  // label starts, not a mention in prose ("Stopped at: mirroring Now ▶") nor one in a comment.
  if (!fields.some((f) => f.name === 'now')) {
    for (const b of outline.blocks) {
      const f = b.kind === 'code' || b.kind === 'html' ? null : parseField(b.text, b.line);
      if (f?.name === 'now') {
        fields.push(f);
        break;
      }
    }
  }

  const li = headings.findIndex((h) => h.level <= 2 && isLog(h.title));
  const log = li >= 0 ? { title: headings[li].title, line: headings[li].line, endLine: endOf(li) } : null;
  const entries: S3LogEntry[] = [];
  if (log) {
    const inner = headings
      .map((h, i) => ({ h, i }))
      .filter(({ h }) => h.line > log.line && h.line <= log.endLine && h.level > headings[li].level);
    const entryLevel = inner.length ? Math.min(...inner.map(({ h }) => h.level)) : 0;
    const heads = inner.filter(({ h }) => h.level === entryLevel);
    const firstHead = heads.length ? heads[0].h.line : log.endLine + 1;
    // Dated list items directly under the Log heading (before any entry heading).
    const top = blocksBetween(outline, log.line + 1, firstHead - 1).filter(
      (b) => b.kind === 'list-item' && b.depth === 0,
    );
    for (let k = 0; k < top.length; k++) {
      const it = top[k];
      if (!DATED_ITEM.test(it.text)) continue;
      const endLine = k + 1 < top.length ? top[k + 1].line - 1 : firstHead - 1;
      entries.push({
        date: DATED_ITEM.exec(it.text)?.[1] ?? null,
        title: it.text,
        line: it.line,
        endLine,
        level: 0,
        docsTouched: docsTouched(textBlocks(outline, it.line, endLine)),
      });
    }
    heads.forEach(({ h }, k) => {
      const endLine = k + 1 < heads.length ? heads[k + 1].h.line - 1 : log.endLine;
      entries.push({
        date: DATE_RE.exec(h.title)?.[1] ?? null,
        title: h.title,
        line: h.line,
        endLine,
        level: h.level,
        docsTouched: docsTouched(textBlocks(outline, h.line + 1, endLine)),
      });
    });
  }
  return { titleLine: h1?.line ?? null, handoff, fields, log, entries, nowLines };
}

/** True when the outline has one of S3's headings (`## Handoff`, `## Log`) or a `Now ▶` line. */
export function hasS3Headings(outline: MdOutline): boolean {
  return (
    outline.headings.some((h) => h.level <= 2 && (isHandoff(h.title) || isLog(h.title))) ||
    outline.blocks.some((b) => b.kind !== 'code' && /Now\s*▶/.test(b.text))
  );
}

/** Branch name and commit hash out of a `Branch / HEAD` value (`main @ 4f3e2d1`, `` `feat/x` · abc1234 ``). */
export function parseBranchHead(value: string): { branch: string | null; head: string | null } {
  // A Branch / HEAD value is short: the cap keeps the patterns below linear on hostile input.
  let v = stripComments(value.slice(0, 500))
    .replace(/[`*"']/g, ' ')
    .replace(/\([^)]{0,200}\)/g, ' ');
  const m = /(?:^|[\s@:=,;·|])([0-9a-f]{7,40})(?=$|[\s,;.·|)])/i.exec(v);
  const head = m ? m[1].toLowerCase() : null;
  if (m) v = v.slice(0, m.index) + ' ' + v.slice(m.index + m[0].length);
  const tokens = v
    .split(/\s+/)
    .map((t) => trimStartWhere(trimEndWhere(t, oneOf(',;:@·|/.')), oneOf(',;:@·|/')))
    .filter((t) => t && !/^(?:head|branch|on|at|is|@|-|—|–)$/i.test(t));
  return { branch: tokens[0] ?? null, head };
}

const KEY_TABLE: ReadonlyArray<readonly [SectionKey, (t: string, level: number) => boolean]> = [
  ['handoff', (t) => /^handoff\b/.test(t)],
  ['log', (t) => /^(?:log|session log|work log)\b/.test(t)],
  ['log-entry', (t, level) => level >= 3 && /^\d{4}-\d{2}-\d{2}\b/.test(t)],
  ['title', (t, level) => level === 1 && /^state\b/.test(t)],
];

function fieldFlag(it: Item): Item {
  const f = parseField(it.text, it.line);
  if (f) it.flags.push(`field:${f.name}`);
  return it;
}

/** Parse STATE.md into the model. Never throws on content. */
export function parseS3(_text: string, outline: MdOutline): ParsedContent {
  const s3 = readS3Structure(outline);
  const sections = sectionize(outline, (title, h) => {
    const t = normalizeTitle(title);
    return KEY_TABLE.find(([, f]) => f(t, h.level))?.[0] ?? 'other';
  });
  for (const s of sections) if (s.key === 'handoff') s.items = s.items.map(fieldFlag);
  return { sections, meta: { s3 } };
}
