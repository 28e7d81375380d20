/** The roots of one folder: one node per detected system, in the report's order. */
import type { FolderState } from '../store';
import type { LedgerNode } from './node';
import { SystemNode } from './systemNode';

export function systemNodes(state: FolderState): LedgerNode[] {
  const r = state.report;
  if (!r) return [];
  return r.systems.map((s) => new SystemNode(state.folder, r, s));
}
