/**
 * The notification for a checkpoint outcome, localised: every sentence is one of the core's message
 * ids (a written checkpoint's closing in short, and for the checklist its closing report: the marker,
 * the choice, each system's step; its skip line, each refusal) translated with its arguments; nothing
 * here words a closing step or a refusal of its own. One sentence a line: the checklist shows the
 * lines as they are, a notification runs them together (each system's line starts with its id, so it
 * still reads). Code spans follow the one rule of
 * `messageParts`: the checklist draws them as code, the notification shows them in quotes.
 * vscode-free: the caller passes `vscode.l10n.t`.
 */
import type { CheckpointOutcome, Refusal } from '../../core/checkpoint/checkpoint';
import type { Msg } from '../../core/model/messages';
import type { SystemId } from '../../core/model/model';
import { closingReport, closingShort, type ClosingStep } from '../../core/report/closing';
import type { TextPart } from '../../protocol/checklist';
import { errorText } from './error-text';
import { joinParts, messageParts, partsT, quoted, saidParts, spanParts, type PartsT } from './findings';

export type L10n = (message: string, ...args: Array<string | number | boolean>) => string;

export interface OutcomeMessage {
  severity: 'info' | 'warning' | 'error';
  /**
   * The notification, plain (code spans in quotes). A written checkpoint's says in a sentence or two what
   * the user needs then (`closingShort`: written, the resume prompt on the clipboard, the step to type and
   * for which systems, whether anything stops /compact) and, with several systems, that each one's closing
   * words are in the log: a toast is cut at 1,000 characters, and covers the checklist's result.
   */
  text: string;
  /** Every sentence, one a line, in parts (the checklist's result, which has room for them and draws code as code). */
  full: TextPart[];
  /** The systems whose closing words the notification leaves to the log (none for one system: its step is said). */
  inLog: SystemId[];
}

/** A core message in the user's language (a message argument, such as `(none)`, translated too), plain: code spans in quotes. */
export function said(m: Msg, t: L10n): string {
  return quoted(saidParts(t, m));
}

/**
 * The closing report, one sentence a line (the core's `closingReport`): the marker written, that the
 * resume prompt is on the clipboard (the extension puts it there as it shows this), the choice when
 * the systems end differently, and each system's step after its id.
 */
export function closingMessage(
  closing: readonly ClosingStep[],
  t: L10n,
  opts: { marker: string | null; copied?: boolean; guarded?: boolean } = { marker: null },
): string {
  return closingReport(closing, opts)
    .map((m) => said(m, t))
    .join('\n');
}

/** One refusal, localised, in parts (a failed write names its cause in the user's language). */
export function refusalParts(r: Refusal, t: L10n): TextPart[] {
  if (r.code === 'write-failed' && r.cause !== undefined) return messageParts(t, r.said.id, [errorText(t, r.cause)]);
  return saidParts(t, r.said);
}

/** The sentence that names the systems whose closing step only the log holds. */
function inLogSentence(t: PartsT, systems: readonly SystemId[]): TextPart[] {
  return systems.length === 1
    ? t('The closing step of {0} is in the log (Show log).', systems[0])
    : t('The closing steps of {0} are in the log (Show log).', systems.join(', '));
}

/**
 * Sentences run together as a line of prose: a space after each, but none after a full-width full stop
 * (a Japanese sentence follows the one before with none).
 */
function sentencesParts(sentences: ReadonlyArray<readonly TextPart[]>): TextPart[] {
  return sentences.reduce<TextPart[]>((out, x) => {
    if (!out.length) return [...x];
    return joinParts([out, x], out[out.length - 1].text.endsWith('\u3002') ? '' : ' ');
  }, []);
}

/** A refused checkpoint's sentence: its reasons after what did not happen. */
function notWritten(t: PartsT, reasons: readonly TextPart[]): TextPart[] {
  return t('Checkpoint not written: {0}', reasons);
}

/** `head`, the lines one a line, then `tail`. */
function lined(head: readonly TextPart[], lines: ReadonlyArray<readonly TextPart[]>, tail: readonly TextPart[]) {
  return joinParts([head, joinParts(lines, '\n'), tail], '');
}

/**
 * The notification for an outcome, and every sentence of it for the checklist. `head` and `tail` are
 * the command's words before and after it (whose session it speaks of, what became of the ticks).
 */
export function outcomeMessage(
  o: CheckpointOutcome,
  t: L10n,
  around: { head?: string; tail?: string } = {},
): OutcomeMessage {
  const head = spanParts(around.head ?? '');
  const tail = spanParts(around.tail ?? '');
  const whole = (severity: OutcomeMessage['severity'], body: TextPart[]): OutcomeMessage => {
    const full = lined(head, [body], tail);
    return { severity, text: quoted(full), full, inLog: [] };
  };
  const skipped = o.skipped.map((s) => (s.said ? saidParts(t, s.said) : spanParts(s.line)));
  switch (o.kind) {
    case 'written': {
      const full = lined(
        head,
        [
          ...skipped,
          ...closingReport(o.closing, { marker: o.marker, copied: o.resumePrompt !== '', guarded: o.guarded }).map(
            (m) => saidParts(t, m),
          ),
        ],
        tail,
      );
      // Several systems: the notification names the step of each in short, and their own words are the log's.
      const inLog = o.closing.length > 1 ? o.closing.map((c) => c.system) : [];
      const short = [
        ...closingShort(o.closing, { copied: o.resumePrompt !== '', guarded: o.guarded }).map((m) => saidParts(t, m)),
        ...(inLog.length ? [inLogSentence(partsT(t), inLog)] : []),
      ];
      const text = quoted(lined(head, [...skipped, sentencesParts(short)], tail));
      return { severity: 'info', full, text, inLog };
    }
    case 'nothing-to-preserve':
      return whole('info', o.said ? saidParts(t, o.said) : spanParts(o.lines.join(' ')));
    case 'skipped':
      return whole('info', joinParts(skipped, '  '));
    case 'refused': {
      const reasons = joinParts(
        o.refusals.map((r) => refusalParts(r, t)),
        ' ',
      );
      return whole('warning', notWritten(partsT(t), reasons));
    }
  }
}

/** The labels of the buttons a checkpoint's notification offers. */
export interface CheckpointButtons {
  /** Types the system's checkpoint trigger into the agent's terminal (the command Ask the agent to checkpoint). */
  ask: string;
  openList: string;
  /** Puts the resume prompt on the clipboard again: the notification that offers it says it is there already. */
  copy: string;
  showLog: string;
}

/**
 * The buttons of a checkpoint's notification, in few words: VS Code draws them on the line that names the
 * notification's source ("Source: Session Ledger") in a toast at most 450 px wide, and the source gets only
 * the width the buttons leave (with "Ask the agent to checkpoint" beside "Open checklist", a refusal's
 * source was cut in English and Japanese). The refusal says what the agent is asked for; a written
 * checkpoint's notification says the resume prompt is on the clipboard, so its button copies it "again".
 */
export function checkpointButtons(t: L10n): CheckpointButtons {
  return {
    ask: t('Ask the agent'),
    openList: t('Open checklist'),
    copy: t('Copy again'),
    showLog: t('Show log'),
  };
}

/**
 * A written checkpoint's buttons: two at most, the first two of these that apply, as no three of them leave
 * the toast's source its width: the log when the notification names closing steps only the log holds (it
 * says "Show log"), asking the agent when one runs in a terminal here and its state is stale, the checklist,
 * and copying the resume prompt again (the extension put it on the clipboard as it showed the notification).
 */
export function writtenButtons(b: CheckpointButtons, o: { inLog: boolean; agent: boolean; copied: boolean }): string[] {
  const all = [o.inLog && b.showLog, o.agent && b.ask, b.openList, o.copied && b.copy];
  return all.filter((x): x is string => !!x).slice(0, 2);
}

/**
 * A refused checkpoint's buttons: on blocking checks, the checklist, and before it, when an agent runs in a
 * terminal here, asking the agent; none when only manual items are open (the checklist opens on them).
 */
export function refusalButtons(b: CheckpointButtons, o: { blocking: boolean; agent: boolean }): string[] {
  return o.blocking ? (o.agent ? [b.ask, b.openList] : [b.openList]) : [];
}
