/**
 * The checks common to every system, as small functions each system calls with what it
 * found. Every function returns finished `Check`s; none reads more than it is given except the
 * git- and path-based ones, which go through the `Workspace`.
 */
import { said, saidOf, t, type Msg } from '../model/messages';
import {
  SYSTEM_IDS,
  type Check,
  type CheckStatus,
  type Finding,
  type Item,
  type Section,
  type Severity,
  type StateDoc,
  type SystemId,
} from '../model/model';
import {
  clip,
  clipAtWord,
  codePointCount,
  extractPaths,
  isExplicitNone,
  isPlaceholder,
  isTemplateValue,
  isVagueAction,
  plainText,
  unfilledVariable,
} from '../markdown/text';
import { lineTotal } from '../markdown/markdown';
import { shownLine } from '../markdown/shown-line';
import { localTime, spanText } from '../model/time';
import { insideRel } from '../files/atomic';
import { findSecrets, maskSecrets } from '../secrets/secrets';
import type { Workspace } from '../model/workspace';

export interface Loc {
  path?: string;
  line?: number;
}

/**
 * Build a check; `ok` true → pass, false → fail (block) or warn (warn/info), 'skip' → skipped.
 * The message and the hint are `t(…)` messages: the check carries their ids and arguments.
 */
export function mk(
  system: SystemId,
  id: string,
  severity: Severity,
  ok: boolean | 'skip',
  message: Msg,
  loc: Loc = {},
  hint?: Msg,
): Check {
  let status: CheckStatus;
  if (ok === 'skip') status = 'skipped';
  else if (ok) status = 'pass';
  else status = severity === 'block' ? 'fail' : 'warn';
  const c: Check = { id, system, severity, status, ...said(message, ok !== true ? hint : undefined) };
  if (loc.path !== undefined) c.path = loc.path;
  if (loc.line !== undefined) c.line = loc.line;
  return c;
}

/**
 * One check per item for the first `named` items; past them, one check like the next item's (its
 * place, severity and hint) whose message counts the rest: `more(count)`.
 */
export function namedThenMore<T>(
  items: readonly T[],
  named: number,
  one: (item: T) => Check,
  more: (count: number) => Msg,
): Check[] {
  const out = items.slice(0, named).map(one);
  if (items.length > named) {
    const { message, messageId, args } = said(more(items.length - named));
    out.push({ ...one(items[named]), message, messageId, args });
  }
  return out;
}

/** Findings of the documents (damaged, huge, YAML that does not parse) as checks, with their message ids. */
export function findingChecks(system: SystemId, docs: readonly StateDoc[]): Check[] {
  const out: Check[] = [];
  for (const d of docs) {
    for (const f of d.findings) {
      const c: Check = {
        id: f.id,
        system,
        severity: f.severity,
        status: f.severity === 'block' ? 'fail' : 'warn',
        ...saidOf(f),
      };
      c.path = d.relPath;
      if (f.line !== undefined) c.line = f.line;
      out.push(c);
    }
  }
  return out;
}

/**
 * Put the findings a system's checks judged from what its reader recorded (a YAML error, a
 * duplicate section …) on their document, beside the ones reading itself raised (unreadable,
 * truncated); a finding already there (same id, line and message) is not added twice.
 */
export function addFindings(doc: StateDoc, found: readonly Finding[]): void {
  // A set of what is there: one look per finding, so a file with 100k unknown headings stays linear.
  const key = (f: Finding) => `${f.id}\0${f.line ?? ''}\0${f.message}`;
  const have = new Set(doc.findings.map(key));
  for (const f of found) {
    const k = key(f);
    if (have.has(k)) continue;
    have.add(k);
    doc.findings.push(f);
  }
}

export function checkExists(system: SystemId, doc: StateDoc | null, homeRel: string): Check {
  // A home a configuration puts outside the workspace (`ledger_path: ~/notes.md`): never asked to be written
  // there, and whether a file stands there is not said either.
  if (insideRel(homeRel) === null)
    return mk(
      system,
      'exists',
      'block',
      false,
      t('{0} is outside the workspace folder: Session Ledger neither reads nor writes a state file there.', homeRel),
      { path: homeRel },
      t('Set the path the configuration gives for it to a file inside the workspace.'),
    );
  if (!doc) {
    return mk(
      system,
      'exists',
      'block',
      false,
      t('{0} does not exist.', homeRel),
      { path: homeRel },
      t('Ask the agent to write {0} (run its checkpoint).', homeRel),
    );
  }
  if (!readableDoc(doc)) {
    return mk(system, 'exists', 'block', false, t('{0} exists but cannot be read as text.', doc.relPath), {
      path: doc.relPath,
    });
  }
  return mk(system, 'exists', 'block', true, t('{0} exists.', doc.relPath), { path: doc.relPath });
}

/** The document when it could be read as text (no `readable` finding), else null. */
export function readableDoc(doc: StateDoc | null): StateDoc | null {
  return doc && doc.findings.every((f) => f.id !== 'readable') ? doc : null;
}

// ---------------------------------------------------------------------------------------------
// Skeletons and next actions

/**
 * An empty template: no section holds an item with real content. `ignoreKeys` names sections whose
 * content does not count (titles, timestamps); `placeholder` says which item texts are template
 * text (a system whose template writes `[Topic]: [Options]` passes its own test).
 */
export function isSkeleton(
  doc: StateDoc,
  ignoreKeys: readonly string[] = ['title'],
  placeholder: (text: string) => boolean = isPlaceholder,
): boolean {
  if (!doc.text.trim()) return true;
  for (const s of doc.sections) {
    if (ignoreKeys.includes(s.key)) continue;
    for (const it of s.items) {
      const t = plainText(it.text);
      if (/^_?last updated[:：]/i.test(t)) continue;
      if (!placeholder(t)) return false;
    }
  }
  return true;
}

export function checkNotSkeleton(
  system: SystemId,
  doc: StateDoc | null,
  ignoreKeys?: readonly string[],
  placeholder?: (text: string) => boolean,
): Check {
  if (!doc || !doc.text) return mk(system, 'not-skeleton', 'block', 'skip', t('No readable document to inspect.'));
  const skel = isSkeleton(doc, ignoreKeys, placeholder);
  return mk(
    system,
    'not-skeleton',
    'block',
    !skel,
    skel
      ? t('Empty template: every section of {0} is empty or a placeholder.', doc.relPath)
      : t('{0} holds real content.', doc.relPath),
    { path: doc.relPath, line: skel ? 1 : undefined },
    t('Have the agent fill the sections from the session (goal, state, next action) before checkpointing.'),
  );
}

/** One required part of a system's template, as its rules found it. */
export interface TemplatePart {
  /**
   * The part as the format names it (`## Goal`, `Gates`): a heading or keyword as the file writes it,
   * or, where the name is the tool's own words around such a keyword (`Done in the Log entry of …`), a
   * message said in the reader's language.
   */
  name: string | Msg;
  /** `missing`: not there at all; `empty`: there, but empty or still template text. */
  state: 'filled' | 'missing' | 'empty';
  /**
   * The part is one thing the format asks for, named without its article (`dated Log entry`): a file
   * "has no" such a part, the fix asks to write "a" one, and an empty one is "the" one.
   */
  one?: true;
  /** Where the finding is shown (every surface shows it there): a file the user can open. */
  path: string;
  line?: number;
  /**
   * Where the part belongs when that is not the file it is shown on (a folder: S4's checkpoints): the
   * message says the part is missing from here.
   */
  within?: string;
  /** The fix when the part is written otherwise than by hand (S4's checkpoint script). */
  hint?: Msg;
  /**
   * A fill-in variable left in a part that is otherwise written (`Branch / HEAD: main @ {{HEAD}}`), and
   * its line: the part is not filled in.
   */
  placeholder?: { text: string; line: number };
  /**
   * The gaps the part is when it is not filled (see `Check.gaps`): a warning that says the same part is
   * missing or still template text names the same keys, and is then said by this part's finding alone.
   */
  gaps?: readonly string[];
  /** The template text an `empty` part holds (`TBD`), quoted in its finding; absent when it holds nothing. */
  value?: string;
}

/** Names one after the other (`Goal, Gates, dated Log entry`), as a message when one of them is a message. */
function listed(names: ReadonlyArray<string | Msg>): string | Msg {
  return names.slice(1).reduce<string | Msg>((all, n) => t('{0}, {1}', all, n), names[0] ?? '');
}

/** The first fill-in variable left in `texts` (each with its line), for a part's `placeholder`. */
export function placeholderIn(texts: ReadonlyArray<{ text: string; line: number }>): TemplatePart['placeholder'] {
  for (const x of texts) {
    const v = unfilledVariable(x.text);
    if (v) return { text: v, line: x.line };
  }
  return undefined;
}

/**
 * `template` (block): every required part of the system's own template is there and filled. A file
 * where one field is real and the rest are the seed's placeholders is still a skeleton: each part
 * that is missing or empty is a refusal of its own, with its line.
 */
export function checkTemplate(
  system: SystemId,
  homeRel: string,
  parts: readonly TemplatePart[],
  skeleton = false,
): Check[] {
  if (skeleton)
    return [
      mk(
        system,
        'template',
        'block',
        'skip',
        t('{0} is still the empty template as a whole (see not-skeleton).', homeRel),
        { path: homeRel },
      ),
    ];
  const open = parts.filter((p) => p.state !== 'filled' || p.placeholder);
  if (open.length === 0)
    return [
      mk(
        system,
        'template',
        'block',
        true,
        t('Every required part of the template is filled ({0}).', listed(parts.map((p) => p.name))),
        { path: homeRel },
      ),
    ];
  return open.map((p) =>
    withGaps(
      mk(
        system,
        'template',
        'block',
        false,
        p.state === 'missing'
          ? t("No {1} in {0}: {2}'s format requires it.", p.within ?? p.path, p.name, system)
          : p.state === 'filled' && p.placeholder
            ? p.one
              ? t(
                  'The {1} still holds the placeholder {2} in {0}: it is not filled in.',
                  p.path,
                  p.name,
                  p.placeholder.text,
                )
              : t(
                  '{1} still holds the placeholder {2} in {0}: it is not filled in.',
                  p.path,
                  p.name,
                  p.placeholder.text,
                )
            : p.one
              ? t('The {1} is empty or still template text in {0}.', p.path, p.name)
              : p.value
                ? t('{1} is still template text in {0}: "{2}".', p.path, p.name, clip(p.value, 60))
                : t('{1} is empty or still template text in {0}.', p.path, p.name),
        { path: p.path, line: (p.state === 'filled' ? p.placeholder?.line : undefined) ?? p.line ?? 1 },
        p.hint ??
          (p.one
            ? t('Write a {0} from the session; a placeholder does not count.', p.name)
            : t('Write {0} from the session; a placeholder does not count.', p.name)),
      ),
      p.gaps ?? [],
    ),
  );
}

/** `c` naming these gaps (see `Check.gaps`); `c` itself when there are none. */
export function withGaps(c: Check, gaps: readonly string[]): Check {
  return gaps.length ? { ...c, gaps: [...gaps] } : c;
}

/**
 * One finding per gap. A check that warns (or informs) and whose every gap a failing blocking check of
 * the same file names says a gap the blocking finding already says: it is not a finding of its own,
 * but skipped, naming that finding. The blocking finding carries the fix (each system's rules give its
 * template part the warning's words where they are the more useful). Blocking checks are never
 * touched, so what blocks the checkpoint stays as it is.
 */
export function oneFindingPerGap(checks: readonly Check[]): Check[] {
  const key = (c: Check, gap: string) => `${c.path ?? ''}\0${gap}`;
  const blocking = new Map<string, Check>();
  for (const c of checks)
    if (c.severity === 'block' && c.status === 'fail')
      for (const g of c.gaps ?? []) if (!blocking.has(key(c, g))) blocking.set(key(c, g), c);
  if (blocking.size === 0) return [...checks];
  return checks.map((c) => {
    if (c.severity === 'block' || c.status !== 'warn' || !c.gaps?.length) return c;
    const by = c.gaps.map((g) => blocking.get(key(c, g)));
    const first = by[0];
    if (!first || by.some((b) => !b)) return c;
    const covered: Check = {
      id: c.id,
      system: c.system,
      severity: c.severity,
      status: 'skipped',
      ...said(
        first.line
          ? t('Covered by the blocking {0} finding on line {1}.', first.id, first.line)
          : t('Covered by the blocking {0} finding.', first.id),
      ),
    };
    if (c.path !== undefined) covered.path = c.path;
    if (c.line !== undefined) covered.line = c.line;
    return covered;
  });
}

/** A part that is a section: `missing` without one, `empty` when no item is real content. */
export function sectionPart(
  doc: StateDoc,
  name: string,
  sections: readonly Section[],
  template: (text: string) => boolean = isTemplateValue,
): TemplatePart {
  if (sections.length === 0) return { name, state: 'missing', path: doc.relPath };
  const filled = sections.some((s) => s.items.some((i) => !template(i.text)));
  const placeholder = placeholderIn(sections.flatMap((s) => s.items));
  return {
    name,
    state: filled ? 'filled' : 'empty',
    path: doc.relPath,
    line: sections[0].line,
    ...(placeholder ? { placeholder } : {}),
  };
}

export interface NextAction {
  text: string;
  path: string;
  line: number;
}

/**
 * `next-action` (block): a concrete next action exists; vague text fails. `where` names the place, e.g.
 * "### Now / ### Next"; `hint`, when given, is the fix of a missing or vague one (the system's own words).
 */
export function checkNextAction(
  system: SystemId,
  next: NextAction | null,
  where: string,
  homeRel: string,
  hint?: Msg,
): Check {
  if (!next) {
    return mk(
      system,
      'next-action',
      'block',
      false,
      t('No next action found ({0}).', where),
      { path: homeRel },
      hint ?? t('Write the single exact next action under {0}, concrete enough to start cold.', where),
    );
  }
  // Said as every surface that renders no Markdown says the next action (the CLI, the checklist, the tree);
  // a long one cut at a word, never inside a code span (an unclosed backtick shows as itself).
  const quoted = clipAtWord(shownLine(next.text));
  // A field or heading that holds nothing: there is no action to call vague, only one to write (at its line).
  if (!quoted.trim()) {
    return mk(
      system,
      'next-action',
      'block',
      false,
      t('The next action is empty ({0}).', where),
      { path: next.path, line: next.line },
      hint ?? t('Write the single exact next action under {0}, concrete enough to start cold.', where),
    );
  }
  const vague = isVagueAction(next.text);
  return mk(
    system,
    'next-action',
    'block',
    !vague,
    vague ? t('The next action is vague: "{0}".', quoted) : t('Next action: {0}', quoted),
    { path: next.path, line: next.line },
    hint ??
      t('Replace it with an action concrete enough to start cold: not "continue work" but "wire X into Y per Z".'),
  );
}

/** The gap `pending-recorded` names when it warns: the section of pending decisions is missing or empty. */
export const PENDING_GAP = 'pending';

/** `pending-recorded` (warn): pending decisions / open questions recorded, or explicitly none. */
export function checkPending(
  system: SystemId,
  section: Section | undefined,
  doc: StateDoc | null,
  what: string,
): Check {
  if (!doc) return mk(system, 'pending-recorded', 'warn', 'skip', t('No document.'));
  if (!section) {
    return withGaps(
      mk(
        system,
        'pending-recorded',
        'warn',
        false,
        t('No {0} section: pending decisions and open questions are not recorded.', what),
        { path: doc.relPath },
        t('Add a {0} section, or write "none" in it when nothing is pending.', what),
      ),
      [PENDING_GAP],
    );
  }
  // "N/A" there is no placeholder but the same statement as "none".
  const real = section.items.filter((i) => isExplicitNone(i.text) || !isPlaceholder(i.text));
  if (real.length === 0) {
    return withGaps(
      mk(
        system,
        'pending-recorded',
        'warn',
        false,
        t('{0} is empty or a placeholder.', section.title || what),
        { path: doc.relPath, line: section.line },
        t('List what is pending, or write "none" explicitly.'),
      ),
      [PENDING_GAP],
    );
  }
  // "none" written as the only item says nothing is pending: no item to count.
  const said = real.every((i) => isExplicitNone(i.text))
    ? t('{0}: none, stated explicitly.', section.title || what)
    : real.length === 1
      ? t('{0}: 1 item.', section.title || what)
      : t('{0}: {1} items.', section.title || what, real.length);
  return mk(system, 'pending-recorded', 'warn', true, said, { path: doc.relPath, line: section.line });
}

/** A check that needs git's facts while they are still being read (the first results of a scan): not judged yet. */
export function gitPendingCheck(system: SystemId, id: string, loc: Loc): Check {
  return { ...mk(system, id, 'warn', 'skip', t('Waiting for git…'), loc), pending: true };
}

/**
 * What a check says when it has no git facts: `notRepo` when the folder is in no repository, else why
 * git gave none (not run on this repository, no answer, no git program) and what to do.
 */
export function noGitFacts(ws: Workspace, notRepo: Msg): Msg {
  switch (ws.gitAbsence()) {
    case 'not-run':
      return t(
        "No git facts: git is not run on this repository (a FIFO at its config, HEAD, index or another file git opens first, more config files or filters than it is run with, or a config git reads otherwise than it was checked). The README's Security section says what stops it.",
      );
    case 'no-answer':
      return t(
        'No git facts: git failed here, or did not answer within 10 s. Run git status in this folder to see why.',
      );
    case 'no-git':
      return t('No git facts: no git program was found on an absolute folder of PATH. Install git or add its folder.');
    case 'restricted':
      return t('No git facts: git does not run in Restricted Mode. Trust this folder to have it checked.');
    case 'git-passed-over':
      return t(
        "No git facts: no git on PATH is run here. Each stands in this repository's work tree, or another user could have put it there (it or a folder above it belongs to another user, or may be written by everyone or by a group that is not yours alone). Put first on PATH a git outside the work tree that only you or root can write or replace.",
      );
    default:
      return notRepo;
  }
}

/** `fresh` (warn): the doc was updated after the latest work (uncommitted changes or newer commits). */
export async function checkFresh(system: SystemId, ws: Workspace, doc: StateDoc | null): Promise<Check> {
  if (!doc || !doc.mtime) return mk(system, 'fresh', 'warn', 'skip', t('No document.'));
  if (ws.gitDeferred) return gitPendingCheck(system, 'fresh', { path: doc.relPath });
  const g = await ws.git();
  if (!g)
    return mk(system, 'fresh', 'warn', 'skip', noGitFacts(ws, t('Not a git repository: freshness cannot be judged.')), {
      path: doc.relPath,
    });
  const latest = Math.max(g.headTime ?? 0, g.newestChangeMtime ?? 0);
  if (!latest) return mk(system, 'fresh', 'warn', true, t('No commits or changes yet.'), { path: doc.relPath });
  // One second of slack: commit times have second resolution.
  const fresh = doc.mtime + 1000 >= latest;
  const uncommitted = (g.newestChangeMtime ?? 0) > (g.headTime ?? 0);
  const ago = spanText(latest - doc.mtime);
  return mk(
    system,
    'fresh',
    'warn',
    fresh,
    fresh
      ? t('{0} was updated after the latest work.', doc.relPath)
      : uncommitted
        ? t(
            'Out of date: {0} is older than uncommitted changes (written {1} before it; the work is from {2}).',
            doc.relPath,
            ago,
            localTime(latest),
          )
        : t(
            'Out of date: {0} is older than the last commit (written {1} before it; the work is from {2}).',
            doc.relPath,
            ago,
            localTime(latest),
          ),
    { path: doc.relPath },
    t('Have the agent update the state file from this session before compacting.'),
  );
}

/** `work-explained` (warn): with uncommitted changes, the doc names a changed path or states work in progress. */
export async function checkWorkExplained(
  system: SystemId,
  ws: Workspace,
  docs: readonly StateDoc[],
  homeRel: string,
): Promise<Check> {
  if (ws.gitDeferred) return gitPendingCheck(system, 'work-explained', { path: homeRel });
  const g = await ws.git();
  if (!g)
    return mk(system, 'work-explained', 'warn', 'skip', noGitFacts(ws, t('Not a git repository.')), { path: homeRel });
  if (g.changed.length === 0)
    return mk(
      system,
      'work-explained',
      'warn',
      true,
      t("No uncommitted changes besides the state files and Session Ledger's own files."),
      { path: homeRel },
    );
  const text = docs.map((d) => d.text).join('\n');
  const named = g.changed.find((p) => text.includes(p) || text.includes(p.split('/').pop() ?? p));
  // The changed paths come from git and are shown: with their secrets masked, as the documents' text is.
  const shown = (p: string) => maskSecrets(p).text;
  if (named)
    return mk(system, 'work-explained', 'warn', true, t('Uncommitted work is explained (names {0}).', shown(named)), {
      path: homeRel,
    });
  const inProgress =
    /\b(?:in[- ]progress|wip|uncommitted|not (?:yet )?committed|half[- ]done|mid[- ]way|partially)\b|진행 ?중|작업 ?중|進行中|作業中|未コミット|в процессе|в работе/i.test(
      text,
    );
  return mk(
    system,
    'work-explained',
    'warn',
    inProgress,
    inProgress
      ? g.changed.length === 1
        ? t('1 uncommitted change; the document has an in-progress statement.')
        : t('{0} uncommitted changes; the document has an in-progress statement.', g.changed.length)
      : g.changed.length === 1
        ? t('1 uncommitted change ({0}) that the document does not mention.', shown(g.changed[0]))
        : t(
            '{0} uncommitted changes (e.g. {1}) that the document does not mention.',
            g.changed.length,
            g.changed.slice(0, 3).map(shown).join(', '),
          ),
    { path: homeRel },
    t('Name the changed files and what state they are in, so the next session knows what the diff is.'),
  );
}

// ---------------------------------------------------------------------------------------------
// Secrets

// The patterns and the masking live in ../secrets (documents are masked when they are loaded).
export { findSecrets, mask, type SecretHit } from '../secrets/secrets';

/**
 * `no-secrets` (block): no API keys, tokens, private keys, URLs with credentials or assigned
 * secrets; `no-personal-data` (block): no e-mail addresses, phone numbers or postal addresses.
 * A state file is tracked and travels with the repository. Values are masked.
 */
export function checkNoSecrets(system: SystemId, docs: readonly StateDoc[]): Check[] {
  const secrets: Check[] = [];
  const personal: Check[] = [];
  for (const d of docs) {
    for (const h of d.secrets ?? findSecrets(d.text)) {
      const loc = { path: d.relPath, line: h.line };
      if (h.kind === 'personal') {
        personal.push(
          mk(
            system,
            'no-personal-data',
            'block',
            false,
            t('Possible {0} in {1}:{2} ({3}).', h.rule, d.relPath, h.line, h.masked),
            loc,
            t('Remove the personal data; name the person by role, never their address or number.'),
          ),
        );
      } else {
        secrets.push(
          mk(
            system,
            'no-secrets',
            'block',
            false,
            t('Possible {0} in {1}:{2} ({3}).', h.rule, d.relPath, h.line, h.masked),
            loc,
            t('Remove the value; name where the credential lives (keychain, untracked .env), never the value itself.'),
          ),
        );
      }
    }
  }
  if (secrets.length === 0) secrets.push(mk(system, 'no-secrets', 'block', true, t('No secrets found.')));
  if (personal.length === 0) personal.push(mk(system, 'no-personal-data', 'block', true, t('No personal data found.')));
  return [...secrets, ...personal];
}

// ---------------------------------------------------------------------------------------------
// Budget and paths

/** Lines of `text` as a seed counts them (see `BudgetFacts.lineCounting`). */
export function countLines(text: string, how: 'lines' | 'split' = 'split'): number {
  const n = lineTotal(text);
  return how === 'lines' && text.endsWith('\n') ? n - 1 : n;
}

/** `budget` (warn): the document within its line and character budgets (lines counted as its seed counts them). */
export function checkBudget(
  system: SystemId,
  doc: StateDoc | null,
  limits: { maxLines?: number; maxChars?: number; lineCounting?: 'lines' | 'split' },
  hint: Msg = t('Move finished items and old history out of the file.'),
): Check {
  if (!doc || !doc.text) return mk(system, 'budget', 'warn', 'skip', t('No readable document.'));
  const rel = doc.relPath;
  const lines = countLines(doc.text, limits.lineCounting);
  const chars = codePointCount(doc.text);
  const L = limits.maxLines;
  const C = limits.maxChars;
  const overL = L !== undefined && lines > L;
  const overC = C !== undefined && chars > C;
  let msg: Msg;
  if (overL && overC) msg = t('Over budget: {0} has {1} lines > {2}, {3} chars > {4}.', rel, lines, L, chars, C);
  else if (overL) msg = t('Over budget: {0} has {1} lines > {2}.', rel, lines, L);
  else if (overC) msg = t('Over budget: {0} has {1} chars > {2}.', rel, chars, C);
  else if (L !== undefined && C !== undefined)
    msg = t('{0} within budget ({1}/{2} lines, {3}/{4} chars).', rel, lines, L, chars, C);
  else if (L !== undefined) msg = t('{0} within budget ({1}/{2} lines).', rel, lines, L);
  else if (C !== undefined) msg = t('{0} within budget ({1}/{2} chars).', rel, chars, C);
  else msg = t('{0} has no budget.', rel);
  return mk(system, 'budget', 'warn', !overL && !overC, msg, { path: rel }, hint);
}

export interface PathRef {
  /** The referenced path as written (relative to the root, or absolute). */
  target: string;
  /** The document that points at it. */
  doc: StateDoc;
  line: number;
}

/**
 * What `stale-paths` says when nothing is stale, in the words of the references it verified (`"Docs touched"
 * links`): each a sentence of its own, so that a translation says the references' kind in its own words.
 */
export interface StalePathsWords {
  /** No reference of that kind. */
  none: Msg;
  /** `n` of them verified, each exists. */
  allExist: (n: number) => Msg;
}

/** `stale-paths` (warn): every path a state document points to as existing exists. One check per missing path. */
export async function checkStalePaths(
  system: SystemId,
  ws: Workspace,
  refs: readonly PathRef[],
  words: StalePathsWords,
): Promise<Check[]> {
  if (refs.length === 0) return [mk(system, 'stale-paths', 'warn', 'skip', words.none)];
  const out: Check[] = [];
  const seen = new Set<string>();
  for (const r of refs) {
    const key = `${r.doc.relPath}\0${r.target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const candidates = [r.target];
    // Links in a document are relative to that document; also try the root.
    const docDir = r.doc.relPath.includes('/') ? r.doc.relPath.slice(0, r.doc.relPath.lastIndexOf('/')) : '';
    if (docDir && !r.target.startsWith('/')) candidates.push(`${docDir}/${r.target}`);
    let found = false;
    let inside = 0;
    for (const c of candidates) {
      const rel = c.startsWith('/') ? c : c.replace(/^\.\//, '');
      // A path that leads out of the workspace is never looked at: whether it exists is not the repository's to learn.
      if (!(await ws.inside(rel))) continue;
      inside++;
      if (await ws.exists(rel)) {
        found = true;
        break;
      }
    }
    if (!found && inside === 0) {
      out.push(
        mk(system, 'stale-paths', 'warn', 'skip', t('{0} is outside the workspace folder: not checked.', r.target), {
          path: r.doc.relPath,
          line: r.line,
        }),
      );
    } else if (!found) {
      out.push(
        mk(
          system,
          'stale-paths',
          'warn',
          false,
          t('STALE PATH: {0} does not exist.', r.target),
          { path: r.doc.relPath, line: r.line },
          t('Update or remove the line: the file moved or was never written.'),
        ),
      );
    }
  }
  if (out.every((c) => c.status === 'skipped')) {
    const checked = seen.size - out.length;
    if (checked > 0 || out.length === 0) out.push(mk(system, 'stale-paths', 'warn', true, words.allExist(checked)));
  }
  return out;
}

/** Path references found in the items of the given sections. */
export function refsInSections(
  doc: StateDoc,
  sections: readonly Section[],
  filter: (item: Item) => boolean = () => true,
): PathRef[] {
  const out: PathRef[] = [];
  for (const s of sections)
    for (const it of s.items)
      if (filter(it)) for (const t of extractPaths(it.text)) out.push({ target: t, doc, line: it.line });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Manual items (S1 Phase 4)

export const MANUAL_CHECKS: ReadonlyArray<{ id: string; message: Msg }> = [
  { id: 'feedback-stored', message: t("This session's feedback is stored in memory.") },
  { id: 'last-request', message: t("The user's last request is completed or recorded.") },
];

/**
 * The manual items every system asks. They are about the session, not about a file: one confirmation
 * holds for every system, given bare (`feedback-stored`) or as any system's (`S1:feedback-stored`).
 */
export function manualChecks(system: SystemId, confirmed: ReadonlySet<string>): Check[] {
  return MANUAL_CHECKS.map(({ id, message }) => {
    const done = confirmed.has(id) || SYSTEM_IDS.some((s) => confirmed.has(`${s}:${id}`));
    return {
      id,
      system,
      severity: 'manual' as const,
      status: done ? ('manual-done' as const) : ('manual-open' as const),
      ...said(message),
    };
  });
}
