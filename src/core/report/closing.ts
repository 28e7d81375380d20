/**
 * The closing step of a checkpoint: what each system's own checkpoint tells the user to do once the
 * state is on disk. Every system names its own fresh-context step, in its own words:
 *
 * - S0 (majestic session-checkpoint): first its confirmation (`Checkpoint saved to <ledger>`,
 *   `- Goal: …`, `- State: <n> done, now: …, next: …`), then `/clear` and reload the ledger — a
 *   fresh context with the ledger is preferred over repeated `/compact` cycles.
 * - S1 (session handoff): `checkpoint complete. Run /compact to compress context. Handoff: <handoff>`,
 *   and only when every Phase 4 item is YES (a refused checkpoint never gets here).
 * - S2 (context-kit): `Checkpoint saved. Safe to run /compact now.`
 * - S3 (Groundwork STATE): a fresh session — one line that the handoff is in STATE.md, the literal
 *   `/clear`, then the resume prompt to paste.
 * - S4 (checkpointing skill): prescribes no step of its own, so S2's line.
 *
 * Pure: it formats what the report already holds.
 */
import type { SystemId, SystemReport } from '../model/model';
import { closingLine, FACTS, type FreshContextFacts } from '../systems/facts';
import { firstRealItem, sectionsOf } from '../markdown/items';
import { isPlaceholder } from '../markdown/text';

/** S2's go-signal, verbatim (also S4's, which prescribes none of its own). */
export const CHECKPOINT_SAVED = closingLine('S2');

/** The fresh-context command each system's seed prescribes (the facts table's `freshContext.command`). */
export type FreshContextStep = FreshContextFacts['command'];

/** S0's Step 5 confirmation, as data (the CLI prints it in the seed's three lines). */
export interface S0Confirmation {
  ledger: string;
  goal: string | null;
  done: number;
  now: string | null;
  next: string | null;
}

export interface ClosingStep {
  system: SystemId;
  /** The command that starts the fresh context; the user types it, nothing here runs it. */
  step: FreshContextStep;
  /** The system's home file (the handoff / ledger / STATE the fresh context reads). */
  home: string;
  /** The prompt to paste into the fresh context. */
  resumePrompt: string;
  /** S0 only: its Step 5 confirmation. */
  s0?: S0Confirmation;
  /** The lines in the seed's own wording, English (the extension renders from the fields above). */
  lines: string[];
}

function oneLine(s: string | null | undefined, n = 100): string | null {
  if (!s) return null;
  const t = s.replace(/\s+/g, ' ').trim();
  if (!t || isPlaceholder(t)) return null;
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

/** S0's Step 5 figures from the ledger: the goal, the number of Done items, Now and Next. */
export function s0Confirmation(s: SystemReport): S0Confirmation {
  const doc = s.docs.find((d) => d.relPath === s.home) ?? null;
  const done = sectionsOf(doc, 'done').flatMap((x) => x.items.filter((i) => (i.depth ?? 0) === 0 && !isPlaceholder(i.text))).length;
  return {
    ledger: s.home,
    goal: oneLine(firstRealItem(sectionsOf(doc, 'goal'))?.text),
    done,
    now: oneLine(firstRealItem(sectionsOf(doc, 'now'))?.text),
    next: oneLine(firstRealItem(sectionsOf(doc, 'next'))?.text),
  };
}

/** S0's confirmation in the seed's three lines. */
export function s0ConfirmationLines(c: S0Confirmation): string[] {
  return [`Checkpoint saved to ${c.ledger}`, `- Goal: ${c.goal ?? '(none)'}`, `- State: ${c.done} done, now: ${c.now ?? '(none)'}, next: ${c.next ?? '(none)'}`];
}

/**
 * S2's hand-off, at most four lines: what was persisted, the NEXT line verbatim (so it survives the
 * summary), a bloat warning when the ledger or the plan is over budget, then its go-signal line.
 */
export function s2HandOff(s: SystemReport, goSignal: string): string[] {
  const doc = s.docs.find((d) => d.relPath === s.home) ?? null;
  const count = (key: string) => sectionsOf(doc, key).flatMap((x) => x.items.filter((i) => (i.depth ?? 0) === 0 && !isPlaceholder(i.text))).length;
  const out = [`Ledger ${s.home} persisted: ${count('decisions')} decided, ${count('verified')} verified, ${count('open')} open, ${count('dropped')} dropped.`];
  out.push(`NEXT: ${s.next ? s.next.replace(/\r?\n/g, ' ') : '(none recorded)'}`);
  const bloat = s.checks.find((c) => (c.id === 'budget' || c.id === 'plan-size') && c.status === 'warn');
  if (bloat) out.push(`Bloat: ${bloat.message.replace(/\s+/g, ' ')}`);
  out.push(goSignal);
  return out;
}

/** The closing step of one system whose checkpoint went through. */
export function closingStep(s: SystemReport): ClosingStep {
  const prompt = s.resumePrompt?.trim() || `Read ${s.home} and continue from its next action.`;
  const base = { system: s.id, step: FACTS[s.id].freshContext.command, home: s.home, resumePrompt: prompt };
  const line = closingLine(s.id, s.home);
  switch (s.id) {
    case 'S0': {
      // Step 5's confirmation first, then the fresh context with the ledger reloaded.
      const c = s0Confirmation(s);
      return { ...base, s0: c, lines: [...s0ConfirmationLines(c), line, 'Resume prompt for the fresh context:', `    ${prompt}`] };
    }
    case 'S3':
      // S3 hands control back with: the handoff is written, the literal command, the prompt in a code block.
      return { ...base, lines: [`Handoff written to ${s.home}.`, `Start a fresh session: ${base.step}`, line, '```', prompt, '```'] };
    case 'S2':
      return { ...base, lines: s2HandOff(s, line) };
    default:
      // S1's own line; S4 prescribes none (S2's).
      return { ...base, lines: [line] };
  }
}

/** Each system's closing step, in id order. */
export function closingSteps(systems: readonly SystemReport[]): ClosingStep[] {
  return systems.map(closingStep);
}
