/**
 * How old a checkpoint marker may be, and whether one still covers the state files on disk, from
 * file times alone (no state file is read or parsed): the reminder hook asks it before every
 * suggestion, and the PreCompact guard takes its window and grace from here.
 */
import * as path from 'node:path';
import { statOrNullSync } from '../files/fsread';
import { isSessionId, markerRel, readMarker, SHARED_MARKER_REL, type MarkerFile } from './marker';

/** A state file written within this long after the marker still counts as written by the checkpoint. */
export const IDLE_GRACE_MS = 30_000;
export const DEFAULT_MAX_AGE_MIN = 480;

/** `SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN`, or 480 when unset or not a non-negative number. */
export function maxAgeMinutes(env: NodeJS.ProcessEnv): number {
  const raw = env.SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN;
  if (raw === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(raw)) return DEFAULT_MAX_AGE_MIN;
  return Number(raw);
}

/**
 * Which marker speaks for a session: its own, else the shared one when unsigned or signed by it (or
 * when no session is known). `foreign` is the other session that signed a shared marker not used.
 */
export function speakingMarker(
  own: MarkerFile | null,
  shared: MarkerFile | null,
  sessionId: string | null,
): { marker: MarkerFile | null; foreign: string | null } {
  if (own) return { marker: own, foreign: null };
  if (!shared) return { marker: null, foreign: null };
  const signer = shared.content.sessionId;
  return !isSessionId(sessionId) || signer === null || signer === sessionId
    ? { marker: shared, foreign: null }
    : { marker: null, foreign: signer };
}

/** The marker that speaks for a session (`speakingMarker`), read from disk. Null when none. */
export async function markerFor(root: string, sessionId: string | null): Promise<MarkerFile | null> {
  const own = isSessionId(sessionId) ? await readMarker(root, markerRel(sessionId)) : null;
  return speakingMarker(own, own ? null : await readMarker(root, SHARED_MARKER_REL), sessionId).marker;
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
