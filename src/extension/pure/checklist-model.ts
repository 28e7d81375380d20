/** The checklist webview's state from a report (vscode-free; the host adds nothing but strings). */
import { compactionsAdviceOf } from '../../core/context/compactions';
import {
  isBlocking,
  isSessionItem,
  sessionItems,
  SYSTEM_IDS,
  type Check,
  type SystemId,
  type SystemReport,
  type WorkspaceReport,
} from '../../core/model/model';
import { systemName } from '../../core/systems/facts';
import type {
  CheckMark,
  ChecklistState,
  ChecklistStrings,
  CheckView,
  RunChecksView,
  WriteResult,
} from '../../protocol/checklist';
import { checkPlace, overallWhy } from '../../core/report/report';
import { oneLine } from '../../core/model/messages';
import { checkHint, checkHintParts, checkMessage, checkMessageParts, lineParts, quoted, saidParts } from './findings';
import type { T } from './tree-text';

const asWritten: T = (m, ...a) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)]));

/**
 * A row's mark: its status, except a finding (it warns) of information severity, which is information
 * on every surface (the tree's info icon, the Problems panel's Information, the CLI's `info`).
 */
export function markOf(c: Pick<Check, 'status' | 'severity'>): CheckMark {
  return c.severity === 'info' && c.status === 'warn' ? 'info' : c.status;
}

/**
 * The words beside a check: what it does now. A check's severity is what it would do if it failed, so it
 * is said only beside a failing blocking check (`fail · blocks the marker`); a pass is `pass`, a warning
 * `warning`, whatever the check's severity.
 */
export function statusWords(
  strings: Pick<ChecklistStrings, 'status' | 'info' | 'failBlocks'>,
  c: Pick<Check, 'status' | 'severity'>,
  mark: CheckMark = markOf(c),
): string {
  if (mark === 'info') return strings.info;
  if (c.status === 'fail' && c.severity === 'block') return strings.failBlocks;
  return strings.status[c.status];
}

/** A check as the page shows it: its message and hint in the user's language (the core's English templates through `t`), the ids along. */
function checkView(c: Check, strings: ChecklistStrings, t: T): CheckView {
  const mark = markOf(c);
  const v: CheckView = {
    id: c.id,
    severity: c.severity,
    status: c.status,
    mark,
    said: statusWords(strings, c, mark),
    message: checkMessage(t, c),
    messageParts: checkMessageParts(t, c),
    messageId: c.messageId,
    args: c.args,
  };
  if (c.path !== undefined) v.path = c.path;
  const place = checkPlace(c);
  if (place !== undefined) v.place = place;
  if (c.line !== undefined) v.line = c.line;
  const hint = checkHint(t, c);
  if (hint !== undefined) v.hint = hint;
  const hintParts = checkHintParts(t, c);
  if (hintParts) v.hintParts = hintParts;
  if (c.hintId !== undefined) v.hintId = c.hintId;
  if (c.hintArgs !== undefined) v.hintArgs = c.hintArgs;
  return v;
}

export function checklistState(
  report: WorkspaceReport | undefined,
  folder: { name: string; uri: string },
  strings: ChecklistStrings,
  flags: {
    busy: boolean;
    trusted: boolean;
    compactions?: number | null;
    session?: string | null;
    /** The agent session whose ticks the report holds. */
    ticksFor?: string | null;
    /** A marker still stands on items the user unticked (`markerStandsText`). */
    markerStands?: string | null;
    runChecks?: RunChecksView | null;
  },
  t: T = asWritten,
): ChecklistState {
  const systems = (report?.systems ?? []).map((s) => ({
    id: s.id,
    name: systemName(s.id),
    label: s.label,
    home: oneLine(s.home),
    // Plain, as every surface that renders no Markdown shows it; its code spans apart, which the page draws as code.
    next: s.next ? lineParts(s.next) : null,
    // The session's manual items are shown once, above the systems, not in each.
    checks: s.checks.filter((c) => !isSessionItem(c)).map((c) => checkView(c, strings, t)),
  }));
  const sessionChecks = report ? sessionItems(report).map((c) => checkView(c, strings, t)) : [];
  const all = [...sessionChecks, ...systems.flatMap((s) => s.checks)];
  // Nothing to vouch for: no system, or every one switched off by its own configuration (S0 without `session.ledger: true`).
  const blocked = all.some(isBlocking) || systems.length === 0 || (report?.systems ?? []).every((x) => !!x.skipped);
  const manualOpen = all.filter((c) => c.status === 'manual-open').length;
  // The advice after N compactions comes from a switched-on system whose seed gives one (S0's).
  const advice = compactionsAdviceOf((report?.systems ?? []).filter((x) => !x.skipped).map((x) => x.id));
  const due = advice !== null && (flags.compactions ?? 0) >= advice.at;
  return {
    folder: oneLine(folder.name),
    folderUri: folder.uri,
    overall: report && report.systems.length ? report.label : null,
    // The core's one reason the overall label differs from the systems', said where both are shown.
    overallWhy: overallWhyText(t, report),
    sessionChecks,
    systems,
    blocked,
    manualOpen,
    // The go-signal needs every manual item ticked (any NO blocks it) and nothing blocking.
    canWrite: !blocked && manualOpen === 0 && !flags.busy && flags.trusted,
    compactionAdvice: due ? (flags.compactions as number) : null,
    // The repository's own code runs only on a click, and never in Restricted Mode.
    runChecks: flags.trusted ? (flags.runChecks ?? null) : null,
    session: flags.session ?? null,
    ticksFor: flags.ticksFor ?? null,
    markerStands: flags.markerStands ?? null,
    busy: flags.busy,
    trusted: flags.trusted,
    strings: due && advice ? { ...strings, compactions: t(advice.said.id, '{0}') } : strings,
  };
}

/** Why the overall label is worse than every system's (core `overallWhy`), in the user's language, or null. */
export function overallWhyText(t: T, report: WorkspaceReport | undefined): string | null {
  const why = report ? overallWhy(report) : null;
  return why ? quoted(saidParts(t, why)) : null;
}

/**
 * What a write's result under the checklist's button was given on: the state files as they read (each
 * document's hash) with every check's status, from the report the decision took; and the manual ticks
 * as the checklist showed them then (the ticks of the session it follows, which may be another session
 * than the one decided for).
 */
export interface ResultBasis {
  files: string;
  ticks: string;
}

/** Each check's id and status: of the manual items (`manual`), or of every other check. */
function statusesOf(s: SystemReport, manual: boolean): Array<[string, string]> {
  return s.checks.filter((c) => (c.severity === 'manual') === manual).map((c) => [c.id, c.status]);
}

/** Each system, its documents' contents and its checks' statuses, manual items left out. */
function filesOf(report: WorkspaceReport | undefined): string {
  return JSON.stringify(
    (report?.systems ?? []).map((s) => [
      s.id,
      s.skipped ?? null,
      s.docs.map((d) => [d.relPath, d.hash]),
      statusesOf(s, false),
    ]),
  );
}

/** The manual items' ticks. */
function ticksOf(report: WorkspaceReport | undefined): string {
  return JSON.stringify((report?.systems ?? []).map((s) => [s.id, statusesOf(s, true)]));
}

/** The basis of a result decided on `decided` (the checklist's own report when there is none) and shown over `shown`. */
export function resultBasis(decided: WorkspaceReport | undefined, shown: WorkspaceReport | undefined): ResultBasis {
  return { files: filesOf(decided ?? shown), ticks: ticksOf(shown) };
}

/**
 * A result holds while the checklist shows what it was given on: the same state files, every check
 * as it was, the same ticks. Once any of them changed it speaks of a state that is gone (a go-signal
 * then could be one the guard now refuses), so it is said to be past and its words are not shown.
 */
export function resultHolds(basis: ResultBasis, shown: WorkspaceReport | undefined): boolean {
  return filesOf(shown) === basis.files && ticksOf(shown) === basis.ticks;
}

/** The result that replaces one that no longer holds. */
export function pastResult(t: T): WriteResult {
  return {
    kind: 'past',
    parts: [
      {
        text: t(
          'This result no longer holds: the checks changed after it was given. The checklist above shows them as they are now.',
        ),
      },
    ],
  };
}

/** A check the checklist opens on: scrolled to, marked and focused (its checkbox for a manual item); `system` null: one of the session's items. */
export interface ChecklistFocus {
  system: SystemId | null;
  checkId: string;
}

/** The first of `manual` not ticked yet, else the first of them, as a focus; undefined when there is none. */
function firstToTick(system: SystemId | null, manual: readonly Check[]): ChecklistFocus | undefined {
  const first = manual.find((c) => c.status === 'manual-open') ?? manual[0];
  return first ? { system, checkId: first.id } : undefined;
}

/**
 * The manual item the tree's "manual items to tick" row of a system opens the checklist on: the
 * system's own first one not ticked yet, in the order the checklist shows them (STATUS_ORDER keeps
 * manual items in the report's order), else its first own manual item; undefined when it has none.
 * The session's items are not the system's: their row is the folder's (`sessionFocus`).
 */
export function manualFocus(s: Pick<SystemReport, 'id' | 'checks'>): ChecklistFocus | undefined {
  return firstToTick(
    s.id,
    s.checks.filter((c) => c.severity === 'manual' && !isSessionItem(c)),
  );
}

/** The session's item the tree's row of them opens the checklist on: the first not ticked yet, else the first. */
export function sessionFocus(report: Pick<WorkspaceReport, 'systems'>): ChecklistFocus | undefined {
  return firstToTick(null, sessionItems(report));
}

/**
 * The arguments of a manual row's click, Open checklist: the folder, then the item to open on. A
 * click opens the checklist there, not at its top.
 */
export function manualRowArguments(folder: unknown, focus: ChecklistFocus | undefined): unknown[] {
  return focus ? [folder, focus] : [folder];
}

/** The check an Open checklist command's second argument names, when it is one (a command takes whatever its caller passes). */
export function focusOfArgument(x: unknown): ChecklistFocus | undefined {
  if (!x || typeof x !== 'object') return undefined;
  const m = x as Record<string, unknown>;
  return (m.system === null ||
    (typeof m.system === 'string' && (SYSTEM_IDS as readonly string[]).includes(m.system))) &&
    typeof m.checkId === 'string' &&
    m.checkId.length > 0 &&
    m.checkId.length <= 256
    ? { system: m.system as SystemId | null, checkId: m.checkId }
    : undefined;
}

/** `08:42:05`: the local clock to the second, so a second Re-check within the same minute reads anew. */
function clockSeconds(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * What the checklist says after Re-check read the folder again at `at` (ms): that nothing changed when
 * the page would show the same as before (`before`, `after`: the states posted before and after the
 * read), else that what changed is shown. A press that changes nothing still says it was done.
 */
export function recheckedText(
  t: T,
  before: ChecklistState | undefined,
  after: ChecklistState | undefined,
  at: number,
): string {
  const same = !!before && !!after && JSON.stringify(before) === JSON.stringify(after);
  return same
    ? t('Checked again at {0}: nothing changed.', clockSeconds(at))
    : t('Checked again at {0}: the checklist above shows what changed.', clockSeconds(at));
}
