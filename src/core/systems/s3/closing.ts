/**
 * S3's closing step (Groundwork STATE). The seed's block is the agent's, ending the turn in which it
 * wrote the handoff: one line that the handoff is written to STATE.md, the literal `/clear`, then
 * the resume prompt to paste, in a code block. The tool wrote no handoff, so its line says the
 * handoff is checked; `/clear` is said once, then the prompt in its code block.
 */
import { t } from '../../model/messages';
import type { ClosingOf } from '../../report/closing';

export const closingS3: ClosingOf = (_s, base) => {
  const notice = t('Handoff {0} checked. Start a fresh session with /clear, then paste the resume prompt.', base.home);
  return { lines: [notice.text, '```', base.resumePrompt, '```'], notice };
};
