/**
 * The line ends of a user's file, kept when a write action edits it: every line it had keeps its
 * own ending (CRLF or LF), a line the edit adds gets the ending most of the file's lines have, and
 * a file that did not end in a line break does not get one unless the edit adds lines at its end.
 */

/** The ending most of `text`'s lines have: CRLF when more lines end in CRLF than in a bare LF, else LF; `fallback` when it has no line break. */
export function dominantEol(text: string, fallback: '\r\n' | '\n' = '\n'): '\r\n' | '\n' {
  let lf = 0;
  let crlf = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text[at - 1] === '\r') crlf++;
    else lf++;
  }
  return lf + crlf === 0 ? fallback : crlf > lf ? '\r\n' : '\n';
}

/**
 * `after` (an edit of `before` written with LF line breaks, as a serializer writes it) with the line
 * ends of `before`: the lines they share at the start and at the end are `before`'s own lines, with
 * their own endings; the lines in between get `before`'s dominant ending. When `before` did not end
 * in a line break, neither does the result, unless the edit added lines after its last one.
 */
export function withLineEndsOf(before: string, after: string): string {
  const eol = dominantEol(before);
  const noFinal = before !== '' && !before.endsWith('\n');
  const old = before.split('\n');
  const stripped = noFinal && after.endsWith('\n');
  const now = (stripped ? after.slice(0, -1) : after).split('\n');
  // The same line: the same text without its CR, and both last (no line end) or both not.
  const same = (i: number, j: number) => {
    const lastOld = i === old.length - 1;
    if (lastOld !== (j === now.length - 1)) return false;
    return (lastOld ? old[i] : old[i].replace(/\r$/, '')) === now[j];
  };
  let head = 0;
  while (head < old.length && head < now.length && same(head, head)) head++;
  let tail = 0;
  while (tail < old.length - head && tail < now.length - head && same(old.length - 1 - tail, now.length - 1 - tail))
    tail++;
  // Lines added after the file's last line end in a line break, as every line before them does.
  const appended =
    stripped && head >= old.length - 1 && now.length > old.length && now[old.length - 1] === old[old.length - 1];
  const text = now
    .map((line, j) => {
      if (j < head) return old[j];
      if (j >= now.length - tail) return old[j - now.length + old.length];
      return j < now.length - 1 && eol === '\r\n' ? `${line}\r` : line;
    })
    .join('\n');
  return appended ? text + eol : text;
}

/**
 * `offset` (where a parser places an error) kept on a line the text has: a parser that reaches the end of
 * the text while something is still open (a quote, a bracket) places its error past the final line break,
 * on a line no editor numbers; that error is placed at the end of the last line instead, after its last
 * character. Any other offset is returned as it is.
 */
export function onALine(text: string, offset: number): number {
  if (offset < text.length || !text.endsWith('\n')) return offset;
  return text.length - (text.endsWith('\r\n') ? 2 : 1);
}
