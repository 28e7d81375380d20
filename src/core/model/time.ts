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

/**
 * Whether a session whose last write was at `lastWrite` (ms) is not the one running at `now`: it wrote
 * nothing within the session window (`windowMinutes`: SESSION_LEDGER_SESSION_WINDOW_MIN, 30 by default),
 * the window in which the checkpoint counts a session as running. Its figure is old: said with its age,
 * and no checkpoint is urged for it. A time that is no time is not said to be old.
 */
export function notRunning(lastWrite: number, now: number, windowMinutes: number): boolean {
  return Number.isFinite(lastWrite) && now - lastWrite > windowMinutes * 60_000;
}

/** An old figure: when it was taken (ms), and whether its session still counts as running. */
export interface FigureAge {
  at: number;
  running: boolean;
}

/**
 * A context figure's age when it is old (`notRunning` of its time `at`, an ISO string): taken before the
 * session window, with whether its session still counts as running as the checkpoint counts one (its
 * transcript written within the window: `mtime`, ms); null for a figure within the window or of no known time.
 */
export function figureAge(at: string | null, mtime: number, now: number, windowMinutes: number): FigureAge | null {
  const taken = at ? Date.parse(at) : NaN;
  if (!notRunning(taken, now, windowMinutes)) return null;
  const wrote = Number.isFinite(mtime) ? Math.max(taken, mtime) : taken;
  return { at: taken, running: !notRunning(wrote, now, windowMinutes) };
}
