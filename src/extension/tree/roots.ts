/**
 * The roots of one folder: the session's manual items still to tick (asked once for every system, first
 * as the checklist asks them), one node per detected system, in the report's order, then the files
 * present but not read.
 */
import * as vscode from 'vscode';
import { sessionItems, type WorkspaceReport } from '../../core/model/model';
import { overallWhyText, sessionFocus } from '../pure/checklist-model';
import type { FolderState } from '../store';
import type { LedgerNode } from './node';
import { NotReadNode } from './not-read-node';
import { ManualNode, SystemNode } from './system-node';

export function systemNodes(state: FolderState): LedgerNode[] {
  const r = state.report;
  if (!r) return [];
  return [
    ...sessionRow(state, r),
    ...r.systems.map((s) => new SystemNode(state.folder, r, s)),
    ...(r.notRead ?? []).map((n) => new NotReadNode(state.folder, n)),
  ];
}

/** The session's manual items still to tick, once for every system (each system's row leaves them out). */
function sessionRow(state: FolderState, r: WorkspaceReport): LedgerNode[] {
  const open = sessionItems(r).filter((c) => c.status === 'manual-open').length;
  if (!open) return [];
  const t = vscode.l10n.t;
  return [
    new ManualNode(
      `${state.folder.uri.toString()}|session-manual`,
      open,
      state.folder,
      t('This session (every system)'),
      sessionFocus(r),
      {
        about: t(
          "Asked once for this agent session, for every system. A tick is reset when any detected system's state file changes.",
        ),
        // The roots below may all say WORKING: why the overall label (the checklist's) says otherwise.
        why: overallWhyText(t, r) ?? undefined,
      },
    ),
  ];
}

/** Something to show for the folder: a detected system, or a file at a system's path that was not read. */
export function hasRows(state: FolderState): boolean {
  return (state.report?.systems.length ?? 0) > 0 || (state.report?.notRead?.length ?? 0) > 0;
}
