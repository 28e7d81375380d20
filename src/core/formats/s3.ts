/** S3 reader: placeholder until the reader lands (detects nothing). */
import type { SystemModule } from '../system';

export const S3: SystemModule = {
  id: 'S3',
  name: 'S3',
  watchGlobs: [],
  thresholds: { propose: 50, urgent: 80 },
  checkpointTrigger: '/checkpoint',
  load: async () => null,
  analyse: async () => ({ checks: [], next: null, unconfirmed: [], resumePrompt: '' }),
};
