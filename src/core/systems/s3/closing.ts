/**
 * S3's closing step (Groundwork STATE). The seed's block is the agent's, ending the turn in which it
 * wrote the handoff: one line that the handoff is written to STATE.md, the literal `/clear`, then
 * the resume prompt to paste, in a code block. The tool wrote no handoff, so its line says the
 * handoff is checked; `/clear` is said once, then the prompt in its code block (always: the seed's block
 * holds it, and it works in a client that does not hand it over).
 */
import { t } from '../../model/messages';
import type { ClosingOf } from '../../report/closing';

export const closingS3: ClosingOf = (_s, base) => {
  // Where the SessionStart hook runs, it hands the agent the resume prompt after /clear: pasting is not
  // needed, and the prompt stays below for a client without it.
  const notice = base.handedOver
    ? t(
        'Handoff {0} checked. Start a fresh session with /clear: the SessionStart hook hands the agent the resume prompt, no need to paste it.',
        base.home,
      )
    : t('Handoff {0} checked. Start a fresh session with /clear, then paste the resume prompt.', base.home);
  return { lines: [notice.text, '```', base.resumePrompt, '```'], notice };
};
