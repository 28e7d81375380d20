/**
 * S1 Phase 2.3 "Memento" block: `<!-- state-snapshot v1 -->` followed by a YAML fence (the marker
 * may also be the fence's first line, or the YAML may follow the marker bare), read with `yaml`.
 * The reader records what the block holds — its shape, each field's value, line and entry count,
 * each diff and blocked entry — and the prose/block byte sizes; whether that is within the caps
 * (`budgets.snapshot` of the facts table) is judged by S1's checks.
 */
import { linesInDocument, readYaml, yamlGet, type LineCut, type YamlNode } from '../../markdown/yaml-tree';
import type { YamlRefusalKind } from '../../markdown/yaml';
import { S1_SNAPSHOT } from './facts';
import type { MdOutline } from '../../markdown/markdown';
import type { Item, Section } from '../../model/model';
import type { SecretHit } from '../../secrets/secrets';

/** The marker comment's opening, up to its version. */
const MARKER_HEAD = /<!--\s*state-snapshot\s+v1\b/gi;

/**
 * Whether `text` holds the marker comment: what /<!--\s*state-snapshot\s+v1\b[^>]*-->/i finds, in one pass.
 * A marker's `[^>]*` stops at the first `>` after it, which closes it when `--` stands right before it;
 * every opening before that `>` shares it, so it is looked for once (the pattern scanned to it again
 * from each opening: an HTML block of 30,000 openings with no `>` took 0.8 s).
 */
export function holdsMarkerComment(text: string): boolean {
  MARKER_HEAD.lastIndex = 0;
  let gt = -2; // the first `>` at or after the last opening's end (-1: none)
  for (let m = MARKER_HEAD.exec(text); m; m = MARKER_HEAD.exec(text)) {
    const from = MARKER_HEAD.lastIndex;
    if (gt !== -1 && gt < from) gt = text.indexOf('>', from);
    if (gt < 0) return false;
    if (gt >= from + 2 && text.startsWith('--', gt - 2)) return true;
  }
  return false;
}

/**
 * The marker as the first line inside the fence: as an HTML comment or a YAML comment. The rest of a YAML
 * comment's line is taken whole, once (`(?=(.*))\1`): with `.*\s*$`, a line break character in it
 * (U+2028) after a long run of blanks made `\s*` scan the blanks `.*` gave back, one more each time.
 * Only blanks may follow that line break either way.
 */
const MARKER_LINE_RE = /^\s*(?:<!--\s*state-snapshot\s+v1\b[^>]*-->|#\s*state-snapshot\s+v1\b(?=(.*))\1)\s*$/i;

const VOCAB = S1_SNAPSHOT;

/**
 * How the block's YAML came out: a mapping (the fields below are filled in), a YAML syntax error
 * (`error` holds the parser's first line, `errorLine` its document line), an empty block, a value
 * that is not a mapping, or a mapping that cannot be turned into data (`error` says why).
 */
export type SnapshotShape = 'mapping' | 'yaml-error' | 'empty' | 'not-mapping' | 'unreadable';

/** A list field of the block (`next`, `diff`, `blocked`) as found; null in `SnapshotInfo` when absent. */
export interface SnapshotList {
  /** The value is a YAML sequence. */
  isList: boolean;
  /** Line of the field's value. */
  line: number;
  /** Line of each entry, in order (empty when not a list). */
  itemLines: number[];
}

export interface SnapshotDiffEntry {
  line: number;
  /** The entry is a mapping (op/item/why); when not, `op` and `whyWords` are empty. */
  mapping: boolean;
  op: string;
  whyWords: number;
}

export interface SnapshotBlockedEntry {
  line: number;
  /** `risk` as written (empty when absent). */
  risk: string;
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
  shape: SnapshotShape;
  /** The parse error's text ('yaml-error', 'unreadable') and line ('yaml-error'; 'unreadable' when `refused` names one). */
  error: string | null;
  errorLine: number | null;
  /** 'yaml-error': the parser's error code (what `syntaxMessage` says) and the column it names on `errorLine`. */
  errorCode?: string;
  errorColumn?: number;
  /** 'unreadable' because the block holds more than MAX_ALIASES aliases: how many. */
  aliases?: number;
  /** 'unreadable' because the block is not read (`YamlTree.refused`, or its data's): why (`refusalMessage`). */
  refused?: YamlRefusalKind;
  /** `ts` as written ('' when absent). */
  ts: string;
  /** `ctx` with its word count and line; null when absent. */
  ctx: { words: number; line: number } | null;
  next: SnapshotList | null;
  diff: SnapshotList | null;
  blocked: SnapshotList | null;
  diffEntries: SnapshotDiffEntry[];
  blockedEntries: SnapshotBlockedEntry[];
  /** Words of ctx and entries of each list (0 when absent or not a list). */
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

/** A blockquote marker (`>`, up to three spaces before it, one after it) where `lastIndex` stands. */
const QUOTE_MARK = /[ ]{0,3}> ?/y;

/** `line` without up to `depth` blockquote markers at its start (one pass over them). */
function unquoted(line: string, depth: number): string {
  let at = 0;
  QUOTE_MARK.lastIndex = 0;
  for (let d = 0; d < depth && QUOTE_MARK.test(line); d++) at = QUOTE_MARK.lastIndex;
  return at ? line.slice(at) : line;
}

/** How many blockquote markers start the marker's line (`> <!--`: 1, `> > <!--`: 2, `> - <!--`: 1). */
function quoteDepth(line: string): number {
  let depth = 0;
  QUOTE_MARK.lastIndex = 0;
  while (QUOTE_MARK.test(line)) depth++;
  return depth;
}

function locate(outline: MdOutline): Located | null {
  const { blocks, lines } = outline;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.kind === 'html' && holdsMarkerComment(b.text)) {
      const off = b.text.split('\n').findIndex(holdsMarkerComment);
      const markerLine = b.line + Math.max(0, off);
      // A marker inside a blockquote: the lines after it are read without the quote's `>` markers.
      const depth = b.quoted ? quoteDepth(lines[markerLine - 1] ?? '') : 0;
      const nb = blocks[i + 1];
      const gapBlank = nb ? lines.slice(b.endLine, nb.line - 1).every((l) => unquoted(l, depth).trim() === '') : false;
      if (nb && nb.kind === 'code' && gapBlank) {
        const fenced = nb.fenced === true;
        return {
          line: markerLine,
          endLine: nb.endLine,
          yaml: nb.text,
          yamlLine: fenced ? nb.line + 1 : nb.line,
          markerInside: false,
          fenced,
        };
      }
      // Bare YAML right after the marker, up to a blank line, a heading or a rule.
      const body: string[] = [];
      for (let k = markerLine; k < lines.length; k++) {
        const l = unquoted(lines[k], depth);
        if (l.trim() === '' || /^\s{0,3}#{1,6}\s/.test(l) || /^\s*(?:---|\*\*\*|___)\s*$/.test(l) || isFenceLine(l))
          break;
        body.push(l);
      }
      if (body.length)
        return {
          line: markerLine,
          endLine: markerLine + body.length,
          yaml: body.join('\n'),
          yamlLine: markerLine + 1,
          markerInside: false,
          fenced: false,
        };
      return {
        line: markerLine,
        endLine: markerLine,
        yaml: '',
        yamlLine: markerLine + 1,
        markerInside: false,
        fenced: false,
      };
    }
    if (b.kind === 'code') {
      const ls = b.text.split('\n');
      const first = ls.findIndex((l) => l.trim() !== '');
      if (first >= 0 && MARKER_LINE_RE.test(ls[first])) {
        ls[first] = ''; // keep the line numbering of the rest
        const fenced = b.fenced === true;
        return {
          line: b.line,
          endLine: b.endLine,
          yaml: ls.join('\n'),
          yamlLine: fenced ? b.line + 1 : b.line,
          markerInside: true,
          fenced,
        };
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

/**
 * Find and read the snapshot block. Returns null when the handoff has none. Never throws. `secrets`: what
 * its YAML decoded holds that the text did not show (`YamlTree.secrets`), at the handoff's lines; `cuts`,
 * where the handoff's text shows them masked.
 */
export function readSnapshot(
  outline: MdOutline,
): { info: SnapshotInfo; section: Section; secrets: readonly SecretHit[]; cuts: readonly LineCut[] } | null {
  const loc = locate(outline);
  if (!loc) return null;
  const items: Item[] = [];
  const ydoc = readYaml(loc.yaml);
  const lineOf = (n: YamlNode | null | undefined): number => {
    const l = n?.line;
    return l ? loc.yamlLine + l - 1 : loc.line;
  };
  let data: unknown = null;
  let shape: SnapshotShape = 'mapping';
  let error: string | null = null;
  let errorLine: number | null = null;
  let errorSyntax: { errorCode: string; errorColumn: number } | undefined;
  let aliases: number | undefined;
  let refused: YamlRefusalKind | undefined;
  let ts = '';
  let ctx: SnapshotInfo['ctx'] = null;
  const lists: Record<'next' | 'diff' | 'blocked', SnapshotList | null> = { next: null, diff: null, blocked: null };
  const diffEntries: SnapshotDiffEntry[] = [];
  const blockedEntries: SnapshotBlockedEntry[] = [];
  const counts = { ctxWords: 0, next: 0, diff: 0, blocked: 0 };
  const map = ydoc.root;
  if (ydoc.error) {
    shape = 'yaml-error';
    error = ydoc.error.message.split('\n')[0];
    errorLine = loc.yamlLine + ydoc.error.line - 1;
    // The block's text may leave out what stands before it on its lines (a list item's indentation, a
    // fence's): the column is the document line's, where that line ends with the block's line.
    const docLine = outline.lines[errorLine - 1] ?? '';
    const yamlLine = loc.yaml.split('\n')[ydoc.error.line - 1] ?? '';
    const shift = docLine.endsWith(yamlLine) ? docLine.length - yamlLine.length : 0;
    errorSyntax = { errorCode: ydoc.error.code, errorColumn: ydoc.error.column + shift };
  } else if (ydoc.refused) {
    shape = 'unreadable';
    refused = ydoc.refused.kind;
    error = ydoc.data.error;
    errorLine = ydoc.refused.line === null ? null : loc.yamlLine + ydoc.refused.line - 1;
  } else if (map?.kind !== 'map') {
    data = ydoc.data.value;
    shape = loc.yaml.trim() === '' ? 'empty' : 'not-mapping';
  } else if (ydoc.data.error) {
    shape = 'unreadable';
    error = ydoc.data.error;
    aliases = ydoc.data.aliases;
    refused = ydoc.data.refused;
    if (ydoc.data.refusedLine) errorLine = loc.yamlLine + ydoc.data.refusedLine - 1;
  } else {
    data = ydoc.data.value;
    const get = (k: string) => yamlGet(map, k);
    const js = data as Record<string, unknown>;
    ts = str(js.ts);
    if (js.ctx !== undefined && js.ctx !== null) {
      const text = str(js.ctx);
      ctx = { words: words(text), line: lineOf(get('ctx')) };
      counts.ctxWords = ctx.words;
      items.push({ text: `ctx: ${text}`, line: ctx.line, flags: [] });
    }
    /** A list field: each entry goes to `each` with its line; returns the entry count. */
    const list = (key: 'next' | 'diff' | 'blocked', each: (entry: unknown, line: number) => void): number => {
      const value = js[key];
      const node = get(key);
      if (value === undefined || value === null) return 0;
      if (node?.kind !== 'seq') {
        lists[key] = { isList: false, line: lineOf(node), itemLines: [] };
        return 0;
      }
      const itemLines = node.items.map((it) => lineOf(it));
      lists[key] = { isList: true, line: lineOf(node), itemLines };
      node.items.forEach((_it, k) => each((value as unknown[])[k], itemLines[k]));
      return itemLines.length;
    };
    counts.next = list('next', (e, line) => {
      const v = str(e);
      const u = /urgency\s*[:：]\s*([HML])(?![\w/])/i.exec(v);
      items.push({ text: `next: ${v}`, line, flags: u ? [`urgency:${u[1].toUpperCase()}`] : [] });
    });
    counts.diff = list('diff', (e, line) => {
      if (!e || typeof e !== 'object' || Array.isArray(e)) {
        diffEntries.push({ line, mapping: false, op: '', whyWords: 0 });
        return;
      }
      const r = e as Record<string, unknown>;
      const op = str(r.op).trim();
      const why = str(r.why);
      diffEntries.push({ line, mapping: true, op, whyWords: words(why) });
      items.push({
        text: `${op || '?'} ${str(r.item)}${why ? ` — ${why}` : ''}`,
        line,
        flags: VOCAB.ops.includes(op) ? [`op:${op}`] : [],
      });
    });
    counts.blocked = list('blocked', (e, line) => {
      const r = e && typeof e === 'object' && !Array.isArray(e) ? (e as Record<string, unknown>) : { item: e };
      const risk = str(r.risk).trim().toUpperCase();
      blockedEntries.push({ line, risk: str(r.risk) });
      items.push({ text: str(r.item), line, flags: VOCAB.risks.includes(risk) ? [`risk:${risk}`] : [] });
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
    shape,
    error,
    errorLine,
    ...errorSyntax,
    ...(aliases !== undefined ? { aliases } : {}),
    ...(refused ? { refused } : {}),
    ts,
    ctx,
    ...lists,
    diffEntries,
    blockedEntries,
    counts,
    blockBytes: Buffer.byteLength(loc.yaml.trim(), 'utf8'),
    proseBytes: Buffer.byteLength(prose.join('\n').trim(), 'utf8'),
  };
  const section: Section = {
    key: 'snapshot',
    title: 'state-snapshot v1',
    line: loc.line,
    endLine: loc.endLine,
    level: 0,
    items,
  };
  const secrets = ydoc.secrets.map((h) => ({ ...h, line: loc.yamlLine + h.line - 1 }));
  const cuts = linesInDocument(ydoc.cuts, loc.yaml, outline.lines, loc.yamlLine - 1);
  return { info, section, secrets, cuts };
}
