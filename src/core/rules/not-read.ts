/**
 * The reasons a file at a system's path was not read as that system's document, in words: the
 * readers record why (`NotReadWhy`), these say it.
 */
import { FACTS } from '../systems/facts';
import { t, type Msg } from '../model/messages';
import type { NotOurs, NotRead, NotReadWhy } from '../model/model';

function reason(why: NotReadWhy, rel: string): Msg {
  switch (why) {
    case 'S0-few-sections':
      return t('{0} has fewer than {1} of the ledger sections (Goal, Constraints, Decisions, Done, Now, Next, Open Questions, Working Set): not read as S0.', rel, FACTS.S0.homeAlternativesMinSections ?? 0);
    case 'S2-project-state-words':
      return t('{0} has no TASK, DECIDED, VERIFIED or DROPPED section: not read as S2.', rel);
    case 'S2-manifest-keys':
      return t('{0} has no `ledger` or `compaction` key: not read as S2.', rel);
    case 'S3-no-handoff':
      return t('{0} has no `## Handoff`, `## Log` or `Now ▶` line: not read as S3.', rel);
    case 'S4-no-blocks':
      return t('{0} has no `# Agent State`, `## Progress Tracker` or `## Current …` block: not read as S4.', rel);
  }
}

/** A file not read, with its reason in words and the reason's message id and arguments. */
export function notReadOf(n: NotOurs): NotRead {
  const m = reason(n.why, n.path);
  return { path: n.path, system: n.system, reason: m.text, reasonId: m.id, args: [...m.args] };
}
