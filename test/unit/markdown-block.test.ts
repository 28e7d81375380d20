/**
 * The readers parse Markdown with markdown-it's block parser on its own (src/core/markdown/markdown.ts),
 * not the whole markdown-it: the outline must be the one the whole parser gives, on every corpus file
 * and fixture and on the reference definitions whose links decide whether a line is one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import MarkdownIt from 'markdown-it';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import { CORPORA, filesUnder, FIXTURES } from './helpers';

const whole = new MarkdownIt({ html: true });

const markdownFiles = (dir: string): string[] =>
  filesUnder(dir).filter((p) => /\.(md|markdown)$/i.test(p) && statSync(p).size < 4_000_000);

test('the block parser on its own outlines every corpus file and fixture as the whole markdown-it does', () => {
  const files = [...CORPORA.flatMap((c) => markdownFiles(c.dir)), ...markdownFiles(FIXTURES)];
  assert.ok(files.length > 100, `${files.length} files`);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    assert.deepEqual(parseMarkdown(text), parseMarkdown(text, undefined, whole), f);
  }
});

test('a reference definition is one where the whole markdown-it says so: script, file and data links stay text', () => {
  const cases = [
    '[a]: https://example.com "title"',
    '[a]: <https://example.com/a b>',
    '[a]: javascript:alert(1)',
    '[a]: JavaScript:alert(1)',
    '[a]:  vbscript:x',
    '[a]: file:///etc/passwd',
    '[a]: data:text/html;base64,PHNjcmlwdD4=',
    '[a]: data:image/png;base64,iVBORw0KGgo=',
    '[a]: data:image/svg+xml;base64,PHN2Zz4=',
    '[a]: <java\tscript:x>',
    '[a]: %6Aavascript:x',
    '[a]: http://ex\u00e4mple.com/\u00fc',
    '[a]: mailto:me@ex\u00e4mple.com',
    "[a]:\n  https://example.com\n  'title over lines'",
    '[a]: /x "unclosed title',
  ];
  for (const c of cases) {
    const doc = `# Next\n\n${c}\n- item after it\n`;
    const ours = parseMarkdown(doc);
    assert.deepEqual(ours, parseMarkdown(doc, undefined, whole), JSON.stringify(c));
  }
  // The cases differ: some are definitions (no line), some stay text.
  const lineCount = (c: string) => parseMarkdown(`${c}\n`).blocks.filter((b) => b.kind === 'line').length;
  assert.equal(lineCount('[a]: https://example.com'), 0);
  assert.equal(lineCount('[a]: javascript:alert(1)'), 1);
  assert.equal(lineCount('[a]: data:image/png;base64,iVBORw0KGgo='), 0);
});
