import * as path from 'node:path';

/** POSIX shell single-quoting: `s` as one word, whatever it holds (each `'` written `'\''`). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `s` as one word of a POSIX shell, on one line: as it is when nothing in it needs quoting, else
 * single-quoted; a name with a line break, a carriage return or another control character (a file or
 * folder name may hold one) is written `$'…'`, each of them escaped (`\n`, `\r`, `\t`, `\xHH`, `\uHHHH`),
 * so the word names it exactly and no line of the text it stands in comes from the name.
 */
export function shellWord(s: string): string {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  return /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(s) ? ansiQuote(s) : shellQuote(s);
}

/** The escapes of `$'…'` that read better than a code. */
const ANSI_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * `s` as one `$'…'` word (ANSI-C quoting, which bash, zsh, ksh and POSIX.1-2024 shells read): a backslash,
 * a quote and every control character escaped, a C0 one or DEL as `\xHH`, a C1 one or a line or
 * paragraph separator as `\uHHHH`.
 */
function ansiQuote(s: string): string {
  const escaped = s.replace(/[\\'\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0);
    const hex = code.toString(16).padStart(code < 0x80 ? 2 : 4, '0');
    return ANSI_ESCAPES[c] ?? (code < 0x80 ? `\\x${hex}` : `\\u${hex}`);
  });
  return `$'${escaped}'`;
}

/**
 * The absolute path `abs` as one word of a POSIX shell that names it from any folder: `~/…` when it lies
 * inside the home folder `home` (the shell expands the unquoted `~/` to that folder; shorter to read), else
 * the whole path; what follows `~/` is shell-quoted when it needs it, as `shellWord` quotes.
 */
export function anywhereWord(abs: string, home: string | undefined): string {
  if (home && path.sep === '/' && path.isAbsolute(home)) {
    const h = path.resolve(home);
    const rel = path.relative(h, abs);
    if (h !== path.dirname(h) && rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return `~/${shellWord(rel)}`;
  }
  return shellWord(abs);
}

/**
 * A command the user runs, as a block of text shows it (the guard's block, a refusal of `checkpoint`):
 * the program on a line of its own, then each group of its words on the next lines, every line but the last ending in ` \` (a POSIX shell reads them as
 * one command). The client shows the block in its own screen and breaks a long line at its width
 * (Claude Code at a space, Codex inside a word too), and a command copied from there with a break
 * the shell takes as the end of it no longer runs as printed; lines this short are not broken at 80
 * columns.
 */
export function commandLines(cli: string, groups: readonly string[]): string[] {
  // A program that goes to its folder first (`cd DIR && node …`, `cliCommand`'s for a long path): the `cd` on a line of its own.
  const goes = /^(cd .+ &&) (node \S+)$/.exec(cli);
  const parts = [...(goes ? [goes[1], goes[2]] : [cli]), ...groups];
  return parts.map((p, i) => `   ${i ? '  ' : ''}${p}${i < parts.length - 1 ? ' \\' : ''}`);
}
