/**
 * S4 reader: the checkpointing skill (seed 004, corpus F5). Home `.agents/STATE.md` (one
 * `# Agent State`, one `## Progress Tracker`, and `## Current Project|Feature|Bug Fix` working
 * blocks), `PROGRESS.md` (the latest five checkpoint summaries, newest first) and the newest file in
 * `.agents/checkpoints/` (YAML front matter). Parsing lives in `s4-state.ts`.
 *
 * Detection: `.agents/STATE.md` is a generic path. A readable file there without any of S4's
 * headings is someone else's file; a file there that cannot be read as text (or a directory) is
 * S4's document, damaged. Checkpoint files under `.agents/checkpoints/` also detect S4. The rules
 * are in `rules.ts` beside it.
 */
import { companionPath } from '../facts';
import { S4_FACTS } from './facts';
import type { StateDoc } from '../../model/model';
import type { Loaded, SystemReader } from '../../model/system';
import { allRules, type Workspace } from '../../model/workspace';
import { hasS4Headings, parseCheckpoint, parseProgress, parseS4State } from './reader-state';

export const S4_HOME = S4_FACTS.home;
export const S4_PROGRESS = companionPath('S4', 'progress');
export const S4_CHECKPOINTS = companionPath('S4', 'checkpoints');
export const S4_RESEARCH = companionPath('S4', 'research');
export const S4_RESEARCH_ARCHIVE = companionPath('S4', 'researchArchive');

/** What the reader carries from load to the checks. */
export interface S4Extra {
  progress: StateDoc | null;
  checkpoint: StateDoc | null;
}

async function findHome(ws: Workspace): Promise<{ rel: string; ours: boolean } | null> {
  for (const rel of [S4_HOME, ...(ws.options.extraPaths?.S4 ?? [])]) {
    const f = await ws.read(rel);
    if (!f.ok && f.kind === 'missing') continue;
    return { rel, ours: !f.ok || hasS4Headings(ws.outline(f.text)) };
  }
  return null;
}

export const S4: SystemReader<S4Extra> = {
  id: 'S4',
  async load(ws: Workspace): Promise<Loaded<S4Extra> | null> {
    const found = await findHome(ws);
    const cps: string[] = [];
    for (const n of (await ws.list(S4_CHECKPOINTS)).filter((n) => n.endsWith('.md')).sort()) {
      if ((await ws.kind(`${S4_CHECKPOINTS}/${n}`)) === 'file') cps.push(`${S4_CHECKPOINTS}/${n}`);
    }
    if (!(found?.ours || cps.length > 0)) {
      if (found) ws.notOurs(found.rel, 'S4', 'S4-no-blocks');
      return null;
    }
    const homeRel = found?.rel ?? S4_HOME;
    // What the closing report counts: research notes, active and archived (never moved by the product).
    // Handed to loadDoc, not written into the document: counting them parses nothing.
    // The hooks' skeleton check and resume count none.
    const notes = async (dir: string) => (await ws.list(dir)).filter((n) => n.endsWith('.md')).length;
    const research = allRules(ws.options)
      ? { active: await notes(S4_RESEARCH), archived: await notes(S4_RESEARCH_ARCHIVE) }
      : undefined;
    const home = found ? await ws.loadDoc(homeRel, 'S4', 'state', parseS4State, research && { research }) : null;
    const docs: StateDoc[] = home ? [home] : [];
    const progress =
      (await ws.kind(S4_PROGRESS)) === 'file' ? await ws.loadDoc(S4_PROGRESS, 'S4', 'progress', parseProgress) : null;
    if (progress) docs.push(progress);
    // Checkpoint files are named by their timestamp: the last in name order is the newest.
    const cpRel = cps[cps.length - 1];
    const checkpoint = cpRel ? await ws.loadDoc(cpRel, 'S4', 'checkpoint', parseCheckpoint) : null;
    if (checkpoint) docs.push(checkpoint);
    return { home, homeRel, docs, extra: { progress, checkpoint } };
  },
};
