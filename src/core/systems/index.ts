/** Every system's rules, by id; with the readers they make the modules `evaluate` runs. */
import { READERS } from './readers';
import type { SystemId } from '../model/model';
import type { Analyser, SystemModule } from '../model/system';
import { analyseS0 } from './s0/rules';
import { analyseS1 } from './s1/rules';
import { analyseS2 } from './s2/rules';
import { analyseS3 } from './s3/rules';
import { analyseS4 } from './s4/rules';

export const ANALYSERS: Readonly<Record<SystemId, Analyser>> = { S0: analyseS0, S1: analyseS1, S2: analyseS2, S3: analyseS3, S4: analyseS4 };

/** Reader and rules of every system, in id order. */
export const SYSTEMS: readonly SystemModule[] = READERS.map((r) => ({ id: r.id, load: r.load, analyse: ANALYSERS[r.id] }));
