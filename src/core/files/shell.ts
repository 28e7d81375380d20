/** POSIX shell single-quoting: `s` as one word, whatever it holds (each `'` written `'\''`). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `s` as one word of a POSIX shell: as it is when nothing in it needs quoting, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s);
}
