/** S1 reader: placeholder until the reader lands (detects nothing). */
import type { SystemModule } from '../system';

export const S1: SystemModule = {
  id: 'S1',
  name: 'S1',
  watchGlobs: [],
  thresholds: { propose: 50, urgent: 80 },
  checkpointTrigger: '/checkpoint',
  load: async () => null,
  analyse: async () => ({ checks: [], next: null, unconfirmed: [], resumePrompt: '' }),
};
