/**
 * What every system's home (`systems/<sN>/index.ts`) exports: its facts, its reader and rules over
 * one loaded-document type, its closing words and its starter. Its write actions and fixes are in
 * the same folder, called by the commands that apply them.
 */
import type { Msg } from '../model/messages';
import type { NotReadWhy, SystemReport } from '../model/model';
import type { SystemModule } from '../model/system';
import type { ClosingOf } from '../report/closing';
import type { SystemFacts } from './facts';
import type { Starter } from './starter';

export interface SystemHome<E = unknown> extends SystemModule<E> {
  facts: SystemFacts;
  closing: ClosingOf;
  starter: Starter;
  /** Why a file at one of the system's paths was not read as its document, in words (for the reason codes its reader records). */
  notRead?: (why: NotReadWhy, rel: string) => Msg;
  /** What the system says at every session start, before the resume block when `loud` (S1's attestation). */
  atStart?: (s: SystemReport) => Array<{ line: string; loud: boolean }>;
}
