/**
 * The two halves of every system (S0–S4). A reader (`systems/sN/reader*.ts`) finds and reads the system's
 * documents into the model; an analyser (`systems/sN/rules.ts`) judges them: its checks, its next action
 * and its resume prompt. The facts both use (paths, thresholds, prompts, budgets) are in the
 * system's `facts.ts`. `evaluate.ts` runs them all.
 *
 * What a reader carries to its rules beyond the documents is typed per system (`Loaded<S4Extra>`),
 * and a system's module pairs its `load` and `analyse` over that one type, so the rules receive
 * the very type their reader produced, without a cast.
 */
import type { Msg } from './messages';
import type { Check, Item, StateDoc, SystemId } from './model';
import type { Workspace } from './workspace';

export interface Loaded<E = unknown> {
  /** The home document: the file a resumed session reads. Null when the system is detected but its home file is missing. */
  home: StateDoc | null;
  /** Relative path of the home file (also when it is missing). */
  homeRel: string;
  /** Every document read, the home one included. */
  docs: StateDoc[];
  /** When set, the system is present but switched off (S0 without `session.ledger: true`): checks are skipped with this message. */
  skipped?: Msg;
  /** When set, the system's reader failed (a fault of this tool, never of the files): its only check says so, and blocks. */
  failed?: unknown;
  /** When set, the system's files are present and checked, but its own configuration switches it off: never checkpointed, this line says so. */
  off?: string;
  /** What else the reader carries from load to analyse (its own type per system); absent when the reader failed or found only an unreadable folder. */
  extra?: E;
  /**
   * The system's state files that are no document of this reading (root-relative): S1's attestation
   * sidecar, whatever the reading; with a reading without every rule (the hooks'), the files only its
   * rules read, where they are now. A checkpoint vouches for them, and the guard compares them.
   */
  more?: string[];
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
export interface SystemReader<E = unknown> {
  id: SystemId;
  /** Find and read this system's documents; null when the system is not present under the root. Never throws on content. */
  load(ws: Workspace): Promise<Loaded<E> | null>;
}

/** A system's rules: checks, next action, UNCONFIRMED items and resume prompt. Never throws on content. */
export type Analyser<E = unknown> = (ws: Workspace, loaded: Loaded<E>) => Promise<Analysis>;

/**
 * What the hooks run of a system: its reader, the skeleton check and the resume, each as `analyse`
 * makes it, and no other rule (the guard asks for every rule, ../systems/index, only for a state file
 * changed since the checkpoint). Methods, so
 * the modules of all five systems fit one list: `evaluate` hands each only what the same module's
 * `load` returned, or a `Loaded` without `extra`.
 */
export interface SystemResumer<E = unknown> extends SystemReader<E> {
  /**
   * The `not-skeleton` check alone, as `analyse` makes it (an empty list where `analyse` makes none):
   * all the guard asks of the state once a checkpoint marker exists.
   */
  skeleton(loaded: Loaded<E>): Check[];
  /**
   * What a fresh context needs to resume, as `analyse` finds it: the next action, the open
   * UNCONFIRMED items and the resume prompt, with only the checks the system says at every session
   * start (S1's attestation). No other rule runs and no git fact is asked: the SessionStart hook
   * (`evaluate` adds why the home file could not be read, when it could not).
   */
  resume(ws: Workspace, loaded: Loaded<E>): Promise<Analysis>;
  /**
   * Only the checks the system says at every session start (S1's attestation, S0's unread
   * `.agents.yml`), without its resume: the SessionStart hook when a session starts or resumes, which
   * gives no resume block. None when absent.
   */
  startChecks?(ws: Workspace, loaded: Loaded<E>): Promise<Check[]>;
  /**
   * The manual items `analyse` asks besides the common ones (in some workspaces only), in the order
   * it lists them: an evaluation that runs no rules still asks them.
   */
  manualItems?(ws: Workspace): Promise<Check[]>;
}

/** A reader and its analyser over one `extra` type, as `evaluate` runs them: every rule of the system. */
export interface SystemModule<E = unknown> extends SystemResumer<E> {
  analyse(ws: Workspace, loaded: Loaded<E>): Promise<Analysis>;
}
