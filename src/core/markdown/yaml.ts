/**
 * YAML documents from files a repository holds (`.agents.yml`, `context-manifest.yaml`, front
 * matter), parsed in time linear in the number of keys. The `yaml` library checks that a
 * mapping's keys are unique by comparing each new key with every key before it (quadratic: a
 * 256 KB file of 40,000 keys costs 800 million comparisons), so its check is switched off and
 * the same rule is applied here with one set of keys per mapping: a scalar key whose value
 * equals an earlier scalar key's value (`===`, as the library compares them) is the library's
 * own "Map keys must be unique" error, at that key.
 *
 * Aliases are bounded the same way: the library resolves each alias (`*name`) by a scan of every
 * anchor and alias before it (quadratic: 57,600 aliases in 234 KB cost 25 s), so a document whose data would hold
 * more than MAX_ALIASES of them is not turned into data (`aliasUses`, one pass, before `toJS`).
 *
 * Other shapes the library reads in more than linear time, or by a recursion that exhausts the call
 * stack, are refused before it turns them into data (`yamlRefusal`, one pass): lists and mappings nested
 * deeper than MAX_YAML_DEPTH, and keys that are not plain values past their limits. An ordered map
 * (`!!omap`) is read with a set of its keys (the library compares each key with every key before it).
 * Refusals, and the library's errors they explain, are said in the tool's words (`refusalMessage`).
 */
import type {
  CollectionTag,
  Document,
  DocumentOptions,
  LineCounter,
  ParseOptions,
  Pair,
  SchemaOptions,
  Tags,
  YAMLParseError,
  YAMLSeq,
} from 'yaml';
import { onALine } from '../files/line-ends';
import type { YAML_NAMES } from './yaml-names';
import { t, type Msg } from '../model/messages';

/** The part of the library the code takes (./yaml-names: the hook script's YAML part holds no other). */
export type YamlLibrary = Pick<typeof import('yaml'), (typeof YAML_NAMES)[number]>;

let lib: YamlLibrary | undefined;

/**
 * The library, loaded on first use: plain YAML is read without it (./yaml-tree). Kept once loaded: Node
 * resolves a package that declares "exports" again on every `require` call, where the code runs unbundled.
 */
export function yamlLib(): YamlLibrary {
  return (lib ??= require('yaml') as YamlLibrary);
}

type Options = ParseOptions & DocumentOptions & SchemaOptions;

/** Every duplicate scalar key of every mapping in the document, as the library's DUPLICATE_KEY errors. */
function duplicateKeys(doc: Document): YAMLParseError[] {
  const { isAlias, isMap, isPair, isScalar, isSeq, YAMLParseError: ParseError } = yamlLib();
  const errors: YAMLParseError[] = [];
  // An explicit stack: a deeply nested document cannot exhaust the call stack here.
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const k = pair.key;
        // NaN !== NaN: the library never finds two `.nan` keys equal, and neither does this.
        if (isScalar(k) && !(typeof k.value === 'number' && Number.isNaN(k.value))) {
          if (seen.has(k.value)) {
            const at = k.range?.[0] ?? 0;
            errors.push(new ParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
          } else seen.add(k.value);
        }
        stack.push(k, pair.value);
      }
    } else if (isSeq(node)) {
      for (const it of node.items) stack.push(isPair(it) ? it.value : it);
    } else if (isPair(node)) {
      stack.push(node.key, node.value);
    }
    // Scalars and aliases hold no mapping of their own (an alias points at a node already visited).
    else if (isAlias(node)) continue;
  }
  return errors;
}

/**
 * The most aliases (`*name`) a document's data is resolved with. Settings files use a few; past
 * this many the library's resolution (a scan of the document per alias) is refused, not run.
 */
// 99: the YAML library refuses a 100th use of one anchor itself, in words of its own.
export const MAX_ALIASES = 99;

/** The most text (characters of the document) the aliases of one document may repeat, once resolved. */
export const MAX_ALIAS_CHARS = 1024 * 1024;
/** MAX_ALIAS_CHARS as messages say it. */
export const MAX_ALIAS_TEXT = `${MAX_ALIAS_CHARS / 2 ** 20} MB`;

/**
 * How many aliases (`*name`) the document's data holds once resolved, in one pass in document
 * order: each alias, plus the aliases inside the node it repeats (an anchored list of aliases,
 * aliased again, repeats every one of them, which the library counts against its own limit too).
 * Counting stops past `cap`, and so does it (with `cap` + 1) where the data would repeat more than
 * MAX_ALIAS_CHARS of the document's text (99 aliases of a 3 MB string; a merge key `<<: *base`, which
 * copies its map) or repeat a node inside itself (data that refers to itself, which no reader can turn
 * into text). Within those limits the library's own (a product of its counts, whose refusal speaks in
 * its words) is switched off: this one bounds what the data repeats.
 */
export function aliasUses(doc: Document, cap = MAX_ALIASES): number {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  // Each anchor's latest definition (an alias names the nearest one before it, by where the anchor
  // stands): open while its node is walked, then what it holds resolved, its aliases and its text.
  type Def = { open: boolean; uses: number; chars: number };
  const latest = new Map<string, Def>();
  let n = 0;
  let chars = 0;
  // The text of every scalar visited so far (and two characters for each collection): an anchored node's own
  // text is never less than what it spans, even where the library's range of a block mapping leaves out its
  // first key (a mapping under an explicit key, `? &k` with the mapping on the next lines).
  let seen = 0;
  type Close = { def: Def; uses: number; chars: number; length: number; seen: number };
  const todo: Array<{ node: unknown } | Close> = [{ node: doc.contents }];
  while (todo.length) {
    const step = todo.pop() as { node: unknown } | Close;
    if ('def' in step) {
      step.def.open = false;
      step.def.uses = n - step.uses;
      step.def.chars = Math.max(step.length, seen - step.seen) + chars - step.chars;
      continue;
    }
    const node = step.node;
    if (isAlias(node)) {
      const def = latest.get(node.source);
      if (def?.open) return Math.max(n, cap) + 1;
      n += 1 + (def?.uses ?? 0);
      chars += def?.chars ?? 0;
      if (chars > MAX_ALIAS_CHARS) return Math.max(n, cap) + 1;
      if (n > cap) return n;
      continue;
    }
    const anchor = isMap(node) || isSeq(node) || isScalar(node) ? node.anchor : undefined;
    const range = (node as { range?: [number, number, number] } | null)?.range;
    if (anchor) {
      const def: Def = { open: true, uses: 0, chars: 0 };
      latest.set(anchor, def);
      todo.push({ def, uses: n, chars, length: range ? range[1] - range[0] : 0, seen });
    }
    if (isScalar(node)) seen += range ? range[1] - range[0] : 0;
    else if (isMap(node) || isSeq(node)) seen += 2;
    if (isMap(node) || isSeq(node)) for (let i = node.items.length - 1; i >= 0; i--) todo.push({ node: node.items[i] });
    else if (isPair(node)) todo.push({ node: node.value }, { node: node.key });
  }
  return n;
}

/**
 * The deepest lists and mappings are nested in a document that is read. Settings files nest a few levels
 * (the deepest YAML of the corpus of real files: 5); the library composes and converts a nested
 * collection by recursion, which exhausted the call stack near 900 levels of `[` (the engine's "Maximum
 * call stack size exceeded").
 */
export const MAX_YAML_DEPTH = 100;

/**
 * Keys that are not plain values: a list or mapping as a key (`? [a, b]`), an alias (`*a :`), a date
 * (`%YAML 1.1`), a `!!binary` key. The library turns each into text to name the object's property,
 * and for each one copies every anchor (`&name`) converted before it (keys × anchors: 8,000 anchored
 * list keys took 3.6 s), and writes a key inside a key again at every level (reading a key holding
 * keys 60 deep, 250 bytes, took 7 s and then failed on a string longer than the engine allows).
 * Settings files have none: a document holds at most MAX_OBJECT_KEYS of them, at most
 * MAX_ANCHORS_WITH_OBJECT_KEYS anchors beside them, and a list or mapping as a key holds no list or
 * mapping; what the library then does for them is bounded by a small multiple of the text.
 */
export const MAX_OBJECT_KEYS = 99;
/** The most anchors (`&name`) a document with keys that are not plain values holds (see MAX_OBJECT_KEYS). */
export const MAX_ANCHORS_WITH_OBJECT_KEYS = 999;

/**
 * Why a document is not read: lists and mappings nested too deep; a list or mapping as a key holding
 * another; keys that are not plain values past their limits; an ordered map's key twice; a merge key
 * (`<<`) whose value is not a mapping. `refusalMessage` says it.
 */
export type YamlRefusalKind = 'too-deep' | 'key-holds-collection' | 'object-keys' | 'omap-key-twice' | 'merge-not-map';

/** Why a document is not read, and where (an offset in the text; null when unknown). */
export interface YamlRefusal {
  kind: YamlRefusalKind;
  at: number | null;
}

/**
 * A refusal in the tool's words, naming what was not read (`where`: a file's name or path, or the
 * snapshot block's marker), whatever the language: the name is the same in every one.
 */
export function refusalMessage(kind: YamlRefusalKind, where: string): Msg {
  switch (kind) {
    case 'too-deep':
      return t(
        'The YAML of {0} is not read: its lists and mappings are nested more than {1} deep.',
        where,
        MAX_YAML_DEPTH,
      );
    case 'key-holds-collection':
      return t('The YAML of {0} is not read: a list or mapping used as a key holds another list or mapping.', where);
    case 'object-keys':
      return t(
        'The YAML of {0} is not read: over {1} of its keys are lists, mappings, aliases or dates, or such keys stand beside over {2} anchors (`&name`).',
        where,
        MAX_OBJECT_KEYS,
        MAX_ANCHORS_WITH_OBJECT_KEYS,
      );
    case 'omap-key-twice':
      return t('The YAML of {0} is not read: an ordered map (`!!omap`) has the same key twice.', where);
    case 'merge-not-map':
      return t('The YAML of {0} is not read: a merge key (`<<`) takes something other than a mapping.', where);
  }
}

/**
 * The 1-based line and column of `text` a YAML error at offset `pos` names (`lc` counted its lines): the
 * library's place, on a line the text has. The library places an error it finds at the end of the text
 * (a quote or a bracket never closed) past the final line break, on a line no editor numbers: that one is
 * named at the end of the last line.
 */
export function errorPlace(text: string, lc: LineCounter, pos: number): { line: number; column: number } {
  const at = lc.linePos(onALine(text, pos));
  return { line: at.line, column: at.col };
}

/**
 * A YAML syntax error in the tool's words, whatever the language: what is wrong, told from the
 * library's error code (its English message is never shown), at a line and column of `where` (a file's
 * name or path, or the snapshot block's marker: the name is the same in every language). A code
 * without words of its own here gets the general sentence, with its line and column all the same.
 */
export function syntaxMessage(code: string, where: string, line: number, column: number): Msg {
  switch (code) {
    case 'BAD_INDENT':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: the indentation there does not fit, or a `[` or `{` above is not closed (the items of one list or mapping start at the same column; the lines inside brackets are indented deeper than their key, up to the closing bracket).',
        where,
        line,
        column,
      );
    case 'TAB_AS_INDENT':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a tab indents the line; YAML indents with spaces only.',
        where,
        line,
        column,
      );
    case 'MISSING_CHAR':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a character is missing there: a closing quote, the `:` after a key, a `,` between the items in brackets, or a space before a `#` comment or after an anchor or tag.',
        where,
        line,
        column,
      );
    case 'DUPLICATE_KEY':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a key stands twice in one mapping; each key may stand there once.',
        where,
        line,
        column,
      );
    case 'UNEXPECTED_TOKEN':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: something stands there that YAML does not expect at that place, such as a closing bracket without its opening one, a stray comma, or a `-` on the line of a key.',
        where,
        line,
        column,
      );
    case 'BLOCK_AS_IMPLICIT_KEY':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a mapping or list starts on a line where only a plain value may stand (as in `a: b: c`); put it on the lines below its key, indented, or quote the value.',
        where,
        line,
        column,
      );
    case 'MULTILINE_IMPLICIT_KEY':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a key runs over more than one line; a key stands on one line and ends with `:` (often a line above lacks its `:`, or a quote above is not closed).',
        where,
        line,
        column,
      );
    case 'BAD_SCALAR_START':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a value starts with a character YAML reserves (such as `@` or a backquote); put the value in quotes.',
        where,
        line,
        column,
      );
    case 'BAD_DQ_ESCAPE':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a double-quoted value holds a backslash escape YAML does not know; write `\\\\` for a backslash, or use single quotes.',
        where,
        line,
        column,
      );
    case 'BLOCK_IN_FLOW':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a list or mapping written line by line (`- item`, `key: value`) stands inside `[…]` or `{…}`; inside brackets, separate the items with commas.',
        where,
        line,
        column,
      );
    case 'MULTIPLE_DOCS':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: it holds more than one YAML document (a `---` line between them); keep one.',
        where,
        line,
        column,
      );
    case 'KEY_OVER_1024_CHARS':
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: a key is over 1024 characters long; YAML reads no key that long, so write a shorter one.',
        where,
        line,
        column,
      );
    default:
      return t(
        'The YAML of {0} does not parse at line {1}, column {2}: the text there is not valid YAML.',
        where,
        line,
        column,
      );
  }
}

/** The library's words for an ordered map's repeated key (its own check, and the one of `linearOmap`). */
const OMAP_TWICE = 'Ordered maps must not include duplicate keys';
/** The library's words for a merge key (`<<`, YAML 1.1) whose value is not a mapping. */
const MERGE_NOT_MAP = 'Merge sources must be maps or map aliases';
const OMAP = 'tag:yaml.org,2002:omap';

let omapTag: CollectionTag | undefined;
/** The class of the library's ordered maps (`!!omap`), which `linearOmap` makes. */
let omapClass: (new () => YAMLSeq) | undefined;
/**
 * The message of the mark `linearOmap` leaves at each ordered map's tag while `parseYamlDocument` parses: the
 * library puts it at the tag, as it does its own errors there; `parseYamlDocument` takes every such mark out of
 * the document's errors and keeps where it stood (`omapTagAt`).
 */
const OMAP_AT = '\u0000ordered map tag';
/** The ordered maps `linearOmap` made during the parse under way, in the order of their marks; null between parses. */
let omapsMade: YAMLSeq[] | null = null;
/** Where each ordered map's tag stands (an offset in the text), for a refusal of its data. */
const omapTagAt = new WeakMap<object, number>();

/**
 * The library's `!!omap`, whose repeated keys are found with one set: its own compares each key with every
 * key before it (64,000 entries took 7 s). The same entries, the same node and the same error at the tag.
 */
function linearOmap(): CollectionTag {
  if (omapTag) return omapTag;
  const { isScalar, Schema } = yamlLib();
  const known = new Schema({ schema: 'yaml-1.1' }).tags as CollectionTag[];
  const lib = known.find((tag) => tag.tag === OMAP);
  const pairs = known.find((tag) => tag.tag === 'tag:yaml.org,2002:pairs');
  if (!lib?.nodeClass || !pairs?.resolve) throw new Error('the yaml library has no !!omap or !!pairs tag');
  const OMap = lib.nodeClass;
  omapClass = OMap as unknown as new () => YAMLSeq;
  const resolvePairs = pairs.resolve;
  return (omapTag = {
    ...lib,
    resolve(seq, onError, options) {
      const items = resolvePairs(seq, onError, options) as YAMLSeq<Pair>;
      const seen = new Set<unknown>();
      for (const { key } of items.items)
        if (isScalar(key)) {
          if (seen.has(key.value)) onError(`${OMAP_TWICE}: ${String(key.value)}`);
          else seen.add(key.value);
        }
      const node = Object.assign(new OMap(), items);
      if (omapsMade) {
        omapsMade.push(node);
        onError(OMAP_AT);
      }
      return node;
    },
  });
}

/**
 * The schema's tags with `linearOmap` in place of the library's `!!omap` (YAML 1.1), or after the others
 * (YAML 1.2, where the library adds its own there when a document names it) without `identify`: a
 * JavaScript Map written into the document (`setIn`) stays a plain mapping there, as the library writes it.
 */
function linearTags(tags: Tags): Tags {
  const isOmap = (tag: Tags[number]) => typeof tag === 'object' && tag.tag === OMAP;
  return tags.some(isOmap)
    ? tags.map((tag) => (isOmap(tag) ? linearOmap() : tag))
    : [...tags, { ...linearOmap(), identify: undefined }];
}

/**
 * The document holds no node: nothing but blanks, comments, directives and document markers (`---`, `...`).
 * Its data is null, as an empty text's is; the library gives no contents for an empty text or one of
 * comments, and a null scalar spelled by nothing (no `~`, no tag, no anchor) after `---` or before `...`.
 */
export function emptyDocument(doc: Document): boolean {
  const { isScalar } = yamlLib();
  const c = doc.contents;
  if (c === null || c === undefined) return true;
  return (
    isScalar(c) &&
    c.value === null &&
    !c.tag &&
    !c.anchor &&
    (c.range === undefined || c.range === null || c.range[0] === c.range[1])
  );
}

/**
 * The document's data is null: it holds no node (`emptyDocument`), or its one node is a null scalar however
 * it is written (`~`, `null`, `Null`, `NULL`, the tag `!!null`, an anchor on nothing), comments, directives
 * and document markers around it. A settings file holds no setting then, as an empty one.
 */
export function nullDocument(doc: Document): boolean {
  const { isScalar } = yamlLib();
  const c = doc.contents;
  return c === null || c === undefined || (isScalar(c) && c.value === null);
}

/**
 * Why the document is not read, or null, in one pass over its nodes: lists and mappings nested deeper
 * than MAX_YAML_DEPTH; a list or mapping as a key holding another; more than MAX_OBJECT_KEYS keys that are
 * not plain values, or any beside more than MAX_ANCHORS_WITH_OBJECT_KEYS anchors. The library's first error
 * is said in the tool's words when it is the call stack exhausted while it composed (nesting past these
 * limits) or an ordered map's repeated key; any other error is the caller's to say (null here). Aliases
 * are counted by `aliasUses`.
 */
export function yamlRefusal(doc: Document): YamlRefusal | null {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  // A document with errors is not turned into data: its first error is said (a misplaced line can make a
  // list a key, which is the error to fix).
  const e = doc.errors[0];
  if (e?.code === 'RESOURCE_EXHAUSTION') return { kind: 'too-deep', at: e.pos[0] };
  if (e?.code === 'TAG_RESOLVE_FAILED' && e.message.startsWith(OMAP_TWICE))
    return { kind: 'omap-key-twice', at: e.pos[0] };
  if (e) return null;
  const start = (n: unknown): number | null => (n as { range?: [number, number, number] } | null)?.range?.[0] ?? null;
  let objectKeys = 0;
  let anchors = 0;
  let firstObjectKey: number | null = null;
  // `depth`: the lists and mappings around the node; `isKey`: it is a key; `inKey`: it stands inside a key.
  type Step = { node: unknown; depth: number; isKey: boolean; inKey: boolean };
  const todo: Step[] = [{ node: doc.contents, depth: 0, isKey: false, inKey: false }];
  // Popped in document order (a node's children are pushed last first).
  while (todo.length) {
    const { node, depth, isKey, inKey } = todo.pop() as Step;
    if (isKey && node !== null && node !== undefined) {
      const plain = isScalar(node) && (node.value === null || typeof node.value !== 'object');
      if (!plain && ++objectKeys > MAX_OBJECT_KEYS) return { kind: 'object-keys', at: start(node) };
      if (!plain) firstObjectKey ??= start(node);
    }
    if (isAlias(node) || !(isMap(node) || isSeq(node) || isScalar(node))) continue;
    if (node.anchor) anchors++;
    if (isScalar(node)) continue;
    if (depth >= MAX_YAML_DEPTH) return { kind: 'too-deep', at: start(node) };
    if (inKey) return { kind: 'key-holds-collection', at: start(node) };
    // A mapping's items are pairs, and so are those of an ordered map or a list of pairs (`!!omap`, `!!pairs`).
    for (let i = node.items.length - 1; i >= 0; i--) {
      const it: unknown = node.items[i];
      if (isPair(it))
        todo.push(
          { node: it.value, depth: depth + 1, isKey: false, inKey: isKey },
          { node: it.key, depth: depth + 1, isKey: true, inKey: isKey },
        );
      else todo.push({ node: it, depth: depth + 1, isKey: false, inKey: isKey });
    }
  }
  if (objectKeys > 0 && anchors > MAX_ANCHORS_WITH_OBJECT_KEYS) return { kind: 'object-keys', at: firstObjectKey };
  return null;
}

/**
 * The document as plain data (`toJS`; the library's alias limit is off, `aliasUses` bounds them), or why
 * not: a refusal (`refused`, said in the tool's words) for what the library throws in words of its own about the data (a
 * merge key's value that is not a mapping; an ordered map's key repeated through an alias), and where
 * (`dataRefusalAt`), else its message.
 */
export function yamlData(
  doc: Document,
): { value: unknown } | { refused: YamlRefusalKind; at: number | null } | { error: string } {
  try {
    return { value: doc.toJS({ maxAliasCount: -1 }) };
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    if (message === MERGE_NOT_MAP) return { refused: 'merge-not-map', at: dataRefusalAt(doc, 'merge-not-map') };
    if (message.startsWith(OMAP_TWICE)) return { refused: 'omap-key-twice', at: dataRefusalAt(doc, 'omap-key-twice') };
    return { error: message };
  }
}

const MERGE = 'tag:yaml.org,2002:merge';

/**
 * Where the first refusal of `kind` stands that the library meets while it makes the data (an offset in the
 * text; null when none is found): a merge key (`<<`) whose value, or an item of the list it takes, is not a
 * mapping, at that key; an ordered map (`!!omap`) whose key repeats once its aliases are resolved, at its tag.
 * The nodes are met as the library makes them: a pair's key, then its value (for an ordered map, the key
 * then compared with those before it); a merge key's sources in their order, each checked before it is read.
 * One pass, in document order: each alias names the latest node with its anchor before it (as the library
 * resolves it), kept when met, and what a merge copies through an alias was read where it stands.
 */
function dataRefusalAt(doc: Document, kind: 'merge-not-map' | 'omap-key-twice'): number | null {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  const start = (n: unknown): number | null => (n as { range?: [number, number, number] } | null)?.range?.[0] ?? null;
  const latest = new Map<string, unknown>();
  const target = new Map<unknown, unknown>();
  /** The node an alias names (the latest with its anchor when the alias is first met); any other node itself. */
  const resolve = (n: unknown): unknown => {
    if (!isAlias(n)) return n;
    if (!target.has(n)) target.set(n, latest.get(n.source));
    return target.get(n);
  };
  const mergeOn = doc.schema.tags.some((tag) => tag.tag === MERGE && tag.default);
  // The library's test of a merge key: the YAML 1.1 `<<` (a node that merges), or a plain `<<` in a schema with merges.
  const isMergeKey = (k: unknown): boolean =>
    isScalar(k) &&
    ('addToJSMap' in k ||
      (mergeOn &&
        (!k.type || k.type === 'PLAIN') &&
        (k.value === '<<' || (typeof k.value === 'symbol' && k.value.description === '<<'))));
  /** An ordered map's key as the library compares it: a scalar's value, a list or mapping itself. */
  const keyOf = (k: unknown): unknown => {
    const r = resolve(k);
    return isScalar(r) ? r.value : (r ?? null);
  };
  type Step =
    | { node: unknown }
    | { merge: Pair }
    | { source: unknown; mergeKey: unknown; read: boolean }
    | { pair: Pair; seen: Set<unknown>; tag: number | null }
    | { key: unknown; seen: Set<unknown>; tag: number | null };
  const todo: Step[] = [{ node: doc.contents }];
  while (todo.length) {
    const step = todo.pop() as Step;
    if ('merge' in step) {
      // A merge key's sources: the mapping it takes, or each item of the list it takes (through an alias too).
      const { key, value } = step.merge;
      const r = resolve(value);
      if (isSeq(r)) {
        if (r === value && r.anchor) latest.set(r.anchor, r);
        for (let i = r.items.length - 1; i >= 0; i--)
          todo.push({ source: r.items[i], mergeKey: key, read: r === value });
      } else todo.push({ source: value, mergeKey: key, read: true });
    } else if ('source' in step) {
      // One source of a merge key: a mapping, read where it stands (not again through an alias).
      const s = resolve(step.source);
      if (!isMap(s)) return kind === 'merge-not-map' ? start(step.mergeKey) : null;
      if (step.read) todo.push({ node: step.source });
    } else if ('pair' in step) {
      // An ordered map's pair: its key as written here, then the key and value read, then the key compared.
      const { pair, seen, tag } = step;
      todo.push({ key: keyOf(pair.key), seen, tag }, { node: pair.value }, { node: pair.key });
    } else if ('key' in step) {
      if (step.seen.has(step.key)) return kind === 'omap-key-twice' ? step.tag : null;
      step.seen.add(step.key);
    } else {
      const node = step.node;
      if (isAlias(node)) {
        resolve(node);
        continue;
      }
      if (!(isMap(node) || isSeq(node) || isScalar(node))) continue;
      if (node.anchor) latest.set(node.anchor, node);
      if (isScalar(node)) continue;
      const steps: Step[] = [];
      if (omapClass && node instanceof omapClass) {
        const seen = new Set<unknown>();
        const tag = omapTagAt.get(node) ?? start(node);
        // Its items are pairs (the library's `!!pairs` makes each one a pair).
        for (const it of node.items as unknown[]) steps.push(isPair(it) ? { pair: it, seen, tag } : { node: it });
      } else
        for (const it of node.items as unknown[]) {
          if (!isPair(it)) steps.push({ node: it });
          else if (!isMergeKey(it.key)) steps.push({ node: it.key }, { node: it.value });
          else steps.push({ node: it.key }, { merge: it });
        }
      for (let i = steps.length - 1; i >= 0; i--) todo.push(steps[i]);
    }
  }
  return null;
}

/**
 * `parseDocument` with the unique-key rule applied in linear time: duplicate keys are in
 * `doc.errors` (in document order with the parser's own errors) as the library would put them, and
 * so are an ordered map's (`linearOmap`).
 * Errors are never prettified (`prettyErrors: false`): callers take the line from a LineCounter.
 */
export function parseYamlDocument(text: string, options: Options = {}): Document.Parsed {
  const lib = yamlLib();
  let doc: Document.Parsed;
  const made: YAMLSeq[] = [];
  omapsMade = made;
  try {
    doc = lib.parseDocument(text, {
      ...options,
      prettyErrors: false,
      uniqueKeys: false,
      customTags: linearTags,
    });
  } catch (err) {
    // The library's parser pops nested explicit keys (`? ? ? …`, a few thousand) by recursion and throws the
    // engine's RangeError when the call stack runs out, before its composer could say RESOURCE_EXHAUSTION
    // itself: that document is nested too deep, said as the composer's error is (an empty document holding it).
    if (!(err instanceof RangeError)) throw err;
    doc = new lib.Document(null, { ...options, customTags: linearTags }) as unknown as Document.Parsed;
    doc.errors = [new lib.YAMLParseError([0, 1], 'RESOURCE_EXHAUSTION', err.message)];
    return doc;
  } finally {
    omapsMade = null;
  }
  // Each ordered map's mark, in the order they were made (those of a second document, past the first, are not here).
  if (made.length) {
    let i = 0;
    doc.errors = doc.errors.filter((e) => {
      if (e.code !== 'TAG_RESOLVE_FAILED' || e.message !== OMAP_AT) return true;
      if (i < made.length) omapTagAt.set(made[i++], e.pos[0]);
      return false;
    });
  }
  if (options.uniqueKeys === false) return doc;
  const dups = duplicateKeys(doc);
  if (dups.length) doc.errors = [...doc.errors, ...dups].sort((a, b) => a.pos[0] - b.pos[0]);
  return doc;
}
