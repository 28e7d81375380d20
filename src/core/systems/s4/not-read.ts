/** Why a file at one of S4's paths was not read as S4's document, in words (the reader records the reason code). */
import { t, type Msg } from '../../model/messages';
import type { NotReadWhy } from '../../model/model';

export function notReadS4(_why: NotReadWhy, rel: string): Msg {
  return t('{0} has no `# Agent State`, `## Progress Tracker` or `## Current …` block: not read as S4.', rel);
}
