/** S4's fixes: compact the state to the newest block of each kind (the write is `compact-state.ts`). */
import { t } from '../../model/messages';
import type { FixOffer, FixPlace } from '../line-edit';

/** The fix S4's compaction finding offers, through a preview. */
export function fixOffersS4(p: FixPlace): FixOffer[] {
  return p.check.id === 'compaction' && p.onHome
    ? [{ kind: 'compact', title: t('Compact {0}: keep the newest block of each kind (preview)…', p.path) }]
    : [];
}
