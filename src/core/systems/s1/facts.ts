/** S1's facts (session handoff with attestation): the LATEST handoff, its sidecar and memory stores, the snapshot caps, the curation thresholds and its `/compact` closing line. Pure data: no I/O, cheap for the hot paths. */
import { withHot } from '../hot-facts';
import type { CurationFacts, HotFacts, SnapshotBudget, SystemFacts } from '../facts';

/**
 * S1's snapshot caps (ctx ≤ 20 words, next ≤ 5, diff ≤ 5 with op add|del|mod|decide and why ≤ 10
 * words, blocked ≤ 3 with risk H|M|L), named so the reader and the checks take them without a fallback.
 */
export const S1_SNAPSHOT: SnapshotBudget = {
  ctxWords: 20,
  next: 5,
  diff: 5,
  blocked: 3,
  whyWords: 10,
  ops: ['add', 'del', 'mod', 'decide'],
  risks: ['H', 'M', 'L'],
};

/**
 * S1's curation: archive a lesson at conf < 0.4 unseen for 90 days; flag it for a hook at conf ≥ 0.9
 * seen ≥ 3 times; promote a context-log entry at ref ≥ 3. Confidence stays between 0.3 (the floor a
 * correction stops at) and 0.9; lessons dated from 2026-04-28 (the v2 format) carry their meta line.
 */
export const S1_CURATION: CurationFacts = {
  archive: { conf: 0.4, days: 90 },
  hookPromotion: { conf: 0.9, obs: 3 },
  promoteRefs: 3,
  conf: { min: 0.3, max: 0.9 },
  metaSince: '2026-04-28',
};

/** What every status line refresh reads of S1 (its presence and thresholds) and the files every write checks: see HotFacts. */
export const S1_HOT: HotFacts = {
  // The attestation sidecar, beside the handoff wherever it lives.
  writtenAsThemselves: ['memory/.session-handoff.sha256', '.claude/memory/.session-handoff.sha256'],
  presence: [
    'memory/session-handoff-LATEST.md',
    '.claude/memory/session-handoff-LATEST.md',
    'memory/session-handoff*.md',
    '.claude/memory/session-handoff*.md',
    'memory/.session-handoff.sha256',
    'memory/MEMORY.md',
    'MEMORY.md',
    'memory/context-log.md',
    'context-log.md',
    'tasks/lessons.md',
    'memory/tasks/lessons.md',
  ],
  thresholds: { propose: 50, urgent: 80 },
};

// Built by a call marked pure: the status line's script takes S1_HOT alone and leaves the rest out.
export const S1_FACTS: SystemFacts = /* @__PURE__ */ withHot(S1_HOT, {
  id: 'S1',
  name: 'session handoff',
  home: 'memory/session-handoff-LATEST.md',
  homeRole: 'handoff',
  homeAlternatives: ['.claude/memory/session-handoff-LATEST.md'],
  switchedOff: null,
  // MEMORY.md and context-log.md are looked for beside the handoff first, then at the root.
  companions: [
    { what: 'sidecar', path: 'memory/.session-handoff.sha256' },
    { what: 'memory', path: 'memory/MEMORY.md' },
    { what: 'memory', path: 'MEMORY.md' },
    { what: 'contextLog', path: 'memory/context-log.md' },
    { what: 'contextLog', path: 'context-log.md' },
    { what: 'lessons', path: 'tasks/lessons.md' },
    { what: 'lessons', path: 'memory/tasks/lessons.md' },
  ],
  // At the root these names are common in projects without S1; under memory/ they are S1's.
  genericPresence: ['MEMORY.md', 'context-log.md', 'tasks/lessons.md'],
  ownThresholds: true,
  checkpointTrigger: '/session-checkpoint',
  resume: {
    verbatim: null,
    template: 'Read {home} and start with {next}.',
    next: 'its first action',
    unconfirmedTemplate: null,
  },
  freshContext: {
    prescribed: true,
    command: '/compact',
  },
  budgets: {
    lines: 200,
    lineCounting: 'lines',
    snapshot: S1_SNAPSHOT,
  },
  curation: S1_CURATION,
  commands: {
    attest: {
      summary: 'S1: write memory/.session-handoff.sha256 for the handoff as it is now',
      usage: 'session-ledger attest [--root DIR] [--dry-run] [--json]',
      about: 'The sidecar holds the lowercase hex SHA-256 of memory/session-handoff-LATEST.md, no newline.',
      options: [['--dry-run', 'say what the sidecar would hold, write nothing']],
      exit: [
        [0, 'written, or already matching'],
        [1, 'no handoff, or the write was refused'],
      ],
      example: 'session-ledger attest --dry-run',
    },
  },
});
