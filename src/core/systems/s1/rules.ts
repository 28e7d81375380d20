/**
 * S1's rules (seed 001, single forward-only handoff + attestation): the common checks on the handoff,
 * Invariant 1 (one handoff), Invariant 2 (forward-only), the `state-snapshot v1` block and its
 * compression, the Phase 2.4 attestation sidecar (MATCH / TAMPERED / NO_SIDECAR), the lessons
 * archive candidates and the context log's TTL and promotion candidates. Reading is in `reader*.ts` beside it.
 */
import { createReadStream } from 'node:fs';
import { statOrNullSync } from '../../files/fsread';
import * as path from 'node:path';
import { claudeHome } from '../../context/discovery';
import { resumePrompt } from '../facts';
import { S1_CURATION, S1_FACTS, S1_SNAPSHOT } from './facts';
import { PROGRAM, said, t, type Msg } from '../../model/messages';
import { MAX_ALIAS_TEXT, MAX_ALIASES, refusalMessage, syntaxMessage } from '../../markdown/yaml';
import type { MdOutline } from '../../markdown/markdown';
import type { Check, Item, Section, StateDoc } from '../../model/model';
import { S1_SIDECAR, type S1Extra } from './reader';
import type { SnapshotInfo, SnapshotList } from './reader-snapshot';
import { parseDay, sectionsOf } from '../../markdown/items';
import type { Analysis, Loaded } from '../../model/system';
import {
  clip,
  isExplicitNone,
  isPlaceholder,
  opensWithNone,
  isSpace,
  isVagueAction,
  mayHold,
  plainText,
  trimEndWhere,
} from '../../markdown/text';
import { sidecarUnreadable, type Workspace } from '../../model/workspace';
import { maskSecrets } from '../../secrets/secrets';
import {
  checkBudget,
  checkExists,
  checkFresh,
  checkNextAction,
  checkNoSecrets,
  checkNotSkeleton,
  checkPending,
  checkStalePaths,
  namedThenMore,
  checkTemplate,
  checkWorkExplained,
  mk,
  PENDING_GAP,
  refsInSections,
  sectionPart,
  type TemplatePart,
  readableDoc,
  withGaps,
} from '../../rules/common';

/** Instruction lines the seed's template carries inside its sections. */
const TEMPLATE_LINES = /^if none, this section can be omitted\.?$/i;

/** Template text of the seed (`[Most urgent] — include execution command`, `Top priority: [what]`). */
export function isTemplateText(text: string): boolean {
  if (isPlaceholder(text)) return true;
  const p = plainText(text);
  if (TEMPLATE_LINES.test(p)) return true;
  const v = p.replace(/^[^:：[\]]{1,40}[:：]\s*/u, '');
  return /^\[(?![A-Z0-9_ -]+\])(?!\d{4}-)[^\][]+\](?!\()/.test(v);
}

/** The section with its template items left out (for checks that count real items); an explicit none stays. */
function realItems(section: Section | undefined): Section | undefined {
  return section && { ...section, items: section.items.filter((i) => !templateNotNone(i.text)) };
}

/** Template text that is no explicit "none" (`N/A` is a placeholder elsewhere, and a statement in a list of what is pending). */
const templateNotNone = (text: string): boolean => isTemplateText(text) && !isExplicitNone(text);

// ---------------------------------------------------------------------------------------------
// The next action: item 1 of "What to do now"

export interface S1Next {
  item: Item;
  section: Section;
  /** The item's number as written (`2.`), else its position. */
  number: number;
}

export function s1NextAction(doc: StateDoc, outline: MdOutline | null = null): S1Next | null {
  const listLines = new Set((doc.meta.listItems as number[] | undefined) ?? []);
  const lines = outline?.lines ?? doc.text.split('\n');
  for (const section of sectionsOf(doc, 'next')) {
    const top = section.items.filter((i) => (i.depth ?? 0) === 0);
    const listed = top.filter((i) => listLines.has(i.line));
    const candidates = listed.length ? listed : top;
    const idx = candidates.findIndex((i) => !i.flags.includes('done'));
    if (idx < 0) continue;
    const item = candidates[idx];
    const n = /^\s*(?:>\s*)?(\d+)[.)]\s/.exec(lines[item.line - 1] ?? '');
    return { item, section, number: n ? Number(n[1]) : idx + 1 };
  }
  return null;
}

/**
 * The gap a failing next action is: item 1 of What to do now missing, template text or vague. The
 * command it lacks (next-command) and clarity's Q2 ("what to do first?") judge the same item, and are
 * said by next-action alone while it fails.
 */
const NEXT_GAP = 'next-action';

function checkS1NextAction(doc: StateDoc, next: S1Next | null): Check {
  // The seed's item 1, "[Most urgent] — include execution command": concrete, with its command.
  const hint = t('Write the most urgent concrete action, with its execution command, as item 1.');
  if (next && isTemplateText(next.item.text)) {
    return withGaps(
      mk(
        'S1',
        'next-action',
        'block',
        false,
        t('Template text in item {0} of "{1}": "{2}".', next.number, next.section.title, clip(next.item.text)),
        { path: doc.relPath, line: next.item.line },
        hint,
      ),
      [NEXT_GAP],
    );
  }
  const c = checkNextAction(
    'S1',
    next && { text: next.item.text, path: doc.relPath, line: next.item.line },
    '## What to do now (priority order), item 1',
    doc.relPath,
    hint,
  );
  return c.status === 'fail' ? withGaps(c, [NEXT_GAP]) : c;
}

// ---------------------------------------------------------------------------------------------
// S1-specific checks

/** Invariant 1: only `session-handoff-LATEST.md`; any other `session-handoff*.md` beside it is a violation. */
function checkSingleHandoff(homeRel: string, others: readonly string[]): Check[] {
  if (others.length === 0)
    return [mk('S1', 'single-handoff', 'block', true, t('Only {0} exists.', homeRel), { path: homeRel })];
  return others.map((p) =>
    mk(
      'S1',
      'single-handoff',
      'block',
      false,
      t(
        'Second handoff: {0} stands beside {1}, which breaks Invariant 1 (the next session cannot tell which one is latest).',
        p,
        homeRel,
      ),
      { path: p },
      t('Merge what is still open into {0} and delete {1} (git history keeps it).', homeRel, p),
    ),
  );
}

// The blanks around the `**` after 완료 are each taken whole, once (a lookahead and its backreference):
// with `\s*(?:\*\*)?\s*`, a long run of blanks that no colon follows was split between the two `\s*`
// in every way. A colon must follow the whole run, so no line is lost.
const DONE_LINE_RE =
  /^\s*(?:\*\*)?(?:done|completed|accomplished|finished)\b[^:：]{0,40}[:：]|^\s*(?:\*\*)?(?:이번 세션 )?완료(?:된 작업| 작업)?(?=(\s*))\1(?:\*\*)?(?=(\s*))\2[:：]/iu;

const DONE_WORDS = ['done', 'completed', 'accomplished', 'finished', '완료'];

/** Invariant 2: no "things done this session" in the handoff. */
function checkFutureOriented(doc: StateDoc): Check[] {
  const out: Check[] = [];
  for (const s of doc.sections) {
    if (s.key === 'done' || s.key === 'log') {
      out.push(
        mk(
          'S1',
          'future-oriented',
          'warn',
          false,
          t(
            '"{0}" lists work already done: the handoff must say only what the next session does (Invariant 2).',
            clip(s.title, 80),
          ),
          { path: doc.relPath, line: s.line },
          t('Delete the section; git history and context-log.md keep what was done.'),
        ),
      );
      continue;
    }
    for (const it of s.items) {
      if ((it.depth ?? 0) === 0 && mayHold(it.text, DONE_WORDS) && DONE_LINE_RE.test(it.text)) {
        out.push(
          mk(
            'S1',
            'future-oriented',
            'warn',
            false,
            t('A list of finished work: "{0}" (Invariant 2).', clip(it.text, 80)),
            { path: doc.relPath, line: it.line },
            t('Delete it; the handoff is forward-only.'),
          ),
        );
      }
    }
  }
  if (out.length === 0)
    out.push(
      mk('S1', 'future-oriented', 'warn', true, t('No done/accomplished section: the handoff is forward-only.'), {
        path: doc.relPath,
      }),
    );
  return out;
}

/** Programs a snapshot `next` item may not start a command with (Phase 2.3: "Remove execution commands"). */
const COMMAND_START =
  /^(?:\$\s*)?(?:npm|npx|pnpm|yarn|bun|deno|node|python3?|pip3?|uv|pytest|tox|make|cargo|go|git|gh|docker|kubectl|bash|sh|zsh|cd|ls|rm|cp|mv|curl|wget|sudo|brew|apt(?:-get)?|ruby|bundle|rake|java|mvn|gradle|dotnet)\s+\S/;

/** The programs of COMMAND_START: only a text whose first word (after a `$`) is one is tested against it. */
const COMMAND_PROGRAMS = new Set(
  'npm npx pnpm yarn bun deno node python python3 pip pip3 uv pytest tox make cargo go git gh docker kubectl bash sh zsh cd ls rm cp mv curl wget sudo brew apt apt-get ruby bundle rake java mvn gradle dotnet'.split(
    ' ',
  ),
);

/**
 * The text inside the first code span (a run of backticks, text, a backtick), or null: the same as
 * /`+([^`]+)`+/ in one pass (that pattern retries from every backtick of a long run).
 */
function codeSpan(text: string): string | null {
  const i = text.indexOf('`');
  if (i < 0) return null;
  let j = i;
  while (j < text.length && text[j] === '`') j++;
  const k = j < text.length ? text.indexOf('`', j) : -1;
  return k < 0 ? null : text.slice(j, k);
}

/** A tag's opening, at its parenthesis: "(urgency:" or "(risk:", white space allowed before the colon. */
const TAG_OPEN = /\((?:urgency|risk)\s*:/iy;

/**
 * The text without a trailing urgency or risk tag ("(urgency: H)") and the white space around it:
 * what /\s*\((?:urgency|risk)\s*:[^)]*\)\s*$/i takes off, in one pass (that pattern retries from every
 * start of a long run of blanks or parentheses). The tag holds no ")" before its own last one, so it
 * opens at a "(" after the ")" before that one: the first such "(" that opens a tag.
 */
function withoutTag(text: string): string {
  const body = trimEndWhere(text, isSpace);
  if (!body.endsWith(')')) return text;
  const close = body.length - 1;
  for (let open = body.indexOf('(', body.lastIndexOf(')', close - 1) + 1); open >= 0 && open < close;) {
    TAG_OPEN.lastIndex = open;
    if (TAG_OPEN.test(body)) return trimEndWhere(body.slice(0, open), isSpace);
    open = body.indexOf('(', open + 1);
  }
  return text;
}

/**
 * The command a snapshot `next` item carries, or null: an inline code span or code block, a `$ …`
 * prompt, a `--flag`, or a line that starts with a program and its arguments (`npm test`, `git push`).
 */
export function snapshotCommand(text: string): string | null {
  const code = codeSpan(text);
  if (code !== null) return code.trim();
  const plain = withoutTag(text).trim();
  if (COMMAND_PROGRAMS.has(plain.replace(/^\$\s*/, '').split(/\s/, 1)[0]) && COMMAND_START.test(plain)) return plain;
  const prompt = /(?:^|\s)\$\s+(\S.*)$/.exec(plain);
  if (prompt) return prompt[1];
  const flag = /(?:^|\s)(--[a-z][\w-]*(?:=\S+)?)/i.exec(plain);
  return flag ? flag[1] : null;
}

/** Words that open a noun phrase, not an action: an item starting with one names a thing, not what to do. */
const NOT_A_VERB =
  /^(?:the|a|an|this|that|these|those|my|our|your|its|their|all|some|any|no|more|new|next|other|todo|tbd|task|tasks|item|items|bug|bugs|issue|issues|feature|features|work|stuff|things?|status|progress|wip|misc|notes?|p[0-3]|h|m|l)$/i;

/**
 * Phase 2.3's "Verb+object only": at least two words, the first of them an action. Where the first
 * word is Latin script it must not open a noun phrase ("the login bug", "MEMORY.md diet") nor be a
 * label ("Auth: …"); items in scripts where the verb comes last (Korean, Japanese) need two words.
 */
export function isVerbObject(text: string): boolean {
  const plain = withoutTag(plainText(text))
    .replace(/^\s*(?:\d+[.)]|[-*])\s+/, '')
    .trim();
  const words = plain.split(/\s+/).filter(Boolean);
  if (words.length < 2) return false;
  const first = words[0];
  if (!/^[A-Za-z]/.test(first)) return true;
  if (/[:：]$/.test(first) || NOT_A_VERB.test(first)) return false;
  // A file or symbol first ("MEMORY.md diet", "parseRows() fix") names the object, not the action.
  return /^[A-Za-z][a-z'-]*$/.test(first);
}

/** The caps and vocabulary of the snapshot block, and the memory stores' curation thresholds. */
const CAPS = S1_SNAPSHOT;
const CURATION = S1_CURATION;

/** What is wrong with the snapshot block as read, each with its line, in the block's order. */
export function snapshotProblems(info: SnapshotInfo): { message: Msg; line: number; hint?: Msg }[] {
  const out: { message: Msg; line: number; hint?: Msg }[] = [];
  const at = (message: Msg, line: number) => out.push({ message, line });
  switch (info.shape) {
    case 'yaml-error': {
      const line = info.errorLine ?? info.line;
      out.push({
        message: syntaxMessage(info.errorCode ?? '', 'state-snapshot v1', line, info.errorColumn ?? 1),
        line,
        hint: t('Fix the YAML of the state-snapshot v1 block at line {0}, then run `{1} check`.', line, PROGRAM),
      });
      return out;
    }
    case 'empty':
      at(t('Snapshot: the block is empty.'), info.line);
      return out;
    case 'not-mapping':
      at(t('Snapshot: the block is not a YAML mapping (expected ts/ctx/next/diff/blocked keys).'), info.line);
      return out;
    case 'unreadable':
      if (info.aliases !== undefined)
        at(
          t(
            "Snapshot: the block's YAML aliases (`*name`) repeat more than is read in one block (over {0} uses or {1} of its text, counting those inside what they repeat, or a node inside itself); write the values out in place of the aliases.",
            MAX_ALIASES,
            MAX_ALIAS_TEXT,
          ),
          info.line,
        );
      else if (info.refused) at(refusalMessage(info.refused, 'state-snapshot v1'), info.errorLine ?? info.line);
      else at(t('Snapshot: the block cannot be read: {0}.', info.error ?? ''), info.line);
      return out;
    case 'mapping':
      break;
  }
  if (info.ts.trim() === '') at(t('Snapshot: `ts` is missing.'), info.line);
  if (!info.ctx) at(t('Snapshot: `ctx` is missing.'), info.line);
  else if (info.ctx.words > CAPS.ctxWords)
    at(t('Snapshot: ctx has {0} words (cap {1}).', info.ctx.words, CAPS.ctxWords), info.ctx.line);
  /** A capped list field; `each` adds the problems of its entries. */
  const list = (
    key: 'next' | 'diff' | 'blocked',
    l: SnapshotList | null,
    required: boolean,
    each: () => void,
  ): void => {
    if (!l) {
      if (required) at(t('Snapshot: `{0}` is missing.', key), info.line);
      return;
    }
    if (!l.isList) {
      at(t('Snapshot: `{0}` is not a list.', key), l.line);
      return;
    }
    const n = l.itemLines.length;
    const cap = CAPS[key];
    if (required && n === 0) at(t('Snapshot: `{0}` is empty.', key), l.line);
    each();
    if (n > cap) at(t('Snapshot: {0} has {1} items (cap {2}).', key, n, cap), l.itemLines[cap]);
  };
  list('next', info.next, true, () => undefined);
  list('diff', info.diff, false, () =>
    info.diffEntries.forEach((e, k) => {
      if (!e.mapping) return void at(t('Snapshot: diff item {0} is not a mapping with op/item/why.', k + 1), e.line);
      if (!CAPS.ops.includes(e.op))
        at(t('Snapshot: diff item {0} has op "{1}" (allowed: {2}).', k + 1, e.op, CAPS.ops.join('|')), e.line);
      if (e.whyWords > CAPS.whyWords)
        at(t('Snapshot: diff item {0}: why has {1} words (cap {2}).', k + 1, e.whyWords, CAPS.whyWords), e.line);
    }),
  );
  list('blocked', info.blocked, false, () =>
    info.blockedEntries.forEach((e, k) => {
      if (!CAPS.risks.includes(e.risk.trim().toUpperCase()))
        at(t('Snapshot: blocked item {0} has risk "{1}" (allowed: H|M|L).', k + 1, e.risk), e.line);
    }),
  );
  return out;
}

function checkSnapshot(doc: StateDoc): Check[] {
  const info = doc.meta.snapshot as SnapshotInfo | undefined;
  if (!info) {
    return [
      mk(
        'S1',
        'snapshot',
        'warn',
        false,
        t('No `<!-- state-snapshot v1 -->` block: the next session cannot recover from one compact block.'),
        { path: doc.relPath, line: 1 },
        t(
          'Insert the Phase 2.3 YAML block (ts, ctx, next, diff, blocked) right after the front matter, before the title.',
        ),
      ),
    ];
  }
  const problems = snapshotProblems(info);
  const misplaced = snapshotMisplaced(doc, info);
  if (misplaced)
    return [
      misplaced,
      ...problems.map((p) =>
        mk(
          'S1',
          'snapshot',
          'warn',
          false,
          p.message,
          { path: doc.relPath, line: p.line },
          p.hint ?? t('Keep the block within the caps S1 sets for it; what does not fit stays in the prose.'),
        ),
      ),
    ];
  if (problems.length === 0) {
    const c = info.counts;
    return [
      mk(
        'S1',
        'snapshot',
        'warn',
        true,
        t(
          'Snapshot: ctx {0}/{1} words, next {2}/{3}, diff {4}/{5}, blocked {6}/{7}.',
          c.ctxWords,
          CAPS.ctxWords,
          c.next,
          CAPS.next,
          c.diff,
          CAPS.diff,
          c.blocked,
          CAPS.blocked,
        ),
        { path: doc.relPath, line: info.line },
      ),
    ];
  }
  return problems.map((p) =>
    mk(
      'S1',
      'snapshot',
      'warn',
      false,
      p.message,
      { path: doc.relPath, line: p.line },
      p.hint ?? t('Keep the block within the caps S1 sets for it; what does not fit stays in the prose.'),
    ),
  );
}

/**
 * Phase 2.3, the `next` field: "Verb+object only. Remove inline code blocks" and execution commands.
 * One finding per item that carries a command or is not verb + object; the template's own text is
 * the skeleton check's to report.
 */
function checkSnapshotNext(doc: StateDoc): Check[] {
  const info = doc.meta.snapshot as SnapshotInfo | undefined;
  const items = (info?.data as { next?: unknown } | null | undefined)?.next;
  if (!info || !Array.isArray(items) || items.length === 0)
    return [
      mk('S1', 'snapshot-next', 'warn', 'skip', t('No snapshot `next` items to look at.'), { path: doc.relPath }),
    ];
  const out: Check[] = [];
  const hint = t(
    'Keep each `next` item to verb + object ("wire exportCsv into the Export button"); the command stays in the prose.',
  );
  let looked = 0;
  items.forEach((x, k) => {
    const line = info.next?.itemLines[k] ?? info.line;
    const text = typeof x === 'string' ? x : typeof x === 'number' ? String(x) : '';
    if (text && isTemplateText(text)) return;
    looked++;
    const cmd = text ? snapshotCommand(text) : null;
    const said = cmd
      ? t('Snapshot: next item {0} carries a command ({1}); the block keeps verb + object only.', k + 1, clip(cmd, 60))
      : isVerbObject(text)
        ? null
        : t('Snapshot: next item {0} is not verb + object: "{1}".', k + 1, clip(text || JSON.stringify(x), 60));
    if (said) out.push(mk('S1', 'snapshot-next', 'warn', false, said, { path: doc.relPath, line }, hint));
  });
  // Only the template's own items: nothing of the session's to judge (the skeleton check reports the template).
  if (looked === 0)
    return [
      mk('S1', 'snapshot-next', 'warn', 'skip', t('The snapshot `next` items are still template text.'), {
        path: doc.relPath,
        line: info.line,
      }),
    ];
  return out.length
    ? out
    : [
        mk('S1', 'snapshot-next', 'warn', true, t('Every snapshot `next` item is verb + object, without a command.'), {
          path: doc.relPath,
          line: info.line,
        }),
      ];
}

/** Phase 2.3 "Insertion location": the block goes right after the front matter, before the title line. */
function snapshotMisplaced(doc: StateDoc, info: SnapshotInfo): Check | null {
  const lines = doc.text.split('\n');
  let fmEnd = 0;
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (close > 0) fmEnd = close + 1;
  }
  const title = doc.sections.find((s) => s.level === 1);
  const before = lines.slice(fmEnd, info.line - 1).filter((l) => l.trim() !== '' && !/^\s*<!--.*-->\s*$/.test(l));
  if (before.length === 0 && (!title || title.line > info.line)) return null;
  const msg =
    title && title.line < info.line
      ? t(
          "The state-snapshot v1 block sits after the title (line {0}): S1's handoff format puts it right after the front matter, before the title.",
          title.line,
        )
      : t(
          "The state-snapshot v1 block sits below other text (line {0}): S1's handoff format puts it right after the front matter, before the title.",
          fmEnd + lines.slice(fmEnd).findIndex((l) => l.trim() !== '') + 1,
        );
  return mk(
    'S1',
    'snapshot',
    'warn',
    false,
    msg,
    { path: doc.relPath, line: info.line },
    t('Move the block up, directly below the front matter (or to the top when there is none).'),
  );
}

function checkCompression(doc: StateDoc): Check {
  const info = doc.meta.snapshot as SnapshotInfo | undefined;
  if (!info || info.blockBytes === 0)
    return mk('S1', 'compression', 'warn', 'skip', t('No snapshot block to measure.'), { path: doc.relPath });
  // A block that holds nothing of the session's (the template's ctx, no next item of its own) measures nothing.
  const data = info.data;
  const own = (x: unknown) => typeof x === 'string' && x.trim() !== '' && !isTemplateText(x);
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const { ctx, next } = data as { ctx?: unknown; next?: unknown };
    if (!own(ctx) && !(Array.isArray(next) ? next.some(own) : own(next)))
      return mk('S1', 'compression', 'warn', 'skip', t('The snapshot block is still template text.'), {
        path: doc.relPath,
        line: info.line,
      });
  }
  const ratio = info.proseBytes / info.blockBytes;
  const x = ratio.toFixed(1);
  const msg =
    ratio >= 2
      ? t(
          '[Memento] prose: {0} bytes → compact block: {1} bytes ({2}x reduction).',
          info.proseBytes,
          info.blockBytes,
          x,
        )
      : t(
          '[Memento] prose: {0} bytes → compact block: {1} bytes ({2}x reduction): under 2x.',
          info.proseBytes,
          info.blockBytes,
          x,
        );
  return mk(
    'S1',
    'compression',
    'warn',
    ratio >= 2,
    msg,
    { path: doc.relPath, line: info.line },
    t('Shorten next/diff entries in the block: verb + object only, no descriptions.'),
  );
}

// ---------------------------------------------------------------------------------------------
// Phase 2 rules, Phase 3.9 clarity, Phase 4 item 6, Error Recovery missing_data

/** Words that say an item is finished (English, Korean, Japanese, Chinese). */
const FINISHED_WORD =
  '(?:done|complete|completed|finished|resolved|fixed|shipped|merged|closed|완료|해결|完了|解決|済み?|已完成|完成)';
/**
 * An item marked as completed, in the spellings handoffs use: a ticked box (`[x]`, read as the
 * item's `done` flag), a check mark (✅ ✔ ☑) at its start or end, a trailing `— DONE` / `- done`,
 * `(done)` or `(completed in <sha>)`, `completed in <sha>` / `fixed in <sha>` anywhere, a leading
 * `DONE:`, or the whole item struck through. "done when the tests pass" is a success criterion, not
 * a completion.
 */
const COMPLETED_MARKS: readonly RegExp[] = [
  /^\s*(?:\*\*)?(?:✅|✔️?|☑️?|✓)/u,
  /(?:✅|✔️?|☑️?|✓)(?:\*\*)?\s*$/u,
  /^\s*~~[^~].*~~\s*$/u,
];
/** Every spelling below that names a finished word holds one of these (see `mayHold`). */
const COMPLETED_WORDS = [
  ...['done', 'complete', 'finished', 'resolved', 'fixed', 'shipped', 'merged', 'closed', 'landed'],
  ...['완료', '해결', '完了', '解決', '済', '完成'],
];
const COMPLETED_RES: readonly RegExp[] = [
  new RegExp(
    `(?:^|\\s)[—–-]+\\s*(?:\\*\\*|__)?${FINISHED_WORD}(?:\\*\\*|__)?(?!\\s+(?:when|if|once|after|before|by)\\b)(?=$|[\\s.,;:!)(])`,
    'iu',
  ),
  // Tried only on the text up to its last closing parenthesis (see `isCompletedItem`).
  new RegExp(`[(（]\\s*${FINISHED_WORD}(?:\\s+(?:in|at|by|on|with)\\b[^)）]*)?[)）]`, 'iu'),
  /\b(?:completed|done|fixed|resolved|shipped|merged|landed)\s+(?:in|at|by)\s+(?:commit\s+)?`?[0-9a-f]{7,40}\b/iu,
  new RegExp(`^\\s*(?:\\*\\*|__)?${FINISHED_WORD}(?:\\*\\*|__)?\\s*[:：]`, 'iu'),
];

/** The item is marked as completed (see COMPLETED_RES). */
export function isCompletedItem(i: Item): boolean {
  return (
    i.flags.includes('done') ||
    COMPLETED_MARKS.some((re) => re.test(i.text)) ||
    (mayHold(i.text, COMPLETED_WORDS) &&
      COMPLETED_RES.some((re, k) => re.test(k === 1 ? upToLastClose(i.text) : i.text)))
  );
}

/**
 * The text up to its last closing parenthesis: a `(done in …)` aside ends at one, so it matches there
 * as in the whole text, while an opening after the last `)` can match nothing. Tried on the whole text,
 * the pattern's `[^)）]*` scanned to the end again from each `(done in` that no parenthesis closes: an
 * item of 22,000 of them took 1.6 s.
 */
function upToLastClose(text: string): string {
  return text.slice(0, Math.max(text.lastIndexOf(')'), text.lastIndexOf('）')) + 1);
}

/** Rule 1 and the Scope Boundary: completed items are deleted from "What to do now", never kept. */
function checkCompletedItems(doc: StateDoc): Check[] {
  const nexts = sectionsOf(doc, 'next');
  if (nexts.length === 0)
    return [mk('S1', 'completed-items', 'warn', 'skip', t('No "What to do now" section.'), { path: doc.relPath })];
  // "Completed items are deleted": the sections that list what is still to do or decide.
  const open = [...nexts, ...sectionsOf(doc, 'pending'), ...sectionsOf(doc, 'issues')];
  const done = open.flatMap((s) => s.items.filter(isCompletedItem).map((i) => ({ s, i })));
  if (done.length === 0)
    return [
      mk('S1', 'completed-items', 'warn', true, t('No completed item left under "{0}".', nexts[0].title), {
        path: doc.relPath,
        line: nexts[0].line,
      }),
    ];
  return done.map(({ s, i }) =>
    mk(
      'S1',
      'completed-items',
      'warn',
      false,
      t(
        'Completed item "{1}" is still under "{0}". Completed items are deleted, not kept.',
        clip(s.title, 60),
        clip(i.text, 80),
      ),
      { path: doc.relPath, line: i.line },
      t('Delete it: git history and context-log.md keep what was done.'),
    ),
  );
}

/** Tools a bare one-word code span may name as a command (`make`, `pytest`). */
const ONE_WORD_COMMANDS = /^(?:make|pytest|tox|nox|just|cargo|npm|yarn|pnpm|bun|ls|pwd|tsc|jest|vitest|rspec|phpunit)$/;

/** A code span that reads as a command: a program (word or path) followed by arguments, `$ …`, or a known one-word tool. `exportCsv(rows)` and `src/a.ts` are not commands. */
function commandSpan(code: string): boolean {
  const c = code.trim().replace(/^\$\s*/, '');
  if (ONE_WORD_COMMANDS.test(c)) return true;
  const m = /^(\S+)\s+\S/.exec(c);
  return !!m && /^(?:\.{0,2}\/)?[\w@.+-]+(?:\/[\w@.+-]+)*$/.test(m[1]) && !/[()]/.test(m[1]);
}

/** The lines of item 1: its own line through the line before the next top-level item of its section. */
function itemLines(doc: StateDoc, next: S1Next): string[] {
  const later = next.section.items.filter((i) => (i.depth ?? 0) === 0 && i.line > next.item.line).map((i) => i.line);
  const end = later.length ? Math.min(...later) - 1 : next.section.endLine;
  return doc.text.split('\n').slice(next.item.line - 1, end);
}

/**
 * A line that opens a code fence (a quote's `>` allowed before it). Tested line by line: the same as
 * /^\s*(?:>\s*)?(?:`{3,}|~{3,})/m over the whole text (the last line start before a fence is one this
 * pattern matches from whenever any is), whose `\s*` crossed line breaks and so scanned a run of blank
 * lines again from each of its lines: an item of 50,000 lines of blanks held check 5.8 s.
 */
const FENCE_LINE = /^\s*(?:>\s*)?(?:`{3,}|~{3,})/;

/** Phase 2 template: "1. [Most urgent] — include execution command". A fenced block, `$ cmd` or a command code span under item 1 counts. */
function checkNextCommand(doc: StateDoc, next: S1Next | null): Check {
  if (!next)
    return mk('S1', 'next-command', 'warn', 'skip', t('No item 1 under "What to do now" (see next-action).'), {
      path: doc.relPath,
    });
  const text = itemLines(doc, next).join('\n');
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  const cmd = text.split(/[\n\r\u2028\u2029]/).some((l) => FENCE_LINE.test(l))
    ? 'a code block'
    : (spans.find(commandSpan) ?? (/(?:^|\s)\$\s+\S/.test(text) ? '$ …' : null));
  return withGaps(
    mk(
      'S1',
      'next-command',
      'warn',
      cmd !== null,
      cmd !== null
        ? t('Item {0} carries its execution command ({1}).', next.number, clip(cmd, 60))
        : t('No execution command in item {0} of "{1}".', next.number, clip(next.section.title, 60)),
      { path: doc.relPath, line: next.item.line },
      t(
        'Add the exact command that starts it, e.g. `npm test -- invoices` (S1\'s handoff format: "[Most urgent] — include execution command").',
      ),
    ),
    cmd !== null ? [] : [NEXT_GAP],
  );
}

/** Items of a section that are real content (not the seed's template text). */
function hasContent(doc: StateDoc, key: string): boolean {
  return sectionsOf(doc, key).some((s) => s.items.some((i) => !isTemplateText(i.text)));
}

/**
 * Phase 3.9, read mechanically. The writer's own `HANDOFF_CLARITY_LOW` tag is reported as written.
 * Q1 "can a reader understand what was done this session?": something says where the work stands —
 * Current work status, System understanding, or the snapshot's ctx / diff (the handoff may not
 * list done items, Invariant 2). Q2 "can the next session know what to do first?": item 1 of
 * What to do now exists and is concrete.
 */
function checkClarity(doc: StateDoc, next: S1Next | null): Check[] {
  const lines = doc.text.split('\n');
  const tagAt = lines.findIndex((l) => /HANDOFF_CLARITY_LOW/.test(l));
  const info = doc.meta.snapshot as SnapshotInfo | undefined;
  const q1 =
    hasContent(doc, 'status') ||
    hasContent(doc, 'understanding') ||
    (!!info && (info.counts.ctxWords > 0 || info.counts.diff > 0));
  const q2 = !!next && !isTemplateText(next.item.text) && !isVagueAction(next.item.text);
  // Each failing condition is a finding of its own. Q2 is item 1 wanting, the gap next-action says.
  const fails: Array<{ m: Msg; gaps: string[] }> = [];
  if (tagAt >= 0)
    fails.push({ m: t("HANDOFF_CLARITY_LOW: the handoff carries the writer's ⚠️ HANDOFF_CLARITY_LOW tag."), gaps: [] });
  if (!q1)
    fails.push({
      m: t(
        'HANDOFF_CLARITY_LOW: Q1 fails: nothing says what was done or where the work stands (no Current work status, System understanding, or snapshot ctx/diff).',
      ),
      gaps: [],
    });
  if (!q2)
    fails.push({
      m: t(
        'HANDOFF_CLARITY_LOW: Q2 fails: the next session cannot tell what to do first (no concrete item 1 under What to do now).',
      ),
      gaps: [NEXT_GAP],
    });
  const hint = t(
    'Rewrite the handoff once: say where the work stands (Current work status, System understanding) and put the first concrete action, with its command, as item 1.',
  );
  if (fails.length === 0)
    return [
      mk(
        'S1',
        'clarity',
        'warn',
        true,
        t('Handoff clarity: both anchor questions answered.'),
        { path: doc.relPath },
        hint,
      ),
    ];
  const line = tagAt >= 0 ? tagAt + 1 : (next?.item.line ?? 1);
  return fails.map((f) => withGaps(mk('S1', 'clarity', 'warn', false, f.m, { path: doc.relPath, line }, hint), f.gaps));
}

/** Error Recovery `missing_data`: MEMORY.md and context-log.md are Phase 3's storage targets; the seed creates them (empty template) when missing. */
/**
 * The handoff exists. Without it, what is there (MEMORY.md, context-log.md, lessons) and what is
 * missing are said together: the memory stores are Phase 3's targets, the handoff is what the next
 * session starts from ("Next session should be able to start by reading this one file alone").
 */
function handoffExists(loaded: Loaded): Check {
  if (loaded.home) return checkExists('S1', loaded.home, loaded.homeRel);
  const present = loaded.docs.map((d) => d.relPath);
  if (present.length === 0) return checkExists('S1', null, loaded.homeRel);
  return mk(
    'S1',
    'exists',
    'block',
    false,
    t(
      'No handoff: {0} is missing ({1} present). The next session starts from the handoff alone.',
      loaded.homeRel,
      present.join(', '),
    ),
    { path: loaded.homeRel },
    t(
      "Run the session checkpoint so the agent writes {0}: What to do now, Pending decisions, Outstanding issues, System understanding, User's current interests.",
      loaded.homeRel,
    ),
  );
}

function checkMissingData(loaded: Loaded): Check {
  const missing = [
    docOf(loaded, 'memory') ? '' : 'MEMORY.md',
    docOf(loaded, 'contextLog') ? '' : 'context-log.md',
  ].filter(Boolean);
  const msg =
    missing.length === 0
      ? t('MEMORY.md and context-log.md exist.')
      : missing.length === 1
        ? t(
            'missing_data: {0} not found (next to {1} or at the root); Phase 3 has nowhere to save.',
            missing[0],
            loaded.homeRel,
          )
        : t(
            'missing_data: {0} and {1} not found (next to {2} or at the root); Phase 3 has nowhere to save.',
            missing[0],
            missing[1],
            loaded.homeRel,
          );
  const dir = path.posix.dirname(loaded.homeRel);
  return mk(
    'S1',
    'missing-data',
    'warn',
    missing.length === 0,
    msg,
    missing.length ? { path: `${dir}/${missing[0]}` } : {},
    missing.length > 1
      ? t(
          "Create the missing files with an empty template, then re-run the checkpoint (S1's Error Recovery for missing_data).",
        )
      : t(
          "Create the missing file with an empty template, then re-run the checkpoint (S1's Error Recovery for missing_data).",
        ),
  );
}

/** Phase 4 item 6: "Did you review STATE.md update? (skip OK if no changes)", asked only when `~/.claude/STATE.md` exists. */
export async function stateReviewed(ws: Workspace): Promise<Check[]> {
  const file = path.join(claudeHome({ claudeHome: ws.options.claudeHome }), 'STATE.md');
  const st = statOrNullSync(file);
  if (!st || !st.isFile()) return [];
  const confirmed = new Set(ws.options.confirmed ?? []);
  const done = confirmed.has('state-reviewed') || confirmed.has('S1:state-reviewed');
  return [
    {
      id: 'state-reviewed',
      system: 'S1',
      severity: 'manual',
      status: done ? 'manual-done' : 'manual-open',
      ...said(stateReviewedSaid(file)),
    },
  ];
}

/** The words of the manual item `state-reviewed` for the user's `STATE.md` at `file`. */
export const stateReviewedSaid = (file: string): Msg =>
  t(
    "You reviewed {0} for this session's changes (PENDING items met, blockers resolved, milestones); skip is OK if nothing changed.",
    file,
  );

function docOf(loaded: Loaded, role: StateDoc['role']): StateDoc | null {
  return loaded.docs.find((d) => d.role === role && d !== loaded.home) ?? null;
}

/**
 * Phase 2 "Required sections": What to do now, Pending decisions (each with `urgency: H/M/L`),
 * Outstanding issues (each with `risk: H/M/L`), System understanding and User's current interests.
 * Current work status may be omitted ("If none, this section can be omitted").
 */
function templateParts(doc: StateDoc): TemplatePart[] {
  const parts: TemplatePart[] = [
    sectionPart(doc, '## What to do now', sectionsOf(doc, 'next'), isTemplateText),
    // "None" or "N/A" is what the section says when nothing is pending or open: filled, not template text.
    pendingPart(doc),
    sectionPart(doc, '## Outstanding issues', sectionsOf(doc, 'issues'), templateNotNone),
    sectionPart(doc, '## System understanding', sectionsOf(doc, 'understanding'), isTemplateText),
    sectionPart(doc, "## User's current interests", sectionsOf(doc, 'interests'), isTemplateText),
  ];
  const tagged = (key: string, tag: string, re: RegExp): void => {
    for (const it of sectionsOf(doc, key).flatMap((x) => x.items)) {
      if ((it.depth ?? 0) !== 0 || isTemplateText(it.text) || opensWithNone(it.text)) continue;
      parts.push({
        name: t('{0} on "{1}"', tag, clip(plainText(it.text), 50)),
        state: re.test(it.text) ? 'filled' : 'missing',
        path: doc.relPath,
        line: it.line,
      });
    }
  };
  tagged('pending', 'urgency: H/M/L', /\burgency\s*[:：]\s*[HML]\b/i);
  tagged('issues', 'risk: H/M/L', /\brisk\s*[:：]\s*[HML]\b/i);
  return parts;
}

/**
 * Pending decisions as a part of the template: the gap pending-recorded names too, said by this part
 * alone, with its fix ("none" written in it is filled).
 */
function pendingPart(doc: StateDoc): TemplatePart {
  const p = sectionPart(doc, '## Pending decisions', sectionsOf(doc, 'pending'), templateNotNone);
  return {
    ...p,
    gaps: [PENDING_GAP],
    hint:
      p.state === 'missing'
        ? t('Add a {0} section, or write "none" in it when nothing is pending.', 'Pending decisions')
        : t('List what is pending, or write "none" explicitly.'),
  };
}

function handoffSkeleton(handoff: StateDoc): Check {
  return checkNotSkeleton('S1', handoff, ['title', 'snapshot'], isTemplateText);
}

/** S1's `not-skeleton` alone, as analyseS1 makes it (none without a readable handoff). */
export function skeletonS1(loaded: Loaded<S1Extra>): Check[] {
  const readable = readableDoc(loaded.home);
  return readable ? [handoffSkeleton(readable)] : [];
}

/** What S1 gives a fresh context, as analyseS1 finds it: its attestation (said at every start), the next action and the resume prompt. */
export async function resumeS1(ws: Workspace, loaded: Loaded<S1Extra>): Promise<Analysis> {
  const readable = readableDoc(loaded.home);
  return s1Resume([await attestation(ws, loaded, readable)], loaded.homeRel, readable ? s1NextAction(readable) : null);
}

function s1Resume(checks: Check[], homeRel: string, next: S1Next | null): Analysis {
  const where = next ? `item ${next.number} of "${next.section.title}"` : 'its first action';
  return {
    checks,
    next: next ? next.item.text : null,
    unconfirmed: [],
    resumePrompt: resumePrompt('S1', homeRel, where),
  };
}

/** S1's checks at every session start: its attestation. */
export async function startChecksS1(ws: Workspace, loaded: Loaded<S1Extra>): Promise<Check[]> {
  return [await attestation(ws, loaded, readableDoc(loaded.home))];
}

async function attestation(ws: Workspace, loaded: Loaded<S1Extra>, readable: StateDoc | null): Promise<Check> {
  return (await checkAttestation(ws, readable, loaded.extra?.sidecar ?? `memory/${S1_SIDECAR}`)).check;
}

/** S1's checks, next action and resume prompt. */
export async function analyseS1(ws: Workspace, loaded: Loaded<S1Extra>): Promise<Analysis> {
  const strays = loaded.extra?.strays ?? [];
  const checks: Check[] = [handoffExists(loaded), ...checkSingleHandoff(loaded.homeRel, strays)];
  const readable = readableDoc(loaded.home);
  let next: S1Next | null = null;
  if (readable) {
    next = s1NextAction(readable);
    const skeleton = handoffSkeleton(readable);
    checks.push(
      skeleton,
      ...checkTemplate('S1', readable.relPath, templateParts(readable), skeleton.status === 'fail'),
    );
    checks.push(checkS1NextAction(readable, next));
    checks.push(checkPending('S1', realItems(sectionsOf(readable, 'pending')[0]), readable, 'Pending decisions'));
    checks.push(await checkFresh('S1', ws, readable));
    checks.push(await checkWorkExplained('S1', ws, [readable], readable.relPath));
    checks.push(
      checkBudget('S1', readable, { maxLines: S1_FACTS.budgets.lines, lineCounting: S1_FACTS.budgets.lineCounting }),
    );
    checks.push(...checkFutureOriented(readable));
    checks.push(...checkSnapshot(readable), ...checkSnapshotNext(readable));
    checks.push(checkCompression(readable));
    checks.push(...checkCompletedItems(readable), checkNextCommand(readable, next), ...checkClarity(readable, next));
  }
  checks.push(checkMissingData(loaded));
  const memory = docOf(loaded, 'memory');
  const keyFiles = sectionsOf(memory, 'key-files');
  checks.push(
    ...(memory && keyFiles.length
      ? await checkStalePaths('S1', ws, refsInSections(memory, keyFiles), {
          none: t('No MEMORY.md Key Files paths to verify.'),
          allExist: (n) => t('{0} MEMORY.md Key Files paths checked — all exist.', n),
        })
      : [
          mk(
            'S1',
            'stale-paths',
            'warn',
            'skip',
            memory ? t('No Key Files section in {0}.', memory.relPath) : t('No MEMORY.md.'),
            { path: memory?.relPath },
          ),
        ]),
  );
  checks.push(await attestation(ws, loaded, readable));
  checks.push(
    ...checkLessons(docOf(loaded, 'lessons'), ws.now),
    ...(docOf(loaded, 'lessons') ? checkLessonMeta(docOf(loaded, 'lessons')) : []),
    ...checkHookCandidates(docOf(loaded, 'lessons')),
  );
  checks.push(...checkContextLog(docOf(loaded, 'contextLog'), ws.now));
  markVerdicts(loaded, ws.now);
  checks.push(...checkNoSecrets('S1', loaded.docs));
  checks.push(...(await stateReviewed(ws)));
  return s1Resume(checks, loaded.homeRel, next);
}

// ---------------------------------------------------------------------------------------------
// Lessons and context log

function flag(it: Item, name: string): string | undefined {
  const f = it.flags.find((x) => x.startsWith(`${name}:`));
  return f?.slice(name.length + 1);
}

const DAY_MS = 86_400_000;

/** Whole days from `day` (ms) to `now` (ms). */
function daysSince(day: number, now: number): number {
  return Math.floor((now - day) / DAY_MS);
}

/** A lesson's meta line is an archive candidate: confidence below the archive threshold and last seen more than its days before `now`. */
export function isArchiveCandidate(meta: Item, now: number): boolean {
  const conf = flag(meta, 'conf');
  const day = parseDay(flag(meta, 'seen') ?? '');
  return (
    conf !== undefined &&
    Number(conf) < CURATION.archive.conf &&
    day !== null &&
    daysSince(day, now) > CURATION.archive.days
  );
}

/** A context-log entry is past its TTL: more than `ttl:Nd` days between its date and `now` (`permanent` never expires). */
export function isExpired(entry: Item, now: number): boolean {
  const day = parseDay(flag(entry, 'date') ?? '');
  const days = /^(\d+)d$/.exec(flag(entry, 'ttl') ?? '');
  return day !== null && !!days && daysSince(day, now) > Number(days[1]);
}

/** A context-log entry referenced often enough (`ref:N`) is a MEMORY.md promotion candidate. */
export function isPromotionCandidate(entry: Item): boolean {
  const ref = flag(entry, 'ref');
  return ref !== undefined && Number(ref) >= CURATION.promoteRefs;
}

/**
 * The verdicts on the memory stores' entries, put on the items as flags (`archive`, `expired`,
 * `promote`) so that every view of the document shows what the checks found. Idempotent.
 */
function markVerdicts(loaded: Loaded, now: number): void {
  const mark = (it: Item, name: string, yes: boolean) => {
    if (yes && !it.flags.includes(name)) it.flags.push(name);
  };
  for (const s of docOf(loaded, 'lessons')?.sections ?? [])
    for (const it of s.items) mark(it, 'archive', isArchiveCandidate(it, now));
  for (const s of docOf(loaded, 'contextLog')?.sections ?? []) {
    for (const it of s.items) {
      if (flag(it, 'date') === undefined) continue;
      mark(it, 'expired', isExpired(it, now));
      mark(it, 'promote', isPromotionCandidate(it));
    }
  }
}

/** At most this many candidates are named one by one; the rest are counted in one more finding. */
const NAMED = 5;

export function checkLessons(doc: StateDoc | null, now: number): Check[] {
  if (!doc) return [mk('S1', 'lessons', 'info', 'skip', t('No tasks/lessons.md.'))];
  if (!doc.text)
    return [mk('S1', 'lessons', 'info', 'skip', t('{0} cannot be read.', doc.relPath), { path: doc.relPath })];
  const lessons = doc.sections.filter((s) => s.key === 'lesson');
  const metas = lessons.flatMap((s) =>
    s.items
      .filter((i) => flag(i, 'conf') !== undefined)
      .slice(0, 1)
      .map((i) => ({ s, i })),
  );
  const noSeen = metas.filter(({ i }) => flag(i, 'seen') === undefined).length;
  const archive = metas.filter(({ i }) => isArchiveCandidate(i, now));
  const headed = doc.sections.filter((s) => s.level >= 3 && s.key !== 'lesson').length;
  if (archive.length === 0) {
    const n = metas.length;
    // Counts after a label ("Lessons …: 1"): one sentence reads right for every count, in every language.
    const msg =
      noSeen && headed
        ? t(
            'Lessons with conf/seen/obs meta: {0} ({1} without seen:); headings without a meta line: {2}; no archive candidates.',
            n,
            noSeen,
            headed,
          )
        : noSeen
          ? t('Lessons with conf/seen/obs meta: {0} ({1} without seen:); no archive candidates.', n, noSeen)
          : headed
            ? t(
                'Lessons with conf/seen/obs meta: {0}; headings without a meta line: {1}; no archive candidates.',
                n,
                headed,
              )
            : t('Lessons with conf/seen/obs meta: {0}; no archive candidates.', n);
    return [mk('S1', 'lessons', 'info', true, msg, { path: doc.relPath })];
  }
  // One finding per candidate (its own line), the ones past the first few counted in one more.
  const hint = t("Move them to tasks/_archive/lessons-pre-YYYY-MM.md (S1's monthly cleanup).");
  return namedThenMore(
    archive,
    NAMED,
    ({ s, i }) => {
      const seen = flag(i, 'seen') ?? '';
      const msg = t(
        'Archive candidate "{2}": conf < {0} and seen > {1} days ago (conf {3}, seen {4}, {5} days ago).',
        CURATION.archive.conf,
        CURATION.archive.days,
        clip(s.title, 60),
        flag(i, 'conf') ?? '',
        seen,
        daysSince(parseDay(seen) ?? now, now),
      );
      return mk('S1', 'lessons', 'info', false, msg, { path: doc.relPath, line: s.line }, hint);
    },
    (n) => (n === 1 ? t('1 more archive candidate.') : t('{0} more archive candidates.', n)),
  );
}

/** A v2 lesson header: `### [YYYY-MM-DD] title`. */
const LESSON_HEAD_RE = /^\[(\d{4}-\d{2}-\d{2})\]\s*\S/;

/**
 * Phase 1.7 / Phase 3 step 3, the v2 meta line: a lesson headed `### [YYYY-MM-DD] title` (dated on or
 * after the format's start) has `> conf: 0.5 · seen: YYYY-MM-DD · obs: 1` as its first line; conf
 * stays within the floor and ceiling (0.3–0.9: "conf -0.1 (min 0.3)", "max 0.9"), obs is at least 1.
 */
export function checkLessonMeta(doc: StateDoc | null): Check[] {
  if (!doc || !doc.text) return [mk('S1', 'lesson-meta', 'warn', 'skip', t('No readable tasks/lessons.md.'))];
  const since = CURATION.metaSince ?? '0000-00-00';
  const range = CURATION.conf ?? { min: 0, max: 1 };
  const problems: Array<{ msg: Msg; line: number }> = [];
  let n = 0;
  for (const s of doc.sections) {
    const head = s.level >= 2 ? LESSON_HEAD_RE.exec(s.title) : null;
    const first = s.items[0];
    const meta = s.items.find((i) => flag(i, 'conf') !== undefined);
    if (!head && !meta) continue;
    if (head && head[1] < since && !meta) continue;
    n++;
    const title = clip(s.title, 60);
    if (!meta) {
      problems.push({
        msg: t('Lesson "{0}" has no meta line (`> conf: 0.5 · seen: YYYY-MM-DD · obs: 1`) under its header.', title),
        line: s.line,
      });
      continue;
    }
    if (meta !== first)
      problems.push({
        msg: t('Lesson "{0}": its meta line is not the first line under the header.', title),
        line: meta.line,
      });
    const lacks = ['seen', 'obs'].filter((k) => flag(meta, k) === undefined);
    if (lacks.length)
      problems.push({
        msg: t('Lesson "{0}": its meta line lacks {1}.', title, lacks.map((k) => `${k}:`).join(', ')),
        line: meta.line,
      });
    const conf = Number(flag(meta, 'conf'));
    if (!(conf >= range.min && conf <= range.max))
      problems.push({
        msg: t(
          'Lesson "{0}": conf {1} is outside {2}–{3} (a correction stops at the floor {2}; repeats stop at {3}).',
          title,
          flag(meta, 'conf') ?? '',
          range.min,
          range.max,
        ),
        line: meta.line,
      });
    const obs = flag(meta, 'obs');
    if (obs !== undefined && Number(obs) < 1)
      problems.push({
        msg: t('Lesson "{0}": obs {1} (a recorded lesson was observed at least once).', title, obs),
        line: meta.line,
      });
  }
  if (problems.length === 0)
    return [
      mk(
        'S1',
        'lesson-meta',
        'warn',
        true,
        n === 1
          ? t('1 lesson: its meta line holds conf (within {0}–{1}), seen and obs.', range.min, range.max)
          : t('{0} lessons: each meta line holds conf (within {1}–{2}), seen and obs.', n, range.min, range.max),
        {
          path: doc.relPath,
        },
      ),
    ];
  const hint = t(
    'Write `> conf: 0.5 · seen: YYYY-MM-DD · obs: 1` on the line after the header; keep conf between the floor and 0.9.',
  );
  return namedThenMore(
    problems,
    NAMED,
    (p) => mk('S1', 'lesson-meta', 'warn', false, p.msg, { path: doc.relPath, line: p.line }, hint),
    (n) => (n === 1 ? t('1 more lesson meta problem.') : t('{0} more lesson meta problems.', n)),
  );
}

/**
 * Phase 3 step 3, hook-promotion flag: a lesson with conf and obs at or above `curation.hookPromotion` is a candidate for an
 * enforcement hook (whether its violation is machine-detectable is the user's call; the seed flags
 * only). Reported as "Hook-promotion candidate: {lesson title}", one finding per lesson, with
 * `> hook_candidate: true` noted.
 */
function checkHookCandidates(doc: StateDoc | null): Check[] {
  if (!doc || !doc.text) return [mk('S1', 'hook-promotion', 'info', 'skip', t('No readable tasks/lessons.md.'))];
  const cands = doc.sections
    .filter((s) => s.key === 'lesson')
    .map((s) => ({ s, meta: s.items.find((i) => flag(i, 'conf') !== undefined) }))
    .filter(
      (x): x is { s: Section; meta: Item } =>
        !!x.meta &&
        Number(flag(x.meta, 'conf')) >= CURATION.hookPromotion.conf &&
        Number(flag(x.meta, 'obs') ?? 0) >= CURATION.hookPromotion.obs,
    );
  if (cands.length === 0)
    return [
      mk(
        'S1',
        'hook-promotion',
        'info',
        true,
        t(
          'No lesson with conf ≥ {0} and obs ≥ {1}: no hook-promotion candidate.',
          CURATION.hookPromotion.conf,
          CURATION.hookPromotion.obs,
        ),
        { path: doc.relPath },
      ),
    ];
  const hint = t(
    "If the violation is machine-detectable, propose an enforcement hook (flag only: authoring it needs the user's approval) and add `> hook_candidate: true` under the lesson.",
  );
  const tagged = (sec: Section) => sec.items.some((i) => /hook_candidate\s*:\s*true/i.test(i.text));
  return namedThenMore(
    cands,
    NAMED,
    ({ s, meta }) => {
      const [title, conf, obs] = [clip(s.title, 60), flag(meta, 'conf') ?? '', flag(meta, 'obs') ?? ''];
      const msg = tagged(s)
        ? t('Hook-promotion candidate: "{0}" (conf {1}, obs {2}, tagged hook_candidate).', title, conf, obs)
        : t('Hook-promotion candidate: "{0}" (conf {1}, obs {2}).', title, conf, obs);
      return mk('S1', 'hook-promotion', 'info', false, msg, { path: doc.relPath, line: s.line }, hint);
    },
    (n) => (n === 1 ? t('1 more hook-promotion candidate.') : t('{0} more hook-promotion candidates.', n)),
  );
}

function lineList(items: Item[]): string {
  return (
    items
      .slice(0, 5)
      .map((i) => i.line)
      .join(', ') + (items.length > 5 ? ', …' : '')
  );
}

export function checkContextLog(doc: StateDoc | null, now: number): Check[] {
  if (!doc) return [mk('S1', 'context-log', 'info', 'skip', t('No context-log.md.'))];
  if (!doc.text)
    return [mk('S1', 'context-log', 'info', 'skip', t('{0} cannot be read.', doc.relPath), { path: doc.relPath })];
  const entries = doc.sections.flatMap((s) => s.items).filter((i) => i.flags.some((f) => f.startsWith('date:')));
  const expired = entries.filter((i) => isExpired(i, now));
  const promote = entries.filter(isPromotionCandidate);
  const noTtl = entries.filter((i) => !i.flags.some((f) => f.startsWith('ttl:')));
  const out: Check[] = [];
  if (expired.length) {
    out.push(
      mk(
        'S1',
        'context-log',
        'info',
        false,
        entries.length === 1
          ? t('The one entry is past its TTL (line {0}).', lineList(expired))
          : expired.length === 1
            ? t('1 of {0} entries is past its TTL (line {1}).', entries.length, lineList(expired))
            : t(
                '{0} of {1} entries are past their TTL (lines {2}).',
                expired.length,
                entries.length,
                lineList(expired),
              ),
        { path: doc.relPath, line: expired[0].line },
        t('Delete expired entries, or promote the ones still true to MEMORY.md.'),
      ),
    );
  }
  if (promote.length) {
    out.push(
      mk(
        'S1',
        'context-log',
        'info',
        false,
        promote.length === 1
          ? t(
              '1 promotion candidate with ref ≥ {0} (line {1}): review it for MEMORY.md.',
              CURATION.promoteRefs,
              lineList(promote),
            )
          : t(
              '{0} promotion candidates with ref ≥ {1} (lines {2}): review them for MEMORY.md.',
              promote.length,
              CURATION.promoteRefs,
              lineList(promote),
            ),
        { path: doc.relPath, line: promote[0].line },
        t('Move lasting facts into MEMORY.md.'),
      ),
    );
  }
  if (noTtl.length) {
    out.push(
      mk(
        'S1',
        'context-log',
        'info',
        false,
        noTtl.length === 1
          ? t("1 entry has no ttl tag (line {0}); S1's context log makes TTL tagging mandatory.", lineList(noTtl))
          : t(
              "{0} entries have no ttl tag (lines {1}); S1's context log makes TTL tagging mandatory.",
              noTtl.length,
              lineList(noTtl),
            ),
        { path: doc.relPath, line: noTtl[0].line },
        t('Tag each entry `[ttl:90d]`, `[ttl:30d]` or `[ttl:permanent]`.'),
      ),
    );
  }
  if (out.length === 0)
    out.push(
      mk(
        'S1',
        'context-log',
        'info',
        true,
        entries.length === 1
          ? t('1 entry, not past its TTL; no promotion candidates.')
          : t('{0} entries; none past its TTL; no promotion candidates.', entries.length),
        { path: doc.relPath },
      ),
    );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Attestation (Phase 2.4)

/**
 * S1 Phase 2.4 attestation: `memory/.session-handoff.sha256` holds the lowercase hex SHA-256 of the
 * handoff's raw bytes (the sidecar itself has no trailing newline; one is tolerated, as is the
 * `sha256sum` form `<hash>  <file>`). MATCH → pass, TAMPERED → block, NO_SIDECAR → info.
 */

export type Attestation = 'MATCH' | 'TAMPERED' | 'NO_SIDECAR';

/** SHA-256 of a whole file, streamed (for handoffs larger than the read limit). Null on error. */
function hashFile(abs: string): Promise<string | null> {
  return new Promise((resolve) => {
    // Loaded here: a hook that hashes nothing never loads node:crypto.
    const { createHash } = require('node:crypto') as typeof import('node:crypto');
    const h = createHash('sha256');
    const s = createReadStream(abs);
    s.on('data', (c) => h.update(c));
    s.on('error', () => resolve(null));
    s.on('end', () => resolve(h.digest('hex')));
  });
}

export async function checkAttestation(
  ws: Workspace,
  home: StateDoc | null,
  sidecarRel: string,
): Promise<{ check: Check; state: Attestation | null }> {
  const kind = await ws.kind(sidecarRel);
  if (kind === 'missing') {
    return {
      state: 'NO_SIDECAR',
      check: mk(
        'S1',
        'attestation',
        'info',
        false,
        t('NO_SIDECAR: {0} does not exist; the handoff is not attested.', sidecarRel),
        { path: sidecarRel },
        t(
          "Run `{0} attest` (S1's write-receipt: it writes the handoff's SHA-256 to the sidecar), then the checkpoint.",
          PROGRAM,
        ),
      ),
    };
  }
  if (!home || !home.hash)
    return {
      state: null,
      check: mk('S1', 'attestation', 'block', 'skip', t('No readable handoff to attest.'), { path: sidecarRel }),
    };
  const f = await ws.read(sidecarRel);
  const tampered = (why: Msg, line?: number) => ({
    state: 'TAMPERED' as const,
    check: mk(
      'S1',
      'attestation',
      'block',
      false,
      why,
      { path: home.relPath, line },
      t(
        "If you edited {0} yourself, run `{2} attest` (S1's write-receipt) so {1} holds its new SHA-256, then the checkpoint; otherwise restore the handoff from git and find out who changed it.",
        home.relPath,
        sidecarRel,
        PROGRAM,
      ),
    ),
  });
  if (!f.ok) return tampered(sidecarUnreadable(sidecarRel, f));
  const token = f.text.trim().split(/\s+/)[0] ?? '';
  if (!/^[0-9a-fA-F]{64}$/.test(token))
    // Quoted with its secrets masked: a sidecar may hold anything (a key pasted there).
    return tampered(
      t('TAMPERED: {0} does not hold a SHA-256 hex digest ("{1}").', sidecarRel, maskSecrets(token).text.slice(0, 20)),
    );
  const actual = home.findings.some((x) => x.id === 'size') ? await hashFile(home.path) : home.hash;
  if (!actual) return tampered(t('TAMPERED: {0} could not be hashed.', home.relPath));
  if (token.toLowerCase() !== actual) {
    return tampered(
      t(
        'TAMPERED: {0} does not match {1} (sidecar {2}…, file {3}…): it changed after the checkpoint attested it.',
        home.relPath,
        sidecarRel,
        token.slice(0, 12),
        actual.slice(0, 12),
      ),
    );
  }
  const upper = token !== token.toLowerCase();
  const newline = /\n$/.test(f.text);
  const said =
    upper && newline
      ? t(
          'MATCH: {0} matches the SHA-256 of {1} (the sidecar is upper-case hex; the sidecar ends with a newline).',
          sidecarRel,
          home.relPath,
        )
      : upper
        ? t('MATCH: {0} matches the SHA-256 of {1} (the sidecar is upper-case hex).', sidecarRel, home.relPath)
        : newline
          ? t('MATCH: {0} matches the SHA-256 of {1} (the sidecar ends with a newline).', sidecarRel, home.relPath)
          : t('MATCH: {0} matches the SHA-256 of {1}.', sidecarRel, home.relPath);
  return { state: 'MATCH', check: mk('S1', 'attestation', 'block', true, said, { path: home.relPath }) };
}
