/**
 * Whether a small YAML settings file (`.agents.yml`) is broken, told without the YAML library (the
 * status line and `context` never load it). Broken is what the YAML reader refuses or cannot turn
 * into a mapping of settings: a tab as indentation, a second document, a top level that is a list
 * or a bare scalar, a quoted value or flow collection that never closes (or is followed by more
 * text), a value or line starting with a stray `]` / `}` (or `@`, `` ` ``), mapping items that do not start at the same column, a key nested under
 * a key that already has a value, a line at a mapping's column that is not `key: value`, the same
 * key twice in one mapping, and an alias with no anchor before it. Inside a block scalar or a
 * block sequence nothing is looked at.
 */

/** A block mapping line: indentation, key (plain or quoted), and what follows the colon. */
const KEY_RE = /^( *)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|(?:[^\s#'"?[\]{},&*!|>%@`-]|-(?=\S))(?:\S|\s+(?![\s#]))*?)[ \t]*:(?:[ \t]+(.*))?$/;

function unquote(k: string): string {
  if (k.startsWith('"')) return k.slice(1, -1).replace(/\\(.)/g, '$1');
  if (k.startsWith("'")) return k.slice(1, -1).replace(/''/g, "'");
  return k.trim();
}

function withoutComment(v: string): string {
  return v.replace(/(?:^|\s)#.*$/, '').trim();
}

/**
 * The end of a quoted scalar or flow collection starting at `text[0]`: the index just past its
 * closing character, or -1 when it never closes.
 */
function closeOf(text: string): number {
  const open = text[0];
  if (open === '"' || open === "'") {
    for (let i = 1; i < text.length; i++) {
      if (open === '"' && text[i] === '\\') i++;
      else if (text[i] === open) {
        if (open === "'" && text[i + 1] === "'") i++;
        else return i + 1;
      }
    }
    return -1;
  }
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ((c === '"' || c === "'") && /[[{,:]\s*$/.test(text.slice(0, i))) {
      // A quote opens a quoted scalar only where a flow entry starts (`[`, `{`, `,` or `key: `).
      const end = closeOf(text.slice(i));
      if (end < 0) return -1;
      i += end - 1;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return -1;
      i = nl;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function isContent(line: string): boolean {
  const s = line.trim();
  return s !== '' && !s.startsWith('#');
}

/** How a value (after `key: ` or `- `) starts, as the structure goes on from it. */
type ValueKind = 'empty' | 'block-scalar' | 'plain' | 'spanned' | 'broken';

export function yamlLooksBroken(source: string): boolean {
  const lines = source.replace(/^\uFEFF/, '').split(/\r?\n/);
  const anchors = new Set<string>();
  const levels: Array<{ indent: number; keys: Set<string> }> = [];
  /** The last key line (at this indent) had no value: the next deeper line opens its block. */
  let pending: number | null = null;
  /** The last value was plain, at a line of this indent: deeper lines without a key continue it. */
  let plainAt: number | null = null;
  /** A block scalar's lines: deeper than its key's indent. */
  let scalarAt: number | null = null;
  /** A block sequence: its key's indent and the column of its `-`. */
  let seq: { keyIndent: number; col: number } | null = null;
  let seenContent = false;
  let skipTo = -1;

  /**
   * The value starting at column `from` of line `i`, under a line indented `ind`: a quoted scalar or
   * flow collection must close (its further lines indented deeper than `ind`), with nothing but a
   * comment after it; an alias needs its anchor before it.
   */
  const value = (i: number, from: number, ind: number): ValueKind => {
    let v = withoutComment(lines[i].slice(from));
    if (v.startsWith('&')) {
      const a = /^&([^\s[\]{},]+)(?:\s+|$)/.exec(v);
      if (!a) return 'broken';
      anchors.add(a[1]);
      from = lines[i].indexOf(v, from) + a[0].length;
      v = v.slice(a[0].length);
    }
    if (v === '') return 'empty';
    if (/^[|>]/.test(v)) return 'block-scalar';
    if (v.startsWith('*')) return anchors.has(v.slice(1).trim()) ? 'plain' : 'broken';
    if (/^[\]}@`]/.test(v)) return 'broken'; // an indicator no plain value starts with
    if (!/^["'[{]/.test(v)) return 'plain';
    const at = lines[i].indexOf(v[0], from);
    const rest = [lines[i].slice(at), ...lines.slice(i + 1)].join('\n');
    const end = closeOf(rest);
    if (end < 0) return 'broken';
    const more = rest.slice(0, end).split('\n').slice(1);
    if (more.some((l) => l.trim() !== '' && (/^ */.exec(l)?.[0].length ?? 0) <= ind)) return 'broken';
    if (!/^\s*(?:#.*)?$/.test(rest.slice(end).split('\n')[0])) return 'broken';
    skipTo = i + more.length;
    return 'spanned';
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i <= skipTo || !isContent(line)) continue;
    const ind = /^ */.exec(line)?.[0].length ?? 0;
    if (scalarAt !== null && ind > scalarAt) continue;
    scalarAt = null;
    if (/^[ ]*\t/.test(line)) return true;
    const body = line.slice(ind);
    if (ind === 0 && /^---(?:\s|$)/.test(body)) {
      if (seenContent) return true;
      continue;
    }
    if (ind === 0 && /^\.\.\.(?:\s|$)/.test(body)) break;
    if (ind === 0 && !seenContent && body.startsWith('%')) continue;
    if (/^[\]}]/.test(body)) return true;
    if (plainAt !== null && ind > plainAt) {
      if (KEY_RE.test(line)) return true; // a key nested under a key that has a value
      continue; // a plain value's next line
    }
    plainAt = null;
    const item = /^-(?:\s+|$)/.exec(body);
    if (seq) {
      if (ind > seq.col) continue; // inside an item
      if (ind === seq.col && item) {
        if (KEY_RE.test(' '.repeat(ind + item[0].length) + body.slice(item[0].length))) continue; // a mapping in an item
        const k = value(i, ind + item[0].length, ind);
        if (k === 'broken') return true;
        if (k === 'block-scalar') scalarAt = ind;
        continue;
      }
      if (ind === seq.col && seq.col > seq.keyIndent) return true;
      seq = null;
    }
    if (!seenContent) {
      seenContent = true;
      if (item || body.startsWith('[')) return true; // a list, not a mapping
      if (body.startsWith('{')) {
        if (value(i, ind, -1) === 'broken') return true;
        continue;
      }
    }
    const m = KEY_RE.exec(line);
    if (!m) {
      if (pending !== null && item && ind >= pending) {
        seq = { keyIndent: pending, col: ind };
        pending = null;
        i--; // read the first item as the sequence's
        continue;
      }
      if (pending !== null && !item && levels.length && ind > levels[levels.length - 1].indent) {
        // The value on the line below its key.
        const k = value(i, ind, pending);
        if (k === 'broken') return true;
        if (k === 'plain') plainAt = pending;
        if (k === 'block-scalar') scalarAt = pending;
        pending = null;
        continue;
      }
      return true; // not `key: value` where a mapping item belongs (or a bare scalar document)
    }
    const top = levels[levels.length - 1];
    if (!top) levels.push({ indent: ind, keys: new Set() });
    else if (ind > top.indent) {
      if (pending === null) return true; // a key nested under a key that has a value
      levels.push({ indent: ind, keys: new Set() });
    } else {
      while (levels.length && levels[levels.length - 1].indent > ind) levels.pop();
      if (!levels.length || levels[levels.length - 1].indent !== ind) return true;
    }
    pending = null;
    const keys = levels[levels.length - 1].keys;
    const key = unquote(m[2]);
    if (keys.has(key)) return true;
    keys.add(key);
    const k = value(i, line.length - (m[3] ?? '').length, ind);
    if (k === 'broken') return true;
    if (k === 'empty') pending = ind;
    else if (k === 'block-scalar') scalarAt = ind;
    else if (k === 'plain') plainAt = ind;
  }
  return false;
}
