/**
 * S0's closing step (majestic session-checkpoint): first its Step 5 confirmation
 * (`Checkpoint saved to <ledger>`, `- Goal: …`, `- State: <n> done, now: …, next: …`), then `/clear`
 * and reload the ledger — a fresh context with the ledger is preferred over repeated `/compact` cycles.
 */
import { oneLine, t } from '../../model/messages';
import type { SystemReport } from '../../model/model';
import { firstRealItem, sectionsOf } from '../../markdown/items';
import { isPlaceholder } from '../../markdown/text';
import type { ClosingOf } from '../../report/closing';

/** S0's Step 5 confirmation, as data (the CLI prints it in the seed's three lines). */
export interface S0Confirmation {
  ledger: string;
  goal: string | null;
  done: number;
  now: string | null;
  next: string | null;
}

/** An item's text on one line: white space collapsed, clipped at `n`; null for none or a placeholder. */
function shortLine(s: string | null | undefined, n = 100): string | null {
  if (!s) return null;
  const x = s.replace(/\s+/g, ' ').trim();
  if (!x || isPlaceholder(x)) return null;
  return x.length > n ? `${x.slice(0, n - 1)}…` : x;
}

/** Words whose full stop is an abbreviation's, not a sentence's. */
const ABBREVIATION = /^(?:etc|dr|mr|mrs|ms|no|nr|inc|ltd|al|vs|cf|approx|fig|st|jr|sr)\.$/i;

/**
 * The now part without its own full stop (the State line goes on after it: `now: …, next: …`), but
 * an abbreviation keeps its stop: a last word with a dot inside (a.m., U.S., e.g.) or a known short
 * word (etc., Dr., No.). An ellipsis stays too.
 */
function withoutFullStop(text: string | null): string | null {
  if (!text || !text.endsWith('.') || text.endsWith('..')) return text;
  const last = text.slice(text.lastIndexOf(' ') + 1).replace(/^[^\p{L}\p{N}]+/u, '');
  if (/\.[^.]+\.$/.test(last) || ABBREVIATION.test(last)) return text;
  return text.slice(0, -1);
}

/** S0's Step 5 figures from the ledger: the goal, the number of Done items, Now and Next. */
export function s0Confirmation(s: SystemReport): S0Confirmation {
  const doc = s.docs.find((d) => d.relPath === s.home) ?? null;
  const done = sectionsOf(doc, 'done').flatMap((x) =>
    x.items.filter((i) => (i.depth ?? 0) === 0 && !isPlaceholder(i.text)),
  ).length;
  return {
    ledger: s.home,
    goal: shortLine(firstRealItem(sectionsOf(doc, 'goal'))?.text),
    done,
    now: withoutFullStop(shortLine(firstRealItem(sectionsOf(doc, 'now'))?.text)),
    next: shortLine(firstRealItem(sectionsOf(doc, 'next'))?.text),
  };
}

/** S0's confirmation in the seed's three lines. */
export function s0ConfirmationLines(c: S0Confirmation): string[] {
  return [
    `Checkpoint saved to ${oneLine(c.ledger)}`,
    `- Goal: ${c.goal ?? '(none)'}`,
    `- State: ${c.done} done, now: ${c.now ?? '(none)'}, next: ${c.next ?? '(none)'}`,
  ];
}

/** A missing part of the confirmation: a message, so each language says it in its own words. */
const NONE = t('(none)');

export const closingS0: ClosingOf = (s, base) => {
  const c = s0Confirmation(s);
  return {
    s0: c,
    lines: [...s0ConfirmationLines(c), base.line, 'Resume prompt for the fresh context:', `    ${base.resumePrompt}`],
    notice: t(
      'Checkpoint saved to {0} (Goal: {1}; {2} done, now: {3}, next: {4}). Then run /clear and reload the ledger: the resume prompt is on the clipboard.',
      base.home,
      c.goal ?? NONE,
      c.done,
      c.now ?? NONE,
      c.next ?? NONE,
    ),
  };
};
