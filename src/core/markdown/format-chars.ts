/**
 * Format characters (Unicode Cf: bidi overrides and isolates, zero-width characters, soft hyphens,
 * tags) and the line and paragraph separators: invisible in text, so no output shows them, and a
 * secret with one inside is still the secret.
 */

/**
 * The UTF-16 code units every format character or line or paragraph separator holds one of (the
 * astral ones start with the surrogates U+D804, U+D80D, U+D82F, U+D834, U+DB40): a text without one
 * is left alone, and \p{Cf}, costly to compile (ICU builds the set), is never compiled for it.
 * regex-gates.test.ts checks it against every code point.
 */
export const MAY_BE_FORMAT =
  /[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\ud804\ud80d\ud82f\ud834\udb40]/;

/** `s` without its format characters and line or paragraph separators. */
export function withoutFormat(s: string): string {
  return MAY_BE_FORMAT.test(s) ? s.replace(/[\p{Cf}\u2028\u2029]/gu, '') : s;
}
