/** S4's closing step (checkpointing skill): its seed prescribes none, so S2's go-signal line. */
import type { ClosingOf } from '../../report/closing';
import { compactNowNotice } from '../s2/closing';

export const closingS4: ClosingOf = (_s, base) => ({ lines: [base.line], notice: compactNowNotice() });
