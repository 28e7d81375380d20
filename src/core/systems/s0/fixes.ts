/** S0's mechanical fixes: the ledger's `_Last updated:` line set to now; a ledger that is not enabled is enabled (`enable.ts`). */
import { t } from '../../model/messages';
import { linesOf, type FixOffer, type FixPlace, type LineEdit } from '../line-edit';
import { LINE_ENDS, oneOf, timestampValue, trimEndWhere } from '../../markdown/text';

/** The title of the fix that enables the ledger, as the Problems panel and the tree name it. */
export const ENABLE_TITLE = t('Enable the ledger: add `session: ledger: true` to .agents.yml');

/**
 * The fixes S0's findings offer: a stale or missing `_Last updated:` on the ledger is set to now; the
 * not-enabled finding (the seed's skip line) offers to enable the ledger in `.agents.yml`.
 */
export function fixOffersS0(p: FixPlace): FixOffer[] {
  if (p.check.id === 'timestamp' && p.onHome) return [{ kind: 'timestamp', title: t('Set _Last updated:_ to now') }];
  if (p.check.id === 'config' && p.check.severity === 'info' && p.check.status === 'warn')
    return [{ kind: 'enable-ledger', title: ENABLE_TITLE }];
  return [];
}

// A `_Last updated: <value>_` line: what comes before the value, the value, what follows it. The blanks
// before the value are taken whole, once, as in S0's timestamp check (rules.ts): linear in a long run.
const TIMESTAMP_RE =
  /^(\s*(?:[-*]\s+)?[_*]{0,2}(?:last updated|updated)[_*]{0,2}\s*[:：](?:\*\*|__)?(?=(\s*))\2)(.*)$/iu;

/**
 * S0's `_Last updated:` set to `now` (an ISO time): the value on `line` is replaced and the rest of
 * the line kept; without such a line, `_Last updated: <now>_` goes under the title (or first).
 */
export function timestampFix(text: string, line: number, now: string): LineEdit {
  const lines = linesOf(text);
  const at = lines[line - 1];
  // Line ends left on the line (a stray \r, a file made CRLF twice) stay after the new value.
  const body = at === undefined ? '' : trimEndWhere(at, oneOf(LINE_ENDS));
  const m = at === undefined ? null : TIMESTAMP_RE.exec(body);
  if (m) {
    const { after } = timestampValue(m[3]);
    const closing = after || (m[1].trimStart().startsWith('_') ? '_' : '');
    return { line, endLine: line, lines: [`${m[1]}${now}${closing}${at!.slice(body.length)}`] };
  }
  const title = lines.findIndex((l) => /^#\s/.test(l));
  if (title >= 0) return { line: title + 1, endLine: title + 1, lines: [lines[title], '', `_Last updated: ${now}_`] };
  return { line: 1, endLine: 1, lines: [`_Last updated: ${now}_`, '', lines[0] ?? ''] };
}
