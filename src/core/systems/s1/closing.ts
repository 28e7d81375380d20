/**
 * S1's closing step (session handoff): `checkpoint complete. Run /compact to compress context.
 * Handoff: <handoff>`, and only when every Phase 4 item is YES (a refused checkpoint never gets here).
 */
import { t } from '../../model/messages';
import type { ClosingOf } from '../../report/closing';

export const closingS1: ClosingOf = (_s, base) => ({
  lines: [base.line],
  notice: t('checkpoint complete. Run /compact to compress context. Handoff: {0}', base.home),
});
