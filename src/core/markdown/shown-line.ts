/**
 * Markdown text as one line of plain text, for every surface that renders no Markdown (the CLI, the
 * tree's rows and tooltips, the checklist's lines, the Problems panel): HTML comments, link targets and
 * emphasis markers dropped (`**Status:** x [doc](a.md) <!-- note -->` → `Status: x doc`), code spans and
 * every word kept. One function, so every surface shows a text alike. Linear in the text.
 */

/** `text` as one plain line (`**Now:** run it` → `Now: run it`); the text itself when nothing is left. */
export function shownLine(text: string): string {
  return withoutMarkup(text, true) || text;
}

/**
 * Where `s` holds code spans, as Markdown finds them: a run of backticks (not one a backslash
 * escapes) opens one, closed by the next run of the same length; a run with no such closer is text.
 * One pass over the runs, a cursor per length: linear.
 */
export function codeSpans(s: string): Array<[number, number]> {
  const runs = [...s.matchAll(/`+/g)].map((m) => ({ at: m.index, len: m[0].length }));
  const byLen = new Map<number, number[]>();
  runs.forEach((r, i) => {
    const list = byLen.get(r.len);
    if (list) list.push(i);
    else byLen.set(r.len, [i]);
  });
  const cursor = new Map<number, number>();
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i];
    if (r.at > 0 && s[r.at - 1] === '\\') continue;
    const list = byLen.get(r.len) ?? [];
    let c = cursor.get(r.len) ?? 0;
    while (c < list.length && list[c] <= i) c++;
    cursor.set(r.len, c);
    if (c === list.length) continue;
    const j = list[c];
    spans.push([r.at, runs[j].at + runs[j].len]);
    i = j;
  }
  return spans;
}

/** A code span: a run of backticks, text without one, the same run. */
const CODE_SPAN = /(`+)([^`]*?)\1/;

/**
 * Markdown text on one line without HTML comments, link targets and emphasis markers; code spans
 * keep their backticks when `keepCode`, else only their words. Emphasis is not looked for inside a
 * code span (`__init__.py` stays whole). Code spans and comments are taken in the order they start,
 * as Markdown does: `<!--` inside a code span is text (S1's "No `<!-- state-snapshot v1 -->` block"
 * names that marker), and a comment that holds backticks is dropped whole. A comment left open runs
 * to the end.
 */
export function withoutMarkup(text: string, keepCode: boolean): string {
  const prose = (x: string) => withoutEmphasis(withoutLinks(x));
  const spans = new RegExp(CODE_SPAN.source, 'g');
  let out = '';
  let words = ''; // the prose since the last code span, its comments taken out
  let at = 0; // the text before `at` is done
  let code: RegExpExecArray | null | undefined; // the first code span at or after `at` (undefined: not looked for)
  let comment = -2; // where the first `<!--` at or after `at` starts (-1: none)
  for (;;) {
    // Each is looked for again only once `at` passed where it was found (a comment can hide a span's start).
    if (code === undefined || (code !== null && code.index < at)) {
      spans.lastIndex = at;
      code = spans.exec(text);
    }
    if (comment !== -1 && comment < at) comment = text.indexOf('<!--', at);
    if (comment >= 0 && (!code || comment < code.index)) {
      words += `${text.slice(at, comment)} `;
      const end = text.indexOf('-->', comment + 4);
      at = end < 0 ? text.length : end + 3;
      continue;
    }
    if (!code) break;
    out += prose(words + text.slice(at, code.index)) + (keepCode ? code[0] : code[2]);
    words = '';
    at = code.index + code[0].length;
  }
  out += prose(words + text.slice(at));
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * `x` with each link or image `[label](target)` as its label: what /!?\[([^\]]*)\]\([^)]*\)/g with `$1`
 * does, in one pass. A label runs to the first `]` after its `[`, a target to the first `)` after its
 * `(`; every `[` before that `]` shares both, so each is looked for once (the pattern scanned to them
 * again from each `[`: a next action of 100,000 `[` took the tree's label 14 s).
 */
function withoutLinks(x: string): string {
  if (!x.includes('](')) return x;
  let out = '';
  let from = 0;
  let close = -2; // the first `]` after the last `[` looked at (-1: none)
  let paren = -2; // the first `)` after `close`'s `(` (-1: none)
  for (let i = x.indexOf('['); i >= 0; i = x.indexOf('[', i + 1)) {
    if (close < i) {
      close = x.indexOf(']', i + 1);
      if (close < 0) break;
      paren = x[close + 1] === '(' ? x.indexOf(')', close + 2) : -2;
    }
    if (paren === -1) break;
    if (paren < 0) continue;
    const start = i > from && x[i - 1] === '!' ? i - 1 : i;
    out += x.slice(from, start) + x.slice(i + 1, close);
    from = paren + 1;
    i = paren;
  }
  return out + x.slice(from);
}

/**
 * `x` with each `**strong**` or `__strong__` as its text: what /(\*\*|__)(?=\S)([\s\S]*?\S)\1/g with `$2`
 * does, in one pass. An opening before a character that is not blank is closed by the first same
 * marker at least one character on that follows one that is not blank; the next such marker is looked
 * for once for all the openings before it (the pattern scanned to it, or to the end, again from each).
 */
function withoutEmphasis(x: string): string {
  if (!x.includes('**') && !x.includes('__')) return x;
  const found: Record<string, number> = { '**': -2, __: -2 }; // the first closer at or after the last look (-1: none)
  const closer = (m: string, at: number): number => {
    if (found[m] === -1 || found[m] >= at) return found[m];
    let j = x.indexOf(m, at);
    while (j >= 0 && /\s/.test(x[j - 1])) j = x.indexOf(m, j + 1);
    return (found[m] = j);
  };
  let out = '';
  let from = 0;
  for (let i = 0; i + 2 < x.length; i++) {
    const m = x.startsWith('**', i) ? '**' : x.startsWith('__', i) ? '__' : null;
    if (m === null || /\s/.test(x[i + 2])) continue;
    const j = closer(m, i + 3);
    if (j < 0) continue;
    out += x.slice(from, i) + x.slice(i + 2, j);
    from = j + 2;
    i = j + 1;
  }
  return out + x.slice(from);
}
