/**
 * Checkpoint now: one evaluation, one decision, one write, one rescan (`checkpointFlow`). The core's
 * `checkpoint` decides on the report just read; this command only renders its typed outcome:
 * blocking checks → the checklist on the first failure; manual items open → the checklist on the
 * first; several agent sessions wrote recently → ask which one (naming the terminal that runs each
 * where it can tell) and decide the same report for it; the manual items count with the ticks given
 * for the session the marker is for, not the one the views follow; nothing detected → offer a
 * starter file; written → the resume prompt on the clipboard and the closing in short: the step to
 * type and for which systems, whether anything stops /compact (each system's own closing words are in
 * the log and the checklist's result). It never runs /compact or /clear.
 */
import * as vscode from 'vscode';
import { messageParts, quotedT } from '../pure/findings';
import { isSessionItem, type WorkspaceReport } from '../../core/model/model';
import { readSettings } from '../config';
import { checkpointFlow } from '../pure/checkpoint-flow';
import { checkpointButtons, outcomeMessage, refusalButtons, writtenButtons } from '../pure/checkpoint-text';
import { errorText } from '../pure/error-text';
import type { Services } from '../services';
import { pinnedName, switchedSentence, ticksAfter } from '../pure/checklist-ticks';
import { sessionName } from '../pure/session-pick';
import { findAgentTerminal, pickSession, terminalsOfSessions } from '../terminals';
import { requireTrust } from '../trust';
import { pickFolder } from './pick';

export const id = 'sessionLedger.checkpointNow';

/** What one run of the command did: evaluations up to its decision (one), decisions, marker writes, rescans. */
export interface CheckpointRunCounts {
  evaluations: number;
  decisions: number;
  writes: number;
  rescans: number;
}

let lastRun: CheckpointRunCounts | undefined;

/** The counts of the last finished run (the extension's API gives them to its integration test). */
export function lastCheckpointRun(): CheckpointRunCounts | undefined {
  return lastRun;
}

/** Arguments the checklist's action passes. */
export interface CheckpointArgs {
  folderUri?: vscode.Uri;
  /** From the checklist's write button. */
  fromChecklist?: boolean;
  /** The agent session the checkpoint is for (skips the question when several wrote recently). */
  sessionId?: string;
}

function isArgs(a: unknown): a is CheckpointArgs {
  return !!a && typeof a === 'object' && ('fromChecklist' in a || 'folderUri' in a);
}

/** A state file older than the latest work (the `fresh` check warns). */
export function isStale(report: WorkspaceReport): boolean {
  return report.systems.some((x) => x.checks.some((c) => c.id === 'fresh' && c.status === 'warn'));
}

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  // Plain words for the notifications (code spans in quotes); the outcome's own text is in parts, for the checklist too.
  const t = quotedT(vscode.l10n.t);
  const args = isArgs(arg) ? arg : {};
  await s.store.ready;
  const state = await pickFolder(s, args.folderUri ?? arg, { withSystems: true });
  if (!state) {
    void vscode.window.showInformationMessage(t('Open a folder first.'));
    return;
  }
  const settings = readSettings(state.folder.uri);
  const root = state.folder.uri.fsPath;
  const create = t('Create starter file');
  const offerStarter = async (text: string) => {
    const pick = await vscode.window.showWarningMessage(text, create);
    if (pick === create) await vscode.commands.executeCommand('sessionLedger.createStarterFile', state.folder.uri);
  };

  const { evaluationCount } = await import('../../core/report/evaluate');
  const startedAt = evaluationCount();
  const counts: CheckpointRunCounts = { evaluations: 0, decisions: 0, writes: 0, rescans: 0 };
  // The go-signals given before in this folder are judged again once this run has said its own.
  const release = s.goSignals.hold(state.folder);
  let flow;
  try {
    flow = await checkpointFlow(
      {
        // Fresh checks: the agent may have written the files a moment ago. The report as read: the views'
        // ticks are the followed session's, and the decision takes those of the session it is for.
        scan: async () => {
          await s.store.scan(state.folder);
          return s.store.folder(state.folder.uri)?.raw ?? null;
        },
        ticked: (report, sessionId) => s.store.withTicksOf(report, sessionId),
        decide: async (report, sessionId, reportFor) => {
          s.checklist.setBusy(true);
          try {
            const { checkpoint } = await import('../../core/checkpoint/checkpoint');
            counts.decisions++;
            const o = await checkpoint(root, {
              report,
              reportFor,
              claudeHome: settings.claudeHome,
              codexHome: settings.codexHome,
              env: process.env,
              sessionId,
              sessionWindowMinutes: settings.sessionWindowMinutes ?? undefined,
            });
            // Every evaluation since the click, up to this decision: the scan's, and none inside the decision.
            counts.evaluations = evaluationCount() - startedAt;
            if (o.ok) counts.writes++;
            return o;
          } finally {
            s.checklist.setBusy(false);
          }
        },
        pickSession: async (sessions, windowMinutes) => (await pickSession(root, sessions, windowMinutes))?.sessionId,
        rescan: () => {
          counts.rescans++;
          void s.store.scan(state.folder);
        },
      },
      args.sessionId,
    );
    lastRun = counts;
    // A go-signal is followed from now on: once what it was given on changes, a warning follows it.
    if (flow.kind === 'decided') await s.goSignals.given(state.folder, flow.outcome);
  } catch (err) {
    s.log.error(`Checkpoint failed: ${(err as Error)?.message ?? String(err)}`);
    void vscode.window.showErrorMessage(t('Checkpoint failed: {0}', errorText(t, err)));
    if (args.fromChecklist)
      s.checklist.showResult({
        kind: 'failed',
        parts: messageParts(vscode.l10n.t, 'Checkpoint failed: {0}', [errorText(vscode.l10n.t, err)]),
      });
    return;
  } finally {
    release();
  }
  if (flow.kind === 'no-report') {
    await offerStarter(t('No agent state file detected in {0}: there is nothing to checkpoint.', state.folder.name));
    return;
  }
  if (flow.kind === 'cancelled') return;
  const res = flow.outcome;
  for (const l of res.lines) if (l.trim()) s.log.info(l);
  // More than one session live: the message names the client and session it speaks about.
  const whose = flow.session
    ? sessionName(
        t,
        flow.session,
        (await terminalsOfSessions(root, [flow.session]).catch(() => undefined))?.get(flow.session.sessionId),
      )
    : undefined;
  // Manual items refused for another session than the checklist follows: its boxes become that
  // session's (a tick counts only for the session it was given for), and the refusal says so.
  const after = ticksAfter(res, s.store.session());
  const pinName =
    after.kind === 'pin' ? pinnedName(t, after.sessionId, res.live ?? [], flow.session?.agent ?? res.sessionAgent) : '';
  const switched = switchedSentence(t, after, pinName);
  // The notification's words fit what VS Code shows of it; the checklist's result says every sentence.
  const msg = outcomeMessage(res, vscode.l10n.t, {
    head: whose ? `${whose}: ` : '',
    tail: switched ? ` ${switched}` : '',
  });
  const code = (c: string) => res.refusals.find((r) => r.code === c);
  const refusedOnChecks = res.kind === 'refused' && !code('nothing-detected');
  const blocking = code('blocking-checks')?.checks ?? [];
  const manual = code('manual-unconfirmed')?.checks ?? [];
  const first = blocking[0] ?? manual[0];
  // The checklist shows the boxes the refusal speaks of before the result is put under its button.
  if (refusedOnChecks)
    s.checklist.show(
      state,
      // A session's item is in no system's part of the checklist: its own, above them.
      first ? { system: isSessionItem(first) ? null : first.system, checkId: first.id } : undefined,
      after.kind === 'pin'
        ? { sessionId: after.sessionId, name: pinName }
        : after.kind === 'follow'
          ? 'follow'
          : undefined,
    );
  // The checklist's button started it: the outcome also shows there, under the button, with the focus.
  if (args.fromChecklist) s.checklist.showResult({ kind: res.kind, parts: msg.full }, res.report);
  const labels = checkpointButtons(t);
  const { ask, openList, copy, showLog } = labels;
  if (res.kind === 'refused') {
    if (!refusedOnChecks) {
      await offerStarter(msg.text);
      return;
    }
    const agent = blocking.length || isStale(res.report) ? await findAgentTerminal() : undefined;
    const buttons = refusalButtons(labels, { blocking: blocking.length > 0, agent: !!agent });
    const pick = await vscode.window.showWarningMessage(msg.text, ...buttons);
    if (pick === ask) await vscode.commands.executeCommand('sessionLedger.askAgentToCheckpoint', state.folder.uri);
    else if (pick === openList) s.checklist.show(state);
    return;
  }
  if (res.kind === 'skipped') {
    void vscode.window.showInformationMessage(msg.text);
    return;
  }
  // On the clipboard before the notification says so.
  if (res.resumePrompt) await vscode.env.clipboard.writeText(res.resumePrompt);
  const agent = isStale(res.report) ? await findAgentTerminal() : undefined;
  // Systems whose closing words the notification leaves to the log.
  const buttons = writtenButtons(labels, { inLog: msg.inLog.length > 0, agent: !!agent, copied: !!res.resumePrompt });
  const pick = await vscode.window.showInformationMessage(msg.text, ...buttons);
  if (pick === showLog) await vscode.commands.executeCommand('sessionLedger.showLog');
  else if (pick === copy) {
    await vscode.env.clipboard.writeText(res.resumePrompt);
    void vscode.window.showInformationMessage(t('Resume prompt copied: {0}', res.resumePrompt.split('\n')[0]));
  } else if (pick === openList) s.checklist.show(state);
  else if (pick === ask) await vscode.commands.executeCommand('sessionLedger.askAgentToCheckpoint', state.folder.uri);
}
