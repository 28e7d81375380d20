/**
 * The contract every system reader (S0–S4) fulfils. A module finds and reads its documents, then
 * reports its checks, its next action and its resume prompt. `evaluate.ts` runs them all.
 */
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
  skipped?: string;
  /** Anything else the module wants to carry from load to analyse. */
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

export interface Thresholds {
  /** Percent at which a checkpoint is proposed. */
  propose: number;
  /** Percent past which it is urgent; null when the seed names a single cue (S2: about 50 %). */
  urgent: number | null;
}

export interface SystemModule {
  id: SystemId;
  /** Human name, e.g. "Session Ledger (majestic)". */
  name: string;
  /** The home files this system is detected by, for watchers and `workspaceContains:` (globs relative to a root). */
  watchGlobs: string[];
  /** Context thresholds of this system's seed (SPEC §4). */
  thresholds: Thresholds;
  /** What to type into the agent to fire this system's own checkpoint (e.g. `/checkpoint`). */
  checkpointTrigger: string;
  /** Find and read this system's documents; null when the system is not present under the root. */
  load(ws: Workspace): Promise<Loaded | null>;
  /** Checks, next action, UNCONFIRMED items and resume prompt. Never throws on content. */
  analyse(ws: Workspace, loaded: Loaded): Promise<Analysis>;
}
