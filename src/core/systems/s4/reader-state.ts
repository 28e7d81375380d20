/**
 * S4 (checkpointing skill, seed 004) — pure parsing of `.agents/STATE.md`, `PROGRESS.md` and the
 * checkpoint files, no I/O.
 *
 * Exports for other modules (state compaction builds on these):
 * - `readS4Structure(outline)`: the lines of every `# Agent State` and `## Progress Tracker`
 *   heading, and every `## Current Project|Feature|Bug Fix` block in document order with its kind,
 *   title as written, name (the text after the colon), `orchestra:block-id`, heading line and
 *   `endLine` (inclusive: the line before the next heading of level 1 or 2, or the last line; a
 *   trailing `---` separator and blank lines fall inside it). Within one kind the last block in
 *   document order is the newest (blocks are appended); `newestOfKind` marks it.
 * - `readProgressEntries(outline)`: the `##` entries of PROGRESS.md (checkpoint summaries, newest
 *   first) with their timestamp, link and line range.
 * - `parseS4State`, `parseProgress`, `parseCheckpoint`: the `StateDoc` contents; `meta.s4`,
 *   `meta.entries`, `meta.frontMatter` carry the structures above.
 */
import { linesInDocument, readYaml } from '../../markdown/yaml-tree';
import { headingEnds, sectionize, type MdOutline } from '../../markdown/markdown';
import type { SectionKey } from '../../model/model';
import { matchKey, normalizeTitle, withNames, type KeyTable } from '../../markdown/sections';
import type { ParsedContent } from '../../model/workspace';

export type S4BlockKind = 'project' | 'feature' | 'bugfix';

export interface S4Block {
  kind: S4BlockKind;
  /** Heading text as written, e.g. `Current Bug Fix: framewebforjs-results-not-displayed`. */
  title: string;
  /** The text after the colon (may be empty). */
  name: string;
  /** From `<!-- orchestra:block-id: … -->` inside the block, else null. */
  blockId: string | null;
  line: number;
  endLine: number;
  /** The last block of its kind in document order: the one compaction keeps. */
  newestOfKind: boolean;
}

export interface S4Structure {
  /** Lines of the `# Agent State` headings (exactly one is valid). */
  agentState: number[];
  /** Lines of the `## Progress Tracker` headings (exactly one is valid). */
  progressTracker: number[];
  blocks: S4Block[];
}

const KIND_RE = /^current\s+(project|feature|bug\s*-?\s*fix)\b/;

export function blockKind(title: string): S4BlockKind | null {
  const m = KIND_RE.exec(normalizeTitle(title));
  if (!m) return null;
  return m[1].startsWith('bug') ? 'bugfix' : (m[1] as S4BlockKind);
}

export function readS4Structure(outline: MdOutline): S4Structure {
  const { headings, lines } = outline;
  const agentState = headings
    .filter((h) => h.level === 1 && normalizeTitle(h.title) === 'agent state')
    .map((h) => h.line);
  const progressTracker = headings
    .filter((h) => h.level === 2 && normalizeTitle(h.title) === 'progress tracker')
    .map((h) => h.line);
  const blocks: S4Block[] = [];
  const ends = headingEnds(outline, 2);
  headings.forEach((h, i) => {
    const kind = h.level === 2 ? blockKind(h.title) : null;
    if (!kind) return;
    const endLine = ends[i];
    let blockId: string | null = null;
    for (let l = h.line; l < endLine && l <= lines.length; l++) {
      const m = /<!--\s*orchestra:block-id:\s*(\S{1,200}?)\s*-->/.exec(lines[l]);
      if (m) {
        blockId = m[1];
        break;
      }
    }
    const colon = h.title.search(/[:：]/);
    blocks.push({
      kind,
      title: h.title,
      name: colon >= 0 ? h.title.slice(colon + 1).trim() : '',
      blockId,
      line: h.line,
      endLine,
      newestOfKind: false,
    });
  });
  for (const kind of ['project', 'feature', 'bugfix'] as const) {
    const of = blocks.filter((b) => b.kind === kind);
    if (of.length) of[of.length - 1].newestOfKind = true;
  }
  return { agentState, progressTracker, blocks };
}

/** True when the outline has one of S4's headings (Agent State, Progress Tracker, a Current block, Main Agent, Repository Identity). */
export function hasS4Headings(outline: MdOutline): boolean {
  return outline.headings.some((h) => {
    const t = normalizeTitle(h.title);
    return (
      (h.level === 1 && t === 'agent state') ||
      (h.level === 2 &&
        (t === 'progress tracker' || t === 'main agent' || t === 'repository identity' || !!blockKind(h.title)))
    );
  });
}

/**
 * Subsection keys inside Current blocks, PROGRESS entries and checkpoints (the Japanese five-part
 * summary included), by meaning: the corpus's English and Japanese and the same subsections in
 * Chinese, Korean and Russian ("次のステップ", "下一步", "다음 단계", "Следующие шаги", "残りのリスク" …).
 */
export const S4_KEYS: KeyTable = withNames(
  [
    ['title', /^agent state$/],
    ['agent', /^main agent\b/],
    ['identity', /^repository identity\b/],
    ['tracker', /^progress tracker\b/],
    ['current', KIND_RE],
    [
      'next',
      /^(?:next(?: steps?| actions?)?\b|future actions?\b|follow[- ]?ups?\b|todo\b|将来のアクション|次のアクション|次にやること|今後のアクション|次のステップ)|^次|^下一步|^接下来|^后续|^다음|^следующ|^дальнейш/u,
    ],
    [
      'open',
      /(?:risks?|remaining|open questions?|blockers?|pending|未解決|懸念|リスク|ブロッカー|风险|未决|阻塞|위험|미해결|블로커)|^риск|^блокер|^(?:открытые )?вопрос/u,
    ],
    ['issues', /(?:課題|^issues?\b|^problems?\b|^challenges?\b|问题|문제|이슈)|^проблем/u],
    [
      'done',
      /^(?:何をしたのか|what (?:was|we) did\b|what was done\b|what changed\b|done\b|summary\b)|(?<!未)完了|^已完成|(?<!미)완료|^(?:что )?сделано/u,
    ],
    ['interactions', /(?:やり取り|^interactions?\b|^conversation\b)/],
    ['how', /^(?:どうやったのか|how\b)|^如何|^방법|^как /u],
    ['verified', /(?:validation|verified|verification|検証|验证|검증)|^провер|^валидац/u],
    ['decisions', /^decisions?\b|決定|决策|决定|결정|^решени/u],
    ['context', /^context\b|背景|上下文|배경|맥락|^контекст/u],
    ['plan', /^(?:fix approach|approach|plan)\b|方針|方案|计划|계획|^план|^подход/u],
    ['understanding', /^(?:architecture|integration points)\b|アーキテクチャ|架构|아키텍처|^архитектур/u],
  ],
  // The seed's structure (`# Agent State`, Main Agent, Repository Identity, Progress Tracker) and its
  // Japanese five-part summary, with the English subsections the corpus's state files write.
  {
    title: ['agent state'],
    agent: ['main agent'],
    identity: ['repository identity'],
    tracker: ['progress tracker'],
    done: ['何をしたのか', 'what was done'],
    how: ['どうやったのか'],
    interactions: ['どういうやり取りをユーザーと行ったのか'],
    issues: ['途中でどういう課題が起こったのか'],
    next: ['将来のアクション', 'next steps', 'next actions'],
    open: ['open questions'],
    decisions: ['decisions'],
    context: ['context'],
  },
);

/** Next-step wording inside a block's items, in the corpus's English and Japanese. */
export const NEXT_STEP_RE =
  /\bnext (?:step|action|session|implementation step|task)s?\b|\bnext:|次(?:の)?セッション|次回|次の(?:作業|手順|ステップ)|次は/i;

/** The sentence of `text` that carries the next-step wording (a Japanese `。` or an English `. ` ends a sentence). */
export function nextSentence(text: string): string {
  const parts = text.split(/(?<=。)|(?<=[.!?])\s+(?=[A-Z])/);
  return (parts.find((p) => NEXT_STEP_RE.test(p)) ?? text).trim();
}

export function parseS4State(_text: string, outline: MdOutline): ParsedContent {
  const s4 = readS4Structure(outline);
  const sections = sectionize(outline, (t) => matchKey(t, S4_KEYS));
  return { sections, meta: { s4 } };
}

export interface ProgressEntry {
  title: string;
  /** `YYYY-MM-DD` plus the time when the heading has one (`2026-09-18-055240`). */
  timestamp: string | null;
  /** The link target of the heading (the full checkpoint), when it is a link. */
  link: string | null;
  line: number;
  endLine: number;
}

/**
 * The target of the first `](target)` in a heading whose target holds no blank: what /\]\(([^)\s]+)\)/
 * finds, in one pass. Every `](` inside a target that no `)` ends shares that target's end, so the
 * search goes on from there: the pattern scanned it again from each, and a PROGRESS.md heading of
 * 100,000 `](` took 9 s.
 */
export function linkTarget(title: string): string | null {
  for (let at = title.indexOf(']('); at >= 0;) {
    let end = at + 2;
    while (end < title.length && title[end] !== ')' && !/\s/.test(title[end])) end++;
    if (end > at + 2 && title[end] === ')') return title.slice(at + 2, end);
    at = title.indexOf('](', end);
  }
  return null;
}

export function readProgressEntries(outline: MdOutline): ProgressEntry[] {
  const ends = headingEnds(outline, 2);
  const h2 = outline.headings.map((h, i) => ({ h, i })).filter(({ h }) => h.level === 2);
  return h2.map(({ h, i }) => ({
    title: h.title,
    timestamp: /\d{4}-\d{2}-\d{2}(?:[-T _]\d{2}:?\d{2}(?::?\d{2})?)?/.exec(h.title)?.[0] ?? null,
    link: linkTarget(h.title),
    line: h.line,
    endLine: ends[i],
  }));
}

const ENTRY_KEY: SectionKey = 'entry';

export function parseProgress(_text: string, outline: MdOutline): ParsedContent {
  const sections = sectionize(outline, (t, h) =>
    h.level === 2 ? ENTRY_KEY : h.level === 1 ? 'title' : matchKey(t, S4_KEYS),
  );
  return { sections, meta: { entries: readProgressEntries(outline) } };
}

/**
 * A checkpoint file: YAML front matter (read with `yaml`) and the five-part summary. Front matter
 * that does not parse is recorded as `meta.frontMatterError` (the parser's first line and the
 * front matter's line; for a syntax error, its code and the file's line and column it names, what
 * `syntaxMessage` says; `aliases`, how many, when it holds more than are resolved; `refused`, why it
 * is not read, `YamlTree.refused`, at the file's line the refusal names when it names one).
 */
export function parseCheckpoint(_text: string, outline: MdOutline): ParsedContent {
  const meta: Record<string, unknown> = {};
  let secrets: ParsedContent['secrets'] = [];
  let cuts: ParsedContent['cuts'] = [];
  if (outline.frontMatter) {
    try {
      const y = readYaml(outline.frontMatter.text);
      // What its YAML decoded holds secrets the text did not show (a `!!binary` value, an escape): no-secrets
      // names them, at the file's lines (the front matter's text starts on the line after its opening `---`),
      // and the document's text shows them masked where they are written.
      const first = outline.frontMatter.line;
      secrets = y.secrets.map((h) => ({ ...h, line: first + h.line }));
      cuts = linesInDocument(y.cuts, outline.frontMatter.text, outline.lines, first);
      const why = y.error?.message ?? y.data.error;
      const refused = y.error ? undefined : y.data.refused;
      if (why !== null)
        meta.frontMatterError = {
          message: why.split('\n')[0],
          // The front matter's text starts on the line after its opening `---`.
          ...(y.error
            ? { line: outline.frontMatter.line + y.error.line, code: y.error.code, column: y.error.column }
            : { line: outline.frontMatter.line + (y.data.refusedLine ?? 0) }),
          ...(!y.error && y.data.aliases !== undefined ? { aliases: y.data.aliases } : {}),
          ...(refused ? { refused } : {}),
        };
      else meta.frontMatter = y.data.value ?? {};
    } catch (err) {
      meta.frontMatterError = { message: (err as Error).message.split('\n')[0], line: outline.frontMatter.line };
    }
  }
  const sections = sectionize(outline, (t, h) => (h.level === 1 ? 'title' : matchKey(t, S4_KEYS)));
  return {
    sections,
    meta,
    ...(secrets.length ? { secrets } : {}),
    ...(cuts.length ? { cuts } : {}),
    frontMatterRead: true,
  };
}
