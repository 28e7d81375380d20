/**
 * S3 Groundwork (its checkpoint skill): everything the product knows about this system, in one folder.
 * Requirement table (every requirement of its seed, with the check that enforces it and the test
 * that proves it): ./REQUIREMENTS.md
 * Files: facts.ts, reader.ts + reader-state.ts, rules.ts, closing.ts, starter.ts, not-read.ts, fixes.ts (Branch / HEAD), rotate-log.ts (the Log rotation write).
 */
import { wholeHome, type HookHome, type SystemHome } from '../home';
import { closingS3 } from './closing';
import { S3_FACTS } from './facts';
import { S3 } from './reader';
import { notReadS3 } from './not-read';
import { analyseS3, resumeS3, skeletonS3 } from './rules';
import { S3_STARTER } from './starter';

/** What the hooks run of S3 on every event (../hooks): its reader, the skeleton check and the resume. */
export const S3_HOOK: HookHome = {
  id: 'S3',
  facts: S3_FACTS,
  load: S3.load,
  skeleton: skeletonS3,
  resume: resumeS3,
  notRead: notReadS3,
};

export const S3_SYSTEM: SystemHome = /* @__PURE__ */ wholeHome(S3_HOOK, {
  analyse: analyseS3,
  closing: closingS3,
  starter: S3_STARTER,
});
