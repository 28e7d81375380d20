/**
 * S3 reader: the Groundwork checkpoint (seed 003, corpus F4). Home `docs/state/STATE.md` with its
 * `## Handoff` block (Status, Phase, Branch / HEAD, Gates, `Now ▶`, Blocked on) and its `## Log`
 * of dated entries, newest first; companions `docs/state/log/YYYY-MM.md`, `DEBT.md`, `INTAKE.md`,
 * `docs/decisions/` (listed in `meta.companions`). Parsing lives in `s3-state.ts`.
 *
 * Detection: `docs/state/STATE.md` is a generic path. A readable file there with neither
 * `## Handoff`, `## Log` nor a `Now ▶` line is someone else's file (the corpus's multi-stream STATE
 * with its status in the H1): S3 is not detected. A file there that cannot be read as text is S3's
 * document, damaged.
 */
import { S3_FACTS } from './facts';
import type { Loaded, SystemReader } from '../../model/system';
import type { Workspace } from '../../model/workspace';
import { hasS3Headings, parseS3 } from './reader-state';

export const S3_HOME = S3_FACTS.home;

async function findHome(ws: Workspace): Promise<string | null> {
  for (const rel of [S3_HOME, ...(ws.options.extraPaths?.S3 ?? [])]) {
    const f = await ws.read(rel);
    if (!f.ok && f.kind === 'missing') continue;
    // Someone else's readable file is not S3; an unreadable one is S3's, damaged, and an empty one S3's, emptied.
    if (f.ok && f.text.trim() !== '' && !hasS3Headings(ws.outline(f.text))) {
      ws.notOurs(rel, 'S3', 'S3-no-handoff');
      continue;
    }
    return rel;
  }
  return null;
}

export const S3: SystemReader = {
  id: 'S3',
  async load(ws: Workspace): Promise<Loaded | null> {
    const homeRel = await findHome(ws);
    if (!homeRel) return null;
    const companions: string[] = [];
    for (const { path: c } of S3_FACTS.companions) if (await ws.exists(c)) companions.push(c);
    // Handed to loadDoc, not written into the document: naming them parses nothing.
    const home = await ws.loadDoc(homeRel, 'S3', 'state', parseS3, { companions });
    return { home, homeRel, docs: [home] };
  },
};
