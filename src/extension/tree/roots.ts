/** The roots of one folder: every detected system's documents, home file first; a missing home file too. */
import type { FolderState } from '../store';
import { DocNode } from './docNode';
import type { LedgerNode } from './node';

export function docNodes(state: FolderState): LedgerNode[] {
  const r = state.report;
  if (!r) return [];
  const out: LedgerNode[] = [];
  const base = state.folder.uri.toString();
  for (const s of r.systems) {
    const home = s.docs.find((d) => d.relPath === s.home) ?? null;
    out.push(new DocNode(`${base}|${s.id}|${s.home}`, state.folder, s, s.home, home));
    for (const d of s.docs) {
      if (d.relPath !== s.home) out.push(new DocNode(`${base}|${s.id}|${d.relPath}`, state.folder, s, d.relPath, d));
    }
  }
  return out;
}
