/**
 * The closing step of a checkpoint: what the user types once the state is checked and the marker is
 * written. Each system names its closing in its seed's words (S0's Step 5 confirmation then `/clear`
 * and reload the ledger; S1's `checkpoint complete. Run /compact …`; S2's go-signal; S3's fresh
 * session with `/clear` and the resume prompt; S4's report in Japanese), one system a line, under
 * its id, after the line that says the marker was written and no state file changed. Systems whose
 * seeds end differently (`/clear` and `/compact`) are told apart in one sentence that says which
 * command each names and that one of them is typed.
 *
 * Every surface takes its words from here: the CLI (and the hook script, which is the CLI) prints
 * each system's lines and the choice; the checklist's result shows `closingReport`, the extension's
 * notification `closingShort` (the step in short, each system's words left to the log). Each system words its own step in its home (`systems/<sN>/closing.ts`). The user
 * types the step; nothing here runs it.
 *
 * Pure: it formats what the report already holds.
 */
import { oneLine, t, type Msg } from '../model/messages';
import type { SystemId, SystemReport } from '../model/model';
import { FACTS, type FreshContextFacts } from '../systems/facts';
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
  /** False when the seed names no step of its own (`step` is then S2's go-signal's, /compact). */
  prescribed: boolean;
  /** The system's home file (the handoff / ledger / STATE the fresh context reads). */
  home: string;
  /** The prompt to paste into the fresh context. */
  resumePrompt: string;
  /** The SessionStart hook runs for the session's client: after /clear it hands the agent the resume block itself. */
  handedOver: boolean;
}

/** What a system adds to its closing step. */
export interface ClosingWords {
  /**
   * What the CLI prints under the system's id, English: its seed's closing report in the seed's shape
   * (S0's three Step 5 lines, S2's NEXT, S4's report in Japanese, S3's prompt to paste) and its step.
   */
  lines: string[];
  /**
   * The system's closing in one line, without its id: its seed's confirmation or report, then its
   * step. The same words on every surface (a message id and its arguments).
   */
  notice: Msg;
  /** S0 only: its Step 5 confirmation. */
  s0?: S0Confirmation;
}

/** A system's closing step, from its report and the shared start. */
export type ClosingOf = (s: SystemReport, base: ClosingBase) => ClosingWords;

export interface ClosingStep extends ClosingBase, ClosingWords {}

/** The closing step of one system whose checkpoint went through (`handedOver`: see `ClosingBase`). */
export function closingStep(s: SystemReport, handedOver = false): ClosingStep {
  const resumePrompt = s.resumePrompt?.trim() || `Read ${oneLine(s.home)} and continue from its next action.`;
  const fresh = FACTS[s.id].freshContext;
  const base: ClosingBase = {
    system: s.id,
    step: fresh.command,
    prescribed: fresh.prescribed,
    home: s.home,
    resumePrompt,
    handedOver,
  };
  return { ...base, ...homeOf(s.id).closing(s, base) };
}

/** Each system's closing step, in id order. */
export function closingSteps(systems: readonly SystemReport[], handedOver = false): ClosingStep[] {
  return systems.map((s) => closingStep(s, handedOver));
}

/**
 * When the systems' seeds name different commands (`/clear` and `/compact`), the one sentence that
 * says so: which systems name which, that one of the two is typed and not both, and what each keeps.
 * Either is safe once the marker is written: the state files are on disk as checked (a fresh session
 * reads them through the resume prompt). The marker lets `/compact` through where the guard runs
 * (`guarded`, core `guardRuns`); where it does not, nothing stops /compact with or without the marker,
 * and the sentence says so. A system whose seed names no step (S4) counts with the command its line
 * names (S2's go-signal, `/compact`). Null when they agree, or when there is one system.
 */
export function closingChoice(closing: readonly Pick<ClosingStep, 'system' | 'step'>[], guarded = true): Msg | null {
  const clear = systemsOf(closing, '/clear');
  const compact = systemsOf(closing, '/compact');
  if (!clear || !compact) return null;
  if (!guarded)
    return t(
      'The systems here end differently. Type one of the two, not both: /clear ({0}) starts afresh from the state files, with the resume prompt; /compact ({1}) keeps a summary of this conversation too. Either is safe: the files are checked. No guard here: nothing stops /compact.',
      clear,
      compact,
    );
  return t(
    'The systems here end differently. Type one of the two, not both: /clear ({0}) starts afresh from the state files, with the resume prompt; /compact ({1}) keeps a summary of this conversation too. Either is safe: the files are checked and the marker lets /compact through.',
    clear,
    compact,
  );
}

/** The ids of the systems whose closing step is `step`, comma-separated ('' for none). */
function systemsOf(closing: readonly Pick<ClosingStep, 'system' | 'step'>[], step: FreshContextStep): string {
  return closing
    .filter((c) => c.step === step)
    .map((c) => c.system)
    .join(', ');
}

/**
 * A written checkpoint's closing in short, for a notification that has room for a sentence or two: that
 * the checkpoint is written (and, when the caller put it there, that the resume prompt is on the
 * clipboard); the one step to type now, its command and the systems that name it (when they end
 * differently, both commands, one of them typed); and whether anything stops /compact: where the guard
 * runs (`guarded`, core `guardRuns`) the marker lets it through, elsewhere nothing stops it. Each
 * system's own closing words are the closing report's (`closingReport`), which surfaces with room show.
 */
export function closingShort(
  closing: readonly Pick<ClosingStep, 'system' | 'step'>[],
  opts: { copied?: boolean; guarded?: boolean },
): Msg[] {
  const clear = systemsOf(closing, '/clear');
  const compact = systemsOf(closing, '/compact');
  const step =
    clear && compact
      ? t('Type one of the two, not both: /clear ({0}) or /compact ({1}).', clear, compact)
      : clear
        ? t('Type /clear ({0}).', clear)
        : compact
          ? t('Type /compact ({0}).', compact)
          : null;
  return [
    t('Checkpoint written.'),
    ...(opts.copied ? [t('The resume prompt is on the clipboard.')] : []),
    ...(step ? [step] : []),
    opts.guarded === false ? t('No guard here: nothing stops /compact.') : t('The marker lets /compact through.'),
  ];
}

/** A system's closing step as one surface line: its id, then its sentence. */
export function attributed(c: Pick<ClosingStep, 'system' | 'notice'>): Msg {
  return t('{0}: {1}', c.system, c.notice);
}

/** One sentence of the closing report, and the system whose closing step it is (none for the others). */
export interface ClosingLine {
  said: Msg;
  system?: SystemId;
}

/**
 * What a checkpoint that wrote the marker says, in order, one message a line: what is true first — the
 * marker the tool wrote (and that it changed no state file) and, when the caller put the resume prompt
 * on the clipboard, that it is there — then what to type: the choice when the systems end
 * differently, and each system's closing step under its id.
 */
export function closingReportLines(
  closing: readonly ClosingStep[],
  opts: { marker: string | null; copied?: boolean; guarded?: boolean },
): ClosingLine[] {
  const out: ClosingLine[] = [];
  if (opts.marker !== null)
    out.push({
      said: t('Marker written: {0}. Session Ledger checked the state files and changed none of them.', opts.marker),
    });
  if (opts.copied) out.push({ said: t('The resume prompt is on the clipboard.') });
  const choice = closingChoice(closing, opts.guarded);
  if (choice) out.push({ said: choice });
  for (const c of closing) out.push({ said: attributed(c), system: c.system });
  return out;
}

/** The closing report's sentences (`closingReportLines` without whose each is). */
export function closingReport(
  closing: readonly ClosingStep[],
  opts: { marker: string | null; copied?: boolean; guarded?: boolean },
): Msg[] {
  return closingReportLines(closing, opts).map((l) => l.said);
}
