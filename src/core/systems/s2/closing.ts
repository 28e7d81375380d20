/**
 * S2's closing step (context-kit): its hand-off, then its go-signal `Checkpoint saved. Safe to run
 * /compact now.`
 */
import { t } from '../../model/messages';
import type { SystemReport } from '../../model/model';
import { sectionsOf } from '../../markdown/items';
import { isExplicitNone, isPlaceholder } from '../../markdown/text';
import type { ClosingOf } from '../../report/closing';

/**
 * S2's hand-off, at most four lines: what was persisted, the NEXT line verbatim (so it survives the
 * summary), a bloat warning when the ledger or the plan is over budget, then its go-signal line.
 */
export function s2HandOff(s: SystemReport, goSignal: string): string[] {
  const doc = s.docs.find((d) => d.relPath === s.home) ?? null;
  // A section that says it holds nothing ("None", "N/A") holds no item, as pending-recorded says.
  const count = (key: string) =>
    sectionsOf(doc, key).flatMap((x) =>
      x.items.filter((i) => (i.depth ?? 0) === 0 && !isPlaceholder(i.text) && !isExplicitNone(i.text)),
    ).length;
  const out = [
    `Ledger ${s.home} persisted: ${count('decisions')} decided, ${count('verified')} verified, ${count('open')} open, ${count('dropped')} dropped.`,
  ];
  out.push(`NEXT: ${s.next ? s.next.replace(/\r?\n/g, ' ') : '(none recorded)'}`);
  const bloat = s.checks.find((c) => (c.id === 'budget' || c.id === 'plan-size') && c.status === 'warn');
  if (bloat) out.push(`Bloat: ${bloat.message.replace(/\s+/g, ' ')}`);
  out.push(goSignal);
  return out;
}

/** S2's go-signal as a notification (also the one of a system whose seed prescribes no step). */
export function compactNowNotice() {
  return t('Checkpoint saved. Safe to run /compact now.');
}

export const closingS2: ClosingOf = (s, base) => ({ lines: s2HandOff(s, base.line), notice: compactNowNotice() });
