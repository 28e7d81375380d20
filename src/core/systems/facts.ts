/**
 * The facts of every system S0–S4, gathered: each system declares its own in its home
 * (`systems/<sN>/facts.ts`: its name, where its files live, the globs that say it may be present,
 * its context thresholds, the agent's own checkpoint trigger, its resume prompt, the fresh-context
 * step its seed prescribes, its budgets). This file holds only their shared shape and the functions
 * over all five (detection's globs, `activationEvents` in package.json, which a test keeps equal to
 * the presence globs, the resume prompt and closing line by id). Pure data and small pure functions:
 * no I/O, no Markdown or YAML, so the hot paths (statusline, hooks) can load it cheaply.
 */
import type { DocRole, SystemId } from '../model/model';
import { oneLine, type Msg } from '../model/messages';
import { S0_FACTS, S0_HOT } from './s0/facts';
import { S1_CURATION, S1_FACTS, S1_HOT, S1_SNAPSHOT } from './s1/facts';
import { S2_FACTS, S2_HOT } from './s2/facts';
import { S3_FACTS, S3_HOT } from './s3/facts';
import { S4_FACTS, S4_HOT } from './s4/facts';
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
  /** The next action is re-injected verbatim, never cut (S2's NEXT: one line by its rule, the first thing needed after a compaction). */
  nextVerbatim?: boolean;
}

export interface FreshContextFacts {
  /** The seed prescribes its own step; false when it names none (S4): `command` is then S2's go-signal's (/compact). */
  prescribed: boolean;
  /** The command that starts the fresh context. The step's words are the system's closing (`<sN>/closing.ts`). */
  command: '/clear' | '/compact';
  /**
   * After this many compactions in one session the seed advises a checkpoint and `/clear` instead of
   * another `/compact` (S0: "after 2-3 compactions"); null when it says nothing about it.
   */
  clearAfterCompactions?: number | null;
  /** What the seed advises then: `said` for a UI (`{0}` is the count), `line` for the CLI (English). */
  compactionsAdvice?: { said: Msg; line: string };
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

/**
 * The help of a system's own write action, in its home's words: what only that command says. The
 * CLI's help adds what every command shares (`--root DIR` first, `--json` last, the usage exit).
 */
export interface CommandHelp {
  /** One line for the command list. */
  summary: string;
  usage: string;
  /** What it does, a few lines. */
  about?: string;
  options: Array<[flag: string, text: string]>;
  exit: Array<[code: number, text: string]>;
  example: string;
}

/** When the memory stores' entries are due for curation (S1's lessons and context log). */
export interface CurationFacts {
  /** A lesson is an archive candidate at confidence below `conf` and last seen more than `days` days ago. */
  archive: { conf: number; days: number };
  /** A lesson is a hook-promotion candidate at confidence ≥ `conf` and seen ≥ `obs` times. */
  hookPromotion: { conf: number; obs: number };
  /** A context-log entry referenced this many times or more is a MEMORY.md promotion candidate. */
  promoteRefs: number;
  /** A lesson's confidence stays within [min, max] (a correction lowers it to the floor at most; repeats raise it to the ceiling). */
  conf?: { min: number; max: number };
  /** Lessons headed `### [YYYY-MM-DD] …` on or after this day carry the meta line (the format's start). */
  metaSince?: string;
}

export interface Companion {
  /** What the file is to its system (`config`, `sidecar`, `manifest`, `progress` …). */
  what: string;
  /** Path relative to the root. */
  path: string;
}

/**
 * The facts every status line refresh reads (where a system may be present, and its context thresholds)
 * and the files every write checks. Each system declares them apart (`S0_HOT` …), HOT_FACTS gathers
 * them, and its whole facts are built from them by a call marked pure (./hot-facts), so that the status
 * line's script, which takes only these, holds none of the systems' other facts (names, homes, resume
 * prompts, budgets, help), which it would otherwise compile and build on every refresh for the thresholds
 * alone.
 */
export interface HotFacts {
  /**
   * Globs (wildcards only in the last segment) of the files the tool writes for this system only under
   * their own name, never through a link: no other write lands on one through a link either.
   */
  writtenAsThemselves?: readonly string[];
  /**
   * Globs (relative to a root; wildcards only in the last segment) whose match means the system may
   * be present: detection's pre-check, the watchers, the context meter and `activationEvents`.
   */
  presence: readonly string[];
  thresholds: ThresholdFacts;
}

export interface SystemFacts extends HotFacts {
  id: SystemId;
  /**
   * The system's name, said after its id on every surface (tree, checklist, starter picker, settings,
   * CLI, hooks, README): the one a user of the system knows it by (`Groundwork`), never the
   * product's own name, and short enough that a tree root (`S3 Groundwork — PARTIAL`) is whole at
   * the default sidebar width. Every surface takes it through `systemName`.
   */
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
  /** The command-line tool's command that switches the system on (run as `<cli> <switchOn>`), for one that can be switched off. */
  switchOn?: string;
  /** The system's other files and folders (configuration, sidecars, logs, stores), each with what it is. */
  companions: readonly Companion[];
  /**
   * The presence globs whose names many projects use for files of their own (a root PROGRESS.md or
   * MEMORY.md is seldom an agent's state file): their presence alone does not activate the extension
   * nor show its view; once it runs, detection reads such a file as the system's only by its content.
   */
  genericPresence?: readonly string[];
  /** The seed names no context figure (S1, S4): `thresholds` are Session Ledger's own marks for it, and words say so. */
  ownThresholds?: true;
  /** What to type into the agent to fire this system's own checkpoint. */
  checkpointTrigger: string;
  resume: ResumeFacts;
  freshContext: FreshContextFacts;
  budgets: BudgetFacts;
  /** The help of the system's own write actions (`session-ledger <command> --help`), by command name. */
  commands?: Readonly<Record<string, CommandHelp>>;
  /** Curation thresholds of the system's memory stores, when it keeps any. */
  curation?: CurationFacts;
}

export { S1_CURATION, S1_SNAPSHOT };

export const FACTS: Readonly<Record<SystemId, SystemFacts>> = {
  S0: S0_FACTS,
  S1: S1_FACTS,
  S2: S2_FACTS,
  S3: S3_FACTS,
  S4: S4_FACTS,
};

/** Every system's hot facts: all the status line's script holds of the facts. */
export const HOT_FACTS: Readonly<Record<SystemId, HotFacts>> = {
  S0: S0_HOT,
  S1: S1_HOT,
  S2: S2_HOT,
  S3: S3_HOT,
  S4: S4_HOT,
};

/** The facts of every system, in id order. */
export const ALL_FACTS: readonly SystemFacts[] = /* @__PURE__ */ SYSTEM_IDS.map((id) => FACTS[id]);

export function factsOf(id: SystemId): SystemFacts {
  return FACTS[id];
}

/** A system as every surface names it: its id, then its name (`S3 Groundwork`). */
export function systemName(id: SystemId): string {
  return `${id} ${FACTS[id].name}`;
}

/** True for the id of a system in the table. */
export function isSystemId(x: unknown): x is SystemId {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(HOT_FACTS, x);
}

/** The path of a system's companion (the first when several places are accepted). Throws for a name the table lacks: a programming error. */
export function companionPath(id: SystemId, what: string): string {
  const c = FACTS[id].companions.find((x) => x.what === what);
  if (!c) throw new Error(`no companion '${what}' for ${id} in the facts table`);
  return c.path;
}

/** A presence glob (`*` and `?` within one path segment; a leading `./` ignored) as a test of a relative path or file name. */
export function globRe(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/^\.\//, '')
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')}$`,
  );
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

/** Every system's generic presence globs (names many projects use for their own files), in id order. */
export function genericGlobs(): string[] {
  return [...new Set(ALL_FACTS.flatMap((f) => f.genericPresence ?? []))];
}

/** The presence globs distinctive of a system: `activationEvents` in package.json lists exactly these, as `workspaceContains:`. */
export function activationGlobs(): string[] {
  const generic = genericGlobs();
  return presenceGlobs().filter((g) => !generic.includes(g));
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
  return fill(template, { home: oneLine(home), next: next || r.next });
}

/** Every system's `writtenAsThemselves` globs, as regular expressions. */
export function writtenAsThemselves(): RegExp[] {
  return SYSTEM_IDS.flatMap((id) => HOT_FACTS[id].writtenAsThemselves ?? []).map(globRe);
}
