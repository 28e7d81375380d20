/**
 * Every system's home, by id: each `systems/<sN>/index.ts` exports its facts, reader, rules, closing
 * words and starter; `evaluate` runs their readers and rules. The hot paths never load this file:
 * they read `facts.ts`, which gathers only the facts.
 */
import { SYSTEM_IDS, type SystemId } from '../model/model';
import type { SystemModule } from '../model/system';
import type { SystemHome } from './home';
import { S0_SYSTEM } from './s0';
import { S1_SYSTEM } from './s1';
import { S2_SYSTEM } from './s2';
import { S3_SYSTEM } from './s3';
import { S4_SYSTEM } from './s4';

const BY_ID: Readonly<Record<SystemId, SystemHome>> = {
  S0: S0_SYSTEM,
  S1: S1_SYSTEM,
  S2: S2_SYSTEM,
  S3: S3_SYSTEM,
  S4: S4_SYSTEM,
};

/**
 * Every system's home, in id order. Marked pure, so that a bundle which takes nothing else of this
 * file drops the homes.
 */
export const HOMES: readonly SystemHome[] = /* @__PURE__ */ SYSTEM_IDS.map((id) => BY_ID[id]);

export function homeOf(id: SystemId): SystemHome {
  return BY_ID[id];
}

/** Reader and rules of every system, in id order. */
export const SYSTEMS: readonly SystemModule[] = HOMES;
