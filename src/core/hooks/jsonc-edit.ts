/**
 * Minimal edits of a JSON-with-comments text (Claude Code's settings files), on jsonc-parser's
 * syntax tree: insert a property or an array element, replace a value, remove one. Every byte
 * outside the edited span stays as it was (jsonc-parser's own `modify` reformats neighbouring
 * lines, so the spans are computed here). Inserting and then removing the same thing gives back
 * the original text.
 */
import { findNodeAtLocation, parseTree, type JSONPath, type Node, type ParseError } from 'jsonc-parser';
import { dominantEol } from '../files/line-ends';

export interface Style {
  /** One level of indentation as the file writes it. */
  unit: string;
  eol: string;
}

export function detectStyle(text: string): Style {
  // Lines added get the ending most of the file's lines have.
  const eol = dominantEol(text);
  let unit: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const m = /^([ \t]+)["{}[\]]/.exec(line);
    if (!m) continue;
    if (m[1].startsWith('\t')) return { unit: '\t', eol };
    if (unit === null || m[1].length < unit.length) unit = m[1];
  }
  return { unit: unit ?? '  ', eol };
}

export interface Tree {
  root: Node | undefined;
  errors: ParseError[];
}

export function parse(text: string): Tree {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  return { root, errors };
}

export function nodeAt(text: string, path: JSONPath): Node | undefined {
  const { root } = parse(text);
  return root ? findNodeAtLocation(root, path) : undefined;
}

/** The whitespace before a node when it starts its line, else null. */
function lineIndent(text: string, offset: number): string | null {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(start, offset);
  return /^[ \t]*$/.test(before) ? before : null;
}

/** The indentation of the line a node starts on. */
function indentOfLine(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** JSON text of a value, multi-line in the file's style, continuation lines prefixed by `indent`. */
export function render(value: unknown, indent: string, style: Style): string {
  return JSON.stringify(value, null, style.unit)
    .split('\n')
    .join(style.eol + indent);
}

/** The children that count as members: property nodes of an object, values of an array. */
function members(c: Node): Node[] {
  return c.children ?? [];
}

function end(n: Node): number {
  return n.offset + n.length;
}

/**
 * Insert into the object or array at `containerPath`: a property `key: value` (object) or the
 * element `value` at the end (array). Returns null when the container is missing or of another type.
 */
export function insertChild(text: string, containerPath: JSONPath, value: unknown, key?: string): string | null {
  const c = containerPath.length ? nodeAt(text, containerPath) : parse(text).root;
  if (!c || (key !== undefined ? c.type !== 'object' : c.type !== 'array')) return null;
  const style = detectStyle(text);
  const kids = members(c);
  const head = key !== undefined ? `${JSON.stringify(key)}: ` : '';
  if (kids.length) {
    const last = kids[kids.length - 1];
    const ind = lineIndent(text, last.offset);
    const at = end(last);
    const piece =
      ind === null ? `, ${head}${JSON.stringify(value)}` : `,${style.eol}${ind}${head}${render(value, ind, style)}`;
    return text.slice(0, at) + piece + text.slice(at);
  }
  const outer = indentOfLine(text, c.offset);
  const inner = outer + style.unit;
  const at = c.offset + 1;
  const rest = text.slice(at);
  const body = `${style.eol}${inner}${head}${render(value, inner, style)}`;
  // What the empty container held (line breaks, a comment) follows the new member as it was, so
  // removing the member gives back the exact bytes; `{}` and `{ }` get their closing bracket on a
  // line of its own.
  if (/^[ \t]*\r?\n/.test(rest) || text.slice(at, end(c) - 1).trim() !== '') return text.slice(0, at) + body + rest;
  return text.slice(0, at) + body + style.eol + outer + rest.replace(/^[ \t]*(?=[}\]])/, '');
}

/** Replace the value at `path` in place. Returns null when there is none. */
export function replaceValue(text: string, path: JSONPath, value: unknown): string | null {
  const n = nodeAt(text, path);
  if (!n) return null;
  const style = detectStyle(text);
  const ind = indentOfLine(text, n.parent?.type === 'property' ? n.parent.offset : n.offset);
  return text.slice(0, n.offset) + render(value, ind, style) + text.slice(end(n));
}

/** Remove the property or array element at `path` (and the comma and line break that joined it). */
export function removeAt(text: string, path: JSONPath): string | null {
  const v = nodeAt(text, path);
  if (!v) return null;
  const n = v.parent?.type === 'property' ? v.parent : v;
  const c = n.parent;
  if (!c) return null;
  const kids = members(c);
  const i = kids.indexOf(n);
  if (i > 0) return text.slice(0, end(kids[i - 1])) + text.slice(end(n));
  if (i === 0 && kids.length > 1) return text.slice(0, n.offset) + text.slice(kids[1].offset);
  // The only member: it goes with what led up to it from the opening bracket; a container left
  // with nothing but white space inside becomes `{}` / `[]`.
  const after = text.slice(end(n)).replace(/^\s*,/, '');
  const out = text.slice(0, c.offset + 1) + after;
  const close = end(c) - 1 - (text.length - out.length);
  return /^\s*$/.test(out.slice(c.offset + 1, close)) ? out.slice(0, c.offset + 1) + out.slice(close) : out;
}

// What the installer reads of a settings text besides the edits, from here: one copy of the parser in the hook script.
export { getNodeValue, printParseErrorCode, type Node as JsonNode, type ParseErrorCode } from 'jsonc-parser';
