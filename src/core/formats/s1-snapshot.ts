/**
 * S1 Phase 2.3 "Memento" block: `<!-- state-snapshot v1 -->` followed by a YAML fence (the marker
 * may also be the fence's first line, or the YAML may follow the marker bare), read with `yaml`
 * and held to the seed's caps: ctx ≤ 20 words, next ≤ 5, diff ≤ 5 with op add|del|mod|decide and
 * why ≤ 10 words, blocked ≤ 3 with risk H|M|L. Also the prose/block byte ratio (target ≥ 2×).
 */
import { t, type Msg } from '../messages';
import { LineCounter, isMap, isSeq, parseDocument, type Node as YNode } from 'yaml';
import type { MdOutline } from '../markdown';
import type { Item, Section } from '../model';
import { yamlData } from './s1-util';

const MARKER_COMMENT_RE = /<!--\s*state-snapshot\s+v1\b[^>]*-->/i;
/** The marker as the first line inside the fence: as an HTML comment or a YAML comment. */
const MARKER_LINE_RE = /^\s*(?:<!--\s*state-snapshot\s+v1\b[^>]*-->|#\s*state-snapshot\s+v1\b.*)\s*$/i;

export const SNAPSHOT_CAPS = { ctxWords: 20, next: 5, diff: 5, whyWords: 10, blocked: 3 } as const;
const OPS = ['add', 'del', 'mod', 'decide'];
const RISKS = ['H', 'M', 'L'];

export interface SnapshotProblem {
  /** The whole message, `state-snapshot v1: …`. */
  message: Msg;
  line: number;
}

/** What the handoff's snapshot block holds, as stored in `StateDoc.meta.snapshot`. */
export interface SnapshotInfo {
  /** 1-based first and last line of the block (marker through closing fence). */
  line: number;
  endLine: number;
  /** The marker sat inside the fence rather than before it. */
  markerInside: boolean;
  fenced: boolean;
  /** The parsed value (null when the YAML does not parse). */
  data: unknown;
  problems: SnapshotProblem[];
  counts: { ctxWords: number; next: number; diff: number; blocked: number };
  /** UTF-8 bytes of the YAML, and of every other line of the file (front matter excluded). */
  blockBytes: number;
  proseBytes: number;
}

interface Located {
  line: number;
  endLine: number;
  yaml: string;
  /** Document line of the YAML text's first line. */
  yamlLine: number;
  markerInside: boolean;
  fenced: boolean;
}

function isFenceLine(s: string | undefined): boolean {
  return s !== undefined && /^\s{0,3}(?:`{3,}|~{3,})/.test(s);
}

function locate(outline: MdOutline): Located | null {
  const { blocks, lines } = outline;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.kind === 'html' && MARKER_COMMENT_RE.test(b.text)) {
      const off = b.text.split('\n').findIndex((l) => MARKER_COMMENT_RE.test(l));
      const markerLine = b.line + Math.max(0, off);
      const nb = blocks[i + 1];
      const gapBlank = nb ? lines.slice(b.endLine, nb.line - 1).every((l) => l.trim() === '') : false;
      if (nb && nb.kind === 'code' && gapBlank) {
        const fenced = isFenceLine(lines[nb.line - 1]);
        return { line: markerLine, endLine: nb.endLine, yaml: nb.text, yamlLine: fenced ? nb.line + 1 : nb.line, markerInside: false, fenced };
      }
      // Bare YAML right after the marker, up to a blank line, a heading or a rule.
      const body: string[] = [];
      for (let k = markerLine; k < lines.length; k++) {
        const l = lines[k];
        if (l.trim() === '' || /^\s{0,3}#{1,6}\s/.test(l) || /^\s*(?:---|\*\*\*|___)\s*$/.test(l) || isFenceLine(l)) break;
        body.push(l);
      }
      if (body.length) return { line: markerLine, endLine: markerLine + body.length, yaml: body.join('\n'), yamlLine: markerLine + 1, markerInside: false, fenced: false };
      return { line: markerLine, endLine: markerLine, yaml: '', yamlLine: markerLine + 1, markerInside: false, fenced: false };
    }
    if (b.kind === 'code') {
      const ls = b.text.split('\n');
      const first = ls.findIndex((l) => l.trim() !== '');
      if (first >= 0 && MARKER_LINE_RE.test(ls[first])) {
        ls[first] = ''; // keep the line numbering of the rest
        const fenced = isFenceLine(lines[b.line - 1]);
        return { line: b.line, endLine: b.endLine, yaml: ls.join('\n'), yamlLine: fenced ? b.line + 1 : b.line, markerInside: true, fenced };
      }
    }
  }
  return null;
}

function words(s: string): number {
  return s.trim() ? s.trim().split(/\s+/).length : 0;
}

function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Find and check the snapshot block. Returns null when the handoff has none. Never throws. */
export function readSnapshot(outline: MdOutline): { info: SnapshotInfo; section: Section } | null {
  const loc = locate(outline);
  if (!loc) return null;
  const problems: SnapshotProblem[] = [];
  const items: Item[] = [];
  const lc = new LineCounter();
  const ydoc = parseDocument(loc.yaml, { lineCounter: lc, prettyErrors: false });
  const lineOf = (n: YNode | null | undefined): number => {
    const r = (n as { range?: [number, number, number] } | null | undefined)?.range;
    return r ? loc.yamlLine + lc.linePos(r[0]).line - 1 : loc.line;
  };
  let data: unknown = null;
  const counts = { ctxWords: 0, next: 0, diff: 0, blocked: 0 };
  if (ydoc.errors.length) {
    const e = ydoc.errors[0];
    const rel = lc.linePos(e.pos[0]).line;
    problems.push({ message: t('state-snapshot v1: the block\'s YAML does not parse: {0}.', e.message.split('\n')[0]), line: loc.yamlLine + rel - 1 });
  } else if (!isMap(ydoc.contents)) {
    data = yamlData(ydoc).value;
    problems.push({ message: loc.yaml.trim() === '' ? t('state-snapshot v1: the block is empty.') : t('state-snapshot v1: the block is not a YAML mapping (expected ts/ctx/next/diff/blocked keys).'), line: loc.line });
  } else if (yamlData(ydoc).error) {
    problems.push({ message: t('state-snapshot v1: the block cannot be read: {0}.', yamlData(ydoc).error ?? ''), line: loc.line });
  } else {
    const map = ydoc.contents;
    data = yamlData(ydoc).value;
    const get = (k: string) => map.get(k, true) as YNode | undefined;
    const js = data as Record<string, unknown>;
    if (js.ts === undefined || js.ts === null || str(js.ts).trim() === '') problems.push({ message: t('state-snapshot v1: `ts` is missing.'), line: loc.line });
    // ctx
    if (js.ctx === undefined || js.ctx === null) problems.push({ message: t('state-snapshot v1: `ctx` is missing.'), line: loc.line });
    else {
      const ctx = str(js.ctx);
      counts.ctxWords = words(ctx);
      items.push({ text: `ctx: ${ctx}`, line: lineOf(get('ctx')), flags: [] });
      if (counts.ctxWords > SNAPSHOT_CAPS.ctxWords) problems.push({ message: t('state-snapshot v1: ctx has {0} words (cap {1}).', counts.ctxWords, SNAPSHOT_CAPS.ctxWords), line: lineOf(get('ctx')) });
    }
    /** A capped list field: each entry goes to `each` with its line; returns the entry count. */
    const list = (key: 'next' | 'diff' | 'blocked', required: boolean, each: (entry: unknown, k: number, line: number) => void): number => {
      const value = js[key];
      const node = get(key);
      if (value === undefined || value === null) {
        if (required) problems.push({ message: t('state-snapshot v1: `{0}` is missing.', key), line: loc.line });
        return 0;
      }
      if (!isSeq(node)) {
        problems.push({ message: t('state-snapshot v1: `{0}` is not a list.', key), line: lineOf(node) });
        return 0;
      }
      const n = node.items.length;
      const cap = SNAPSHOT_CAPS[key];
      if (required && n === 0) problems.push({ message: t('state-snapshot v1: `{0}` is empty.', key), line: lineOf(node) });
      node.items.forEach((it, k) => each((value as unknown[])[k], k, lineOf(it as YNode)));
      if (n > cap) problems.push({ message: t('state-snapshot v1: {0} has {1} items (cap {2}).', key, n, cap), line: lineOf(node.items[cap] as YNode) });
      return n;
    };
    counts.next = list('next', true, (e, _k, line) => {
      const v = str(e);
      const u = /urgency\s*[:：]\s*([HML])(?![\w/])/i.exec(v);
      items.push({ text: `next: ${v}`, line, flags: u ? [`urgency:${u[1].toUpperCase()}`] : [] });
    });
    counts.diff = list('diff', false, (e, k, line) => {
      if (!e || typeof e !== 'object' || Array.isArray(e)) {
        problems.push({ message: t('state-snapshot v1: diff item {0} is not a mapping with op/item/why.', k + 1), line });
        return;
      }
      const r = e as Record<string, unknown>;
      const op = str(r.op).trim();
      if (!OPS.includes(op)) problems.push({ message: t('state-snapshot v1: diff item {0} has op "{1}" (allowed: {2}).', k + 1, op, OPS.join('|')), line });
      const why = str(r.why);
      if (words(why) > SNAPSHOT_CAPS.whyWords) problems.push({ message: t('state-snapshot v1: diff item {0}: why has {1} words (cap {2}).', k + 1, words(why), SNAPSHOT_CAPS.whyWords), line });
      items.push({ text: `${op || '?'} ${str(r.item)}${why ? ` — ${why}` : ''}`, line, flags: OPS.includes(op) ? [`op:${op}`] : [] });
    });
    counts.blocked = list('blocked', false, (e, k, line) => {
      const r = e && typeof e === 'object' && !Array.isArray(e) ? (e as Record<string, unknown>) : { item: e };
      const risk = str(r.risk).trim().toUpperCase();
      if (!RISKS.includes(risk)) problems.push({ message: t('state-snapshot v1: blocked item {0} has risk "{1}" (allowed: H|M|L).', k + 1, str(r.risk)), line });
      items.push({ text: str(r.item), line, flags: RISKS.includes(risk) ? [`risk:${risk}`] : [] });
    });
  }
  // Compression: the YAML against every other line (front matter excluded).
  const fm = outline.frontMatter;
  const prose = outline.lines.filter((_, k) => {
    const ln = k + 1;
    if (ln >= loc.line && ln <= loc.endLine) return false;
    if (fm && ln >= fm.line && ln <= fm.endLine) return false;
    return true;
  });
  const info: SnapshotInfo = {
    line: loc.line,
    endLine: loc.endLine,
    markerInside: loc.markerInside,
    fenced: loc.fenced,
    data,
    problems,
    counts,
    blockBytes: Buffer.byteLength(loc.yaml.trim(), 'utf8'),
    proseBytes: Buffer.byteLength(prose.join('\n').trim(), 'utf8'),
  };
  const section: Section = { key: 'snapshot', title: 'state-snapshot v1', line: loc.line, endLine: loc.endLine, level: 0, items };
  return { info, section };
}
