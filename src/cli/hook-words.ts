/**
 * What the hook script's Japanese and Korean words hold (scripts/lib/build.mjs builds them from the l10n
 * bundles, and runs this module to know which; nothing else does): the templates of the modules that
 * word the guard's block and the reminder themselves (WORDED_MODULES), and the messages the block
 * passes on as they are (`passedOn`: each manual item, a system's switched-off line, the checkpoint's
 * sentence for systems that end differently).
 *
 * The messages of the checks a block names when a changed state file fails a blocking check (any rule's)
 * are not among them, and stay English there, as `check` through the hook script says them: with them
 * the words would take the hook script past 2 MiB, where Node's read of it costs every hook run, in
 * every language, about 500 page faults more.
 */
import { closingChoice } from '../core/report/closing';
import { MANUAL_CHECKS } from '../core/rules/common';
import { ALL_FACTS } from '../core/systems/facts';
import { stateReviewedSaid } from '../core/systems/s1/rules';

/** The modules whose every template the guard's block and the reminder may say. */
export const WORDED_MODULES: readonly string[] = [
  'src/core/hooks/guard.ts',
  'src/core/hooks/remind.ts',
  'src/core/checkpoint/marker.ts',
  // The line that says `check`, `status` and `checkpoint` print in English through the hook script.
  'src/cli/bundle.ts',
];

/**
 * The templates of the messages the block passes on: each manual item, each system's switched-off line,
 * and the checkpoint's sentence for systems that end differently (its last step then).
 */
export function passedOn(): string[] {
  const choice = closingChoice(ALL_FACTS.map((f) => ({ system: f.id, step: f.freshContext.command })));
  return [
    ...MANUAL_CHECKS.map((m) => m.message.id),
    stateReviewedSaid('').id,
    ...ALL_FACTS.flatMap((f) => (f.switchedOff ? [f.switchedOff.id] : [])),
    ...(choice ? [choice.id] : []),
  ];
}
