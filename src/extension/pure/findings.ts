/**
 * Findings: the checks that fail or warn, each placed on a file and a line, as the Problems panel,
 * the tree and the CodeLens show them. vscode-free so it is unit tested; the extension wraps the
 * result into `Diagnostic`s and tree rows.
 */
import * as path from 'node:path';
import { statOrNullSync } from '../../core/files/fsread';
import { codeSpans, shownLine } from '../../core/markdown/shown-line';
import { format, hintMsg, render, saidMsg, type Msg } from '../../core/model/messages';
import {
  isSessionItem,
  type Check,
  type Label,
  type StateDoc,
  type SystemReport,
  type WorkspaceReport,
} from '../../core/model/model';
import { fixOffers, type FixOffer } from '../../core/systems/fixes';
import { systemName } from '../../core/systems/facts';
import type { TextPart } from '../../protocol/checklist';
import type { T } from './tree-text';

export type FindingLevel = 'error' | 'warning' | 'information';

export interface Finding {
  check: Check;
  system: SystemReport;
  /**
   * Path relative to the folder of the file the finding stands on: the check's own when it is there,
   * else the system's home file.
   */
  path: string;
  /** 1-based line (1 when the check names none). */
  line: number;
  /**
   * The place the check names when the finding cannot stand there (no such file: S1's missing
   * sidecar, a missing MEMORY.md or .agents.yml): the finding stands on the home file that refers to
   * it, and says this place as the CLI does.
   */
  named?: { path: string; line?: number };
  level: FindingLevel;
}

/** Whether a path relative to the folder is a file an editor opens (a diagnostic needs one to stand on). */
export type IsFile = (relPath: string) => boolean;

/** `IsFile` of the folder at `root` on disk: a regular file there (a link to one counts). */
export function filesIn(root: string): IsFile {
  return (relPath) => !!statOrNullSync(path.join(root, ...relPath.split('/')))?.isFile();
}

/** A check is a finding when it fails or warns; passes, skips and manual items are not. */
export function isFinding(c: Check): boolean {
  return c.status === 'fail' || c.status === 'warn';
}

/** block → error, warn → warning, info → information. */
export function levelOf(c: Check): FindingLevel {
  if (c.severity === 'block') return 'error';
  if (c.severity === 'warn') return 'warning';
  return 'information';
}

const RANK: Record<FindingLevel, number> = { error: 0, warning: 1, information: 2 };

/**
 * Where a finding is shown: the place the core gives it, the check's own file and line, whenever that
 * file is there to open (one of the system's documents, the missing home file `exists` reports, or
 * any other file such as S0's `.agents.yml`). A check that names a file that is not there (S1's
 * missing sidecar) stands on the home file's first line, the document that refers to it, and keeps
 * the place it names; a check that names no file stands on the home file.
 */
function placeOf(s: SystemReport, c: Check, isFile: IsFile): Pick<Finding, 'path' | 'line' | 'named'> {
  const line = c.line && c.line > 0 ? c.line : 1;
  if (!c.path) return { path: s.home, line };
  if (c.id === 'exists' || s.docs.some((d) => d.relPath === c.path) || isFile(c.path)) return { path: c.path, line };
  return { path: s.home, line: 1, named: c.line && c.line > 0 ? { path: c.path, line: c.line } : { path: c.path } };
}

/** One system's findings, errors first, then by file and line. */
export function systemFindings(s: SystemReport, isFile: IsFile): Finding[] {
  return s.checks
    .filter(isFinding)
    .map((c) => ({ check: c, system: s, ...placeOf(s, c, isFile), level: levelOf(c) }))
    .sort((a, b) => RANK[a.level] - RANK[b.level] || (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
}

/** Where a finding is said to be, as the CLI says it: the place its check names. */
export function findingPlace(f: Finding): { path: string; line?: number } {
  return f.named ?? { path: f.path, line: f.line };
}

export function reportFindings(r: WorkspaceReport | undefined, isFile: IsFile): Finding[] {
  return (r?.systems ?? []).flatMap((s) => systemFindings(s, isFile));
}

/**
 * A check's message in the user's language: the core's English template (`messageId`) with its
 * arguments through `t` when the check carries one, else the message as the core wrote it.
 */
export function checkMessage(t: T, c: Check): string {
  return c.messageId ? render(saidMsg({ ...c, args: c.args ?? [] }), t) : c.message;
}

/** An argument of a message in parts: a value, or a text already in parts (a message of its own). */
export type PartArg = string | number | boolean | readonly TextPart[];

/**
 * A message in parts, prose and code, for the surfaces that show code apart from prose: the checklist
 * draws a code span as code, the Problems panel, the tree's rows and the notifications in quotes
 * (`quoted`); the CLI prints the backticks. The code spans are those of the template in the user's
 * language (the tool's own `git rev-parse --short HEAD`), and those an argument holds within itself (a
 * ledger item's `UNCONFIRMED`: ledger text is Markdown). An argument is cut on its own, after the
 * template: its backticks never pair with the template's or another argument's, so a stray one in a
 * file name is shown as written and takes nothing after it into code. An argument inside a template's
 * code span is code, backticks and all. A run of backticks that nothing closes is text, as in Markdown.
 * An argument already in parts (a message inside a message) keeps its parts.
 */
export function messageParts(t: T, id: string, args: ReadonlyArray<PartArg>): TextPart[] {
  const shown = args.map((a) => (typeof a === 'object' ? partsWords(a) : String(a)));
  // The template in the user's language, its placeholders left in it.
  const template = t(id, ...shown.map((_, i) => `{${i}}`));
  const out: TextPart[] = [];
  for (const p of spanParts(template)) {
    if (p.code) {
      add(out, { text: format(p.text, shown), code: true });
      continue;
    }
    let at = 0;
    for (const m of p.text.matchAll(/\{(\d+)\}/g)) {
      const i = Number(m[1]);
      if (i >= shown.length) continue;
      add(out, { text: p.text.slice(at, m.index) });
      const a = args[i];
      for (const q of typeof a === 'object' ? a : spanParts(shown[i])) add(out, q);
      at = m.index + m[0].length;
    }
    add(out, { text: p.text.slice(at) });
  }
  return out;
}

/** `t` in parts: a message of the extension's own as `messageParts` cuts it, its arguments values or texts in parts. */
export type PartsT = (id: string, ...args: PartArg[]) => TextPart[];

/** `t` (vscode.l10n.t) giving parts (see `PartsT`). */
export function partsT(t: T): PartsT {
  return (id, ...args) => messageParts(t, id, args);
}

/** A core message in parts (see `messageParts`), in the user's language: a message it takes as an argument (`(none)`) too. */
export function saidParts(t: T, m: Msg): TextPart[] {
  return messageParts(
    t,
    m.id,
    m.args.map((a, i) => {
      const part = m.parts?.[i];
      return part ? saidParts(t, part) : a;
    }),
  );
}

/**
 * `t` for a surface that renders no Markdown and shows a message as one plain string (a notification,
 * a dialog, a quick fix's title): each code span, of the template or of an argument, in quotes (`quoted`).
 */
export function quotedT(t: T): T {
  return (id, ...args) => quoted(messageParts(t, id, args));
}

/**
 * Ledger text (Markdown) on one line in parts, for the checklist: the words every surface that
 * renders no Markdown shows (`shownLine`), each code span apart.
 */
export function lineParts(text: string): TextPart[] {
  return spanParts(shownLine(text));
}

/** `text` cut at its code spans as Markdown finds them (`codeSpans`): each span's text without its backticks (and one blank each side when both are there). */
export function spanParts(text: string): TextPart[] {
  const out: TextPart[] = [];
  let at = 0;
  for (const [start, end] of codeSpans(text)) {
    let n = 0;
    while (text[start + n] === '`') n++;
    const inner = text.slice(start + n, end - n);
    add(out, { text: text.slice(at, start) });
    add(out, { text: /^ .*[^ ].* $/s.test(inner) ? inner.slice(1, -1) : inner, code: true });
    at = end;
  }
  add(out, { text: text.slice(at) });
  return out;
}

/** Append `p` to `out`: prose joins the prose before it; empty prose is nothing. */
function add(out: TextPart[], p: TextPart): void {
  const last = out[out.length - 1];
  if (p.code) out.push({ text: p.text, code: true });
  else if (p.text && last && !last.code) last.text += p.text;
  else if (p.text) out.push({ text: p.text });
}

/** Texts in parts one after the other, `between` (prose) between each two. */
export function joinParts(texts: ReadonlyArray<readonly TextPart[]>, between: string): TextPart[] {
  const out: TextPart[] = [];
  texts.forEach((x, i) => {
    if (i) add(out, { text: between });
    for (const p of x) add(out, p);
  });
  return out;
}

/**
 * Parts as plain text (the Problems panel, the tree's rows and tooltips, the notifications): each code span in
 * single curly quotes, ‘git rev-parse --short HEAD’. No command, path or flag holds these quotes, so
 * where one starts and ends stays plain when it holds straight ones (‘git commit -m "wip"’), and the
 * messages' own straight quotes ("# Agent State", a quick fix's title) keep their meaning.
 */
export function quoted(parts: readonly TextPart[]): string {
  return parts.map((p) => (p.code ? `‘${p.text}’` : p.text)).join('');
}

/** Parts as words alone (an accessible name): the code spans' text without quotes or backticks. */
export function partsWords(parts: readonly TextPart[]): string {
  return parts.map((p) => p.text).join('');
}

/** `checkMessage` in parts (see `messageParts`). */
export function checkMessageParts(t: T, c: Check): TextPart[] {
  return c.messageId ? saidParts(t, saidMsg({ ...c, args: c.args ?? [] })) : spanParts(c.message);
}

/** `checkHint` in parts, or undefined when there is none (or it is empty). */
export function checkHintParts(t: T, c: Check): TextPart[] | undefined {
  const m = hintMsg(c);
  const parts = m ? saidParts(t, m) : spanParts(c.hint ?? '');
  return parts.length ? parts : undefined;
}

/** Why an S4 compaction was not applied, in the user's language: the heading counts of the composed state. */
export function notCompactedText(
  t: T,
  headings: { agentState: readonly number[]; progressTracker: readonly number[] },
): string {
  return t(
    'Not compacted: the result would have {0} "# Agent State" and {1} "## Progress Tracker" headings; exactly one of each is valid.',
    headings.agentState.length,
    headings.progressTracker.length,
  );
}

/** A check's fix hint in the user's language (see `checkMessage`), or undefined. */
export function checkHint(t: T, c: Check): string | undefined {
  const m = hintMsg(c);
  return m ? render(m, t) : c.hint;
}

export interface Counts {
  block: number;
  warn: number;
  info: number;
  manual: number;
}

/** What a system's checks count, its own manual items among them (the session's are the folder's: counted once, apart). */
export function countsOf(s: SystemReport): Counts {
  const n: Counts = { block: 0, warn: 0, info: 0, manual: 0 };
  for (const c of s.checks) {
    if (isSessionItem(c)) continue;
    if (c.status === 'manual-open') n.manual++;
    else if (isFinding(c)) n[c.severity === 'block' ? 'block' : c.severity === 'warn' ? 'warn' : 'info']++;
  }
  return n;
}

/** `2 blocking · 1 warning · 3 manual` — only the non-zero parts; '' when nothing is open. */
export function countsText(t: T, n: Counts): string {
  const parts: string[] = [];
  if (n.block) parts.push(t('{0} blocking', n.block));
  if (n.warn) parts.push(n.warn === 1 ? t('1 warning') : t('{0} warnings', n.warn));
  if (n.info) parts.push(t('{0} info', n.info));
  if (n.manual) parts.push(t('{0} manual to tick', n.manual));
  return parts.join(' · ');
}

/** A system root's label: the system's name as every surface says it, and its label (`S3 Groundwork — PARTIAL`). */
export function systemLabel(s: Pick<SystemReport, 'id'> & { label: Label }): string {
  return `${systemName(s.id)} — ${s.label}`;
}

/** 0-based line and the character range of its text without leading blanks (for a diagnostic). */
export function lineRange(text: string, line: number): { line: number; start: number; end: number } {
  const lines = text.split('\n');
  const i = Math.min(Math.max(line, 1), Math.max(lines.length, 1)) - 1;
  const l = (lines[i] ?? '').replace(/\r$/, '');
  const start = l.length - l.trimStart().length;
  return { line: i, start: start === l.length ? 0 : start, end: l.length };
}

/**
 * The documents a system shows under "Documents": its home first, then its companions, each once
 * in the whole tree — a file that is another detected system's home is shown under that system.
 */
export function systemDocs(r: WorkspaceReport, s: SystemReport): Array<{ relPath: string; doc: StateDoc | null }> {
  const homes = new Set(r.systems.filter((x) => x !== s).map((x) => x.home));
  const out: Array<{ relPath: string; doc: StateDoc | null }> = [
    { relPath: s.home, doc: s.docs.find((d) => d.relPath === s.home) ?? null },
  ];
  const seen = new Set([s.home]);
  const earlier = r.systems.slice(0, r.systems.indexOf(s)).flatMap((x) => x.docs.map((d) => d.relPath));
  for (const d of s.docs) {
    if (seen.has(d.relPath) || homes.has(d.relPath) || earlier.includes(d.relPath)) continue;
    seen.add(d.relPath);
    out.push({ relPath: d.relPath, doc: d });
  }
  return out;
}

/**
 * The mechanical fixes a finding offers (the quick fixes), as its system's home declares them, with
 * their titles. Only findings on their own file and line qualify: the fix edits that line (or the
 * whole file for compaction and the Log rotation).
 */
export function fixOffersOf(f: Finding): FixOffer[] {
  const c = f.check;
  return fixOffers(f.system.id, {
    check: c,
    path: f.path,
    onHome: f.path === f.system.home,
    onCheckLine: !!c.line && f.path === c.path,
  });
}
