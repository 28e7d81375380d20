/**
 * The checklist webview's messages, shared by the extension host (src/extension/checklist/panel.ts)
 * and the webview (webview/main.ts): both import this folder, and the webview never imports from
 * src/extension/ (architecture test). The webview sends `ready` once its script runs; the host
 * answers with the state and sends it again whenever the store changes.
 */
import { SYSTEM_IDS as IDS, type Check, type CheckStatus, type Label, type SystemId } from '../core/model/model';

/**
 * How a check's row is marked (its icon and its bar): its status, except that a finding of information
 * severity is marked as information, as the tree, the Problems panel and the CLI mark it.
 */
export type CheckMark = CheckStatus | 'info';

/**
 * A piece of a message as a surface shows it: prose, or (`code`) a code span's text without its
 * backticks. The host cuts a message into them (src/extension/pure/findings.ts, `messageParts`).
 */
export interface TextPart {
  text: string;
  code?: true;
}

/** A check as the webview shows it: the core's `Check` without the system (its section says it). */
export type CheckView = Omit<Check, 'system'> & {
  mark: CheckMark;
  /** The message (`message`, in the user's language) in parts: the webview draws each code span as code. */
  messageParts: TextPart[];
  /** The fix hint in parts, when there is one. */
  hintParts?: TextPart[];
  /**
   * The words beside a check's message, localised: what the check does now (`pass`, `warning`, `skipped`,
   * `info`), and for a failing blocking check that it blocks the marker (`fail · blocks the marker`).
   */
  said: string;
  /** Where the check points (`path:line`) as the page shows it: on one line, a line break in the name written `\n` (`path` stays the name itself, which the page asks the host to open). */
  place?: string;
};

export interface SystemView {
  id: SystemId;
  /** The system's name as every surface says it, its id first (`S3 Groundwork`): the core's `systemName`. */
  name: string;
  label: Label;
  /** The home file (relative path), on one line as every surface shows a name (a line break written `\n`). */
  home: string;
  /** The next action in parts, as plain as every surface shows it; the webview draws each code span as code. */
  next: TextPart[] | null;
  checks: CheckView[];
}

/** The texts the webview shows, localised by the host (the webview has no l10n of its own). */
export interface ChecklistStrings {
  title: string;
  overall: string;
  writeMarker: string;
  refresh: string;
  blocked: string;
  /** Said while one manual item is not ticked. */
  manualOpenOne: string;
  /** Said while several are not ticked; `{0}` is their number. */
  manualOpen: string;
  /** The heading over the session's manual items, asked once for every system. */
  sessionTitle: string;
  /** What a tick of a session's item holds for, and when it is reset: the heading's and each box's tooltip. */
  sessionHelp: string;
  untrusted: string;
  /** The button beside the Restricted Mode note: VS Code's own command to trust the folder. */
  manageTrust: string;
  nothing: string;
  next: string;
  fix: string;
  busy: string;
  /** Said beside the write button when it can be used. */
  ready: string;
  /** The heading over the outcome of a write. */
  result: string;
  /** The advice after N compactions in one session (S0's seed: after 2–3), from the system that gives it; `{0}` is the count. */
  compactions?: string;
  status: Record<CheckStatus, string>;
  /** A finding of information severity. */
  info: string;
  /**
   * A failing blocking check: its status and what it does now. Only here is the severity said: beside a
   * pass or a warning it would read as if the check blocked or warned now.
   */
  failBlocks: string;
}

/**
 * A check the user can run on click (S3's `node checks/check.mjs`: the repository's own code): only
 * in a trusted workspace, never by itself. Its result replaces the check's row; its output shows
 * below it as inert text.
 */
export interface RunChecksView {
  system: SystemId;
  checkId: string;
  /** The button's text. */
  button: string;
  running: boolean;
  /** Said while it runs. */
  runningText: string;
  /** The tail of the last run's output, or null before a run. */
  output: string | null;
}

export interface ChecklistState {
  /** Folder name (multi-root; on one line, as `home`) and its URI string. */
  folder: string;
  folderUri: string;
  /** WORKING / PARTIAL / BROKEN, or null when nothing is detected. */
  overall: Label | null;
  /** Why the overall label is worse than every system's (the session's manual items open: core `overallWhy`), localised; else null. */
  overallWhy: string | null;
  /**
   * The manual items about the agent session (`feedback-stored`, `last-request`), once for every system:
   * the systems' `checks` leave them out. Empty when no system asks them.
   */
  sessionChecks: CheckView[];
  systems: SystemView[];
  /** A block check fails: the action is disabled. */
  blocked: boolean;
  /** Manual items not ticked yet (each of the session's once). */
  manualOpen: number;
  /** The write button is enabled: nothing blocks, every manual item is ticked, trusted, not busy. */
  canWrite: boolean;
  /** S0 is on and this session was compacted 2+ times: the count (its seed advises checkpoint, then /clear); else null. */
  compactionAdvice: number | null;
  /** With several live agent sessions: which one the checklist speaks about (client and session, localised); else null. */
  session: string | null;
  /** The agent session whose ticks the boxes show, and for which a tick is given (null: no session known). */
  ticksFor: string | null;
  /**
   * A checkpoint's marker still lets /compact through although the user unticked items it confirmed (it
   * could not be withdrawn): what is true and how it goes, localised; else null.
   */
  markerStands: string | null;
  /** The check the user can run from here (trusted workspaces only), or null. */
  runChecks: RunChecksView | null;
  /** A write is running. */
  busy: boolean;
  /** False in Restricted Mode: no write action. */
  trusted: boolean;
  strings: ChecklistStrings;
}

/**
 * What became of a write started by the checklist's button: the outcome's kind and its message,
 * localised, in parts (one sentence a line; the webview draws each code span as code); `past` replaces
 * it once the checks changed after it (its words no longer hold).
 */
export interface WriteResult {
  kind: 'written' | 'nothing-to-preserve' | 'refused' | 'skipped' | 'failed' | 'past';
  parts: TextPart[];
}

export type HostToWebview =
  | { type: 'state'; state: ChecklistState }
  /** `system` null: one of the session's items. */
  | { type: 'focusCheck'; system: SystemId | null; checkId: string }
  | { type: 'result'; result: WriteResult }
  /** Re-check read the folder again: the sentence that says when, and whether anything changed (localised). */
  | { type: 'rechecked'; text: string };

export type WebviewToHost =
  | { type: 'ready' }
  /** `session`: the state's `ticksFor` the box was ticked in; `system` null: one of the session's items (every system's). */
  | { type: 'toggleManual'; system: SystemId | null; checkId: string; checked: boolean; session: string | null }
  | { type: 'open'; path: string; line?: number }
  | { type: 'writeMarker' }
  | { type: 'runChecks' }
  /** Restricted Mode: open VS Code's workspace trust editor (the one step that lifts it). */
  | { type: 'manageTrust' }
  | { type: 'refresh' };

const SYSTEM_IDS = new Set<string>(IDS);

/** What the checklist says while `n` manual items (one or more) are not ticked: one sentence per number. */
export function manualOpenText(s: Pick<ChecklistStrings, 'manualOpen' | 'manualOpenOne'>, n: number): string {
  return n === 1 ? s.manualOpenOne : s.manualOpen.replace('{0}', String(n));
}

/** Validate a message from the webview (it is untrusted input to the host). */
export function parseWebviewMessage(x: unknown): WebviewToHost | undefined {
  if (!x || typeof x !== 'object') return undefined;
  const m = x as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'writeMarker':
    case 'runChecks':
    case 'manageTrust':
    case 'refresh':
      return { type: m.type };
    case 'toggleManual':
      if (
        (m.system === null || (typeof m.system === 'string' && SYSTEM_IDS.has(m.system))) &&
        typeof m.checkId === 'string' &&
        typeof m.checked === 'boolean' &&
        (m.session === null || (typeof m.session === 'string' && m.session.length <= 256))
      ) {
        return {
          type: 'toggleManual',
          system: m.system as SystemId | null,
          checkId: m.checkId,
          checked: m.checked,
          session: m.session,
        };
      }
      return undefined;
    case 'open':
      if (
        typeof m.path === 'string' &&
        m.path.length < 4096 &&
        (m.line === undefined || (typeof m.line === 'number' && Number.isInteger(m.line) && m.line >= 0))
      ) {
        return { type: 'open', path: m.path, line: m.line as number | undefined };
      }
      return undefined;
    default:
      return undefined;
  }
}

/** Order of checks on screen: failures, warnings, manual items (ticked or not: they stay in place), passes, skipped. */
export const STATUS_ORDER: Record<string, number> = {
  fail: 0,
  warn: 1,
  'manual-open': 2,
  'manual-done': 2,
  pass: 3,
  info: 3,
  skipped: 4,
};
