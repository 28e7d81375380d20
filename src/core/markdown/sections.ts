/**
 * Matching section names by meaning: case, trailing decorations (`(priority order)`, `:`, emoji,
 * dates in parentheses), numbering, markup and heading level are ignored.
 */
import type { SectionKey } from '../model/model';

/**
 * Emoji and pictographs, variation selectors, joiners, keycaps, regional indicators: built on its
 * first use (a `\p{…}` literal builds ICU's sets whenever the script is parsed, whether it runs or not).
 */
export const EMOJI_SOURCE = '[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u{FE0E}\\u{FE0F}\\u{200D}\\u{20E3}]';
let emojiRe: RegExp | undefined;
/**
 * The UTF-16 code units every match of the emoji expression holds one of (pictographs stand at U+00A9, U+00AE,
 * U+203C–U+2BFF, U+3030, U+303D, U+3297, U+3299 and in the planes the surrogates U+D83C–U+D83F
 * start): a title without one (kana and CJK included) is left alone, and the expression's Unicode property
 * classes, costly to compile, are never compiled for it.
 */
export const MAY_BE_EMOJI = /[\u00a9\u00ae\u200d\u203c-\u2bff\u3030\u303d\u3297\u3299\ud83c-\ud83f\ufe0e\ufe0f]/;

/** Normalise a heading or label for matching. Keeps letters of every script. */
export function normalizeTitle(title: string): string {
  // A real section name is short; capping keeps every pattern below linear on a hostile heading.
  let t = title.slice(0, 500);
  // Each pattern runs only on a title that holds what it removes: most titles hold none of it, and a
  // pattern is compiled on its first run.
  if (MAY_BE_EMOJI.test(t)) t = t.replace((emojiRe ??= new RegExp(EMOJI_SOURCE, 'gu')), ' ');
  if (t.includes('<!--')) t = t.replace(/<!--.*?-->/g, ' ');
  if (t.includes('`')) t = t.replace(/`([^`]*)`/g, '$1');
  if (t.includes('](')) t = t.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  if (t.includes('*') || t.includes('_') || t.includes('~')) t = t.replace(/[*_~]+/g, ' ');
  // Strip leading numbering ("1.", "2)", "Phase 3 -", "§4").
  const first = t.trimStart().charAt(0);
  if (first === '§' || (first >= '0' && first <= '9')) t = t.replace(/^\s*(?:§\s*)?\d+(?:\.\d+)*[.)]?\s+/, '');
  // Strip trailing parenthesised decorations, repeatedly: "(priority order)", "(2026-01-02)", "（...）".
  for (let k = 0; k < 3 && ')）]'.includes(t.trimEnd().slice(-1) || '-'); k++)
    t = t.replace(/\s*[(（\[][^()（）[\]]*[)）\]]\s*$/u, '');
  if (':：-–—|·•.'.includes(t.trimEnd().slice(-1) || '(')) t = t.replace(/[:：\-–—|·•.]+\s*$/u, '');
  return t.replace(/\s+/g, ' ').trim().toLowerCase();
}

export type KeyTable = ReadonlyArray<readonly [SectionKey, RegExp]>;

/** Each table's common section names (normalised), by key: see `withNames`. */
const namesOf = new WeakMap<KeyTable, ReadonlyMap<string, SectionKey>>();

/**
 * `table`, with the section names most files write (its seed's own, normalised) found by a lookup
 * before any pattern runs. A pattern is compiled the first time it is tested, and compiled again to
 * machine code on its second test, and a table's patterns are long: a process that reads a few
 * files spent about 4 ms compiling them. Each name must be one the patterns read as its key
 * (sections-names.test.ts checks every name of every table), so the lookup never changes a key.
 */
export function withNames(table: KeyTable, names: Partial<Record<SectionKey, readonly string[]>>): KeyTable {
  const map = new Map<string, SectionKey>();
  for (const [key, list] of Object.entries(names) as Array<[SectionKey, readonly string[]]>)
    for (const n of list) map.set(n, key);
  namesOf.set(table, map);
  return table;
}

/** The common names `withNames` gave `table`, by key (empty for a table without). */
export function namesOfTable(table: KeyTable): ReadonlyMap<string, SectionKey> {
  return namesOf.get(table) ?? new Map();
}

/**
 * The first key whose pattern matches the normalised title, else `other`.
 * Patterns are tested against the normalised title (lowercase, decorations stripped).
 */
export function matchKey(title: string, table: KeyTable): SectionKey {
  const n = normalizeTitle(title);
  return namesOf.get(table)?.get(n) ?? matchPattern(n, table);
}

/** The first key whose pattern matches `normalised` (a title `normalizeTitle` gave), else `other`. */
export function matchPattern(normalised: string, table: KeyTable): SectionKey {
  for (const [key, re] of table) if (re.test(normalised)) return key;
  return 'other';
}
