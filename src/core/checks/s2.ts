/**
 * S2's rules (seed 002, context-kit checkpoint): the common checks on the ledger, NEXT on one line,
 * every VERIFIED item with its command, every DROPPED item with its reason, the ledger and plan
 * budgets, and the PLAN pointer and manifest stores as paths that must exist. Reading is in
 * `formats/s2*.ts`.
 */
import { FACTS, resumePrompt } from '../facts';
import { t, type Msg } from '../messages';
import { sectionOf } from '../formats/s2';
import { realTopItems, s2Placeholder, type ManifestInfo, type PlanSpine } from '../formats/s2-ledger';
import type { Check, StateDoc } from '../model';
import type { Analysis, Loaded } from '../system';
import { clip, extractPaths, isPlaceholder } from '../text';
import type { Workspace } from '../workspace';
import { checkBudget, checkExists, checkFresh, checkNextAction, checkNoSecrets, checkPending, checkStalePaths, checkWorkExplained, mk, type PathRef } from './common';

/** The plan budget (characters of the spine). */
const PLAN_MAX = FACTS.S2.budgets.planSpineChars ?? 20_000;

function notSkeleton(home: StateDoc | null): Check {
  if (!home || !home.text) return mk('S2', 'not-skeleton', 'block', 'skip', t('No readable ledger to inspect.'));
  const filled = home.sections.filter((s) => s.key !== 'preamble').some((s) => s.items.some((i) => !s2Placeholder(i.text)));
  return mk(
    'S2',
    'not-skeleton',
    'block',
    filled,
    filled ? t('{0} holds real content.', home.relPath) : t('{0} is an empty skeleton: no section below a ## heading holds anything.', home.relPath),
    { path: home.relPath, line: filled ? undefined : 1 },
    t('Run /checkpoint and write it down for real: each decision with what it beat, each fact with its command, each dropped path with its reason, and one NEXT line.'),
  );
}

function perItem(home: StateDoc, key: 'verified' | 'dropped'): Check[] {
  const s = sectionOf(home, key);
  const id = key === 'verified' ? 'verified-command' : 'dropped-reason';
  const flag = key === 'verified' ? 'hasCommand' : 'hasReason';
  const items = s ? realTopItems(s) : [];
  if (items.length === 0) return [mk('S2', id, 'warn', 'skip', t('No {0} items.', key.toUpperCase()), { path: home.relPath, line: s?.line })];
  const missing = items.filter((i) => !i.flags.includes(flag));
  if (missing.length === 0) {
    return [mk('S2', id, 'warn', true, t('Every {0} item carries its {1} ({2}).', key.toUpperCase(), key === 'verified' ? 'command' : 'reason', items.length), { path: home.relPath, line: s?.line })];
  }
  return missing.map((i) =>
    key === 'verified'
      ? mk('S2', id, 'warn', false, t('VERIFIED item without the command that proved it: "{0}".', clip(i.text, 80)), { path: home.relPath, line: i.line }, t('Add the exact command or probe, e.g. `- tests pass [npm test]`. A claim without provenance is a belief.'))
      : mk('S2', id, 'warn', false, t('DROPPED item without its reason: "{0}".', clip(i.text, 80)), { path: home.relPath, line: i.line }, t('Add why it was abandoned (`- approach: why`), or it gets proposed again.')),
  );
}

function nextOneLine(home: StateDoc): Check {
  const s = sectionOf(home, 'next');
  if (!s) return mk('S2', 'next-one-line', 'warn', 'skip', t('No NEXT section.'), { path: home.relPath });
  const n = Number(home.meta.nextLineCount ?? 0);
  if (n === 0) return mk('S2', 'next-one-line', 'warn', 'skip', t('NEXT is empty (see next-action).'), { path: home.relPath, line: s.line });
  return mk(
    'S2',
    'next-one-line',
    'warn',
    n <= 1,
    n <= 1 ? t('NEXT is one line.') : t('NEXT holds {0} lines; it should be the single next action on one line.', n),
    { path: home.relPath, line: s.line },
    t('Keep NEXT to one line: the single most valuable next action, ready to pick up cold. Move the rest to OPEN or the plan.'),
  );
}

function planSize(plan: StateDoc | null, pointer: string | null): Check {
  if (!pointer) return mk('S2', 'plan-size', 'warn', 'skip', t('No plan file named under PLAN: nothing to size.'));
  if (!plan || !plan.text) return mk('S2', 'plan-size', 'warn', 'skip', t('The plan file {0} cannot be read.', pointer), { path: pointer });
  const sp = plan.meta.spine as PlanSpine | undefined;
  if (!sp) return mk('S2', 'plan-size', 'warn', 'skip', t('The plan could not be measured.'), { path: plan.relPath });
  const n = (x: number) => x.toLocaleString('en-US');
  const ok = sp.chars <= PLAN_MAX;
  const [rel, chars, max, tokens] = [plan.relPath, n(sp.chars), n(PLAN_MAX), n(PLAN_MAX / 4)];
  let msg: Msg;
  if (ok && sp.cutAt) msg = t('{0} spine is {1} chars, within the {2} chars, about {3} tokens budget (spine ends at line {4}; {5} chars in all).', rel, chars, max, tokens, sp.endLine, n(sp.totalChars));
  else if (ok) msg = t('{0} spine is {1} chars, within the {2} chars, about {3} tokens budget.', rel, chars, max, tokens);
  else if (sp.cutAt) msg = t('{0} spine is {1} chars, over the {2} chars, about {3} tokens budget (the seed measured a 116,000-char plan at ~29,000 tokens) (spine ends at line {4}; {5} chars in all).', rel, chars, max, tokens, sp.endLine, n(sp.totalChars));
  else msg = t('{0} spine is {1} chars, over the {2} chars, about {3} tokens budget (the seed measured a 116,000-char plan at ~29,000 tokens).', rel, chars, max, tokens);
  return mk(
    'S2',
    'plan-size',
    'warn',
    ok,
    msg,
    { path: plan.relPath, line: ok ? undefined : 1 },
    t('Move finished endpoints to a done/archive file and evidence below a marked "## Evidence" section or into its own file, so a checkpoint can read the spine in full.'),
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
      out.push(mk('S2', 'stale-paths', 'warn', false, t('STALE PATH: {0}/ (for {1}) does not exist.', dir, r.target), { path: r.doc.relPath, line: r.line }, t('Update the manifest: the store moved or was never created.')));
    }
  }
  const rest = await checkStalePaths('S2', ws, plain, 'PLAN pointers and manifest stores');
  return out.length ? [...out, ...rest.filter((c) => c.status !== 'pass' && c.status !== 'skipped')] : rest;
}

/** S2's checks, next action and resume prompt. */
export async function analyseS2(ws: Workspace, loaded: Loaded): Promise<Analysis> {
  const { home, homeRel, docs } = loaded;
  const x = loaded.extra as { manifest: StateDoc | null; plan: StateDoc | null; pointer: string | null };
  const checks: Check[] = [checkExists('S2', home, homeRel), notSkeleton(home)];
  const readable = !!home && !!home.text;

  const nextSec = sectionOf(home, 'next');
  const first = nextSec?.items.find((i) => !isPlaceholder(i.text)) ?? null;
  const next = first && home ? { text: first.text, path: home.relPath, line: first.line } : null;
  checks.push(readable ? checkNextAction('S2', next, '## NEXT', homeRel) : mk('S2', 'next-action', 'block', false, t('No readable ledger, so no NEXT ({0}).', homeRel), { path: homeRel }));
  if (readable && home) {
    checks.push(nextOneLine(home));
    checks.push(checkPending('S2', sectionOf(home, 'open'), home, '## OPEN'));
  }
  checks.push(await checkFresh('S2', ws, home));
  checks.push(await checkWorkExplained('S2', ws, docs, homeRel));
  checks.push(...checkNoSecrets('S2', docs));
  const budget = checkBudget('S2', home, { maxLines: FACTS.S2.budgets.lines, maxChars: FACTS.S2.budgets.chars, lineCounting: FACTS.S2.budgets.lineCounting });
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
    resumePrompt: resumePrompt('S2', homeRel),
  };
}
