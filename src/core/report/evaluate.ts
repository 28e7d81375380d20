/**
 * Run every system reader over a workspace root and put the results into one report.
 */
import { GIT_READER, type GitReader } from '../git/git';
import { SYSTEMS } from '../systems/index';
import { findingChecks, manualChecks, mk, oneFindingPerGap, readableDoc } from '../rules/common';
import { notReadOf } from '../rules/not-read';
import { FACTS, globRe, resumePrompt as promptFor } from '../systems/facts';
import { t } from '../model/messages';
import { byCodeUnits } from '../markdown/text';
import {
  labelOf,
  overallLabel,
  type Check,
  type SystemId,
  type SystemReport,
  type WorkspaceReport,
} from '../model/model';
import type { Loaded, SystemModule, SystemResumer } from '../model/system';
import { allRules, Workspace, type EvaluateOptions } from '../model/workspace';
import { mergeReread, systemsOfChange } from './settle';

export type { EvaluateOptions } from '../model/workspace';

/**
 * A system as an evaluation runs it: every rule needs its `analyse`; the skeleton check and the
 * resume (the hooks' evaluations, src/core/systems/hooks.ts) need only what a SystemResumer has.
 */
type Evaluated = SystemResumer & Partial<Pick<SystemModule, 'analyse'>>;

function confirmedSet(o: EvaluateOptions): Set<string> {
  return new Set(o.confirmed ?? []);
}

/**
 * `checks` with a home file that is there, readable and empty (nothing but white space) failing
 * not-skeleton: the emptiest skeleton, whatever the system's own template test makes of a file
 * without sections. A not-skeleton the system already failed stays as it is.
 */
function withEmptyHome(id: SystemId, loaded: Loaded, checks: Check[]): Check[] {
  const home = loaded.home;
  if (!home || home.findings.some((f) => f.id === 'readable') || home.text.trim() !== '') return checks;
  if (checks.some((c) => c.id === 'not-skeleton' && c.status === 'fail')) return checks;
  const empty = mk(
    id,
    'not-skeleton',
    'block',
    false,
    t('Empty file: {0} holds no state to resume from.', home.relPath),
    { path: home.relPath },
    t(
      'Have the agent write the state into {0} (run its checkpoint), or restore it from git if it was emptied by mistake.',
      home.relPath,
    ),
  );
  return checks.filter((c) => c.id !== 'not-skeleton').concat(empty);
}

/** A reader bug must not take the report down: it is said as a blocking finding. */
function internalErrorCheck(id: SystemId, err: unknown): Check {
  return mk(
    id,
    'internal',
    'block',
    false,
    t('Internal error while checking {0}: {1}', id, (err as Error)?.message ?? String(err)),
  );
}

async function reportFor(ws: Workspace, mod: Evaluated, loaded: Loaded, confirmed: Set<string>): Promise<SystemReport> {
  let checks: Check[];
  let next: string | null = null;
  let unconfirmed: SystemReport['unconfirmed'] = [];
  let resumePrompt = promptFor(mod.id, loaded.homeRel);
  if (loaded.failed !== undefined) {
    // Nothing was read: no rule can judge the system's files, and none says they are missing.
    checks = [internalErrorCheck(mod.id, loaded.failed)];
  } else if (loaded.skipped) {
    checks = [mk(mod.id, 'exists', 'block', 'skip', loaded.skipped)];
  } else if (ws.options.rules === 'resume') {
    try {
      ({ checks, next, unconfirmed, resumePrompt } = await mod.resume(ws, loaded));
    } catch (err) {
      checks = [internalErrorCheck(mod.id, err)];
    }
    // A home file that could not be read is no file to resume from: why, as the full evaluation says it.
    if (loaded.home) checks.push(...findingChecks(mod.id, [loaded.home]).filter((c) => c.id === 'readable'));
  } else if (ws.options.rules === 'start') {
    try {
      checks = (await mod.startChecks?.(ws, loaded)) ?? [];
    } catch (err) {
      checks = [internalErrorCheck(mod.id, err)];
    }
    // A home file that could not be read is said at every start, as after /clear: why, in check's words.
    // Its findings are looked at only when the read failed: a home read whole stays unparsed.
    if (loaded.home && !(await ws.read(loaded.home.relPath)).ok)
      checks.push(...findingChecks(mod.id, [loaded.home]).filter((c) => c.id === 'readable'));
  } else if (!allRules(ws.options)) {
    checks = [
      ...(ws.options.rules === 'skeleton' ? mod.skeleton(loaded) : []),
      ...((await mod.manualItems?.(ws)) ?? []),
      ...manualChecks(mod.id, confirmed),
    ];
    if (ws.options.rules === 'skeleton') checks = withEmptyHome(mod.id, loaded, checks);
  } else {
    try {
      ({ checks, next, unconfirmed, resumePrompt } = await analyseOf(mod)(ws, loaded));
    } catch (err) {
      checks = [internalErrorCheck(mod.id, err)];
    }
    // Findings of damaged documents the module did not already report.
    const have = new Set(checks.map((c) => `${c.id}\0${c.path ?? ''}\0${c.line ?? ''}`));
    for (const f of findingChecks(mod.id, loaded.docs)) {
      if (!have.has(`${f.id}\0${f.path ?? ''}\0${f.line ?? ''}`)) checks.push(f);
    }
    checks.push(...manualChecks(mod.id, confirmed));
    checks = withEmptyHome(mod.id, loaded, checks);
  }
  // A session start names the command that writes its checkpoint, with the manual items it asks the user about.
  if ((ws.options.rules === 'resume' || ws.options.rules === 'start') && loaded.failed === undefined && !loaded.skipped)
    checks.push(...((await mod.manualItems?.(ws)) ?? []), ...manualChecks(mod.id, confirmed));
  // A gap a blocking finding says is not said again by a warning.
  checks = oneFindingPerGap(checks);
  const r: SystemReport = {
    id: mod.id,
    name: FACTS[mod.id].name,
    label: labelOf(checks),
    next,
    home: loaded.homeRel,
    docs: loaded.docs,
    checks,
    resumePrompt,
    unconfirmed,
  };
  const off = loaded.skipped?.text ?? loaded.off;
  if (off) r.skipped = off;
  if (loaded.more?.length) r.more = loaded.more;
  return r;
}

function analyseOf(mod: Evaluated): SystemModule['analyse'] {
  if (!mod.analyse) throw new Error(`${mod.id}: every rule was asked of a system given without its analyse`);
  return mod.analyse.bind(mod);
}

/**
 * A system whose reader found nothing may still be there behind a folder the user cannot read
 * (EACCES on the way to a home file): report it as present and damaged rather than absent.
 */
async function behindUnreadableFolder(ws: Workspace, mod: Evaluated): Promise<Loaded | null> {
  const f = FACTS[mod.id];
  for (const g of f.presence) {
    if (/[*?[{]/.test(g) || (await ws.kind(g)) !== 'error') continue;
    const doc = await ws.loadDoc(g, mod.id, f.homeRole, () => ({ sections: [] }));
    return { home: doc, homeRel: g, docs: [doc] };
  }
  return null;
}

let evaluations = 0;

/**
 * How many evaluations this process ran so far: "Checkpoint now" records the ones its click caused
 * (one), and its integration test fails on a second.
 */
export function evaluationCount(): number {
  return evaluations;
}

/** Detect, read and check every system under `root`. Never throws on content. */
export function evaluate(
  root: string,
  options: EvaluateOptions = {},
  systems: readonly SystemModule[] = SYSTEMS,
): Promise<WorkspaceReport> {
  return evaluateSystems(systems, root, options, GIT_READER);
}

/**
 * `evaluate` over the given systems, with git's facts read by `gitReader`. The hooks pass theirs
 * (src/core/systems/hooks.ts), which have no `analyse`, and no git reader (they run with `noGit`):
 * only the skeleton check (`rules: 'skeleton'`), the resume (`'resume'`) or no rule (`false`) may be
 * asked of them. Never throws on content.
 */
export async function evaluateSystems(
  systems: readonly Evaluated[],
  root: string,
  options: EvaluateOptions = {},
  gitReader?: GitReader,
): Promise<WorkspaceReport> {
  evaluations++;
  const ws = new Workspace(root, options, gitReader);
  const loaded = await Promise.all(
    systems.map(async (m) => {
      try {
        const l = (await m.load(ws)) ?? (await behindUnreadableFolder(ws, m));
        // A system found with a readable home file: its checks will ask git, whose run starts now, while the
        // other systems' files are still read.
        const home = l?.skipped ? null : l?.home;
        if (home) ws.startGit(() => !!home.text && !!readableDoc(home));
        return l;
      } catch (err) {
        const failed: Loaded = { home: null, homeRel: FACTS[m.id].home, docs: [], failed: err };
        return failed;
      }
    }),
  );
  const confirmed = confirmedSet(options);
  const reportAll = async (): Promise<WorkspaceReport> => {
    const reports: SystemReport[] = [];
    for (let i = 0; i < systems.length; i++) {
      const l = loaded[i];
      if (l) reports.push(await reportFor(ws, systems[i], l, confirmed));
    }
    const report: WorkspaceReport = {
      root: ws.root,
      label: overallLabel(reports),
      systems: reports,
    };
    if (ws.notRead.length)
      report.notRead = ws.notRead
        .map(notReadOf)
        .sort((a, b) => byCodeUnits(a.system, b.system) || byCodeUnits(a.path, b.path));
    return report;
  };
  if (options.onGitPending && !options.noGit && loaded.some(Boolean)) {
    // The first results: every check that needs no git, before git's run starts.
    ws.gitDeferred = true;
    const first = await reportAll();
    ws.gitDeferred = false;
    first.gitPending = true;
    options.onGitPending(first);
  }
  return reportAll();
}

/**
 * Read again only the systems a change touched: `changed` (paths relative to the root) against each
 * system's documents in `prev` and its presence globs; a path no system claims, or no `prev`, reads
 * every system. The other systems stay as `prev` has them, and their files still count as state
 * files, not work, in the git checks. A re-read that finds a system appear or go, or another set of
 * documents, reads every system (which files are state files changed for all of them). Git runs
 * once, as in `evaluate`.
 */
export async function evaluateChanged(
  root: string,
  options: EvaluateOptions,
  prev: WorkspaceReport | undefined,
  changed: readonly string[] | undefined,
): Promise<WorkspaceReport> {
  const ids = prev && changed ? systemsOfChange(prev, changed, options.extraPaths) : undefined;
  if (!prev || !ids) return evaluate(root, options);
  const kept = prev.systems.filter((s) => !ids.has(s.id));
  const docs = new Set(kept.flatMap((s) => [s.home, ...s.docs.map((d) => d.relPath)]));
  const globs = kept.flatMap((s) => [...FACTS[s.id].presence, ...(options.extraPaths?.[s.id] ?? [])].map(globRe));
  const otherStateFile = (rel: string) =>
    docs.has(rel) || globs.some((g) => g.test(rel)) || !!options.otherStateFile?.(rel);
  const raw = await evaluate(
    root,
    { ...options, otherStateFile, gitMaxAgeMs: options.stateOnlyGitMaxAgeMs },
    SYSTEMS.filter((m) => ids.has(m.id)),
  );
  const docsOf = (r: WorkspaceReport) =>
    r.systems
      .filter((s) => ids.has(s.id))
      .map((s) => `${s.id}:${s.docs.map((d) => d.relPath).join(',')}`)
      .join('|');
  if (docsOf(raw) !== docsOf(prev)) return evaluate(root, options);
  return mergeReread(prev, raw, ids);
}
