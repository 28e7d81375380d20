/**
 * Checkpoint now: run the checks; BROKEN → the checklist on the failures; manual items open → the
 * checklist; several agent sessions of the folder wrote recently → ask which one (naming the
 * terminal that runs each where it can tell); then the core `checkpoint` writes the marker, the
 * resume prompt goes to the clipboard and the notification says each system's closing step, all
 * rendered from the typed outcome. It never runs /compact or /clear.
 */
import * as vscode from 'vscode';
import type { CheckpointOutcome } from '../../core/checkpoint/checkpoint';
import { isBlocking, type Check, type WorkspaceReport } from '../../core/model/model';
import { readSettings } from '../config';
import { outcomeMessage } from '../pure/checkpoint-text';
import { errorText } from '../pure/error-text';
import { confirmedOf } from '../pure/ticks';
import type { Services } from '../services';
import { findAgentTerminal, pickSession } from '../terminals';
import { requireTrust } from '../trust';
import { pickFolder } from './pick';

export const id = 'sessionLedger.checkpointNow';

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
  const t = vscode.l10n.t;
  const args = isArgs(arg) ? arg : {};
  await s.store.ready;
  const state = await pickFolder(s, args.folderUri ?? arg, { withSystems: true });
  if (!state) {
    void vscode.window.showInformationMessage(t('Open a folder first.'));
    return;
  }
  // Fresh checks: the agent may have written the files a moment ago.
  await s.store.scan(state.folder);
  const report = s.store.report(state.folder.uri);
  const active = report?.systems.filter((x) => !x.skipped) ?? [];
  if (!report || report.systems.length === 0) {
    const create = t('Create starter file');
    const pick = await vscode.window.showWarningMessage(t('No agent state file detected in {0}: there is nothing to checkpoint.', state.folder.name), create);
    if (pick === create) await vscode.commands.executeCommand('sessionLedger.createStarterFile', state.folder.uri);
    return;
  }
  const all: Check[] = active.flatMap((x) => x.checks);
  const blocking = all.filter(isBlocking);
  const agent = blocking.length || isStale(report) ? await findAgentTerminal() : undefined;
  const ask = t('Ask the agent to checkpoint');
  const openList = t('Open checklist');

  if (blocking.length) {
    s.checklist.show(state, { system: blocking[0].system, checkId: blocking[0].id });
    const buttons = agent ? [ask, openList] : [openList];
    const pick = await vscode.window.showWarningMessage(
      t('Checkpoint blocked: {0} blocking check(s) failed ({1}). Nothing was written.', blocking.length, [...new Set(blocking.map((c) => `${c.system} ${c.id}`))].join(', ')),
      ...buttons,
    );
    if (pick === ask) await vscode.commands.executeCommand('sessionLedger.askAgentToCheckpoint', state.folder.uri);
    else if (pick === openList) s.checklist.show(state);
    return;
  }
  // Every manual item must be YES (S1 Invariant 3): they are ticked in the checklist, nowhere else.
  const manual = all.filter((c) => c.status === 'manual-open');
  if (manual.length) {
    s.checklist.show(state, { system: manual[0].system, checkId: manual[0].id });
    void vscode.window.showInformationMessage(t('Tick the manual items in the checklist when they are true, then write the marker.'));
    return;
  }

  const settings = readSettings(state.folder.uri);
  const root = state.folder.uri.fsPath;
  let sessionId = args.sessionId;
  if (sessionId === undefined && active.length) {
    const { ambiguous, recentSessions, sessionWindowMinutes } = await import('../../core/context/sessions');
    const windowMinutes = settings.sessionWindowMinutes ?? sessionWindowMinutes(process.env);
    const recent = await recentSessions(root, { claudeHome: settings.claudeHome, codexHome: settings.codexHome, env: process.env, windowMinutes });
    if (ambiguous(recent)) {
      const picked = await pickSession(root, recent, windowMinutes);
      if (!picked) return;
      sessionId = picked.sessionId;
    }
  }

  s.checklist.setBusy(true);
  let res: CheckpointOutcome;
  try {
    const { checkpoint } = await import('../../core/checkpoint/checkpoint');
    res = await checkpoint(root, {
      confirmed: confirmedOf(report),
      claudeHome: settings.claudeHome,
      codexHome: settings.codexHome,
      env: process.env,
      sessionId,
      sessionWindowMinutes: settings.sessionWindowMinutes ?? undefined,
    });
  } catch (err) {
    s.log.error(`Checkpoint failed: ${(err as Error)?.message ?? String(err)}`);
    void vscode.window.showErrorMessage(t('Checkpoint failed: {0}', errorText(t, err)));
    return;
  } finally {
    s.checklist.setBusy(false);
  }
  for (const l of res.lines) if (l.trim()) s.log.info(l);
  const msg = outcomeMessage(res, t);
  if (res.kind === 'refused' || res.kind === 'skipped') {
    if (res.kind === 'refused') s.checklist.show(state);
    const show = res.kind === 'refused' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(msg.text);
    return;
  }
  if (res.resumePrompt) await vscode.env.clipboard.writeText(res.resumePrompt);
  void s.store.scan(state.folder);
  const copy = t('Copy resume prompt');
  const buttons = res.resumePrompt ? [copy, openList] : [openList];
  if (isStale(res.report) && agent) buttons.push(ask);
  const pick = await vscode.window.showInformationMessage(msg.text, ...buttons);
  if (pick === copy) {
    await vscode.env.clipboard.writeText(res.resumePrompt);
    void vscode.window.showInformationMessage(t('Resume prompt copied: {0}', res.resumePrompt.split('\n')[0]));
  } else if (pick === openList) s.checklist.show(state);
  else if (pick === ask) await vscode.commands.executeCommand('sessionLedger.askAgentToCheckpoint', state.folder.uri);
}
