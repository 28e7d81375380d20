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
import type { WorkspaceReport } from '../../core/model/model';
import { resultBasis, resultHolds, type ResultBasis } from './checklist-model';
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

/** The warning that follows a go-signal that no longer holds; `time` is when it was given, as the user reads times. */
export function withdrawalText(t: T, g: Pick<GoSignal, 'marker'>, why: 'state' | 'marker', time: string): string {
  return why === 'marker'
    ? t(
        'The checkpoint notification of {0} ({1}) no longer holds: the marker was changed or removed since. Run Checkpoint now again before /compact or /clear.',
        time,
        g.marker,
      )
    : t(
        'The checkpoint notification of {0} ({1}) no longer holds: the state files, their checks or the manual ticks changed after it. Run Checkpoint now again before /compact or /clear.',
        time,
        g.marker,
      );
}
