/** S1's starter: the LATEST handoff's empty template with its state-snapshot block, as the seed writes it, and the memory stores beside it. A skeleton on purpose (placeholders only): the checks flag it until the agent fills it in. */
import * as path from 'node:path';
import { t } from '../../model/messages';
import type { Starter } from '../starter';
import { systemName } from '../facts';
import { S1_FACTS } from './facts';

const S1_HANDOFF = `---
name: Session Handoff — Latest
---
<!-- state-snapshot v1 -->
\`\`\`yaml
ts: YYYY-MM-DD
ctx: "<this session summary, max 20 words>"
next:
  - "<task (urgency: H)>"
diff: []
blocked: []
\`\`\`

# Session Handoff (<date> — <title>)

## What to do now (priority order)
1. [Most urgent] — include execution command
2. [Next]

## Current work status
- In-progress work: [file name, function name, progress]

## Pending decisions
- [Topic]: [Options] — opinion: [if any] · urgency: H/M/L

## Outstanding issues
- [Unresolved bug/problem] · risk: H/M/L

## System understanding (context needed next session)
- [Key causal relationships discovered this session]
- [Attempted approaches that failed — don't repeat]
- [Critical file paths and function names — restore after compact]

## User's current interests
- Top priority: [what]
- Dissatisfied: [what]
`;

/**
 * Phase 3's storage targets beside the handoff, as the seed's Error Recovery for missing_data makes
 * them: empty templates (left alone when they exist).
 */
const S1_MEMORY = `# MEMORY

Permanent facts of this project: Phase 3 promotes them here, rewriting a section rather than appending to it.

## Key Files & Architecture
`;

const S1_CONTEXT_LOG = `# Context log

Episode items: Phase 3 appends each on a line of its own, with its date, its TTL and its reference count.
`;

export const S1_STARTER: Starter = {
  system: 'S1',
  title: `${systemName('S1')} · ${S1_FACTS.home}`,
  description: t(
    'One forward-only handoff with a state-snapshot block (what to do now, pending decisions, outstanding issues), and MEMORY.md and context-log.md beside it for Phase 3.',
  ),
  files: [
    { path: S1_FACTS.home, content: S1_HANDOFF },
    { path: `${path.posix.dirname(S1_FACTS.home)}/MEMORY.md`, content: S1_MEMORY, optional: true },
    { path: `${path.posix.dirname(S1_FACTS.home)}/context-log.md`, content: S1_CONTEXT_LOG, optional: true },
  ],
  home: S1_FACTS.home,
};
