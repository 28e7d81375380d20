/**
 * Markdown outline through markdown-it tokens: headings, list items, paragraph lines, table rows,
 * code fences and HTML blocks, each with its 1-based line. A `# comment` inside a code fence is
 * never a heading. YAML front matter is cut out first (it would read as a setext heading).
 */
import type MarkdownIt from 'markdown-it';
import { parseLinkDestination, parseLinkTitle } from 'markdown-it/lib/helpers/index.mjs';
import ParserBlock from 'markdown-it/lib/parser_block.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import * as mdurl from 'mdurl';
import type { Item, Section, SectionKey } from '../model/model';

/**
 * Only the block structure is read (headings, list items, paragraphs, tables, fences, HTML blocks,
 * with their raw inline text), so markdown-it's block parser runs on its own: without its inline
 * parser, renderer and core rules, which a bundle then leaves out (a hook compiles a sixth less).
 * The block rules ask their parser (`state.md`) for these only: the options (HTML blocks on,
 * markdown-it's default nesting limit), the block parser itself, the link helpers, and the two link
 * rules a reference definition's destination must pass to be one (markdown-it normalises it, then
 * refuses a script, file or non-image data link, and such a line stays paragraph text).
 * markdown-block.test.ts compares the outline with the whole markdown-it's on every corpus file.
 */
const md = {
  options: { html: true, maxNesting: 100 },
  block: new ParserBlock(),
  helpers: { parseLinkDestination, parseLinkTitle },
  normalizeLink: (url: string): string => mdurl.encode(mdurl.format(mdurl.parse(url, true))),
  validateLink: (url: string): boolean => {
    const u = url.trim().toLowerCase();
    return !/^(?:vbscript|javascript|file|data):/.test(u) || /^data:image\/(?:gif|png|jpeg|webp);/.test(u);
  },
} as unknown as MarkdownIt;

export interface MdHeading {
  level: number;
  /** Heading text as written (inline markup kept). */
  title: string;
  /** 1-based line. */
  line: number;
}

export type MdBlockKind = 'list-item' | 'line' | 'table-row' | 'code' | 'html' | 'hr';

export interface MdBlock {
  kind: MdBlockKind;
  /** For list items: their first paragraph joined to one line; for lines: the line; for code/html: the raw content. */
  text: string;
  /** 1-based first line. */
  line: number;
  /** 1-based last line (inclusive). */
  endLine: number;
  /** List nesting depth (0 = top level); 0 for others. */
  depth: number;
  /** Inside a blockquote. */
  quoted: boolean;
  /** Code fence info string (e.g. `yaml`). */
  info?: string;
  /**
   * A code block between fence lines (its text starts on the line after `line`), not one indented by four
   * spaces (its text starts on `line`), wherever it stands: in a blockquote or a list item too.
   */
  fenced?: boolean;
  /** List item marker was an ordered number. */
  ordered?: boolean;
  /** Task-list checkbox: `[x]` → true, `[ ]` → false. */
  checked?: boolean;
}

export interface MdOutline {
  /** Source lines (split on `\n`, a trailing `\r` removed). */
  lines: string[];
  headings: MdHeading[];
  blocks: MdBlock[];
  frontMatter: { text: string; line: number; endLine: number } | null;
}

/** Split text into lines the way every counter here counts them. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  // In place: a second array of every line would be garbage as large as the first.
  if (text.includes('\r'))
    for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
  return lines;
}

/** How many lines `splitLines` makes of `text` (one more than its \n), without making them. */
export function lineTotal(text: string): number {
  let n = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

function findFrontMatter(lines: string[]): { text: string; line: number; endLine: number } | null {
  if (lines.length < 2 || lines[0].trim() !== '---') return null;
  const limit = Math.min(lines.length, 400);
  for (let i = 1; i < limit; i++) {
    const t = lines[i].trim();
    if (t === '---' || t === '...') {
      const body = lines.slice(1, i);
      // Front matter holds `key: value` lines; a lone `---` rule followed by prose is not front matter.
      if (body.length > 0 && !body.some((l) => /^\s*[\w$"'-][^:]*:/.test(l))) return null;
      return { text: body.join('\n'), line: 1, endLine: i + 1 };
    }
  }
  return null;
}

const TASK_RE = /^\[([ xX])\]\s+/;

/**
 * A long document is parsed in chunks of at least this many lines: markdown-it keeps every token of
 * a parse until it ends, and at 100k lines those tokens outlive V8's young generation, so garbage
 * collection grew faster than the input (half the time of a 100k-line parse). Chunked, the
 * outline is the same and the time stays linear.
 */
export const CHUNK_LINES = 2000;

const CUT_HEADING = /^#{1,6}(?:[ \t]|$)/;
const CUT_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * Where a long document may be cut (0-based lines), at least `every` lines after the previous cut
 * and before the end: an ATX heading at column 0, or a list item at column 0 right after another
 * (a long list, S3's Log, has no heading to cut at). A heading there starts a new top-level block
 * unless a fence or an HTML block is still open (the only blocks an unindented heading line does
 * not end: it ends every paragraph, list item, block quote, table and indented code block); a list
 * item there is the next item of a top-level list when the block before it is that list.
 * `parseMarkdown` checks both after parsing the chunk before the cut.
 */
export function cutLines(lines: readonly string[], every = CHUNK_LINES): number[] {
  const cuts: number[] = [];
  if (lines.length < 2 * every) return cuts;
  let last = 0;
  for (let i = every; i <= lines.length - every; i++) {
    if (i - last >= every && (CUT_HEADING.test(lines[i]) || (CUT_ITEM.test(lines[i]) && CUT_ITEM.test(lines[i - 1])))) {
      cuts.push(i);
      last = i;
    }
  }
  return cuts;
}

/**
 * True when a chunk must not end at `end`: its last top-level block is a fence or HTML block that
 * ran into the cut, or the cut is at a list item and the block before it is not a top-level list.
 */
function badCut(tokens: readonly Token[], end: number, atItem: boolean): boolean {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t.level !== 0 || !t.map) continue;
    if (atItem) return t.type !== 'bullet_list_open' && t.type !== 'ordered_list_open';
    return (t.type === 'fence' || t.type === 'html_block') && t.map[1] >= end;
  }
  return atItem;
}

/**
 * Parse Markdown into an outline. Never throws on content. `parser`: the block parser's host (the
 * tests pass the whole markdown-it, to compare).
 */
export function parseMarkdown(text: string, chunkLines = CHUNK_LINES, parser: MarkdownIt = md): MdOutline {
  const lines = splitLines(text);
  const frontMatter = findFrontMatter(lines);
  let source = lines;
  if (frontMatter) {
    source = lines.slice();
    for (let i = frontMatter.line - 1; i < frontMatter.endLine; i++) source[i] = '';
  }
  const headings: MdHeading[] = [];
  const blocks: MdBlock[] = [];
  try {
    // What markdown-it's own parse does first: every line break is \n, NUL is U+FFFD.
    // The text itself when no line lost a \r and no front matter was blanked (no copy of it to make).
    const joined = source === lines && !text.includes('\r') ? text : source.join('\n');
    const src = joined.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
    // The parser's lines: the source's own, unless a lone \r inside one broke it in two.
    const srcLines = joined.includes('\r') ? src.split('\n') : source;
    const cuts = cutLines(srcLines, chunkLines);
    // Each chunk is a document of its own: its lines' text up to the next cut, with the line break
    // that ends the last (a text without cuts is one chunk). markdown-it's table of where each line
    // begins (five numbers a line) is then made a chunk at a time and dropped with it, where one table
    // for the whole text outlived V8's young generation (10× the lines took 30× the time). Link
    // reference definitions are shared by the chunks, as in one parse.
    const env = {};
    const tokensOf = (chunk: string): Token[] => {
      const state = new parser.block.State(chunk, parser, env, []);
      parser.block.tokenize(state, 0, state.lineMax);
      return state.tokens;
    };
    let from = 0;
    let fromAt = 0;
    let at = 0;
    let line = 0;
    for (const to of [...cuts, -1]) {
      if (to >= 0) for (; line < to; line++) at += srcLines[line].length + 1;
      const tokens = tokensOf(to < 0 ? src.slice(fromAt) : src.slice(fromAt, at));
      if (to >= 0 && badCut(tokens, to - from, !CUT_HEADING.test(srcLines[to]))) {
        // The cut is not where a block starts: the rest is parsed in one piece (at most twice the work).
        walkTokens(tokensOf(src.slice(fromAt)), from, headings, blocks);
        break;
      }
      walkTokens(tokens, from, headings, blocks);
      from = to;
      fromAt = at;
    }
  } catch {
    /* what was read so far stands */
  }
  blocks.sort((a, b) => a.line - b.line);
  return { lines, headings, blocks, frontMatter };
}

/**
 * Turn one parse's tokens into headings and blocks (lines are markdown-it's, 0-based in `map`, and
 * `base` lines into the document when the parse was of a chunk that starts there).
 */
function walkTokens(tokens: Token[], base: number, headings: MdHeading[], blocks: MdBlock[]): void {
  let listDepth = -1;
  const orderedStack: boolean[] = [];
  let quoteDepth = 0;
  let inTableBody = false;
  // A list item's first paragraph becomes its text; later paragraphs of the same item are lines.
  const pendingItem: (MdBlock | null)[] = [];

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const map = t.map;
    // The 1-based first line, and the last (inclusive).
    const line = (map?.[0] ?? 0) + base + 1;
    const endLine = map ? map[1] + base : line;
    switch (t.type) {
      case 'heading_open': {
        const inline = tokens[i + 1];
        headings.push({
          level: Number(t.tag.slice(1)) || 1,
          title: (inline?.content ?? '').trim(),
          line,
        });
        i += 2;
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        listDepth++;
        orderedStack.push(t.type === 'ordered_list_open');
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        listDepth--;
        orderedStack.pop();
        break;
      case 'list_item_open': {
        const b: MdBlock = {
          kind: 'list-item',
          text: '',
          line,
          endLine,
          depth: Math.max(0, listDepth),
          quoted: quoteDepth > 0,
          ordered: orderedStack[orderedStack.length - 1] ?? false,
        };
        blocks.push(b);
        pendingItem.push(b);
        break;
      }
      case 'list_item_close':
        pendingItem.pop();
        break;
      case 'blockquote_open':
        quoteDepth++;
        break;
      case 'blockquote_close':
        quoteDepth--;
        break;
      case 'paragraph_open': {
        const inline = tokens[i + 1];
        const content = inline?.type === 'inline' ? inline.content : '';
        const start = line;
        const item = pendingItem[pendingItem.length - 1];
        if (item && item.text === '' && listDepth >= 0) {
          // Its lines joined by a space (one line, most items: itself, with no arrays made for it).
          let txt = content.includes('\n')
            ? content
                .split('\n')
                .map((s) => s.trim())
                .join(' ')
                .trim()
            : content.trim();
          const m = TASK_RE.exec(txt);
          if (m) {
            item.checked = m[1] !== ' ';
            txt = txt.slice(m[0].length);
          }
          item.text = txt;
        } else {
          content.split('\n').forEach((l, k) => {
            if (l.trim() === '') return;
            blocks.push({
              kind: 'line',
              text: l.trim(),
              line: start + k,
              endLine: start + k,
              depth: 0,
              quoted: quoteDepth > 0,
            });
          });
        }
        i += 2;
        break;
      }
      case 'fence':
      case 'code_block':
        blocks.push({
          kind: 'code',
          text: t.content,
          line,
          endLine,
          depth: 0,
          quoted: quoteDepth > 0,
          info: t.info?.trim() ?? '',
          fenced: t.type === 'fence',
        });
        break;
      case 'html_block':
        blocks.push({
          kind: 'html',
          text: t.content,
          line,
          endLine,
          depth: 0,
          quoted: quoteDepth > 0,
        });
        break;
      case 'hr':
        blocks.push({
          kind: 'hr',
          text: t.markup,
          line,
          endLine: line,
          depth: 0,
          quoted: quoteDepth > 0,
        });
        break;
      case 'tbody_open':
        inTableBody = true;
        break;
      case 'tbody_close':
        inTableBody = false;
        break;
      case 'tr_open': {
        if (!inTableBody) break;
        const cells: string[] = [];
        let j = i + 1;
        for (; j < tokens.length && tokens[j].type !== 'tr_close'; j++) {
          if (tokens[j].type === 'inline') cells.push(tokens[j].content.trim());
        }
        blocks.push({
          kind: 'table-row',
          text: cells.join(' | '),
          line,
          endLine: line,
          depth: 0,
          quoted: quoteDepth > 0,
        });
        i = j;
        break;
      }
      default:
        break;
    }
  }
}

export type KeyOf = (title: string, heading: MdHeading) => SectionKey;

export interface SectionizeOptions {
  /** Only headings at or above this level start sections (default 6: every heading). */
  maxLevel?: number;
  /** Turn a block into an item (default: list items, lines and table rows; code/html/hr skipped). */
  toItem?: (b: MdBlock) => Item | null;
}

export function defaultItem(b: MdBlock): Item | null {
  if (b.kind === 'code' || b.kind === 'html' || b.kind === 'hr') return null;
  if (b.text.trim() === '') return null;
  const flags: string[] = [];
  if (b.checked === true) flags.push('done');
  return { text: b.text, line: b.line, flags, depth: b.depth };
}

/**
 * Cut an outline into sections at headings (every heading starts a section, so `### Now` under
 * `## State` is a section of its own). Text before the first heading is the `preamble` section
 * when it holds anything.
 */
export function sectionize(outline: MdOutline, keyOf: KeyOf, opts: SectionizeOptions = {}): Section[] {
  const maxLevel = opts.maxLevel ?? 6;
  const toItem = opts.toItem ?? defaultItem;
  const starts = outline.headings.filter((h) => h.level <= maxLevel);
  const sections: Section[] = [];
  const total = outline.lines.length;
  const blocks = outline.blocks;
  // One pass: blocks are in line order, so each section takes the run of blocks after its heading.
  let b = 0;
  const itemsUntil = (last: number, after: number): { items: Item[]; first: number } => {
    const items: Item[] = [];
    let first = -1;
    for (; b < blocks.length && blocks[b].line <= last; b++) {
      if (blocks[b].line <= after) continue;
      if (first < 0) first = blocks[b].line;
      const it = toItem(blocks[b]);
      if (it) items.push(it);
    }
    // A copy the size of its items: an array pushed to keeps room for 17, which was most of what a
    // section of a long document held while it was read.
    return { items: items.length ? items.slice() : items, first };
  };
  const firstLine = starts.length ? starts[0].line : total + 1;
  const pre = itemsUntil(firstLine - 1, 0);
  if (pre.items.length) {
    sections.push({ key: 'preamble', title: '', line: pre.first, endLine: firstLine - 1, level: 0, items: pre.items });
  }
  for (let idx = 0; idx < starts.length; idx++) {
    const h = starts[idx];
    const end = idx + 1 < starts.length ? starts[idx + 1].line - 1 : total;
    const { items } = itemsUntil(end, h.line);
    sections.push({ key: keyOf(h.title, h), title: h.title, line: h.line, endLine: end, level: h.level, items });
  }
  return sections;
}

/**
 * For every heading, the last line of its part of the document: the line before the next heading
 * of level `upTo` or above (of its own level or above when `upTo` is not given), else the last
 * line. One pass from the end, whatever the number of headings.
 */
export function headingEnds(outline: Pick<MdOutline, 'headings' | 'lines'>, upTo?: number): number[] {
  const { headings } = outline;
  const total = outline.lines.length;
  const ends = new Array<number>(headings.length);
  if (upTo !== undefined) {
    let next = total + 1;
    for (let i = headings.length - 1; i >= 0; i--) {
      ends[i] = next - 1;
      if (headings[i].level <= upTo) next = headings[i].line;
    }
    return ends;
  }
  // The next heading of the same level or above: a stack of the headings after i, levels rising.
  const stack: MdHeading[] = [];
  for (let i = headings.length - 1; i >= 0; i--) {
    const h = headings[i];
    while (stack.length && stack[stack.length - 1].level > h.level) stack.pop();
    ends[i] = stack.length ? stack[stack.length - 1].line - 1 : total;
    stack.push(h);
  }
  return ends;
}

/** The blocks whose first line is within `[from, to]` (blocks are in line order): a binary search and a slice. */
export function blocksBetween(outline: Pick<MdOutline, 'blocks'>, from: number, to: number): MdBlock[] {
  const { blocks } = outline;
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (blocks[mid].line < from) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < blocks.length && blocks[end].line <= to) end++;
  return blocks.slice(lo, end);
}
