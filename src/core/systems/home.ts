/**
 * What every system's home (`systems/<sN>/index.ts`) exports: what the hooks run of it (HookHome:
 * its facts, its reader, the skeleton check and the resume, and its words for a file not read and at
 * session start), and the whole home (SystemHome: its rules over the same loaded-document type, its
 * closing words and its starter). Its write actions and fixes are in the same folder, called by the
 * commands that apply them.
 */
import type { Msg } from '../model/messages';
import type { NotReadWhy, SystemReport } from '../model/model';
import type { SystemModule, SystemResumer } from '../model/system';
import type { ClosingOf } from '../report/closing';
import type { SystemFacts } from './facts';
import type { Starter } from './starter';

/**
 * What the PreCompact and SessionStart hooks take of a system on every event (./hooks): nothing of its
 * other rules, closing words or starter.
 */
export interface HookHome<E = unknown> extends SystemResumer<E> {
  facts: SystemFacts;
  /** Why a file at one of the system's paths was not read as its document, in words (for the reason codes its reader records). */
  notRead?: (why: NotReadWhy, rel: string) => Msg;
  /** What the system says at every session start, before the resume block when `loud` (S1's attestation). */
  atStart?: (s: SystemReport) => Array<{ line: string; loud: boolean }>;
}

/** A system's whole home: what the hooks take, with every rule, its closing words and its starter. */
export interface SystemHome<E = unknown> extends HookHome<E>, SystemModule<E> {
  closing: ClosingOf;
  starter: Starter;
}

/**
 * The whole home of a system from what the hooks take of it and the rest. Called marked pure in each
 * home, so a bundle that takes only the hook home (the hooks' part) drops the rest.
 */
export function wholeHome<E>(
  hook: HookHome<E>,
  rest: Pick<SystemHome<E>, 'analyse' | 'closing' | 'starter'>,
): SystemHome<E> {
  return { ...hook, ...rest };
}
