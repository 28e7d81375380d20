/**
 * What the diff editor and its question show of a write action that rewrites a state file (S4's
 * compaction, S3's Log rotation), vscode-free: both sides are the core's texts as every surface shows
 * them (`shown`, secrets and personal data masked), never the file on disk, which would show its
 * secrets (and each masked line as a change). The write, after the user confirms, takes the file's own bytes.
 */
import type { CompactPlan } from '../../core/systems/s4/compact-state';
import type { RotatePlan } from '../../core/systems/s3/rotate-log';
import type { T } from './tree-text';

export interface PreviewSides {
  /** The left side of the diff: the file as read, masked. */
  before: string;
  /** The right side: the file as it would be, masked. */
  after: string;
  /** The question's detail: what changes (titles as the readers read them, masked). */
  detail: string;
}

/** What S4's compaction removes and keeps, in one sentence (the preview's question and the quick fix's edit say it). */
export function prunedText(t: T, n: number): string {
  return n === 1
    ? t('1 older block is removed; every other section is kept verbatim, in order.')
    : t('{0} older blocks are removed; every other section is kept verbatim, in order.', n);
}

/** What S4's compaction did, for the notification after it. */
export function compactedText(t: T, rel: string, n: number): string {
  return n === 1 ? t('Compacted {0}: 1 block removed.', rel) : t('Compacted {0}: {1} blocks removed.', rel, n);
}

/** S4's compaction: the state before and after, and the blocks that go. */
export function compactPreview(t: T, plan: CompactPlan): PreviewSides {
  return {
    before: plan.shown.before,
    after: plan.shown.after,
    detail: [
      prunedText(t, plan.prunedBlocks.length),
      ...plan.prunedBlocks.map((b) => `- ${b.title} (${b.line}–${b.endLine})`),
    ].join('\n'),
  };
}

/** S3's Log rotation: STATE.md before and after, and where the entries go. */
export function rotatePreview(t: T, plan: RotatePlan): PreviewSides {
  return {
    before: plan.shown.before,
    after: plan.shown.after,
    detail: t('{0} Log entries move, verbatim, to {1}.', plan.moves.length, plan.archives.map((x) => x.rel).join(', ')),
  };
}
