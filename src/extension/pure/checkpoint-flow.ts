/**
 * "Checkpoint now" as one decision: read the folder once, hand that report to the core's
 * `checkpoint` (which decides and writes the marker, or refuses with typed reasons), and re-read
 * once after a write so the views show it. When the only reason to refuse is that several agent
 * sessions wrote recently (of one client or of both), the user picks one, told by its client, and
 * the same report is decided again for it: nothing is evaluated a second time. The manual items are
 * decided on the ticks given for the session the marker is for. vscode-free: the command passes its
 * store, its picker and the core.
 */
import type { CheckpointOutcome } from '../../core/checkpoint/checkpoint';
import type { RecentSession } from '../../core/context/sessions';
import type { WorkspaceReport } from '../../core/model/model';

export interface CheckpointPorts {
  /** Read the folder's state files and run the checks (the one evaluation); null without a report. */
  scan(): Promise<WorkspaceReport | null>;
  /**
   * The report with the manual items ticked for one agent session (null: no session known). A tick
   * belongs to the session it was given for, whichever session the views follow.
   */
  ticked(report: WorkspaceReport, sessionId: string | null): WorkspaceReport;
  /**
   * The core's decision over that report, for a session (undefined: the core finds it or refuses as
   * ambiguous); `reportFor` gives the report with the ticks of the session the marker is for.
   */
  decide(
    report: WorkspaceReport,
    sessionId: string | undefined,
    reportFor: (sessionId: string | null) => WorkspaceReport,
  ): Promise<CheckpointOutcome>;
  /** Ask which session the checkpoint is for; undefined when the user cancels. */
  pickSession(sessions: readonly RecentSession[], windowMinutes: number): Promise<string | undefined>;
  /** Re-read the folder after a write (the one rescan). */
  rescan(): void;
}

export type CheckpointFlowResult =
  | { kind: 'no-report' }
  | { kind: 'cancelled'; outcome: CheckpointOutcome }
  /** `session`: with more than one session live, the one the user picked, which the outcome speaks about. */
  | { kind: 'decided'; outcome: CheckpointOutcome; session?: RecentSession };

export async function checkpointFlow(p: CheckpointPorts, sessionId?: string): Promise<CheckpointFlowResult> {
  const report = await p.scan();
  if (!report) return { kind: 'no-report' };
  // The manual items count for the session the checkpoint is for (named, picked, or the core's), never
  // for the one the views happen to follow.
  const reportFor = (id: string | null) => p.ticked(report, id);
  let outcome = await p.decide(report, sessionId, reportFor);
  const only = outcome.refusals.length === 1 ? outcome.refusals[0] : undefined;
  let session: RecentSession | undefined;
  if (only?.code === 'ambiguous-session' && sessionId === undefined) {
    const picked = await p.pickSession(only.sessions ?? [], only.windowMinutes ?? 0);
    if (picked === undefined) return { kind: 'cancelled', outcome };
    session = only.sessions?.find((s) => s.sessionId === picked);
    outcome = await p.decide(report, picked, reportFor);
  }
  if (outcome.ok) p.rescan();
  return session ? { kind: 'decided', outcome, session } : { kind: 'decided', outcome };
}
