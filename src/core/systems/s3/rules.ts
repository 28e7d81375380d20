/**
 * S3's rules (seed 003, Groundwork checkpoint): the handoff block with `Now ▶`, not a template,
 * Blocked on recorded, Gates with numbers, Branch / HEAD against git, the Log newest first, the
 * 150-line budget (or `budgets.stateMdLines` of `checks/config.json`) and the "Docs touched" links.
 * Reading is in `reader*.ts` beside it.
 */
import * as path from 'node:path';
import { resumePrompt as promptFor } from '../facts';
import { S3_FACTS } from './facts';
import { checkDebt } from './debt';
import { logPartGap, S3_GAP } from './gaps';
import { REPO_CHECKS, repoChecksNotRun } from './repo-checks';
import { t, type Msg } from '../../model/messages';
import { maskSecrets } from '../../secrets/secrets';
import { parseBranchHead, type S3Field, type S3FieldName, type S3Structure } from './reader-state';
import { git } from '../../git/git';
import type { Check, StateDoc } from '../../model/model';
import type { Analysis, Loaded } from '../../model/system';
import {
  clip,
  extractPaths,
  isConcreteAction,
  isPlaceholder,
  isTemplateValue,
  plainText,
  withoutAsides,
} from '../../markdown/text';
import type { Workspace } from '../../model/workspace';
import {
  checkBudget,
  checkExists,
  checkFresh,
  checkNextAction,
  checkNoSecrets,
  checkStalePaths,
  checkTemplate,
  checkWorkExplained,
  gitPendingCheck,
  isSkeleton,
  mk,
  noGitFacts,
  placeholderIn,
  withGaps,
  type PathRef,
  type TemplatePart,
} from '../../rules/common';

function structure(doc: StateDoc | null): S3Structure | null {
  return (doc?.meta.s3 as S3Structure | undefined) ?? null;
}

function field(s: S3Structure | null, name: S3FieldName): S3Field | undefined {
  return s?.fields.find((f) => f.name === name);
}

/** The line budget: `budgets.stateMdLines` of Groundwork's `checks/config.json` when set, else 150. */
async function lineBudget(ws: Workspace): Promise<{ max: number; from: string }> {
  const f = await ws.read('checks/config.json');
  if (f.ok) {
    try {
      const n = (JSON.parse(f.text) as { budgets?: { stateMdLines?: unknown } })?.budgets?.stateMdLines;
      if (typeof n === 'number' && n > 0) return { max: n, from: 'checks/config.json' };
    } catch {
      /* not JSON: the default holds */
    }
  }
  return { max: S3_FACTS.budgets.lines ?? 150, from: 'default' };
}

/** A template value: a placeholder (`<…>`, `TBD`, empty: an HTML comment as the only value is removed on reading) or a date pattern such as `YYYY-MM-DD`. */
const templateValue = isTemplateValue;

/** Every line of a Log entry is template text: its title after the date and each item. */
function templateEntry(home: StateDoc, e: S3Structure['entries'][number]): boolean {
  const title = e.title.replace(/^\W*(?:\d{4}-\d{2}-\d{2}|[Yy]{4}-[Mm]{2}-[Dd]{2})\s*[-–—:]?\s*/, '');
  if (!templateValue(title)) return false;
  const lines = home.text.split('\n').slice(e.line, e.endLine);
  return lines.every((l) => l.trim() === '' || /^\s*<!--.*-->\s*$/.test(l) || templateValue(l));
}

function notSkeleton(home: StateDoc, s: S3Structure): Check {
  const blank = (n: S3FieldName) => {
    const f = field(s, n);
    return !f || isPlaceholder(f.value);
  };
  const template =
    blank('phase') &&
    blank('gates') &&
    blank('branchHead') &&
    blank('branch') &&
    blank('head') &&
    !s.entries.some((e) => e.date);
  // Every handoff field still a placeholder and every Log entry template text: a skeleton, whatever its dates say.
  const allTemplate =
    s.fields.length > 0 &&
    s.fields.every((f) => templateValue(f.value)) &&
    s.entries.every((e) => templateEntry(home, e));
  const skel = isSkeleton(home) || template || allTemplate;
  return mk(
    'S3',
    'not-skeleton',
    'block',
    !skel,
    skel
      ? allTemplate && !template
        ? t(
            'Still the template: every handoff field in {0} is a placeholder (<…>, TBD, YYYY-MM-DD or an empty comment).',
            home.relPath,
          )
        : t(
            'Still the template: Phase, Branch / HEAD and Gates in {0} are placeholders and the Log has no dated entry.',
            home.relPath,
          )
      : t('{0} holds real content.', home.relPath),
    { path: home.relPath, line: skel ? (s.handoff?.line ?? 1) : undefined },
    t('Run the checkpoint: make the handoff block literally true right now and add one dated Log entry.'),
  );
}

/** `next-action` for S3: present, not vague, and concrete: it names a file, command, symbol or test. */
function nowAction(home: StateDoc, nowField: S3Field | undefined): Check {
  const c = checkNextAction(
    'S3',
    nowField ? { text: nowField.value, path: home.relPath, line: nowField.line } : null,
    '`Now ▶` in ## Handoff',
    home.relPath,
  );
  if (c.status !== 'pass' || !nowField || isConcreteAction(nowField.value)) return c;
  return mk(
    'S3',
    'next-action',
    'block',
    false,
    t('Now ▶ names no file, command, symbol or test: "{0}".', clip(nowField.value)),
    { path: home.relPath, line: nowField.line },
    t(
      'Write the single exact next action, concrete enough to start cold: not "continue work" but "wire the Stop hook into settings.json per the plan in the log entry below". A symbol or a command counts in backticks (`UserID`, `npm test`); a product or a team named alone does not.',
    ),
  );
}

/** The parts a Log entry has (S3 step 2): Done, Docs touched, Lessons / gotchas, Stopped at. */
const ENTRY_PARTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Done', /^done\b/i],
  ['Docs touched', /^docs touched\b/i],
  ['Lessons / gotchas', /^(?:lessons?|gotchas?)\b/i],
  ['Stopped at', /^stopped at\b/i],
];

/** What each part of a Log entry holds: the fix of a missing part, whichever check says it. */
const ENTRY_HINT = t(
  'Give the entry its four parts: Done (what changed), Docs touched (links), Lessons / gotchas (what a fresh session would rediscover), Stopped at (mirroring Now ▶).',
);

/** The fix of Gates not recorded: the real state, with its numbers. */
const GATES_HINT = t('Write the real state with its numbers: "checks green, tests 42/42, CI green @ <sha>".');

/** The fix of Branch / HEAD missing, not filled in or out of date: git's own answers. */
const BRANCH_HEAD_HINT = t('Update Branch / HEAD from `git branch --show-current` and `git rev-parse --short HEAD`.');

/** `log-entry` (warn): the newest Log entry has Done, Docs touched, Lessons and Stopped at. */
function logEntry(home: StateDoc, s: S3Structure): Check {
  const newest = [...s.entries].sort((a, b) => a.line - b.line)[0];
  if (!newest)
    return mk('S3', 'log-entry', 'warn', 'skip', t('No Log entry yet.'), { path: home.relPath, line: s.log?.line });
  const labels = home.text
    .split('\n')
    .slice(newest.line, newest.endLine)
    .map((l) => plainText(l.replace(/^\s*#{1,6}\s+/, '')));
  const missing = ENTRY_PARTS.filter(([, re]) => !labels.some((l) => re.test(l))).map(([name]) => name);
  return withGaps(
    mk(
      'S3',
      'log-entry',
      'warn',
      missing.length === 0,
      missing.length === 0
        ? t('The newest Log entry (line {0}) has Done, Docs touched, Lessons and Stopped at.', newest.line)
        : t('The newest Log entry (line {0}) has no {1}.', newest.line, missing.join(', ')),
      { path: home.relPath, line: newest.line },
      ENTRY_HINT,
    ),
    missing.map((name) => logPartGap(newest.line, name)),
  );
}

/** The handoff field `name`, only when it stands inside the `## Handoff` block. */
function handoffField(s: S3Structure, name: S3FieldName): S3Field | undefined {
  const f = field(s, name);
  return f && s.handoff && f.line > s.handoff.line && f.line <= s.handoff.endLine ? f : undefined;
}

/**
 * The seed's step 1 and 2 as a template: Status, Phase, Branch / HEAD, Gates and Blocked on in the
 * handoff block (Blocked on may be cleared, not left a placeholder), and one dated Log entry whose
 * Done, Docs touched, Lessons / gotchas and Stopped at each say something. `Now ▶` is handoff-block's.
 * A field or part that the warnings also judge names their gaps and carries their fix: what to write
 * in Gates, where Branch / HEAD comes from, what Blocked on says, what each part of the entry holds.
 */
function templateParts(home: StateDoc, s: S3Structure): TemplatePart[] {
  const rel = home.relPath;
  const at = s.handoff?.line;
  const part = (
    name: string,
    f: S3Field | undefined,
    more: Pick<TemplatePart, 'gaps' | 'hint'> = {},
    emptyOk = false,
  ): TemplatePart => {
    if (!f) return { name, state: 'missing', path: rel, line: at, ...more };
    const v = plainText(f.value);
    const placeholder = placeholderIn([{ text: f.value, line: f.line }]);
    const filled = (emptyOk && cleared(v)) || !templateValue(f.value);
    return {
      name,
      state: filled ? 'filled' : 'empty',
      path: rel,
      line: f.line,
      ...(placeholder ? { placeholder } : {}),
      // The template text left in the field, quoted as the warnings quoted it (`Gates not recorded: "TBD"`).
      ...(!filled && v ? { value: v } : {}),
      ...more,
    };
  };
  const split = !handoffField(s, 'branchHead') && !!handoffField(s, 'branch') && !!handoffField(s, 'head');
  const bh = handoffField(s, 'branchHead') ?? (split ? handoffField(s, 'branch') : undefined);
  const blocked = handoffField(s, 'blocked');
  const parts = [
    part('Status', handoffField(s, 'status')),
    part('Phase', handoffField(s, 'phase')),
    part('Branch / HEAD', bh, {
      gaps: split ? [S3_GAP.branch] : [S3_GAP.branch, S3_GAP.head],
      hint: BRANCH_HEAD_HINT,
    }),
    part('Gates', handoffField(s, 'gates'), { gaps: [S3_GAP.gates], hint: GATES_HINT }),
    part(
      'Blocked on',
      blocked,
      {
        gaps: [S3_GAP.blocked],
        hint: blocked
          ? t('Name what waits on the user or an external thing, else clear the field.')
          : t('Add "Blocked on:" with what waits on the user or an outside party, or clear it when nothing does.'),
      },
      true,
    ),
  ];
  if (split) parts.push(part('HEAD', handoffField(s, 'head'), { gaps: [S3_GAP.head], hint: BRANCH_HEAD_HINT }));
  const newest = s.entries.filter((e) => e.date).sort((a, b) => a.line - b.line)[0];
  if (!newest) {
    parts.push({ name: t('dated Log entry'), one: true, state: 'missing', path: rel, line: s.log?.line });
    return parts;
  }
  const lines = home.text.split('\n').slice(newest.line - 1, newest.endLine);
  // Each line's part (-1: none), found once: every part below looks for its own label and its end.
  const labels = lines.map((l) =>
    ENTRY_PARTS.findIndex(([, re]) => re.test(plainText(l.replace(/^\s*#{1,6}\s+/, '')))),
  );
  ENTRY_PARTS.forEach(([name], k) => {
    const i = labels.indexOf(k);
    const more = { gaps: [logPartGap(newest.line, name)], hint: ENTRY_HINT };
    if (i < 0)
      return void parts.push({
        name: t('{0} in the Log entry of {1}', name, String(newest.date)),
        state: 'missing',
        path: rel,
        line: newest.line,
        ...more,
      });
    // The label's own value, then the lines below it up to the next part.
    const own = plainText(lines[i]).replace(/^[^:：]{1,40}[:：]\s*/, '');
    const below: string[] = [];
    for (let j = i + 1; j < lines.length && labels[j] < 0; j++) below.push(lines[j]);
    const filled = [own, ...below].some(
      (x) => plainText(x) !== '' && !/^\s*<!--.*-->\s*$/.test(x) && !templateValue(x),
    );
    const placeholder = placeholderIn([own, ...below].map((text, k) => ({ text, line: newest.line + i + k })));
    parts.push({
      name: t('{0} in the Log entry of {1}', name, String(newest.date)),
      state: filled ? 'filled' : 'empty',
      path: rel,
      line: newest.line + i,
      ...(placeholder ? { placeholder } : {}),
      ...more,
    });
  });
  return parts;
}

function handoffBlock(home: StateDoc, s: S3Structure): Check {
  const noBlock = !s.handoff;
  // The `Now ▶` line the handoff needs is the `now` field (a line its label starts) inside the
  // handoff block: a `Now ▶` elsewhere in the file, a mention in prose or in a comment is not one.
  const stray = !noBlock && !handoffField(s, 'now') ? field(s, 'now') : undefined;
  if (stray) {
    return mk(
      'S3',
      'handoff-block',
      'block',
      false,
      t(
        '"Now ▶" outside the "## {1}" block in {0} (line {2}); only the one inside the block counts.',
        home.relPath,
        s.handoff?.title ?? '',
        stray.line,
      ),
      { path: home.relPath, line: stray.line },
      t('Move the Now ▶ line into the handoff block at the top of STATE.md.'),
    );
  }
  const noNow = !field(s, 'now');
  return mk(
    'S3',
    'handoff-block',
    'block',
    !noBlock && !noNow,
    noBlock && noNow
      ? t('No "## Handoff" block and no "Now ▶" line in {0}.', home.relPath)
      : noBlock
        ? t('No "## Handoff" block in {0}.', home.relPath)
        : noNow
          ? t('No "Now ▶" line in {0}.', home.relPath)
          : t('"## {0}" with Now ▶ present.', s.handoff?.title ?? ''),
    { path: home.relPath, line: s.handoff?.line ?? 1 },
    t(
      'Add the handoff block at the top: Status, Phase, Branch / HEAD, Gates, "Now ▶ <the single exact next action>", Blocked on.',
    ),
  );
}

const NONE = /^(?:none|nothing|no|no blockers?|nothing blocked|not blocked|clear(?:ed)?|n\/a|-|—|–)\.?$/i;

/**
 * A Blocked on value (plain text) that clears the field, as the seed asks when nothing waits: empty or a
 * word for none ("N/A", "-"), an aside after it or not ("N/A (nothing waits on the user)"). It is no
 * template text left in place: the template writes TBD.
 */
function cleared(v: string): boolean {
  return v === '' || NONE.test(withoutAsides(v));
}

function pending(home: StateDoc, s: S3Structure): Check {
  const f = field(s, 'blocked');
  if (!f) {
    return withGaps(
      mk(
        'S3',
        'pending-recorded',
        'warn',
        false,
        t('No "Blocked on:" field in the handoff.'),
        { path: home.relPath, line: s.handoff?.line },
        t('Add "Blocked on:" with what waits on the user or an outside party, or clear it when nothing does.'),
      ),
      [S3_GAP.blocked],
    );
  }
  const v = plainText(f.value);
  if (v === '' || NONE.test(v))
    return mk('S3', 'pending-recorded', 'warn', true, t('Blocked on: nothing (cleared).'), {
      path: home.relPath,
      line: f.line,
    });
  if (isPlaceholder(v) && !cleared(v)) {
    return withGaps(
      mk(
        'S3',
        'pending-recorded',
        'warn',
        false,
        t('"Blocked on" is a placeholder: "{0}".', clip(f.value, 60)),
        { path: home.relPath, line: f.line },
        t('Name what waits on the user or an external thing, else clear the field.'),
      ),
      [S3_GAP.blocked],
    );
  }
  return mk('S3', 'pending-recorded', 'warn', true, t('Blocked on: {0}', clip(f.value, 100)), {
    path: home.relPath,
    line: f.line,
  });
}

function gates(home: StateDoc, s: S3Structure): Check {
  const f = field(s, 'gates');
  const hint = GATES_HINT;
  if (!f)
    return withGaps(
      mk(
        'S3',
        'gates',
        'warn',
        false,
        t('No "Gates:" field in the handoff.'),
        { path: home.relPath, line: s.handoff?.line },
        hint,
      ),
      [S3_GAP.gates],
    );
  const v = plainText(f.value);
  if (isPlaceholder(v))
    return withGaps(
      mk(
        'S3',
        'gates',
        'warn',
        false,
        t('Gates not recorded: "{0}".', clip(f.value, 60)),
        { path: home.relPath, line: f.line },
        hint,
      ),
      [S3_GAP.gates],
    );
  const ok = /\d/.test(v);
  return mk(
    'S3',
    'gates',
    'warn',
    ok,
    ok ? t('Gates: {0}', clip(f.value, 100)) : t('Gates carry no numbers: "{0}".', clip(f.value, 80)),
    { path: home.relPath, line: f.line },
    hint,
  );
}

/**
 * Answers of `onlyStateCommitsSince` per (root, recorded hash, HEAD commit): commits do not change,
 * so while HEAD stays where it is the answer does too, and a re-read under a busy agent runs no
 * git for it. A new HEAD is a new key; an answer is asked again after `SINCE_TTL_MS`, so one git
 * run that failed (a timeout on a loaded machine) is not believed for long.
 */
const sinceCache = new Map<string, { answer: boolean; at: number }>();
const SINCE_CACHE_MAX = 64;
const SINCE_TTL_MS = 30_000;

/** True when every commit after `recorded` up to HEAD touches only `docs/state/` (the handoff committed after it was written). */
async function onlyStateCommitsSince(ws: Workspace, top: string, recorded: string, head: string): Promise<boolean> {
  const key = `${ws.root}\0${top}\0${recorded}\0${head}`;
  const known = sinceCache.get(key);
  if (known && Date.now() - known.at < SINCE_TTL_MS) return known.answer;
  const answer = /^[0-9a-f]{40,64}$/.test(head) && (await onlyStateCommitsSinceByGit(ws, top, recorded, head));
  if (sinceCache.size >= SINCE_CACHE_MAX) sinceCache.delete(sinceCache.keys().next().value as string);
  sinceCache.delete(key);
  sinceCache.set(key, { answer, at: Date.now() });
  return answer;
}

async function onlyStateCommitsSinceByGit(
  ws: Workspace,
  top: string,
  recorded: string,
  head: string,
): Promise<boolean> {
  // `recorded` is a hex hash (parseBranchHead): both calls take it as `<hash>^{commit}` and run at
  // once, since one git process's start-up is most of each call's time. Either failing (no such
  // commit, an ambiguous short hash, not an ancestor: `merge-base --is-ancestor` exits non-zero for
  // each) means no.
  const rev = `${recorded}^{commit}`;
  const [isAncestor, files] = await Promise.all([
    git(ws.root, ['merge-base', '--is-ancestor', rev, head]),
    git(ws.root, ['diff', '--name-only', rev, head]),
  ]);
  if (isAncestor === null || files === null) return false;
  const stateDir = path.relative(top, ws.abs('docs/state')).split(path.sep).join('/');
  const changed = files.split('\n').filter(Boolean);
  return changed.length > 0 && changed.every((p) => p === stateDir || p.startsWith(`${stateDir}/`));
}

/**
 * Whether the handoff names git's branch: `recorded` as its Branch value parses; a branch name that
 * holds a secret is masked in the handoff's text (`deploy-ghp_… (40 chars)/x`), so then the field's
 * text must hold git's branch masked the same way, whole (not followed by more of a name).
 */
function sameBranch(git: string, recorded: string, fieldText: string): boolean {
  const masked = maskSecrets(git).text;
  if (masked === git) return recorded === git;
  for (let at = fieldText.indexOf(masked); at >= 0; at = fieldText.indexOf(masked, at + 1)) {
    const before = at > 0 ? fieldText[at - 1] : ' ';
    const after = fieldText[at + masked.length] ?? ' ';
    if (!/[\w./-]/.test(before) && !/[\w./-]/.test(after)) return true;
  }
  return false;
}

async function branchHead(ws: Workspace, home: StateDoc, s: S3Structure): Promise<Check[]> {
  const combined = field(s, 'branchHead');
  const bf = field(s, 'branch');
  const hf = field(s, 'head');
  const line = (combined ?? bf ?? hf)?.line ?? s.handoff?.line;
  const hint = BRANCH_HEAD_HINT;
  const loc = { path: home.relPath, line };
  const written = [combined, bf, hf].filter((f): f is S3Field => !!f && !isPlaceholder(f.value));
  if (written.length === 0)
    return [
      withGaps(mk('S3', 'branch-head', 'warn', false, t('Branch / HEAD not recorded in the handoff.'), loc, hint), [
        S3_GAP.branch,
        S3_GAP.head,
      ]),
    ];
  if (ws.gitDeferred) return [gitPendingCheck('S3', 'branch-head', loc)];
  const g = await ws.git();
  if (!g)
    return [
      mk(
        'S3',
        'branch-head',
        'warn',
        'skip',
        noGitFacts(ws, t('Not a git repository: Branch / HEAD cannot be compared.')),
        loc,
      ),
    ];
  const c = combined ? parseBranchHead(combined.value) : { branch: null, head: null };
  const branch = (bf && !isPlaceholder(bf.value) ? parseBranchHead(bf.value).branch : null) ?? c.branch;
  const head = (hf && !isPlaceholder(hf.value) ? parseBranchHead(hf.value).head : null) ?? c.head;
  // Each problem is a finding of its own, each note a message of its own, so every word is translatable. A
  // branch or hash that is not written is a gap; one that differs from git's is not.
  const problems: Array<{ m: Msg; gap?: string }> = [];
  if (!branch) problems.push({ m: t('No branch in Branch / HEAD: the handoff records none.'), gap: S3_GAP.branch });
  else if (g.branch === null) {
    if (!/detached/i.test(branch))
      problems.push({ m: t('HEAD out of date: HEAD is detached, the handoff says branch {0}.', branch) });
  } else if (!sameBranch(g.branch, branch, [bf?.value, combined?.value].filter(Boolean).join('\n')))
    problems.push({
      m: t('Branch out of date: the branch is {0}, the handoff says {1}.', maskSecrets(g.branch).text, branch),
    });
  let note: Msg | null = null;
  if (!head) problems.push({ m: t('No HEAD hash in Branch / HEAD: the handoff records none.'), gap: S3_GAP.head });
  else if (!g.head)
    note = t('Branch {0} and HEAD {1} match git (the repository has no commits yet).', branch ?? '', head);
  else if (!g.head.startsWith(head)) {
    if (await onlyStateCommitsSince(ws, g.top, head, g.head))
      note = t(
        'Branch {0} and HEAD {1} match git (HEAD {2} moved past {1} only by commits to docs/state/).',
        branch ?? '',
        head,
        g.head.slice(0, 7),
      );
    else
      problems.push({
        m: t('HEAD out of date: HEAD is {0}, the handoff says {1}.', g.head.slice(0, 7), head),
      });
  }
  if (problems.length)
    return problems.map((p) => withGaps(mk('S3', 'branch-head', 'warn', false, p.m, loc, hint), p.gap ? [p.gap] : []));
  if (note) return [mk('S3', 'branch-head', 'warn', true, note, loc)];
  return [
    mk('S3', 'branch-head', 'warn', true, t('Branch {0} and HEAD {1} match git.', branch ?? '', head ?? ''), loc),
  ];
}

function logOrder(home: StateDoc, s: S3Structure): Check[] {
  const dated = s.entries.filter((e) => e.date);
  if (dated.length < 2)
    return [
      mk(
        'S3',
        'log-order',
        'warn',
        'skip',
        dated.length === 1
          ? t('1 dated Log entry: nothing to order.')
          : t('{0} dated Log entries: nothing to order.', dated.length),
        { path: home.relPath, line: s.log?.line },
      ),
    ];
  const out: Check[] = [];
  for (let i = 1; i < dated.length; i++) {
    const a = dated[i - 1];
    const b = dated[i];
    if ((b.date ?? '') > (a.date ?? '')) {
      out.push(
        mk(
          'S3',
          'log-order',
          'warn',
          false,
          t(
            'Log entry {0} (line {1}) is newer than the entry above it ({2}, line {3}): the Log is newest first.',
            b.date ?? '',
            b.line,
            a.date ?? '',
            a.line,
          ),
          { path: home.relPath, line: b.line },
          t('Move the newest entry to the top of the Log; overflow goes to docs/state/log/YYYY-MM.md.'),
        ),
      );
    }
  }
  return out.length
    ? out
    : [
        mk('S3', 'log-order', 'warn', true, t('{0} dated Log entries, newest first.', dated.length), {
          path: home.relPath,
          line: s.log?.line,
        }),
      ];
}

/** A check of STATE.md skipped because it could not be read. */
function unreadable(id: string, homeRel: string): Check {
  return mk('S3', id, 'block', 'skip', t('No readable STATE.md to inspect.'), { path: homeRel });
}

/** S3's `not-skeleton` alone, as analyseS3 makes it. */
export function skeletonS3(loaded: Loaded): Check[] {
  const home = loaded.home;
  const s = structure(home);
  return [!home || !home.text || !s ? unreadable('not-skeleton', loaded.homeRel) : notSkeleton(home, s)];
}

/** The handoff's Now ▶ value, the next action. */
function s3Next(s: S3Structure | null): string | null {
  const nowField = field(s, 'now');
  return nowField && nowField.value ? nowField.value : null;
}

/** What S3 gives a fresh context, as analyseS3 finds it: Now ▶ and the resume prompt. */
export async function resumeS3(_ws: Workspace, loaded: Loaded): Promise<Analysis> {
  const home = loaded.home;
  const s = structure(home);
  const next = home && home.text && s ? s3Next(s) : null;
  return { checks: [], next, unconfirmed: [], resumePrompt: promptFor('S3', loaded.homeRel) };
}

/** S3's checks, next action and resume prompt. */
export async function analyseS3(ws: Workspace, loaded: Loaded): Promise<Analysis> {
  const home = loaded.home;
  const s = structure(home);
  const checks: Check[] = [checkExists('S3', home, loaded.homeRel)];
  const next = s3Next(s);
  const resumePrompt = promptFor('S3', loaded.homeRel);
  if (!home || !home.text || !s) {
    for (const id of ['not-skeleton', 'handoff-block', 'next-action']) checks.push(unreadable(id, loaded.homeRel));
    return { checks, next: null, unconfirmed: [], resumePrompt };
  }
  const skeleton = notSkeleton(home, s);
  checks.push(
    skeleton,
    handoffBlock(home, s),
    ...checkTemplate('S3', home.relPath, templateParts(home, s), skeleton.status === 'fail'),
  );
  checks.push(nowAction(home, field(s, 'now')));
  checks.push(pending(home, s));
  checks.push(await checkFresh('S3', ws, home));
  checks.push(await checkWorkExplained('S3', ws, loaded.docs, home.relPath));
  checks.push(...checkNoSecrets('S3', loaded.docs));
  const budget = await lineBudget(ws);
  checks.push(
    checkBudget(
      'S3',
      home,
      { maxLines: budget.max, lineCounting: S3_FACTS.budgets.lineCounting },
      t('Move the oldest Log entries to docs/state/log/YYYY-MM.md; do not trim the new entry.'),
    ),
  );
  const refs: PathRef[] = s.entries.flatMap((e) =>
    e.docsTouched.flatMap((d) => extractPaths(d.text).map((target) => ({ target, doc: home, line: d.line }))),
  );
  checks.push(
    ...(await checkStalePaths('S3', ws, refs, {
      none: t('No "Docs touched" links to verify.'),
      allExist: (n) => t('{0} "Docs touched" links checked — all exist.', n),
    })),
  );
  checks.push(...(await branchHead(ws, home, s)), gates(home, s), ...logOrder(home, s), logEntry(home, s));
  checks.push(...(await checkDebt(ws, home)));
  // `node checks/check.mjs` is the repository's own code: said here, run only when the user asks.
  if ((await ws.kind(REPO_CHECKS)) === 'file') checks.push(repoChecksNotRun());
  return { checks, next, unconfirmed: [], resumePrompt };
}
