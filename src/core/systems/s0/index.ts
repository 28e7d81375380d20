/**
 * S0 majestic ledger (the session-checkpoint skill of majestic): everything the product knows about this system, in one folder.
 * Requirement table (every requirement of its seed, with the check that enforces it and the test
 * that proves it): ./REQUIREMENTS.md
 * Files: facts.ts, reader.ts, rules.ts, closing.ts, starter.ts, not-read.ts, fixes.ts (the _Last updated: line).
 */
import { wholeHome, type HookHome, type SystemHome } from '../home';
import { closingS0 } from './closing';
import { S0_FACTS } from './facts';
import { S0, type S0Extra } from './reader';
import { notReadS0 } from './not-read';
import { analyseS0, resumeS0, skeletonS0, startChecksS0 } from './rules';
import { S0_STARTER } from './starter';

/** What the hooks run of S0 on every event (../hooks): its reader, the skeleton check, the resume and its checks at every start. */
export const S0_HOOK: HookHome<S0Extra> = {
  id: 'S0',
  facts: S0_FACTS,
  load: S0.load,
  skeleton: skeletonS0,
  resume: resumeS0,
  startChecks: startChecksS0,
  notRead: notReadS0,
};

export const S0_SYSTEM: SystemHome<S0Extra> = /* @__PURE__ */ wholeHome(S0_HOOK, {
  analyse: analyseS0,
  closing: closingS0,
  starter: S0_STARTER,
});
