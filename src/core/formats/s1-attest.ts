/**
 * S1 Phase 2.4 attestation: `memory/.session-handoff.sha256` holds the lowercase hex SHA-256 of the
 * handoff's raw bytes (the sidecar itself has no trailing newline; one is tolerated, as is the
 * `sha256sum` form `<hash>  <file>`). MATCH → pass, TAMPERED → block, NO_SIDECAR → info.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mk } from '../checks/common';
import type { Check, StateDoc } from '../model';
import type { Workspace } from '../workspace';

export type Attestation = 'MATCH' | 'TAMPERED' | 'NO_SIDECAR';

/** SHA-256 of a whole file, streamed (for handoffs larger than the read limit). Null on error. */
function hashFile(abs: string): Promise<string | null> {
  return new Promise((resolve) => {
    const h = createHash('sha256');
    const s = createReadStream(abs);
    s.on('data', (c) => h.update(c));
    s.on('error', () => resolve(null));
    s.on('end', () => resolve(h.digest('hex')));
  });
}

export async function checkAttestation(ws: Workspace, home: StateDoc | null, sidecarRel: string): Promise<{ check: Check; state: Attestation | null }> {
  const kind = await ws.kind(sidecarRel);
  if (kind === 'missing') {
    return {
      state: 'NO_SIDECAR',
      check: mk('S1', 'attestation', 'info', false, `NO_SIDECAR: ${sidecarRel} does not exist; the handoff is not attested.`, { path: sidecarRel }, 'Run the checkpoint (Phase 2.4 write-receipt writes the sidecar).'),
    };
  }
  if (!home || !home.hash) return { state: null, check: mk('S1', 'attestation', 'block', 'skip', 'No readable handoff to attest.', { path: sidecarRel }) };
  ws.stateFiles.add(sidecarRel);
  const f = await ws.read(sidecarRel);
  const tampered = (why: string, line?: number) => ({
    state: 'TAMPERED' as const,
    check: mk('S1', 'attestation', 'block', false, `TAMPERED: ${why}`, { path: home.relPath, line }, `If you edited ${home.relPath} yourself, re-run the checkpoint so write-receipt refreshes ${sidecarRel}; otherwise restore the handoff from git and find out who changed it.`),
  });
  if (!f.ok) return tampered(`${sidecarRel} cannot be read (${f.message}).`);
  const token = f.text.trim().split(/\s+/)[0] ?? '';
  if (!/^[0-9a-fA-F]{64}$/.test(token)) return tampered(`${sidecarRel} does not hold a SHA-256 hex digest ("${token.slice(0, 20)}").`);
  const actual = home.findings.some((x) => x.id === 'size') ? await hashFile(home.path) : home.hash;
  if (!actual) return tampered(`${home.relPath} could not be hashed.`);
  if (token.toLowerCase() !== actual) {
    return tampered(`${home.relPath} does not match ${sidecarRel} (sidecar ${token.slice(0, 12)}…, file ${actual.slice(0, 12)}…): it changed after the checkpoint attested it.`);
  }
  const notes = [token !== token.toLowerCase() ? 'the sidecar is upper-case hex' : '', /\n$/.test(f.text) ? 'the sidecar ends with a newline' : ''].filter(Boolean);
  return {
    state: 'MATCH',
    check: mk('S1', 'attestation', 'block', true, `MATCH: ${sidecarRel} matches the SHA-256 of ${home.relPath}${notes.length ? ` (${notes.join('; ')})` : ''}.`, { path: home.relPath }),
  };
}
