/**
 * A report with manual items ticked: the one way every surface shows what was confirmed (the
 * checklist's ticks, a checkpoint marker's confirmed items), with labels recomputed. vscode-free.
 */
import { isSessionItem, labelOf, overallLabel, type SystemReport, type WorkspaceReport } from '../model/model';

/** The ticks given: those of the session's items, and each system's own. */
export interface Ticked {
  session: ReadonlySet<string>;
  system(s: SystemReport): ReadonlySet<string>;
}

/**
 * The report with the manual checks ticked as `ticked` says (the session's items alike in every
 * system), and labels recomputed (the core's `labelOf`/`overallLabel`). The input is not changed.
 */
export function applyTicks(
  report: WorkspaceReport,
  ticked: Ticked | ((s: SystemReport) => ReadonlySet<string>),
): WorkspaceReport {
  // A function gives each system's ticks, the session's items among them.
  const given: Ticked = typeof ticked === 'function' ? { session: new Set(), system: ticked } : ticked;
  const systems = report.systems.map((s) => {
    const own = given.system(s);
    const checks = s.checks.map((c) =>
      c.severity === 'manual' && (c.status === 'manual-open' || c.status === 'manual-done')
        ? {
            ...c,
            status: (isSessionItem(c) && typeof ticked !== 'function' ? given.session : own).has(c.id)
              ? ('manual-done' as const)
              : ('manual-open' as const),
          }
        : c,
    );
    return { ...s, checks, label: labelOf(checks) };
  });
  return { ...report, systems, label: systems.length ? overallLabel(systems) : report.label };
}
