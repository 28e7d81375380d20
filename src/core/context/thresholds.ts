/** When to propose a checkpoint and when to urge it, from the detected system (SPEC §4). */

export interface ThresholdProfile {
  /** The system the figures come from (`S3`), `default`, or `custom` when settings set them. */
  profile: string;
  /** Percent at which a checkpoint is proposed. */
  propose: number;
  /** Percent at which it is urgent; null when the system names a single cue. */
  urgent: number | null;
}

export type Level = 'ok' | 'propose' | 'urgent';

/** When no system is detected: propose at 60 %, urge at 80 % (Claude Code auto-compacts near the end of the window). */
export const DEFAULT_THRESHOLDS: ThresholdProfile = { profile: 'default', propose: 60, urgent: 80 };

const validPct = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100;

/**
 * The profile of the detected systems: the one that cues earliest (lowest `propose`; in id order
 * on a tie) so no system's checkpoint comes too late, or the default when none is detected. Set
 * fields of `override` (from settings) win; a profile with overridden figures is called `custom`
 * unless the override names it.
 */
export function thresholdProfile(
  systems: readonly { id: string; thresholds: { propose: number; urgent: number | null } }[],
  override?: Partial<ThresholdProfile>,
): ThresholdProfile {
  let base = DEFAULT_THRESHOLDS;
  for (const s of systems) {
    if (!s || !validPct(s.thresholds?.propose)) continue;
    const cand: ThresholdProfile = { profile: s.id, propose: s.thresholds.propose, urgent: validPct(s.thresholds.urgent) ? s.thresholds.urgent : null };
    if (base === DEFAULT_THRESHOLDS || cand.propose < base.propose) base = cand;
  }
  if (!override) return { ...base };
  const propose = validPct(override.propose) ? override.propose : base.propose;
  const urgent = override.urgent === null ? null : validPct(override.urgent) ? override.urgent : base.urgent;
  const changed = propose !== base.propose || urgent !== base.urgent;
  return { profile: override.profile ?? (changed ? 'custom' : base.profile), propose, urgent };
}

/** `urgent` at or past the urgent threshold, `propose` at or past the proposal, else `ok`. */
export function levelOf(percent: number, t: ThresholdProfile): Level {
  if (!Number.isFinite(percent)) return 'ok';
  if (t.urgent !== null && percent >= t.urgent) return 'urgent';
  if (percent >= t.propose) return 'propose';
  return 'ok';
}
