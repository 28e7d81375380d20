/**
 * The ticks a checkpoint's marker gives a session: the manual items the user confirmed when the
 * checkpoint was written (`checkpoint --confirm feedback-stored,last-request`, or the checklist's
 * ticks), so that no surface asks for them again while that checkpoint still speaks for the state.
 *
 * A marker gives ticks only when all of this holds, else none:
 * - it is the marker the PreCompact guard takes for the session (`chooseMarker`: nothing planted, no
 *   link, no second hard link, not dated in the future, no shared marker that came with the repository),
 *   and it is no nothing-to-preserve (which confirms nothing);
 * - its first line is the checkpoint's own and names this very session: a marker of another session,
 *   an unsigned one, or one written by hand (`touch`, `echo <id> >`) ticks nothing, nor does one written
 *   before markers recorded what was confirmed (it has no `confirmed` line);
 * - git does not track it: a marker that came with the repository is nobody's word in this session;
 * - it vouches for every detected system's state files as they are now (each document the report
 *   read, and each other file it vouched for, with the same bytes): a state file that changed opens
 *   the items again, as it does for the ticks given in the checklist.
 *
 * A box the marker ticked that the user unticks means "not confirmed any more", and any item not
 * confirmed withholds the go-signal; the marker is that go-signal, and the PreCompact guard lets
 * /compact through on it. So the untick withdraws the marker (marker-stand.ts: `markerStand`,
 * `untickPlan`; here `withdrawMarker`): the extension removes it, and /compact is stopped until a new checkpoint. Until
 * it is gone (the extension writes nothing in Restricted Mode, or the removal failed) the untick is
 * kept against that very marker, the box stays unticked, and every surface says the marker still
 * lets /compact through. A new checkpoint writes another marker, whose confirmed items count again.
 */
import * as path from 'node:path';
import { refuseOwnFileLink, removeOwn } from '../files/atomic';
import { readTextFile } from '../files/fsread';
import { withWriteLock } from '../files/lock';
import { gitTracks } from '../git/tracked';
import { isSessionItem, type SystemId, type SystemReport, type WorkspaceReport } from '../model/model';
import { sessionWindowMinutes } from '../context/sessions';
import { applyTicks } from '../report/ticks';
import { sessionMeant, sessionNamed, type SessionNamed } from './checkpoint';
import { splitItemKey, type MarkerTicks } from './marker-stand';
import { chooseMarker, stateFileHash } from './freshness';
import { isSessionId, MARKER_MAX_BYTES, sameSession } from './marker';

export type { MarkerTicks } from './marker-stand';

/** The ticks the marker that speaks for `sessionId` gives it on `report` (as read now), or null. Never throws. */
export async function markerTicks(
  root: string,
  sessionId: string | null,
  report: Pick<WorkspaceReport, 'systems'>,
  opts: { now?: number; began?: () => Promise<number | null> | number | null } = {},
): Promise<MarkerTicks | null> {
  try {
    if (!isSessionId(sessionId)) return null;
    const choice = await chooseMarker(root, sessionId, opts.now ?? Date.now(), opts.began ?? (() => null));
    if (choice.kind !== 'marker') return null;
    const m = choice.marker;
    const c = m.content;
    if (c.nothingToPreserve || !c.confirmed.length || !sameSession(sessionId, c.sessionId)) return null;
    // The state files first: the extension asks on every re-read, and while an agent writes they fail
    // here, before the repository's index (which may be megabytes) is read for the marker.
    if (!(await vouchesForNow(root, c.hashes, report))) return null;
    if ((await gitTracks(path.join(root, m.rel))) !== false) return null;
    const f = await readTextFile(path.join(root, m.rel), MARKER_MAX_BYTES);
    if (!f.ok || f.truncated || f.text !== m.text) return null;
    const out: MarkerTicks = { marker: m.rel, hash: f.hash, session: [], systems: {} };
    for (const id of c.confirmed) {
      const [system, item] = splitItemKey(id);
      if (system === null) {
        if (isSessionItem({ id: item, severity: 'manual' })) out.session.push(item);
      } else if (report.systems.some((s) => s.id === system)) (out.systems[system as SystemId] ??= []).push(item);
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * `report` with the manual items ticked that the checkpoint marker of the session meant confirmed, beside
 * those it has ticked already (`check --confirm`): what `check` and `status` show, as the checklist
 * does. The session is the one a checkpoint takes (`sessionMeant`), said as `named` for the checkpoint
 * command they print; while several run and none is named, no marker speaks for it and nothing is ticked.
 * `found`: what `sessionMeant` found, for what the commands say of that session's /compact.
 */
export async function withSessionTicks(
  root: string,
  report: WorkspaceReport,
  opts: { env?: NodeJS.ProcessEnv; now?: number } = {},
): Promise<{ report: WorkspaceReport; named: SessionNamed; found: Awaited<ReturnType<typeof sessionMeant>> }> {
  const now = opts.now ?? Date.now();
  const env = opts.env ?? process.env;
  const windowMinutes = sessionWindowMinutes(env);
  const found = await sessionMeant(root, { env, now, windowMinutes });
  const named = sessionNamed(found, windowMinutes);
  const m = await markerTicks(root, found.meant?.sessionId ?? null, report, { now });
  if (!m) return { report, named, found };
  const done = (s: SystemReport, more: readonly string[] | undefined) =>
    new Set([...s.checks.filter((c) => c.status === 'manual-done').map((c) => c.id), ...(more ?? [])]);
  const session = report.systems.length ? done(report.systems[0], m.session) : new Set(m.session);
  return { report: applyTicks(report, { session, system: (s) => done(s, m.systems[s.id]) }), named, found };
}

/**
 * Every detected (switched-on) system's state files are as the marker vouched for them: each document
 * read with the hash the marker holds for it (the home among them), and each other file it vouched
 * for hashing the same now.
 */
async function vouchesForNow(
  root: string,
  hashes: ReadonlyArray<{ hash: string; path: string }>,
  report: Pick<WorkspaceReport, 'systems'>,
): Promise<boolean> {
  const vouched = new Map(hashes.map((h) => [h.path, h.hash.toLowerCase()]));
  const active = report.systems.filter((s) => !s.skipped);
  if (!active.length) return false;
  const read = new Set<string>();
  for (const s of active) {
    if (!s.docs.some((d) => d.relPath === s.home && d.hash)) return false;
    for (const d of s.docs) {
      if (!d.hash) continue;
      if (vouched.get(d.relPath) !== d.hash.toLowerCase()) return false;
      read.add(d.relPath);
    }
  }
  for (const [rel, hash] of vouched) if (!read.has(rel) && (await stateFileHash(root, rel)) !== hash) return false;
  return true;
}

/**
 * Withdraw the marker that gave `m`: remove it, under the lock its checkpoint writes it under, when it
 * still holds the same bytes. `changed`: another checkpoint wrote it since (left alone: its confirmed
 * items are the user's newer word). A marker already gone counts as withdrawn. Throws when the lock or
 * the removal fails (`WriteRefused` for a busy or planted lock), and (WriteRefused 'link') when the
 * marker, or a folder on the way from the root to it, is a link or it has a second hard link: the
 * marker is one of the tool's own files, never removed through a link (a `.claude` swapped for a link
 * since the marker was read would remove the file of that name where the link leads).
 */
export async function withdrawMarker(
  root: string,
  m: Pick<MarkerTicks, 'marker' | 'hash'>,
): Promise<'withdrawn' | 'changed'> {
  const file = path.join(root, m.marker);
  // The marker's own way checked first, as a checkpoint writes it: a refusal names the marker, and no
  // lock is made where a link leads.
  refuseOwnFileLink(file, root);
  return withWriteLock(file, root, async () => {
    const f = await readTextFile(file, MARKER_MAX_BYTES);
    if (!f.ok && f.kind === 'missing') return 'withdrawn';
    if (!f.ok || f.truncated || f.hash !== m.hash) return 'changed';
    // Walked again under the lock, right before the removal, which goes through the marker's folder held
    // open from the root down: a link planted meanwhile removes nothing, nor one swapped in at the removal.
    removeOwn(file, root);
    return 'withdrawn';
  });
}
