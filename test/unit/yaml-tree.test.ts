/**
 * The readers' YAML tree (src/core/markdown/yaml-tree.ts) against the `yaml` library itself: for
 * every YAML text of the corpora and fixtures (files, front matter, S1 snapshot blocks), a list of
 * written cases and thousands of mutations of them, `readYaml` gives the library's values, lines,
 * first error and data, whether its plain reader or the library answered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter } from 'yaml';
import { parseYamlDocument, yamlRefusal } from '../../src/core/markdown/yaml';
import { readPlainYaml, readYaml, type YamlNode } from '../../src/core/markdown/yaml-tree';
import { CORPORA, FIXTURES, rng } from './helpers';

type Plain = unknown;

/**
 * The library's answer, as plain data; a document the tool does not read (`yamlRefusal`: nesting, keys that
 * are not plain values, the library's errors said in the tool's words) has no error and no data, only why.
 */
function oracle(text: string, uniqueKeys: boolean): Plain {
  const lc = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lc, logLevel: 'error', uniqueKeys });
  const line = (n: unknown) => {
    const r = (n as { range?: number[] } | null)?.range;
    return r ? lc.linePos(r[0]).line : null;
  };
  const conv = (n: unknown): Plain => {
    if (n === null || n === undefined) return null;
    if (isScalar(n)) return ['scalar', line(n), n.value];
    if (isMap(n))
      return [
        'map',
        line(n),
        n.items.map((p) => [
          isScalar(p.key) ? p.key.value : undefined,
          isScalar(p.key),
          String((p.key as { value?: unknown } | null)?.value ?? p.key),
          line(p.key),
          conv(p.value),
        ]),
      ];
    if (isSeq(n)) return ['seq', line(n), n.items.map(conv)];
    return ['other', line(n)];
  };
  // A place is named on a line the text has: one past the final line break is the last line's.
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const placed = (pos: number) => Math.min(lc.linePos(pos).line, Math.max(1, lines));
  const refusal = yamlRefusal(doc);
  if (refusal)
    return {
      error: null,
      refused: [refusal.kind, refusal.at === null ? null : placed(refusal.at)],
      root: conv(doc.contents),
      data: [null, `not read: ${refusal.kind}`],
    };
  let data: Plain;
  try {
    data = [doc.toJS(), null];
  } catch (err) {
    data = [null, (err as Error).message];
  }
  const e = doc.errors[0];
  return { error: e ? [e.message, placed(e.pos[0])] : null, refused: null, root: conv(doc.contents), data };
}

/** `readYaml`'s answer, in the same shape. */
function ours(text: string, uniqueKeys: boolean): Plain {
  const y = readYaml(text, { uniqueKeys });
  const conv = (n: YamlNode | null): Plain => {
    if (n === null) return null;
    if (n.kind === 'scalar') return ['scalar', n.line, n.value];
    if (n.kind === 'map')
      return ['map', n.line, n.pairs.map((p) => [p.key, p.keyIsScalar, p.keyText, p.keyLine, conv(p.value)])];
    if (n.kind === 'seq') return ['seq', n.line, n.items.map(conv)];
    return ['other', n.line];
  };
  return {
    error: y.error ? [y.error.message, y.error.line] : null,
    refused: y.refused ? [y.refused.kind, y.refused.line] : null,
    root: conv(y.root),
    data: [y.data.value, y.data.error],
  };
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const f = path.join(dir, name);
    if (statSync(f).isDirectory()) filesUnder(f, out);
    else out.push(f);
  }
  return out;
}

/** Every YAML text of the corpora and fixtures: whole files, front matter, fenced YAML blocks. */
function seeds(): string[] {
  const texts: string[] = [];
  for (const dir of [...CORPORA.map((c) => c.dir), FIXTURES]) {
    for (const f of filesUnder(dir)) {
      const text = readFileSync(f, 'utf8');
      if (/\.ya?ml$/.test(f)) texts.push(text);
      if (!f.endsWith('.md')) continue;
      const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
      if (fm) texts.push(fm[1]);
      for (const m of text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)) texts.push(m[1]);
    }
  }
  return texts;
}

/** Written cases the plain reader answers for. */
const PLAIN_CASES = [
  'a: 1\nb: 1.50\nd: +3\ne: 0o17\nf: 0x1F\ng: 1e3\nh: .5\ni: .inf\nk: .nan\nl: 007\nm: 12345678901234567890\n',
  'a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: true\ng: False\nh: TRUE\ni: yes\nj: no\nk: on\nl: tRue\n',
  'a: "quoted # not a comment"\nb: \'single\'\nc: "x" # comment\n',
  'session:\n  ledger: true\n  ledger_path: .agents/session_ledger.md\n# comment\nconfig_version: 1.9\n',
  'list:\n- a\n- b\nnext: 1\n',
  'list:\n  - a\n  -\n  - k: v\n    j: w\n',
  'a: []\nb: {}\ne: [] # c\n',
  'a:\n  b:\n    c:\n      d: deep\n  e: 2\n',
  '- a\n- b\n',
  'a: x #c\nb: x#c\nc: x  \n',
  'k.with.dots: 1\nk/with/slash: 2\nk-with-dash: 3\n_k: 4\n',
  '- a: 1\n  b: 2\n- c: 3\n',
  '-   a: 1\n    b: 2\n',
  'ts: 2026-12-01\nctx: "reservation queue: model and tests done"\nnext:\n  - "expire holds (urgency: H)"\ndiff:\n  - op: add\n    item: "x"\n    why: "y"\nblocked:\n  - item: "z"\n    risk: M\n',
];

/** Written cases the plain reader leaves to the library. */
const LIBRARY_CASES = [
  'c: -2\n',
  'j: -.Inf\n',
  "d: 'it''s'\n",
  'e: "esc\\"aped"\nf: "a\\nb"\n',
  'list:\n  - - nested\n',
  'c: [x]\n',
  'd: { }\n',
  'a: 1\na: 2\n',
  'a: b: c\n',
  'a: value:\n',
  'a: plain\n  continued\n',
  'a: |\n  block\n',
  'a: >-\n  folded\n',
  'a: &x 1\nb: *x\n',
  '<<: {a: 1}\n',
  '? complex\n: key\n',
  'true: 1\nnull: 2\n1: 3\n',
  '__proto__: 1\n',
  '---\na: 1\n',
  'a: 1\n...\n',
  '%YAML 1.2\n---\na: 1\n',
  '  a: 1\n  b: 2\n',
  'just a scalar\n',
  '',
  '# only a comment\n',
  'a:\tb\n',
  'a: 1\r\nb: 2\r\n',
  'a: x\u00a0\n',
  'a: !!str 1\n',
  'a: @x\n',
  'a: `x`\n',
  'a: -x\n',
  'a:\n    b: 1\n  c: 2\n',
  'a:\n  - x\n   - y\n',
  'a:\n- x\n  - y\n',
  'a: "unterminated\n',
  "a: 'unterminated\n",
  'a: [1, 2\n',
  // What the tool does not read (said in its words), and an ordered map it reads.
  '? [[a]]\n: 1\n',
  `x: ${'['.repeat(120)}${']'.repeat(120)}\n`,
  'o: !!omap\n  - a: 1\n  - a: 2\n',
  'o: !!omap\n  - a: 1\n  - b: 2\n',
];

const CASES = [...PLAIN_CASES, ...LIBRARY_CASES];

const PIECES = [
  ' ',
  '  ',
  '- ',
  '-',
  ':',
  ': ',
  '#',
  ' #',
  '"',
  "'",
  '[]',
  '{}',
  'x',
  '1',
  '~',
  'true',
  '\t',
  '?',
  '&a',
  '*a',
  '|',
  '---',
  '  - ',
];

/** A few edits of `text`: lines dropped, repeated, moved in or out, pieces inserted. */
function mutate(text: string, r: () => number): string {
  const lines = text.split('\n');
  const edits = 1 + Math.floor(r() * 3);
  for (let k = 0; k < edits && lines.length; k++) {
    const i = Math.floor(r() * lines.length);
    const what = Math.floor(r() * 6);
    if (what === 0) lines.splice(i, 1);
    else if (what === 1) lines.splice(i, 0, lines[i]);
    else if (what === 2) lines[i] = ` ${lines[i]}`;
    else if (what === 3) lines[i] = lines[i].replace(/^ /, '');
    else {
      const at = Math.floor(r() * (lines[i].length + 1));
      const piece = PIECES[Math.floor(r() * PIECES.length)];
      lines[i] = lines[i].slice(0, at) + piece + lines[i].slice(at);
    }
  }
  return lines.join('\n');
}

test('readYaml gives what the library gives: values, lines, first error and data, for every YAML text here and thousands of mutations', () => {
  const base = [...seeds(), ...CASES];
  assert.ok(
    base.length > CASES.length + 10,
    `only ${base.length - CASES.length} YAML texts found in the corpora and fixtures`,
  );
  const r = rng(20);
  const texts = [...base];
  for (let round = 0; round < 12; round++) for (const t of base) texts.push(mutate(t, r));
  let plain = 0;
  let refused = 0;
  for (const text of texts) {
    if (readPlainYaml(text)) plain++;
    for (const uniqueKeys of [true, false]) {
      const expected = oracle(text, uniqueKeys) as { refused: unknown };
      if (expected.refused) refused++;
      assert.deepEqual(ours(text, uniqueKeys), expected, JSON.stringify(text));
    }
  }
  // The plain reader answered for a good share (else this test would only compare the library with itself).
  assert.ok(plain > texts.length / 5, `the plain reader answered ${plain} of ${texts.length}`);
  // The tool's refusals (the cases written for them, and some of their mutations) are compared too.
  assert.ok(refused >= 6 && refused < texts.length / 20, `refused ${refused} of ${texts.length} twice`);
});

test('the plain reader answers for the plain YAML these files hold, and leaves the rest to the library', () => {
  for (const text of PLAIN_CASES) assert.ok(readPlainYaml(text), text);
  for (const text of LIBRARY_CASES) assert.equal(readPlainYaml(text), null, text);
});
