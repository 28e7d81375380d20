/** S2's starter: the session ledger's empty template (TASK, NEXT, OPEN, DECIDED, VERIFIED, DROPPED, PLAN), as the seed writes it. A skeleton on purpose (placeholders only): the checks flag it until the agent fills it in. */
import { t } from '../../model/messages';
import type { Starter } from '../starter';
import { systemName } from '../facts';
import { S2_FACTS } from './facts';

const S2_LEDGER = `# Session Ledger
_started: <ISO timestamp>_

## TASK
<one line: what this session is trying to achieve>

## NEXT
<the single most valuable next action, one line>

## OPEN
- <question still unresolved, and what would settle it>

## DECIDED
- <decision>: <the reason it beat the alternative>

## VERIFIED
- <fact> [<the exact command or probe that proved it>]

## DROPPED
- <approach abandoned>: <why, so it is never retried>

## PLAN
<path to the plan file, if any>
`;

export const S2_STARTER: Starter = {
  system: 'S2',
  title: `${systemName('S2')} · ${S2_FACTS.home}`,
  description: t('TASK, NEXT, OPEN, DECIDED, VERIFIED, DROPPED, PLAN: the working set a PreCompact guard checks.'),
  files: [{ path: S2_FACTS.home, content: S2_LEDGER }],
  home: S2_FACTS.home,
};
