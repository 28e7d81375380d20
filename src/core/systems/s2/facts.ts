/** S2's facts (context-kit checkpoint + PreCompact guard): the ledger, the manifest and project state, its budgets. Pure data: no I/O, cheap for the hot paths. */
import { withHot } from '../hot-facts';
import type { HotFacts, SystemFacts } from '../facts';

/** What every status line refresh reads of S2 (its presence and thresholds): see HotFacts. */
export const S2_HOT: HotFacts = {
  presence: ['.claude/session-ledger*.md', 'context-manifest.yaml', '.claude/project-state.md'],
  thresholds: { propose: 50, urgent: null },
};

// Built by a call marked pure: the status line's script takes S2_HOT alone and leaves the rest out.
export const S2_FACTS: SystemFacts = /* @__PURE__ */ withHot(S2_HOT, {
  id: 'S2',
  name: 'context-kit',
  home: '.claude/session-ledger.md',
  homeRole: 'ledger',
  // Per-session ledgers `.claude/session-ledger.<id>.md` are found by listing `.claude/`.
  homeAlternatives: [],
  switchedOff: null,
  companions: [
    { what: 'manifest', path: 'context-manifest.yaml' },
    { what: 'projectState', path: '.claude/project-state.md' },
  ],
  checkpointTrigger: '/checkpoint',
  resume: {
    verbatim: null,
    template: 'Read {home} and continue from {next}.',
    next: 'its NEXT action',
    unconfirmedTemplate: null,
    nextVerbatim: true,
  },
  freshContext: { prescribed: true, command: '/compact' },
  // The plan budget: the seed measured one plan at 116,000 characters, "roughly 29,000 tokens"
  // (about 4 characters a token), and asks that the spine stay "small enough to read in full".
  // 20,000 characters is about 5,000 tokens: under a fifth of that plan, under four ledgers' worth.
  budgets: { lines: 150, lineCounting: 'lines', chars: 5200, planSpineChars: 20_000 },
});
