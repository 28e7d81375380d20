/** S4's facts (checkpointing skill): STATE.md, PROGRESS.md and the checkpoints folder, the progress budget; its seed prescribes no fresh-context step, so S2's line. Pure data: no I/O, cheap for the hot paths. */
import type { SystemFacts } from '../facts';
import { S2_CLOSING } from '../s2/facts';

export const S4_FACTS: SystemFacts = {
  id: 'S4',
  name: 'Agent State checkpoints (checkpointing skill)',
  home: '.agents/STATE.md',
  homeRole: 'state',
  homeAlternatives: [],
  switchedOff: null,
  companions: [
    { what: 'progress', path: 'PROGRESS.md' },
    { what: 'checkpoints', path: '.agents/checkpoints' },
    // The summary draft `checkpoint.py --apply --consume-summary` deletes on success.
    { what: 'pendingSummary', path: '.agents/logs/pending-summary.md' },
  ],
  presence: ['.agents/STATE.md', '.agents/checkpoints/*.md', 'PROGRESS.md'],
  genericPresence: ['PROGRESS.md'],
  thresholds: { propose: 50, urgent: 80 },
  checkpointTrigger: '/checkpointing',
  resume: {
    verbatim: null,
    template: 'Read {home} and continue from {next}.',
    next: 'the newest Current block',
    unconfirmedTemplate: null,
  },
  // The seed prescribes no fresh-context step: S2's line.
  freshContext: { prescribed: false, command: '/compact', line: S2_CLOSING },
  budgets: { progressEntries: 5 },
};
