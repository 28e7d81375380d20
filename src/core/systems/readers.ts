/** Every system reader, in id order (the order of the facts table). Readers only: no rules load from here. */
import { SYSTEM_IDS, type SystemId } from '../model/model';
import type { SystemReader } from '../model/system';
import { S0 } from './s0/reader';
import { S1 } from './s1/reader';
import { S2 } from './s2/reader';
import { S3 } from './s3/reader';
import { S4 } from './s4/reader';

const BY_ID = { S0, S1, S2, S3, S4 } satisfies Record<SystemId, SystemReader>;

export const READERS: readonly SystemReader[] = SYSTEM_IDS.map((id) => BY_ID[id]);

/** A system's reader, typed with what it carries to its rules. */
export function readerById<K extends SystemId>(id: K): (typeof BY_ID)[K] {
  return BY_ID[id];
}
