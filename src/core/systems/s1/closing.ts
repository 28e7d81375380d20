/**
 * S1's closing step (session handoff): its Phase 5 guidance, given once verification passes, in its
 * seed's words: `checkpoint complete. Run /compact to compress context. Handoff: <handoff>`. The
 * tool's checkpoint is that verification (every check, every Phase 4 item confirmed) and the marker;
 * a refused checkpoint never gets here, so /compact is never said while a Phase 4 item is NO.
 */
import { t } from '../../model/messages';
import type { ClosingOf } from '../../report/closing';

export const closingS1: ClosingOf = (_s, base) => {
  const notice = t('checkpoint complete. Run /compact to compress context. Handoff: {0}', base.home);
  return { lines: [notice.text], notice };
};
