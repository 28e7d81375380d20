/** POSIX shell single-quoting: `s` as one word, whatever it holds (each `'` written `'\''`). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
