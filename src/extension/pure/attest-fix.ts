/**
 * The quick fix "Attest the handoff" as one decision, vscode-free: the core plans the S1 sidecar and
 * writes it (atomically, under its write lock, refused when the sidecar or the handoff changed since
 * the plan). The sidecar is one of the tool's own files, so it is never written through a link: a
 * link at it, at its lock or on their way is refused by that write before the user is asked
 * anything. A sidecar that holds another hash (TAMPERED) is written only once the user confirms.
 */
import { applyAttest, planAttest, type AttestPlan } from '../../core/systems/s1/attest';

export type AttestFixResult =
  | { kind: 'no-handoff' }
  /** `unchanged`: the sidecar already holds the hash as the seed writes it. */
  | { kind: 'unchanged' | 'cancelled' | 'written'; plan: AttestPlan };

/**
 * Attest `home` (relative to `root`) as it is now; `confirm` is asked before a TAMPERED sidecar is
 * replaced. Throws WriteRefused when the core refuses the write (nothing is written then).
 */
export async function attestFix(
  root: string,
  home: string,
  confirm: (plan: AttestPlan) => Promise<boolean>,
): Promise<AttestFixResult> {
  const plan = await planAttest(root, home);
  if (!plan) return { kind: 'no-handoff' };
  if (!plan.changed) return { kind: 'unchanged', plan };
  // What the write refuses (a link, a lock that is no file) is refused before any question: nothing to confirm then.
  if (!plan.refusal && plan.status === 'TAMPERED' && !(await confirm(plan))) return { kind: 'cancelled', plan };
  return { kind: 'written', plan: await applyAttest(plan) };
}
