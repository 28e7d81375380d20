/**
 * S2 — Checkpoint + PreCompact guard (context-kit): everything the product knows about this system, in one folder.
 * Requirement table (every requirement of its seed, with the check that enforces it and the test
 * that proves it): ./REQUIREMENTS.md
 * Files: facts.ts, reader.ts + reader-ledger.ts, rules.ts, closing.ts, starter.ts, not-read.ts.
 */
import type { SystemHome } from '../home';
import { closingS2 } from './closing';
import { S2_FACTS } from './facts';
import { S2, type S2Extra } from './reader';
import { notReadS2 } from './not-read';
import { analyseS2, resumeS2, skeletonS2 } from './rules';
import { S2_STARTER } from './starter';

export const S2_SYSTEM: SystemHome<S2Extra> = {
  id: 'S2',
  facts: S2_FACTS,
  load: S2.load,
  analyse: analyseS2,
  skeleton: skeletonS2,
  resume: resumeS2,
  closing: closingS2,
  starter: S2_STARTER,
  notRead: notReadS2,
};
