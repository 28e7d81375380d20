/**
 * S1's attestation sidecar: `memory/.session-handoff.sha256` holds the lowercase hex SHA-256 of
 * the handoff's raw bytes, no trailing newline (the seed's `write-receipt` refresh, without the
 * receipt log). Preview with `planAttest`, write with `applyAttest`.
 */
import * as path from 'node:path';
import { withWriteLock, writeRefusal } from '../../files/lock';
import { currentHash, isInside, realTargetSync, rootRel, writeAtomic, WriteRefused } from '../../files/atomic';
import { readRegularFile, readTextFile, sha256 } from '../../files/fsread';
import { maskSecrets } from '../../secrets/secrets';
import { companionPath } from '../facts';
import { S1_FACTS } from './facts';

export const S1_HANDOFF_REL = S1_FACTS.home;
export const SIDECAR_NAME = path.posix.basename(companionPath('S1', 'sidecar'));
/** Where S1's handoff may live: the seed's path, then the older `.claude/memory/` default. */
export const S1_HANDOFF_CANDIDATES = [S1_HANDOFF_REL, ...S1_FACTS.homeAlternatives];

export interface AttestPlan {
  /** The workspace root (the sidecar is written only inside it). */
  root: string;
  /** Absolute path of the handoff. */
  handoff: string;
  /** Absolute path of the sidecar. */
  sidecar: string;
  /** SHA-256 of the handoff's bytes now. */
  hash: string;
  /**
   * The sidecar's content now (trimmed), as every surface shows it: a secret or personal datum written
   * there is masked (`maskSecrets`), as the readers mask it; null when there is none.
   */
  current: string | null;
  /** MATCH: the sidecar already holds the hash; TAMPERED: it holds another; NO_SIDECAR. */
  status: 'MATCH' | 'TAMPERED' | 'NO_SIDECAR';
  changed: boolean;
  /** SHA-256 of the sidecar's bytes as read (null when missing), for the write. */
  sidecarHash: string | null;
  /**
   * What writing the sidecar would refuse, as the write refuses it (a link at it, at its write lock or
   * on their way: the tool's own files are never written through one; a lock that is no file), or null.
   */
  refusal: WriteRefused | null;
}

/** What `attest` would write, or null when there is no handoff (or it cannot be read). */
export async function planAttest(root: string, handoffRel?: string): Promise<AttestPlan | null> {
  if (handoffRel === undefined) {
    for (const c of S1_HANDOFF_CANDIDATES) {
      const p = await planAttest(root, c);
      if (p) return p;
    }
    return null;
  }
  const handoff = path.resolve(root, handoffRel);
  // Only a regular file inside the root is read (a FIFO is never opened, a link out of the root never followed).
  const realOrNull = (p: string) => {
    try {
      return realTargetSync(p);
    } catch {
      return null;
    }
  };
  const real = realOrNull(handoff);
  const realRoot = realOrNull(path.resolve(root));
  if (!real || !realRoot || !isInside(real, realRoot)) return null;
  const bytes = await readRegularFile(handoff);
  if (!bytes) return null;
  const hash = sha256(bytes);
  const sidecar = path.join(path.dirname(handoff), SIDECAR_NAME);
  const f = await readTextFile(sidecar, 4096);
  const held = f.ok ? f.text.trim() : null;
  const sidecarHash = f.ok ? f.hash : null;
  // Read the digest as the S1 reader does: the first token (a `sha256sum`-style `<hash>  <file>` line agrees).
  const digest = held === null ? null : (held.split(/\s+/)[0] ?? '').toLowerCase();
  const current = held === null ? null : maskSecrets(held).text;
  const status = digest === null ? 'NO_SIDECAR' : digest === hash ? 'MATCH' : 'TAMPERED';
  // A sidecar that matches but carries a newline or upper case is rewritten to the seed's exact form.
  const exact = f.ok && f.bytes.toString('utf8') === hash;
  return {
    root: path.resolve(root),
    handoff,
    sidecar,
    hash,
    current,
    status,
    changed: !exact,
    sidecarHash,
    refusal: await writeRefusal(sidecar, root, true),
  };
}

/**
 * Write the sidecar for the handoff as it is now. Refuses when the sidecar changed since the plan,
 * or when the handoff changed between reading and writing (its hash would be wrong).
 */
export async function applyAttest(plan: AttestPlan): Promise<AttestPlan> {
  if (!plan.changed) return plan;
  await withWriteLock(plan.sidecar, plan.root, () =>
    writeAtomic(plan.sidecar, plan.hash, {
      root: plan.root,
      own: true,
      expectHash: plan.sidecarHash,
      beforeRename: async () => {
        const now = await currentHash(plan.handoff).catch(() => null);
        if (now !== plan.hash) {
          const rel = rootRel(plan.root, plan.handoff);
          throw new WriteRefused(
            `${rel} changed while it was being attested; nothing was written. Run it again.`,
            'changed',
            rel,
          );
        }
      },
    }),
  );
  return { ...plan, current: plan.hash, status: 'MATCH', changed: false, sidecarHash: sha256(plan.hash) };
}
