/** Refresh: re-read every folder now. */
import type { Services } from '../services';

export const id = 'sessionLedger.refresh';

export async function run(s: Services): Promise<void> {
  await s.store.refreshAll();
  await s.meter.refresh();
}
