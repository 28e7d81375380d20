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
import {
  checkBudget,
  checkExists,
  checkFresh,
  checkNextAction,
  checkNoSecrets,
  checkPending,
  checkStalePaths,
  checkWorkExplained,
  clip,
  extractPaths,
  isPlaceholder,
  mk,
  plainText,
  type PathRef,
} from '../checks/common';
import { parseMarkdown } from '../markdown';
import type { Check, Section, StateDoc } from '../model';
import type { Analysis, Loaded, SystemModule } from '../system';
import type { Workspace } from '../workspace';
import {
  hasS2Vocabulary,
  parseLedger,
  parseManifest,
  parsePlan,
  parseProjectState,
  PLAN_SPINE_MAX_CHARS,
  realTopItems,
  s2Placeholder,
  type ManifestInfo,
  type PlanSpine,
} from './s2-ledger';

export const S2_HOME = '.claude/session-ledger.md';
export const S2_MANIFEST = 'context-manifest.yaml';
export const S2_PROJECT_STATE = '.claude/project-state.md';
export const S2_LEDGER_MAX_LINES = 150;
export const S2_LEDGER_MAX_CHARS = 5200;

const LEDGER_NAME = /^session-ledger(?:\.[A-Za-z0-9._-]+)?\.md$/;

/**
 * The ledger: the newest (by mtime) of the shared `.claude/session-ledger.md` and the per-session
 * `.claude/session-ledger.<id>.md` files (ties go to the shared one); else the first existing
 * extra path configured for S2.
 */
async function findLedger(ws: Workspace): Promise<string | null> {
  const shared = 'session-ledger.md';
  const names = (await ws.list('.claude')).filter((n) => LEDGER_NAME.test(n)).sort((a, b) => (a === shared ? -1 : b === shared ? 1 : a.localeCompare(b)));
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

/** The plan file the PLAN section points at: its paths other than the project state file, plan-like first. */
function planPointer(plan: Section | undefined, projectState: string | null): string | null {
  if (!plan) return null;
  const cands: Array<{ p: string; planish: boolean }> = [];
  for (const it of plan.items) {
    for (const p of extractPaths(it.text)) {
      if (p === projectState || /project-state/i.test(p) || !/\.(?:md|markdown|txt|ya?ml)$/i.test(p)) continue;
      cands.push({ p, planish: /plan/i.test(p) || /^\W*plan\b/i.test(plainText(it.text)) });
    }
  }
  return (cands.find((c) => c.planish) ?? cands[0])?.p ?? null;
}

function sectionOf(doc: StateDoc | null, key: string): Section | undefined {
  return doc?.sections.find((s) => s.key === key);
}

function notSkeleton(home: StateDoc | null): Check {
  if (!home || !home.text) return mk('S2', 'not-skeleton', 'block', 'skip', 'No readable ledger to inspect.');
  const filled = home.sections.filter((s) => s.key !== 'preamble').some((s) => s.items.some((i) => !s2Placeholder(i.text)));
  return mk(
    'S2',
    'not-skeleton',
    'block',
    filled,
    filled ? `${home.relPath} holds real content.` : `${home.relPath} is an empty skeleton: no section below a ## heading holds anything.`,
    { path: home.relPath, line: filled ? undefined : 1 },
    'Run /checkpoint and write it down for real: each decision with what it beat, each fact with its command, each dropped path with its reason, and one NEXT line.',
  );
}

function perItem(home: StateDoc, key: 'verified' | 'dropped'): Check[] {
  const s = sectionOf(home, key);
  const id = key === 'verified' ? 'verified-command' : 'dropped-reason';
  const flag = key === 'verified' ? 'hasCommand' : 'hasReason';
  const items = s ? realTopItems(s) : [];
  if (items.length === 0) return [mk('S2', id, 'warn', 'skip', `No ${key.toUpperCase()} items.`, { path: home.relPath, line: s?.line })];
  const missing = items.filter((i) => !i.flags.includes(flag));
  if (missing.length === 0) {
    return [mk('S2', id, 'warn', true, `Every ${key.toUpperCase()} item carries its ${key === 'verified' ? 'command' : 'reason'} (${items.length}).`, { path: home.relPath, line: s?.line })];
  }
  return missing.map((i) =>
    key === 'verified'
      ? mk('S2', id, 'warn', false, `VERIFIED item without the command that proved it: "${clip(i.text, 80)}".`, { path: home.relPath, line: i.line }, 'Add the exact command or probe, e.g. `- tests pass [npm test]`. A claim without provenance is a belief.')
      : mk('S2', id, 'warn', false, `DROPPED item without its reason: "${clip(i.text, 80)}".`, { path: home.relPath, line: i.line }, 'Add why it was abandoned (`- approach: why`), or it gets proposed again.'),
  );
}

function nextOneLine(home: StateDoc): Check {
  const s = sectionOf(home, 'next');
  if (!s) return mk('S2', 'next-one-line', 'warn', 'skip', 'No NEXT section.', { path: home.relPath });
  const n = Number(home.meta.nextLineCount ?? 0);
  if (n === 0) return mk('S2', 'next-one-line', 'warn', 'skip', 'NEXT is empty (see next-action).', { path: home.relPath, line: s.line });
  return mk(
    'S2',
    'next-one-line',
    'warn',
    n <= 1,
    n <= 1 ? 'NEXT is one line.' : `NEXT holds ${n} lines; it should be the single next action on one line.`,
    { path: home.relPath, line: s.line },
    'Keep NEXT to one line: the single most valuable next action, ready to pick up cold. Move the rest to OPEN or the plan.',
  );
}

function planSize(plan: StateDoc | null, pointer: string | null): Check {
  if (!pointer) return mk('S2', 'plan-size', 'warn', 'skip', 'No plan file named under PLAN: nothing to size.');
  if (!plan || !plan.text) return mk('S2', 'plan-size', 'warn', 'skip', `The plan file ${pointer} cannot be read.`, { path: pointer });
  const sp = plan.meta.spine as PlanSpine | undefined;
  if (!sp) return mk('S2', 'plan-size', 'warn', 'skip', 'The plan could not be measured.', { path: plan.relPath });
  const budget = `${PLAN_SPINE_MAX_CHARS.toLocaleString('en-US')} chars, about ${(PLAN_SPINE_MAX_CHARS / 4).toLocaleString('en-US')} tokens`;
  const ok = sp.chars <= PLAN_SPINE_MAX_CHARS;
  const where = sp.cutAt ? ` (spine ends at line ${sp.endLine}; ${sp.totalChars.toLocaleString('en-US')} chars in all)` : '';
  return mk(
    'S2',
    'plan-size',
    'warn',
    ok,
    ok
      ? `${plan.relPath} spine is ${sp.chars.toLocaleString('en-US')} chars, within the ${budget} budget${where}.`
      : `${plan.relPath} spine is ${sp.chars.toLocaleString('en-US')} chars, over the ${budget} budget (the seed measured a 116,000-char plan at ~29,000 tokens)${where}.`,
    { path: plan.relPath, line: ok ? undefined : 1 },
    'Move finished endpoints to a done/archive file and evidence below a marked "## Evidence" section or into its own file, so a checkpoint can read the spine in full.',
  );
}

function storeRefs(manifest: StateDoc | null): PathRef[] {
  const info = manifest?.meta.manifest as ManifestInfo | undefined;
  if (!manifest || !info) return [];
  return info.stores.map((s) => ({ target: s.path, doc: manifest, line: s.line }));
}

/** Globs (`notebook/*.md`) exist when their folder does; plain paths go through `checkStalePaths`. */
async function staleChecks(ws: Workspace, refs: PathRef[]): Promise<Check[]> {
  const plain: PathRef[] = [];
  const out: Check[] = [];
  for (const r of refs) {
    if (!/[*?[{]/.test(r.target)) {
      plain.push(r);
      continue;
    }
    const dir = r.target.split('/').filter((_, i, a) => !a.slice(0, i + 1).some((seg) => /[*?[{]/.test(seg))).join('/');
    if (dir && (await ws.kind(dir)) !== 'directory') {
      out.push(mk('S2', 'stale-paths', 'warn', false, `STALE PATH: ${dir}/ (for ${r.target}) does not exist.`, { path: r.doc.relPath, line: r.line }, 'Update the manifest: the store moved or was never created.'));
    }
  }
  const rest = await checkStalePaths('S2', ws, plain, 'PLAN pointers and manifest stores');
  return out.length ? [...out, ...rest.filter((c) => c.status !== 'pass' && c.status !== 'skipped')] : rest;
}

export const S2: SystemModule = {
  id: 'S2',
  name: 'Checkpoint + PreCompact guard (context-kit)',
  watchGlobs: ['.claude/session-ledger*.md', 'context-manifest.yaml', '.claude/project-state.md'],
  thresholds: { propose: 50, urgent: null },
  checkpointTrigger: '/checkpoint',

  async load(ws: Workspace): Promise<Loaded | null> {
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
      psOurs = f.ok && hasS2Vocabulary(parseMarkdown(f.text));
    }
    if (!ledgerRel && !manifest && !psOurs) return null;

    const homeRel = ledgerRel ?? S2_HOME;
    const home = ledgerRel ? await ws.loadDoc(ledgerRel, 'S2', 'ledger', parseLedger) : null;
    const docs: StateDoc[] = [];
    if (home) docs.push(home);
    if (manifest) docs.push(manifest);
    let projectState: StateDoc | null = null;
    if (psRel && (await ws.kind(psRel)) === 'file') {
      projectState = await ws.loadDoc(psRel, 'S2', 'projectState', parseProjectState);
      docs.push(projectState);
    }
    const pointer = planPointer(sectionOf(home, 'plan'), psRel);
    let plan: StateDoc | null = null;
    if (pointer && (await ws.kind(pointer)) === 'file') {
      plan = await ws.loadDoc(pointer, 'S2', 'plan', parsePlan);
      docs.push(plan);
    }
    return { home, homeRel, docs, extra: { manifest, projectState, plan, pointer, psRel } };
  },

  async analyse(ws: Workspace, loaded: Loaded): Promise<Analysis> {
    const { home, homeRel, docs } = loaded;
    const x = loaded.extra as { manifest: StateDoc | null; plan: StateDoc | null; pointer: string | null };
    const checks: Check[] = [checkExists('S2', home, homeRel), notSkeleton(home)];
    const readable = !!home && !!home.text;

    const nextSec = sectionOf(home, 'next');
    const first = nextSec?.items.find((i) => !isPlaceholder(i.text)) ?? null;
    const next = first && home ? { text: first.text, path: home.relPath, line: first.line } : null;
    checks.push(readable ? checkNextAction('S2', next, '## NEXT', homeRel) : mk('S2', 'next-action', 'block', false, `No readable ledger, so no NEXT (${homeRel}).`, { path: homeRel }));
    if (readable && home) {
      checks.push(nextOneLine(home));
      checks.push(checkPending('S2', sectionOf(home, 'open'), home, '## OPEN'));
    }
    checks.push(await checkFresh('S2', ws, home));
    checks.push(await checkWorkExplained('S2', ws, docs, homeRel));
    checks.push(...checkNoSecrets('S2', docs));
    const budget = checkBudget('S2', home, { maxLines: S2_LEDGER_MAX_LINES, maxChars: S2_LEDGER_MAX_CHARS });
    checks.push(budget);

    const refs: PathRef[] = [];
    const planSec = sectionOf(home, 'plan');
    if (home && planSec) for (const it of planSec.items) for (const t of extractPaths(it.text)) refs.push({ target: t, doc: home, line: it.line });
    refs.push(...storeRefs(x.manifest));
    checks.push(...(await staleChecks(ws, refs)));

    if (readable && home) {
      checks.push(...perItem(home, 'verified'), ...perItem(home, 'dropped'));
    }
    checks.push(planSize(x.plan, x.pointer));
    return {
      checks,
      next: next?.text ?? null,
      unconfirmed: [],
      resumePrompt: `Read ${homeRel} and continue from its NEXT action.`,
    };
  },
};
