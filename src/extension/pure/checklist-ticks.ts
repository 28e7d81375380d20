/**
 * Whose manual ticks the checklist shows. A tick counts only for a checkpoint of the session it was
 * given for, so a refusal that asks for ticks must lead to the boxes of the session it refused: when
 * Checkpoint now refused another session's manual items than the status bar follows (the user picked
 * it), the checklist shows that session's boxes (a tick there is saved for it, and its write button
 * checkpoints it) and says so; otherwise it shows the followed session's. vscode-free (unit tested).
 */
import type { CheckpointOutcome } from '../../core/checkpoint/checkpoint';
import { sessionName, shortId } from './session-pick';
import type { T } from './tree-text';

/** A session the checklist was switched to, with its name as the page says it. */
export interface PinnedTicks {
  /** The session whose ticks the boxes show (null: no session was known, the shared marker's). */
  sessionId: string | null;
  name: string;
}

/**
 * What the checklist's boxes do after a checkpoint outcome: `pin` to the session whose manual items it
 * refused (another than the status bar follows), `follow` the status bar's session again (the refusal
 * was for it), or `keep` what they show (nothing was refused on manual items).
 */
export type TicksAfter = { kind: 'pin'; sessionId: string | null } | { kind: 'follow' } | { kind: 'keep' };

export function ticksAfter(o: Pick<CheckpointOutcome, 'refusals' | 'ticksFor'>, followed: string | null): TicksAfter {
  if (!o.refusals.some((r) => r.code === 'manual-unconfirmed') || o.ticksFor === undefined) return { kind: 'keep' };
  return o.ticksFor === followed ? { kind: 'follow' } : { kind: 'pin', sessionId: o.ticksFor };
}

/** The session whose ticks the boxes show and a tick is saved for: the pinned one, else the followed one. */
export function ticksSession(pinned: PinnedTicks | undefined, followed: string | null): string | null {
  return pinned ? pinned.sessionId : followed;
}

/** A session's name for the page: its client and short id when the client is known. */
export function pinnedName(
  t: T,
  sessionId: string | null,
  live: ReadonlyArray<{ agent: 'claude' | 'codex'; sessionId: string | null }>,
  agent?: 'claude' | 'codex',
): string {
  if (sessionId === null) return t('no known agent session (the shared marker)');
  const client = live.find((s) => s.sessionId === sessionId)?.agent ?? agent;
  return client ? sessionName(t, { agent: client, sessionId }) : t('agent session {0}', shortId(sessionId));
}

/**
 * The note at the top of the checklist: while it shows another session's ticks than the status bar
 * follows, that it does and whose; else the line naming the followed session when several are live
 * (`liveLine`), or none.
 */
export function ticksNote(
  t: T,
  pinned: PinnedTicks | undefined,
  followed: string | null,
  liveLine: string | null,
): string | null {
  if (pinned && pinned.sessionId !== followed)
    return t(
      'These boxes are the ticks of {0}, the session Checkpoint now was for; the status bar follows another session. A tick here counts for {0} only.',
      pinned.name,
    );
  return liveLine;
}

/** The sentence a refusal adds once the checklist shows the ticks of the session it refused, so "tick them in the checklist" is true. */
export function switchedSentence(t: T, after: TicksAfter, name: string): string | null {
  return after.kind === 'pin' ? t('The checklist now shows the ticks of {0}.', name) : null;
}
