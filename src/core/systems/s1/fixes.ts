/** S1's fixes: attest the handoff (the sidecar write is `attest.ts`); delete a finished item or section. */
import { t } from '../../model/messages';
import { companionPath } from '../facts';
import type { FixOffer, FixPlace } from '../line-edit';

/** The fixes S1's findings offer: attest the handoff as it is; delete finished work from it (git keeps it). */
export function fixOffersS1(p: FixPlace): FixOffer[] {
  if (p.check.id === 'attestation') {
    const attest = t('Attest the handoff: write {0}', companionPath('S1', 'sidecar'));
    // A sidecar that says the handoff changed since it was attested: attesting it as it is now is asked first.
    return [
      p.check.status === 'fail'
        ? { kind: 'attest', title: t('I changed the handoff myself: attest it as it is now…'), confirm: attest }
        : { kind: 'attest', title: attest },
    ];
  }
  if (p.check.id === 'future-oriented' && p.onCheckLine)
    return [{ kind: 'delete-done', title: t('Delete this finished work (git keeps it)') }];
  return [];
}
