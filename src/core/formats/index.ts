/** Every system reader, in id order. */
import type { SystemModule } from '../system';
import { S0 } from './s0';
import { S1 } from './s1';
import { S2 } from './s2';
import { S3 } from './s3';
import { S4 } from './s4';

export const SYSTEMS: readonly SystemModule[] = [S0, S1, S2, S3, S4];

export function systemById(id: string): SystemModule | undefined {
  return SYSTEMS.find((s) => s.id === id);
}
