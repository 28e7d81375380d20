/** S3's facts (Groundwork STATE handoff): STATE.md and its companions, the verbatim resume prompt, the line budget as its checker counts it, and its `/clear` closing step. Pure data: no I/O, cheap for the hot paths. */
import { withHot } from '../hot-facts';
import type { SystemId, WorkspaceReport } from '../../model/model';
import type { HotFacts, SystemFacts } from '../facts';

/** What every status line refresh reads of S3 (its presence and thresholds): see HotFacts. */
export const S3_HOT: HotFacts = {
  presence: ['docs/state/STATE.md'],
  thresholds: { propose: 15, urgent: 40 },
};

// Built by a call marked pure: the status line's script takes S3_HOT alone and leaves the rest out.
export const S3_FACTS: SystemFacts = /* @__PURE__ */ withHot(S3_HOT, {
  id: 'S3',
  name: 'Groundwork',
  home: 'docs/state/STATE.md',
  homeRole: 'state',
  homeAlternatives: [],
  switchedOff: null,
  companions: [
    { what: 'debt', path: 'docs/state/DEBT.md' },
    { what: 'intake', path: 'docs/state/INTAKE.md' },
    { what: 'logArchive', path: 'docs/state/log' },
    { what: 'decisions', path: 'docs/decisions' },
  ],
  checkpointTrigger: '/checkpoint',
  resume: {
    verbatim: 'Read docs/state/STATE.md and continue from the Now ▶ action.',
    template: 'Read {home} and continue from {next}.',
    next: 'the Now ▶ action',
    unconfirmedTemplate: null,
  },
  freshContext: { prescribed: true, command: '/clear' },
  budgets: { lines: 150, lineCounting: 'split' },
  commands: {
    'rotate-log': {
      summary: 'S3: move the oldest Log entries to docs/state/log/YYYY-MM.md until STATE.md fits 150 lines',
      usage: 'session-ledger rotate-log [--root DIR] [--apply] [--expect-hash H] [--json]',
      about: 'Without --apply it says which entries would move and writes nothing. The newest entry never moves.',
      options: [
        ['--apply', 'move the entries'],
        ['--expect-hash H', 'refuse unless docs/state/STATE.md still has the hash the preview printed'],
      ],
      exit: [
        [0, 'done, previewed, or nothing to move'],
        [1, 'no docs/state/STATE.md with a ## Log, or refused (the file changed)'],
      ],
      example: 'session-ledger rotate-log && session-ledger rotate-log --apply --expect-hash <hash it printed>',
    },
  },
});

/** S3's repository checks script, relative to the root. */
export const REPO_CHECKS = 'checks/check.mjs';

/** The check of `report` the user can run (S3's, when `checks/check.mjs` is there), with the command it runs; or null. */
export function runnableCheck(
  report: WorkspaceReport | undefined,
): { system: SystemId; checkId: string; command: string } | null {
  const s = report?.systems.find((x) => x.id === 'S3' && x.checks.some((c) => c.id === 'repo-checks'));
  return s ? { system: s.id, checkId: 'repo-checks', command: `node ${REPO_CHECKS}` } : null;
}
