/**
 * How old a checkpoint marker may be, and whether one still covers the state files on disk, from
 * file times alone (no state file is read or parsed): the reminder hook asks it before every
 * suggestion, and the PreCompact guard takes its window and grace from here.
 */
import * as path from 'node:path';
import { statOrNullSync } from '../files/fsread';
import { isSessionId, markerRel, readMarker, sameSession, SHARED_MARKER_REL, type MarkerFile } from './marker';

/** A state file written within this long after the marker still counts as written by the checkpoint. */
export const IDLE_GRACE_MS = 30_000;
export const DEFAULT_MAX_AGE_MIN = 480;

/** `SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN`, or 480 when unset or not a non-negative number. */
export function maxAgeMinutes(env: NodeJS.ProcessEnv): number {
  const raw = env.SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN;
  if (raw === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(raw)) return DEFAULT_MAX_AGE_MIN;
  return Number(raw);
}

/** The session other than this one that signs `marker`, or null (unsigned: `touch`, `echo done >`; or signed by this session alone). */
function otherSigner(marker: MarkerFile, sessionId: string | null): string | null {
  return marker.content.sessionIds.find((s) => !sameSession(s, sessionId)) ?? null;
}

/**
 * Which marker speaks for a session: its own, else the shared one, each when unsigned or signed by
 * it (the shared one also when no session is known). A session's own file signed by another session
 * is a copy of that session's checkpoint, none of this one's. `foreign` names a marker not used for
 * that reason, and the session that signed it.
 */
export function speakingMarker(
  own: MarkerFile | null,
  shared: MarkerFile | null,
  sessionId: string | null,
): { marker: MarkerFile | null; foreign: { rel: string; signer: string } | null } {
  const ownOther = own ? otherSigner(own, sessionId) : null;
  if (own && ownOther === null) return { marker: own, foreign: null };
  const sharedOther = shared ? otherSigner(shared, sessionId) : null;
  if (shared && (!isSessionId(sessionId) || sharedOther === null)) return { marker: shared, foreign: null };
  return {
    marker: null,
    foreign:
      own && ownOther !== null
        ? { rel: own.rel, signer: ownOther }
        : shared && sharedOther !== null
          ? { rel: shared.rel, signer: sharedOther }
          : null,
  };
}

/** The marker that speaks for a session (`speakingMarker`), read from disk. Null when none. */
export async function markerFor(root: string, sessionId: string | null): Promise<MarkerFile | null> {
  const own = isSessionId(sessionId) ? await readMarker(root, markerRel(sessionId)) : null;
  const shared = own && otherSigner(own, sessionId) === null ? null : await readMarker(root, SHARED_MARKER_REL);
  return speakingMarker(own, shared, sessionId).marker;
}

/** A root-relative path a marker names, when it stays inside the root. */
function insideRel(rel: string): string | null {
  const p = path.posix.normalize(rel.replace(/\\/g, '/'));
  return p === '' || p === '.' || path.posix.isAbsolute(p) || p === '..' || p.startsWith('../') ? null : p;
}

/**
 * True when a marker covers this session's state now: it says nothing-to-preserve, or it is at most
 * `SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN` old and none of the state files (those it vouches for and
 * `homes`, root-relative) was modified more than IDLE_GRACE_MS after it. Never throws.
 */
export async function markerCovers(
  root: string,
  sessionId: string | null,
  homes: readonly string[],
  env: NodeJS.ProcessEnv,
  now = Date.now(),
): Promise<boolean> {
  try {
    const marker = await markerFor(root, sessionId);
    if (!marker) return false;
    if (marker.content.nothingToPreserve) return true;
    if (now - marker.mtime > maxAgeMinutes(env) * 60_000) return false;
    const files = new Set<string>();
    for (const rel of [...marker.content.hashes.map((h) => h.path), ...homes]) {
      const p = insideRel(rel);
      if (p) files.add(p);
    }
    for (const rel of files) {
      const st = statOrNullSync(path.join(root, rel));
      if (st && st.mtimeMs > marker.mtime + IDLE_GRACE_MS) return false;
    }
    return true;
  } catch {
    return false;
  }
}
