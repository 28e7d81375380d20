/**
 * Format characters (Unicode Cf: bidi overrides and isolates, zero-width characters, soft hyphens,
 * tags) and the line and paragraph separators: invisible in text, so no output shows them, and a
 * secret with one inside is still the secret. The other characters Unicode says a display may ignore
 * (Default_Ignorable_Code_Point: variation selectors, the combining grapheme joiner, Hangul fillers)
 * stay in what is shown (an emoji's presentation, a keycap, a Japanese variant glyph), but the secret
 * masker reads a line without them too (`asMasked`): a token with one inside is still the token, as it
 * is with a combining mark on one of its letters.
 * `terminalSafe`: text without format characters, separators, escape sequences or control
 * characters, as every output of the CLI and the hooks says it.
 *
 * The expressions with a Unicode property class (\p{Cf}, \p{Default_Ignorable_Code_Point}, \p{M}) are
 * built from strings on their first use, never written as literals: V8 checks the syntax of every
 * regular-expression literal while it parses the code around it, whether that code ever runs or not,
 * and a property class makes that check build ICU's set of the property (\p{Cf}: about 1.5 M
 * instructions, a quarter of a millisecond, on every run of every script that holds this module, the
 * status line's first). hot-paths.test.ts keeps the status line's script free of such literals.
 */

/**
 * The UTF-16 code units every format character or line or paragraph separator holds one of (the
 * astral ones start with the surrogates U+D804, U+D80D, U+D82F, U+D834, U+DB40 to U+DB43): a text without one
 * is left alone, and \p{Cf}, costly to compile (ICU builds the set), is never compiled for it.
 * regex-gates.test.ts checks it against every code point.
 */
// The class lists UTF-16 code units, each matched alone (variation selectors and joiners among them, and the
// astral characters' first surrogates): no character is meant as a combined sequence here.
/* eslint-disable no-misleading-character-class */
export const MAY_BE_FORMAT =
  /[\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\ud804\ud80d\ud82f\ud834\udb40-\udb43]/;
/* eslint-enable no-misleading-character-class */

/** The format characters and line and paragraph separators (built on first use, see above). */
let formatChars: RegExp | undefined;
/** Those and every other character a display may ignore (built on first use, see above). */
let ignorableChars: RegExp | undefined;

/** `s` without its format characters and line or paragraph separators. */
export function withoutFormat(s: string): string {
  if (!MAY_BE_FORMAT.test(s)) return s;
  return s.replace((formatChars ??= new RegExp('[\\p{Cf}\\u2028\\u2029]', 'gu')), '');
}

/** `s` without every character a display may ignore (format characters, variation selectors, joiners, fillers) or separators. */
function withoutIgnorable(s: string): string {
  if (!MAY_BE_FORMAT.test(s)) return s;
  return s.replace(
    (ignorableChars ??= new RegExp('[\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029]', 'gu')),
    '',
  );
}

/**
 * The control characters a terminal does not show as text: C0 but tab and line feed, DEL, C1. A
 * carriage return is one too (a text's lines are split at it first where lines matter). Every
 * escape sequence starts with one (ESC, or C1's CSI and OSC).
 */
export const MAY_BE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * `s` without its escape sequences (CSI `ESC[…`, OSC `ESC]…BEL|ST`, other `ESC x`), each removed
 * whole, and without every other control character (MAY_BE_CONTROL): what a terminal that is sent
 * the text shows of it, and so what a secret with one of them inside (`ghp_AAAA\x01BBBB`,
 * `AKIA…\x1b[0m…`) reads as. A sequence never takes in a space, a tab or a line break: the text on
 * either side of white space stays apart (a list item's wrapped lines, joined by a space, cannot
 * join two halves of a token), so removing them line by line gives what removing them from the
 * whole text gives. Linear: every expression always matches where it starts and takes a bounded run.
 */
export function withoutControl(s: string): string {
  if (!MAY_BE_CONTROL.test(s)) return s;
  return s
    .replace(/\u001b\[[\u0030-\u003f]{0,64}[\u0021-\u002f]{0,16}[\u0040-\u007e]?/g, '')
    .replace(/(?:\u001b\]|\u009d)[^\u0007\u001b\u009c \t\n\r]{0,4096}(?:\u0007|\u001b\\|\u009c)?/g, '')
    .replace(/\u001b[\u0021-\u002f]{0,16}[\u0030-\u007e]?/g, '')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** `s` as an output shows it: without escape sequences, control characters, format characters and separators. */
export function asShown(s: string): string {
  return withoutFormat(withoutControl(s));
}

/**
 * The UTF-16 code units every combining mark (Unicode M: an acute, a Cyrillic titlo, a Devanagari sign, a
 * musical stem) holds one of: the blocks that hold marks, and the first surrogates of the astral ones. A
 * text without one is left alone, and \p{M}, costly to compile, is never compiled for it. A mark on a
 * token's letter (`ghp_AAAA\u0301BBBB` shows `ghp_AAAÁBBBB`) changes how it looks, not what it is.
 * regex-gates.test.ts checks it against every code point.
 */
export const MAY_BE_MARK =
  /[\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u0670\u06d6-\u074a\u07a6-\u0d83\u0dca-\u0e4e\u0eb1-\u0ece\u0f18-\u0fc6\u102b-\u109d\u135d-\u135f\u1712-\u1773\u17b4-\u180f\u1885-\u18a9\u1920-\u193b\u1a17-\u1c37\u1cd0-\u1cf9\u1dc0-\u1dff\u20d0-\u20f0\u2cef-\u2cf1\u2d7f\u2de0-\u2dff\u302a-\u302f\u3099-\u309a\ua66f-\ua69f\ua6f0-\ua6f1\ua802-\ua82c\ua880-\ua9e5\uaa29-\uaaf6\uabe3-\uabed\ufb1e\ufe00-\ufe2f\ud800\ud802-\ud807\ud80d\ud818\ud81a\ud81b\ud82f\ud833\ud834\ud836\ud838-\ud83a\udb40]/;
/** The combining marks on a printable ASCII character (built on first use, see above). */
let marksOnAscii: RegExp | undefined;

/**
 * `s` as the secret masker reads it: as shown (`asShown`), without the other characters a display may
 * ignore, and without the combining marks on a printable ASCII character (a token is ASCII), so that no
 * character inside a token hides it; a line with a secret is kept so.
 */
export function asMasked(s: string): string {
  const t = withoutIgnorable(withoutControl(s));
  if (!MAY_BE_MARK.test(t)) return t;
  return t.replace((marksOnAscii ??= new RegExp('(?<=[\\x21-\\x7e])\\p{M}+', 'gu')), '');
}

/**
 * Text safe for a terminal (`asShown`): escape sequences removed whole, then every other control
 * character, format character (bidi overrides and isolates, zero-width characters, tags) and line or
 * paragraph separator dropped. Ledger text is repository content: it must not move the cursor,
 * retitle the window, write a hyperlink, or show text in another order than it is stored. A hook's
 * JSON answer holds strings that reach the agent as decoded text: each goes through this before it
 * is serialised (JSON.stringify writes these characters as `\u` escapes, which no later pass sees).
 */
export function terminalSafe(s: string): string {
  return asShown(s);
}
