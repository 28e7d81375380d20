/** Why a file at one of S3's paths was not read as S3's document, in words (the reader records the reason code). */
import { t, type Msg } from '../../model/messages';
import type { NotReadWhy } from '../../model/model';

export function notReadS3(_why: NotReadWhy, rel: string): Msg {
  return t('{0} has no `## Handoff`, `## Log` or `Now ▶` line: not read as S3.', rel);
}
