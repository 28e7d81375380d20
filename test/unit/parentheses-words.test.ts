/**
 * Parentheses in the tool's Japanese and Korean words, one rule a language, the same on every surface
 * (the extension's l10n bundles, the manifest's strings, and so the CLI's and the hooks' words, which are
 * entries of the same bundles; and the Japanese the sources write themselves, S4's report):
 *
 * - Japanese: every parenthesis of the text is full-width, （ and ）, whatever it holds, Japanese or not
 *   ("/clear（{0}）", "（Invariant 2）", "（git rm --cached {0}）"): what a placeholder will hold is not
 *   known where the sentence is written, and one rule reads the same everywhere. A full-width parenthesis
 *   carries its own space, so no half-width space stands outside one. Half-width ( ) stay only where they
 *   are syntax, not text: inside a code span (`…`) and in a Markdown link's target ([…](command:…)).
 * - Korean: every parenthesis is half-width, ( and ), as Korean writes them; never （ or ）.
 * - English: never （ or ）.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { literals, translationTables } from './source-literals';
import { REPO } from './helpers';

/** The text of a string outside its code spans and Markdown link targets (each left as one letter, `c`). */
const prose = (s: string): string => s.replace(/`[^`]*`|\]\([^)\s]*\)/g, 'c');

/** What breaks the Japanese rule in `s`: a half-width parenthesis in the text, or a space outside a full-width one. */
function japaneseFaults(s: string): string[] {
  const text = prose(s);
  return [
    ...(/[()]/.test(text) ? ['a half-width ( or ) in the text'] : []),
    ...(/ （|） /.test(text) ? ['a half-width space outside （ or ）'] : []),
  ];
}

/**
 * A string of the sources in Japanese: its first letter is kana or kanji, and it holds kana (kanji alone
 * could be Chinese). An English sentence that names Japanese headings, or a pattern's source, is not.
 */
const japanese = (s: string): boolean => /^[^\p{L}]*[\u3040-\u30ff\u4e00-\u9fff]/u.test(s) && /[\u3040-\u30ff]/.test(s);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

test('Japanese: every parenthesis of the text is full-width, with no half-width space outside it; half-width only in code spans and link targets', () => {
  const bad: string[] = [];
  for (const { file, table } of translationTables().filter((x) => /\.ja\.json$/.test(x.file)))
    for (const [key, ja] of Object.entries(table))
      for (const fault of japaneseFaults(ja)) bad.push(`${file}: ${key}: ${fault}: ${ja}`);
  // The Japanese the sources write themselves (S4's report in its own language).
  for (const file of sources(path.join(REPO, 'src')))
    for (const s of literals(file).filter(japanese))
      for (const fault of japaneseFaults(s)) bad.push(`${path.relative(REPO, file)}: ${fault}: ${s}`);
  assert.deepEqual(bad, []);
});

test('Korean and English: every parenthesis is half-width, never （ or ）', () => {
  const bad: string[] = [];
  for (const { file, table } of translationTables().filter((x) => !/\.ja\.json$/.test(x.file)))
    for (const [key, text] of Object.entries(table)) {
      if (/[（）]/.test(text)) bad.push(`${file}: ${key}: ${text}`);
      if (/[（）]/.test(key)) bad.push(`${file}: the key ${key}`);
    }
  assert.deepEqual(bad, []);
});
