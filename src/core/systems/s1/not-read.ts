/** Why a file at one of S1's paths was not read as S1's document, in words (the reader records the reason code). */
import { t, type Msg } from '../../model/messages';
import type { NotReadWhy } from '../../model/model';
import { S1_FACTS } from './facts';

export function notReadS1(_why: NotReadWhy, rel: string): Msg {
  return t(
    '{0} is here, but the handoff {1} is missing: S1 is not read without it (the next session starts from the handoff alone).',
    rel,
    // The handoff beside it (memory/ or .claude/memory/).
    rel.replace(/[^/]*$/, '') + (S1_FACTS.home.split('/').pop() ?? S1_FACTS.home),
  );
}
