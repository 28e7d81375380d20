/**
 * Texts and icon choices of the ledger tree, from the core's model. vscode-free so they are unit
 * tested; the tree node classes only wrap them into `TreeItem`s. `t` is the l10n function
 * (`vscode.l10n.t` in the extension).
 */
import type { Check, Item, Label, Section, StateDoc, SystemReport } from '../../core/model/model';
import { oneLine } from '../../core/model/messages';
import { checkHint, checkMessage, countsOf, countsText } from './findings';

export type T = (message: string, ...args: Array<string | number | boolean>) => string;

export interface Icon {
  /** Codicon id. */
  id: string;
  /** Theme colour id, or undefined for the default foreground. */
  color?: string;
}

export function labelIcon(label: Label): Icon {
  switch (label) {
    case 'WORKING':
      return { id: 'pass', color: 'testing.iconPassed' };
    case 'PARTIAL':
      return { id: 'warning', color: 'list.warningForeground' };
    default:
      return { id: 'error', color: 'list.errorForeground' };
  }
}

/** True when the S1 attestation check says the handoff was changed after it was attested. */
export function isTampered(s: SystemReport, relPath: string): boolean {
  return s.checks.some((c) => c.id === 'attestation' && c.status === 'fail' && (!c.path || c.path === relPath));
}

/** A root item's tooltip, which is also its accessible name: it starts with `S3 docs/state/STATE.md — PARTIAL`. */
export function docTooltip(t: T, s: SystemReport, relPath: string, doc: StateDoc | null): string {
  const lines = [`${s.id} ${oneLine(relPath)} — ${s.label}`];
  const role = doc ? doc.role : t('missing');
  lines.push(`${s.name} · ${role}${relPath === s.home ? ` · ${t('home file')}` : ''}`);
  if (!doc) lines.push(t('The file does not exist yet.'));
  if (isTampered(s, relPath)) lines.push(t('TAMPERED: the file changed after it was attested.'));
  if (relPath === s.home) lines.push(t('Next: {0}', s.next ?? t('(none)')));
  // What is open, in the system row's words (nothing when nothing is).
  const counts = countsText(t, countsOf(s));
  if (counts) lines.push(counts);
  const u = s.unconfirmed.length;
  if (u)
    lines.push(
      u === 1
        ? t('1 UNCONFIRMED item to validate after /clear')
        : t('{0} UNCONFIRMED items to validate after /clear', u),
    );
  return lines.join('\n');
}

const SECTION_ICONS: Record<string, string> = {
  preamble: 'note',
  title: 'symbol-string',
  goal: 'target',
  constraints: 'lock',
  decisions: 'law',
  state: 'pulse',
  done: 'check-all',
  now: 'play',
  next: 'arrow-right',
  open: 'question',
  verified: 'verified',
  dropped: 'circle-slash',
  plan: 'milestone',
  'working-set': 'files',
  pending: 'watch',
  issues: 'bug',
  understanding: 'lightbulb',
  interests: 'heart',
  status: 'dashboard',
  gates: 'beaker',
  blocked: 'stop-circle',
  log: 'history',
  handoff: 'arrow-swap',
  snapshot: 'json',
};

export function sectionIcon(section: Section): Icon {
  return { id: SECTION_ICONS[String(section.key)] ?? 'symbol-namespace' };
}

/**
 * The sections a document shows in the tree: those with items, and headings whose subsections hold
 * items (S4's `## Current Feature: …` over its `### Next Steps`); never the title or the untitled
 * preamble (metadata such as `_started …` lines) — no empty or metadata rows.
 */
export function shownSections(doc: StateDoc): Section[] {
  const secs = doc.sections;
  const hasItemsBelow = (i: number): boolean => {
    const lvl = secs[i].level;
    for (let j = i + 1; j < secs.length && lvl > 0 && secs[j].level > lvl; j++) if (secs[j].items.length) return true;
    return false;
  };
  return secs.filter((s, i) => s.key !== 'title' && s.key !== 'preamble' && (s.items.length > 0 || hasItemsBelow(i)));
}

/** The label of a section: its title as written, or a name for the untitled preamble. */
export function sectionLabel(t: T, section: Section): string {
  return section.title.trim() || t('(preamble)');
}

export function sectionDescription(t: T, section: Section): string {
  const key = String(section.key);
  const n = section.items.length;
  const unc = section.items.filter((i) => i.flags.includes('unconfirmed')).length;
  const parts = [key === 'other' || key === 'preamble' ? '' : key, n === 1 ? t('1 item') : t('{0} items', n)];
  if (unc) parts.push(`${unc} UNCONFIRMED`);
  return parts.filter(Boolean).join(' · ');
}

export function sectionTooltip(t: T, section: Section, relPath: string): string {
  return `${sectionLabel(t, section)}\n${oneLine(relPath)}:${section.line}–${section.endLine}\n${sectionDescription(t, section)}`;
}

function flagValue(flags: readonly string[], name: string): string | undefined {
  const f = flags.find((x) => x.startsWith(`${name}:`));
  return f ? f.slice(name.length + 1) : undefined;
}

/** The flags worth a glance, in order: UNCONFIRMED, risk, urgency, done, expired, promote, archive, op. */
export function itemDescription(t: T, item: Item): string {
  const f = item.flags;
  const out: string[] = [];
  if (f.includes('unconfirmed')) out.push('UNCONFIRMED');
  const risk = flagValue(f, 'risk');
  if (risk) out.push(t('risk {0}', risk));
  const urgency = flagValue(f, 'urgency');
  if (urgency) out.push(t('urgency {0}', urgency));
  if (f.includes('done')) out.push(t('done'));
  if (f.includes('expired')) out.push(t('expired'));
  if (f.includes('promote')) out.push(t('promote'));
  if (f.includes('archive')) out.push(t('archive'));
  const op = flagValue(f, 'op');
  if (op) out.push(op);
  return out.join(' · ');
}

/**
 * An item's text for a one-line tree label: emphasis markers, HTML comments and link targets are
 * dropped (`**Status:** x <!-- note -->` → `Status: x`), code spans and every word are kept. The
 * tooltip keeps the text as written.
 */
export function itemLabel(item: Item): string {
  return lineLabel(item.text);
}

/** Markdown text for a one-line tree label, as `itemLabel` makes it (the next action's row too). */
export function lineLabel(text: string): string {
  return withoutMarkup(text, true) || text;
}

/**
 * Markdown text on one line without HTML comments, link targets and emphasis markers; code spans
 * keep their backticks when `keepCode`, else only their words. Emphasis is not looked for inside a
 * code span (`__init__.py` stays whole).
 */
function withoutMarkup(text: string, keepCode: boolean): string {
  const prose = (x: string) => withoutEmphasis(withoutLinks(x));
  const parts = text.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ').split(/(`+)([^`]*?)\1/);
  // split() with two groups: prose, fence, code, prose, fence, code, …, prose
  let out = '';
  for (let i = 0; i < parts.length; i += 3) {
    out += prose(parts[i]);
    if (i + 2 < parts.length) out += keepCode ? `${parts[i + 1]}${parts[i + 2]}${parts[i + 1]}` : parts[i + 2];
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * `x` with each link or image `[label](target)` as its label: what /!?\[([^\]]*)\]\([^)]*\)/g with `$1`
 * does, in one pass. A label runs to the first `]` after its `[`, a target to the first `)` after its
 * `(`; every `[` before that `]` shares both, so each is looked for once (the pattern scanned to them
 * again from each `[`: a next action of 100,000 `[` took the tree's label 14 s).
 */
function withoutLinks(x: string): string {
  if (!x.includes('](')) return x;
  let out = '';
  let from = 0;
  let close = -2; // the first `]` after the last `[` looked at (-1: none)
  let paren = -2; // the first `)` after `close`'s `(` (-1: none)
  for (let i = x.indexOf('['); i >= 0; i = x.indexOf('[', i + 1)) {
    if (close < i) {
      close = x.indexOf(']', i + 1);
      if (close < 0) break;
      paren = x[close + 1] === '(' ? x.indexOf(')', close + 2) : -2;
    }
    if (paren === -1) break;
    if (paren < 0) continue;
    const start = i > from && x[i - 1] === '!' ? i - 1 : i;
    out += x.slice(from, start) + x.slice(i + 1, close);
    from = paren + 1;
    i = paren;
  }
  return out + x.slice(from);
}

/**
 * `x` with each `**strong**` or `__strong__` as its text: what /(\*\*|__)(?=\S)([\s\S]*?\S)\1/g with `$2`
 * does, in one pass. An opening before a character that is not blank is closed by the first same
 * marker at least one character on that follows one that is not blank; the next such marker is looked
 * for once for all the openings before it (the pattern scanned to it, or to the end, again from each).
 */
function withoutEmphasis(x: string): string {
  if (!x.includes('**') && !x.includes('__')) return x;
  const found: Record<string, number> = { '**': -2, __: -2 }; // the first closer at or after the last look (-1: none)
  const closer = (m: string, at: number): number => {
    if (found[m] === -1 || found[m] >= at) return found[m];
    let j = x.indexOf(m, at);
    while (j >= 0 && /\s/.test(x[j - 1])) j = x.indexOf(m, j + 1);
    return (found[m] = j);
  };
  let out = '';
  let from = 0;
  for (let i = 0; i + 2 < x.length; i++) {
    const m = x.startsWith('**', i) ? '**' : x.startsWith('__', i) ? '__' : null;
    if (m === null || /\s/.test(x[i + 2])) continue;
    const j = closer(m, i + 3);
    if (j < 0) continue;
    out += x.slice(from, i) + x.slice(i + 2, j);
    from = j + 2;
    i = j + 1;
  }
  return out + x.slice(from);
}

/** Text as a screen reader should hear it: no Markdown markers, no backticks, one line. */
export function plainText(text: string): string {
  return withoutMarkup(text, false).replace(/`/g, '').replace(/\s+/g, ' ').trim();
}

/** Accessible-name sentences: each plain, joined with a full stop unless one ends a sentence already. */
export function spoken(parts: ReadonlyArray<string | undefined>): string {
  const ps = parts.map((p) => (p ? plainText(p) : '')).filter(Boolean);
  return ps.map((p, i) => (i < ps.length - 1 && !/[.!?:;。！？]$/.test(p) ? `${p}.` : p)).join(' ');
}

/** A place in a file, spoken: `docs/state/STATE.md, line 12`. */
export function placeName(t: T, relPath: string, line: number | undefined): string {
  return line ? t('{0}, line {1}', oneLine(relPath), line) : oneLine(relPath);
}

/** An item's accessible name: its words, its flags as the description says them, its place; never the raw flags. */
export function itemName(t: T, item: Item, relPath: string): string {
  const desc = itemDescription(t, item);
  return spoken([
    desc ? `${itemLabel(item)} (${desc})` : itemLabel(item),
    placeName(t, relPath, item.line),
    item.flags.includes('unconfirmed') ? t('Validate this after /clear before relying on it.') : undefined,
  ]);
}

/** Severity first, so a screen reader says it before the message (the icon alone says nothing). */
export function severityPrefix(t: T, c: Check): string {
  if (c.severity === 'block') return t('Blocking');
  if (c.severity === 'warn') return t('Warning');
  if (c.severity === 'manual') return t('Manual item');
  return t('Info');
}

/** A finding row's accessible name: `Warning: S4 compaction: <message>. .agents/STATE.md, line 19. Fix: <hint>`. */
export function findingName(t: T, c: Check, path: string, line: number): string {
  const tampered = c.id === 'attestation' && c.status === 'fail' ? ' (TAMPERED)' : '';
  const hint = checkHint(t, c);
  return spoken([
    `${severityPrefix(t, c)}: ${c.system} ${c.id}${tampered}: ${checkMessage(t, c)}`,
    placeName(t, path, line),
    hint ? t('Fix: {0}', hint) : undefined,
  ]);
}

export function itemIcon(item: Item): Icon {
  const f = item.flags;
  const risk = flagValue(f, 'risk');
  if (f.includes('unconfirmed')) return { id: 'question', color: 'list.warningForeground' };
  if (risk === 'H') return { id: 'flame', color: 'list.errorForeground' };
  if (f.includes('expired')) return { id: 'clock', color: 'list.warningForeground' };
  if (f.includes('done')) return { id: 'pass', color: 'testing.iconPassed' };
  if (risk === 'M') return { id: 'warning', color: 'list.warningForeground' };
  return { id: 'circle-small' };
}

export function itemTooltip(t: T, item: Item, relPath: string): string {
  const lines = [item.text, `${oneLine(relPath)}:${item.line}`];
  if (item.flags.length) lines.push(t('Flags: {0}', item.flags.join(', ')));
  if (item.flags.includes('unconfirmed')) lines.push(t('Validate this after /clear before relying on it.'));
  return lines.join('\n');
}

export function problemTooltip(t: T, c: Check): string {
  const lines = [`${c.system} ${c.id}: ${checkMessage(t, c)}`];
  if (c.path) lines.push(`${oneLine(c.path)}${c.line ? `:${c.line}` : ''}`);
  const hint = checkHint(t, c);
  if (hint) lines.push(t('Fix: {0}', hint));
  return lines.join('\n');
}
