/**
 * S4's compact phase (`refresh_guard.py --mode plan|apply`): keep the newest `## Current Project`,
 * `## Current Feature` and `## Current Bug Fix` block of each kind and every other line verbatim,
 * in document order. The preview names the state hash; apply refuses when `.agents/STATE.md` no
 * longer has it, validates the composed bytes (exactly one `# Agent State`, one `## Progress
 * Tracker`), writes atomically, and checks the structure on disk again. What the plan shows of the
 * state (`shown`, the pruned blocks' titles, the preview file) has its secrets and personal data masked
 * as the readers mask them; the write writes the file's own bytes, and the hash is the real file's.
 */
import * as path from 'node:path';
import { changedSinceRead, hardLinkRefused, refuseOutside, writeAtomic, WriteRefused } from '../../files/atomic';
import { withWriteLock } from '../../files/lock';
import { t } from '../../model/messages';
import { readTextFile } from '../../files/fsread';
import { parseMarkdown } from '../../markdown/markdown';
import { maskSecrets } from '../../secrets/secrets';
import { hasS4Headings, readS4Structure, type S4BlockKind } from './reader-state';
import { companionPath, systemName } from '../facts';
import { S4_FACTS } from './facts';

export const S4_STATE_REL = S4_FACTS.home;
/** Said when the workspace holds no S4 state to compact. */
export const NO_STATE = t('No state file of {0} ({1}) in this workspace.', systemName('S4'), S4_STATE_REL);
/** Where the previews go (`.agents/logs/`, the folder the seed gives drafts and previews). */
export const S4_LOGS = companionPath('S4', 'logs');

export interface CompactPlan {
  /** Absolute path of `.agents/STATE.md`. */
  path: string;
  /** SHA-256 of the state bytes as read (`state_hash_before`). */
  hash: string;
  /** The state as read and as it is written (its BOM kept): only the write takes `after`. */
  before: string;
  after: string;
  /**
   * `before` and `after` (without the BOM) as any surface shows them, a preview, a dry run or its file:
   * secrets and personal data masked as the readers mask the state (`maskSecrets`), the same lines
   * kept and removed.
   */
  shown: { before: string; after: string };
  /** The blocks that go: kind and heading line (in the file as read). */
  pruned: Array<{ kind: string; line: number }>;
  changed: boolean;
  /** Every pruned block, with its title (masked, as the readers read it) and line range (for the preview). */
  prunedBlocks: Array<{ kind: S4BlockKind; title: string; line: number; endLine: number }>;
  /** The composed text has exactly one `# Agent State` and one `## Progress Tracker`. */
  structureOk: boolean;
  /** What is wrong with the structure, when it is not ok (English, for the CLI). */
  problems: string[];
  /** The lines of the composed text's `# Agent State` and `## Progress Tracker` headings (the data behind `problems`). */
  headings: { agentState: number[]; progressTracker: number[] };
}

const KIND_TITLE: Record<S4BlockKind, string> = {
  project: 'Current Project',
  feature: 'Current Feature',
  bugfix: 'Current Bug Fix',
};

/** Structure problems of an S4 state text: anything but one `# Agent State` and one `## Progress Tracker`. */
export function structureProblems(text: string): string[] {
  const s = readS4Structure(parseMarkdown(text));
  const out: string[] = [];
  if (s.agentState.length !== 1)
    out.push(
      `${s.agentState.length} "# Agent State" headings (exactly one is valid)${s.agentState.length ? ` at lines ${s.agentState.join(', ')}` : ''}`,
    );
  if (s.progressTracker.length !== 1)
    out.push(
      `${s.progressTracker.length} "## Progress Tracker" headings (exactly one is valid)${s.progressTracker.length ? ` at lines ${s.progressTracker.join(', ')}` : ''}`,
    );
  return out;
}

/**
 * Compose the compacted text: the older blocks of each kind removed, every other line as it was. The
 * same lines are removed from `shown`, the text as the readers mask it (masking keeps every line
 * break, so its lines are the text's), for `shownAfter`; a pruned block's title is read from it.
 */
export function composeCompaction(
  text: string,
  shown = maskSecrets(text).text,
): { after: string; shownAfter: string; pruned: CompactPlan['prunedBlocks'] } {
  const s = readS4Structure(parseMarkdown(text));
  const raw = text.split('\n');
  const masked = shown.split('\n');
  const titles = new Map(readS4Structure(parseMarkdown(shown)).blocks.map((b) => [b.line, b.title]));
  const drop = new Set<number>();
  const pruned: CompactPlan['prunedBlocks'] = [];
  for (const b of s.blocks) {
    if (b.newestOfKind) continue;
    const title = titles.get(b.line) ?? maskSecrets(b.title).text;
    pruned.push({ kind: b.kind, title, line: b.line, endLine: b.endLine });
    for (let l = b.line; l <= b.endLine; l++) drop.add(l - 1);
  }
  // The empty string after a final newline is the file's last "line": it stays (the file keeps its newline).
  if (raw.length > 1 && raw[raw.length - 1] === '') drop.delete(raw.length - 1);
  const after = raw.filter((_, i) => !drop.has(i)).join('\n');
  const shownAfter = masked.filter((_, i) => !drop.has(i)).join('\n');
  return { after, shownAfter, pruned };
}

/**
 * The compaction preview, or null when there is no S4 state (no file, unreadable, or none of S4's
 * headings). Throws WriteRefused ('link', 'hard-links') when the state file has more than one hard
 * link: it may be a file from outside the workspace, so it is neither previewed nor written; and
 * WriteRefused ('outside') when it leads out of the workspace (a link): it is not read either.
 */
export async function planCompactState(root: string): Promise<CompactPlan | null> {
  const file = path.join(path.resolve(root), S4_STATE_REL);
  await refuseOutside(file, path.resolve(root));
  const f = await readTextFile(file, undefined, { refuseHardLinks: true });
  if (!f.ok && f.kind === 'hard-link') throw hardLinkRefused(S4_STATE_REL, f.links ?? 2, S4_STATE_REL);
  if (!f.ok || f.truncated) return null;
  if (!hasS4Headings(parseMarkdown(f.text))) return null;
  const shownBefore = maskSecrets(f.text).text;
  const { after: body, shownAfter, pruned } = composeCompaction(f.text, shownBefore);
  const after = f.bom ? `\uFEFF${body}` : body;
  const before = f.bom ? `\uFEFF${f.text}` : f.text;
  const problems = structureProblems(body);
  const st = readS4Structure(parseMarkdown(body));
  return {
    path: file,
    hash: f.hash,
    before,
    after,
    shown: { before: shownBefore, after: shownAfter },
    pruned: pruned.map((p) => ({ kind: KIND_TITLE[p.kind], line: p.line })),
    changed: after !== before,
    prunedBlocks: pruned,
    structureOk: problems.length === 0,
    problems,
    headings: { agentState: st.agentState, progressTracker: st.progressTracker },
  };
}

/**
 * Apply the compaction to the state whose hash is `expectHash` (the preview's). Throws WriteRefused
 * when the file changed since (or is gone), when the composed text breaks the structure, or when
 * the structure on disk is not right after the write.
 */
/** `unpreviewed`: the hash is the run's own reading, not a preview's (`--apply` without `--expect-hash`): a change says so. */
export async function applyCompactState(root: string, expectHash: string, unpreviewed = false): Promise<CompactPlan> {
  // Read and written by one run at a time.
  const abs = path.resolve(root);
  return withWriteLock(path.join(abs, S4_STATE_REL), abs, () => compactLocked(root, expectHash, unpreviewed));
}

async function compactLocked(root: string, expectHash: string, unpreviewed: boolean): Promise<CompactPlan> {
  const plan = await planCompactState(root);
  if (!plan)
    throw new WriteRefused(
      `${S4_STATE_REL} is missing or is no state file of ${systemName('S4')}; nothing was written.`,
      'changed',
      S4_STATE_REL,
      'missing',
    );
  if (plan.hash !== expectHash.toLowerCase()) {
    if (unpreviewed) throw changedSinceRead(S4_STATE_REL);
    throw new WriteRefused(
      `${S4_STATE_REL} changed since the preview (hash ${plan.hash.slice(0, 12)}…, expected ${expectHash.slice(0, 12)}…); nothing was written. Preview it again.`,
      'changed',
      S4_STATE_REL,
      'preview',
    );
  }
  if (!plan.structureOk)
    throw new WriteRefused(
      `the compacted state would be invalid: ${plan.problems.join('; ')}. Fix the structure first; nothing was written.`,
      'io',
      S4_STATE_REL,
      'invalid',
    );
  if (!plan.changed) return plan;
  await writeAtomic(plan.path, plan.after, { expectHash, root, refuseHardLinks: true });
  const now = await readTextFile(plan.path);
  const problems = now.ok ? structureProblems(now.text) : [`cannot read it back: ${now.message}`];
  if (problems.length)
    throw new WriteRefused(
      `${S4_STATE_REL} was written, but its structure is not valid on disk: ${problems.join('; ')}.`,
      'io',
      S4_STATE_REL,
      'invalid-written',
    );
  return plan;
}

/** `state-compaction-preview-YYYYMMDD-HHMMSS.md` (UTC) under `.agents/logs/`, relative to the root. */
export function previewRel(now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return `${S4_LOGS}/state-compaction-preview-${stamp}.md`;
}

/**
 * The preview of `refresh_guard.py --mode apply` without `--apply`: the composed state written to
 * `.agents/logs/state-compaction-preview-<time>.md`, the state itself untouched. It holds the state as
 * every preview shows it (`shown.after`, its BOM kept): a secret or personal datum of the state is not
 * copied into another file of the repository, masked or not. Written atomically
 * as one of the tool's own files (never through a link, never over an existing file: a preview of
 * the same second refuses, as the seed's timestamp collision does). Returns the relative path.
 */
export async function writeCompactionPreview(root: string, plan: CompactPlan, now = Date.now()): Promise<string> {
  const abs = path.resolve(root);
  const rel = previewRel(now);
  const bom = plan.before.startsWith('\uFEFF') ? '\uFEFF' : '';
  await writeAtomic(path.join(abs, rel), bom + plan.shown.after, { root: abs, own: true, expectHash: null });
  return rel;
}
