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
 */
import type { Document, DocumentOptions, ParseOptions, SchemaOptions, YAMLParseError } from 'yaml';

/** The library, loaded on first use: plain YAML is read without it (./yaml-tree). */
export function yamlLib(): typeof import('yaml') {
  return require('yaml') as typeof import('yaml');
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
 * `parseDocument` with the unique-key rule applied in linear time: duplicate keys are in
 * `doc.errors` (in document order with the parser's own errors) as the library would put them.
 * Errors are never prettified (`prettyErrors: false`): callers take the line from a LineCounter.
 */
export function parseYamlDocument(text: string, options: Options = {}): Document.Parsed {
  const doc = yamlLib().parseDocument(text, { ...options, prettyErrors: false, uniqueKeys: false });
  if (options.uniqueKeys === false) return doc;
  const dups = duplicateKeys(doc);
  if (dups.length) doc.errors = [...doc.errors, ...dups].sort((a, b) => a.pos[0] - b.pos[0]);
  return doc;
}
