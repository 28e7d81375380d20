/**
 * S1's rules (seed 001, single forward-only handoff + attestation): the common checks on the handoff,
 * Invariant 1 (one handoff), Invariant 2 (forward-only), the `state-snapshot v1` block and its
 * compression, the Phase 2.4 attestation sidecar (MATCH / TAMPERED / NO_SIDECAR), the lessons
 * archive candidates and the context log's TTL and promotion candidates. Reading is in `formats/s1*.ts`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { FACTS, resumePrompt } from '../facts';
import type { MdOutline } from '../markdown';
import type { Check, Item, Section, StateDoc } from '../model';
import { S1_SIDECAR } from '../formats/s1';
import { ARCHIVE } from '../formats/s1-memory';
import { SNAPSHOT_CAPS, type SnapshotInfo } from '../formats/s1-snapshot';
import { daysSince, parseDay, sectionsOf } from '../formats/s1-util';
import type { Analysis, Loaded } from '../system';
import { clip, isPlaceholder, plainText } from '../text';
import type { Workspace } from '../workspace';
import {
  checkBudget,
  checkExists,
  checkFresh,
  checkNextAction,
  checkNoSecrets,
  checkNotSkeleton,
  checkPending,
  checkStalePaths,
  checkWorkExplained,
  mk,
  refsInSections,
} from './common';

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

function docOf(loaded: Loaded, role: StateDoc['role']): StateDoc | null {
  return loaded.docs.find((d) => d.role === role && d !== loaded.home) ?? null;
}

/** S1's checks, next action and resume prompt. */
export async function analyseS1(ws: Workspace, loaded: Loaded): Promise<Analysis> {
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
    checks.push(checkBudget('S1', readable, { maxLines: FACTS.S1.budgets.lines, lineCounting: FACTS.S1.budgets.lineCounting }));
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
    resumePrompt: resumePrompt('S1', loaded.homeRel, where),
  };
}


// ---------------------------------------------------------------------------------------------
// Lessons and context log

function flag(it: Item, name: string): string | undefined {
  const f = it.flags.find((x) => x.startsWith(`${name}:`));
  return f?.slice(name.length + 1);
}

export function checkLessons(doc: StateDoc | null, now: number): Check {
  if (!doc) return mk('S1', 'lessons', 'info', 'skip', 'No tasks/lessons.md.');
  if (!doc.text) return mk('S1', 'lessons', 'info', 'skip', `${doc.relPath} cannot be read.`, { path: doc.relPath });
  const lessons = doc.sections.filter((s) => s.key === 'lesson');
  const metas = lessons.flatMap((s) => s.items.filter((i) => flag(i, 'conf') !== undefined).slice(0, 1).map((i) => ({ s, i })));
  const noSeen = metas.filter(({ i }) => flag(i, 'seen') === undefined).length;
  const archive = metas.filter(({ i }) => i.flags.includes('archive'));
  const headed = doc.sections.filter((s) => s.level >= 3 && s.key !== 'lesson').length;
  const extra = [noSeen ? `${noSeen} without seen:` : '', headed ? `${headed} heading(s) without a meta line` : ''].filter(Boolean).join(', ');
  if (archive.length === 0) {
    return mk('S1', 'lessons', 'info', true, `${metas.length} lesson(s) with conf/seen/obs meta${extra ? ` (${extra})` : ''}; no archive candidates.`, { path: doc.relPath });
  }
  const list = archive.slice(0, 5).map(({ s, i }) => `"${clip(s.title, 60)}" (conf ${flag(i, 'conf')}, seen ${flag(i, 'seen')}, ${daysSince(parseDay(flag(i, 'seen') ?? '') ?? now, now)} days ago)`);
  return mk(
    'S1',
    'lessons',
    'info',
    false,
    `${archive.length} archive candidate(s) (conf < ${ARCHIVE.conf} and seen > ${ARCHIVE.days} days ago): ${list.join('; ')}${archive.length > 5 ? '; …' : ''}.`,
    { path: doc.relPath, line: archive[0].s.line },
    'Move them to tasks/_archive/lessons-pre-YYYY-MM.md (the seed\'s monthly cleanup).',
  );
}

function lineList(items: Item[]): string {
  return items.slice(0, 5).map((i) => i.line).join(', ') + (items.length > 5 ? ', …' : '');
}

export function checkContextLog(doc: StateDoc | null): Check[] {
  if (!doc) return [mk('S1', 'context-log', 'info', 'skip', 'No context-log.md.')];
  if (!doc.text) return [mk('S1', 'context-log', 'info', 'skip', `${doc.relPath} cannot be read.`, { path: doc.relPath })];
  const entries = doc.sections.flatMap((s) => s.items).filter((i) => i.flags.some((f) => f.startsWith('date:')));
  const expired = entries.filter((i) => i.flags.includes('expired'));
  const promote = entries.filter((i) => i.flags.includes('promote'));
  const noTtl = entries.filter((i) => !i.flags.some((f) => f.startsWith('ttl:')));
  const out: Check[] = [];
  if (expired.length) {
    out.push(mk('S1', 'context-log', 'info', false, `${expired.length} of ${entries.length} entries are past their TTL (lines ${lineList(expired)}).`, { path: doc.relPath, line: expired[0].line }, 'Delete expired entries, or promote the ones still true to MEMORY.md.'));
  }
  if (promote.length) {
    out.push(mk('S1', 'context-log', 'info', false, `${promote.length} promotion candidate(s) with ref ≥ 3 (lines ${lineList(promote)}): review them for MEMORY.md.`, { path: doc.relPath, line: promote[0].line }, 'Move lasting facts into MEMORY.md.'));
  }
  if (noTtl.length) {
    out.push(mk('S1', 'context-log', 'info', false, `${noTtl.length} entr${noTtl.length === 1 ? 'y has' : 'ies have'} no ttl tag (lines ${lineList(noTtl)}); the seed makes TTL tagging mandatory.`, { path: doc.relPath, line: noTtl[0].line }, 'Tag each entry `[ttl:90d]`, `[ttl:30d]` or `[ttl:permanent]`.'));
  }
  if (out.length === 0) out.push(mk('S1', 'context-log', 'info', true, `${entries.length} entries; none past its TTL; no promotion candidates.`, { path: doc.relPath }));
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
    const h = createHash('sha256');
    const s = createReadStream(abs);
    s.on('data', (c) => h.update(c));
    s.on('error', () => resolve(null));
    s.on('end', () => resolve(h.digest('hex')));
  });
}

export async function checkAttestation(ws: Workspace, home: StateDoc | null, sidecarRel: string): Promise<{ check: Check; state: Attestation | null }> {
  const kind = await ws.kind(sidecarRel);
  if (kind === 'missing') {
    return {
      state: 'NO_SIDECAR',
      check: mk('S1', 'attestation', 'info', false, `NO_SIDECAR: ${sidecarRel} does not exist; the handoff is not attested.`, { path: sidecarRel }, 'Run the checkpoint (Phase 2.4 write-receipt writes the sidecar).'),
    };
  }
  if (!home || !home.hash) return { state: null, check: mk('S1', 'attestation', 'block', 'skip', 'No readable handoff to attest.', { path: sidecarRel }) };
  ws.stateFiles.add(sidecarRel);
  const f = await ws.read(sidecarRel);
  const tampered = (why: string, line?: number) => ({
    state: 'TAMPERED' as const,
    check: mk('S1', 'attestation', 'block', false, `TAMPERED: ${why}`, { path: home.relPath, line }, `If you edited ${home.relPath} yourself, re-run the checkpoint so write-receipt refreshes ${sidecarRel}; otherwise restore the handoff from git and find out who changed it.`),
  });
  if (!f.ok) return tampered(`${sidecarRel} cannot be read (${f.message}).`);
  const token = f.text.trim().split(/\s+/)[0] ?? '';
  if (!/^[0-9a-fA-F]{64}$/.test(token)) return tampered(`${sidecarRel} does not hold a SHA-256 hex digest ("${token.slice(0, 20)}").`);
  const actual = home.findings.some((x) => x.id === 'size') ? await hashFile(home.path) : home.hash;
  if (!actual) return tampered(`${home.relPath} could not be hashed.`);
  if (token.toLowerCase() !== actual) {
    return tampered(`${home.relPath} does not match ${sidecarRel} (sidecar ${token.slice(0, 12)}…, file ${actual.slice(0, 12)}…): it changed after the checkpoint attested it.`);
  }
  const notes = [token !== token.toLowerCase() ? 'the sidecar is upper-case hex' : '', /\n$/.test(f.text) ? 'the sidecar ends with a newline' : ''].filter(Boolean);
  return {
    state: 'MATCH',
    check: mk('S1', 'attestation', 'block', true, `MATCH: ${sidecarRel} matches the SHA-256 of ${home.relPath}${notes.length ? ` (${notes.join('; ')})` : ''}.`, { path: home.relPath }),
  };
}
