/**
 * S2 context-kit (its checkpoint skill and PreCompact guard): everything the product knows about this system, in one folder.
 * Requirement table (every requirement of its seed, with the check that enforces it and the test
 * that proves it): ./REQUIREMENTS.md
 * Files: facts.ts, reader.ts + reader-ledger.ts, rules.ts, closing.ts, starter.ts, not-read.ts.
 */
import { wholeHome, type HookHome, type SystemHome } from '../home';
import { closingS2 } from './closing';
import { S2_FACTS } from './facts';
import { S2, type S2Extra } from './reader';
import { notReadS2 } from './not-read';
import { analyseS2, resumeS2, skeletonS2 } from './rules';
import { S2_STARTER } from './starter';

/** What the hooks run of S2 on every event (../hooks): its reader, the skeleton check and the resume. */
export const S2_HOOK: HookHome<S2Extra> = {
  id: 'S2',
  facts: S2_FACTS,
  load: S2.load,
  skeleton: skeletonS2,
  resume: resumeS2,
  notRead: notReadS2,
};

export const S2_SYSTEM: SystemHome<S2Extra> = /* @__PURE__ */ wholeHome(S2_HOOK, {
  analyse: analyseS2,
  closing: closingS2,
  starter: S2_STARTER,
});
