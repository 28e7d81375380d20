/**
 * Starter files: the empty template of each system's home file, as its seed writes it, for a
 * workspace that has none yet. A starter never overwrites: a required file that exists refuses the
 * whole starter; an optional companion that exists is left alone. The templates are skeletons on
 * purpose (placeholders only), so the checks flag them until the agent fills them in.
 */
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from '../files/atomic';
import { pathKind } from '../files/fsread';
import { companionPath, FACTS } from './facts';
import { SYSTEM_IDS, type SystemId } from '../model/model';

export interface StarterFile {
  /** Relative to the workspace root, `/`-separated. */
  path: string;
  content: string;
  /** A companion that is left alone when it exists (the starter goes on without it). */
  optional?: boolean;
}

export interface Starter {
  system: SystemId;
  /** Short name for a picker. */
  title: string;
  /** One line: what the system is, and which files the starter writes. */
  description: string;
  files: StarterFile[];
  /** The file to open after writing (the home file). */
  home: string;
}

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

const S3_STATE = `# STATE: live project state

<!-- Filled by the first session, then kept literally true by every checkpoint. Budget: 150 lines. -->

## Handoff: read this first

- **Status:** TBD
- **Phase:** TBD
- **Branch / HEAD:** TBD
- **Gates:** TBD <!-- with numbers: "checks green, tests 42/42" -->
- **Now ▶** TBD <!-- the single exact next action, concrete enough to start cold -->
- **Blocked on:** TBD

## Log

<!-- Newest first. One short dated entry per session: Done, Docs touched, Lessons / gotchas, Stopped at. -->
`;

const S4_STATE = `# Agent State

## Main Agent

<agent>

## Repository Identity

_Not initialized yet._

## Progress Tracker

Rolling progress summary (latest 5 checkpoints): [PROGRESS.md](../PROGRESS.md)

<!-- Working state below is maintained by workflow skills and manual notes. -->
`;

const S4_PROGRESS = `# Progress

<!-- The latest five checkpoint summaries, newest first (rebuilt by the checkpointing skill). -->
`;

const STARTERS: Record<SystemId, Starter> = {
  S0: {
    system: 'S0',
    title: `S0 — Session ledger (${FACTS.S0.home})`,
    description: 'A ledger with Goal, Constraints, Decisions, Done/Now/Next, Open Questions and Working Set; .agents.yml switches it on.',
    files: [
      { path: companionPath('S0', 'config'), content: S0_YML, optional: true },
      { path: FACTS.S0.home, content: S0_LEDGER },
    ],
    home: FACTS.S0.home,
  },
  S1: {
    system: 'S1',
    title: `S1 — Session handoff (${FACTS.S1.home})`,
    description: 'One forward-only handoff with a state-snapshot block: what to do now, pending decisions, outstanding issues.',
    files: [{ path: FACTS.S1.home, content: S1_HANDOFF }],
    home: FACTS.S1.home,
  },
  S2: {
    system: 'S2',
    title: `S2 — Session ledger for prepare-then-compact (${FACTS.S2.home})`,
    description: 'TASK, NEXT, OPEN, DECIDED, VERIFIED, DROPPED, PLAN: the working set a PreCompact guard checks.',
    files: [{ path: FACTS.S2.home, content: S2_LEDGER }],
    home: FACTS.S2.home,
  },
  S3: {
    system: 'S3',
    title: `S3 — STATE handoff (${FACTS.S3.home})`,
    description: 'A handoff block (Status, Gates, Now ▶, Blocked on) and a dated log, newest first.',
    files: [{ path: FACTS.S3.home, content: S3_STATE }],
    home: FACTS.S3.home,
  },
  S4: {
    system: 'S4',
    title: `S4 — Agent state (${FACTS.S4.home})`,
    description: 'One # Agent State with a Progress Tracker; PROGRESS.md keeps the latest five checkpoints.',
    files: [
      { path: FACTS.S4.home, content: S4_STATE },
      { path: companionPath('S4', 'progress'), content: S4_PROGRESS, optional: true },
    ],
    home: FACTS.S4.home,
  },
};

export const STARTER_SYSTEMS: readonly SystemId[] = SYSTEM_IDS;

export function starterFor(system: SystemId): Starter {
  return STARTERS[system];
}

export interface StarterPlan {
  starter: Starter;
  /** Files that will be written. */
  write: StarterFile[];
  /** Optional companions that exist and are left alone. */
  keep: StarterFile[];
  /** Required files that exist: the starter refuses. */
  conflicts: string[];
}

/** What a starter would write under `root`, without writing. */
export async function planStarter(root: string, system: SystemId): Promise<StarterPlan> {
  const starter = starterFor(system);
  const plan: StarterPlan = { starter, write: [], keep: [], conflicts: [] };
  for (const f of starter.files) {
    const exists = (await pathKind(path.join(root, ...f.path.split('/')))) !== 'missing';
    if (!exists) plan.write.push(f);
    else if (f.optional) plan.keep.push(f);
    else plan.conflicts.push(f.path);
  }
  return plan;
}

/**
 * Write a system's starter under `root`. Refuses (WriteRefused 'exists', nothing written) when a
 * required file exists; each file is created only if it still does not exist at the rename.
 */
export async function writeStarter(root: string, system: SystemId): Promise<{ written: string[]; kept: string[] }> {
  const plan = await planStarter(root, system);
  if (plan.conflicts.length) {
    throw new WriteRefused(`${plan.conflicts.join(', ')} already exists; the starter never overwrites.`, 'exists', plan.conflicts.join(', '));
  }
  const written: string[] = [];
  // Required files first, so a refusal (a race) leaves no orphan companion behind.
  const order = [...plan.write.filter((f) => !f.optional), ...plan.write.filter((f) => f.optional)];
  for (const f of order) {
    try {
      await writeAtomic(path.join(root, ...f.path.split('/')), f.content, { expectHash: null, root });
      written.push(f.path);
    } catch (err) {
      if (f.optional && err instanceof WriteRefused && err.reason === 'exists') {
        plan.keep.push(f);
        continue;
      }
      throw err;
    }
  }
  return { written, kept: plan.keep.map((f) => f.path) };
}
