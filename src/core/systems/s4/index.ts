/**
 * S4 checkpointing (the checkpointing skill): everything the product knows about this system, in one folder.
 * Requirement table (every requirement of its seed, with the check that enforces it and the test
 * that proves it): ./REQUIREMENTS.md
 * Files: facts.ts, reader.ts + reader-state.ts, rules.ts, closing.ts, starter.ts, not-read.ts, compact-state.ts (the STATE compaction write).
 */
import { wholeHome, type HookHome, type SystemHome } from '../home';
import { closingS4 } from './closing';
import { S4_FACTS } from './facts';
import { S4, type S4Extra } from './reader';
import { notReadS4 } from './not-read';
import { analyseS4, resumeS4, skeletonS4 } from './rules';
import { S4_STARTER } from './starter';

/** What the hooks run of S4 on every event (../hooks): its reader, the skeleton check and the resume. */
export const S4_HOOK: HookHome<S4Extra> = {
  id: 'S4',
  facts: S4_FACTS,
  load: S4.load,
  skeleton: skeletonS4,
  resume: resumeS4,
  notRead: notReadS4,
};

export const S4_SYSTEM: SystemHome<S4Extra> = /* @__PURE__ */ wholeHome(S4_HOOK, {
  analyse: analyseS4,
  closing: closingS4,
  starter: S4_STARTER,
});
