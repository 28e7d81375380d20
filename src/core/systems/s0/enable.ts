/**
 * S0's write action "Enable the ledger": `session: ledger: true` in `.agents.yml`, the switch the
 * seed's Step 1 reads. The file is created when missing; in an existing one only the line of that
 * setting changes or is added, every other byte stays (`withLedgerOn`). What the plan shows of the file
 * is masked (`shown`); the write writes the file's own bytes. The plan names the hash it read; the write
 * refuses when `.agents.yml` changed since (or appeared, when it was missing), is atomic, never
 * goes through a link the repository planted, and holds the file's write lock from read to rename.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isAlias, isMap, isScalar, LineCounter, Parser, type Document, type Pair, type YAMLMap } from 'yaml';
import { writeAtomic, WriteRefused } from '../../files/atomic';
import { withWriteLock, writeRefusal } from '../../files/lock';
import { CONFIG_MAX_BYTES, readTextFile } from '../../files/fsread';
import { dominantEol } from '../../files/line-ends';
import { endOfValue, maskedYamlText, spliced, type Cut } from '../../markdown/yaml-tree';
import { aliasesRepeatTooMuch } from './rules';
import {
  aliasUses,
  emptyDocument,
  errorPlace,
  MAX_ALIASES,
  nullDocument,
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
   * `before` and `after` (without the BOM) as any surface shows them, a preview or a dry run: secrets,
   * personal data and `!!binary` values masked as the readers mask them (`maskedYamlText`). Only the
   * write takes `after` itself.
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

/** Where a node stands in the text: its start, the end of its value, the end of its node (comments after it). */
type Range = [number, number, number];
const rangeOf = (n: unknown): Range | null => (n as { range?: Range | null } | null)?.range ?? null;

/**
 * The cuts that set `session.ledger: true` in `text` and leave every other byte as it is, or null when
 * this document's shape has no such cut here:
 * - `ledger` under `session` with a scalar or an alias for its value (`false`, `no`, `off`, empty, quoted,
 *   tagged, a block scalar): that value becomes `true` (a tag on its line goes with it, an anchor stays);
 * - a block `session:` mapping without `ledger`: a line `ledger: true` right below `session:`, indented
 *   as the mapping's first key; a flow one (`session: {…}`): `ledger: true` first inside its braces;
 * - `session:` with no value (empty, `~`, `null`): that value taken off and `ledger: true` on the line below,
 *   one indentation step deeper; a null on a line of its own below `session:` becomes `ledger: true` there;
 * - no `session`: a `session:` block after the document's last line (before its end marker `...`, which
 *   ends the document), at the top keys' indentation (inside the braces of a top flow mapping); the same
 *   for a document that holds no node (`emptyDocument`: empty, comments, `---`, `...`) or a file that is
 *   not there.
 * New lines end as most of the file's lines do. What the cuts make is checked by the caller.
 */
function ledgerCuts(text: string, doc: Document.Parsed): Cut[] | null {
  const eol = dominantEol(text);
  const lineStart = (at: number) => text.lastIndexOf('\n', at - 1) + 1;
  /**
   * The indentation of the block mapping whose key stands at `at`: the spaces that start its line (an anchor,
   * a tag or `? ` may stand between them and the key; an edit that would not read as the mapping's is refused).
   */
  const mapIndent = (at: number): string => /^ */.exec(text.slice(lineStart(at), at))![0];
  /** Insert `lines` (each ended by `eol`) at the start of the line after the one holding `at`. */
  const belowLineOf = (at: number, lines: string): Cut => {
    const nl = text.indexOf('\n', at);
    if (nl >= 0) return { from: nl + 1, to: nl + 1, put: lines };
    return { from: text.length, to: text.length, put: eol + lines };
  };
  /** Insert `put` before the first item inside a flow mapping's braces (after the blanks that follow `{`). */
  const inBraces = (map: YAMLMap, put: string): Cut | null => {
    const r = rangeOf(map);
    if (!r || text[r[0]] !== '{') return null;
    const blanks = /^[ \t\r\n]*/.exec(text.slice(r[0] + 1))![0];
    const at = r[0] + 1 + blanks.length;
    const more = map.items.length ? ', ' : blanks && text[at] === '}' ? ' ' : '';
    return { from: at, to: at, put: put + more };
  };
  /** New lines at the end of the document: before its end marker, else after the text's last line. */
  const atDocumentEnd = (lines: string): Cut => {
    const end = documentEndAt(text, doc) ?? text.length;
    const lead = end === 0 || text[end - 1] === '\n' ? '' : eol;
    return { from: end, to: end, put: `${lead}${lines}` };
  };
  const step = indentStep(text, doc.contents);
  const top = doc.contents;
  if (emptyDocument(doc)) return [atDocumentEnd(`session:${eol}${step}ledger: true${eol}`)];
  if (!isMap(top)) return null;
  const pair = top.items.find((p) => isScalar(p.key) && p.key.value === 'session');
  if (!pair) {
    if (top.flow) {
      const cut = inBraces(top, 'session: {ledger: true}');
      return cut && [cut];
    }
    const first = rangeOf(top.items[0]?.key);
    if (!first) return null;
    const indent = mapIndent(first[0]);
    return [atDocumentEnd(`${indent}session:${eol}${indent}${step}ledger: true${eol}`)];
  }
  const key = rangeOf(pair.key);
  if (!key) return null;
  const session = pair.value;
  if (session === null || (isScalar(session) && session.value === null)) {
    if (top.flow) return null;
    const indent = mapIndent(key[0]);
    const below = `${indent}${step}ledger: true${eol}`;
    const r = rangeOf(session);
    if (!r || r[0] === r[1]) return [belowLineOf(key[1], below)];
    if (/[\r\n]/.test(text.slice(key[1], r[0]))) {
      // `session:` / `  ~`: the null, alone on its line and written without a tag or an anchor, is the place.
      if (!isScalar(session) || session.tag || session.anchor) return null;
      if (!/^[ \t]*$/.test(text.slice(lineStart(r[0]), r[0]))) return null;
      return [{ from: r[0], to: r[1], put: 'ledger: true' }];
    }
    if (/[\r\n]/.test(text.slice(key[1], r[1]))) return null;
    // `session: ~` loses its `~` and the blanks before it, or after it when a comment follows.
    const rest = /^[ \t]*/.exec(text.slice(r[1]))![0];
    const atEnd = /^(?:\r?\n|$)/.test(text.slice(r[1] + rest.length));
    let from = r[0];
    while (atEnd && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
    return [{ from, to: atEnd ? r[1] : r[1] + rest.length, put: '' }, belowLineOf(r[1], below)];
  }
  if (!isMap(session)) return null;
  const ledger = session.items.find((p) => isScalar(p.key) && p.key.value === 'ledger');
  if (ledger) {
    const cut = valueCut(text, ledger);
    return cut && [cut];
  }
  if (session.flow) {
    const cut = inBraces(session, 'ledger: true');
    return cut && [cut];
  }
  const first = rangeOf(session.items[0]?.key);
  if (!first || lineStart(first[0]) <= key[1]) return null;
  return [belowLineOf(key[1], `${mapIndent(first[0])}ledger: true${eol}`)];
}

/** The cut that makes an existing `ledger` pair's value (a scalar or an alias) `true`; null for a list or a mapping. */
function valueCut(text: string, ledger: Pair): Cut | null {
  const key = rangeOf(ledger.key);
  if (!key) return null;
  const v = ledger.value;
  if (v === null) return { from: key[1], to: key[1], put: ': true' };
  if (!isScalar(v) && !isAlias(v)) return null;
  const r = rangeOf(v);
  if (!r) return null;
  // A tag on the value's line (`!!str off`) goes with it; an anchor (`&x no`) stays.
  const props = /^([ \t]*:[ \t]*)([!&][^\r\n#]*)$/.exec(text.slice(key[1], r[0]));
  const tagged = props !== null && /(?:^|[ \t])!/.test(props[2]);
  const from = tagged ? key[1] + props[1].length : r[0];
  const kept = tagged
    ? props[2]
        .split(/[ \t]+/)
        .filter((p) => p !== '' && !p.startsWith('!'))
        .map((p) => `${p} `)
        .join('')
    : '';
  const empty = r[0] === r[1];
  const before = empty && text[from - 1] === ':' ? ' ' : '';
  const after = empty && text[r[1]] === '#' ? ' ' : '';
  // The blanks and line breaks the library counts into a value's end (a block scalar's, a `\r`) stay.
  return { from, to: endOfValue(text, r[0], r[1]), put: `${before}${kept}true${after}` };
}

/** A space or a tab: the blanks of a YAML line. */
const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/**
 * `text`, a document whose one node is a null scalar (`nullDocument`), without that node: its text (`~`,
 * `null` …), its tag and its anchor, each with the blanks after it, go; a line that leaves blank goes with its
 * line break, and the blanks a line is left with at its end go. Comments, directives and document markers
 * stay. Null when a piece of the node is not on one line (the edit is then the user's).
 */
function withoutNullNode(text: string): string | null {
  const spans: Array<[number, number]> = [];
  for (const tok of new Parser().parse(text)) {
    if (tok.type !== 'document') continue;
    for (const p of tok.start)
      if (p.type === 'tag' || p.type === 'anchor') spans.push([p.offset, p.offset + p.source.length]);
    const v = tok.value;
    if (v) {
      if (v.type !== 'scalar' && v.type !== 'single-quoted-scalar' && v.type !== 'double-quoted-scalar') return null;
      spans.push([v.offset, v.offset + v.source.length]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let k = 0;
  let off = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const brk = i < lines.length - 1 ? '\n' : '';
    const cr = line.endsWith('\r') ? '\r' : '';
    const body = cr ? line.slice(0, -1) : line;
    let kept = '';
    let at = 0;
    let touched = false;
    while (k < spans.length && spans[k][0] < off + body.length) {
      const [from, to] = spans[k++];
      if (from < off + at || to > off + body.length) return null;
      let end = to - off;
      while (isBlank(body[end])) end++;
      kept += body.slice(at, from - off);
      at = end;
      touched = true;
    }
    off += line.length + 1;
    if (!touched) {
      out += line + brk;
      continue;
    }
    let rest = kept + body.slice(at);
    if (at === body.length) {
      let e = rest.length;
      while (e > 0 && isBlank(rest[e - 1])) e--;
      rest = rest.slice(0, e);
    }
    if (rest !== '') out += rest + cr + brk;
  }
  return k === spans.length ? out : null;
}

/**
 * Where the document's end marker (`...` at the start of a line) stands in `text`, or null when it has none:
 * the first such line after the document's value (a comment line starts with `#`, and no scalar holds one).
 */
function documentEndAt(text: string, doc: Document): number | null {
  if (!doc.directives?.docEnd) return null;
  const from = doc.range?.[1] ?? 0;
  for (let at = text.lastIndexOf('\n', from - 1) + 1; at < text.length;) {
    if (text.startsWith('...', at) && /^(?:[ \t\r\n]|$)/.test(text.slice(at + 3, at + 4))) return at;
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    at = nl + 1;
  }
  return null;
}

/** The spaces one level of the file's block mappings is indented by (that of its first nested one), else two. */
function indentStep(text: string, top: unknown): string {
  if (!isMap(top) || top.flow) return '  ';
  for (const p of top.items) {
    const v = p.value;
    if (!isMap(v) || v.flow) continue;
    const outer = rangeOf(p.key)?.[0];
    const inner = rangeOf(v.items[0]?.key)?.[0];
    if (outer === undefined || inner === undefined) continue;
    const col = (at: number) => at - (text.lastIndexOf('\n', at - 1) + 1);
    const d = col(inner) - col(outer);
    if (d > 0 && d <= 8) return ' '.repeat(d);
  }
  return '  ';
}

/** `after` reads as the data of `before` (`data`) with `session.ledger: true`, and nothing else changed. */
function readsAsLedgerOn(after: string, data: unknown): boolean {
  const doc = parseYamlDocument(after, { keepSourceTokens: false, logLevel: 'error' });
  if (doc.errors.length || yamlRefusal(doc) || aliasUses(doc) > MAX_ALIASES) return false;
  const now = yamlData(doc);
  if (!('value' in now)) return false;
  // The expected data is a new top and a new `session` over the old ones, never the old ones changed: the
  // data of an alias to `session` (`other: *s`) is the same object, and must still read without the ledger.
  let expected: unknown;
  if (data === null || data === undefined) expected = { session: { ledger: true } };
  else if (typeof data !== 'object' || Array.isArray(data)) return false;
  else {
    const o = data as Record<string, unknown>;
    if (o.session === null || o.session === undefined) expected = { ...o, session: { ledger: true } };
    else if (typeof o.session === 'object' && !Array.isArray(o.session))
      expected = { ...o, session: { ...(o.session as Record<string, unknown>), ledger: true } };
    else return false;
  }
  return isDeepStrictEqual(now.value, expected);
}

/**
 * The new `.agents.yml` text with `session.ledger: true`, or why it cannot be edited. Only the line of
 * that setting changes or is added (`ledgerCuts`); every other byte stays, and the edit is read back: it
 * must read as the same data with `session.ledger: true`. A shape that no such edit sets (`ledger`
 * holding a list or a mapping, `? session` as an explicit key, a tagged `~` on the line below `session:`,
 * a `session` that a merge key `<<` gives) is refused with what to add by hand: writing the whole document
 * again would change its layout (quotes, indentation, spaces before comments, folded lines, `!!binary`
 * values), and the CLI writes without a preview. A document whose data is null (`nullDocument`: it holds
 * no node, as `---`, `...` or comments, or only a null, as `~` or `--- null # none yet`) is an empty
 * config, as S0's reader reads it: the null goes (`withoutNullNode`) and the `session:` block is added.
 */
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
  // Data the library cannot make (an alias with no anchor before it) the checkpoint could not read either, as check says.
  if ('error' in data) return { ok: false, why: t('.agents.yml cannot be read: {0}.', data.error) };
  if (!nullDocument(doc) && !isMap(doc.contents))
    return { ok: false, why: t('.agents.yml is not a mapping of settings; add `session: ledger: true` by hand.') };
  const session = doc.get('session', true);
  if (session !== undefined && !isMap(session) && !(isScalar(session) && session.value === null))
    return { ok: false, why: t('`session` in .agents.yml is not a mapping; add `ledger: true` under it by hand.') };
  const cur = doc.getIn(['session', 'ledger']);
  if (cur === true) return { ok: true, after: text, already: true };
  // A null the document holds (`~`, `--- null # none yet`) is taken out first; what is left holds no node.
  let base: { text: string; doc: Document.Parsed } | null = { text, doc };
  if (nullDocument(doc) && !emptyDocument(doc)) {
    const stripped = withoutNullNode(text);
    const sdoc = stripped === null ? null : parseYamlDocument(stripped, { keepSourceTokens: false, logLevel: 'error' });
    base =
      stripped !== null && sdoc && !sdoc.errors.length && emptyDocument(sdoc) ? { text: stripped, doc: sdoc } : null;
  }
  const cuts = base && ledgerCuts(base.text, base.doc);
  const after = base && cuts ? spliced(base.text, cuts) : text;
  if (!cuts || !readsAsLedgerOn(after, data.value))
    return {
      ok: false,
      why: t(
        '`session: ledger: true` cannot be set in .agents.yml without changing more of the file than that setting; add it by hand.',
      ),
    };
  return { ok: true, after, already: false };
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
  // The file's BOM is put back (the text read is without it).
  const after = f.ok && f.bom ? `\uFEFF${edit.after}` : edit.after;
  const created = !f.ok;
  const shownBefore = maskedYamlText(before);
  const shown = { before: shownBefore, after: edit.already ? shownBefore : maskedYamlText(edit.after) };
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
        'The checkpoint then checks and confirms the ledger (Step 5 of session-checkpoint) instead of skipping it. Only the line of that setting changes or is added; every other line stays as it is.',
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
