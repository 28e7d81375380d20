/**
 * S0's closing step (majestic session-checkpoint): first its Step 5 confirmation, in the seed's
 * words (`Checkpoint saved to <ledger>`, `- Goal: …`, `- State: <n> done, now: …, next: …`), then
 * `/clear` and reload the ledger: a fresh context with the ledger is preferred over repeated
 * `/compact` cycles.
 */
import { oneLine, t } from '../../model/messages';
import type { Item, Section, SystemReport } from '../../model/model';
import { firstRealItem, sectionsOf, withParagraph } from '../../markdown/items';
import { clipAtWord, isPlaceholder } from '../../markdown/text';
import type { ClosingOf } from '../../report/closing';

/** S0's Step 5 confirmation, as data (`--json`'s `s0`; the CLI prints it in the seed's three lines). */
export interface S0Confirmation {
  ledger: string;
  goal: string | null;
  done: number;
  now: string | null;
  next: string | null;
}

/**
 * A part of the confirmation on one line: white space collapsed, cut at a word with an ellipsis past
 * `n` characters; null for none or a placeholder. The confirmation goes on after each part (`; `,
 * `, `), so a part never ends on a comma, semicolon or colon of its own.
 */
function shortLine(s: string | null | undefined, n = 100): string | null {
  if (!s) return null;
  const x = s.replace(/\s+/g, ' ').trim();
  if (!x || isPlaceholder(x)) return null;
  return clipAtWord(x, n).replace(/[\s,;:、，；：]+$/u, '') || null;
}

/** The first real item of the sections with the rest of its paragraph (a goal wrapped over lines is said whole). */
function firstText(sections: readonly Section[], lines: readonly string[]): string | null {
  const item: Item | null = firstRealItem(sections);
  return item ? withParagraph(sections, item, lines) : null;
}

/** Words whose full stop is an abbreviation's, not a sentence's. */
const ABBREVIATION = /^(?:etc|dr|mr|mrs|ms|no|nr|inc|ltd|al|vs|cf|approx|fig|st|jr|sr)\.$/i;

/** What stands before a word's first letter or digit: built on its first use (a `\p{…}` literal builds ICU's set whenever the script is parsed). */
let leadingNonWord: RegExp | undefined;

/**
 * A part without its own full stop (the sentence goes on after it: `now: …, next: …`), but
 * an abbreviation keeps its stop: a last word with a dot inside (a.m., U.S., e.g.) or a known short
 * word (etc., Dr., No.). An ellipsis stays too.
 */
function withoutFullStop(text: string | null): string | null {
  if (!text || !text.endsWith('.') || text.endsWith('..')) return text;
  const last = text
    .slice(text.lastIndexOf(' ') + 1)
    .replace((leadingNonWord ??= new RegExp('^[^\\p{L}\\p{N}]+', 'u')), '');
  if (/\.[^.]+\.$/.test(last) || ABBREVIATION.test(last)) return text;
  return text.slice(0, -1);
}

/** S0's Step 5 figures from the ledger: the goal, the number of Done items, Now and Next. */
export function s0Confirmation(s: SystemReport): S0Confirmation {
  const doc = s.docs.find((d) => d.relPath === s.home) ?? null;
  const done = sectionsOf(doc, 'done').flatMap((x) =>
    x.items.filter((i) => (i.depth ?? 0) === 0 && !isPlaceholder(i.text)),
  ).length;
  const lines = doc ? doc.text.split('\n') : [];
  return {
    ledger: s.home,
    goal: shortLine(firstText(sectionsOf(doc, 'goal'), lines)),
    done,
    now: withoutFullStop(shortLine(firstText(sectionsOf(doc, 'now'), lines))),
    next: shortLine(firstText(sectionsOf(doc, 'next'), lines)),
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
  // The sentence goes on after each part: a part's own full stop goes, as the now part's does.
  const parts = [
    base.home,
    withoutFullStop(c.goal) ?? NONE,
    c.done,
    c.now ?? NONE,
    withoutFullStop(c.next) ?? NONE,
  ] as const;
  // Where the SessionStart hook runs, it has the agent reload the ledger after /clear by itself.
  return {
    s0: c,
    lines: [
      ...s0ConfirmationLines(c),
      base.handedOver
        ? `Run /clear: the SessionStart hook has the agent reload the ledger (${oneLine(base.home)}). /clear + ledger reload is preferred over repeated /compact.`
        : `Run /clear, then reload the ledger (${oneLine(base.home)}): /clear + ledger reload is preferred over repeated /compact.`,
      'Resume prompt for the fresh context:',
      `    ${base.resumePrompt}`,
    ],
    notice: base.handedOver
      ? t(
          'Checkpoint saved to {0} (Goal: {1}; State: {2} done, now: {3}, next: {4}). Run /clear: the SessionStart hook has the agent reload the ledger. /clear + ledger reload is preferred over repeated /compact.',
          ...parts,
        )
      : t(
          'Checkpoint saved to {0} (Goal: {1}; State: {2} done, now: {3}, next: {4}). Run /clear, then reload the ledger: /clear + ledger reload is preferred over repeated /compact.',
          ...parts,
        ),
  };
};
