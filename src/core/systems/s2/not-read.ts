/** Why a file at one of S2's paths was not read as S2's document, in words (the reader records the reason code). */
import { t, type Msg } from '../../model/messages';
import type { NotReadWhy } from '../../model/model';

export function notReadS2(why: NotReadWhy, rel: string): Msg {
  return why === 'S2-manifest-keys'
    ? t('{0} has no `ledger` or `compaction` key: not read as S2.', rel)
    : t('{0} has no TASK, DECIDED, VERIFIED or DROPPED section: not read as S2.', rel);
}
