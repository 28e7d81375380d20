/**
 * The one table of system facts: for each system S0–S4 its name, where its files live, the globs
 * that say it may be present, its context thresholds, the agent's own checkpoint trigger, its
 * resume prompt, the fresh-context step its seed prescribes, and its budgets. Every consumer reads
 * this table (the readers, the checks, detection, the context meter, the CLI, the extension's
 * watchers and status bar, and `activationEvents` in package.json, which a test keeps equal to the
 * presence globs). Nothing else declares these facts. Pure data and small pure functions: no I/O,
 * no imports beyond the model's types, so the hot paths (statusline, hooks) can load it cheaply.
 */
import type { DocRole, SystemId } from '../model/model';
import { t, type Msg } from '../model/messages';
import { SYSTEM_IDS } from '../model/model';

export interface ThresholdFacts {
  /** Percent of the context window at which the seed proposes a checkpoint. */
  propose: number;
  /** Percent past which it is urgent; null when the seed names a single cue (S2: about 50 %). */
  urgent: number | null;
}

export interface ResumeFacts {
  /**
   * The prompt the seed prints word for word, for the default home (S3). Null when the seed gives
   * none and the prompt is built from `template`.
   */
  verbatim: string | null;
  /** The prompt built from the home file and the next section: `{home}` and `{next}` are filled in. */
  template: string;
  /** What `{next}` says when the reader knows nothing more precise (e.g. "the Now ▶ action"). */
  next: string;
  /** The prompt when there are UNCONFIRMED items to validate first (S0's post-clear protocol), or null. */
  unconfirmedTemplate: string | null;
}

export interface FreshContextFacts {
  /** The seed prescribes its own step; false means it names none and S2's line is used (S4). */
  prescribed: boolean;
  /** The command that starts the fresh context. */
  command: '/clear' | '/compact';
  /** The closing line, in the seed's wording; `{home}` is the home file. */
  line: string;
  /**
   * After this many compactions in one session the seed advises a checkpoint and `/clear` instead of
   * another `/compact` (S0: "after 2-3 compactions"); null when it says nothing about it.
   */
  clearAfterCompactions?: number | null;
}

export interface BudgetFacts {
  /** Lines of the home file, counted as `lineCounting` says. */
  lines?: number;
  /**
   * How the seed counts lines: `lines` as a line count does (a final newline ends the last line,
   * it does not start another: a 200-line file is 200 lines), `split` as S3's own checker does
   * (`text.split('\n').length`, so a final newline counts one more).
   */
  lineCounting?: 'lines' | 'split';
  /** Characters (code points) of the home file. */
  chars?: number;
  /** Characters of the plan's spine (the part a checkpoint reads in full). */
  planSpineChars?: number;
  /** Entries in the progress file. */
  progressEntries?: number;
  /** Caps and vocabulary of the handoff's compact snapshot block (S1's `state-snapshot v1`). */
  snapshot?: SnapshotBudget;
}

export interface SnapshotBudget {
  /** Words of `ctx`. */
  ctxWords: number;
  /** Entries of `next`, `diff` and `blocked`. */
  next: number;
  diff: number;
  blocked: number;
  /** Words of a diff entry's `why`. */
  whyWords: number;
  /** The allowed `op` of a diff entry and `risk` of a blocked entry. */
  ops: readonly string[];
  risks: readonly string[];
}

/** When the memory stores' entries are due for curation (S1's lessons and context log). */
export interface CurationFacts {
  /** A lesson is an archive candidate at confidence below `conf` and last seen more than `days` days ago. */
  archive: { conf: number; days: number };
  /** A lesson is a hook-promotion candidate at confidence ≥ `conf` and seen ≥ `obs` times. */
  hookPromotion: { conf: number; obs: number };
  /** A context-log entry referenced this many times or more is a MEMORY.md promotion candidate. */
  promoteRefs: number;
}

export interface Companion {
  /** What the file is to its system (`config`, `sidecar`, `manifest`, `progress` …). */
  what: string;
  /** Path relative to the root. */
  path: string;
}

export interface SystemFacts {
  id: SystemId;
  /** Human name, e.g. "STATE handoff (Groundwork)". */
  name: string;
  /** The default home file: the file a resumed session reads. */
  home: string;
  /** The model role of the home document. */
  homeRole: DocRole;
  /** Other places the home file is accepted (older or alternative locations), in the order they are tried. */
  homeAlternatives: readonly string[];
  /** A file at one of `homeAlternatives` is the system's only when it holds this many distinct sections of the system (generic paths), when set. */
  homeAlternativesMinSections?: number;
  /** What the seed prints when the system is present but switched off, or null. */
  switchedOff: Msg | null;
  /** The system's other files and folders (configuration, sidecars, logs, stores), each with what it is. */
  companions: readonly Companion[];
  /**
   * Globs (relative to a root; wildcards only in the last segment) whose match means the system may
   * be present: detection's pre-check, the watchers, the context meter and `activationEvents`.
   */
  presence: readonly string[];
  thresholds: ThresholdFacts;
  /** What to type into the agent to fire this system's own checkpoint. */
  checkpointTrigger: string;
  resume: ResumeFacts;
  freshContext: FreshContextFacts;
  budgets: BudgetFacts;
  /** Curation thresholds of the system's memory stores, when it keeps any. */
  curation?: CurationFacts;
}

/**
 * S1's snapshot caps (ctx ≤ 20 words, next ≤ 5, diff ≤ 5 with op add|del|mod|decide and why ≤ 10
 * words, blocked ≤ 3 with risk H|M|L), named so the reader and the checks take them without a fallback.
 */
export const S1_SNAPSHOT: SnapshotBudget = { ctxWords: 20, next: 5, diff: 5, blocked: 3, whyWords: 10, ops: ['add', 'del', 'mod', 'decide'], risks: ['H', 'M', 'L'] };

/** S1's curation: archive a lesson at conf < 0.4 unseen for 90 days; flag it for a hook at conf ≥ 0.9 seen ≥ 3 times; promote a context-log entry at ref ≥ 3. */
export const S1_CURATION: CurationFacts = { archive: { conf: 0.4, days: 90 }, hookPromotion: { conf: 0.9, obs: 3 }, promoteRefs: 3 };

/** S2's closing line, also used by a system whose seed prescribes none. */
const S2_CLOSING = 'Checkpoint saved. Safe to run /compact now.';

export const FACTS: Readonly<Record<SystemId, SystemFacts>> = {
  S0: {
    id: 'S0',
    name: 'Session Ledger (majestic session-checkpoint)',
    home: '.agents/session_ledger.md',
    homeRole: 'ledger',
    // Older places a ledger was kept; read only when they hold the S0 sections.
    homeAlternatives: ['CONTINUITY.md', '.claude/memory/session_ledger.md', '.claude/session_ledger.md'],
    homeAlternativesMinSections: 3,
    switchedOff: t('Checkpoint skipped - session.ledger not enabled in .agents.yml'),
    companions: [{ what: 'config', path: '.agents.yml' }],
    presence: ['.agents.yml', '.agents/session_ledger.md', 'CONTINUITY.md', '.claude/memory/session_ledger.md', '.claude/session_ledger.md'],
    thresholds: { propose: 70, urgent: 85 },
    checkpointTrigger: 'Apply the session-checkpoint skill',
    resume: {
      verbatim: null,
      template: 'Read {home} and continue from {next}.',
      next: 'the Now section',
      unconfirmedTemplate: 'Read {home}, validate its UNCONFIRMED items with me first, then continue from {next}.',
    },
    freshContext: {
      prescribed: true,
      command: '/clear',
      line: 'Run /clear, then reload the ledger ({home}): /clear + ledger reload is preferred over repeated /compact.',
      clearAfterCompactions: 2,
    },
    budgets: {},
  },
  S1: {
    id: 'S1',
    name: 'Session Handoff (session-checkpoint, LATEST + attestation)',
    home: 'memory/session-handoff-LATEST.md',
    homeRole: 'handoff',
    homeAlternatives: ['.claude/memory/session-handoff-LATEST.md'],
    switchedOff: null,
    // MEMORY.md and context-log.md are looked for beside the handoff first, then at the root.
    companions: [
      { what: 'sidecar', path: 'memory/.session-handoff.sha256' },
      { what: 'memory', path: 'memory/MEMORY.md' },
      { what: 'memory', path: 'MEMORY.md' },
      { what: 'contextLog', path: 'memory/context-log.md' },
      { what: 'contextLog', path: 'context-log.md' },
      { what: 'lessons', path: 'tasks/lessons.md' },
      { what: 'lessons', path: 'memory/tasks/lessons.md' },
    ],
    presence: [
      'memory/session-handoff-LATEST.md',
      '.claude/memory/session-handoff-LATEST.md',
      'memory/session-handoff*.md',
      '.claude/memory/session-handoff*.md',
      'memory/.session-handoff.sha256',
      'memory/MEMORY.md',
      'MEMORY.md',
      'memory/context-log.md',
      'context-log.md',
      'tasks/lessons.md',
      'memory/tasks/lessons.md',
    ],
    thresholds: { propose: 50, urgent: 80 },
    checkpointTrigger: '/session-checkpoint',
    resume: { verbatim: null, template: 'Read {home} and start with {next}.', next: 'its first action', unconfirmedTemplate: null },
    freshContext: { prescribed: true, command: '/compact', line: 'checkpoint complete. Run /compact to compress context. Handoff: {home}' },
    budgets: {
      lines: 200,
      lineCounting: 'lines',
      snapshot: S1_SNAPSHOT,
    },
    curation: S1_CURATION,
  },
  S2: {
    id: 'S2',
    name: 'Checkpoint + PreCompact guard (context-kit)',
    home: '.claude/session-ledger.md',
    homeRole: 'ledger',
    // Per-session ledgers `.claude/session-ledger.<id>.md` are found by listing `.claude/`.
    homeAlternatives: [],
    switchedOff: null,
    companions: [
      { what: 'manifest', path: 'context-manifest.yaml' },
      { what: 'projectState', path: '.claude/project-state.md' },
    ],
    presence: ['.claude/session-ledger*.md', 'context-manifest.yaml', '.claude/project-state.md'],
    thresholds: { propose: 50, urgent: null },
    checkpointTrigger: '/checkpoint',
    resume: { verbatim: null, template: 'Read {home} and continue from {next}.', next: 'its NEXT action', unconfirmedTemplate: null },
    freshContext: { prescribed: true, command: '/compact', line: S2_CLOSING },
    // The plan budget: the seed measured one plan at 116,000 characters, "roughly 29,000 tokens"
    // (about 4 characters a token), and asks that the spine stay "small enough to read in full".
    // 20,000 characters is about 5,000 tokens: under a fifth of that plan, under four ledgers' worth.
    budgets: { lines: 150, lineCounting: 'lines', chars: 5200, planSpineChars: 20_000 },
  },
  S3: {
    id: 'S3',
    name: 'STATE handoff (Groundwork)',
    home: 'docs/state/STATE.md',
    homeRole: 'state',
    homeAlternatives: [],
    switchedOff: null,
    companions: [
      { what: 'debt', path: 'docs/state/DEBT.md' },
      { what: 'intake', path: 'docs/state/INTAKE.md' },
      { what: 'logArchive', path: 'docs/state/log' },
      { what: 'decisions', path: 'docs/decisions' },
    ],
    presence: ['docs/state/STATE.md'],
    thresholds: { propose: 15, urgent: 40 },
    checkpointTrigger: '/checkpoint',
    resume: {
      verbatim: 'Read docs/state/STATE.md and continue from the Now ▶ action.',
      template: 'Read {home} and continue from {next}.',
      next: 'the Now ▶ action',
      unconfirmedTemplate: null,
    },
    freshContext: { prescribed: true, command: '/clear', line: 'Run /clear, then paste the resume prompt into the fresh session.' },
    budgets: { lines: 150, lineCounting: 'split' },
  },
  S4: {
    id: 'S4',
    name: 'Agent State checkpoints (checkpointing skill)',
    home: '.agents/STATE.md',
    homeRole: 'state',
    homeAlternatives: [],
    switchedOff: null,
    companions: [
      { what: 'progress', path: 'PROGRESS.md' },
      { what: 'checkpoints', path: '.agents/checkpoints' },
      // The summary draft `checkpoint.py --apply --consume-summary` deletes on success.
      { what: 'pendingSummary', path: '.agents/logs/pending-summary.md' },
    ],
    presence: ['.agents/STATE.md', '.agents/checkpoints/*.md', 'PROGRESS.md'],
    thresholds: { propose: 50, urgent: 80 },
    checkpointTrigger: '/checkpointing',
    resume: { verbatim: null, template: 'Read {home} and continue from {next}.', next: 'the newest Current block', unconfirmedTemplate: null },
    // The seed prescribes no fresh-context step: S2's line.
    freshContext: { prescribed: false, command: '/compact', line: S2_CLOSING },
    budgets: { progressEntries: 5 },
  },
};

/** The facts of every system, in id order. */
export const ALL_FACTS: readonly SystemFacts[] = SYSTEM_IDS.map((id) => FACTS[id]);

export function factsOf(id: SystemId): SystemFacts {
  return FACTS[id];
}

/** True for the id of a system in the table. */
export function isSystemId(x: unknown): x is SystemId {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(FACTS, x);
}

/** The path of a system's companion (the first when several places are accepted). Throws for a name the table lacks: a programming error. */
export function companionPath(id: SystemId, what: string): string {
  const c = FACTS[id].companions.find((x) => x.what === what);
  if (!c) throw new Error(`no companion '${what}' for ${id} in the facts table`);
  return c.path;
}

function globRe(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
}

/** The system whose home or presence glob names `rel` (a root-relative path), or null. */
export function systemOfPath(rel: string): SystemId | null {
  const p = rel.replace(/^(?:\.\/)+/, '');
  for (const f of ALL_FACTS) {
    if (p === f.home || f.homeAlternatives.includes(p) || f.presence.some((g) => globRe(g).test(p))) return f.id;
  }
  return null;
}

/** Every presence glob of every system, deduplicated, in id order. */
export function presenceGlobs(): string[] {
  return [...new Set(ALL_FACTS.flatMap((f) => f.presence))];
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}

/**
 * The resume prompt of a system: the seed's verbatim prompt when the home is its default (S3),
 * else built from the home file and the next section (`next`, default the system's own wording);
 * with UNCONFIRMED items, S0's asks to validate them first.
 */
export function resumePrompt(id: SystemId, home: string, next?: string | null, unconfirmed = 0): string {
  const r = FACTS[id].resume;
  if (r.verbatim && home === FACTS[id].home && !next) return r.verbatim;
  const template = unconfirmed > 0 && r.unconfirmedTemplate ? r.unconfirmedTemplate : r.template;
  return fill(template, { home, next: next || r.next });
}

/** The closing line of a system (the fresh-context step its seed prescribes), for its home file. */
export function closingLine(id: SystemId, home: string = FACTS[id].home): string {
  return fill(FACTS[id].freshContext.line, { home });
}
