/**
 * Mechanical fixes of single findings, as line edits a caller shows before applying them (the
 * VS Code quick fixes): the shared line edits, and each system's own fixes and their titles from
 * its home.
 */
import type { SystemId } from '../model/model';
import { sharedFixOffers, type FixOffer, type FixPlace } from './line-edit';
import { fixOffersS0 } from './s0/fixes';
import { fixOffersS1 } from './s1/fixes';
import { fixOffersS3 } from './s3/fixes';
import { fixOffersS4 } from './s4/fixes';

export { applyLineEdits, deleteLines, type FixKind, type FixOffer, type FixPlace, type LineEdit } from './line-edit';
export { timestampFix } from './s0/fixes';
export { branchHeadFix } from './s3/fixes';

const BY_ID: Readonly<Record<SystemId, (p: FixPlace) => FixOffer[]>> = {
  S0: fixOffersS0,
  S1: fixOffersS1,
  S2: () => [],
  S3: fixOffersS3,
  S4: fixOffersS4,
};

/** The fixes a finding of `system` offers where it sits: its system's own, then the shared ones. */
export function fixOffers(system: SystemId, p: FixPlace): FixOffer[] {
  return [...BY_ID[system](p), ...sharedFixOffers(p)];
}
