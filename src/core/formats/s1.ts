/**
 * S1 (seed 001, `session-checkpoint` with a single forward-only handoff): the home file is
 * `memory/session-handoff-LATEST.md` (also `.claude/memory/…`), with its attestation sidecar
 * `.session-handoff.sha256`, `MEMORY.md`, `context-log.md` and `tasks/lessons.md` beside it.
 * Section names are matched by meaning in English and Korean (the corpus handoffs).
 */
import {
  checkBudget,
  checkExists,
  checkFresh,
  checkNoSecrets,
  checkNotSkeleton,
  checkPending,
  checkStalePaths,
  checkWorkExplained,
  checkNextAction,
  clip,
  isPlaceholder,
  mk,
  plainText,
  refsInSections,
} from '../checks/common';
import { defaultItem, sectionize, type MdBlockKind, type MdOutline } from '../markdown';
import type { Check, Item, Section, StateDoc } from '../model';
import { matchKey, type KeyTable } from '../sections';
import type { Analysis, Loaded, SystemModule } from '../system';
import type { ParsedContent, Workspace } from '../workspace';
import { checkAttestation } from './s1-attest';
import { checkContextLog, checkLessons, parseContextLog, parseLessons, parseMemory } from './s1-memory';
import { readSnapshot, SNAPSHOT_CAPS, type SnapshotInfo } from './s1-snapshot';
import { sectionsOf } from './s1-util';

export const S1_LATEST = 'session-handoff-LATEST.md';
export const S1_DIRS = ['memory', '.claude/memory'];
export const S1_SIDECAR = '.session-handoff.sha256';
export const S1_MAX_LINES = 200;

/**
 * Section names by meaning (normalised titles). Order matters: "this session's fixes" is `done`
 * before "issues" can claim it; "What to do now" is `next` (item 1 is the next action).
 */
export const S1_KEYS: KeyTable = [
  ['title', /^(?:session )?handoff\b|^세션 ?핸드오프|^핸드오프/u],
  [
    'done',
    /^(?:done|completed?|accomplished|finished|shipped)\b|accomplishments?|(?:done|completed|finished|shipped|fixed) (?:this|today|in this)|(?:this|today'?s?|last) session'?s? (?:work|changes|fixes|accomplishments|progress|results|done|completed)|^today'?s?\b|^what (?:was|we|i) (?:done|did)|완료|이번 세션.*(?:수정|작업|변경|결과|성과)|수정된|해결된|한 일|성과/u,
  ],
  ['next', /^what to do\b|^next\b|^priorit(?:y|ies)\b|^to ?do\b|^action items?|^active tasks?|^pick next|^immediate|^up next|^start here|다음|할 ?일|우선 ?순위|지금/u],
  ['pending', /^pending\b|^open decisions?|decisions? (?:pending|needed|to make|required)|^undecided|^awaiting decision|미결|결정 ?대기|의사 ?결정|보류/u],
  ['issues', /^(?:outstanding|remaining|open|known|current) (?:issues?|problems?|bugs?|blockers?)|^issues?\b|^blockers?\b|^blocked\b|^risks?\b|이슈|블로커|문제|장애/u],
  ['status', /^current (?:work )?(?:status|state|focus|work)|^(?:work )?status\b|^state\b|^where (?:things|we) (?:are|stand)|^in[- ]progress|^progress\b|^uncommitted|현재 ?(?:상태|작업|진행)|진행 ?(?:중|상황)|상태/u],
  ['understanding', /^system understanding|^understanding|^context\b|^(?:key )?(?:context|notes?|insights?|learnings?|facts?)\b|^(?:project )?(?:key )?info(?:rmation)?\b|^background|컨텍스트|맥락|이해|메모|핵심 ?정보/u],
  ['interests', /^user'?s?\b.*(?:interests?|priorit|focus|wants?)|^interests?\b|관심|유저|사용자/u],
  ['log', /history|changelog|^log\b|이력|히스토리|디버깅/u],
];

// ---------------------------------------------------------------------------------------------
// Items

/** An item that says it is finished: `[x]`, `~~…~~`, `✅ …`, `… → 완료`, `(done)`, `DONE …`. */
const DONE_RES: RegExp[] = [
  /^\s*~~.+~~\s*$/,
  /^\s*(?:✅|✔️?|☑️?)/u,
  /(?:→|->|=>)\s*(?:\*\*)?(?:완료|done|completed?|finished|resolved|해결)/iu,
  /[(（]\s*(?:done|완료|completed?|finished|resolved)\s*[)）]/iu,
  /^\s*(?:\*\*)?(?:done|completed)\b/i,
];

const kinds = new WeakMap<Item, MdBlockKind>();

export function itemFlags(text: string): string[] {
  const flags: string[] = [];
  const u = /urgency\s*[:：]\s*\**\s*([HML])(?![\w/])/i.exec(text);
  if (u) flags.push(`urgency:${u[1].toUpperCase()}`);
  const r = /\brisk\s*[:：]\s*\**\s*([HML])(?![\w/])/i.exec(text);
  if (r) flags.push(`risk:${r[1].toUpperCase()}`);
  if (DONE_RES.some((re) => re.test(text))) flags.push('done');
  return flags;
}

/** Merge the lines of one paragraph (consecutive `line` blocks) into one item, as the model wants. */
function mergeParagraphs(items: Item[]): Item[] {
  const out: Item[] = [];
  let lastLine = -1;
  for (const it of items) {
    const prev = out[out.length - 1];
    if (prev && kinds.get(prev) === 'line' && kinds.get(it) === 'line' && it.line === lastLine + 1) {
      prev.text = `${prev.text} ${it.text}`;
      lastLine = it.line;
      continue;
    }
    out.push(it);
    lastLine = it.line;
  }
  for (const it of out) {
    for (const f of itemFlags(it.text)) if (!it.flags.includes(f)) it.flags.push(f);
  }
  return out;
}

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

/** The section with its template items left out (for checks that count real items). */
function realItems(section: Section | undefined): Section | undefined {
  return section && { ...section, items: section.items.filter((i) => !isTemplateText(i.text)) };
}

/** Parse a handoff: headings by meaning, paragraphs as items, the snapshot block as its own section. */
export function parseHandoff(_text: string, outline: MdOutline): ParsedContent {
  const sections = sectionize(outline, (t, h) => (h.level === 1 && matchKey(t, S1_KEYS) === 'other' ? 'title' : matchKey(t, S1_KEYS)), {
    toItem: (b) => {
      const it = defaultItem(b);
      if (it) kinds.set(it, b.kind);
      return it;
    },
  });
  for (const s of sections) s.items = mergeParagraphs(s.items);
  const meta: Record<string, unknown> = {};
  const snap = readSnapshot(outline);
  if (snap) {
    meta.snapshot = snap.info;
    for (const s of sections) s.items = s.items.filter((i) => i.line < snap.info.line || i.line > snap.info.endLine);
    const at = sections.findIndex((s) => s.line > snap.section.line);
    sections.splice(at < 0 ? sections.length : at, 0, snap.section);
  }
  // Keep the item kinds reachable after the copy into the doc (for "item 1" of a list).
  meta.listItems = sections.flatMap((s) => s.items.filter((i) => kinds.get(i) === 'list-item').map((i) => i.line));
  return { sections: sections.filter((s) => s.key !== 'preamble' || s.items.length > 0), meta };
}

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

function checkS1NextAction(doc: StateDoc, next: S1Next | null): Check {
  if (next && isTemplateText(next.item.text)) {
    return mk('S1', 'next-action', 'block', false, `Item ${next.number} of "${next.section.title}" is still template text: "${clip(next.item.text)}".`, { path: doc.relPath, line: next.item.line }, 'Write the most urgent concrete action, with its execution command, as item 1.');
  }
  return checkNextAction('S1', next && { text: next.item.text, path: doc.relPath, line: next.item.line }, '## What to do now (priority order), item 1', doc.relPath);
}

// ---------------------------------------------------------------------------------------------
// S1-specific checks

/** Invariant 1: only `session-handoff-LATEST.md`; any other `session-handoff*.md` beside it is a violation. */
function checkSingleHandoff(homeRel: string, others: readonly string[]): Check[] {
  if (others.length === 0) return [mk('S1', 'single-handoff', 'block', true, `Only ${homeRel} exists.`, { path: homeRel })];
  return others.map((p) =>
    mk('S1', 'single-handoff', 'block', false, `${p} stands beside ${homeRel}: a second handoff breaks Invariant 1 (the next session cannot tell which one is latest).`, { path: p }, `Merge what is still open into ${homeRel} and delete ${p} (git history keeps it).`),
  );
}

const DONE_LINE_RE = /^\s*(?:\*\*)?(?:done|completed|accomplished|finished)\b[^:：]{0,40}[:：]|^\s*(?:\*\*)?(?:이번 세션 )?완료(?:된 작업| 작업)?\s*(?:\*\*)?\s*[:：]/iu;

/** Invariant 2: no "things done this session" in the handoff. */
function checkFutureOriented(doc: StateDoc): Check[] {
  const out: Check[] = [];
  for (const s of doc.sections) {
    if (s.key === 'done' || s.key === 'log') {
      out.push(mk('S1', 'future-oriented', 'warn', false, `"${clip(s.title, 80)}" lists work already done: the handoff must say only what the next session does (Invariant 2).`, { path: doc.relPath, line: s.line }, 'Delete the section; git history and context-log.md keep what was done.'));
      continue;
    }
    for (const it of s.items) {
      if ((it.depth ?? 0) === 0 && DONE_LINE_RE.test(it.text)) {
        out.push(mk('S1', 'future-oriented', 'warn', false, `A list of finished work: "${clip(it.text, 80)}" (Invariant 2).`, { path: doc.relPath, line: it.line }, 'Delete it; the handoff is forward-only.'));
      }
    }
  }
  if (out.length === 0) out.push(mk('S1', 'future-oriented', 'warn', true, 'No done/accomplished section: the handoff is forward-only.', { path: doc.relPath }));
  return out;
}

function checkSnapshot(doc: StateDoc): Check[] {
  const info = doc.meta.snapshot as SnapshotInfo | undefined;
  if (!info) {
    return [mk('S1', 'snapshot', 'warn', false, 'No `<!-- state-snapshot v1 -->` block: the next session cannot recover from one compact block.', { path: doc.relPath, line: 1 }, 'Insert the Phase 2.3 YAML block (ts, ctx, next, diff, blocked) right after the front matter, before the title.')];
  }
  if (info.problems.length === 0) {
    const c = info.counts;
    return [mk('S1', 'snapshot', 'warn', true, `state-snapshot v1: ctx ${c.ctxWords}/${SNAPSHOT_CAPS.ctxWords} words, next ${c.next}/${SNAPSHOT_CAPS.next}, diff ${c.diff}/${SNAPSHOT_CAPS.diff}, blocked ${c.blocked}/${SNAPSHOT_CAPS.blocked}.`, { path: doc.relPath, line: info.line })];
  }
  return info.problems.map((p) => mk('S1', 'snapshot', 'warn', false, `state-snapshot v1: ${p.message}.`, { path: doc.relPath, line: p.line }, 'Keep the block within the seed\'s caps; what does not fit stays in the prose.'));
}

function checkCompression(doc: StateDoc): Check {
  const info = doc.meta.snapshot as SnapshotInfo | undefined;
  if (!info || info.blockBytes === 0) return mk('S1', 'compression', 'warn', 'skip', 'No snapshot block to measure.', { path: doc.relPath });
  const ratio = info.proseBytes / info.blockBytes;
  const msg = `[Memento] prose: ${info.proseBytes} bytes → compact block: ${info.blockBytes} bytes (${ratio.toFixed(1)}x reduction)`;
  return mk('S1', 'compression', 'warn', ratio >= 2, ratio >= 2 ? `${msg}.` : `${msg}: under 2x.`, { path: doc.relPath, line: info.line }, 'Shorten next/diff entries in the block: verb + object only, no descriptions.');
}

// ---------------------------------------------------------------------------------------------
// The module

async function firstExisting(ws: Workspace, rels: readonly string[]): Promise<string | null> {
  for (const r of rels) if ((await ws.kind(r)) === 'file') return r;
  return null;
}

function dirOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

async function load(ws: Workspace): Promise<Loaded | null> {
  const latest: string[] = [];
  const others: string[] = [];
  for (const dir of S1_DIRS) {
    for (const name of (await ws.list(dir)).sort()) {
      if (name === S1_LATEST) latest.push(`${dir}/${name}`);
      else if (/^session[-_]handoff.*\.md$/i.test(name)) others.push(`${dir}/${name}`);
    }
  }
  if (latest.length === 0 && others.length === 0) return null;
  const homeRel = latest[0] ?? `${dirOf(others[0])}/${S1_LATEST}`;
  const dir = dirOf(homeRel);
  const docs: StateDoc[] = [];
  const home = latest.length ? await ws.loadDoc(homeRel, 'S1', 'handoff', parseHandoff) : null;
  if (home) docs.push(home);
  const strays = [...latest.slice(1), ...others];
  for (const p of strays) docs.push(await ws.loadDoc(p, 'S1', 'handoff', parseHandoff));
  const memRel = await firstExisting(ws, [`${dir}/MEMORY.md`, 'MEMORY.md']);
  if (memRel) docs.push(await ws.loadDoc(memRel, 'S1', 'memory', (_t, o) => parseMemory(o)));
  const logRel = await firstExisting(ws, [`${dir}/context-log.md`, 'context-log.md']);
  if (logRel) docs.push(await ws.loadDoc(logRel, 'S1', 'contextLog', (_t, o) => parseContextLog(o, ws.now)));
  const lessonsRel = await firstExisting(ws, ['tasks/lessons.md', `${dir}/tasks/lessons.md`]);
  if (lessonsRel) docs.push(await ws.loadDoc(lessonsRel, 'S1', 'lessons', (_t, o) => parseLessons(o, ws.now)));
  return { home, homeRel, docs, extra: { strays, sidecar: `${dir}/${S1_SIDECAR}` } };
}

function docOf(loaded: Loaded, role: StateDoc['role']): StateDoc | null {
  return loaded.docs.find((d) => d.role === role && d !== loaded.home) ?? null;
}

async function analyse(ws: Workspace, loaded: Loaded): Promise<Analysis> {
  const home = loaded.home;
  const strays = (loaded.extra?.strays as string[] | undefined) ?? [];
  const checks: Check[] = [checkExists('S1', home, loaded.homeRel), ...checkSingleHandoff(loaded.homeRel, strays)];
  const readable = home && home.findings.every((f) => f.id !== 'readable') ? home : null;
  let next: S1Next | null = null;
  if (readable) {
    next = s1NextAction(readable);
    checks.push(checkNotSkeleton('S1', readable, ['title', 'snapshot'], isTemplateText));
    checks.push(checkS1NextAction(readable, next));
    checks.push(checkPending('S1', realItems(sectionsOf(readable, 'pending')[0]), readable, 'Pending decisions'));
    checks.push(await checkFresh('S1', ws, readable));
    checks.push(await checkWorkExplained('S1', ws, [readable], readable.relPath));
    checks.push(checkBudget('S1', readable, { maxLines: S1_MAX_LINES }));
    checks.push(...checkFutureOriented(readable));
    checks.push(...checkSnapshot(readable));
    checks.push(checkCompression(readable));
  }
  const memory = docOf(loaded, 'memory');
  const keyFiles = sectionsOf(memory, 'key-files');
  checks.push(
    ...(memory && keyFiles.length
      ? await checkStalePaths('S1', ws, refsInSections(memory, keyFiles), 'MEMORY.md Key Files paths')
      : [mk('S1', 'stale-paths', 'warn', 'skip', memory ? `${memory.relPath} has no Key Files section.` : 'No MEMORY.md.', { path: memory?.relPath })]),
  );
  checks.push((await checkAttestation(ws, readable, String(loaded.extra?.sidecar ?? `memory/${S1_SIDECAR}`))).check);
  checks.push(checkLessons(docOf(loaded, 'lessons'), ws.now));
  checks.push(...checkContextLog(docOf(loaded, 'contextLog')));
  checks.push(...checkNoSecrets('S1', loaded.docs));
  const where = next ? `item ${next.number} of "${next.section.title}"` : 'its first action';
  return {
    checks,
    next: next ? next.item.text : null,
    unconfirmed: [],
    resumePrompt: `Read ${loaded.homeRel} and start with ${where}.`,
  };
}

export const S1: SystemModule = {
  id: 'S1',
  name: 'Session Handoff (session-checkpoint, LATEST + attestation)',
  watchGlobs: [
    `memory/${S1_LATEST}`,
    `.claude/memory/${S1_LATEST}`,
    'memory/session-handoff*.md',
    '.claude/memory/session-handoff*.md',
    `memory/${S1_SIDECAR}`,
    'memory/MEMORY.md',
    'MEMORY.md',
    'memory/context-log.md',
    'context-log.md',
    'tasks/lessons.md',
    'memory/tasks/lessons.md',
  ],
  thresholds: { propose: 50, urgent: 80 },
  checkpointTrigger: '/session-checkpoint',
  load,
  analyse,
};
