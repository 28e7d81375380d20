/**
 * S2 (context-kit "checkpoint", seed 002) — pure parsing of its documents, no I/O.
 *
 * Exports for other modules:
 * - `parseLedger(text, outline)`: the session ledger (or the project state file, which the seed
 *   keeps "the same shape as the ledger") cut into sections at `##` headings only. Text before the
 *   first `##` outside a code fence is the `preamble`; a section name is its first word that starts
 *   with a letter, with `:*_-` removed, case and emoji ignored (TASK NEXT OPEN DECIDED VERIFIED
 *   DROPPED PLAN, as the kit's `ledger-lint.sh` matches them); duplicate sections are merged into
 *   the first one in file order (as `ledger_render.py` merges them) and recorded in
 *   `meta.duplicates`; headings outside the seven words are recorded in `meta.nonCanonical`.
 *   `meta.nextLineCount` counts the written lines of NEXT; `meta.sessionId` is the `_session: <id>_` stamp.
 * - `parseManifest(text)`: `context-manifest.yaml` read with `yaml`, giving the durable stores the
 *   checkpoint reconciles (memory dir, durable_context.project_state / knowledge_docs / curated_ssot)
 *   with their lines, or the parser's error and its line.
 * - `planSpine(text, outline)`: the part of a plan a checkpoint reads (everything above the first
 *   evidence / archive / done section).
 */
import { readYaml, yamlGetIn, yamlHas, yamlHasIn, yamlValue, type YamlNode } from '../../markdown/yaml-tree';
import type { YamlRefusalKind } from '../../markdown/yaml';
import { codePointCount, isPlaceholder, plainText } from '../../markdown/text';
import { sectionize, type MdOutline } from '../../markdown/markdown';
import type { Item, Section, SectionKey } from '../../model/model';
import { matchKey, normalizeTitle, type KeyTable } from '../../markdown/sections';
import type { ParsedContent } from '../../model/workspace';

/** The seven canonical sections, in the kit's restore-first order, and the model key of each. */
export const S2_SECTIONS: ReadonlyArray<readonly [string, SectionKey]> = [
  ['task', 'goal'],
  ['next', 'next'],
  ['open', 'open'],
  ['decided', 'decisions'],
  ['verified', 'verified'],
  ['dropped', 'dropped'],
  ['plan', 'plan'],
];
const WORD_KEY = new Map<string, SectionKey>(S2_SECTIONS.map(([w, k]) => [w, k]));

/** The section word of a `##` heading: its first token that starts with a letter, `:*_-` removed. */
export function s2Word(title: string): string | null {
  for (const tok of normalizeTitle(title).split(' ')) {
    // An ASCII first character is a letter when it is A-Z or a-z: the Unicode class (costly to compile) only for the others.
    if (/^[A-Za-z]/.test(tok) || (/^[^\x00-\x7f]/.test(tok) && /^\p{L}/u.test(tok))) return tok.replace(/[:*_-]/g, '');
  }
  return null;
}

/**
 * Headings a project state file uses besides the ledger's own words, by meaning: the corpus's
 * Latest/Now/Next/Blockers/Decisions variant and the same sections as project state files in
 * public repositories write them in English, Russian, Japanese, Chinese and Korean ("Current
 * Focus", "Completed", "Текущий фокус", "次のステップ", "当前焦点", "블로커" …).
 */
export const PROJECT_STATE_KEYS: KeyTable = [
  [
    'now',
    /^(?:now|current(?: state| focus| work)?|where we are|status)\b|^текущ|^сейчас|^статус|^現在|焦点|^いま|^当前|^进行中|^현재|초점|^지금/u,
  ],
  [
    'done',
    /^(?:latest|done|shipped|recent(?:ly)?|history|completed?|what (?:was )?done)\b|^(?:что )?сделано|^выполнено|^готово|(?<!未)完了|済み|^已?完成|(?<!미)완료/u,
  ],
  ['next', /^следующ|^далее|^次|^今後|^下一步|^接下来|^다음/u],
  [
    'open',
    /^(?:blockers?|blocked|open questions?|questions|risks?)\b|^блокер|^(?:открытые )?вопрос|^риск|未解決|ブロッカー|リスク|質問|懸念|未决|阻塞|风险|问题|疑问|블로커|질문|위험|미해결/u,
  ],
  ['decisions', /^decisions?\b|^решени|決定|决策|决定|결정/u],
  ['goal', /^(?:goal|objective|mission)\b|^цел[ьи]|^目[標标的]|^목표/u],
];

function keyOf(title: string, extra?: KeyTable): SectionKey {
  const w = s2Word(title);
  const k = w ? WORD_KEY.get(w) : undefined;
  if (k) return k;
  return extra ? matchKey(title, extra) : 'other';
}

/** A VERIFIED item carries the command or probe that proved it. */
const COMMAND_RES: RegExp[] = [
  /`[^`]+`/, // `npm test`
  /\[\s*[^\][\s][^\][]{0,300}\](?!\()/, // [npm test] — the kit's template format, not a Markdown link (bounded: linear on hostile input)
  /(?:^|\s)\$\s*[\w./~-]/, // $ npm test
  /(?:^|[\s(—–-])(?:via|by running|ran|running|command|cmd|probe|checked with|proved by)\s*[:：]?\s*\S/i,
];

/** A DROPPED item carries the reason it was abandoned. */
const REASON_RES: RegExp[] = [
  /\S\s*[:：]\s+\S/, // approach: why (the kit's template format)
  /\s[—–]\s*\S|\s--?\s+\S/, // approach — why
  /[→⇒]|->|=>/,
  /\b(?:because|since|as it|as the|due to|reason|why|caused|fails?|failed|failing|broke|breaks|instead|superseded|replaced by|not needed|no longer|too (?:slow|big|large|complex|expensive|risky|brittle|fragile))\b/i,
  /\([^()]{3,300}\)/,
  /\b(?:weil|wegen|denn)\b|потому|из-за|因为|ため|ので|때문/i,
];

export function hasCommand(text: string): boolean {
  return COMMAND_RES.some((re) => re.test(text));
}

export function hasReason(text: string): boolean {
  return REASON_RES.some((re) => re.test(plainText(text)));
}

/** Top-level items with the text of their nested items joined, so a command in a sub-bullet counts. */
function withChildren(items: readonly Item[]): Array<{ item: Item; text: string }> {
  const out: Array<{ item: Item; text: string }> = [];
  for (const it of items) {
    const last = out[out.length - 1];
    if ((it.depth ?? 0) > 0 && last) last.text += ` ${it.text}`;
    else out.push({ item: it, text: it.text });
  }
  return out;
}

/** Set `hasCommand` on VERIFIED items and `hasReason` on DROPPED items (nested items count for their parent). */
function flagItems(s: Section): void {
  const test = s.key === 'verified' ? hasCommand : s.key === 'dropped' ? hasReason : null;
  const flag = s.key === 'verified' ? 'hasCommand' : 'hasReason';
  if (!test) return;
  for (const { item, text } of withChildren(s.items))
    if (test(text) && !item.flags.includes(flag)) item.flags.push(flag);
}

/** The kit's template placeholders (`<fact> [<command>]`) as well as the common ones. */
export function s2Placeholder(text: string): boolean {
  return isPlaceholder(text.replace(/\[(<[^<>]*>)\]/g, '$1'));
}

/** Top-level, non-placeholder items of a section (what the per-item checks look at). */
export function realTopItems(s: Section): Item[] {
  return s.items.filter((i) => (i.depth ?? 0) === 0 && !s2Placeholder(i.text));
}

/** The lines of the document's HTML blocks (its comments). */
function htmlLines(outline: MdOutline): Set<number> {
  const html = new Set<number>();
  for (const b of outline.blocks) if (b.kind === 'html') for (let l = b.line; l <= b.endLine; l++) html.add(l);
  return html;
}

/**
 * Written lines in a line range: not blank, not an HTML comment (`html`: `htmlLines`, made once per
 * document: made again for each NEXT section, a ledger of 10,000 `## NEXT` took its reader 6 s).
 */
function writtenLines(outline: MdOutline, html: Set<number>, from: number, to: number): number {
  let n = 0;
  for (let l = from; l <= to && l <= outline.lines.length; l++)
    if (outline.lines[l - 1].trim() !== '' && !html.has(l)) n++;
  return n;
}

/** A `##` section whose word repeats an earlier one's, merged into it: both headings and lines. */
export interface DuplicateSection {
  title: string;
  line: number;
  firstTitle: string;
  firstLine: number;
}

/**
 * Parse a ledger-shaped document. `extra` adds meaning-based keys for headings outside the
 * seven words (used for the project state file). Never throws on content.
 */
export function parseLedger(_text: string, outline: MdOutline, extra?: KeyTable): ParsedContent {
  const h2 = outline.headings.filter((h) => h.level === 2);
  const raw = sectionize({ ...outline, headings: h2 }, (t) => keyOf(t, extra));
  const duplicates: DuplicateSection[] = [];
  const nonCanonical: Array<{ title: string; line: number }> = [];
  const sections: Section[] = [];
  const first = new Map<string, Section>();
  let nextLineCount = 0;
  let html: Set<number> | null = null;
  for (const s of raw) {
    if (s.key === 'next') nextLineCount += writtenLines(outline, (html ??= htmlLines(outline)), s.line + 1, s.endLine);
    const canonical = s.key !== 'other' && s.key !== 'preamble';
    // Duplicates of the kit's seven words merge (as ledger_render.py merges them); two headings
    // that mean the same by meaning only ("Open Questions" and "Blockers") stay two sections.
    const word = canonical && WORD_KEY.has(s2Word(s.title) ?? '');
    const prev = word ? first.get(String(s.key)) : undefined;
    if (prev) {
      prev.items.push(...s.items);
      prev.endLine = Math.max(prev.endLine, s.endLine);
      duplicates.push({ title: s.title, line: s.line, firstTitle: prev.title, firstLine: prev.line });
      continue;
    }
    if (word) first.set(String(s.key), s);
    else if (s.key === 'other' && !extra) {
      nonCanonical.push({ title: s.title, line: s.line });
    }
    sections.push(s);
  }
  for (const s of sections) flagItems(s);
  const session = outline.lines
    .slice(0, 20)
    .map((l) => /^_session:\s*(\S+?)(?:\s.*)?_\s*$/.exec(l.trim()))
    .find(Boolean);
  const meta: Record<string, unknown> = { nextLineCount, duplicates, nonCanonical };
  if (session) meta.sessionId = session[1];
  const h1 = outline.headings.find((h) => h.level === 1);
  if (h1) meta.title = h1.title;
  return { sections, meta };
}

/** A project state file is ledger-shaped: the seven words plus the variant's Latest/Now/Blockers/Decisions. */
export function parseProjectState(text: string, outline: MdOutline): ParsedContent {
  return parseLedger(text, outline, PROJECT_STATE_KEYS);
}

/**
 * True when a ledger-shaped file uses S2's own vocabulary: a `##` heading whose word is one no
 * generic notes file uses (TASK, DECIDED, VERIFIED, DROPPED). "Next" or "Decisions" alone is not
 * enough: that is how someone else's project-state file reads.
 */
export function hasS2Vocabulary(outline: MdOutline): boolean {
  return outline.headings.some(
    (h) => h.level === 2 && ['task', 'decided', 'verified', 'dropped'].includes(s2Word(h.title) ?? ''),
  );
}

// ---------------------------------------------------------------------------------------------
// context-manifest.yaml

export type StoreKind = 'memory' | 'project_state' | 'knowledge_docs' | 'curated_ssot';

export interface ManifestStore {
  kind: StoreKind;
  /** The path or glob as written. */
  path: string;
  line: number;
}

export interface ManifestInfo {
  /** The file parsed to a mapping. */
  ok: boolean;
  /** It carries the kit's own keys (`ledger`, `compaction`, `memory`+`always_on`). */
  kit: boolean;
  stores: ManifestStore[];
  /** `durable_context.project_state`: a path, `null` when switched off, undefined when not named. */
  projectState?: string | null;
  /** `compaction.checkpoint.max_age_min`, when set. */
  maxAgeMin?: number;
  /** `ledger.budget_chars` / `ledger.max_lines`, when set. */
  ledgerBudget?: { chars?: number; lines?: number };
  /**
   * The YAML does not parse: the parser's message (its first line; all of it when the parser threw)
   * and the line it names, when it names one; for a syntax error its code and column (what
   * `syntaxMessage` says). `refused`: the document is not read (`YamlTree.refused`), why (`refusalMessage`).
   */
  error?: {
    message: string;
    line?: number;
    code?: string;
    column?: number;
    thrown?: boolean;
    refused?: YamlRefusalKind;
  };
}

/** Read `context-manifest.yaml`. Never throws; a YAML error is recorded in `info.error` with its line. */
export function parseManifest(text: string): ParsedContent & { info: ManifestInfo } {
  const info: ManifestInfo = { ok: false, kit: false, stores: [] };
  let doc;
  try {
    doc = readYaml(text, { uniqueKeys: false });
  } catch (err) {
    info.error = { message: (err as Error).message, thrown: true };
    info.kit = /session-ledger|durable_context|checkpoint/.test(text);
    return { sections: [], meta: { manifest: info }, info };
  }
  // What its YAML decoded holds secrets the text did not show (a `!!binary` value, an escape): no-secrets names
  // them, and the document's text shows them masked where they are written.
  const found = {
    ...(doc.secrets.length ? { secrets: doc.secrets } : {}),
    ...(doc.cuts.length ? { cuts: doc.cuts } : {}),
  };
  const refused = doc.refused;
  if (doc.error || refused) {
    const line = doc.error?.line ?? refused?.line;
    info.error = {
      message: doc.error ? doc.error.message.split('\n')[0] : `not read: ${refused?.kind}`,
      ...(line ? { line } : {}),
      ...(doc.error ? { code: doc.error.code, column: doc.error.column } : {}),
      ...(refused ? { refused: refused.kind } : {}),
    };
    info.kit = /session-ledger|durable_context|checkpoint/.test(text);
    return { sections: [], meta: { manifest: info }, info, ...found };
  }
  const root = doc.root;
  if (root?.kind !== 'map') {
    info.kit = false;
    return { sections: [], meta: { manifest: info }, info, ...found };
  }
  info.ok = true;
  info.kit =
    yamlHas(root, 'ledger') || yamlHas(root, 'compaction') || (yamlHas(root, 'memory') && yamlHas(root, 'always_on'));
  const add = (kind: StoreKind, node: YamlNode | null | undefined) => {
    if (node?.kind === 'scalar' && typeof node.value === 'string' && node.value.trim()) {
      info.stores.push({ kind, path: node.value.trim(), line: node.line ?? 1 });
    } else if (node?.kind === 'seq') {
      for (const it of node.items) add(kind, it);
    }
  };
  add('memory', yamlGetIn(root, ['memory', 'dir']));
  const dc = ['compaction', 'checkpoint', 'durable_context'];
  const ps = yamlGetIn(root, [...dc, 'project_state']);
  if (yamlHasIn(root, [...dc, 'project_state']))
    info.projectState =
      ps?.kind === 'scalar' && typeof ps.value === 'string' && ps.value.trim() ? ps.value.trim() : null;
  add('project_state', ps);
  add('knowledge_docs', yamlGetIn(root, [...dc, 'knowledge_docs']));
  add('curated_ssot', yamlGetIn(root, [...dc, 'curated_ssot']));
  const age = yamlValue(yamlGetIn(root, ['compaction', 'checkpoint', 'max_age_min']));
  if (typeof age === 'number') info.maxAgeMin = age;
  const chars = yamlValue(yamlGetIn(root, ['ledger', 'budget_chars']));
  const lines = yamlValue(yamlGetIn(root, ['ledger', 'max_lines']));
  if (typeof chars === 'number' || typeof lines === 'number') {
    info.ledgerBudget = {
      chars: typeof chars === 'number' ? chars : undefined,
      lines: typeof lines === 'number' ? lines : undefined,
    };
  }
  return { sections: [], meta: { manifest: info }, info, ...found };
}

// ---------------------------------------------------------------------------------------------
// Plan files

/** Headings below which a plan holds evidence, archive or finished work (not the spine). */
const NOT_SPINE =
  /^(?:evidence|archive|archived|appendix|done|completed|finished|sources|references|research|transcripts?|measurements|reasoning|belege|archiv|erledigt)\b/;

export interface PlanSpine {
  /** Characters of the spine (code points). */
  chars: number;
  /** Characters of the whole file. */
  totalChars: number;
  /** Last line of the spine. */
  endLine: number;
  /** Line of the heading that ends the spine, when one does. */
  cutAt?: number;
}

export function planSpine(text: string, outline: MdOutline): PlanSpine {
  const cut = outline.headings.find((h) => h.line > 1 && NOT_SPINE.test(normalizeTitle(h.title)));
  const endLine = cut ? cut.line - 1 : outline.lines.length;
  const spine = cut ? outline.lines.slice(0, endLine).join('\n') : text;
  return { chars: codePointCount(spine), totalChars: codePointCount(text), endLine, cutAt: cut?.line };
}

export function parsePlan(text: string, outline: MdOutline): ParsedContent {
  const sections = sectionize(outline, (t) => (NOT_SPINE.test(normalizeTitle(t)) ? 'done' : 'other'), { maxLevel: 3 });
  return { sections, meta: { spine: planSpine(text, outline) } };
}
