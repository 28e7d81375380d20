/** S0's facts (majestic session-checkpoint): the ledger, its older places, `.agents.yml` that switches it on, the seed's skip line, its thresholds and its `/clear` + reload closing step. Pure data: no I/O, cheap for the hot paths. */
import { withHot } from '../hot-facts';
import type { HotFacts, SystemFacts } from '../facts';
import { t } from '../../model/messages';

/** What every status line refresh reads of S0 (its presence and thresholds) and the files every write checks: see HotFacts. */
export const S0_HOT: HotFacts = {
  // `enable-ledger` and the starter write the switch only as itself.
  writtenAsThemselves: ['.agents.yml'],
  presence: [
    '.agents.yml',
    '.agents/session_ledger.md',
    'CONTINUITY.md',
    '.claude/memory/session_ledger.md',
    '.claude/session_ledger.md',
  ],
  thresholds: { propose: 70, urgent: 85 },
};

// Built by a call marked pure: the status line's script takes S0_HOT alone and leaves the rest out.
export const S0_FACTS: SystemFacts = /* @__PURE__ */ withHot(S0_HOT, {
  id: 'S0',
  name: 'majestic ledger',
  home: '.agents/session_ledger.md',
  homeRole: 'ledger',
  // Older places a ledger was kept; read only when they hold the S0 sections.
  homeAlternatives: ['CONTINUITY.md', '.claude/memory/session_ledger.md', '.claude/session_ledger.md'],
  homeAlternativesMinSections: 3,
  // t() only builds a message: marked pure, as withHot's call.
  switchedOff: /* @__PURE__ */ t('Checkpoint skipped - session.ledger not enabled in .agents.yml'),
  // `enable-ledger` writes `session.ledger: true` into .agents.yml.
  switchOn: 'enable-ledger',
  companions: [{ what: 'config', path: '.agents.yml' }],
  genericPresence: ['CONTINUITY.md'],
  checkpointTrigger: 'Apply the session-checkpoint skill',
  resume: {
    verbatim: null,
    template: 'Read {home} and continue from {next}.',
    next: 'the Now section',
    unconfirmedTemplate: 'Read {home}, validate its UNCONFIRMED items with me first, then continue from {next}.',
  },
  freshContext: {
    prescribed: true,
    command: '/clear',
    clearAfterCompactions: 2,
    compactionsAdvice: {
      said: /* @__PURE__ */ t(
        '{0} compactions in this session: checkpoint, then /clear and reload the ledger (S0: a fresh context beats another /compact).',
      ),
      line: 'checkpoint, then /clear (S0: after 2-3 compactions in one session, a fresh context with the ledger reloaded beats another /compact)',
    },
  },
  budgets: {},
  commands: {
    'enable-ledger': {
      summary: 'S0: switch the ledger on: session.ledger: true in .agents.yml (created if missing)',
      usage: 'session-ledger enable-ledger [--root DIR] [--dry-run] [--json]',
      about:
        'Every other setting and comment of .agents.yml stays. Refused when the file changed since it was read,\n' +
        'when it is a link, or when it is YAML this command cannot edit safely (it says why).',
      options: [['--dry-run', 'print .agents.yml as it would be, write nothing']],
      exit: [
        [0, 'written, or already on'],
        [1, 'refused (it says why); nothing written'],
      ],
      example: 'session-ledger enable-ledger --dry-run',
    },
  },
});
