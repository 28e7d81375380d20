import * as path from 'node:path';

/** POSIX shell single-quoting: `s` as one word, whatever it holds (each `'` written `'\''`). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `s` as one word of a POSIX shell: as it is when nothing in it needs quoting, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s);
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
