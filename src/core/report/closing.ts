/**
 * The closing step of a checkpoint: what each system's own checkpoint tells the user to do once the
 * state is on disk. Every system names its own fresh-context step in its own words, in its home
 * (`systems/<sN>/closing.ts`); this file holds the shape they share and asks each system for its own.
 * The user types the step; nothing here runs it.
 *
 * Pure: it formats what the report already holds.
 */
import { oneLine, type Msg } from '../model/messages';
import type { SystemId, SystemReport } from '../model/model';
import { closingLine, FACTS, type FreshContextFacts } from '../systems/facts';
import type { S0Confirmation } from '../systems/s0/closing';
import { homeOf } from '../systems/index';

export type { S0Confirmation } from '../systems/s0/closing';

/** The fresh-context command each system's seed prescribes (the facts' `freshContext.command`). */
export type FreshContextStep = FreshContextFacts['command'];

/** What every system's closing step starts from. */
export interface ClosingBase {
  system: SystemId;
  /** The command that starts the fresh context; the user types it, nothing here runs it. */
  step: FreshContextStep;
  /** The system's home file (the handoff / ledger / STATE the fresh context reads). */
  home: string;
  /** The prompt to paste into the fresh context. */
  resumePrompt: string;
  /** The system's closing line for this home, in its seed's words (English). */
  line: string;
}

/** What a system adds to its closing step. */
export interface ClosingWords {
  /** The lines in the seed's own wording, English (what the CLI prints). */
  lines: string[];
  /** The one-sentence notification a UI shows once the resume prompt is on the clipboard (a message id and its arguments). */
  notice: Msg;
  /** S0 only: its Step 5 confirmation. */
  s0?: S0Confirmation;
}

/** A system's closing step, from its report and the shared start. */
export type ClosingOf = (s: SystemReport, base: ClosingBase) => ClosingWords;

export interface ClosingStep extends Omit<ClosingBase, 'line'>, ClosingWords {}

/** The closing step of one system whose checkpoint went through. */
export function closingStep(s: SystemReport): ClosingStep {
  const resumePrompt = s.resumePrompt?.trim() || `Read ${oneLine(s.home)} and continue from its next action.`;
  const base: ClosingBase = {
    system: s.id,
    step: FACTS[s.id].freshContext.command,
    home: s.home,
    resumePrompt,
    line: closingLine(s.id, s.home),
  };
  const words = homeOf(s.id).closing(s, base);
  const { line: _line, ...rest } = base;
  return { ...rest, ...words };
}

/** Each system's closing step, in id order. */
export function closingSteps(systems: readonly SystemReport[]): ClosingStep[] {
  return systems.map(closingStep);
}
