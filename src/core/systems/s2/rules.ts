/**
 * S2's rules (seed 002, context-kit checkpoint): the common checks on the ledger, NEXT on one line,
 * every VERIFIED item with its command, every DROPPED item with its reason, the ledger and plan
 * budgets, and the PLAN pointer and manifest stores as paths that must exist. Reading is in
 * `reader*.ts` beside it.
 */
import { resumePrompt } from '../facts';
import { S2_FACTS } from './facts';
import { finding, PROGRAM, t, type Msg } from '../../model/messages';
import { sectionOf, type S2Extra } from './reader';
import { realTopItems, s2Placeholder, type DuplicateSection, type ManifestInfo, type PlanSpine } from './reader-ledger';
import type { Check, Finding, StateDoc } from '../../model/model';
import type { Analysis, Loaded } from '../../model/system';
import { clip, extractPaths, isPlaceholder, withThousands } from '../../markdown/text';
import { withParagraph } from '../../markdown/items';
import { refusalMessage, syntaxMessage } from '../../markdown/yaml';
import type { Workspace } from '../../model/workspace';
import { spanText } from '../../model/time';
import {
  addFindings,
  checkBudget,
  checkExists,
  checkFresh,
  checkNextAction,
  checkNoSecrets,
  checkPending,
  checkStalePaths,
  checkTemplate,
  checkWorkExplained,
  mk,
  sectionPart,
  type PathRef,
} from '../../rules/common';

/** The plan budget (characters of the spine). */
const PLAN_MAX = S2_FACTS.budgets.planSpineChars ?? 20_000;

function notSkeleton(home: StateDoc | null): Check {
  if (!home || !home.text) return mk('S2', 'not-skeleton', 'block', 'skip', t('No readable ledger to inspect.'));
  const filled = home.sections
    .filter((s) => s.key !== 'preamble')
    .some((s) => s.items.some((i) => !s2Placeholder(i.text)));
  return mk(
    'S2',
    'not-skeleton',
    'block',
    filled,
    filled
      ? t('{0} holds real content.', home.relPath)
      : t('Empty skeleton: no section below a ## heading in {0} holds anything.', home.relPath),
    { path: home.relPath, line: filled ? undefined : 1 },
    t(
      'Run /checkpoint and write it down for real: each decision with what it beat, each fact with its command, each dropped path with its reason, and one NEXT line.',
    ),
  );
}

function perItem(home: StateDoc, key: 'verified' | 'dropped'): Check[] {
  const s = sectionOf(home, key);
  const id = key === 'verified' ? 'verified-command' : 'dropped-reason';
  const flag = key === 'verified' ? 'hasCommand' : 'hasReason';
  const items = s ? realTopItems(s) : [];
  if (items.length === 0)
    return [mk('S2', id, 'warn', 'skip', t('No {0} items.', key.toUpperCase()), { path: home.relPath, line: s?.line })];
  const missing = items.filter((i) => !i.flags.includes(flag));
  if (missing.length === 0) {
    return [
      mk(
        'S2',
        id,
        'warn',
        true,
        key === 'verified'
          ? t('Every VERIFIED item carries its command ({0}).', items.length)
          : t('Every DROPPED item carries its reason ({0}).', items.length),
        { path: home.relPath, line: s?.line },
      ),
    ];
  }
  const verified = key === 'verified';
  const hint = verified
    ? t('Add the exact command or probe, e.g. `- tests pass [npm test]`. A claim without provenance is a belief.')
    : t('Add why it was abandoned (`- approach: why`), or it gets proposed again.');
  return missing.map((i) =>
    mk(
      'S2',
      id,
      'warn',
      false,
      verified
        ? t('VERIFIED "{0}" without the command that proved it.', clip(i.text, 80))
        : t('DROPPED "{0}" without its reason.', clip(i.text, 80)),
      { path: home.relPath, line: i.line },
      hint,
    ),
  );
}

function nextOneLine(home: StateDoc): Check {
  const s = sectionOf(home, 'next');
  if (!s) return mk('S2', 'next-one-line', 'warn', 'skip', t('No NEXT section.'), { path: home.relPath });
  const n = Number(home.meta.nextLineCount ?? 0);
  if (n === 0)
    return mk('S2', 'next-one-line', 'warn', 'skip', t('NEXT is empty (see next-action).'), {
      path: home.relPath,
      line: s.line,
    });
  return mk(
    'S2',
    'next-one-line',
    'warn',
    n <= 1,
    n <= 1 ? t('NEXT is one line.') : t('NEXT holds {0} lines; it should be the single next action on one line.', n),
    { path: home.relPath, line: s.line },
    t(
      'Keep NEXT to one line: the single most valuable next action, ready to pick up cold. Move the rest to OPEN or the plan.',
    ),
  );
}

function planSize(plan: StateDoc | null, pointer: string | null): Check {
  if (!pointer) return mk('S2', 'plan-size', 'warn', 'skip', t('No plan file named under PLAN: nothing to size.'));
  if (plan && plan.text === '' && !plan.findings.some((f) => f.id === 'readable'))
    return mk('S2', 'plan-size', 'warn', 'skip', t('The plan file {0} is empty: nothing to size.', pointer), {
      path: pointer,
    });
  if (!plan || !plan.text)
    return mk('S2', 'plan-size', 'warn', 'skip', t('The plan file {0} cannot be read.', pointer), { path: pointer });
  const sp = plan.meta.spine as PlanSpine | undefined;
  if (!sp) return mk('S2', 'plan-size', 'warn', 'skip', t('The plan could not be measured.'), { path: plan.relPath });
  const n = withThousands;
  const ok = sp.chars <= PLAN_MAX;
  const [rel, chars, max, tokens] = [plan.relPath, n(sp.chars), n(PLAN_MAX), n(PLAN_MAX / 4)];
  let msg: Msg;
  if (ok && sp.cutAt)
    msg = t(
      '{0} spine is {1} chars, within the {2} chars, about {3} tokens budget (spine ends at line {4}; {5} chars in all).',
      rel,
      chars,
      max,
      tokens,
      sp.endLine,
      n(sp.totalChars),
    );
  else if (ok)
    msg = t('{0} spine is {1} chars, within the {2} chars, about {3} tokens budget.', rel, chars, max, tokens);
  else if (sp.cutAt)
    msg = t(
      "Over budget: the {0} spine is {1} chars, over the {2} chars, about {3} tokens budget (by S2's own measure a 116,000-char plan is ~29,000 tokens) (spine ends at line {4}; {5} chars in all).",
      rel,
      chars,
      max,
      tokens,
      sp.endLine,
      n(sp.totalChars),
    );
  else
    msg = t(
      "Over budget: the {0} spine is {1} chars, over the {2} chars, about {3} tokens budget (by S2's own measure a 116,000-char plan is ~29,000 tokens).",
      rel,
      chars,
      max,
      tokens,
    );
  return mk(
    'S2',
    'plan-size',
    'warn',
    ok,
    msg,
    { path: plan.relPath, line: ok ? undefined : 1 },
    t(
      'Move finished endpoints to a done/archive file and evidence below a marked "## Evidence" section or into its own file, so a checkpoint can read the spine in full.',
    ),
  );
}

function storeRefs(manifest: StateDoc | null): PathRef[] {
  const info = manifest?.meta.manifest as ManifestInfo | undefined;
  if (!manifest || !info) return [];
  return info.stores.map((s) => ({ target: s.path, doc: manifest, line: s.line }));
}

/**
 * The folders of a path before its first segment that holds a glob character (`notebook/*.md` →
 * `notebook`), in one pass: the segments were kept by testing, for each, every segment up to it, so a
 * manifest store of 100,000 segments took time with their square (`check` and the PreCompact guard
 * ran past two minutes on one of 200,000 characters).
 */
function globBase(target: string): string {
  const segs = target.split('/');
  const first = segs.findIndex((seg) => /[*?[{]/.test(seg));
  return (first < 0 ? segs : segs.slice(0, first)).join('/');
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
    const dir = globBase(r.target);
    if (dir && (await ws.kind(dir)) !== 'directory') {
      out.push(
        mk(
          'S2',
          'stale-paths',
          'warn',
          false,
          t('STALE PATH: {0}/ (for {1}) does not exist.', dir, r.target),
          { path: r.doc.relPath, line: r.line },
          t('Update the manifest: the store moved or was never created.'),
        ),
      );
    }
  }
  const rest = await checkStalePaths('S2', ws, plain, {
    none: t('No PLAN pointers and manifest stores to verify.'),
    allExist: (n) => t('{0} PLAN pointers and manifest stores checked — all exist.', n),
  });
  return out.length ? [...out, ...rest.filter((c) => c.status !== 'pass' && c.status !== 'skipped')] : rest;
}

/**
 * `project-state` (warn): phase 6 reconciles the project state "every pass", so after a checkpoint
 * it is not older than the ledger's last change. Missing, or switched off in the manifest: skipped.
 */
function projectStateCheck(home: StateDoc | null, ps: StateDoc | null, psRel: string | null): Check {
  if (!home || !home.mtime)
    return mk('S2', 'project-state', 'warn', 'skip', t('No ledger to compare the project state with.'));
  if (psRel === null)
    return mk(
      'S2',
      'project-state',
      'warn',
      'skip',
      t('The manifest switches the project state off (durable_context.project_state: null).'),
    );
  if (!ps || !ps.mtime)
    return mk('S2', 'project-state', 'warn', 'skip', t('No project state file at {0}: nothing to reconcile.', psRel), {
      path: psRel,
    });
  // One second of slack: file times of two writes in one pass.
  const ok = ps.mtime + 1000 >= home.mtime;
  return mk(
    'S2',
    'project-state',
    'warn',
    ok,
    ok
      ? t('{0} was reconciled with the ledger (not older than {1}).', ps.relPath, home.relPath)
      : t(
          'Not reconciled in this pass: {0} is older than {1} ({2} before it).',
          ps.relPath,
          home.relPath,
          spanText(home.mtime - ps.mtime),
        ),
    { path: ps.relPath, line: ok ? undefined : 1 },
    t(
      'Reconcile the project state with what this session established: correct or delete what became false, rewrite what was refined; never append a log.',
    ),
  );
}

/** Newest modification time of a store: the file, or the files of its folder (a glob's folder), at most 50 read. */
async function storeMtime(ws: Workspace, target: string): Promise<number | null> {
  const glob = /[*?[{]/.test(target);
  const base = glob ? globBase(target) : target;
  const kind = await ws.kind(base);
  if (kind === 'file') {
    const f = await ws.read(base);
    return f.mtime || null;
  }
  if (kind !== 'directory') return null;
  let newest = 0;
  for (const name of (await ws.list(base)).slice(0, 50)) {
    const rel = `${base}/${name}`;
    if ((await ws.kind(rel)) !== 'file') continue;
    newest = Math.max(newest, (await ws.read(rel)).mtime || 0);
  }
  return newest || null;
}

/**
 * `store-fresh` (info): each durable store the manifest names (memory, knowledge_docs, curated_ssot)
 * is compared with the ledger's last change. A store older than the ledger may be right (reconcile
 * only what this session made false), so this is information, not a warning; the curated SSOT is
 * the human's: flag it, never clobber it.
 */
async function storeFresh(ws: Workspace, home: StateDoc | null, manifest: StateDoc | null): Promise<Check[]> {
  const info = manifest?.meta.manifest as ManifestInfo | undefined;
  const stores = (info?.stores ?? []).filter((st) => st.kind !== 'project_state');
  if (!home || !home.mtime || !manifest || stores.length === 0)
    return [
      mk(
        'S2',
        'store-fresh',
        'info',
        'skip',
        t('No manifest store besides the project state to compare with the ledger.'),
      ),
    ];
  const out: Check[] = [];
  for (const st of stores) {
    const m = await storeMtime(ws, st.path);
    if (m === null) continue; // a missing store is stale-paths' finding
    const ok = m + 1000 >= home.mtime;
    out.push(
      mk(
        'S2',
        'store-fresh',
        'info',
        ok,
        ok
          ? t("{1} (the manifest's `{0}` store) was touched since the ledger changed.", st.kind, st.path)
          : t(
              "{1} (the manifest's `{0}` store) was not touched since {2} changed: reconcile it if this session made anything in it false.",
              st.kind,
              st.path,
              home.relPath,
            ),
        { path: manifest.relPath, line: st.line },
        st.kind === 'curated_ssot'
          ? t("The curated file is the human's: flag what is stale, do not rewrite it.")
          : t(
              'Correct or delete what became false, rewrite what was refined; genuinely new knowledge becomes a new entry.',
            ),
      ),
    );
  }
  return out.length ? out : [mk('S2', 'store-fresh', 'info', 'skip', t('None of the manifest stores exists yet.'))];
}

/** S2's checks, next action and resume prompt. */
/**
 * What the reader recorded means, as findings on the document: a `##` section repeated (merged in
 * file order) and a ledger heading outside the seven words are notes; a manifest whose YAML does
 * not parse is a warning (the checkpoint falls back to guessing the stores).
 */
export function s2Findings(doc: StateDoc): Finding[] {
  const out: Finding[] = [];
  for (const d of (doc.meta.duplicates as DuplicateSection[] | undefined) ?? []) {
    out.push(
      finding(
        'duplicate-section',
        'info',
        t(
          '"## {0}" (line {1}) repeats "## {2}" (line {3}); merged in file order.',
          d.title,
          d.line,
          d.firstTitle,
          d.firstLine,
        ),
        d.line,
        t('Write into the existing section instead of appending a second one.'),
      ),
    );
  }
  for (const n of (doc.meta.nonCanonical as Array<{ title: string; line: number }> | undefined) ?? []) {
    out.push(
      finding(
        'non-canonical',
        'info',
        t('"## {0}" is not one of TASK NEXT OPEN DECIDED VERIFIED DROPPED PLAN.', n.title),
        n.line,
        t('Durable knowledge belongs in the project state file, the knowledge docs or memory, not in the ledger.'),
      ),
    );
  }
  const e = (doc.meta.manifest as ManifestInfo | undefined)?.error;
  if (e?.thrown) out.push(finding('manifest-yaml', 'warn', t('context-manifest.yaml does not parse: {0}', e.message)));
  else if (e) {
    // A syntax error: what is wrong in the tool's words, at its line and column.
    const syntax = !e.refused && e.code !== undefined && e.line !== undefined ? { ...e, line: e.line } : null;
    const msg = e.refused
      ? refusalMessage(e.refused, 'context-manifest.yaml')
      : syntax
        ? syntaxMessage(syntax.code ?? '', 'context-manifest.yaml', syntax.line, syntax.column ?? 1)
        : t('context-manifest.yaml does not parse: {0}', e.message);
    out.push(
      finding(
        'manifest-yaml',
        'warn',
        msg,
        e.line,
        syntax
          ? t(
              'Fix the YAML of context-manifest.yaml at line {0}, then run `{1} check`; until then the checkpoint guesses the durable stores.',
              syntax.line,
              PROGRAM,
            )
          : t('Fix the YAML: the checkpoint reads the durable stores from it and falls back to guessing them.'),
      ),
    );
  }
  return out;
}

/** S2's `not-skeleton` alone, as analyseS2 makes it. */
export function skeletonS2(loaded: Loaded<S2Extra>): Check[] {
  return [notSkeleton(loaded.home)];
}

/**
 * The ledger's NEXT: its first item that is not a placeholder (its one line, as the seed judges it:
 * `next-one-line` says when there are more), and `whole`, with the lines that continue its paragraph
 * (what a fresh context is handed: nothing written there is dropped).
 */
function s2Next(home: StateDoc | null): { text: string; whole: string; path: string; line: number } | null {
  const section = sectionOf(home, 'next');
  const first = section?.items.find((i) => !isPlaceholder(i.text)) ?? null;
  return first && home && section
    ? {
        text: first.text,
        whole: withParagraph([section], first, home.text.split('\n')),
        path: home.relPath,
        line: first.line,
      }
    : null;
}

/** What S2 gives a fresh context, as analyseS2 finds it: NEXT and the resume prompt. */
export async function resumeS2(_ws: Workspace, loaded: Loaded<S2Extra>): Promise<Analysis> {
  return {
    checks: [],
    next: s2Next(loaded.home)?.whole ?? null,
    unconfirmed: [],
    resumePrompt: resumePrompt('S2', loaded.homeRel),
  };
}

export async function analyseS2(ws: Workspace, loaded: Loaded<S2Extra>): Promise<Analysis> {
  const { home, homeRel, docs } = loaded;
  const x: S2Extra = loaded.extra ?? { manifest: null, plan: null, pointer: null, projectState: null, psRel: null };
  for (const d of docs) addFindings(d, s2Findings(d));
  const skeleton = notSkeleton(home);
  const checks: Check[] = [checkExists('S2', home, homeRel), skeleton];
  const readable = !!home && !!home.text;
  if (readable && home) {
    // The seed's two sections a restore needs first: TASK (the goal) and NEXT (the one next action).
    const part = (name: string, key: string) => {
      const sec = sectionOf(home, key);
      return sectionPart(home, name, sec ? [sec] : [], s2Placeholder);
    };
    checks.push(
      ...checkTemplate(
        'S2',
        home.relPath,
        [part('## TASK', 'goal'), part('## NEXT', 'next')],
        skeleton.status === 'fail',
      ),
    );
  }

  const next = s2Next(home);
  checks.push(
    readable
      ? checkNextAction('S2', next, '## NEXT', homeRel)
      : mk('S2', 'next-action', 'block', false, t('No readable ledger, so no NEXT ({0}).', homeRel), { path: homeRel }),
  );
  if (readable && home) {
    checks.push(nextOneLine(home));
    checks.push(checkPending('S2', sectionOf(home, 'open'), home, '## OPEN'));
  }
  checks.push(await checkFresh('S2', ws, home));
  checks.push(await checkWorkExplained('S2', ws, docs, homeRel));
  checks.push(...checkNoSecrets('S2', docs));
  const budget = checkBudget('S2', home, {
    maxLines: S2_FACTS.budgets.lines,
    maxChars: S2_FACTS.budgets.chars,
    lineCounting: S2_FACTS.budgets.lineCounting,
  });
  checks.push(budget);

  const refs: PathRef[] = [];
  const planSec = sectionOf(home, 'plan');
  if (home && planSec)
    for (const it of planSec.items)
      for (const t of extractPaths(it.text)) refs.push({ target: t, doc: home, line: it.line });
  // A manifest store that leads outside the workspace (`../x`, `/etc`, a link out) is refused: never read, never looked at.
  for (const r of storeRefs(x.manifest)) {
    const base = globBase(r.target) || '.';
    const rel = base.startsWith('/') ? ws.rel(base) : base;
    if (await ws.inside(rel)) refs.push(r);
    else
      checks.push(
        mk(
          'S2',
          'outside-root',
          'warn',
          false,
          t('Store {0} leads outside the workspace folder; it is not read.', r.target),
          { path: r.doc.relPath, line: r.line },
          t('Name stores inside the project: a path from the repository is never followed out of it.'),
        ),
      );
  }
  checks.push(...(await staleChecks(ws, refs)));

  if (readable && home) {
    checks.push(...perItem(home, 'verified'), ...perItem(home, 'dropped'));
  }
  checks.push(planSize(x.plan, x.pointer));
  checks.push(projectStateCheck(home, x.projectState, x.psRel), ...(await storeFresh(ws, home, x.manifest)));
  return {
    checks,
    next: next?.whole ?? null,
    unconfirmed: [],
    resumePrompt: resumePrompt('S2', homeRel),
  };
}
