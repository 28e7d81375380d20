/**
 * The language the tool speaks in a terminal, decided as POSIX tools decide it: the first non-empty of
 * LC_ALL, LC_MESSAGES and LANG names the locale; `ja…` is Japanese and `ko…` Korean (without a codeset
 * or with UTF-8, the one the tool writes), anything else (C, POSIX, en_US.UTF-8, ja_JP.eucJP …) English.
 * Kept apart from the words themselves: the status line, which runs on every refresh, loads only this.
 */

/** The languages the tool speaks besides English (the extension's l10n bundles). */
export type Lang = 'ja' | 'ko';

/** The language the locale of `env` names, or null (English). */
export function localeLang(env: NodeJS.ProcessEnv): Lang | null {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '');
  const m = /^(ja|ko)(?:_[A-Za-z]+)?(?:\.([^@]*))?(?:@.*)?$/.exec(locale ?? '');
  if (!m) return null;
  return m[2] === undefined || /^utf-?8$/i.test(m[2]) ? (m[1] as Lang) : null;
}
