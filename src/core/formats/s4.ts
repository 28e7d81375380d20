/** S4 reader: placeholder until the reader lands (detects nothing). */
import type { SystemModule } from '../system';

export const S4: SystemModule = {
  id: 'S4',
  name: 'S4',
  watchGlobs: [],
  thresholds: { propose: 50, urgent: 80 },
  checkpointTrigger: '/checkpoint',
  load: async () => null,
  analyse: async () => ({ checks: [], next: null, unconfirmed: [], resumePrompt: '' }),
};
