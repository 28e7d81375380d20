/**
 * How old a checkpoint marker may be, which marker speaks for a session, and what the PreCompact
 * guard's decision says of the checkpoint (`guardCheckpointed`): the guard takes its window, grace and
 * marker from here, and every surface that says "checkpoint done" (the status bar, the status line,
 * the reminder) says it from the guard's decision, never from file times of its own.
 */
import * as path from 'node:path';
import {
  CONFIG_MAX_BYTES,
  DEFAULT_MAX_BYTES,
  lstatOrNullSync,
  readTextFile,
  realpathOrNullSync,
  realpathOrSelf,
} from '../files/fsread';
import { isInside } from '../files/atomic';
import { gitTracks } from '../git/tracked';
import type { Msg } from '../model/messages';
import {
  isSessionId,
  linkedFolderOf,
  markerAt,
  markerRel,
  sameSession,
  SHARED_MARKER_REL,
  type MarkerFile,
} from './marker';

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

/** How much earlier than the session's first record the shared marker may be dated and still count (file times and record times round differently). */
const SESSION_BEGAN_SLACK_MS = 2000;

/**
 * Why the shared marker (`SHARED_MARKER_REL`, which names no session by its file name) counts for no
 * session now, or null when it may: git tracks it (it came with the repository, by a clone, a
 * checkout or a pull, whatever its file time), or it was written before the session's transcript
 * began (`began`, null: not known), so an earlier session's.
 */
async function sharedNotOurs(
  root: string,
  shared: MarkerFile | null,
  began: number | null,
): Promise<'tracked' | 'before' | null> {
  if (!shared) return null;
  if ((await gitTracks(path.join(root, SHARED_MARKER_REL))) === true) return 'tracked';
  return began !== null && shared.mtime < began - SESSION_BEGAN_SLACK_MS ? 'before' : null;
}

/**
 * Which marker speaks for a session: the newer of its own and the shared one, each when unsigned or
 * signed by it (the shared one also when no session is known; its own on a tie). A checkpoint that
 * could not tell the session writes the shared marker, and that later checkpoint is the one that
 * counts. A session's own file signed by another session is a copy of that session's checkpoint,
 * none of this one's. `shared` is one `sharedNotOurs` let count. `foreign` names a marker not used
 * because another session signed it, and that session.
 */
export function speakingMarker(
  own: MarkerFile | null,
  shared: MarkerFile | null,
  sessionId: string | null,
): { marker: MarkerFile | null; foreign: { rel: string; signer: string } | null } {
  const ownOther = own ? otherSigner(own, sessionId) : null;
  const sharedOther = shared ? otherSigner(shared, sessionId) : null;
  const ownOk = own && ownOther === null ? own : null;
  const sharedOk = shared && (!isSessionId(sessionId) || sharedOther === null) ? shared : null;
  const marker = ownOk && sharedOk ? (sharedOk.mtime > ownOk.mtime ? sharedOk : ownOk) : (ownOk ?? sharedOk);
  if (marker) return { marker, foreign: null };
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

/**
 * What the markers on disk say for a session, in the order the PreCompact guard takes it (every
 * surface that says whether a checkpoint covers the session asks this):
 * - `linked`: `.claude`, the markers' folder, is a symbolic link (`folder`): no marker there is one a
 *   checkpoint wrote, and none can be written there;
 * - `marker`: the shared marker says nothing-to-preserve and counts for this session (`sharedNotOurs`;
 *   whoever signed it), else the marker `speakingMarker` picks;
 * - `planted`: what stands at the session's marker (or, without one, at the shared marker) is no
 *   marker (`markerAt`), `tracked` when git tracks it (removing it alone leaves it in git's index);
 * - `unreadable`: a marker is there but cannot be read (permission, I/O);
 * - `none`: no marker speaks; `foreign` names one another session signed, `notOurs` why the shared
 *   marker does not count (`sharedNotOurs`; `tracked` also when it is gone from the folder but git
 *   still tracks it, asked only without a session id), `sharedMtime` its time.
 * `began` gives when the session's transcript began (asked only when a shared marker is there).
 */
export type MarkerChoice =
  | { kind: 'linked'; folder: string }
  | { kind: 'marker'; marker: MarkerFile }
  | { kind: 'planted'; rel: string; why: Msg; tracked: boolean }
  | { kind: 'unreadable'; rel: string; error: string }
  | {
      kind: 'none';
      foreign: { rel: string; signer: string } | null;
      notOurs: 'tracked' | 'before' | null;
      sharedMtime: number | null;
    };

export async function chooseMarker(
  root: string,
  sessionId: string | null,
  now: number,
  began: () => Promise<number | null> | number | null,
): Promise<MarkerChoice> {
  const folder = linkedFolderOf(root, SHARED_MARKER_REL);
  if (folder !== null) return { kind: 'linked', folder };
  const sharedRead = await markerAt(root, SHARED_MARKER_REL, now);
  const tracks = async (rel: string) => (await gitTracks(path.join(root, rel))) === true;
  const notOurs = sharedRead.marker
    ? await sharedNotOurs(root, sharedRead.marker, await began())
    : !isSessionId(sessionId) && !sharedRead.planted && !sharedRead.error && (await tracks(SHARED_MARKER_REL))
      ? 'tracked'
      : null;
  const shared = notOurs ? null : sharedRead.marker;
  if (shared?.content.nothingToPreserve) return { kind: 'marker', marker: shared };
  const own = isSessionId(sessionId) ? markerRel(sessionId) : null;
  const ownRead = own ? await markerAt(root, own, now) : { marker: null, error: null, planted: null };
  if (own && ownRead.planted) return { kind: 'planted', rel: own, why: ownRead.planted, tracked: await tracks(own) };
  if (!ownRead.marker && sharedRead.planted)
    return {
      kind: 'planted',
      rel: SHARED_MARKER_REL,
      why: sharedRead.planted,
      tracked: await tracks(SHARED_MARKER_REL),
    };
  if (own && ownRead.error) return { kind: 'unreadable', rel: own, error: ownRead.error };
  if (!ownRead.marker && sharedRead.error)
    return { kind: 'unreadable', rel: SHARED_MARKER_REL, error: sharedRead.error };
  const { marker, foreign } = speakingMarker(ownRead.marker, shared, sessionId);
  return marker
    ? { kind: 'marker', marker }
    : { kind: 'none', foreign, notOurs, sharedMtime: sharedRead.marker?.mtime ?? null };
}

/**
 * The marker that speaks for the session (`chooseMarker`) when it says nothing-to-preserve: the
 * PreCompact guard then allows, whatever else is there, and the reminder stays silent. Null otherwise.
 */
export function optedOut(choice: MarkerChoice): MarkerFile | null {
  return choice.kind === 'marker' && choice.marker.content.nothingToPreserve ? choice.marker : null;
}

/**
 * The hash of the state file at `rel` (root-relative) as the readers read it, or null when they would
 * not read it: through a link only while what it leads to stays inside the root (a link out is read by
 * no reader, and an outside file's bytes decide nothing), a file with a second hard link refused, a YAML
 * config over its limit refused, else its first DEFAULT_MAX_BYTES. What a checkpoint vouches for in a
 * file no document holds (S1's sidecar), and what the guard compares such a file with.
 */
export async function stateFileHash(root: string, rel: string): Promise<string | null> {
  // Resolved as the readers resolve it (Workspace.abs): a path set in configuration may be absolute.
  const real = realpathOrNullSync(path.resolve(root, rel));
  if (real === null || !isInside(real, realpathOrSelf(root))) return null;
  const yaml = /\.ya?ml$/i.test(rel);
  const f = await readTextFile(real, yaml ? CONFIG_MAX_BYTES : DEFAULT_MAX_BYTES, {
    refuseHardLinks: true,
    refuseLarger: yaml,
  });
  return f.ok ? f.hash : null;
}

/**
 * How long after the checkpoint the agent's figure may be dated and still be the checkpoint's own turn:
 * the checkpoint is usually run inside the agent's turn, whose final figure comes after the marker.
 */
export const CHECKPOINT_TURN_MS = 120_000;

/**
 * When the newest marker file that may speak for `sessionId` was written (ms): its own or the shared one,
 * whatever stands there (chooseMarker decides whether it counts); -Infinity when neither path holds
 * anything. Stats only: the status line and the reminder ask it before they load the guard.
 */
export function newestMarkerTime(root: string, sessionId: string): number {
  const time = (rel: string) => lstatOrNullSync(path.join(root, rel))?.mtimeMs ?? -Infinity;
  return Math.max(time(markerRel(sessionId)), time(SHARED_MARKER_REL));
}

/**
 * The agent's figure, dated `at` (ms), is later than the turn of the checkpoint whose marker was written
 * at `markerMtime` can be: more than CHECKPOINT_TURN_MS after it. Time alone: the status line and the
 * reminder ask it before they load the guard (`figureAfterCheckpoint` decides the rest).
 */
export function pastCheckpointTurn(at: number, markerMtime: number): boolean {
  return Number.isFinite(at) && at > markerMtime + CHECKPOINT_TURN_MS;
}

/**
 * What the session's transcript says of the turns after a checkpoint's marker (`GuardDecision.turnAfter`):
 * `began`, when the first turn that began after the marker, within CHECKPOINT_TURN_MS of it, began (ms),
 * or null when none had begun when the transcript was read, at `read` (ms).
 */
export interface TurnAfterMarker {
  began: number | null;
  read: number;
}

/**
 * The agent's figure, dated `at` (ms; NaN when unknown), comes from a turn after the checkpoint whose
 * marker was written at `markerMtime`, so the conversation went on since and a checkpoint is due again:
 * dated more than CHECKPOINT_TURN_MS after the marker (`pastCheckpointTurn`), or after the marker and
 * at or after the first turn that began after it (`turn`, from the transcript: a figure dated within
 * that time is of the checkpoint's own turn only when that turn began before the marker was written).
 * Within that time a figure the transcript cannot place is after it: no transcript was read (`turn`
 * undefined), or it was read before the figure came and then no turn had begun. A figure dated at or
 * before the marker, or of unknown date, is not.
 */
export function figureAfterCheckpoint(at: number, markerMtime: number, turn: TurnAfterMarker | undefined): boolean {
  if (!Number.isFinite(at) || at <= markerMtime) return false;
  if (pastCheckpointTurn(at, markerMtime)) return true;
  if (!turn) return true;
  return turn.began !== null ? at >= turn.began : at > turn.read;
}

/**
 * A checkpoint covers the session, as the status bar and the status line say it ("checkpoint done"):
 * the PreCompact guard would let /compact through on the session's marker (`fresh` or `idle`: not
 * nothing-to-preserve, which saves nothing), that marker vouches for the state files as they are now
 * (the decision's `changed` names none: a file whose bytes changed since the checkpoint is not covered
 * by it, though the guard lets /compact through while the change fails no blocking check), and the agent's figure, dated `figureAt` (ms; NaN when unknown), is not from a turn
 * after the marker (written at the decision's `markerMtime`, when known; `figureAfterCheckpoint`, with
 * what the session's transcript said of the turns after it, the decision's `turnAfter`). A marker whose
 * confirmed items the user unticked since (`unticked`, marker-stand.ts's `markerStand`) covers nothing
 * either: any item not confirmed withholds the go-signal, whatever the guard would still let through.
 */
export function guardCheckpointed(
  guard: {
    allow: boolean;
    rule: string;
    markerMtime?: number | null;
    turnAfter?: TurnAfterMarker;
    unchecked?: string;
    changed?: readonly string[];
    unticked?: readonly string[];
  },
  figureAt: number,
): boolean {
  // A guard that allowed only because it could not check the state files vouches for nothing.
  if (!guard.allow || (guard.rule !== 'fresh' && guard.rule !== 'idle') || guard.unchecked) return false;
  if (guard.changed?.length || guard.unticked?.length) return false;
  return !(
    typeof guard.markerMtime === 'number' && figureAfterCheckpoint(figureAt, guard.markerMtime, guard.turnAfter)
  );
}
