/** S0 reader: placeholder until the reader lands (detects nothing). */
import type { SystemModule } from '../system';

export const S0: SystemModule = {
  id: 'S0',
  name: 'S0',
  watchGlobs: [],
  thresholds: { propose: 50, urgent: 80 },
  checkpointTrigger: '/checkpoint',
  load: async () => null,
  analyse: async () => ({ checks: [], next: null, unconfirmed: [], resumePrompt: '' }),
};
