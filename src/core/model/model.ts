/**
 * The one model every system (S0–S4) is read into: its files, sections, items and checks.
 * Pure data: no I/O, no `vscode`. Everything here is JSON-serialisable.
 */

export type SystemId = 'S0' | 'S1' | 'S2' | 'S3' | 'S4';
export const SYSTEM_IDS: readonly SystemId[] = ['S0', 'S1', 'S2', 'S3', 'S4'];

export type DocRole =
  | 'ledger'
  | 'handoff'
  | 'state'
  | 'progress'
  | 'lessons'
  | 'contextLog'
  | 'memory'
  | 'config'
  | 'manifest'
  | 'projectState'
  | 'checkpoint'
  | 'plan';

/**
 * Canonical section keys. Unknown sections are kept with key `other`.
 * Systems may use further keys (e.g. `tracker`, `identity`), so the type stays open.
 */
export type SectionKey =
  | 'preamble'
  | 'title'
  | 'goal'
  | 'constraints'
  | 'decisions'
  | 'state'
  | 'done'
  | 'now'
  | 'next'
  | 'open'
  | 'verified'
  | 'dropped'
  | 'plan'
  | 'working-set'
  | 'pending'
  | 'issues'
  | 'understanding'
  | 'interests'
  | 'status'
  | 'gates'
  | 'blocked'
  | 'log'
  | 'handoff'
  | 'snapshot'
  | 'other'
  | (string & {});

/**
 * Item flags, serialised as strings:
 * `unconfirmed`, `done`, `hasCommand`, `hasReason`, `risk:H|M|L`, `urgency:H|M|L`,
 * `conf:0.5`, `seen:YYYY-MM-DD`, `obs:N`, `ttl:90d|permanent`, `ref:N`, `type:X`, `date:YYYY-MM-DD`,
 * `op:add|del|mod|decide`, set by the readers; `expired`, `promote`, `archive`, the verdicts S1's
 * checks put on the memory stores' entries.
 */
export type ItemFlag = string;

export interface Item {
  /** The item's text as written, markup kept, one line (continuation lines joined by a space). */
  text: string;
  /** 1-based line of the item's first line. */
  line: number;
  flags: ItemFlag[];
  /** Nesting depth for list items (0 = top level). */
  depth?: number;
}

export interface Section {
  key: SectionKey;
  /** Heading text as written (without the leading `#`s). */
  title: string;
  /** 1-based line of the heading (or of the label line for label-style documents). */
  line: number;
  /** 1-based last line that belongs to the section (inclusive). */
  endLine: number;
  /** Heading level 1–6; 0 for the preamble or label-style sections. */
  level: number;
  items: Item[];
}

export type Severity = 'block' | 'warn' | 'info' | 'manual';
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'manual-open' | 'manual-done' | 'skipped';

/**
 * A message's translation handle: `messageId` is its English template (`{0}`, `{1}` … for the
 * arguments, as `vscode.l10n.t` takes them), `args` the arguments; `message` is the English text.
 * The same for the fix hint. An argument that is a message of its own (a span of time, the tool's name
 * for a part of a template) is in `argMsgs` at its position (`hintArgMsgs` for the hint), so a UI says it
 * in its language too; `args` holds its English.
 */
export interface Said {
  message: string;
  messageId: string;
  args: string[];
  argMsgs?: Array<SaidPart | null>;
  hint?: string;
  hintId?: string;
  hintArgs?: string[];
  hintArgMsgs?: Array<SaidPart | null>;
}

/** A message as an argument of another, with the same fields as the message that takes it. */
export interface SaidPart {
  message: string;
  messageId: string;
  args: string[];
  argMsgs?: Array<SaidPart | null>;
}

/** A problem found while reading a document (damaged, huge, YAML that does not parse …). */
export interface Finding extends Said {
  id: string;
  severity: Exclude<Severity, 'manual'>;
  line?: number;
}

export interface StateDoc {
  system: SystemId;
  /** Absolute path. */
  path: string;
  /** Path relative to the workspace root, with `/` separators. */
  relPath: string;
  role: DocRole;
  sections: Section[];
  /** Parsed extras (front matter, YAML config, snapshot block …). */
  meta: Record<string, unknown>;
  /** Modification time in ms since the epoch (0 when unknown). */
  mtime: number;
  /** Lowercase hex SHA-256 of the raw bytes read ('' when unreadable). */
  hash: string;
  /** Size in bytes on disk. */
  size: number;
  /** Number of lines, counted as `text.split('\n').length`. */
  lineCount: number;
  /** The decoded text ('' when unreadable), every secret value in it masked (`ghp_… (40 chars)`). */
  text: string;
  /** The secrets found when the document was loaded (masked samples; the text holds only the masked form). */
  secrets?: Array<{ rule: string; line: number; masked: string; kind?: 'personal' }>;
  findings: Finding[];
  /** State files of other systems this document points to (an S2 PLAN pointer to docs/state/STATE.md). */
  links?: DocLink[];
}

export interface Check extends Said {
  id: string;
  system: SystemId;
  severity: Severity;
  status: CheckStatus;
  /** Path relative to the workspace root. */
  path?: string;
  /** 1-based line. */
  line?: number;
  /** Set while the fact this check needs (git's) is still being read: not judged yet, and not passed. */
  pending?: true;
  /**
   * The gaps a failing check names, each a required part of its file that is missing or not filled
   * in (`gates`, `pending`, `next-action`, a Log entry's `Done`), by a key its system's rules give it.
   * A warning whose every gap a blocking finding on the same file names is not a finding of its own
   * (`oneFindingPerGap`): one finding per gap, the blocking one.
   */
  gaps?: string[];
}

export type Label = 'WORKING' | 'PARTIAL' | 'BROKEN';

export interface SystemReport {
  id: SystemId;
  name: string;
  label: Label;
  /** The concrete next action as written (S3: the text after `Now ▶`), or null. */
  next: string | null;
  /** The system's home document (relative path), the file a resumed session must read. */
  home: string;
  docs: StateDoc[];
  checks: Check[];
  /** The prompt to paste into a fresh session. */
  resumePrompt: string;
  /** Open UNCONFIRMED items (S0's post-clear protocol), with their lines. */
  unconfirmed: Item[];
  /** The system's state files that are no document of this report (its reader's `more`). */
  more?: string[];
  /**
   * Set when the system is present but switched off by its own configuration (S0 without
   * `session.ledger: true`): its seed's skip line. A checkpoint writes nothing for it.
   */
  skipped?: string;
  /**
   * Set when a file of this system was being rewritten and did not parse (read twice): this is the
   * system's last good report, kept on screen until the file reads again or stays unreadable.
   */
  updating?: true;
}

/**
 * A file at one of a system's paths that is not in that system's format: it is there, and it was
 * not read as that system's document (someone else's file at a generic path). `reason` says why,
 * e.g. "docs/state/STATE.md has no `## Handoff`, `## Log` or `Now ▶` line: not read as S3".
 */
export interface NotRead {
  /** Path relative to the workspace root. */
  path: string;
  system: SystemId;
  reason: string;
  reasonId: string;
  args: string[];
}

/**
 * Why a reader did not read a file at its system's path, as the reader records it (the text is the
 * system's checks' to say): S0's older place with fewer than the ledger sections it needs; S2's
 * project state file without S2's own section words, or its manifest without the kit's keys; S3's
 * STATE without a Handoff, Log or `Now ▶` line; S4's state file without its blocks.
 */
export type NotReadWhy =
  | 'S0-few-sections'
  | 'S1-no-handoff'
  | 'S2-project-state-words'
  | 'S2-manifest-keys'
  | 'S3-no-handoff'
  | 'S4-no-blocks';

/** A file a reader found at its system's path and did not read, before its reason is put in words. */
export interface NotOurs {
  path: string;
  system: SystemId;
  why: NotReadWhy;
}

/** A state file another system's document points to: shown as a link on that document, read only by its own system. */
export interface DocLink {
  /** Path relative to the workspace root, as resolved. */
  path: string;
  /** The line of the pointer in the linking document. */
  line: number;
  /** The system whose file it is. */
  system: SystemId;
}

export interface WorkspaceReport {
  root: string;
  label: Label;
  systems: SystemReport[];
  /** Files at a system's path that are not in its format (present, not read), with the reason. */
  notRead?: NotRead[];
  /**
   * Set on the first results of a scan, given while git's facts are still being read: the checks
   * that need them are `pending`, and no label is better than PARTIAL until the full report.
   */
  gitPending?: true;
}

export interface ContextUsage {
  agent: 'claude' | 'codex';
  sessionId: string | null;
  transcriptPath: string;
  model: string | null;
  usedTokens: number;
  /** The context window, or null when it is unknown (a model Claude Code's table does not name, and no report from the client; a Codex count that names none). */
  windowTokens: number | null;
  /** Where the window came from: the client's own report, the user's setting, the model's table, the usage itself, or unknown. */
  windowSource?: 'client' | 'setting' | 'model' | 'usage' | 'unknown';
  /** Percent of the window in use, or null when the window is unknown (tokens without a percentage). */
  percent: number | null;
  /** ISO time of the record the figure comes from. */
  at: string | null;
  afterCompaction: boolean;
  source: 'statusline' | 'transcript';
  /**
   * A record newer than the figure was too large to read (a pasted file longer than the meter
   * reads): its size in bytes. The figure is the last one before it. Absent otherwise.
   */
  tooLargeRecordBytes?: number;
}

/** A check that blocks the go-signal: severity block and status fail. */
export function isBlocking(c: Pick<Check, 'severity' | 'status'>): boolean {
  return c.severity === 'block' && c.status === 'fail';
}

/**
 * The blocking checks that fail now in the systems a checkpoint decides on (every one not switched off by
 * its own configuration): while any fails, a checkpoint is refused.
 */
export function blockingChecks(report: Pick<WorkspaceReport, 'systems'>): Check[] {
  return report.systems
    .filter((s) => !s.skipped)
    .flatMap((s) => s.checks)
    .filter(isBlocking);
}

/**
 * The manual items about the agent session rather than about a file (this session's feedback is
 * stored, the user's last request is completed or recorded): asked once for the whole workspace. Every
 * system's report holds them, confirmed or ticked alike in each; the surfaces show and count them once.
 */
export const SESSION_ITEM_IDS: readonly string[] = ['feedback-stored', 'last-request'];

/** A manual item asked once for the session (`SESSION_ITEM_IDS`), not per system. */
export function isSessionItem(c: Pick<Check, 'id' | 'severity'>): boolean {
  return c.severity === 'manual' && SESSION_ITEM_IDS.includes(c.id);
}

/**
 * The session's manual items once each, in the order the systems ask them: each as the first system not
 * switched off holds it, open when it is open in any of them. Empty when no such system asks them.
 */
export function sessionItems(r: Pick<WorkspaceReport, 'systems'>): Check[] {
  const out = new Map<string, Check>();
  for (const s of r.systems) {
    if (s.skipped) continue;
    for (const c of s.checks) {
      if (!isSessionItem(c)) continue;
      const have = out.get(c.id);
      if (!have || (have.status !== 'manual-open' && c.status === 'manual-open'))
        out.set(c.id, have ? { ...have, status: c.status } : c);
    }
  }
  return [...out.values()];
}

/**
 * The manual items confirmed in a report (`manual-done`), as `--confirm` names them: each session item
 * once, bare (`feedback-stored`), each system's own after its system (`S1:state-reviewed`).
 */
export function confirmedItems(r: Pick<WorkspaceReport, 'systems'>): string[] {
  const out = new Set<string>();
  for (const s of r.systems)
    for (const c of s.checks) if (c.status === 'manual-done') out.add(isSessionItem(c) ? c.id : `${s.id}:${c.id}`);
  return [...out];
}

/**
 * A system's label, as S1 names them. Info checks never change the label, nor do the session's manual
 * items (they are the workspace's: `overallLabel`).
 */
export function labelOf(checks: readonly Check[]): Label {
  if (checks.some(isBlocking)) return 'BROKEN';
  // A check still waiting for its facts is not a pass: the system cannot be WORKING yet.
  if (
    checks.some(
      (c) =>
        (c.severity === 'warn' && c.status === 'warn') ||
        (c.status === 'manual-open' && !isSessionItem(c)) ||
        c.pending,
    )
  )
    return 'PARTIAL';
  return 'WORKING';
}

/**
 * The overall label: the worst of the systems' (`labelOf`), and no better than PARTIAL while one of the
 * session's manual items is open. WORKING when no system is detected.
 */
export function overallLabel(systems: readonly SystemReport[]): Label {
  const worst = worstLabel(systems.map((s) => s.label));
  return worst === 'WORKING' && sessionItems({ systems: [...systems] }).some((c) => c.status === 'manual-open')
    ? 'PARTIAL'
    : worst;
}

/** Worst of several labels. */
export function worstLabel(labels: readonly Label[]): Label {
  if (labels.includes('BROKEN')) return 'BROKEN';
  if (labels.includes('PARTIAL')) return 'PARTIAL';
  return 'WORKING';
}
