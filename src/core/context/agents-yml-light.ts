/**
 * What `.agents.yml` says of S0 (`session.ledger: true` switches it on), told without the YAML
 * library for the status line and `context`, which never load it. The light reader answers only for
 * the plain YAML a settings file is usually written in, and answers it as the YAML reader would;
 * for anything else it says `unsure` and the caller asks the YAML reader itself.
 *
 * Plain YAML here: one document of nested block mappings and sequences indented with spaces; plain
 * keys (letters, digits, `_ . / -`), each once per mapping; values that are a plain scalar on one
 * line, a quoted scalar without backslashes on one line, a block scalar (`|`, `>`), or a flow
 * collection on one line holding plain scalars (a flow mapping: `key: value` entries, keys once);
 * comments; a leading `---` and a final `...`. Everything else is `unsure`: anchors, aliases and
 * merge keys (`&a`, `*a`, `<<: *a`), tags (`!!str`), directives (`%YAML 1.1` changes what `yes`
 * means), explicit keys (`? `), quoted keys, nested or multi-line flow collections, plain scalars
 * over several lines, a value on the line below its key, a top level that is not a block mapping,
 * tabs in indentation, and everything the YAML reader refuses (it decides how).
 *
 * Each line is looked at once, with no regular expression that backtracks: time is linear in the
 * text.
 */

export type LightAnswer = 'on' | 'off' | 'unsure';

/** The YAML 1.2 core schema's `true` (what the YAML reader turns into the boolean). */
const YAML_TRUE = new Set(['true', 'True', 'TRUE']);

/** A plain key and what follows its colon (`key: value`, `key:`); `key :` is the same key. */
const KEY_RE = /^([A-Za-z0-9_][A-Za-z0-9_./-]*) *:(?=[ \t]|$)/;

/** `s` without a trailing comment (`#` at the start or after a space or tab), trimmed. */
function uncommented(s: string): string {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '#' && (i === 0 || s[i - 1] === ' ' || s[i - 1] === '\t')) return s.slice(0, i).trim();
  }
  return s.trim();
}

/** Nothing after a closing quote or bracket but spaces and a comment (its `#` after a space). */
function onlyComment(after: string): boolean {
  return after.trim() === '' || ((after[0] === ' ' || after[0] === '\t') && uncommented(after) === '');
}

/** A plain scalar the YAML reader reads as the same one-line string: no indicator first, no `: ` inside, no `:` last. */
function plainOk(v: string): boolean {
  if (v === '') return false;
  if ('[]{},#&*!|>\'"%@`'.includes(v[0])) return false;
  if ((v[0] === '-' || v[0] === '?' || v[0] === ':') && (v.length === 1 || v[1] === ' ' || v[1] === '\t')) return false;
  return !v.includes(': ') && !v.includes(':\t') && !v.endsWith(':');
}

/** Inside a flow collection a plain scalar must also hold no flow indicator and no colon. */
function flowPlainOk(v: string): boolean {
  return plainOk(v) && !/[[\]{},:]/.test(v);
}

/**
 * A one-line flow collection (`[a, b]`, `{k: v}`) of plain scalars, with nothing but a comment
 * after it. For a mapping: its entries (key → value, `''` for none); for a sequence: an empty map.
 * Null when it is anything else.
 */
function simpleFlow(v: string): Map<string, string> | null {
  const close = v[0] === '[' ? ']' : '}';
  const end = v.indexOf(close);
  if (end < 0 || !onlyComment(v.slice(end + 1))) return null;
  const inner = v.slice(1, end);
  if (/[[\]{}'"#&*!|>%@`?]/.test(inner)) return null;
  const parts = inner.split(',').map((p) => p.trim());
  if (parts.length && parts[parts.length - 1] === '') parts.pop(); // a trailing comma
  const out = new Map<string, string>();
  if (parts.length === 1 && parts[0] === '' && inner.trim() === '') return out;
  for (const p of parts) {
    if (close === ']') {
      if (!flowPlainOk(p)) return null;
      continue;
    }
    const m = KEY_RE.exec(p);
    if (!m || out.has(m[1])) return null;
    const val = p.slice(m[0].length).trim();
    if (val !== '' && !flowPlainOk(val)) return null;
    out.set(m[1], val);
  }
  return out;
}

/** What a value after `key:` or `- ` is, for the reader: a one-line scalar, a flow collection, more below, or out of reach. */
type Value =
  | { kind: 'scalar'; plain: string | null }
  | { kind: 'flow'; map: Map<string, string> }
  | { kind: 'below' }
  | { kind: 'block-scalar' }
  | null;

function valueOf(raw: string): Value {
  const v = raw.trim();
  if (v === '' || v[0] === '#') return { kind: 'below' };
  if (v[0] === '|' || v[0] === '>')
    return /^[|>](?:[-+]?[1-9]?|[1-9][-+])$/.test(uncommented(v)) ? { kind: 'block-scalar' } : null;
  if (v[0] === '[' || v[0] === '{') {
    const map = simpleFlow(v);
    return map ? { kind: 'flow', map: v[0] === '{' ? map : new Map() } : null;
  }
  if (v[0] === '"' || v[0] === "'") {
    const end = v.indexOf(v[0], 1);
    if (end < 0 || v.includes('\\') || v[end + 1] === "'") return null;
    return onlyComment(v.slice(end + 1)) ? { kind: 'scalar', plain: null } : null;
  }
  const p = uncommented(v);
  return plainOk(p) ? { kind: 'scalar', plain: p } : null;
}

/** A key (or `- `) with no value on its line: at this indent, whether it was the top-level `session`, whether a `- `. */
interface Pending {
  indent: number;
  session: boolean;
  item: boolean;
}

/** Inside a block scalar: its key's indent, the indent of its first content line once seen, the widest blank line before it. */
interface Scalar {
  parent: number;
  indent: number | null;
  blank: number;
}

interface Level {
  indent: number;
  kind: 'map' | 'seq';
  keys: Set<string>;
  /** This mapping is the top-level `session`'s value. */
  session: boolean;
}

/**
 * Characters JavaScript's `trim` takes as white space and YAML does not (a no-break or ideographic
 * space, VT, FF, a BOM past the start, the Unicode line and paragraph separators), and a CR that ends
 * no line: with one of them the light reader's trimming could read a line otherwise than YAML does.
 */
const NOT_YAML_SPACE = /[\v\f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|\r(?!\n)/;

/** What `.agents.yml` text says of S0: `on`, `off`, or `unsure` (ask the YAML reader). */
export function agentsYmlLight(source: string): LightAnswer {
  const text = source.replace(/^\uFEFF/, '');
  if (NOT_YAML_SPACE.test(text)) return 'unsure';
  const lines = text.split(/\r?\n/);
  const levels: Level[] = [];
  let pending: Pending | null = null;
  let scalar: Scalar | null = null;
  /** Content seen; a `---` seen; a `...` seen (only comments may follow). */
  let seen = false;
  let started = false;
  let ended = false;
  let on = false;

  /** A `key: value` at column `col` of a mapping level; false when it is out of reach. */
  const entry = (level: Level, body: string, col: number): boolean => {
    const m = KEY_RE.exec(body);
    if (!m || level.keys.has(m[1])) return false;
    level.keys.add(m[1]);
    const val = valueOf(body.slice(m[0].length));
    if (!val) return false;
    const topSession = levels.length === 1 && level.indent === 0 && m[1] === 'session';
    if (val.kind === 'below') pending = { indent: col, session: topSession, item: false };
    else if (val.kind === 'block-scalar') scalar = { parent: col, indent: null, blank: 0 };
    else if (topSession && val.kind === 'flow') on = YAML_TRUE.has(val.map.get('ledger') ?? '');
    else if (level.session && m[1] === 'ledger')
      on = val.kind === 'scalar' && val.plain !== null && YAML_TRUE.has(val.plain);
    return true;
  };

  for (const line of lines) {
    const ind = line.length - line.trimStart().length;
    const body = line.slice(ind);
    if (scalar) {
      const sc: Scalar = scalar;
      if (body === '') {
        // A blank line inside the scalar; more spaces than its content's indent before that content is an error.
        if (sc.indent === null) sc.blank = Math.max(sc.blank, line.length);
        continue;
      }
      if (/^ *\t/.test(line) && sc.indent === null) return 'unsure';
      if (ind > sc.parent) {
        if (sc.indent === null) {
          if (sc.blank > ind) return 'unsure';
          sc.indent = ind;
        } else if (ind < sc.indent) return 'unsure';
        continue;
      }
      scalar = null;
    }
    if (body === '' || body[0] === '#') continue;
    if (ended) return 'unsure'; // content after `...`
    if (/^ *\t/.test(line)) return 'unsure';
    if (
      ind === 0 &&
      (body.startsWith('---') || body.startsWith('...')) &&
      (body.length === 3 || body[3] === ' ' || body[3] === '\t')
    ) {
      if (uncommented(body.slice(3)) !== '') return 'unsure';
      if (body[0] === '.') ended = true;
      else if (seen || started) return 'unsure'; // a second document
      started = true;
      continue;
    }
    seen = true;
    const item = body[0] === '-' && (body.length === 1 || body[1] === ' ');
    if (pending !== null) {
      const p: Pending = pending;
      pending = null;
      if (ind > p.indent || (ind === p.indent && item && !p.item)) {
        levels.push({ indent: ind, kind: item ? 'seq' : 'map', keys: new Set(), session: p.session && !item });
      }
    }
    if (!levels.length) {
      if (ind !== 0 || item) return 'unsure'; // a top level that is not a block mapping at column 0
      levels.push({ indent: 0, kind: 'map', keys: new Set(), session: false });
    }
    while (levels.length && levels[levels.length - 1].indent > ind) levels.pop();
    let top = levels[levels.length - 1];
    if (
      top &&
      top.indent === ind &&
      top.kind === 'seq' &&
      !item &&
      levels.length > 1 &&
      levels[levels.length - 2].indent === ind
    ) {
      levels.pop(); // a sequence at its key's indent ends where the next key starts
      top = levels[levels.length - 1];
    }
    if (!top || top.indent !== ind || (top.kind === 'seq') !== item) return 'unsure';
    if (top.kind === 'map') {
      if (!entry(top, body, ind)) return 'unsure';
      continue;
    }
    // A sequence item: a scalar, a mapping that starts on its line, or more below.
    const rest = body.slice(1);
    const col = ind + 1 + (rest.length - rest.trimStart().length);
    const inner = rest.trim();
    if (KEY_RE.test(inner)) {
      const level: Level = { indent: col, kind: 'map', keys: new Set(), session: false };
      levels.push(level);
      if (!entry(level, inner, col)) return 'unsure';
      continue;
    }
    const val = valueOf(rest);
    if (!val || val.kind === 'block-scalar') return 'unsure';
    if (val.kind === 'below') pending = { indent: ind, session: false, item: true };
  }
  if (!seen && (started || ended)) return 'unsure'; // a document of markers only
  return on ? 'on' : 'off';
}
