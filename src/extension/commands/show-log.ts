/** Show log: the extension's output channel (scans, timings, failures). */
import type { Services } from '../services';

export const id = 'sessionLedger.showLog';

export async function run(s: Services): Promise<void> {
  s.log.show(true);
}
