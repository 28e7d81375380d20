/**
 * S0's write action "Enable the ledger": `session: ledger: true` in `.agents.yml`, the switch the
 * seed's Step 1 reads. The file is created when missing; an existing one is edited through the YAML
 * document (comments and every other setting kept). What the plan shows of the file is masked
 * (`shown`); the write writes the file's own bytes. The plan names the hash it read; the write
 * refuses when `.agents.yml` changed since (or appeared, when it was missing), is atomic, never
 * goes through a link the repository planted, and holds the file's write lock from read to rename.
 */
import * as path from 'node:path';
import { isMap, isScalar, LineCounter } from 'yaml';
import { writeAtomic, WriteRefused } from '../../files/atomic';
import { withWriteLock, writeRefusal } from '../../files/lock';
import { CONFIG_MAX_BYTES, readTextFile } from '../../files/fsread';
import { withLineEndsOf } from '../../files/line-ends';
import { maskedYamlText } from '../../markdown/yaml-tree';
import { aliasesRepeatTooMuch } from './rules';
import {
  aliasUses,
  errorPlace,
  MAX_ALIASES,
  parseYamlDocument,
  refusalMessage,
  syntaxMessage,
  yamlData,
  yamlRefusal,
} from '../../markdown/yaml';
import { t, type Msg } from '../../model/messages';
import { companionPath } from '../facts';

const CONFIG = companionPath('S0', 'config');

/** What "Enable the ledger" would write. */
export interface EnablePlan {
  /** Absolute path of `.agents.yml`. */
  path: string;
  /** Relative to the root. */
  rel: string;
  /** SHA-256 of the file as read, or null when it does not exist (the write then refuses if it appears). */
  hash: string | null;
  /** The file as read (without its BOM), and as it is written (`after`, its BOM put back). */
  before: string;
  after: string;
  /**
   * `before` and the edited text (without the BOM) as any surface shows them, a preview or a dry run:
   * secrets, personal data and `!!binary` values masked as the readers mask them (`maskedYamlText`).
   * Only the write takes `after` itself.
   */
  shown: { before: string; after: string };
  /** `session.ledger` is already the YAML boolean true: nothing to write. */
  already: boolean;
  /** The file is created. */
  created: boolean;
  /**
   * What the write would refuse, as it refuses it (a link at `.agents.yml`, at its write lock or on
   * their way: it is never written through one; a lock that is no file), or null. A dry run says it.
   */
  refusal: WriteRefused | null;
  /** The question and the detail a caller shows before writing, in S0's words. */
  question: Msg;
  detail: Msg;
}

/** Why the ledger cannot be enabled by this action (the file cannot be edited safely), or the plan. */
export type EnableOutcome = { ok: true; plan: EnablePlan } | { ok: false; why: Msg };

/** The new `.agents.yml` text with `session.ledger: true`, or why it cannot be edited. */
export function withLedgerOn(text: string): { ok: true; after: string; already: boolean } | { ok: false; why: Msg } {
  const lineCounter = new LineCounter();
  const doc = parseYamlDocument(text, { keepSourceTokens: false, logLevel: 'error', lineCounter });
  // What the readers do not read (said in the tool's words), the checkpoint could not read once enabled.
  const refused = yamlRefusal(doc);
  if (refused) return { ok: false, why: refusalMessage(refused.kind, CONFIG) };
  if (doc.errors.length) {
    const e = doc.errors[0];
    const at = errorPlace(text, lineCounter, e.pos[0]);
    return {
      ok: false,
      why: t(
        '{0} Fix the YAML at that line, then enable the ledger again.',
        syntaxMessage(e.code, CONFIG, at.line, at.column),
      ),
    };
  }
  // What the readers refuse to resolve (aliases that repeat too much) the checkpoint could not read once enabled.
  if (aliasUses(doc) > MAX_ALIASES) return { ok: false, why: aliasesRepeatTooMuch() };
  const data = yamlData(doc);
  if ('refused' in data) return { ok: false, why: refusalMessage(data.refused, CONFIG) };
  if (doc.contents !== null && !isMap(doc.contents))
    return { ok: false, why: t('.agents.yml is not a mapping of settings; add `session: ledger: true` by hand.') };
  const session = doc.get('session', true);
  if (session !== undefined && !isMap(session) && !(isScalar(session) && session.value === null))
    return { ok: false, why: t('`session` in .agents.yml is not a mapping; add `ledger: true` under it by hand.') };
  const cur = doc.getIn(['session', 'ledger']);
  if (cur === true) return { ok: true, after: text, already: true };
  if (isScalar(session)) doc.delete('session');
  doc.setIn(['session', 'ledger'], true);
  return { ok: true, after: doc.toString(), already: false };
}

/** The plan for `root`: what `.agents.yml` holds now and what it would hold. */
export async function planEnableLedger(root: string): Promise<EnableOutcome> {
  const abs = path.resolve(root);
  const file = path.join(abs, CONFIG);
  const f = await readTextFile(file, CONFIG_MAX_BYTES, { refuseLarger: true });
  if (!f.ok && f.kind !== 'missing') return { ok: false, why: t('.agents.yml cannot be read: {0}.', f.message) };
  const before = f.ok ? f.text : '';
  const edit = withLedgerOn(before);
  if (!edit.ok) return edit;
  // The YAML document is written with LF line breaks: the file's own line ends (and its BOM) are put back.
  const body = withLineEndsOf(before, edit.after);
  const after = f.ok && f.bom ? `\uFEFF${body}` : body;
  const created = !f.ok;
  const shownBefore = maskedYamlText(before);
  const shown = { before: shownBefore, after: edit.already ? shownBefore : maskedYamlText(body) };
  return {
    ok: true,
    plan: {
      path: file,
      rel: CONFIG,
      hash: f.ok ? f.hash : null,
      before,
      after,
      shown,
      already: edit.already,
      created,
      refusal: await writeRefusal(file, abs, true),
      question: created
        ? t('Create .agents.yml with `session: ledger: true`?')
        : t('Set `session: ledger: true` in .agents.yml?'),
      detail: t(
        'The checkpoint then checks and confirms the ledger (Step 5 of session-checkpoint) instead of skipping it. Every other setting and comment stays.',
      ),
    },
  };
}

/**
 * Write the plan: refused (WriteRefused) when `.agents.yml` changed since the plan read it, when it
 * or a folder on its way is a link, or when it is not a regular file. Returns the plan written.
 */
export async function applyEnableLedger(root: string, plan: EnablePlan): Promise<EnablePlan> {
  const abs = path.resolve(root);
  if (plan.already) return plan;
  await withWriteLock(plan.path, abs, () =>
    writeAtomic(plan.path, plan.after, { root: abs, own: true, expectHash: plan.hash, mkdir: false }),
  );
  return plan;
}

/** Plan and write in one go (the CLI and tests); refuses as `applyEnableLedger`, or throws WriteRefused with why it cannot edit. */
export async function enableLedger(root: string): Promise<EnablePlan> {
  const o = await planEnableLedger(root);
  if (!o.ok) throw new WriteRefused(`${o.why.text} Nothing was written.`, 'io', CONFIG, 'invalid');
  return applyEnableLedger(root, o.plan);
}
