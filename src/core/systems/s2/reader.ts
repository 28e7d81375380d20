/**
 * S2 reader: the context-kit checkpoint (seed 002, corpus F3). Home `.claude/session-ledger.md`
 * (or the newest per-session `.claude/session-ledger.<id>.md`), `context-manifest.yaml` for the
 * durable stores, `.claude/project-state.md` (or the manifest's `project_state`), and the plan file
 * the ledger's PLAN section points at. Parsing lives in `s2-ledger.ts`.
 *
 * Detection: a ledger at `.claude/session-ledger*.md`, or a `context-manifest.yaml` that is the
 * kit's (it has `ledger`/`compaction` keys; an unrelated tool's manifest is someone else's file),
 * or a project state file that uses S2's own section words. A `.claude/project-state.md` written in
 * other words (the corpus's Latest/Now/Next/Blockers/Decisions file) is someone else's file.
 */
import * as path from 'node:path';
import { insideRel } from '../../files/atomic';
import { realpathOrNullSync, standsThere } from '../../files/fsread';
import { companionPath, systemOfPath } from '../facts';
import { S2_FACTS } from './facts';
import type { Section, StateDoc } from '../../model/model';
import { byCodeUnits, extractPaths, oneOf, plainText, trimEndWhere } from '../../markdown/text';
import type { Loaded, SystemReader } from '../../model/system';
import { allRules, type Workspace } from '../../model/workspace';
import {
  hasS2Vocabulary,
  parseLedger,
  parseManifest,
  parsePlan,
  parseProjectState,
  type ManifestInfo,
} from './reader-ledger';

export const S2_HOME = S2_FACTS.home;
export const S2_MANIFEST = companionPath('S2', 'manifest');
export const S2_PROJECT_STATE = companionPath('S2', 'projectState');

const LEDGER_NAME = /^session-ledger(?:\.[A-Za-z0-9._-]+)?\.md$/;

/**
 * The ledger: the newest (by mtime) of the shared `.claude/session-ledger.md` and the per-session
 * `.claude/session-ledger.<id>.md` files (ties go to the shared one); else the first existing
 * extra path configured for S2.
 */
async function findLedger(ws: Workspace): Promise<string | null> {
  const shared = 'session-ledger.md';
  const names = (await ws.list('.claude'))
    .filter((n) => LEDGER_NAME.test(n))
    .sort((a, b) => (a === shared ? -1 : b === shared ? 1 : byCodeUnits(a, b)));
  let best: { rel: string; mtime: number } | null = null;
  for (const n of names) {
    const rel = `.claude/${n}`;
    const f = await ws.read(rel);
    if (!f.ok && f.kind === 'missing') continue;
    if (!best || f.mtime > best.mtime) best = { rel, mtime: f.mtime };
  }
  if (best) return best.rel;
  for (const rel of ws.options.extraPaths?.S2 ?? []) {
    const f = await ws.read(rel);
    if (f.ok || f.kind !== 'missing') return rel;
  }
  return null;
}

/**
 * A bare absolute path in `text` (`Plan: /home/u/proj/docs/plan.md`, no backticks, which extractPaths
 * does not take), as `inside` names it: its path relative to the workspace root, or null (outside).
 */
function bareAbsolutePaths(text: string, inside: (abs: string) => string | null): string[] {
  const bare = text.replace(/`[^`]*`/g, ' ').replace(/\[[^\][]{0,1000}\]\([^()]{0,1000}\)/g, ' ');
  const out: string[] = [];
  for (const m of bare.matchAll(/(?:^|[\s(,])(\/[\w@.-]+(?:\/[\w@.-]+)+)(?=$|[\s),;:])/g)) {
    const rel = inside(trimEndWhere(m[1], oneOf('.,;:')));
    if (rel !== null) out.push(rel);
  }
  return out;
}

/**
 * The plan file the PLAN section points at: its paths other than the project state file, plan-like first.
 * `inside` names an absolute path by its path relative to the workspace root (null outside it): a bare
 * absolute path into the workspace points at the plan as a relative one does; one outside is no pointer.
 */
function planPointer(
  plan: Section | undefined,
  projectState: string | null,
  inside: (abs: string) => string | null,
): string | null {
  if (!plan) return null;
  const cands: Array<{ p: string; planish: boolean }> = [];
  for (const it of plan.items) {
    for (const p of [...extractPaths(it.text), ...(it.text.includes('/') ? bareAbsolutePaths(it.text, inside) : [])]) {
      if (p === projectState || /project-state/i.test(p) || !/\.(?:md|markdown|txt|ya?ml)$/i.test(p)) continue;
      cands.push({ p, planish: /plan/i.test(p) || /^\W*plan\b/i.test(plainText(it.text)) });
    }
  }
  return (cands.find((c) => c.planish) ?? cands[0])?.p ?? null;
}

export function sectionOf(doc: StateDoc | null, key: string): Section | undefined {
  return doc?.sections.find((s) => s.key === key);
}

/** What S2's reader carries to its rules: the manifest, the project state, the plan and the PLAN pointer. */
export interface S2Extra {
  manifest: StateDoc | null;
  projectState: StateDoc | null;
  plan: StateDoc | null;
  pointer: string | null;
  psRel: string | null;
}

export const S2: SystemReader<S2Extra> = {
  id: 'S2',

  async load(ws: Workspace): Promise<Loaded<S2Extra> | null> {
    const ledgerRel = await findLedger(ws);
    const mf = await ws.read(S2_MANIFEST);
    // With a ledger present the root manifest is the kit's whatever it holds; alone it must look like the kit's.
    // A damaged file at the kit's path is reported as the kit's.
    const manifestIsKit = mf.ok ? !!ledgerRel || parseManifest(mf.text).info.kit : mf.kind !== 'missing';
    const manifest = manifestIsKit ? await ws.loadDoc(S2_MANIFEST, 'S2', 'manifest', (t) => parseManifest(t)) : null;
    const info = manifest?.meta.manifest as ManifestInfo | undefined;
    const psRel = info?.projectState === null ? null : (info?.projectState ?? S2_PROJECT_STATE);

    let psOurs = false;
    if (!ledgerRel && !manifest && psRel) {
      const f = await ws.read(psRel);
      psOurs = f.ok && hasS2Vocabulary(ws.outline(f.text));
      if (f.ok && !psOurs) ws.notOurs(psRel, 'S2', 'S2-project-state-words');
    }
    if (mf.ok && !manifestIsKit) ws.notOurs(S2_MANIFEST, 'S2', 'S2-manifest-keys');
    if (!ledgerRel && !manifest && !psOurs) return null;

    const homeRel = ledgerRel ?? S2_HOME;
    const home = ledgerRel ? await ws.loadDoc(ledgerRel, 'S2', 'ledger', parseLedger) : null;
    const docs: StateDoc[] = [];
    if (home) docs.push(home);
    if (manifest) docs.push(manifest);
    let projectState: StateDoc | null = null;
    // The project state is read by the rules alone: the hooks' skeleton check and resume take the ledger.
    // Anything standing at its path is it: a folder or a pipe there is a project state that cannot be read.
    const psThere = !!psRel && standsThere(await ws.kind(psRel));
    if (psRel && allRules(ws.options) && psThere) {
      projectState = await ws.loadDoc(psRel, 'S2', 'projectState', parseProjectState);
      docs.push(projectState);
    }
    // The plan is S2's state too: its rules read it, and the guard's reading (the skeleton check, which parses
    // the ledger anyway) names it to compare. A reading that checks nothing does not parse the ledger for it.
    const planWanted = allRules(ws.options) || ws.options.rules === 'skeleton';
    // Inside by its spelling, else by the real paths of the root and of the file's folder: a root opened
    // through a link (macOS's /tmp is /private/tmp) and a ledger that writes the other spelling name one file.
    const inside = (abs: string): string | null => {
      const rel = insideRel(ws.rel(abs));
      if (rel !== null) return rel;
      const [root, dir] = [realpathOrNullSync(ws.root), realpathOrNullSync(path.dirname(abs))];
      return root && dir
        ? insideRel(
            path
              .relative(root, path.join(dir, path.basename(abs)))
              .split(path.sep)
              .join('/'),
          )
        : null;
    };
    let pointer = planWanted ? planPointer(sectionOf(home, 'plan'), psRel, inside) : null;
    // An absolute pointer into the workspace names the file its relative path names, and is named so
    // everywhere (the checks, the files a checkpoint vouches for): a plan changed or deleted since the
    // checkpoint is found however the ledger spells its path. One that leads out stays as written.
    if (pointer && path.isAbsolute(pointer)) pointer = inside(pointer) ?? pointer;
    // A PLAN pointer to another system's state file (docs/state/STATE.md) is a link on the ledger:
    // that file is read by its own system only, never a second time as S2's plan.
    const owner = pointer ? systemOfPath(pointer) : null;
    if (home && pointer && owner && owner !== 'S2') {
      const line =
        sectionOf(home, 'plan')?.items.find((i) => i.text.includes(pointer ?? ''))?.line ??
        sectionOf(home, 'plan')?.line ??
        1;
      home.links = [...(home.links ?? []), { path: pointer, line, system: owner }];
      pointer = null;
    }
    let plan: StateDoc | null = null;
    // Anything at the pointer is the plan: a folder, a pipe or a file that cannot be read there is a plan
    // that cannot be read (S2's readable), not one that is missing (a stale path, a warning); a link that
    // resolves to nothing (dangling, a loop) is missing, and the guard takes a vouched one as gone.
    const planThere = !!pointer && standsThere(await ws.kind(pointer));
    if (pointer && planThere && allRules(ws.options)) {
      plan = await ws.loadDoc(pointer, 'S2', 'plan', parsePlan);
      docs.push(plan);
    }
    // Without every rule the project state and the plan are no documents here, but they are S2's state,
    // which its rules read: named as the rules name them, for the guard to compare (a plan that came since
    // the checkpoint counts). An absolute pointer or one that leads out of the workspace is named too: the
    // rules read the first and refuse the second (S2's readable), so either one changed or come since is checked.
    const more = allRules(ws.options)
      ? []
      : [...(psRel && psThere ? [psRel] : []), ...(pointer && planThere ? [pointer] : [])];
    return {
      home,
      homeRel,
      docs,
      extra: { manifest, projectState, plan, pointer, psRel },
      ...(more.length ? { more } : {}),
    };
  },
};
