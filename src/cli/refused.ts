/**
 * A refusal in the user's language: a refused write (WriteRefused) or a hooks plan that cannot be
 * carried out, in Japanese and Korean worded as the extension words the same refusal (its sentences,
 * src/extension/pure/error-text, through the locale's bundle: ./bundle); in English as the core says it.
 */
import { ENGLISH, format, type Language } from '../core/model/messages';
import { errorText } from '../extension/pure/error-text';
import type { Io } from './io';

/** The extension's `vscode.l10n.t` in `lang`: a sentence's translation filled, else the English filled. */
export function wordsOf(lang: Language): (id: string, ...args: Array<string | number | boolean>) => string {
  return (id, ...args) => {
    const a = args.map(String);
    return lang.say(format(id, a), id, a);
  };
}

/** Why `err` stopped a command: the core's English, or in another language the extension's sentence for it. */
export function errorSaid(err: unknown, lang: Language): string {
  return lang === ENGLISH ? ((err as Error)?.message ?? String(err)) : errorText(wordsOf(lang), err);
}

/**
 * One step of a command that may refuse (a read or a write action): its value, or, when it throws,
 * null after saying why on stderr as `session-ledger <label>: <why>`, the why in `lang` (`errorSaid`).
 */
export async function stepOrSay<T>(
  io: Io,
  label: string,
  f: () => Promise<T>,
  lang: Language,
): Promise<{ value: T } | null> {
  try {
    return { value: await f() };
  } catch (err) {
    io.stderr(`session-ledger ${label}: ${errorSaid(err, lang)}`);
    return null;
  }
}
