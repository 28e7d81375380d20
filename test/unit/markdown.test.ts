import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMarkdown, sectionize } from '../../src/core/markdown/markdown';
import { matchKey, normalizeTitle } from '../../src/core/markdown/sections';

test('a # comment inside a code fence is never a heading', () => {
  const o = parseMarkdown('# Title\n\n```bash\n# not a heading\necho hi\n```\n\n## Next\n- do it\n');
  assert.deepEqual(
    o.headings.map((h) => [h.level, h.title, h.line]),
    [
      [1, 'Title', 1],
      [2, 'Next', 8],
    ],
  );
  const code = o.blocks.find((b) => b.kind === 'code');
  assert.equal(code?.info, 'bash');
  assert.equal(code?.line, 3);
});

test('front matter is cut out and kept; lines stay true', () => {
  const o = parseMarkdown('---\nname: x\ntype: y\n---\n# H\n- a\n');
  assert.equal(o.frontMatter?.text, 'name: x\ntype: y');
  assert.deepEqual(o.headings, [{ level: 1, title: 'H', line: 5 }]);
  assert.equal(o.blocks[0].line, 6);
});

test('list items carry depth, task state and joined continuation lines', () => {
  const o = parseMarkdown('- a\n  more\n  - nested\n- [x] done thing\n1. first\n');
  const items = o.blocks.filter((b) => b.kind === 'list-item');
  assert.deepEqual(
    items.map((b) => [b.text, b.line, b.depth]),
    [
      ['a more', 1, 0],
      ['nested', 3, 1],
      ['done thing', 4, 0],
      ['first', 5, 0],
    ],
  );
  assert.equal(items[2].checked, true);
  assert.equal(items[3].ordered, true);
});

test('sections span to the next heading of any level; preamble kept', () => {
  const text = 'intro line\n# Ledger\n## State\n### Done\n- x\n### Now\nworking on y\n';
  const o = parseMarkdown(text);
  const secs = sectionize(o, (t) =>
    matchKey(t, [
      ['done', /^done$/],
      ['now', /^now$/],
    ]),
  );
  assert.deepEqual(
    secs.map((s) => [s.key, s.line, s.endLine, s.items.length]),
    [
      ['preamble', 1, 1, 1],
      ['other', 2, 2, 0],
      ['other', 3, 3, 0],
      ['done', 4, 5, 1],
      ['now', 6, 8, 1],
    ],
  );
});

test('CRLF and BOM-free text parse with the same lines', () => {
  const o = parseMarkdown('# A\r\n- one\r\n- two\r\n');
  assert.deepEqual(
    o.blocks.map((b) => [b.text, b.line]),
    [
      ['one', 2],
      ['two', 3],
    ],
  );
});

test('tables become rows', () => {
  const o = parseMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n');
  assert.deepEqual(
    o.blocks.map((b) => [b.kind, b.text, b.line]),
    [
      ['table-row', '1 | 2', 3],
      ['table-row', '3 | 4', 4],
    ],
  );
});

test('normalizeTitle strips decorations, emoji, numbering and dates', () => {
  assert.equal(normalizeTitle('What to do now (priority order)'), 'what to do now');
  assert.equal(normalizeTitle('🎯 NEXT:'), 'next');
  assert.equal(normalizeTitle('2. Key Decisions (2026-01-02)'), 'key decisions');
  assert.equal(normalizeTitle('**Open questions** (UNCONFIRMED if needed)'), 'open questions');
  assert.equal(normalizeTitle('다음 할 일'), '다음 할 일');
});

test('hostile input never throws', () => {
  for (const s of [
    '',
    '\0\0\0',
    '#'.repeat(10000),
    '- '.repeat(50000),
    '```\n'.repeat(1000),
    '<!--'.repeat(1000),
    '\uFFFD\uD800',
  ]) {
    parseMarkdown(s);
  }
});

test('sectionize reads each block once: work is linear in the number of headings and blocks', () => {
  const parts: string[] = [];
  for (let i = 0; i < 2000; i++) parts.push(`## Entry ${i}`, `line ${i}`, '', `- item ${i}`, '');
  const o = parseMarkdown(parts.join('\n'));
  assert.equal(o.headings.length, 2000);
  let reads = 0;
  const blocks = new Proxy(o.blocks, {
    get(target, key, recv) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, recv);
    },
  });
  const sections = sectionize({ ...o, blocks }, () => 'other');
  assert.equal(sections.length, 2000);
  assert.deepEqual(
    sections[1999].items.map((x) => x.text),
    ['line 1999', 'item 1999'],
  );
  // A rescan per heading would read 2000 × 4000 blocks; one pass reads each of the 4000 a few times.
  assert.ok(reads <= 4 * o.blocks.length, `${reads} block reads for ${o.blocks.length} blocks`);
});
