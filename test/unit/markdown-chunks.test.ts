// A long document is parsed in chunks (markdown-it's tokens of a whole 100k-line parse outlive V8's
// young generation). The outline must be the same as one parse of the whole document: cuts are
// tried after every 2 lines here, on seeded random documents made of the lines that make Markdown
// blocks run on (fences, HTML blocks, lists, quotes, tables, setext underlines), and on the
// project's own fixtures strung together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { CHUNK_LINES, cutLines, parseMarkdown } from '../../src/core/markdown/markdown';
import { FIXTURES, rng } from './helpers';

const LINES = [
  '',
  '',
  '',
  '# Heading',
  '## Now',
  '### Log',
  '#no-space',
  '#',
  '###### six',
  '####### seven',
  '- item',
  '- [ ] task',
  '- [x] done',
  '  - nested',
  '    deep',
  '1. first',
  '2) second',
  '* star',
  '+ plus',
  'text',
  'more text',
  '- a\n  - b\n- c',
  '1. one',
  '-',
  '*',
  '- - nested',
  '-\ttab',
  '  indented text',
  '    code',
  '\tcode',
  '===',
  '---',
  '***',
  '___',
  '```',
  '```js',
  '````',
  '~~~',
  '~~~ info',
  '``` `bad`',
  '```\u00a0',
  ' ```',
  '  ~~~',
  '   ```',
  '> ```',
  '- ```',
  '  ```',
  '<pre>',
  '</pre>',
  '<pre>one line</pre>',
  '<script>',
  '</script>',
  '<style>',
  '</style>',
  '<textarea>',
  '</textarea>',
  '<!--',
  '-->',
  '<!-- one -->',
  '<?php',
  '?>',
  '<!DOCTYPE html>',
  '<!doctype',
  '<!X',
  '>',
  '<![CDATA[',
  ']]>',
  '<div>',
  '</div>',
  '<custom-tag>',
  '<span>',
  ' <pre>',
  '> quote',
  '> # quoted heading',
  '>',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '[ref]: /url',
  '[ref]:',
  '/url "title"',
  '\r',
  'a\rb',
  '\0',
];

function randomDoc(next: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    // Headings often, after blank lines and after anything else, so that there are many places to cut.
    if (i > 0 && next() < (out[i - 1] === '' ? 0.5 : 0.15))
      out.push(
        ['# Cut here', '## Cut ' + i, '- cut item', '* star item', '3. numbered', '-', '10) paren'][
          Math.floor(next() * 7)
        ],
      );
    else if (next() < 0.2) out.push('');
    else out.push(LINES[Math.floor(next() * LINES.length)]);
  }
  return out.join(next() < 0.1 ? '\r\n' : '\n');
}

test('a document parsed in chunks has the outline of one parse, on 5,000 seeded random documents', () => {
  const next = rng(20261203);
  let cut = 0;
  for (let k = 0; k < 5000; k++) {
    const doc = randomDoc(next, 10 + Math.floor(next() * 50));
    const whole = parseMarkdown(doc, Number.MAX_SAFE_INTEGER);
    const chunked = parseMarkdown(doc, 2);
    cut += cutLines(doc.split('\n'), 2).length;
    assert.deepEqual(chunked, whole, `document ${k}:\n${JSON.stringify(doc)}`);
  }
  assert.ok(cut > 10_000, `cuts were tried (${cut})`);
});

test("the project's Markdown fixtures strung into one long document: the same outline in chunks, and cut at the real chunk size", () => {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d).sort()) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.md')) files.push(p);
    }
  };
  walk(FIXTURES);
  assert.ok(files.length > 20, `${files.length} fixtures`);
  const parts: string[] = [];
  while (parts.join('\n').split('\n').length < 3 * CHUNK_LINES) {
    for (const f of files) parts.push(readFileSync(f, 'utf8'), '', `## From ${path.basename(f)}`, '');
  }
  const doc = parts.join('\n');
  const whole = parseMarkdown(doc, Number.MAX_SAFE_INTEGER);
  assert.ok(cutLines(doc.split('\n')).length >= 1, 'cut at least once at the real size');
  assert.deepEqual(parseMarkdown(doc), whole);
  assert.deepEqual(parseMarkdown(doc, 7), whole);
});

test('a fence left open before a cut: the rest is parsed in one piece, and the heading inside it stays code', () => {
  const filler = (n: number): string[] => Array.from({ length: n }, (_, i) => `- line ${i}`);
  const doc = [
    '# Top',
    ...filler(10),
    '',
    '```',
    'code',
    '',
    '# not a heading',
    ...filler(10),
    '',
    '# Real heading',
    ...filler(10),
  ].join('\n');
  const out = parseMarkdown(doc, 3);
  assert.deepEqual(
    out.headings.map((h) => h.title),
    ['Top'],
  );
  assert.deepEqual(out, parseMarkdown(doc, Number.MAX_SAFE_INTEGER));
});
