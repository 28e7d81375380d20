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
import { closingReport, type ClosingStep } from '../../core/report/closing';
import { errorText } from './error-text';

export type L10n = (message: string, ...args: Array<string | number | boolean>) => string;

export interface OutcomeMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
}

/** A core message in the user's language (a message argument, such as `(none)`, translated too). */
export function said(m: Msg, t: L10n): string {
  return render(m, t);
}

/**
 * The closing report, one sentence a line (the core's `closingReport`): the marker written, the
 * choice when the systems end differently, each system's step after its id, and that the resume
 * prompt is on the clipboard (the extension puts it there as it shows this).
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

/** The notification for an outcome. */
export function outcomeMessage(o: CheckpointOutcome, t: L10n): OutcomeMessage {
  const skipped = o.skipped.map((s) => (s.said ? said(s.said, t) : s.line));
  switch (o.kind) {
    case 'written':
      return {
        severity: 'info',
        text: [...skipped, closingMessage(o.closing, t, { marker: o.marker, copied: o.resumePrompt !== '' })].join(
          '\n',
        ),
      };
    case 'nothing-to-preserve':
      return { severity: 'info', text: o.said ? said(o.said, t) : o.lines.join(' ') };
    case 'skipped':
      return { severity: 'info', text: skipped.join('  ') };
    case 'refused':
      return {
        severity: 'warning',
        text: t('Checkpoint not written: {0}', o.refusals.map((r) => refusalText(r, t)).join(' ')),
      };
  }
}
