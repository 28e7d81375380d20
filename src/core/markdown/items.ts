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
