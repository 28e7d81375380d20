/**
 * The YAML documents the readers take apart (`.agents.yml`, `context-manifest.yaml`, S1's snapshot
 * block, S4's front matter), as one small tree: mappings, sequences and scalars with their lines,
 * the first error, and the data. Plain YAML, which is what these files almost always hold, is read
 * here in one pass over the lines; anything else is read by the `yaml` library (loaded then only)
 * and its document turned into the same tree. The plain reader answers only where it gives what the
 * library gives: the same values (the YAML 1.2 core schema), the same lines, the same data.
 *
 * Plain YAML here: block mappings and sequences indented with spaces; keys that are plain words
 * (letters, digits, `_ . / -`, not `true`, `null` …), each once per mapping; values that are a plain
 * scalar on one line, a quoted scalar on one line without escapes, or `[]` / `{}`; a value on the
 * lines below its key (a deeper block, or a sequence at the key's own indent); comments. Everything
 * else goes to the library: flow collections with content, block scalars (`|`, `>`), anchors,
 * aliases, tags, directives, document markers, explicit keys, multi-line scalars, tabs, carriage
 * returns and control characters, duplicate keys, an empty document, a top level that is a scalar,
 * and everything the library refuses (it says how). Each line is looked at a bounded number of
 * times: time is linear in the text.
 */
import type { Document, LineCounter, Node as LibNode, Pair, Scalar } from 'yaml';
import {
  aliasUses,
  errorPlace,
  MAX_ALIASES,
  nullDocument,
  parseYamlDocument,
  yamlData,
  yamlLib,
  yamlRefusal,
  type YamlRefusalKind,
} from './yaml';
import type { MdOutline } from './markdown';
import { maskSecrets, type SecretHit } from '../secrets/secrets';

export interface YamlScalar {
  kind: 'scalar';
  value: unknown;
  /** 1-based line in the YAML text where the node starts; null when the library gives no position. */
  line: number | null;
}

export interface YamlPair {
  /** The key's value when the key is a scalar (a plain key: its text); undefined otherwise. */
  key: unknown;
  keyIsScalar: boolean;
  /** The key as text (`String(value)`, or the library's text of a key that is not a scalar). */
  keyText: string;
  keyLine: number | null;
  /** Null when the library holds no node there. */
  value: YamlNode | null;
}

export interface YamlMap {
  kind: 'map';
  line: number | null;
  readonly pairs: YamlPair[];
}

export interface YamlSeq {
  kind: 'seq';
  line: number | null;
  readonly items: Array<YamlNode | null>;
}

/** An alias, or a key-value pair standing as a sequence item (`- ? a : b`). */
export interface YamlOther {
  kind: 'other';
  line: number | null;
}

export type YamlNode = YamlScalar | YamlMap | YamlSeq | YamlOther;

export interface YamlTree {
  /**
   * The first error: the library's message, its code (what `syntaxMessage` says), and the line and column
   * it names, 1-based (null when the document is `refused`).
   */
  error: { message: string; code: string; line: number; column: number } | null;
  /**
   * Why the document is not read (`yamlRefusal`: nesting, keys that are not plain values, and the
   * library's errors said in the tool's words: `refusalMessage`), and its line when known; `data` is
   * not made then.
   */
  refused: { kind: YamlRefusalKind; line: number | null } | null;
  /** The document's top node (null for an empty document). */
  root: YamlNode | null;
  /**
   * The document's data is null (`nullDocument`): it holds no node (nothing but blanks, comments, directives
   * and document markers; its root is null, or the null scalar the library puts after `---` or before `...`),
   * or its one node is a null scalar (`~`, `null`, `!!null` …), which is then its root.
   */
  nullData: boolean;
  /**
   * The document as plain data, or why it cannot be (an alias bomb …): never thrown. `aliases`: the
   * document's data would hold more than MAX_ALIASES aliases (`aliasUses`), this many, and is not resolved (readers say so in words of their own).
   * `refused`: the document is `refused`, or the library refused its data in words of its own (`yamlData`):
   * why, for `refusalMessage`; `refusedLine`, the line of the YAML text that refusal names, when known.
   */
  readonly data: {
    value: unknown;
    error: string | null;
    aliases?: number;
    refused?: YamlRefusalKind;
    refusedLine?: number;
  };
  /**
   * Secrets found in what YAML decoded (`masked`), which the text masker, run on the text before it
   * was parsed, did not see: their lines are the YAML text's (1-based). None for plain YAML.
   */
  readonly secrets: readonly SecretHit[];
  /**
   * Where the YAML text holds what the tree masks (the scalars `secrets` names, every `!!binary` value), in
   * the text's lines: the text a model keeps of the document shows the masked form there (`withLineCuts`). None
   * for plain YAML, whose values the text masker saw on their lines.
   */
  readonly cuts: readonly LineCut[];
}

/** The value node at `key` of a mapping (the first pair whose scalar key equals it), as the library's `get(key, true)`. */
export function yamlGet(node: YamlNode | null | undefined, key: string): YamlNode | undefined {
  if (node?.kind !== 'map') return undefined;
  return node.pairs.find((p) => p.keyIsScalar && p.key === key)?.value ?? undefined;
}

export function yamlHas(node: YamlNode | null | undefined, key: string): boolean {
  return node?.kind === 'map' && node.pairs.some((p) => p.keyIsScalar && p.key === key);
}

/** The node at a path of keys through mappings, as the library's `getIn(path, true)`. */
export function yamlGetIn(node: YamlNode | null | undefined, path: readonly string[]): YamlNode | undefined {
  let at: YamlNode | null | undefined = node;
  for (const key of path) at = yamlGet(at, key);
  return at ?? undefined;
}

/** As the library's `hasIn(path)`: every key but the last leads to a mapping, and the last is one of its keys. */
export function yamlHasIn(node: YamlNode | null | undefined, path: readonly string[]): boolean {
  return yamlHas(yamlGetIn(node, path.slice(0, -1)), path[path.length - 1]);
}

/** A scalar's value, or the node itself for a collection (the library's `getIn(path)` without `keepScalar`). */
export function yamlValue(node: YamlNode | undefined): unknown {
  return node?.kind === 'scalar' ? node.value : node;
}

/** Read `text` as a YAML document; `uniqueKeys` (default true) makes a repeated key an error, as the library's check does. */
export function readYaml(text: string, options: { uniqueKeys?: boolean } = {}): YamlTree {
  const plain = readPlainYaml(text);
  if (plain)
    return {
      error: null,
      refused: null,
      root: plain.root,
      nullData: false,
      data: { value: plain.data, error: null },
      secrets: [],
      cuts: [],
    };
  return libraryTree(text, options.uniqueKeys !== false);
}

// ---------------------------------------------------------------------------------------------
// The library's document as the tree

/** A key that may name a secret: it holds one of the words every secret's name holds. */
const SECRET_NAME = /key|token|secret|passw/i;

/**
 * A string as the model may hold it: secrets masked. The text was masked before it was parsed, but the
 * library decodes what a quoted scalar spells with escapes (`\x61`, `\u0061`, a line continued with
 * a backslash), which can put a secret back together; and YAML takes a key's value from the lines
 * below it in forms the line masker does not take for a key that ends its line (a tag `password:
 * !!str`, an anchor `api_key: &k`, a comment `db_password:   # …`, an explicit key `? secret_key` /
 * `: …`). So a value under a key is masked as the decoded pair `key: value` is, written on one line
 * and with the value on the next line (the rules the text masker applies to either), whatever form
 * the YAML gave it.
 */
function maskedWithHits(v: string, key?: unknown): { text: string; hits: SecretHit[] } {
  if (typeof key !== 'string' || !SECRET_NAME.test(key)) return maskSecrets(v);
  const name = maskSecrets(key).text;
  const hits: SecretHit[] = [];
  let text = v;
  for (const sep of [': ', ':\n']) {
    const r = maskSecrets(`${name}${sep}${text}`);
    // The key's name (already masked) is the same text before and after: only the value changed.
    if (!r.text.startsWith(`${name}${sep}`)) return maskSecrets(v);
    text = r.text.slice(name.length + sep.length);
    // Lines counted from the value's first line.
    const below = sep.includes('\n') ? 1 : 0;
    for (const h of r.hits) hits.push({ ...h, line: Math.max(1, h.line - below) });
  }
  return { text, hits };
}

function masked(v: unknown, key?: unknown): unknown {
  return typeof v === 'string' ? maskedWithHits(v, key).text : v;
}

/**
 * `masked` on every string of plain data, keys too (a mapping's, an ordered map's, a set's members: a
 * reader that shows a value as JSON shows its keys), without recursion. A key is masked as a key is in
 * the tree (`keyText`); its order among the others stays. Two keys that mask to the same text are one
 * key then, the later value kept, as the library keeps the later of two equal keys.
 */
function maskedData(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return masked(v);
  const todo: unknown[] = [v];
  const seen = new Set<unknown>();
  const push = (x: unknown) => {
    if (typeof x === 'object' && x !== null) todo.push(x);
  };
  while (todo.length) {
    const o = todo.pop() as Record<string, unknown> | unknown[] | Map<unknown, unknown> | Set<unknown>;
    if (seen.has(o)) continue;
    seen.add(o);
    if (o instanceof Map) {
      const entries = [...o].map(([k, x]): [unknown, unknown] => [masked(k), masked(x, k)]);
      o.clear();
      for (const [k, x] of entries) {
        o.set(k, x);
        push(k);
        push(x);
      }
      continue;
    }
    if (o instanceof Set) {
      const members = [...o].map((x) => masked(x));
      o.clear();
      for (const x of members) {
        o.add(x);
        push(x);
      }
      continue;
    }
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) {
        o[i] = masked(o[i]);
        push(o[i]);
      }
      continue;
    }
    const keys = Object.keys(o);
    const shown = keys.map((k) => masked(k) as string);
    const values = keys.map((k) => masked(o[k], k));
    values.forEach(push);
    if (shown.every((k, i) => k === keys[i])) {
      keys.forEach((k, i) => {
        if (values[i] !== o[k]) o[k] = values[i];
      });
      continue;
    }
    // A key masked: all are written again, in their order (defined, not assigned: a `__proto__` key stays a key).
    for (const k of keys) delete o[k];
    keys.forEach((_k, i) =>
      Object.defineProperty(o, shown[i], { value: values[i], writable: true, enumerable: true, configurable: true }),
    );
  }
  return v;
}

/**
 * The masked form of a `!!binary` value's bytes, as a masked value is said: its length as base64, the
 * text it is written in (`… (56 chars)` for 41 bytes).
 */
function binaryMask(bytes: Uint8Array): string {
  return `… (${4 * Math.ceil(bytes.length / 3)} chars)`;
}

const utf8 = new TextDecoder();

/**
 * Every `!!binary` scalar of the document (a value or a key, whatever spells its tag) holds its masked form
 * (`binaryMask`) in place of its bytes from here on, and no tag: the tree, the data and any text the
 * library makes of a key show no byte of it, encoded or decoded (base64 is a secret written another way).
 * Its bytes, read as UTF-8 text, are masked as a value under its key is (`maskedWithHits`): what that finds
 * is returned, at the scalar's line, named as found in a `!!binary` value, with the masked form the model
 * holds; where it is written in `text` goes to `cuts` (its masked form there, after its tag). One pass over
 * the nodes (an alias repeats a node met where it stands); run before the data is made.
 */
function maskBinaries(doc: Document, lineAt: (n: unknown) => number | null, text: string, cuts: Cut[]): SecretHit[] {
  const hits: SecretHit[] = [];
  eachScalar(doc, (n, key) => {
    if (!(n.value instanceof Uint8Array)) return;
    const shown = binaryMask(n.value);
    if (n.range) cuts.push(scalarCut(text, n.range, shown, true));
    const line = lineAt(n) ?? 1;
    for (const h of maskedWithHits(utf8.decode(n.value), key).hits)
      hits.push({ ...h, rule: `${h.rule} in a YAML !!binary value`, line, masked: shown });
    n.value = shown;
    n.tag = undefined;
  });
  return hits;
}

/**
 * Each scalar of the document with the key it is the value of (a scalar key's value, which names what
 * the value is: `password: …`; undefined for a key, a list item or the root), aliases not followed:
 * the pairs of mappings and of ordered maps and pair lists (`!!omap`, `!!pairs`), the items of lists.
 */
function eachScalar(doc: Document, visit: (n: Scalar, key: unknown) => void): void {
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  const todo: Array<{ n: unknown; key?: unknown }> = [{ n: doc.contents }];
  while (todo.length) {
    const { n, key } = todo.pop() as { n: unknown; key?: unknown };
    if (isScalar(n)) visit(n, key);
    else if (isMap(n) || isSeq(n))
      for (const it of n.items as unknown[])
        if (isPair(it)) todo.push({ n: it.key }, { n: it.value, key: isScalar(it.key) ? it.key.value : undefined });
        else todo.push({ n: it });
  }
}

/** A replacement of `text[from, to)` by `put`. */
export interface Cut {
  from: number;
  to: number;
  put: string;
}

/** `text` with `cuts` made, in the order of their places; a cut that overlaps one before it is left out. */
export function spliced(text: string, cuts: readonly Cut[]): string {
  let out = '';
  let at = 0;
  for (const c of cuts) {
    if (c.from < at) continue;
    out += text.slice(at, c.from) + c.put;
    at = c.to;
  }
  return out + text.slice(at);
}

/**
 * The cut that shows `masked` where a scalar is written (`range`, the library's): the blanks and line breaks
 * the library counts into a scalar's end (a block scalar's) stay. The masked form stands as it is when the
 * scalar was one plain line that said its value as it is (`plain`), else double-quoted, so the text stays
 * YAML that says the masked value.
 */
function scalarCut(text: string, range: readonly number[], masked: string, plain: boolean): Cut {
  const from = range[0];
  const to = endOfValue(text, from, range[1]);
  return { from, to, put: plain && !/[\r\n]/.test(masked) ? masked : JSON.stringify(masked) };
}

/** The scalar is written as one plain line that is its value (a plain key or value: `password: Qz7…`). */
function writtenAsIs(text: string, n: Scalar): boolean {
  return (
    n.type === 'PLAIN' && !!n.range && text.slice(n.range[0], endOfValue(text, n.range[0], n.range[1])) === n.value
  );
}

/** A part of one line of a text replaced: its 1-based line (lines end at `\n`), the columns [from, to) in that line, and what stands there instead. */
export interface LineCut {
  line: number;
  from: number;
  to: number;
  put: string;
}

/**
 * `cuts` (in `text`'s offsets, in the order of their places, none overlapping) as cuts of its lines that keep
 * every line break: a cut's first line gets what it puts, padded with spaces to the length of what it
 * replaces there, and each further line of it only blanks, as long as that line's part (a block scalar's
 * lines, a quoted value continued below). A line break is `\n`, `\r\n` or a lone `\r` (kept as it is; lines
 * are counted at `\n`). One pass over the text up to the last cut.
 */
export function lineCutsOf(text: string, cuts: readonly Cut[]): LineCut[] {
  const out: LineCut[] = [];
  let line = 1;
  let lineStart = 0;
  let at = 0;
  for (const c of cuts) {
    if (c.from < at) continue;
    for (; at < c.from; at++)
      if (text.charCodeAt(at) === 10) {
        line++;
        lineStart = at + 1;
      }
    let first = true;
    let pieceFrom = c.from;
    for (;;) {
      const ch = at < c.to ? text.charCodeAt(at) : -1;
      if (ch === -1 || ch === 10 || ch === 13) {
        const len = at - pieceFrom;
        if (first || len > 0)
          out.push({
            line,
            from: pieceFrom - lineStart,
            to: at - lineStart,
            put: first ? c.put + ' '.repeat(Math.max(0, len - c.put.length)) : ' '.repeat(len),
          });
        first = false;
        if (ch === -1) break;
        at++;
        if (ch === 10) {
          line++;
          lineStart = at;
        }
        pieceFrom = at;
      } else at++;
    }
  }
  return out;
}

/**
 * `cuts` of a YAML text that stands in a document (`docLines`, split at `\n` with a line's last `\r` taken off,
 * as an outline's lines) from its line `first` + 1 on (YAML line k is document line `first` + k), as cuts of
 * the document's lines. A YAML line is the end of its document line (a code block's lines lose the
 * indentation or the quote markers before them): its columns move by what stands before it. A document line
 * that does not end with its YAML line is cut whole after its indentation, so nothing of the value stays.
 */
export function linesInDocument(
  cuts: readonly LineCut[],
  yaml: string,
  docLines: readonly string[],
  first: number,
): LineCut[] {
  if (!cuts.length) return [];
  const yamlLines = yaml.split('\n');
  const out: LineCut[] = [];
  let whole = -1;
  for (const c of cuts) {
    const line = c.line + first;
    const doc = docLines[line - 1];
    if (doc === undefined) continue;
    const own = (yamlLines[c.line - 1] ?? '').replace(/\r$/, '');
    if (doc.endsWith(own)) {
      const shift = doc.length - own.length;
      out.push({ line, from: c.from + shift, to: Math.min(c.to, own.length) + shift, put: c.put });
    } else if (line !== whole) {
      whole = line;
      const indent = doc.length - doc.trimStart().length;
      out.push({
        line,
        from: indent,
        to: doc.length,
        put: c.put.trim() === '' ? ' '.repeat(doc.length - indent) : c.put,
      });
    }
  }
  return out;
}

/**
 * What YAML decodes from a Markdown document's front matter (`readYaml`) and the text did not show: its
 * secrets and cuts, at the document's lines (the front matter's text starts on the line after its opening
 * `---`). None when the document has no front matter.
 */
export function frontMatterFound(outline: MdOutline): { secrets: SecretHit[]; cuts: LineCut[] } {
  const fm = outline.frontMatter;
  if (!fm) return { secrets: [], cuts: [] };
  const y = readYaml(fm.text);
  return {
    secrets: y.secrets.map((h) => ({ ...h, line: fm.line + h.line })),
    cuts: linesInDocument(y.cuts, fm.text, outline.lines, fm.line),
  };
}

/**
 * `text` with `cuts` made (a document's lines, split at `\n`; a cut that overlaps one before it on its line is
 * left out). Every line break stays as it was. Linear in the text and the cuts.
 */
export function withLineCuts(text: string, cuts: readonly LineCut[]): string {
  if (!cuts.length) return text;
  const sorted = [...cuts].sort((a, b) => a.line - b.line || a.from - b.from);
  let out = '';
  let at = 0;
  let line = 1;
  let lineStart = 0;
  let k = 0;
  while (k < sorted.length) {
    const target = sorted[k].line;
    while (line < target) {
      const nl = text.indexOf('\n', lineStart);
      if (nl < 0) return out + text.slice(at);
      lineStart = nl + 1;
      line++;
    }
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    let end = lineStart;
    for (; k < sorted.length && sorted[k].line === target; k++) {
      const c = sorted[k];
      const from = lineStart + c.from;
      const to = Math.min(lineStart + c.to, lineEnd);
      if (from < end || from > to) continue;
      out += text.slice(at, from) + c.put;
      at = to;
      end = to;
    }
  }
  return out + text.slice(at);
}

/**
 * A YAML document's text as a surface shows it whole (a write action's preview): what the readers mask
 * is masked where it is written. A `!!binary` scalar shows its masked form (`binaryMask`) after its tag;
 * a scalar (a key, or a value under its key) whose decoded string the readers mask (`maskedWithHits`:
 * a secret spelled with escapes, taken from the line below its key, folded over lines) shows that string
 * masked, as it was written when it was one plain line, else double-quoted (the line breaks after a
 * block scalar stay). Then the whole text goes through the line masker (`maskSecrets`), as every text the
 * readers read does (comments, and what YAML does not decode). A text the library does not read without
 * an error or refusal gets the line masker only. One pass over the nodes and one over the text.
 */
export function maskedYamlText(text: string): string {
  const doc = parseYamlDocument(text, { logLevel: 'error' });
  if (doc.errors.length || yamlRefusal(doc)) return maskSecrets(text).text;
  const cuts: Cut[] = [];
  eachScalar(doc, (n, key) => {
    if (!n.range) return;
    if (n.value instanceof Uint8Array) cuts.push(scalarCut(text, n.range, binaryMask(n.value), true));
    else if (typeof n.value === 'string') {
      const m = maskedWithHits(n.value, key);
      if (m.hits.length) cuts.push(scalarCut(text, n.range, m.text, writtenAsIs(text, n)));
    }
  });
  return maskSecrets(
    spliced(
      text,
      cuts.sort((a, b) => a.from - b.from),
    ),
  ).text;
}

/** Where a value written at `text[from, to)` ends without the blanks and line breaks after it (a loop: a regex would retry each run). */
export function endOfValue(text: string, from: number, to: number): number {
  let end = to;
  while (end > from && ' \t\r\n'.includes(text[end - 1])) end--;
  return end;
}

function libraryTree(text: string, uniqueKeys: boolean): YamlTree {
  const { LineCounter, isMap, isPair, isScalar, isSeq } = yamlLib();
  const lc: LineCounter = new LineCounter();
  const doc: Document.Parsed = parseYamlDocument(text, { lineCounter: lc, logLevel: 'error', uniqueKeys });
  const lineAt = (n: unknown): number | null => {
    const r = (n as { range?: [number, number, number] } | null | undefined)?.range;
    return r ? lc.linePos(r[0]).line : null;
  };
  // Children are turned into the tree when a reader asks for them: a deep document costs nothing unread.
  const node = (n: unknown, key?: unknown): YamlNode | null => {
    if (n === null || n === undefined) return null;
    const line = lineAt(n);
    if (isScalar(n)) return { kind: 'scalar', value: masked(n.value, key), line };
    if (isMap(n)) {
      let pairs: YamlPair[] | undefined;
      return {
        kind: 'map',
        line,
        get pairs() {
          return (pairs ??= n.items.map((p) => ({
            key: isScalar(p.key) ? p.key.value : undefined,
            keyIsScalar: isScalar(p.key),
            keyText: masked(String((p.key as { value?: unknown } | null)?.value ?? p.key)) as string,
            keyLine: lineAt(p.key),
            value: node(p.value, isScalar(p.key) ? p.key.value : undefined),
          })));
        },
      };
    }
    if (isSeq(n)) {
      let items: Array<YamlNode | null> | undefined;
      return {
        kind: 'seq',
        line,
        get items() {
          return (items ??= n.items.map((it) => node(it)));
        },
      };
    }
    return { kind: 'other', line };
  };
  /**
   * The secrets in every decoded string (keys, values under their keys, sequence items), aliases not followed:
   * the pairs of mappings, and those of ordered maps and pair lists (`!!omap`, `!!pairs`: sequences whose
   * items are pairs), each pair as a mapping's.
   */
  const secretsOf = (): { hits: SecretHit[]; cuts: Cut[] } => {
    const out: SecretHit[] = [];
    const cuts: Cut[] = [...binaryCuts];
    const add = (v: unknown, n: unknown, key?: unknown) => {
      if (typeof v !== 'string') return;
      const s = n as Scalar;
      // A block scalar's value starts on the line after its indicator (`password: |`).
      const line = (lineAt(n) ?? 1) + (s.type === 'BLOCK_LITERAL' || s.type === 'BLOCK_FOLDED' ? 1 : 0);
      const m = maskedWithHits(v, key);
      if (!m.hits.length) return;
      for (const h of m.hits) out.push({ ...h, line: line + h.line - 1 });
      // Where it is written, it shows masked.
      if (s.range) cuts.push(scalarCut(text, s.range, m.text, writtenAsIs(text, s)));
    };
    const todo: unknown[] = [doc.contents];
    const pair = (p: Pair) => {
      const key = isScalar(p.key) ? p.key.value : undefined;
      if (isScalar(p.key)) add(key, p.key);
      else if (p.key) todo.push(p.key);
      if (isScalar(p.value)) add(p.value.value, p.value, key);
      else if (p.value) todo.push(p.value);
    };
    while (todo.length) {
      const n = todo.pop();
      if (isScalar(n)) add(n.value, n);
      else if (isMap(n)) for (const p of n.items) pair(p);
      else if (isSeq(n))
        for (const it of n.items as unknown[])
          if (isPair(it)) pair(it);
          else todo.push(it);
    }
    return { hits: out, cuts };
  };
  let found: { secrets: SecretHit[]; cuts: LineCut[] } | undefined;
  const find = () => {
    if (found) return found;
    const { hits, cuts } = secretsOf();
    return (found = {
      secrets: [...binaryHits, ...hits].sort((a, b) => a.line - b.line),
      cuts: lineCutsOf(
        text,
        cuts.sort((a, b) => a.from - b.from),
      ),
    });
  };
  const e = doc.errors[0];
  const refusal = yamlRefusal(doc);
  const refused = refusal && {
    kind: refusal.kind,
    line: refusal.at === null ? null : errorPlace(text, lc, refusal.at).line,
  };
  // After the refusal, which counts a `!!binary` key as a key that is not a plain value (the library's cost).
  const binaryCuts: Cut[] = [];
  const binaryHits = maskBinaries(doc, lineAt, text, binaryCuts);
  let data: YamlTree['data'] | undefined;
  const at = e && errorPlace(text, lc, e.pos[0]);
  return {
    error: e && at && !refused ? { message: e.message, code: e.code, ...at } : null,
    refused,
    root: node(doc.contents as LibNode | null),
    nullData: nullDocument(doc),
    get data() {
      if (!data) {
        if (refused)
          return (data = {
            value: null,
            error: `not read: ${refused.kind}`,
            refused: refused.kind,
            ...(refused.line === null ? {} : { refusedLine: refused.line }),
          });
        // More aliases than MAX_ALIASES, counted with those inside what they repeat, are refused before the
        // library resolves them (its resolution is quadratic); within the limit, the library's own is off.
        const aliases = aliasUses(doc);
        if (aliases > MAX_ALIASES)
          return (data = {
            value: null,
            error: `more than ${MAX_ALIASES} aliases, counted with those inside what they repeat`,
            aliases,
          });
        const d = yamlData(doc);
        data =
          'value' in d
            ? { value: maskedData(d.value), error: null }
            : 'refused' in d
              ? {
                  value: null,
                  error: `not read: ${d.refused}`,
                  refused: d.refused,
                  ...(d.at === null ? {} : { refusedLine: errorPlace(text, lc, d.at).line }),
                }
              : { value: null, error: d.error };
      }
      return data;
    },
    get secrets() {
      return find().secrets;
    },
    get cuts() {
      return find().cuts;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Plain YAML

/** A plain key: a word the core schema reads as a string. */
const KEY_RE = /^([A-Za-z_][A-Za-z0-9_./-]*):(?= |$)/;
const NOT_STRING_KEYS = new Set([
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  '__proto__',
]);
/**
 * Characters that change what a line means to YAML, that the library reads in ways of its own, or
 * that JavaScript's trimming takes for white space where YAML does not.
 */
const OUT_OF_REACH = /[\t\r\0-\x08\x0b\x0c\x0e-\x1f\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** First characters of a scalar that are YAML indicators (`-`, `?`, `:` too: a plain scalar may start with them, but not here). */
const INDICATORS = '-?:,[]{}#&*!|>\'"%@`';
/** Deeper than this, the library reads the document (no call stack is exhausted here). */
const MAX_DEPTH = 64;

/** The core schema's null (`~`, `null` …) and booleans. */
const CORE_WORDS = new Map<string, unknown>([
  ...['', '~', 'null', 'Null', 'NULL'].map((w): [string, unknown] => [w, null]),
  ...['true', 'True', 'TRUE'].map((w): [string, unknown] => [w, true]),
  ...['false', 'False', 'FALSE'].map((w): [string, unknown] => [w, false]),
]);

/** A plain scalar's value under the YAML 1.2 core schema, in the library's order of tags. */
function coreScalar(s: string): unknown {
  if (CORE_WORDS.has(s)) return CORE_WORDS.get(s);
  // Only these start a number.
  if (!'+-.0123456789'.includes(s[0])) return s;
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s))
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? -Infinity : Infinity;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}

/** Nothing after a closing quote or bracket but spaces, or spaces and a comment. */
function restIsComment(after: string): boolean {
  const t = after.trimStart();
  return t === '' || (t[0] === '#' && t.length < after.length);
}

class OutOfReach extends Error {}

interface Line {
  n: number;
  indent: number;
  body: string;
}

interface Built {
  node: YamlNode;
  data: unknown;
}

/** A value written on its key's (or dash's) line: a scalar or an empty collection; 'below' when it is on the next lines. */
function inlineValue(s: string, n: number): Built | 'below' {
  s = s.trimStart();
  if (s === '' || s[0] === '#') return 'below';
  const q = s[0];
  if (q === '"' || q === "'") {
    const end = s.indexOf(q, 1);
    if (
      end < 0 ||
      (q === '"' && s.slice(1, end).includes('\\')) ||
      s[end + 1] === "'" ||
      !restIsComment(s.slice(end + 1))
    )
      throw new OutOfReach();
    const value = s.slice(1, end);
    return { node: { kind: 'scalar', value, line: n }, data: value };
  }
  if (q === '[' || q === '{') {
    if (s[1] !== (q === '[' ? ']' : '}') || !restIsComment(s.slice(2))) throw new OutOfReach();
    return q === '['
      ? { node: { kind: 'seq', line: n, items: [] }, data: [] }
      : { node: { kind: 'map', line: n, pairs: [] }, data: {} };
  }
  if (INDICATORS.includes(q)) throw new OutOfReach();
  const hash = s.indexOf(' #');
  const text = (hash < 0 ? s : s.slice(0, hash)).trimEnd();
  if (text.includes(': ') || text.endsWith(':')) throw new OutOfReach();
  const value = coreScalar(text);
  return { node: { kind: 'scalar', value, line: n }, data: value };
}

const isItem = (body: string) => body === '-' || body.startsWith('- ');

/** The tree and data of plain YAML text, or null when the library must read it. */
export function readPlainYaml(text: string): { root: YamlNode; data: unknown } | null {
  if (OUT_OF_REACH.test(text)) return null;
  const lines: Line[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const l = raw[i];
    const body = l.trimStart();
    if (body === '' || body[0] === '#') continue;
    lines.push({ n: i + 1, indent: l.length - body.length, body });
  }
  // An empty document, or a top level that does not start at column 0.
  if (!lines.length || lines[0].indent !== 0) return null;
  let p = 0;

  /** No line of the node just read may stand deeper than `indent` (a scalar's second line, or an error). */
  const noDeeper = (indent: number) => {
    if (p < lines.length && lines[p].indent > indent) throw new OutOfReach();
  };

  const block = (indent: number, depth: number): Built => {
    if (depth > MAX_DEPTH) throw new OutOfReach();
    return isItem(lines[p].body) ? seq(indent, depth) : map(indent, depth, null);
  };

  /** What follows a key or dash with nothing after it on its line: a deeper block, a sequence at the key's indent, or null. */
  const below = (indent: number, n: number, depth: number, key: boolean): Built => {
    const next = lines[p];
    if (next && next.indent > indent) return block(next.indent, depth + 1);
    if (key && next && next.indent === indent && isItem(next.body)) return seq(indent, depth + 1);
    return { node: { kind: 'scalar', value: null, line: n }, data: null };
  };

  const map = (indent: number, depth: number, first: { body: string; n: number } | null): Built => {
    const pairs: YamlPair[] = [];
    const data: Record<string, unknown> = {};
    let line: number | null = null;
    for (;;) {
      let body: string;
      let n: number;
      if (first) {
        ({ body, n } = first);
        first = null;
      } else {
        if (p >= lines.length || lines[p].indent < indent) break;
        if (lines[p].indent > indent || isItem(lines[p].body)) throw new OutOfReach();
        ({ body, n } = lines[p]);
      }
      p++;
      const m = KEY_RE.exec(body);
      if (!m || NOT_STRING_KEYS.has(m[1]) || Object.prototype.hasOwnProperty.call(data, m[1])) throw new OutOfReach();
      line ??= n;
      const v = inlineValue(body.slice(m[0].length), n);
      let built: Built;
      if (v === 'below') built = below(indent, n, depth, true);
      else {
        noDeeper(indent);
        built = v;
      }
      pairs.push({ key: m[1], keyIsScalar: true, keyText: m[1], keyLine: n, value: built.node });
      data[m[1]] = built.data;
    }
    return { node: { kind: 'map', line, pairs }, data };
  };

  const seq = (indent: number, depth: number): Built => {
    const items: YamlNode[] = [];
    const data: unknown[] = [];
    const line = lines[p].n;
    while (p < lines.length && lines[p].indent === indent && isItem(lines[p].body)) {
      const { body, n } = lines[p];
      const rest = body.slice(1);
      const s = rest.trimStart();
      let built: Built;
      if (s === '' || s[0] === '#') {
        p++;
        built = below(indent, n, depth, false);
      } else if (isItem(s)) {
        throw new OutOfReach();
      } else if (KEY_RE.test(s)) {
        // A mapping that starts on the dash's line: its keys stand at the column of the first one.
        const col = indent + 1 + (rest.length - s.length);
        built = map(col, depth + 1, { body: s, n });
        noDeeper(indent);
      } else {
        p++;
        const v = inlineValue(s, n);
        if (v === 'below') throw new OutOfReach();
        noDeeper(indent);
        built = v;
      }
      items.push(built.node);
      data.push(built.data);
    }
    noDeeper(indent);
    return { node: { kind: 'seq', line, items }, data };
  };

  try {
    const top = block(lines[0].indent, 0);
    if (p < lines.length) return null;
    return { root: top.node, data: top.data };
  } catch (err) {
    if (err instanceof OutOfReach) return null;
    throw err;
  }
}
