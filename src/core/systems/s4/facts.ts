/** S4's facts (checkpointing skill): STATE.md, PROGRESS.md and the checkpoints folder, the progress budget; its seed prescribes no fresh-context step. Pure data: no I/O, cheap for the hot paths. */
import { withHot } from '../hot-facts';
import type { HotFacts, SystemFacts } from '../facts';

/** What every status line refresh reads of S4 (its presence and thresholds) and the files every write checks: see HotFacts. */
export const S4_HOT: HotFacts = {
  // compact-state's previews, never written through a link.
  writtenAsThemselves: ['.agents/logs/state-compaction-preview-*'],
  presence: ['.agents/STATE.md', '.agents/checkpoints/*.md', 'PROGRESS.md'],
  thresholds: { propose: 50, urgent: 80 },
};

// Built by a call marked pure: the status line's script takes S4_HOT alone and leaves the rest out.
export const S4_FACTS: SystemFacts = /* @__PURE__ */ withHot(S4_HOT, {
  id: 'S4',
  name: 'checkpointing',
  home: '.agents/STATE.md',
  homeRole: 'state',
  homeAlternatives: [],
  switchedOff: null,
  companions: [
    { what: 'progress', path: 'PROGRESS.md' },
    { what: 'checkpoints', path: '.agents/checkpoints' },
    // The summary draft `checkpoint.py --apply --consume-summary` deletes on success.
    { what: 'pendingSummary', path: '.agents/logs/pending-summary.md' },
    // Previews and drafts of the scripts (and of compact-state).
    { what: 'logs', path: '.agents/logs' },
    // Research notes; inactive ones are archived only after the user approves.
    { what: 'research', path: '.agents/docs/research' },
    { what: 'researchArchive', path: '.agents/docs/research/archive' },
  ],
  genericPresence: ['PROGRESS.md'],
  ownThresholds: true,
  checkpointTrigger: '/checkpointing',
  resume: {
    verbatim: null,
    template: 'Read {home} and continue from {next}.',
    next: 'the newest Current block',
    unconfirmedTemplate: null,
  },
  // The seed prescribes no fresh-context step: S2's go-signal follows its report, so /compact.
  freshContext: { prescribed: false, command: '/compact' },
  budgets: { progressEntries: 5 },
  commands: {
    'compact-state': {
      summary: 'S4: keep the newest Current Project|Feature|Bug Fix block of each kind (preview, then --apply)',
      usage: 'session-ledger compact-state [--root DIR] [--apply] [--expect-hash H] [--json]',
      about:
        'Without --apply it prints the compacted .agents/STATE.md and its hash, writes that preview to\n' +
        '.agents/logs/state-compaction-preview-<time>.md and leaves the state untouched.',
      options: [
        ['--apply', 'write the compacted state'],
        ['--expect-hash H', 'refuse unless .agents/STATE.md still has the hash the preview printed'],
      ],
      exit: [
        [0, 'done, previewed, or nothing to compact'],
        [1, 'no .agents/STATE.md with # Agent State, an invalid result, or refused (the file changed)'],
      ],
      example: 'session-ledger compact-state && session-ledger compact-state --apply --expect-hash <hash it printed>',
    },
  },
});
