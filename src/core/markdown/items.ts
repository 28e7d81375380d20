/**
 * Small helpers the S0 and S1 readers share: sections by key, the first real item, dates.
 */
import { isPlaceholder } from './text';
import type { MdBlock } from './markdown';
import type { Item, Section, StateDoc } from '../model/model';

export function sectionsOf(doc: StateDoc | null, key: string): Section[] {
  return doc ? doc.sections.filter((s) => s.key === key) : [];
}

/** The first top-level item of the sections, in file order, preferring one that is not a placeholder. */
export function firstRealItem(
  sections: readonly Section[],
  placeholder: (t: string) => boolean = isPlaceholder,
): Item | null {
  const items = sections.flatMap((s) => s.items.filter((i) => (i.depth ?? 0) === 0));
  return items.find((i) => !placeholder(i.text)) ?? items[0] ?? null;
}

/** A line that starts a list item, a heading, a quote, a fence or a table row: no paragraph continues into it. */
const STARTS_BLOCK = /^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>|```|~~~|\|)/;

/**
 * `item`'s text with the lines of its paragraph that follow it (the outline gives each line of a
 * paragraph as an item of its own; a list item's own continuation lines are in its text already),
 * joined by a space: a next action wrapped over several lines is said whole. `lines` are the
 * document's lines.
 */
export function withParagraph(sections: readonly Section[], item: Item, lines: readonly string[]): string {
  if (STARTS_BLOCK.test(lines[item.line - 1] ?? '')) return item.text;
  const items = sections.flatMap((s) => s.items);
  let at = items.indexOf(item);
  let text = item.text;
  for (let line = item.line; at >= 0 && at + 1 < items.length; at++) {
    const next = items[at + 1];
    if (next.line !== line + 1 || STARTS_BLOCK.test(lines[next.line - 1] ?? '')) break;
    text = `${text} ${next.text}`;
    line = next.line;
  }
  return text;
}

/** `YYYY-MM-DD` → ms at UTC midnight, or null when it is not a real date. */
export function parseDay(s: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s.trim());
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(t);
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? t : null;
}

/**
 * A template line such as `<current focus>` alone on a line is an HTML block to markdown-it (a
 * complete open tag); read it as the placeholder item it is, so templates are seen as templates.
 */
export function templateTagItem(b: MdBlock): Item | null {
  const t = b.text.trim();
  if (b.kind !== 'html' || t.includes('\n') || !/^<[^<>!/][^<>]*>(?:\s*`[^`]*`)?$/.test(t)) return null;
  return { text: t, line: b.line, flags: [], depth: b.depth };
}
