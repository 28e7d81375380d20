/**
 * S3's debt check, its last rule: a line of DEBT.md stands for a `defer:` marker when it holds most
 * of the marker's words, that is at least two of them and at least half (a word: four letters,
 * digits or `_` or more, lower-cased, other than `debt`; a line holds a word when the word is part of
 * the line's lower-cased text, `store` in `datastore` too).
 *
 * Comparing every marker with every line takes markers × lines: 5,000 markers sharing one word with
 * each of 5,000 lines took 1.7 s. Here the lines are indexed once by the four characters at each
 * place, so a word is looked for only where its rarest four characters stand, and the lines that
 * hold a word are kept for the next marker that has it. A line holding `need` of a marker's n words
 * holds one of any n - need + 1 of them: a marker's lines are looked for among those of its
 * n - need + 1 rarest words, and its other words are looked up in those lines alone.
 *
 * What is left is bounded by `MAX_WORD_COMPARISONS` over one check's markers (a word compared at a
 * place of the text, a line counted for a marker or looked up in a word's lines): a DEBT.md whose
 * lines each share a common word or two with thousands of markers still costs markers × lines. Past
 * the bound, the markers not yet matched by their words are said to be so (`null`, the check's
 * `unsettled`), never taken as matched or as missing.
 */

/** The most comparisons of markers' words with DEBT.md's text that one check makes. */
export const MAX_WORD_COMPARISONS = 5_000_000;

/** Words of four letters, digits or underscores: built on its first use (a `\p{…}` literal builds ICU's set whenever the script is parsed). */
let wordsRe: RegExp | undefined;

/** A marker's words as the rule takes them: distinct, lower-cased, `debt` left out. */
export function markerWords(s: string): string[] {
  const words = s.toLowerCase().match((wordsRe ??= new RegExp('[\\p{L}\\p{N}_]{4,}', 'gu'))) ?? [];
  return [...new Set(words.filter((w) => w !== 'debt'))];
}

/** A bound on comparisons shared by the markers of one check. */
export class Comparisons {
  spent = 0;
  constructor(readonly max = MAX_WORD_COMPARISONS) {}
  /** Counts `n` more; false once the bound is passed (and from then on). */
  take(n: number): boolean {
    this.spent += n;
    return this.spent <= this.max;
  }
  get over(): boolean {
    return this.spent > this.max;
  }
}

const NONE = new Int32Array(0);

/** The hash of the four UTF-16 code units of `s` at `at`, below `mask + 1`. */
function hash4(s: string, at: number, mask: number): number {
  let h = Math.imul(s.charCodeAt(at), 0x9e3779b1);
  h = Math.imul(h ^ s.charCodeAt(at + 1), 0x85ebca77);
  h = Math.imul(h ^ s.charCodeAt(at + 2), 0xc2b2ae3d);
  h = Math.imul(h ^ s.charCodeAt(at + 3), 0x27d4eb2f);
  return (h ^ (h >>> 15)) & mask;
}

/**
 * DEBT.md's lower-cased lines indexed by the four characters at each place: the places whose four
 * characters hash alike, in text order (`places` from `starts[h]` to `starts[h + 1]`). Made in time
 * linear in the text, in two arrays of its length at most.
 */
export class DebtWords {
  private readonly text: string;
  /** Where each line starts in `text` (and, last, the text's length plus one). */
  private readonly lineStarts: Int32Array;
  private readonly mask: number;
  private readonly starts: Int32Array;
  private readonly places: Int32Array;
  /** The lines holding a word, in order (each word's looked for once). */
  private readonly holding = new Map<string, Int32Array>();
  /** Per line, the marker that last counted it and its hits for that marker. */
  private readonly seenBy: Int32Array;
  private readonly hits: Int32Array;
  private marker = 0;

  constructor(lower: readonly string[]) {
    const text = (this.text = lower.join('\n'));
    this.lineStarts = new Int32Array(lower.length + 1);
    let count = 0;
    for (let j = 0; j < lower.length; j++) {
      this.lineStarts[j + 1] = this.lineStarts[j] + lower[j].length + 1;
      count += Math.max(0, lower[j].length - 3);
    }
    let size = 16;
    while (size * 2 < count) size *= 2;
    const mask = (this.mask = size - 1);
    const starts = (this.starts = new Int32Array(size + 1));
    const places = (this.places = new Int32Array(count));
    const ends = this.lineStarts;
    for (let j = 0; j < lower.length; j++)
      for (let at = ends[j]; at + 4 < ends[j + 1]; at++) starts[hash4(text, at, mask) + 1]++;
    for (let h = 0; h < size; h++) starts[h + 1] += starts[h];
    const next = starts.slice(0, size);
    for (let j = 0; j < lower.length; j++)
      for (let at = ends[j]; at + 4 < ends[j + 1]; at++) places[next[hash4(text, at, mask)]++] = at;
    this.seenBy = new Int32Array(lower.length);
    this.hits = new Int32Array(lower.length);
  }

  /** The line of `text` that holds the place `at`. */
  private lineOf(at: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (this.lineStarts[mid] <= at) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /** The lines holding `word` (at least four code units), in order; null when the bound is passed. */
  private linesHolding(word: string, budget: Comparisons): Int32Array | null {
    const known = this.holding.get(word);
    if (known) return known;
    // The four characters of the word whose places are fewest.
    let best = 0;
    let fewest = Infinity;
    for (let i = 0; i + 4 <= word.length; i++) {
      const h = hash4(word, i, this.mask);
      const n = this.starts[h + 1] - this.starts[h];
      if (n < fewest) [best, fewest] = [i, n];
      if (n === 0) break;
    }
    if (!budget.take(word.length + fewest)) return null;
    const h = hash4(word, best, this.mask);
    const out: number[] = [];
    // Places come in text order: those in the line last found are not looked at again.
    let foundUpTo = 0;
    for (let k = this.starts[h]; k < this.starts[h + 1]; k++) {
      const at = this.places[k] - best;
      if (at < foundUpTo) continue;
      if (!budget.take(word.length)) return null;
      // A word holds no line break: found here, it is inside this place's line.
      if (this.text.startsWith(word, at)) {
        const line = this.lineOf(at);
        out.push(line);
        foundUpTo = this.lineStarts[line + 1];
      }
    }
    const lines = out.length ? Int32Array.from(out) : NONE;
    this.holding.set(word, lines);
    return lines;
  }

  /**
   * Whether a line holds at least two of `words` (distinct) and at least half of them; null when the
   * bound was passed before that was known.
   */
  holdsMost(words: readonly string[], budget: Comparisons): boolean | null {
    if (words.length < 2) return false;
    if (budget.over) return null;
    const lists: Int32Array[] = [];
    for (const w of words) {
      const l = this.linesHolding(w, budget);
      if (!l) return null;
      lists.push(l);
    }
    const need = Math.max(2, Math.ceil(words.length / 2));
    const spare = words.length - need;
    lists.sort((a, b) => a.length - b.length);
    const m = ++this.marker;
    // The lines of the rarest word are looked at whole (each other word looked up in them), so a
    // marker copied into its row is found at once; then they are done with (their hits cannot reach
    // `need` any more).
    for (const line of lists[0]) {
      this.seenBy[line] = m;
      this.hits[line] = -words.length;
      let hits = 1;
      let j = 1;
      for (; j < lists.length && j - hits <= spare; j++) if (has(lists[j], line) && ++hits >= need) return true;
      if (!budget.take(j)) return null;
    }
    // Any other line with `need` hits holds one of the next `spare` words: their lines are counted,
    // and only those lines are looked for in the lists of the rest.
    const found: number[] = [];
    for (let i = 1; i <= spare; i++) {
      if (!budget.take(lists[i].length)) return null;
      for (const line of lists[i]) {
        if (this.seenBy[line] !== m) {
          this.seenBy[line] = m;
          this.hits[line] = 0;
          found.push(line);
        }
        if (++this.hits[line] >= need) return true;
      }
    }
    for (let i = spare + 1; i < lists.length; i++) {
      if (!budget.take(found.length)) return null;
      for (const line of found) if (has(lists[i], line) && ++this.hits[line] >= need) return true;
    }
    return false;
  }
}

/** Whether the ordered `list` holds `x` (a binary search). */
function has(list: Int32Array, x: number): boolean {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length && list[lo] === x;
}
