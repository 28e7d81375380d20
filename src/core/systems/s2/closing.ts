/**
 * S2's closing step (context-kit): its hand-off, then its go-signal `Checkpoint saved. Safe to run
 * /compact now.` In S2 the checkpoint's one side-effect on disk is the marker, written after the
 * content check; the tool's checkpoint is that check and that marker, so the go-signal is true when
 * the tool says it. The ledger is the agent's: the hand-off says what it holds, not that it was written.
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
    `Ledger ${s.home} checked: ${count('decisions')} decided, ${count('verified')} verified, ${count('open')} open, ${count('dropped')} dropped.`,
  ];
  out.push(`NEXT: ${s.next ? s.next.replace(/\r?\n/g, ' ') : '(none recorded)'}`);
  const bloat = s.checks.find((c) => (c.id === 'budget' || c.id === 'plan-size') && c.status === 'warn');
  if (bloat) out.push(`Bloat: ${bloat.message.replace(/\s+/g, ' ')}`);
  out.push(goSignal);
  return out;
}

/** S2's go-signal, the last line of its hand-off (also of S4's report, whose seed names no step of its own). */
export function goSignal() {
  return t('Checkpoint saved. Safe to run /compact now.');
}

export const closingS2: ClosingOf = (s) => {
  const notice = goSignal();
  return { lines: s2HandOff(s, notice.text), notice };
};
