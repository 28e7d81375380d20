/**
 * Times as a person reads them: the clock time where the reader is, never an ISO string in UTC
 * (`2026-12-06T14:03:22.123Z`), which the user has to convert in their head. A time that is no time
 * (NaN, out of Date's range) is said as such.
 */
import { t, type Msg } from './messages';

const two = (n: number): string => String(n).padStart(2, '0');

/** `2026-12-06 15:03`: the local date and time to the minute, or `(unknown time)` for a time that is none. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '(unknown time)';
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** `15:03` on the day of `now` (local), else the date too (`2026-12-05 15:03`). */
export function localClock(ms: number, now: number): string {
  const at = localTime(ms);
  return at.slice(0, 10) === localTime(now).slice(0, 10) ? at.slice(11) : at;
}

/**
 * A span of time, rounded: `less than a minute`, `42 min` up to two hours, then `3 h` (the same words
 * in every message that gives one), as a message: a message that takes it as an argument is said with
 * it in the reader's language.
 */
export function spanText(ms: number): Msg {
  const min = Math.round(Math.max(0, ms) / 60_000);
  if (min < 1) return t('less than a minute');
  return min < 120 ? t('{0} min', min) : t('{0} h', Math.round(min / 60));
}
