/** Why a file at one of S0's paths was not read as S0's document, in words (the reader records the reason code). */
import { t, type Msg } from '../../model/messages';
import type { NotReadWhy } from '../../model/model';
import { S0_FACTS } from './facts';

export function notReadS0(_why: NotReadWhy, rel: string): Msg {
  return t(
    '{0} has fewer than {1} of the ledger sections (Goal, Constraints, Decisions, Done, Now, Next, Open Questions, Working Set): not read as S0.',
    rel,
    S0_FACTS.homeAlternativesMinSections ?? 0,
  );
}
