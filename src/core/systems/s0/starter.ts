/** S0's starter: `.agents.yml` switching the ledger on (left alone when it exists) and the ledger's empty template, as the seed writes it. A skeleton on purpose (placeholders only): the checks flag it until the agent fills it in. */
import { t } from '../../model/messages';
import type { Starter } from '../starter';
import { companionPath, systemName } from '../facts';
import { S0_FACTS } from './facts';
import { s0LedgerIn } from './reader';

const S0_YML = `# Session ledger of the majestic session-checkpoint skill.
session:
  ledger: true
  ledger_path: .agents/session_ledger.md  # optional, defaults to .agents/session_ledger.md
`;

const S0_LEDGER = `# Session Ledger

_Last updated: <timestamp>_

## Goal
<goal and success criteria>

## Constraints/Assumptions
- <constraint>

## Key Decisions
- <decision>

## State

### Done
- <completed item>

### Now
<current focus>

### Next
<planned next step>

## Open Questions
- <question> \`UNCONFIRMED\`

## Working Set
- Files: <key files>
- IDs: <relevant IDs>
- Commands: <useful commands>
`;

export const S0_STARTER: Starter = {
  system: 'S0',
  title: `${systemName('S0')} · ${S0_FACTS.home}`,
  description: t(
    'A ledger with Goal, Constraints, Decisions, Done/Now/Next, Open Questions and Working Set; .agents.yml switches it on.',
  ),
  files: [
    { path: companionPath('S0', 'config'), content: S0_YML, optional: true },
    { path: S0_FACTS.home, content: S0_LEDGER },
  ],
  home: S0_FACTS.home,
  // `.agents.yml`'s `ledger_path`, as S0's reader takes it (the starter keeps an existing `.agents.yml`).
  homeIn: s0LedgerIn,
};
