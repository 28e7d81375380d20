/**
 * The notification for a checkpoint outcome, localised: built from the outcome's typed fields
 * (kind, refusal codes, check ids, closing steps), never from the core's English lines.
 * vscode-free: the caller passes `vscode.l10n.t`.
 */
import type { CheckpointOutcome, Refusal } from '../../core/checkpoint/checkpoint';
import type { ClosingStep } from '../../core/report/closing';
import { errorText } from './error-text';

export type L10n = (message: string, ...args: Array<string | number | boolean>) => string;

export interface OutcomeMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
}

/** One system's closing step, in its seed's words. */
export function closingText(c: ClosingStep, t: L10n): string {
  switch (c.system) {
    case 'S0': {
      const s = c.s0;
      return t(
        'Checkpoint saved to {0} (Goal: {1}; {2} done, now: {3}, next: {4}). Then run /clear and reload the ledger: the resume prompt is on the clipboard.',
        c.home,
        s?.goal ?? t('(none)'),
        s?.done ?? 0,
        s?.now ?? t('(none)'),
        s?.next ?? t('(none)'),
      );
    }
    case 'S1':
      return t('checkpoint complete. Run /compact to compress context. Handoff: {0}', c.home);
    case 'S3':
      return t('Handoff written to {0}. Start a fresh session with /clear, then paste the resume prompt (it is on the clipboard).', c.home);
    default:
      return t('Checkpoint saved. Safe to run /compact now.');
  }
}

/** Each system's closing step; with several systems each is prefixed by its id. */
export function closingMessage(closing: readonly ClosingStep[], t: L10n): string {
  if (closing.length === 1) return closingText(closing[0], t);
  return closing.map((c) => `${c.system}: ${closingText(c, t)}`).join('  ');
}

function ids(r: Refusal): string {
  return [...new Set(r.checks.map((c) => `${c.system} ${c.id}`))].join(', ');
}

/** One refusal, localised. */
export function refusalText(r: Refusal, t: L10n): string {
  switch (r.code) {
    case 'nothing-detected':
      return t('No agent state file detected: looked for {0}.', (r.lookedFor ?? []).flatMap((l) => l.paths).join(', '));
    case 'blocking-checks':
      return t('{0} blocking check(s) failed ({1}).', r.checks.length, ids(r));
    case 'manual-unconfirmed':
      return t('{0} manual item(s) not confirmed ({1}): tick them in the checklist when they are true.', r.checks.length, ids(r));
    case 'ambiguous-session':
      return t('{0} agent sessions of this folder wrote in the last {1} minutes; pick the one this checkpoint is for.', r.sessions?.length ?? 0, r.windowMinutes ?? 0);
    case 'bad-session-id':
      return t('{0} is not a session id.', r.ids?.[0] ?? '');
    case 'unknown-confirm':
      return t('Unknown manual item(s): {0}.', (r.ids ?? []).join(', '));
    case 'write-failed':
      return t('The marker could not be written: {0}', r.cause !== undefined ? errorText(t, r.cause) : (r.error ?? ''));
  }
}

/** The notification for an outcome. */
export function outcomeMessage(o: CheckpointOutcome, t: L10n): OutcomeMessage {
  const skipped = o.skipped.map((s) => (s.system === 'S0' ? t('Checkpoint skipped - session.ledger not enabled in .agents.yml') : s.line));
  switch (o.kind) {
    case 'written':
      return { severity: 'info', text: [...skipped, closingMessage(o.closing, t)].join('  ') };
    case 'nothing-to-preserve':
      return { severity: 'info', text: t('Marker written (nothing to preserve): the PreCompact guard lets /compact through.') };
    case 'skipped':
      return { severity: 'info', text: skipped.join('  ') };
    case 'refused':
      return { severity: 'warning', text: t('Checkpoint not written: {0}', o.refusals.map((r) => refusalText(r, t)).join(' ')) };
  }
}
