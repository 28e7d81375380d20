/** Every system's rules, by id; with the readers they make the modules `evaluate` runs. */
import { READERS } from '../formats';
import type { SystemId } from '../model';
import type { Analyser, SystemModule } from '../system';
import { analyseS0 } from './s0';
import { analyseS1 } from './s1';
import { analyseS2 } from './s2';
import { analyseS3 } from './s3';
import { analyseS4 } from './s4';

export const ANALYSERS: Readonly<Record<SystemId, Analyser>> = { S0: analyseS0, S1: analyseS1, S2: analyseS2, S3: analyseS3, S4: analyseS4 };

/** Reader and rules of every system, in id order. */
export const SYSTEMS: readonly SystemModule[] = READERS.map((r) => ({ id: r.id, load: r.load, analyse: ANALYSERS[r.id] }));
