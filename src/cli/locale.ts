/**
 * The language the tool speaks in a terminal (`localeLang`), and the language the hooks speak in it
 * (`hookLanguage`: the hook script's own words). Kept apart from the words themselves and from
 * ./language (which reads the package's l10n bundles for `check`, `status` and `checkpoint`): the
 * status line, which runs on every refresh, loads only `localeLang`.
 */
import { WORDS_LANGS } from '../core/hooks/files';
import { ENGLISH, languageOf, type Language } from '../core/model/messages';

/** The languages the tool speaks besides English (the extension's l10n bundles). */
export type Lang = (typeof WORDS_LANGS)[number];

/**
 * The language the locale of `env` names, or null (English), decided as POSIX tools decide it: the
 * first non-empty of LC_ALL, LC_MESSAGES and LANG names the locale; `ja…` is Japanese and `ko…` Korean
 * (without a codeset or with UTF-8, the one the tool writes), anything else (C, POSIX, en_US.UTF-8,
 * ja_JP.eucJP …) English.
 */
export function localeLang(env: NodeJS.ProcessEnv): Lang | null {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '');
  // Any other language is told without the pattern (English compiles none: the status line, the hooks).
  if (!locale || !(locale.startsWith('ja') || locale.startsWith('ko'))) return null;
  const m = /^(ja|ko)(?:_[A-Za-z]+)?(?:\.([^@]*))?(?:@.*)?$/.exec(locale);
  if (!m) return null;
  return m[2] === undefined || /^utf-?8$/i.test(m[2]) ? (m[1] as Lang) : null;
}

/**
 * The hook script's own Japanese and Korean words: the l10n bundles' entries the guard's block and the
 * reminder say, built into the script (a part of it), each English template with its translations in
 * WORDS_LANGS' order; null when the script holds none (a copy cut short, a build without them).
 */
export type Words = () => Readonly<Record<string, unknown>> | null;

/**
 * The language a hook speaks for `env`: the hook script's own words in the locale's language, else
 * English. The words are asked for only for Japanese or Korean, and only once there is something to
 * say (a guard that allows, a reminder that stays silent, never reads them): English reads and
 * compiles nothing more.
 */
export function hookLanguage(env: NodeJS.ProcessEnv, words: Words | undefined): Language {
  const lang = localeLang(env);
  if (!lang || !words) return ENGLISH;
  let said: Language | undefined;
  const inLang = (): Language => (said ??= column(words(), WORDS_LANGS.indexOf(lang)));
  return { say: (english, id, args) => inLang().say(english, id, args), msg: (m) => inLang().msg(m) };
}

/** The language of one column of the words' table (its translations in one language); English without a table. */
function column(table: Readonly<Record<string, unknown>> | null, at: number): Language {
  if (!table) return ENGLISH;
  const said: Record<string, unknown> = {};
  for (const [english, tr] of Object.entries(table)) if (Array.isArray(tr)) said[english] = tr[at];
  return languageOf(said);
}
