/**
 * Times in the extension's texts, in the user's language: the local clock time and how long ago
 * (`15:03 (5 min ago)`), as the session lists say "5 min ago"; never an ISO string in UTC. vscode-free.
 */
import { localClock } from '../../core/model/time';
import type { T } from './tree-text';

/** How long ago, rounded: `just now`, `5 min ago` up to two hours, then `3 h ago`, then days. */
export function agoText(t: T, ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  if (m < 1) return t('just now');
  if (m < 120) return t('{0} min ago', m);
  const h = Math.round(m / 60);
  if (h < 48) return t('{0} h ago', h);
  const d = Math.round(h / 24);
  return d === 1 ? t('1 day ago') : t('{0} days ago', d);
}

/** `15:03 (5 min ago)`; the date too when it is not today (`2026-12-05 15:03 (1 day ago)`). */
export function whenText(t: T, at: number, now: number): string {
  return `${localClock(at, now)} (${agoText(t, now - at)})`;
}
