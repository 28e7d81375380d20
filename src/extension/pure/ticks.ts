/**
 * Manual checklist ticks (S1 Phase 4 items). A tick belongs to one agent session and one version of
 * the system's home document: when the file changes (another hash) or another session starts, the
 * ticks no longer apply and the items are open again. vscode-free.
 */
import { labelOf, worstLabel, type SystemId, type SystemReport, type WorkspaceReport } from '../../core/model/model';

/** The key a set of ticks is stored under. */
export function tickKey(sessionId: string | null | undefined, system: SystemId, homeHash: string): string {
  return `${sessionId || '-'}|${system}|${homeHash || '-'}`;
}

/** The hash of a system's home document ('' when it is missing or unreadable). */
export function homeHash(s: SystemReport): string {
  return s.docs.find((d) => d.relPath === s.home)?.hash ?? '';
}

/**
 * The report with the manual checks ticked as `ticked` says, and labels recomputed (the core's
 * `labelOf`/`worstLabel`). The input is not changed.
 */
export function applyTicks(report: WorkspaceReport, ticked: (s: SystemReport) => ReadonlySet<string>): WorkspaceReport {
  const systems = report.systems.map((s) => {
    const set = ticked(s);
    const checks = s.checks.map((c) =>
      c.severity === 'manual' && (c.status === 'manual-open' || c.status === 'manual-done')
        ? { ...c, status: set.has(c.id) ? ('manual-done' as const) : ('manual-open' as const) }
        : c,
    );
    return { ...s, checks, label: labelOf(checks) };
  });
  return { ...report, systems, label: systems.length ? worstLabel(systems.map((s) => s.label)) : report.label };
}

/** The `confirmed` list the core takes (`S1:feedback-stored`), from a report whose ticks are applied. */
export function confirmedOf(report: WorkspaceReport): string[] {
  return report.systems.flatMap((s) =>
    s.checks.filter((c) => c.status === 'manual-done').map((c) => `${s.id}:${c.id}`),
  );
}

/** Keep a tick table small: the newest `max` keys (insertion order). */
export function pruneTicks(table: Record<string, string[]>, max = 64): Record<string, string[]> {
  const keys = Object.keys(table);
  if (keys.length <= max) return table;
  const out: Record<string, string[]> = {};
  for (const k of keys.slice(keys.length - max)) out[k] = table[k];
  return out;
}
