/**
 * S4's rules (seed 004, checkpointing skill): one `# Agent State` and one `## Progress Tracker`,
 * a Current block with content and a next step, risks / open questions recorded, one Current block
 * per kind (compaction), at most five PROGRESS.md entries. Reading is in `reader*.ts` beside it.
 *
 * The next action: the newest Current block is, among the newest block of each kind, the one the
 * newest PROGRESS entry (else the newest checkpoint) names by its `orchestra:block-id` or its
 * name; when none or several are named, the one last in the file. Its next step is the first item
 * of a "Next"-like subsection, else the first sentence in it that speaks of the next step / next
 * session (the corpus writes it into Decisions), else the newest PROGRESS entry's 将来のアクション.
 */
import { companionPath, resumePrompt as promptFor } from '../facts';
import { S4_FACTS } from './facts';
import { finding, t, type Msg } from '../../model/messages';
import { MAX_ALIAS_TEXT, MAX_ALIASES, refusalMessage, syntaxMessage, type YamlRefusalKind } from '../../markdown/yaml';
import { S4_CHECKPOINTS, S4_PROGRESS, type S4Extra } from './reader';
import {
  NEXT_STEP_RE,
  nextSentence,
  type ProgressEntry,
  type S4Block,
  type S4BlockKind,
  type S4Structure,
} from './reader-state';
import type { Check, Finding, Section, StateDoc } from '../../model/model';
import type { Analysis, Loaded } from '../../model/system';
import { extractPaths, isPlaceholder, isTemplateValue } from '../../markdown/text';
import type { Workspace } from '../../model/workspace';
import {
  addFindings,
  checkExists,
  checkFresh,
  checkNextAction,
  checkNoSecrets,
  checkPending,
  checkTemplate,
  checkWorkExplained,
  mk,
  placeholderIn,
  withGaps,
  type NextAction,
  type TemplatePart,
} from '../../rules/common';

const MAX_ENTRIES = S4_FACTS.budgets.progressEntries ?? 5;

const KIND_TITLE: Record<S4BlockKind, string> = {
  project: 'Current Project',
  feature: 'Current Feature',
  bugfix: 'Current Bug Fix',
};

function structure(doc: StateDoc | null): S4Structure | null {
  return (doc?.meta.s4 as S4Structure | undefined) ?? null;
}

/** First index in `items` (sorted by `line`) whose line is at least `line`: a binary search. */
function firstAtOrAfter(items: readonly { line: number }[], line: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].line < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The sections whose heading lies in lines `from`..`to`. Sections come in line order, so this is a
 * binary search plus the slice: asking it once per block stays linear in the file, not blocks × sections.
 */
function within(doc: StateDoc, from: number, to: number): Section[] {
  const out: Section[] = [];
  for (let i = firstAtOrAfter(doc.sections, from); i < doc.sections.length && doc.sections[i].line <= to; i++)
    out.push(doc.sections[i]);
  return out;
}

/** True when `line` lies inside one of the blocks (sorted by line, not overlapping). */
function insideABlock(blocks: readonly S4Block[], line: number): boolean {
  const i = firstAtOrAfter(blocks, line + 1) - 1;
  return i >= 0 && line <= blocks[i].endLine;
}

function entries(progress: StateDoc | null): ProgressEntry[] {
  return (progress?.meta.entries as ProgressEntry[] | undefined) ?? [];
}

/** The newest PROGRESS entry's text, then the newest checkpoint's: where the last session is described. */
function recentTexts(x: S4Extra): string[] {
  const out: string[] = [];
  const e = entries(x.progress)[0];
  if (x.progress && e)
    // The lines up to the entry's end only: the newest entry is at the top of a file that may be long.
    out.push(
      x.progress.text
        .split('\n', e.endLine)
        .slice(e.line - 1)
        .join('\n'),
    );
  if (x.checkpoint?.text) out.push(x.checkpoint.text);
  return out;
}

/** The newest Current block (see the module comment). */
export function newestBlock(s4: S4Structure, recent: readonly string[]): S4Block | null {
  const cands = s4.blocks.filter((b) => b.newestOfKind);
  if (cands.length === 0) return null;
  for (const text of recent) {
    const low = text.toLowerCase();
    const hit = cands.filter(
      (b) =>
        (b.blockId && low.includes(b.blockId.toLowerCase())) ||
        (b.name.length >= 8 && low.includes(b.name.toLowerCase())),
    );
    if (hit.length === 1) return hit[0];
  }
  return cands.reduce((a, b) => (b.line > a.line ? b : a));
}

function firstReal(sections: readonly Section[], key: string): { text: string; line: number } | null {
  for (const s of sections) {
    if (s.key !== key) continue;
    const it = s.items.find((i) => !isPlaceholder(i.text));
    if (it) return it;
  }
  return null;
}

function nextAction(home: StateDoc, block: S4Block | null, x: S4Extra): NextAction | null {
  if (block) {
    const secs = within(home, block.line, block.endLine);
    const sub = firstReal(secs, 'next');
    if (sub) return { text: sub.text, path: home.relPath, line: sub.line };
    for (const s of secs) {
      const it = s.items.find((i) => NEXT_STEP_RE.test(i.text));
      if (it) return { text: nextSentence(it.text), path: home.relPath, line: it.line };
    }
  }
  const e = entries(x.progress)[0];
  if (x.progress && e) {
    const it = firstReal(within(x.progress, e.line, e.endLine), 'next');
    if (it) return { text: it.text, path: x.progress.relPath, line: it.line };
  }
  if (x.checkpoint) {
    const it = firstReal(x.checkpoint.sections, 'next');
    if (it) return { text: it.text, path: x.checkpoint.relPath, line: it.line };
  }
  return null;
}

/** One finding per broken heading (none, or several with their lines), each its own message. */
function structureCheck(home: StateDoc, s4: S4Structure): Check[] {
  const a = s4.agentState;
  const tr = s4.progressTracker;
  const hint = t(
    'Restore the shared-state structure (refresh_guard.py --mode check must exit 0) before checkpointing.',
  );
  if (a.length === 1 && tr.length === 1)
    return [
      mk(
        'S4',
        'structure',
        'block',
        true,
        t('Exactly one "# Agent State" and one "## Progress Tracker".'),
        { path: home.relPath },
        hint,
      ),
    ];
  const line = a[1] ?? tr[1] ?? a[0] ?? tr[0] ?? 1;
  const out: Check[] = [];
  const add = (m: Msg, at: number) =>
    out.push(mk('S4', 'structure', 'block', false, m, { path: home.relPath, line: at }, hint));
  if (a.length === 0) add(t('No "# Agent State" heading in {0}; exactly one of each is required.', home.relPath), line);
  else if (a.length > 1)
    add(
      t(
        '{1} "# Agent State" headings in {0} (lines {2}); exactly one of each is required.',
        home.relPath,
        a.length,
        a.join(', '),
      ),
      a[1],
    );
  if (tr.length === 0)
    add(t('No "## Progress Tracker" heading in {0}; exactly one of each is required.', home.relPath), line);
  else if (tr.length > 1)
    add(
      t(
        '{1} "## Progress Tracker" headings in {0} (lines {2}); exactly one of each is required.',
        home.relPath,
        tr.length,
        tr.join(', '),
      ),
      tr[1],
    );
  return out;
}

function compaction(home: StateDoc, s4: S4Structure): Check[] {
  const out: Check[] = [];
  for (const kind of ['project', 'feature', 'bugfix'] as const) {
    const of = s4.blocks.filter((b) => b.kind === kind);
    if (of.length < 2) continue;
    const newest = of[of.length - 1];
    out.push(
      mk(
        'S4',
        'compaction',
        'warn',
        false,
        t(
          '{0} "## {1}" blocks (lines {2}): compaction keeps only the newest (line {3}).',
          of.length,
          KIND_TITLE[kind],
          of.map((b) => b.line).join(', '),
          newest.line,
        ),
        { path: home.relPath, line: of[0].line },
        t(
          'Run the compact phase: refresh_guard.py --mode plan, review, then --mode apply after approval. Everything else stays verbatim.',
        ),
      ),
    );
  }
  return out.length
    ? out
    : [
        mk(
          'S4',
          'compaction',
          'warn',
          true,
          s4.blocks.length === 1
            ? t('One block per kind (1 Current block).')
            : t('One block per kind ({0} Current blocks).', s4.blocks.length),
          { path: home.relPath },
        ),
      ];
}

function progressEntries(progress: StateDoc | null): Check {
  if (!progress || !progress.text)
    return mk('S4', 'progress-entries', 'warn', 'skip', t('No readable {0}.', S4_PROGRESS));
  const es = entries(progress);
  const ok = es.length <= MAX_ENTRIES;
  return mk(
    'S4',
    'progress-entries',
    'warn',
    ok,
    ok
      ? es.length === 1
        ? t('{0} holds 1 entry (at most {1}).', progress.relPath, MAX_ENTRIES)
        : t('{0} holds {1} entries (at most {2}).', progress.relPath, es.length, MAX_ENTRIES)
      : t(
          'Too many entries: {0} holds {1}; at most {2} (the latest checkpoints) belong there.',
          progress.relPath,
          es.length,
          MAX_ENTRIES,
        ),
    { path: progress.relPath, line: ok ? undefined : es[MAX_ENTRIES].line },
    t('Let the checkpoint script rebuild PROGRESS.md; full checkpoints stay in .agents/checkpoints/.'),
  );
}

function notSkeleton(home: StateDoc, s4: S4Structure): Check {
  const filled = s4.blocks.some((b) =>
    within(home, b.line, b.endLine).some((s) => s.items.some((i) => !isPlaceholder(i.text))),
  );
  return mk(
    'S4',
    'not-skeleton',
    'block',
    filled,
    filled
      ? t('{0} holds working state.', home.relPath)
      : t('No working state in {0}: no "## Current Project|Feature|Bug Fix" block with content.', home.relPath),
    { path: home.relPath, line: filled ? undefined : 1 },
    t(
      'Have the agent write the current work into a Current block (context, decisions, next step) before checkpointing.',
    ),
  );
}

/** The gap of a summary part a checkpoint lacks (see `Check.gaps`): the template and `summary` both name it. */
function summaryGap(part: string): string {
  return `summary ${part}`;
}

/** The fix of a summary part that is missing or empty, whichever check says it: the seed's five parts, rebuilt by its script. */
const SUMMARY_HINT = t(
  'Write the Japanese five-part summary (何をしたのか, どういうやり取りをユーザーと行ったのか, どうやったのか, 途中でどういう課題が起こったのか, 将来のアクション) and let checkpoint.py rebuild PROGRESS.md.',
);

/** The five parts of the Japanese checkpoint summary, by the key the reader gives each heading. */
const SUMMARY_PARTS: ReadonlyArray<readonly [string, string]> = [
  ['done', '何をしたのか'],
  ['interactions', 'どういうやり取りをユーザーと行ったのか'],
  ['how', 'どうやったのか'],
  ['issues', '途中でどういう課題が起こったのか'],
  ['next', '将来のアクション'],
];

/**
 * `summary` (warn): the newest PROGRESS entry (else the newest checkpoint) carries the five-part
 * summary, each part with content. The seed's script aborts a checkpoint whose summary is missing,
 * empty or incomplete; an entry without it was not written by a complete run.
 */
function summaryCheck(x: S4Extra): Check {
  const e = entries(x.progress)[0];
  const doc = x.progress && e ? x.progress : x.checkpoint;
  if (!doc || !doc.text)
    return mk('S4', 'summary', 'warn', 'skip', t('No PROGRESS.md entry or checkpoint to read the summary from.'));
  const secs = doc === x.progress && e ? within(doc, e.line + 1, e.endLine) : doc.sections;
  const line = doc === x.progress && e ? e.line : 1;
  const missing = SUMMARY_PARTS.filter(
    ([key]) => !secs.some((s) => s.key === key && s.items.some((i) => !isPlaceholder(i.text))),
  ).map(([, name]) => name);
  return withGaps(
    mk(
      'S4',
      'summary',
      'warn',
      missing.length === 0,
      missing.length === 0
        ? t('The newest checkpoint summary has all five parts ({0}).', doc.relPath)
        : t('The newest checkpoint summary lacks {1} ({0}).', doc.relPath, missing.join(', ')),
      { path: doc.relPath, line },
      SUMMARY_HINT,
    ),
    // Read from the checkpoint, a part it lacks is the template's gap too (in PROGRESS.md, a part of its entry).
    doc === x.checkpoint ? missing.map(summaryGap) : [],
  );
}

/**
 * The seed's owned paths as a template: `## Progress Tracker` links PROGRESS.md, PROGRESS.md
 * exists, and the newest checkpoint in `.agents/checkpoints/` carries the five-part summary itself
 * (the script writes it there; PROGRESS.md only repeats it), each part with content.
 */
function templateParts(home: StateDoc, x: S4Extra): TemplatePart[] {
  const tracker = home.sections.filter((sec) => /^progress tracker\b/i.test(sec.title.trim()));
  const links = tracker.some((sec) =>
    sec.items.some((i) => extractPaths(i.text).some((p) => /(?:^|\/)PROGRESS\.md$/.test(p))),
  );
  const parts: TemplatePart[] = [
    {
      name: t('link to {0} under {1}', S4_PROGRESS, '## Progress Tracker'),
      one: true,
      state: tracker.length === 0 ? 'missing' : links ? 'filled' : 'empty',
      path: home.relPath,
      line: tracker[0]?.line,
    },
    progressPart(x.progress),
  ];
  const cp = x.checkpoint;
  if (!cp) {
    // Shown on .agents/STATE.md at its Progress Tracker, on every surface: a folder is nothing to open in
    // an editor or to hold a diagnostic, and the tracker is where the state links the checkpoints' summaries.
    parts.push({
      name: t('checkpoint'),
      one: true,
      state: 'missing',
      path: home.relPath,
      line: tracker[0]?.line ?? 1,
      within: `${S4_CHECKPOINTS}/`,
      hint: t(
        'Run the full checkpoint (`checkpoint.py --summary-file .agents/logs/pending-summary.md`, then again with `--apply --consume-summary`): it writes the checkpoint into {0}.',
        `${S4_CHECKPOINTS}/`,
      ),
    });
    return parts;
  }
  for (const [key, name] of SUMMARY_PARTS) {
    const secs = cp.sections.filter((sec) => sec.key === key);
    const placeholder = placeholderIn(secs.flatMap((sec) => sec.items));
    parts.push({
      name,
      state:
        secs.length === 0
          ? 'missing'
          : secs.some((sec) => sec.items.some((i) => !isTemplateValue(i.text)))
            ? 'filled'
            : 'empty',
      path: cp.relPath,
      line: secs[0]?.line,
      ...(placeholder ? { placeholder } : {}),
      gaps: [summaryGap(name)],
      hint: SUMMARY_HINT,
    });
  }
  return parts;
}

/**
 * PROGRESS.md as a part of the template: there, and holding something. The seed's owned paths give it
 * the latest five checkpoint summaries, so one that is empty (no text at all, or only blank lines) holds
 * none, as one that is missing. One that cannot be read is its `readable` finding.
 */
function progressPart(progress: StateDoc | null): TemplatePart {
  if (!progress) return { name: S4_PROGRESS, state: 'missing', path: S4_PROGRESS };
  const blank = progress.text.trim() === '' && !progress.findings.some((f) => f.id === 'readable');
  return blank
    ? { name: t('checkpoint summaries'), state: 'missing', path: progress.relPath, line: 1 }
    : { name: S4_PROGRESS, state: 'filled', path: progress.relPath };
}

/** A timestamp as digits only (`2026-03-05-171200` → `20260305171200`), for ordering. */
function stamp(ts: string): string {
  return ts.replace(/\D/g, '');
}

/**
 * `progress-order` (block): PROGRESS.md holds the latest checkpoints newest first, and its first
 * entry is the newest checkpoint file. Out of order, the next session reads an old summary as the last one.
 */
function progressOrder(progress: StateDoc | null, checkpoint: StateDoc | null): Check[] {
  const es = entries(progress).filter((e) => e.timestamp);
  if (!progress || es.length === 0)
    return [mk('S4', 'progress-order', 'block', 'skip', t('No dated {0} entries to order.', S4_PROGRESS))];
  const out: Check[] = [];
  const hint = t('Let checkpoint.py rebuild PROGRESS.md: newest first, the newest checkpoint on top.');
  // Each entry's digits once: a long PROGRESS.md has an entry every few lines.
  const stamps = es.map((e) => stamp(e.timestamp ?? ''));
  for (let i = 1; i < es.length; i++) {
    const [a, b] = [es[i - 1], es[i]];
    if (stamps[i] > stamps[i - 1])
      out.push(
        mk(
          'S4',
          'progress-order',
          'block',
          false,
          t(
            'Out of order: {0} entry {1} (line {2}) is newer than the entry above it ({3}, line {4}); entries are newest first.',
            progress.relPath,
            b.timestamp ?? '',
            b.line,
            a.timestamp ?? '',
            a.line,
          ),
          { path: progress.relPath, line: b.line },
          hint,
        ),
      );
  }
  const cpStamp = checkpoint
    ? /\d{4}-\d{2}-\d{2}(?:[-T _]\d{2}:?\d{2}(?::?\d{2})?)?/.exec(checkpoint.relPath.split('/').pop() ?? '')?.[0]
    : undefined;
  // The newest entry: the first of those with the highest stamp.
  let newest = 0;
  for (let i = 1; i < es.length; i++) if (stamps[i] > stamps[newest]) newest = i;
  const top = es[newest];
  if (checkpoint && cpStamp && stamps[newest] < stamp(cpStamp)) {
    out.push(
      mk(
        'S4',
        'progress-order',
        'block',
        false,
        t(
          'The newest checkpoint {0} has no entry in {1} (its newest is {2}).',
          checkpoint.relPath,
          progress.relPath,
          top.timestamp ?? '',
        ),
        { path: progress.relPath, line: es[0].line },
        hint,
      ),
    );
  }
  return out.length
    ? out
    : [
        mk(
          'S4',
          'progress-order',
          'block',
          true,
          es.length === 1
            ? t('{0}: 1 dated entry.', progress.relPath)
            : t('{0}: {1} dated entries, newest first.', progress.relPath, es.length),
          { path: progress.relPath },
        ),
      ];
}

/** `pending-summary` (warn): the draft summary is consumed by a successful run; one left behind would be embedded by the next session. */
async function pendingSummary(ws: Workspace): Promise<Check> {
  const rel = companionPath('S4', 'pendingSummary');
  const left = (await ws.kind(rel)) === 'file';
  return mk(
    'S4',
    'pending-summary',
    'warn',
    !left,
    left
      ? t(
          'Summary draft left behind: {0} is still there; the last run did not consume it (--apply --consume-summary).',
          rel,
        )
      : t('No summary draft left behind.'),
    left ? { path: rel, line: 1 } : {},
    t(
      'Finish the checkpoint with `checkpoint.py --summary-file .agents/logs/pending-summary.md --apply --consume-summary`, or delete the stale draft.',
    ),
  );
}

/** Risks / open questions: the newest Current block's subsection, else a top-level section outside every Current block, else the newest PROGRESS entry's. */
function pendingSection(
  home: StateDoc,
  s4: S4Structure,
  block: S4Block | null,
  x: S4Extra,
): { section: Section | undefined; doc: StateDoc } {
  const inBlock = block ? within(home, block.line, block.endLine).find((s) => s.key === 'open') : undefined;
  if (inBlock) return { section: inBlock, doc: home };
  const top = home.sections.find((s) => s.key === 'open' && s.level <= 2 && !insideABlock(s4.blocks, s.line));
  if (top) return { section: top, doc: home };
  const e = entries(x.progress)[0];
  const fromProgress =
    x.progress && e
      ? within(x.progress, e.line, e.endLine).find((s) => s.key === 'issues' || s.key === 'open')
      : undefined;
  return fromProgress && x.progress ? { section: fromProgress, doc: x.progress } : { section: undefined, doc: home };
}

/** S4's checks, next action and resume prompt. */
/** A checkpoint whose YAML front matter does not parse (recorded by the reader) is a warning: the script rewrites it, nobody edits it by hand. */
export function s4Findings(doc: StateDoc): Finding[] {
  const e = doc.meta.frontMatterError as
    | { message: string; line: number; code?: string; column?: number; aliases?: number; refused?: YamlRefusalKind }
    | undefined;
  return e
    ? [
        finding(
          'front-matter',
          'warn',
          e.refused
            ? refusalMessage(e.refused, doc.relPath)
            : e.code !== undefined
              ? syntaxMessage(e.code, doc.relPath, e.line, e.column ?? 1)
              : e.aliases !== undefined
                ? t(
                    "The checkpoint's YAML front matter has YAML aliases (`*name`) that repeat more than is read (over {0} uses or {1} of its text, counting those inside what they repeat, or a node inside itself); it is not read.",
                    MAX_ALIASES,
                    MAX_ALIAS_TEXT,
                  )
                : t("The checkpoint's YAML front matter does not parse: {0}", e.message),
          e.line,
          t('Let the checkpointing script rewrite it; never edit a checkpoint by hand.'),
        ),
      ]
    : [];
}

/** A check of the state file skipped because it could not be read. */
function unreadable(id: string, homeRel: string): Check {
  return mk('S4', id, 'block', 'skip', t('No readable {0} to inspect.', homeRel), { path: homeRel });
}

/** S4's `not-skeleton` alone, as analyseS4 makes it. */
export function skeletonS4(loaded: Loaded<S4Extra>): Check[] {
  const { home, homeRel } = loaded;
  const s4 = structure(home);
  return [!home || !home.text || !s4 ? unreadable('not-skeleton', homeRel) : notSkeleton(home, s4)];
}

/** The newest Current block (where the next action stands) and the resume prompt that names it. */
function s4Resume(
  s4: S4Structure | null,
  homeRel: string,
  x: S4Extra,
): { block: S4Block | null; resumePrompt: string } {
  const block = s4 ? newestBlock(s4, recentTexts(x)) : null;
  return { block, resumePrompt: promptFor('S4', homeRel, block ? `${S4_FACTS.resume.next} (${block.title})` : null) };
}

/** What S4 gives a fresh context, as analyseS4 finds it: the newest Current block's next action and the resume prompt. */
export async function resumeS4(_ws: Workspace, loaded: Loaded<S4Extra>): Promise<Analysis> {
  const { home, homeRel } = loaded;
  const x: S4Extra = loaded.extra ?? { progress: null, checkpoint: null };
  const s4 = structure(home);
  const { block, resumePrompt } = s4Resume(s4, homeRel, x);
  const next = home && home.text && s4 ? (nextAction(home, block, x)?.text ?? null) : null;
  return { checks: [], next, unconfirmed: [], resumePrompt };
}

export async function analyseS4(ws: Workspace, loaded: Loaded<S4Extra>): Promise<Analysis> {
  const { home, homeRel, docs } = loaded;
  const x: S4Extra = loaded.extra ?? { progress: null, checkpoint: null };
  for (const d of docs) addFindings(d, s4Findings(d));
  const s4 = structure(home);
  const checks: Check[] = [checkExists('S4', home, homeRel)];
  const { block, resumePrompt } = s4Resume(s4, homeRel, x);
  if (!home || !home.text || !s4) {
    for (const id of ['not-skeleton', 'structure', 'next-action']) checks.push(unreadable(id, homeRel));
    checks.push(progressEntries(x.progress));
    return { checks, next: null, unconfirmed: [], resumePrompt };
  }
  const next = nextAction(home, block, x);
  const skeleton = notSkeleton(home, s4);
  checks.push(
    skeleton,
    ...structureCheck(home, s4),
    ...checkTemplate('S4', homeRel, templateParts(home, x), skeleton.status === 'fail'),
    ...progressOrder(x.progress, x.checkpoint),
  );
  checks.push(
    checkNextAction(
      'S4',
      next,
      block ? `the newest Current block, "## ${block.title}"` : 'a "## Current Project|Feature|Bug Fix" block',
      homeRel,
    ),
  );
  const pend = pendingSection(home, s4, block, x);
  checks.push(checkPending('S4', pend.section, pend.doc, 'risks / open questions'));
  // The closing report names the remaining risks as recorded.
  home.meta.risks = (pend.section?.items ?? []).filter((i) => (i.depth ?? 0) === 0).map((i) => i.text);
  checks.push(await checkFresh('S4', ws, home));
  checks.push(await checkWorkExplained('S4', ws, docs, homeRel));
  checks.push(...checkNoSecrets('S4', docs));
  checks.push(...compaction(home, s4), progressEntries(x.progress));
  checks.push(summaryCheck(x), await pendingSummary(ws));
  return { checks, next: next?.text ?? null, unconfirmed: [], resumePrompt };
}
