/**
 * A go-signal notification (the closing report of a checkpoint that wrote its marker: each system's
 * closing step, in the words its own home gives, core/report/closing.ts) cannot be taken back: VS Code
 * keeps it in its notification list, and no API closes a message once shown. Its words hold while what
 * they were given on holds: the state files as read (their bytes) with every check's status, the manual
 * ticks of the session the marker is for, and the marker as written. Once any of them changes, a
 * warning follows it, naming it by its time and marker, that says it no longer holds and why, unless
 * it was used: its session was compacted or cleared since (core's goSignalUse), and what changed is the
 * agent's next work. The same rule takes the checklist's result off when its checks change
 * (`resultHolds`). vscode-free (unit tested).
 */
import type { CheckpointOutcome } from '../../core/checkpoint/checkpoint';
import { checksNamed } from '../../core/model/messages';
import { isBlocking, isSessionItem, sessionItems, type SystemId, type WorkspaceReport } from '../../core/model/model';
import { resultBasis, resultHolds, type ResultBasis } from './checklist-model';
import type { TextPart } from '../../protocol/checklist';
import { joinParts, partsT, quoted, reportFindings, saidParts, type Finding, type IsFile } from './findings';
import type { T } from './tree-text';

/** A go-signal given, and what it was given on. */
export interface GoSignal {
  /** One go-signal per folder and marker: a newer one for the same marker takes its place. */
  key: string;
  /** The marker written (`.claude/.checkpoint-ready[.<id>]`). */
  marker: string;
  /** The session whose ticks decided the manual items (null: no session was known). */
  ticksFor: string | null;
  /** The session the marker is for: its own marker's, or the one that signed the shared marker (null: none). */
  session: string | null;
  /** When it was given (ms). */
  at: number;
  /** The marker's hash right after it was written (null: it could not be read back). */
  markerHash: string | null;
  basis: ResultBasis;
}

/**
 * The go-signal an outcome gave, or null: only a checkpoint that wrote its marker with every system's
 * closing step gives one (nothing-to-preserve says what the marker means, which no later edit changes).
 */
export function goSignalOf(
  folder: string,
  o: Pick<CheckpointOutcome, 'kind' | 'marker' | 'report' | 'ticksFor' | 'sessionId' | 'signedBy'>,
  markerHash: string | null,
  at: number,
): GoSignal | null {
  if (o.kind !== 'written' || !o.marker) return null;
  return {
    key: `${folder}|${o.marker}`,
    marker: o.marker,
    ticksFor: o.ticksFor ?? null,
    session: o.sessionId ?? o.signedBy ?? null,
    at,
    markerHash,
    // The decision's report holds the ticks of the session it was for: files, checks and ticks as decided.
    basis: resultBasis(o.report, o.report),
  };
}

/**
 * Whether a go-signal still holds: `report` is the folder's report now with the ticks of the go-signal's
 * session (`ticksFor`), `markerHash` the marker's hash now (null: gone or unreadable). `state`: the state
 * files, a check or a tick changed; `marker`: the marker was changed or removed.
 */
export function goSignalNow(
  g: GoSignal,
  now: { report: WorkspaceReport | undefined; markerHash: string | null },
): 'holds' | 'state' | 'marker' {
  // A marker that could not be read back right after it was written is not compared.
  if (g.markerHash !== null && now.markerHash !== g.markerHash) return 'marker';
  return resultHolds(g.basis, now.report) ? 'holds' : 'state';
}

/** What the warning that follows a go-signal offers: the step that can succeed now. */
export type WithdrawalOffer =
  /** Nothing blocks and every manual item is ticked: Checkpoint now can give the go-signal again. */
  | { kind: 'checkpoint' }
  /** A blocking check fails: Checkpoint now would only be refused; the finding is what to open. */
  | { kind: 'fix'; finding: Finding; count: number }
  /** A manual item is not ticked: the checklist is where to tick it. */
  | { kind: 'tick'; system: SystemId | null; checkId: string; count: number };

/**
 * The warning that follows a go-signal that no longer holds, and what it offers; `time` is when it was
 * given, as the user reads times; `report` is the folder's report now with the ticks of the go-signal's
 * session. Checkpoint now is offered only when it can succeed: while a blocking check fails the warning
 * names it, in the words the checklist and the tree show for it, and offers it to open; while a manual
 * item is not ticked it offers the checklist. Plain text, as a notification shows it: code spans in quotes.
 */
export function withdrawal(
  l10n: T,
  g: Pick<GoSignal, 'marker'>,
  why: 'state' | 'marker',
  time: string,
  report: WorkspaceReport | undefined,
  isFile: IsFile,
): { text: string; offer: WithdrawalOffer } {
  const t = partsT(l10n);
  const head =
    why === 'marker'
      ? t(
          'The checkpoint notification of {0} ({1}) no longer holds: the marker was changed or removed since.',
          time,
          g.marker,
        )
      : t(
          'The checkpoint notification of {0} ({1}) no longer holds: the state files, their checks or the manual ticks changed after it.',
          time,
          g.marker,
        );
  const said = (step: TextPart[]) => quoted(joinParts([head, step], ' '));
  // The two ways to write the marker again, by the names the user finds them under: the command (the
  // palette, the status bar, the CodeLens, this warning's button) and the checklist's button.
  const command = l10n('Checkpoint now');
  const button = l10n('Write marker & copy resume prompt');
  // What Checkpoint now decides on: the systems not switched off by their own configuration.
  const active = report ? { ...report, systems: report.systems.filter((s) => !s.skipped) } : undefined;
  const blocking = reportFindings(active, isFile).filter((f) => isBlocking(f.check));
  if (blocking.length) {
    const first = saidParts(l10n, checksNamed([blocking[0].check]));
    const step =
      blocking.length === 1
        ? t(
            'A blocking check fails now: {0} Fix it, then run "{1}" again (in the checklist: "{2}") before /compact or /clear.',
            first,
            command,
            button,
          )
        : t(
            '{0} blocking checks fail now, the first: {1} Fix them, then run "{2}" again (in the checklist: "{3}") before /compact or /clear.',
            blocking.length,
            first,
            command,
            button,
          );
    return { text: said(step), offer: { kind: 'fix', finding: blocking[0], count: blocking.length } };
  }
  // The session's items once (each system holds them), then each system's own.
  const open: Array<{ system: SystemId | null; checkId: string }> = [
    ...(active ? sessionItems(active) : [])
      .filter((c) => c.status === 'manual-open')
      .map((c) => ({ system: null, checkId: c.id })),
    ...(active?.systems ?? []).flatMap((s) =>
      s.checks
        .filter((c) => c.status === 'manual-open' && !isSessionItem(c))
        .map((c) => ({ system: s.id, checkId: c.id })),
    ),
  ];
  if (open.length) {
    const step =
      open.length === 1
        ? t(
            '1 manual item is not ticked: tick it in the checklist when it is true, then click "{0}" there before /compact or /clear.',
            button,
          )
        : t(
            '{0} manual items are not ticked: tick them in the checklist when they are true, then click "{1}" there before /compact or /clear.',
            open.length,
            button,
          );
    return { text: said(step), offer: { kind: 'tick', ...open[0], count: open.length } };
  }
  return {
    text: said(t('Run "{0}" again (in the checklist: "{1}") before /compact or /clear.', command, button)),
    offer: { kind: 'checkpoint' },
  };
}
