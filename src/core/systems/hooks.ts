/**
 * Every system as the PreCompact and SessionStart hooks run it on every event (HookHome): its reader,
 * the skeleton check and the resume, and its words for a file not read and at session start. Only for
 * a state file changed since the checkpoint does the guard run every rule (./index).
 */
import { SYSTEM_IDS, type SystemId } from '../model/model';
import type { HookHome } from './home';
import { S0_HOOK } from './s0';
import { S1_HOOK } from './s1';
import { S2_HOOK } from './s2';
import { S3_HOOK } from './s3';
import { S4_HOOK } from './s4';

const BY_ID: Readonly<Record<SystemId, HookHome>> = {
  S0: S0_HOOK,
  S1: S1_HOOK,
  S2: S2_HOOK,
  S3: S3_HOOK,
  S4: S4_HOOK,
};

/** What the hooks run of every system, in id order. */
export const HOOK_SYSTEMS: readonly HookHome[] = SYSTEM_IDS.map((id) => BY_ID[id]);

export function hookHomeOf(id: SystemId): HookHome {
  return BY_ID[id];
}
