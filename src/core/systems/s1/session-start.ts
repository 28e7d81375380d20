/** What S1 says at every session start: its handoff's attestation (the seed's SessionStart guard). */
import { isBlocking, type SystemReport } from '../../model/model';
import { companionPath, systemName } from '../facts';

/** S1's attestation at session start: TAMPERED loudly, MATCH and NO_SIDECAR in one line; nothing when the check was skipped. */
export function attestationAtStart(s1: SystemReport): Array<{ line: string; loud: boolean }> {
  const c = s1.checks.find((x) => x.id === 'attestation');
  if (!c || c.status === 'skipped') return [];
  if (isBlocking(c)) {
    return [
      {
        loud: true,
        line: `${systemName('S1')} attestation: TAMPERED — ${c.message.replace(/^TAMPERED:\s*/, '')} Do not trust ${s1.home} until the user confirms it; tell them now.${c.hint ? ` ${c.hint}` : ''}`,
      },
    ];
  }
  if (c.status === 'pass')
    return [
      {
        loud: false,
        line: `${systemName('S1')} attestation: MATCH (${s1.home} is what the last checkpoint attested).`,
      },
    ];
  return [
    {
      loud: false,
      line: `${systemName('S1')} attestation: NO_SIDECAR (${c.path ?? companionPath('S1', 'sidecar')} is missing: ${s1.home} is not attested).`,
    },
  ];
}
