/**
 * S3's closing step (Groundwork STATE): a fresh session — one line that the handoff is in STATE.md,
 * the literal `/clear` (said once), then the resume prompt to paste, in a code block.
 */
import { t } from '../../model/messages';
import type { ClosingOf } from '../../report/closing';

export const closingS3: ClosingOf = (_s, base) => ({
  lines: [
    `Handoff written to ${base.home}.`,
    `Start a fresh session: ${base.step}`,
    'Then paste this resume prompt:',
    '```',
    base.resumePrompt,
    '```',
  ],
  notice: t(
    'Handoff written to {0}. Start a fresh session with /clear, then paste the resume prompt (it is on the clipboard).',
    base.home,
  ),
});
