/**
 * The two halves of every system (S0–S4). A reader (`systems/sN/reader*.ts`) finds and reads the system's
 * documents into the model; an analyser (`systems/sN/rules.ts`) judges them: its checks, its next action
 * and its resume prompt. The facts both use (paths, thresholds, prompts, budgets) are in `facts.ts`.
 * `evaluate.ts` runs them all.
 */
import type { Msg } from './messages';
import type { Check, Item, StateDoc, SystemId } from './model';
import type { Workspace } from './workspace';

export interface Loaded {
  /** The home document: the file a resumed session reads. Null when the system is detected but its home file is missing. */
  home: StateDoc | null;
  /** Relative path of the home file (also when it is missing). */
  homeRel: string;
  /** Every document read, the home one included. */
  docs: StateDoc[];
  /** When set, the system is present but switched off (S0 without `session.ledger: true`): checks are skipped with this message. */
  skipped?: Msg;
  /** Anything else the reader wants to carry from load to analyse. */
  extra?: Record<string, unknown>;
}

export interface Analysis {
  /** Every check except the manual ones (evaluate adds those). */
  checks: Check[];
  /** The concrete next action as written, or null. */
  next: string | null;
  /** Open UNCONFIRMED items. */
  unconfirmed: Item[];
  /** The prompt to paste into a fresh session. */
  resumePrompt: string;
}

/** A system's reader: detection and parsing, no rules. */
export interface SystemReader {
  id: SystemId;
  /** Find and read this system's documents; null when the system is not present under the root. Never throws on content. */
  load(ws: Workspace): Promise<Loaded | null>;
}

/** A system's rules: checks, next action, UNCONFIRMED items and resume prompt. Never throws on content. */
export type Analyser = (ws: Workspace, loaded: Loaded) => Promise<Analysis>;

/** A reader and its analyser, as `evaluate` runs them. */
export interface SystemModule extends SystemReader {
  analyse: Analyser;
}
