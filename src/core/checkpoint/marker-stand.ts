/**
 * What a checkpoint's marker ticks once the user unticked some of its items in the checklist: the one
 * decision the tree, the checklist and the status item take it from (see marker-ticks.ts, which reads
 * the marker). Pure: the extension bundles it.
 */
import { isSessionItem, type SystemId } from '../model/model';

export interface MarkerTicks {
  /** The marker that gives them (relative path). */
  marker: string;
  /** The marker's hash (its bytes): which checkpoint gave them; a new checkpoint writes another. */
  hash: string;
  /** The session's items confirmed (`feedback-stored`, `last-request`). */
  session: string[];
  /** Each system's own items confirmed (`state-reviewed`), by system. */
  systems: Partial<Record<SystemId, string[]>>;
}

/** An item as a marker's `confirmed` line and the unticks name it: a session's bare, a system's own after it (`S1:state-reviewed`). */
export function itemKey(system: SystemId | null, id: string): string {
  return isSessionItem({ id, severity: 'manual' }) || system === null ? id : `${system}:${id}`;
}

/** An `itemKey` (or a marker's `confirmed` entry) taken apart: its system (null for a session's item) and the item. */
export function splitItemKey(key: string): [SystemId | null, string] {
  const at = key.indexOf(':');
  return at < 0 ? [null, key] : [key.slice(0, at) as SystemId, key.slice(at + 1)];
}

/** Every item `m` confirms, as `itemKey` names them. */
function keysOf(m: MarkerTicks): string[] {
  return [
    ...m.session,
    ...Object.entries(m.systems).flatMap(([s, ids]) => (ids ?? []).map((id) => itemKey(s as SystemId, id))),
  ];
}

/** What a marker's ticks come to once the user's unticks are taken off. */
export interface MarkerStand {
  /** The marker (relative path), or null when none gives ticks. */
  marker: string | null;
  /** The ticks it still gives: the items it confirmed that the user did not untick since (null: none). */
  ticks: MarkerTicks | null;
  /**
   * The items it confirmed that the user unticked since (`itemKey`s; empty: none). While it is there the
   * guard still lets /compact through on it although they are not confirmed: it is to be withdrawn
   * (`withdrawMarker`), and until it is gone every surface says so instead of "checkpoint done".
   */
  unticked: string[];
}

/**
 * The one decision every surface takes a marker's ticks from: `m` (`markerTicks`) with the items the
 * user unticked while this very marker gave them taken off (`untickedFor`: the `itemKey`s unticked
 * against the marker of a hash; an untick kept against an earlier marker does not touch a newer one).
 */
export function markerStand(m: MarkerTicks | null, untickedFor: (markerHash: string) => Iterable<string>): MarkerStand {
  if (!m) return { marker: null, ticks: null, unticked: [] };
  const off = new Set(untickedFor(m.hash));
  const gone = keysOf(m).filter((k) => off.has(k));
  if (!gone.length) return { marker: m.marker, ticks: m, unticked: [] };
  const systems: MarkerTicks['systems'] = {};
  for (const [s, ids] of Object.entries(m.systems)) {
    const left = (ids ?? []).filter((id) => !off.has(itemKey(s as SystemId, id)));
    if (left.length) systems[s as SystemId] = left;
  }
  const session = m.session.filter((id) => !off.has(id));
  const left = session.length || Object.keys(systems).length;
  return { marker: m.marker, ticks: left ? { ...m, session, systems } : null, unticked: gone };
}

/**
 * What unticking the item `key` (`itemKey`) does while `m` gives ticks (after `markerStand`): null when
 * the marker does not confirm it (only a tick given in the checklist goes). Else the untick is kept
 * against the marker (`hash`), which is to be withdrawn, and the marker's other items (`keep`), which
 * the user did not untick, stay ticked as ticks given in the checklist once it is gone.
 */
export function untickPlan(m: MarkerTicks | null, key: string): { hash: string; keep: string[] } | null {
  if (!m) return null;
  const keys = keysOf(m);
  return keys.includes(key) ? { hash: m.hash, keep: keys.filter((k) => k !== key) } : null;
}
