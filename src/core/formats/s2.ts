/** S2 reader: placeholder until the reader lands (detects nothing). */
import type { SystemModule } from '../system';

export const S2: SystemModule = {
  id: 'S2',
  name: 'S2',
  watchGlobs: [],
  thresholds: { propose: 50, urgent: 80 },
  checkpointTrigger: '/checkpoint',
  load: async () => null,
  analyse: async () => ({ checks: [], next: null, unconfirmed: [], resumePrompt: '' }),
};
