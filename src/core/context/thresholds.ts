/**
 * When to propose a checkpoint and when to urge it: each system's seed names its own figures (in
 * the facts table); the profile follows the systems detected and the user's settings. The CLI
 * (`context`, `statusline`) and the extension's status bar both build it with `thresholdProfile`.
 */
import { HOT_FACTS, isSystemId } from '../systems/facts';
import type { SystemId } from '../model/model';

export interface ThresholdProfile {
  /** The system the figures come from (`S3`), `default`, or `custom` when settings set them. */
  profile: string;
  /** Percent at which a checkpoint is proposed. */
  propose: number;
  /** Percent at which it is urgent; null when the system names a single cue. */
  urgent: number | null;
  /**
   * The marks as the settings put them when they put the proposal above the urgent mark (one of them may be
   * the system's own): they are read the other way round, the lower as the proposal. Absent otherwise.
   */
  inverted?: { propose: number; urgent: number };
}

export type Level = 'ok' | 'propose' | 'urgent';

/** When no system is detected: propose at 60 %, urge at 80 % (Claude Code auto-compacts near the end of the window). */
export const DEFAULT_THRESHOLDS: ThresholdProfile = { profile: 'default', propose: 60, urgent: 80 };

const validPct = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100;

/** What the user's settings say about thresholds; null or missing fields are not set. */
export interface ThresholdSettings {
  /** `auto` (or missing) follows the detected systems; a system id takes that system's figures. */
  profile?: 'auto' | SystemId | null;
  propose?: number | null;
  urgent?: number | null;
}

/**
 * The one threshold profile: the figures of the detected systems (`ids`), or of the system the
 * settings name; among several, the one that cues earliest (lowest `propose`; in id order on a
 * tie) so no system's checkpoint comes too late; the default when none. The settings' `propose` /
 * `urgent` win when set to a valid percent; a profile with overridden figures is called `custom`. Marks
 * that put the proposal above the urgent mark cannot both hold (the meter would be urgent before a
 * checkpoint was proposed): the lower is read as the proposal and the higher as the urgent mark, and the
 * profile says so (`inverted`, the marks as set) for the surfaces to tell the user.
 */
export function thresholdProfile(ids: readonly string[], settings: ThresholdSettings = {}): ThresholdProfile {
  const chosen =
    settings.profile && settings.profile !== 'auto' && isSystemId(settings.profile) ? [settings.profile] : ids;
  let base = DEFAULT_THRESHOLDS;
  for (const id of chosen) {
    if (!isSystemId(id)) continue;
    const t = HOT_FACTS[id].thresholds;
    const cand: ThresholdProfile = { profile: id, propose: t.propose, urgent: t.urgent };
    if (base === DEFAULT_THRESHOLDS || cand.propose < base.propose) base = cand;
  }
  const propose = validPct(settings.propose) ? settings.propose : base.propose;
  const urgent = validPct(settings.urgent) ? settings.urgent : base.urgent;
  const changed = propose !== base.propose || urgent !== base.urgent;
  const profile = changed ? 'custom' : base.profile;
  if (urgent !== null && propose > urgent)
    return { profile, propose: urgent, urgent: propose, inverted: { propose, urgent } };
  return { profile, propose, urgent };
}

/** `urgent` at or past the urgent threshold, `propose` at or past the proposal, else `ok`. */
export function levelOf(percent: number | null, t: ThresholdProfile): Level {
  if (percent === null || !Number.isFinite(percent)) return 'ok';
  if (t.urgent !== null && percent >= t.urgent) return 'urgent';
  if (percent >= t.propose) return 'propose';
  return 'ok';
}

/**
 * A percentage as a surface shows it, with `decimals` decimals, cut down and never rounded up: a figure
 * shown at or past a threshold means the context is at or past it (39.99 % shows as 39 %, under a 40 %
 * mark, not as 40 % that `levelOf` does not count as reached). The small epsilon keeps a binary
 * fraction just under a shown value (0.07 × 100) from losing a digit.
 */
export function shownPercent(percent: number, decimals = 0): number {
  const scale = 10 ** decimals;
  return Math.floor(percent * scale + 1e-9) / scale;
}
