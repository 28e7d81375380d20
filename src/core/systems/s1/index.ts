/**
 * S1 session handoff (the session-checkpoint skill: LATEST handoff + attestation): everything the product knows about this system, in one folder.
 * Requirement table (every requirement of its seed, with the check that enforces it and the test
 * that proves it): ./REQUIREMENTS.md
 * Files: facts.ts, reader.ts + reader-snapshot.ts + reader-memory.ts, rules.ts, closing.ts, starter.ts, session-start.ts (the attestation line), attest.ts (the sidecar write).
 */
import { wholeHome, type HookHome, type SystemHome } from '../home';
import { closingS1 } from './closing';
import { S1_FACTS } from './facts';
import { S1, type S1Extra } from './reader';
import { analyseS1, resumeS1, skeletonS1, startChecksS1, stateReviewed } from './rules';
import { attestationAtStart } from './session-start';
import { S1_STARTER } from './starter';
import { notReadS1 } from './not-read';

/** What the hooks run of S1 on every event (../hooks): its reader, the skeleton check and the resume. */
export const S1_HOOK: HookHome<S1Extra> = {
  id: 'S1',
  facts: S1_FACTS,
  load: S1.load,
  skeleton: skeletonS1,
  resume: resumeS1,
  startChecks: startChecksS1,
  manualItems: stateReviewed,
  atStart: attestationAtStart,
  notRead: notReadS1,
};

export const S1_SYSTEM: SystemHome<S1Extra> = /* @__PURE__ */ wholeHome(S1_HOOK, {
  analyse: analyseS1,
  closing: closingS1,
  starter: S1_STARTER,
});
