/**
 * The reasons a file at a system's path was not read as that system's document, in words: the
 * readers record why (`NotReadWhy`), each system's home words it (`<sN>/not-read.ts`).
 */
import type { NotOurs, NotRead } from '../model/model';
import { hookHomeOf } from '../systems/hooks';

/** A file not read, with its reason in words and the reason's message id and arguments. */
export function notReadOf(n: NotOurs): NotRead {
  const words = hookHomeOf(n.system).notRead;
  if (!words)
    throw new Error(`${n.system}'s reader records a file it did not read (${n.why}), and its home has no words for it`);
  const m = words(n.why, n.path);
  return { path: n.path, system: n.system, reason: m.text, reasonId: m.id, args: [...m.args] };
}
