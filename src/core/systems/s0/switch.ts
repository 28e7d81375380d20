/**
 * S0's switch, cheap enough for the status line and `context`: `.agents.yml` read with the light
 * reader (no YAML library) says whether `session.ledger: true` switches the ledger on. Without
 * `.agents.yml` the ledger is not enabled (the seed's skip line); a config that cannot be read is
 * on (the reader checks it as S0 with a blocking finding). A config the light reader is unsure of
 * goes to the YAML reader (context/full-reader); without one registered this throws
 * NeedsFullReader, and nothing else.
 */
import * as path from 'node:path';
import { CONFIG_MAX_BYTES, readTextFile } from '../../files/fsread';
import { agentsYmlLight } from '../../context/agents-yml-light';
import { fullConfigReader } from '../../context/full-reader';
import { companionPath } from '../facts';

// Pure: a bundle that never asks the switch (the status line's) leaves the lookup, and the facts it reads, out.
const CONFIG = /* @__PURE__ */ companionPath('S0', 'config');

/** The ledger is switched on under `root` (see above). */
export async function ledgerOn(root: string): Promise<boolean> {
  // Not read with a second hard link, as every read of the workspace's documents (it is then "cannot be read": on).
  const f = await readTextFile(path.join(root, CONFIG), CONFIG_MAX_BYTES, {
    refuseLarger: true,
    refuseHardLinks: true,
  });
  if (!f.ok) return f.kind !== 'missing';
  const light = agentsYmlLight(f.text);
  if (light !== 'unsure') return light === 'on';
  return (await fullConfigReader(CONFIG))(f.text) !== 'off';
}
