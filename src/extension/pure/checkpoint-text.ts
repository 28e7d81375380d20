/**
 * The notification for a checkpoint outcome, localised: every sentence is one of the core's message
 * ids (the closing report: the marker, the choice, each system's step; its skip line, each refusal)
 * translated with its arguments; nothing here words a closing step or a refusal of its own. One
 * sentence a line: the checklist shows the lines as they are, a notification runs them together
 * (each system's line starts with its id, so it still reads). vscode-free: the caller passes
 * `vscode.l10n.t`.
 */
import type { CheckpointOutcome, Refusal } from '../../core/checkpoint/checkpoint';
import { render, type Msg } from '../../core/model/messages';
import type { SystemId } from '../../core/model/model';
import { closingReport, closingReportLines, type ClosingStep } from '../../core/report/closing';
import { errorText } from './error-text';

export type L10n = (message: string, ...args: Array<string | number | boolean>) => string;

/** VS Code shows at most this many characters of a notification's message, then "...". */
export const NOTIFICATION_LIMIT = 1000;

export interface OutcomeMessage {
  severity: 'info' | 'warning' | 'error';
  /**
   * The notification: every sentence when they fit in `NOTIFICATION_LIMIT`; else every sentence but
   * the systems' closing steps that no longer fit, which one last sentence names as in the log.
   */
  text: string;
  /** Every sentence, one a line (the checklist's result, which has room for them). */
  full: string;
  /** The systems whose closing step the notification leaves to the log (none when every sentence fits). */
  inLog: SystemId[];
}

/** A core message in the user's language (a message argument, such as `(none)`, translated too). */
export function said(m: Msg, t: L10n): string {
  return render(m, t);
}

/**
 * The closing report, one sentence a line (the core's `closingReport`): the marker written, that the
 * resume prompt is on the clipboard (the extension puts it there as it shows this), the choice when
 * the systems end differently, and each system's step after its id.
 */
export function closingMessage(
  closing: readonly ClosingStep[],
  t: L10n,
  opts: { marker: string | null; copied?: boolean } = { marker: null },
): string {
  return closingReport(closing, opts)
    .map((m) => said(m, t))
    .join('\n');
}

/** One refusal, localised (a failed write names its cause in the user's language). */
export function refusalText(r: Refusal, t: L10n): string {
  if (r.code === 'write-failed' && r.cause !== undefined) return t(r.said.id, errorText(t, r.cause));
  return said(r.said, t);
}

/** The sentence that names the systems whose closing step only the log holds. */
function inLogSentence(t: L10n, systems: readonly SystemId[]): string {
  return systems.length === 1
    ? t('The closing step of {0} is in the log (Show log).', systems[0])
    : t('The closing steps of {0} are in the log (Show log).', systems.join(', '));
}

/**
 * A written checkpoint's sentences as the notification shows them: all of them when they fit in
 * `NOTIFICATION_LIMIT` (VS Code cuts the rest off mid-sentence); else the ones that say what is true
 * and what to type (the skip lines, the marker, the clipboard, the choice), then as many systems'
 * closing steps as fit, each whole, and a last sentence naming the others, which the log holds.
 */
function fitted(
  lines: ReadonlyArray<{ text: string; system?: SystemId }>,
  t: L10n,
  head: string,
  tail: string,
): { text: string; inLog: SystemId[] } {
  const others = lines.filter((l) => !l.system).map((l) => l.text);
  const steps = lines.filter((l): l is { text: string; system: SystemId } => !!l.system);
  const withSteps = (k: number) => {
    const left = steps.slice(k).map((l) => l.system);
    const said = [...others, ...steps.slice(0, k).map((l) => l.text), ...(left.length ? [inLogSentence(t, left)] : [])];
    return { text: `${head}${said.join('\n')}${tail}`, inLog: left };
  };
  const all = `${head}${lines.map((l) => l.text).join('\n')}${tail}`;
  if (all.length <= NOTIFICATION_LIMIT) return { text: all, inLog: [] };
  for (let k = steps.length - 1; k > 0; k--) {
    const f = withSteps(k);
    if (f.text.length <= NOTIFICATION_LIMIT) return f;
  }
  return withSteps(0);
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
  const head = around.head ?? '';
  const tail = around.tail ?? '';
  const whole = (severity: OutcomeMessage['severity'], body: string): OutcomeMessage => {
    const text = `${head}${body}${tail}`;
    return { severity, text, full: text, inLog: [] };
  };
  const skipped = o.skipped.map((s) => (s.said ? said(s.said, t) : s.line));
  switch (o.kind) {
    case 'written': {
      const lines = [
        ...skipped.map((text) => ({ text })),
        ...closingReportLines(o.closing, { marker: o.marker, copied: o.resumePrompt !== '' }).map((l) => ({
          text: said(l.said, t),
          system: l.system,
        })),
      ];
      const full = `${head}${lines.map((l) => l.text).join('\n')}${tail}`;
      return { severity: 'info', full, ...fitted(lines, t, head, tail) };
    }
    case 'nothing-to-preserve':
      return whole('info', o.said ? said(o.said, t) : o.lines.join(' '));
    case 'skipped':
      return whole('info', skipped.join('  '));
    case 'refused':
      return whole('warning', t('Checkpoint not written: {0}', o.refusals.map((r) => refusalText(r, t)).join(' ')));
  }
}
