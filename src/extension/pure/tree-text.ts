/**
 * Texts and icon choices of the ledger tree, from the core's model. vscode-free so they are unit
 * tested; the tree node classes only wrap them into `TreeItem`s. `t` is the l10n function
 * (`vscode.l10n.t` in the extension).
 */
import type { Check, DocRole, Item, Label, Section, StateDoc, SystemReport } from '../../core/model/model';
import { oneLine } from '../../core/model/messages';
import { withoutMarkup } from '../../core/markdown/shown-line';
import { checkPlace } from '../../core/report/report';
import { factsOf, systemName } from '../../core/systems/facts';
import {
  checkHintParts,
  checkMessageParts,
  countsOf,
  countsText,
  lineParts,
  partsWords,
  quoted,
  spanParts,
  systemLabel,
  type Finding,
} from './findings';

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

/** What a document is to its system, in words (the tree's document rows, their tooltips, Open state file's picker). */
export function roleText(t: T, role: DocRole): string {
  switch (role) {
    case 'ledger':
      return t('ledger');
    case 'handoff':
      return t('handoff');
    case 'state':
      return t('state file');
    case 'progress':
      return t('progress log');
    case 'lessons':
      return t('lessons');
    case 'contextLog':
      return t('context log');
    case 'memory':
      return t('memory');
    case 'config':
      return t('configuration');
    case 'manifest':
      return t('manifest');
    case 'projectState':
      return t('project state');
    case 'checkpoint':
      return t('checkpoint');
    case 'plan':
      return t('plan');
  }
}

/** True when the S1 attestation check says the handoff was changed after it was attested. */
export function isTampered(s: SystemReport, relPath: string): boolean {
  return s.checks.some((c) => c.id === 'attestation' && c.status === 'fail' && (!c.path || c.path === relPath));
}

/**
 * A system root's tooltip, which is also its accessible name: its label (`S3 Groundwork — PARTIAL`),
 * its home file, a switched-off system's skip line, the next action and what is open.
 */
export function systemTooltip(t: T, s: SystemReport): string {
  return [
    systemLabel(s),
    `${oneLine(s.home)} · ${t('home file')}`,
    s.skipped ? skipLine(t, s) : '',
    t('Next action: {0}', s.next ? lineLabel(s.next) : t('(none)')),
    countsText(t, countsOf(s)),
    s.updating ? t('A file of this system is being written: shown as last read.') : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** A switched-off system's skip line (the words its own documents give) in the user's language. */
function skipLine(t: T, s: SystemReport): string {
  const said = factsOf(s.id).switchedOff;
  return said && said.text === s.skipped ? t(said.id, ...said.args) : (s.skipped ?? '');
}

/** A root item's tooltip, which is also its accessible name: it starts with `S3 docs/state/STATE.md — PARTIAL`. */
export function docTooltip(t: T, s: SystemReport, relPath: string, doc: StateDoc | null): string {
  const lines = [`${s.id} ${oneLine(relPath)} — ${s.label}`];
  const role = doc ? roleText(t, doc.role) : t('missing');
  lines.push(`${systemName(s.id)} · ${role}${relPath === s.home ? ` · ${t('home file')}` : ''}`);
  if (!doc) lines.push(t('The file does not exist yet.'));
  if (isTampered(s, relPath)) lines.push(t('TAMPERED: the file changed after it was attested.'));
  if (relPath === s.home) lines.push(t('Next action: {0}', s.next ? lineLabel(s.next) : t('(none)')));
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

/** The label of a section: its title as a tree label shows Markdown (`lineLabel`), or a name for the untitled preamble. */
export function sectionLabel(t: T, section: Section): string {
  return section.title.trim() ? lineLabel(section.title.trim()) : t('(preamble)');
}

/**
 * What a section is to its system, in words (`goal`, `next action`), or '' for a kind that has no
 * words of its own: the row's label already shows the heading as written, and a model's key is no word.
 */
export function sectionKind(t: T, key: string): string {
  switch (key) {
    case 'goal':
      return t('goal');
    case 'constraints':
      return t('constraints');
    case 'decisions':
      return t('decisions');
    case 'state':
      return t('state');
    case 'done':
      return t('done');
    case 'now':
    case 'next':
      return t('next action');
    case 'open':
      return t('open items');
    case 'verified':
      return t('verified facts');
    case 'dropped':
      return t('dropped');
    case 'plan':
      return t('plan');
    case 'working-set':
      return t('working set');
    case 'pending':
      return t('pending decisions');
    case 'issues':
      return t('outstanding issues');
    case 'understanding':
      return t('system understanding');
    case 'interests':
      return t("user's interests");
    case 'status':
      return t('status');
    case 'gates':
      return t('gates');
    case 'blocked':
      return t('blocked on');
    case 'log':
      return t('log');
    case 'log-entry':
    case 'entry':
      return t('log entry');
    case 'handoff':
      return t('handoff');
    case 'snapshot':
      return t('snapshot');
    default:
      return '';
  }
}

export function sectionDescription(t: T, section: Section): string {
  const n = section.items.length;
  const unc = section.items.filter((i) => i.flags.includes('unconfirmed')).length;
  const parts = [sectionKind(t, String(section.key)), n === 1 ? t('1 item') : t('{0} items', n)];
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
 * dropped (`**Status:** x <!-- note -->` → `Status: x`), every word is kept, and a code span is in
 * quotes (`lineLabel`). The tooltip keeps the text as written, its code spans in quotes too (`tooltipText`).
 */
export function itemLabel(item: Item): string {
  return lineLabel(item.text);
}

/**
 * Markdown text for a one-line tree label, as `itemLabel` makes it (the next action's row too): the
 * core's `shownLine`, each code span without its backticks, in quotes (`quoted`), as the tree's finding
 * rows and the Problems panel show one: the tree renders no Markdown, so a backtick would show as written.
 */
export function lineLabel(text: string): string {
  return quoted(lineParts(text));
}

/** Text as a screen reader should hear it: no Markdown markers, no backticks, one line. */
export function plainText(text: string): string {
  return withoutMarkup(text, false).replace(/`/g, '').replace(/\s+/g, ' ').trim();
}

/** Accessible-name sentences: each plain, joined with a full stop unless one ends a sentence already. */
export function spoken(parts: ReadonlyArray<string | undefined>): string {
  return sentences(parts.map((p) => (p ? plainText(p) : '')));
}

/** Sentences on one line, each joined to the next with a full stop unless it ends one already; empty ones left out. */
function sentences(parts: readonly string[]): string {
  const ps = parts.map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return ps.map((p, i) => (i < ps.length - 1 && !/[.!?:;。！？]$/.test(p) ? `${p}.` : p)).join(' ');
}

/** A tree row's words: its label, description, tooltip and accessible name. */
export interface RowText {
  label: string;
  description?: string;
  tooltip: string;
  name: string;
}

/**
 * A row of manual items still to tick, a system's own or the session's (`session`: when a tick is reset,
 * and why the overall label is worse than the systems' when it is: core `overallWhy`).
 * Its label is short, the words a system row counts them in (`2 manual to tick`), so the sidebar's default
 * width shows it whole in every language; whose items they are beside it (the session's row, the tree's
 * first), and the whole sentence in the tooltip and the accessible name.
 */
export function manualRow(t: T, n: number, whose: string, session?: { about: string; why?: string }): RowText {
  const label = countsText(t, { block: 0, warn: 0, info: 0, manual: n });
  const sentence = n === 1 ? t('1 manual item to tick') : t('{0} manual items to tick', n);
  const said = session ? [session.about, session.why ?? ''].filter(Boolean) : [];
  const lines = [sentence, ...said, t('Open the checklist to tick them.')];
  return {
    label,
    ...(session ? { description: whose } : {}),
    tooltip: lines.join('\n'),
    // Whose items: two rows would otherwise be spoken alike.
    name: spoken([`${whose}: ${sentence}`, ...lines.slice(1)]),
  };
}

/** A place in a file, spoken: `docs/state/STATE.md, line 12`. */
export function placeName(t: T, relPath: string, line: number | undefined): string {
  return line ? t('{0}, line {1}', oneLine(relPath), line) : oneLine(relPath);
}

/** An item's accessible name: its words, its flags as the description says them, its place; never the raw flags. */
export function itemName(t: T, item: Item, relPath: string): string {
  const desc = itemDescription(t, item);
  return spoken([
    // Its words as written: a code span's quotes are for the eye (`plainText` drops its backticks).
    desc ? `${item.text} (${desc})` : item.text,
    placeName(t, relPath, item.line),
    item.flags.includes('unconfirmed') ? t('Validate this after /clear before relying on it.') : undefined,
  ]);
}

/**
 * A finding row's label: the check's message, which leads with what is wrong (the field, the section, the
 * kind of problem) and names the file after it, so rows of one system differ where the sidebar cuts them.
 * The Problems panel and the CLI say the same words; a code span is in quotes, as plain text shows one (`quoted`).
 */
export function findingLabel(t: T, c: Check): string {
  return quoted(checkMessageParts(t, c));
}

/** Severity first, so a screen reader says it before the message (the icon alone says nothing). */
export function severityPrefix(t: T, c: Check): string {
  if (c.severity === 'block') return t('Blocking');
  if (c.severity === 'warn') return t('Warning');
  if (c.severity === 'manual') return t('Manual item');
  return t('Info');
}

/**
 * A finding row's accessible name: `Warning: S4 compaction: <message>. .agents/STATE.md, line 19. Fix: <hint>`;
 * the message and the hint in the words of the label and the tooltip, without the quotes around code.
 */
export function findingName(t: T, c: Check, path: string, line: number | undefined): string {
  const tampered = c.id === 'attestation' && c.status === 'fail' ? ' (TAMPERED)' : '';
  const hint = checkHintParts(t, c);
  return sentences([
    `${severityPrefix(t, c)}: ${c.system} ${c.id}${tampered}: ${partsWords(checkMessageParts(t, c))}`,
    plainText(placeName(t, path, line)),
    hint ? t('Fix: {0}', partsWords(hint)) : '',
  ]);
}

/**
 * A finding's text in the Problems panel, plain as the panel shows and speaks it (it renders no
 * Markdown): its message; when it stands on another file than the one its check names (that file is
 * not there), the place the check names in parentheses, as the CLI prints it; then its fix. The
 * words of the tree's row, code spans in quotes (`quoted`).
 */
export function diagnosticMessage(t: T, f: Finding): string {
  const hint = checkHintParts(t, f.check);
  const place = f.named ? checkPlace(f.named) : undefined;
  return `${quoted(checkMessageParts(t, f.check))}${place ? ` (${oneLine(place)})` : ''}${hint ? `\n${t('Fix: {0}', quoted(hint))}` : ''}`;
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

/**
 * Ledger text as a tree tooltip shows it: as written (emphasis markers, link targets and all), save that
 * each code span is in quotes without its backticks, as the row's label (`lineLabel`) and the Problems panel
 * show one. Plain text: nothing of it is rendered or runs.
 */
export function tooltipText(text: string): string {
  return quoted(spanParts(text));
}

/** The next-action row's tooltip: the next action as written (`tooltipText`) and where it is. */
export function nextTooltip(t: T, text: string, relPath: string, line: number): string {
  return `${t('Next action: {0}', tooltipText(text))}\n${oneLine(relPath)}:${line}`;
}

export function itemTooltip(t: T, item: Item, relPath: string): string {
  const lines = [tooltipText(item.text), `${oneLine(relPath)}:${item.line}`];
  if (item.flags.length) lines.push(t('Flags: {0}', item.flags.join(', ')));
  if (item.flags.includes('unconfirmed')) lines.push(t('Validate this after /clear before relying on it.'));
  return lines.join('\n');
}

/** A finding row's tooltip, plain text as the row's label: code spans in quotes (`quoted`). */
export function problemTooltip(t: T, c: Check): string {
  const lines = [`${c.system} ${c.id}: ${findingLabel(t, c)}`];
  if (c.path) lines.push(`${oneLine(c.path)}${c.line ? `:${c.line}` : ''}`);
  const hint = checkHintParts(t, c);
  if (hint) lines.push(t('Fix: {0}', quoted(hint)));
  return lines.join('\n');
}
