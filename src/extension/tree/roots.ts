/** The roots of one folder: one node per detected system, in the report's order, then the files present but not read. */
import type { FolderState } from '../store';
import type { LedgerNode } from './node';
import { NotReadNode } from './not-read-node';
import { SystemNode } from './system-node';

export function systemNodes(state: FolderState): LedgerNode[] {
  const r = state.report;
  if (!r) return [];
  return [
    ...r.systems.map((s) => new SystemNode(state.folder, r, s)),
    ...(r.notRead ?? []).map((n) => new NotReadNode(state.folder, n)),
  ];
}

/** Something to show for the folder: a detected system, or a file at a system's path that was not read. */
export function hasRows(state: FolderState): boolean {
  return (state.report?.systems.length ?? 0) > 0 || (state.report?.notRead?.length ?? 0) > 0;
}
