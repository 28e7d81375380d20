/**
 * Manual checklist ticks (S1 Phase 4 items). A tick belongs to one agent session and one version of
 * the state files it speaks about: the session's items (`feedback-stored`, `last-request`, asked once
 * for every system) to every detected system's home document, a system's own item (S1's
 * `state-reviewed`) to its system's. When such a file changes (another hash) or another session
 * starts, the ticks no longer apply and the items are open again. vscode-free.
 */
import { createHash } from 'node:crypto';
import {
  confirmedItems,
  isSessionItem,
  type SystemId,
  type SystemReport,
  type WorkspaceReport,
} from '../../core/model/model';

export { applyTicks, type Ticked } from '../../core/report/ticks';

/** What a set of ticks is for: the session's items (`session`, every system's), or one system's own items. */
export type TickScope = SystemId | 'session';

/** The key a set of ticks is stored under. */
export function tickKey(sessionId: string | null | undefined, scope: TickScope, hash: string): string {
  return `${sessionId || '-'}|${scope}|${hash || '-'}`;
}

/** The hash of a system's home document ('' when it is missing or unreadable). */
export function homeHash(s: SystemReport): string {
  return s.docs.find((d) => d.relPath === s.home)?.hash ?? '';
}

/**
 * The version the session's items' ticks hold for: every detected system's home document, so that a
 * change to any of them opens the items again ('' when no system is detected).
 */
export function stateHash(report: Pick<WorkspaceReport, 'systems'>): string {
  if (!report.systems.length) return '';
  const h = createHash('sha256');
  for (const s of report.systems) h.update(`${s.id}\0${s.home}\0${homeHash(s)}\n`);
  return h.digest('hex');
}

/** Where a manual check's tick is kept: its scope and the version of the files it holds for. */
export function tickPlace(
  report: Pick<WorkspaceReport, 'systems'>,
  s: SystemReport,
  checkId: string,
): [TickScope, string] {
  const session = isSessionItem({ id: checkId, severity: 'manual' });
  return session ? ['session', stateHash(report)] : [s.id, homeHash(s)];
}

/**
 * The `confirmed` list the core takes, from a report whose ticks are applied: each session item once,
 * bare (`feedback-stored`), each system's own as `S1:state-reviewed`.
 */
export const confirmedOf = (report: WorkspaceReport): string[] => confirmedItems(report);

/** Keep a tick table small: the newest `max` keys (insertion order). */
export function pruneTicks(table: Record<string, string[]>, max = 64): Record<string, string[]> {
  const keys = Object.keys(table);
  if (keys.length <= max) return table;
  const out: Record<string, string[]> = {};
  for (const k of keys.slice(keys.length - max)) out[k] = table[k];
  return out;
}
