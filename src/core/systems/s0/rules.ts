/**
 * S0's rules (seed 000, majestic `session-checkpoint`): the common checks on the ledger, its
 * `_Last updated:` timestamp, its UNCONFIRMED items (to validate after /clear), the Working Set
 * files, and the config notes (switched off, older place). Reading is in `reader*.ts` beside it.
 */
import { finding, PROGRAM, t, type Msg } from '../../model/messages';
import { MAX_ALIAS_TEXT, MAX_ALIASES, refusalMessage, syntaxMessage } from '../../markdown/yaml';
import { resumePrompt } from '../facts';
import { S0_FACTS } from './facts';
import type { Check, Finding, Item, Section, StateDoc } from '../../model/model';
import { sectionsOf, firstRealItem, withParagraph } from '../../markdown/items';
import { S0_CONFIG, S0_DEFAULT_LEDGER, withoutUnconfirmedTag, type AgentsYmlIssue, type S0Extra } from './reader';
import type { Analysis, Loaded } from '../../model/system';
import {
  clip,
  extractPaths,
  isPlaceholder,
  LINE_ENDS,
  mayHold,
  oneOf,
  plainText,
  timestampValue,
  trimEndWhere,
} from '../../markdown/text';
import type { Workspace } from '../../model/workspace';
import {
  checkExists,
  checkFresh,
  checkNextAction,
  checkNoSecrets,
  checkNotSkeleton,
  checkPending,
  checkStalePaths,
  checkTemplate,
  checkWorkExplained,
  addFindings,
  findingChecks,
  mk,
  sectionPart,
  type PathRef,
  type TemplatePart,
  readableDoc,
} from '../../rules/common';

/** Now text that says the work is finished rather than what to do ("Done.", "Готово к публикации.", "… выполнена."). */
const FINISHED_RE =
  /^(?:all )?(?:done|complete|completed|finished|nothing(?: left)?(?: to do)?)\b[.!]?$|(?:^|[\s(])(?:готово|выполнен[аоы]?|завершен[аоы]?|сделано)(?=$|[\s.,;:!)])|\b(?:is|are|was|were|has been|have been) (?:done|complete|completed|finished)\b|완료|完了/iu;

const FINISHED_WORDS = [
  'done',
  'complete',
  'finished',
  'nothing',
  'готово',
  'выполнен',
  'завершен',
  'сделано',
  '완료',
  '完了',
];
const finished = (t: string) => mayHold(t, FINISHED_WORDS) && FINISHED_RE.test(t);

export interface S0Next {
  /** The item's own line, as the checks judge it. */
  text: string;
  /** With the lines that continue its paragraph: what a fresh context is handed, nothing written dropped. */
  whole: string;
  line: number;
  from: 'now' | 'next';
}

/**
 * The Now item: the seed resumes from "Now". Next stands in only when Now is missing, still the
 * template's placeholder or says the work is done; a vague Now ("continue work in X") stays the
 * next action, so it is judged, not hidden behind a concrete Next.
 */
export function s0NextAction(doc: StateDoc): S0Next | null {
  const nowIn = sectionsOf(doc, 'now');
  const nextIn = sectionsOf(doc, 'next');
  const now = firstRealItem(nowIn);
  const next = firstRealItem(nextIn);
  // A paragraph wrapped over several lines is handed over whole; its first line is what the checks judge.
  // Its lines are among its sections' items: the text is split up to the last of them, not to its end.
  const of = (it: Item, sections: Section[], from: S0Next['from']): S0Next => {
    let last = it.line;
    for (const s of sections) for (const i of s.items) last = Math.max(last, i.line);
    return { text: it.text, whole: withParagraph(sections, it, doc.text.split('\n', last)), line: it.line, from };
  };
  if (now && !isPlaceholder(now.text) && !finished(plainText(now.text))) return of(now, nowIn, 'now');
  if (next) return of(next, nextIn, 'next');
  if (now) return of(now, nowIn, 'now');
  return null;
}

// The blanks after the colon are taken whole, once (a lookahead and its backreference): with `\s*(.*)$`, a
// U+2028 after the value's text made `.*` scan the rest again for every blank given back.
const WS_LABEL_RE = /^(files?|ids?|commands?|cmds?|paths?)\s*[:：](?=(\s*))\2(.*)$/i;

/** Paths the Working Set names as existing: `Files:` items, and unlabelled items (older ledgers list bare paths). */
export function workingSetRefs(doc: StateDoc): PathRef[] {
  const out: PathRef[] = [];
  for (const s of sectionsOf(doc, 'working-set')) {
    for (const it of s.items) {
      const plain = it.text.replace(/^\s*(?:\*\*)?/, '').replace(/^([A-Za-z]+)(?:\*\*)?\s*[:：](?:\*\*)?/, '$1:');
      const m = WS_LABEL_RE.exec(plain);
      if (m && !/^(?:files?|paths?)$/i.test(m[1])) continue;
      const value = m ? m[3] : it.text;
      if (isPlaceholder(value)) continue;
      for (const t of extractPaths(value)) out.push({ target: t, doc, line: it.line });
    }
  }
  return out;
}

// The value runs to the line's end; the `_`/`*` that close the emphasis are taken off after (see timestampValue).
// The blanks after the colon are taken whole, once (`(?=(\s*))\1` gives nothing back): with `\s*(.*)$`, a
// line break character later in the line (U+2028, a lone CR) made `.*` scan the rest again for every blank
// given back, so 200,000 blanks after `_Last updated:` held check past two minutes. No match is lost: a
// value that ends before the line's end does so whatever blanks precede it.
const TIMESTAMP_RE = /^\s*(?:[-*]\s+)?[_*]{0,2}(?:last updated|updated|обновлено)[_*]{0,2}\s*[:：](?=(\s*))\1(.*)$/iu;

const lineEnd = oneOf(LINE_ENDS);

function checkTimestamp(doc: StateDoc): Check {
  // One line at a time, up to the first that says it: the lines of a long ledger are not all made at once.
  const text = doc.text;
  for (let i = 0, at = 0; at <= text.length; i++) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(at, end);
    at = end + 1;
    const m = TIMESTAMP_RE.exec(trimEndWhere(line, lineEnd));
    if (!m) continue;
    const value = timestampValue(m[2]).value.trim();
    if (isPlaceholder(value)) {
      return mk(
        'S0',
        'timestamp',
        'warn',
        false,
        value ? t('_Last updated:_ is still the template placeholder ({0}).', value) : t('_Last updated:_ is empty.'),
        { path: doc.relPath, line: i + 1 },
        t('Write the real time of this checkpoint after `_Last updated:`.'),
      );
    }
    return mk('S0', 'timestamp', 'warn', true, t('Last updated: {0}', clip(value, 60)), {
      path: doc.relPath,
      line: i + 1,
    });
  }
  return mk(
    'S0',
    'timestamp',
    'warn',
    false,
    t('No `_Last updated: <timestamp>_` line in {0}.', doc.relPath),
    { path: doc.relPath, line: 1 },
    t("Add `_Last updated: <timestamp>_` under the title, as S0's ledger format has it."),
  );
}

/** The ledger's UNCONFIRMED items, template placeholders (`<question 2> \`UNCONFIRMED\``) left out. */
export function unconfirmedItems(ledger: StateDoc): Item[] {
  return ledger.sections.flatMap((s) => s.items.filter((it) => it.flags.includes('unconfirmed')));
}

function checkUnconfirmed(ledger: StateDoc, items: readonly Item[]): Check[] {
  if (items.length === 0)
    return [mk('S0', 'unconfirmed', 'info', true, t('No UNCONFIRMED items.'), { path: ledger.relPath })];
  return items.map((item) =>
    mk(
      'S0',
      'unconfirmed',
      'info',
      false,
      t('Unconfirmed: {0}', clip(item.text)),
      { path: ledger.relPath, line: item.line },
      t('Ask the user to confirm or correct it, then remove its UNCONFIRMED tag.'),
    ),
  );
}

/** S0's resume prompt: from the Next section when the Now item is not the next action; UNCONFIRMED items validated first. */
export function s0ResumePrompt(home: string, next: S0Next | null, unconfirmed: number): string {
  return resumePrompt('S0', home, next?.from === 'next' ? 'the Next section' : null, unconfirmed);
}

/**
 * What the problems the reader recorded in `.agents.yml` mean: a YAML error or unreadable data
 * blocks (the checkpoint cannot tell whether the ledger is on); a document or `session` that is not
 * a mapping, or a `ledger_path` that is not a path, is a warning.
 */
export function configFindings(doc: StateDoc): Finding[] {
  return ((doc.meta.issues as AgentsYmlIssue[] | undefined) ?? []).map((i) => {
    switch (i.kind) {
      case 'yaml-error':
        return finding(
          'config',
          'block',
          syntaxMessage(i.code, '.agents.yml', i.line, i.column),
          i.line,
          t(
            'Fix the YAML of .agents.yml at line {0}, then run `{1} check`; until then the checkpoint cannot read session.ledger.',
            i.line,
            PROGRAM,
          ),
        );
      case 'not-mapping':
        return finding(
          'config',
          'warn',
          t('.agents.yml is not a mapping of settings; session.ledger cannot be read from it.'),
          1,
        );
      case 'unreadable':
        return finding('config', 'block', t('.agents.yml cannot be read: {0}.', i.error), 1);
      case 'refused':
        return finding(
          'config',
          'block',
          refusalMessage(i.refusal, '.agents.yml'),
          i.line ?? 1,
          t(
            'Write the settings as plain keys, values and lists, each key once; until then the checkpoint cannot read session.ledger.',
          ),
        );
      case 'too-many-aliases':
        return finding(
          'config',
          'block',
          aliasesRepeatTooMuch(),
          1,
          t('Write the values out in place of the aliases; keep at most {0}.', MAX_ALIASES),
        );
      case 'session-not-mapping':
        return finding(
          'config',
          'warn',
          t('`session` in .agents.yml is not a mapping; expected `session:` with `ledger: true`.'),
          i.line,
        );
      case 'ledger-path-not-path':
        return finding(
          'config',
          'warn',
          t('`session.ledger_path` is not a path; the default .agents/session_ledger.md is used.'),
          i.line,
        );
    }
  });
}

/** The seed's format: Goal, State (Done / Now / Next) and Working Set, each with real content. */
function templateParts(doc: StateDoc): TemplatePart[] {
  return [
    sectionPart(doc, '## Goal', sectionsOf(doc, 'goal')),
    sectionPart(doc, '## State → ### Done', sectionsOf(doc, 'done')),
    sectionPart(doc, '## State → ### Now', sectionsOf(doc, 'now')),
    sectionPart(doc, '## State → ### Next', sectionsOf(doc, 'next')),
    sectionPart(doc, '## Working Set', sectionsOf(doc, 'working-set')),
  ];
}

/**
 * Not enabled (no `.agents.yml`, or one without `session.ledger: true`): `exists` is skipped with the
 * seed's skip line (the words the checkpoint says), and this finding says the ledger is checked but
 * never checkpointed, with the fix that enables it (the only S0 finding of severity info).
 */
export function notEnabledCheck(ledger: string): Check {
  return mk(
    'S0',
    'config',
    'info',
    false,
    t('Never checkpointed: {0} is read and checked, but .agents.yml does not set `session: ledger: true`.', ledger),
    { path: S0_CONFIG },
    t(
      'Add `session: ledger: true` to .agents.yml (created if missing): `{0} enable-ledger`, or the quick fix "Enable the ledger".',
      PROGRAM,
    ),
  );
}

/**
 * The ledger as the template rules read it: each item without its UNCONFIRMED marker. An item the
 * marker's removal leaves as it is, and a section of such items, is the ledger's own (the rules only
 * read them): a copy of every section and item of a long ledger outlived V8's young generation.
 */
function withoutMarkers(ledger: StateDoc): StateDoc {
  return {
    ...ledger,
    sections: ledger.sections.map((s) => {
      let items: Item[] | null = null;
      s.items.forEach((i, k) => {
        const text = withoutUnconfirmedTag(i.text);
        if (text === i.text) return;
        items ??= s.items.slice();
        items[k] = { ...i, text };
      });
      return items ? { ...s, items } : s;
    }),
  };
}

/** S0's `not-skeleton` alone, as analyseS0 makes it (none without a readable ledger). */
export function skeletonS0(loaded: Loaded<S0Extra>): Check[] {
  const readable = readableDoc(loaded.home);
  return readable ? [checkNotSkeleton('S0', withoutMarkers(readable), ['title'])] : [];
}

/** What S0 gives a fresh context, as analyseS0 finds it: the next action, the UNCONFIRMED items and the resume prompt. */
export async function resumeS0(_ws: Workspace, loaded: Loaded<S0Extra>): Promise<Analysis> {
  const readable = readableDoc(loaded.home);
  const next = readable ? s0NextAction(readable) : null;
  const unconfirmed = readable ? unconfirmedItems(readable) : [];
  return s0Resume(brokenConfig(loaded), loaded.homeRel, next, unconfirmed);
}

/**
 * S0's checks at every session start: `.agents.yml` that cannot be read (`brokenConfig`), so the start
 * names the ledger it finds with what check says of its configuration (the default place may not be
 * where the configuration keeps it, or S0 may be switched off there).
 */
export async function startChecksS0(_ws: Workspace, loaded: Loaded<S0Extra>): Promise<Check[]> {
  return brokenConfig(loaded);
}

/** `.agents.yml`'s aliases repeat more than the readers resolve: what check and enable-ledger say. */
export function aliasesRepeatTooMuch(): Msg {
  return t(
    ".agents.yml's YAML aliases (`*name`) repeat more than is read in one file (over {0} uses or {1} of its text, counting those inside what they repeat, or a node inside itself); the checkpoint cannot read session.ledger.",
    MAX_ALIASES,
    MAX_ALIAS_TEXT,
  );
}

/**
 * With `.agents.yml` that cannot be read as YAML (or not read at all), the blocking findings that say
 * why, as `config` checks: with no ledger at the default path, where the ledger is kept is not known (a
 * resume says them instead of "the ledger does not exist"); with one there, it is read as check reads
 * it, and a resume says them beside it.
 */
function brokenConfig(loaded: Loaded<S0Extra>): Check[] {
  const config = loaded.extra?.broken ? loaded.docs.find((d) => d.role === 'config') : undefined;
  if (!config) return [];
  const findings = [...config.findings.filter((f) => f.id === 'readable'), ...configFindings(config)];
  // Said as the configuration's problem, whatever the finding (a YAML error, a file that cannot be read).
  return findingChecks('S0', [{ ...config, findings }])
    .filter((c) => c.severity === 'block')
    .map((c) => ({ ...c, id: 'config' }));
}

function s0Resume(checks: Check[], homeRel: string, next: S0Next | null, unconfirmed: Item[]): Analysis {
  return {
    checks,
    next: next ? next.whole : null,
    unconfirmed,
    resumePrompt: s0ResumePrompt(homeRel, next, unconfirmed.length),
  };
}

/** S0's checks, next action, UNCONFIRMED items and resume prompt. */
export async function analyseS0(ws: Workspace, loaded: Loaded<S0Extra>): Promise<Analysis> {
  const home = loaded.home;
  const checks: Check[] = [];
  const enabled = loaded.extra?.enabled === true;
  for (const d of loaded.docs) if (d.role === 'config') addFindings(d, configFindings(d));
  const off = !enabled && !!home && !loaded.extra?.broken;
  // Not enabled: not a failure, the seed's skip line (and the ledger is still read and checked).
  checks.push(
    off && S0_FACTS.switchedOff
      ? mk('S0', 'exists', 'block', 'skip', S0_FACTS.switchedOff, { path: loaded.homeRel })
      : checkExists('S0', home, loaded.homeRel),
  );
  if (off && home) checks.push(notEnabledCheck(home.relPath));
  if (loaded.extra?.older && home) {
    checks.push(
      mk(
        'S0',
        'location',
        'info',
        false,
        t("Ledger read from the older place {0}; S0's default is {1}.", home.relPath, S0_DEFAULT_LEDGER),
        { path: home.relPath },
        t('Move it to {0} (or point session.ledger_path at it in .agents.yml).', S0_DEFAULT_LEDGER),
      ),
    );
  }
  const readable = readableDoc(home);
  let next: S0Next | null = null;
  let unconfirmed: Item[] = [];
  if (readable) {
    const plainDoc = withoutMarkers(readable);
    const skeleton = checkNotSkeleton('S0', plainDoc, ['title']);
    checks.push(skeleton);
    checks.push(...checkTemplate('S0', readable.relPath, templateParts(plainDoc), skeleton.status === 'fail'));
    next = s0NextAction(readable);
    checks.push(
      checkNextAction(
        'S0',
        next && { text: next.text, path: readable.relPath, line: next.line },
        '## State → ### Now / ### Next',
        readable.relPath,
      ),
    );
    checks.push(checkPending('S0', sectionsOf(plainDoc, 'open')[0], readable, 'Open Questions'));
    checks.push(await checkFresh('S0', ws, readable));
    checks.push(await checkWorkExplained('S0', ws, [readable], readable.relPath));
    checks.push(
      ...(await checkStalePaths('S0', ws, workingSetRefs(readable), {
        none: t('No Working Set files to verify.'),
        allExist: (n) => t('{0} Working Set files checked — all exist.', n),
      })),
    );
    checks.push(checkTimestamp(readable));
    unconfirmed = unconfirmedItems(readable);
    checks.push(...checkUnconfirmed(readable, unconfirmed));
  }
  checks.push(...checkNoSecrets('S0', loaded.docs));
  return s0Resume(checks, loaded.homeRel, next, unconfirmed);
}
