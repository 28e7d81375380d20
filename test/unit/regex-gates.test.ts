/**
 * The cheap tests that stand before costly regular expressions (so that those are compiled only for
 * a text that may match) never turn a match away: each is a necessary condition of its pattern.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayBeVague, mayBeVagueHead, mayHold, VAGUE, VAGUE_HEAD } from '../../src/core/markdown/text';
import { EMOJI_SOURCE, MAY_BE_EMOJI } from '../../src/core/markdown/sections';
import { REGEX_RULES } from '../../src/core/secrets/secrets';
import { MAY_BE_FORMAT, terminalSafe } from '../../src/cli/io';
import { asMasked, MAY_BE_MARK } from '../../src/core/markdown/format-chars';
import { rng } from './helpers';

const LETTERS = [...'abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщъыьэюя'];

test('mayHold: a character that matches a Latin or Cyrillic letter under the i flag lower-cases to it, or mayHold says maybe for it', () => {
  for (const flags of ['iu', 'i']) {
    const anyLetter = new RegExp(`[${LETTERS.join('')}]`, flags);
    for (let c = 0; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCharCode(c);
      if (!anyLetter.test(s) || mayHold(s, ['#'])) continue;
      const lower = s.toLowerCase();
      assert.ok(LETTERS.includes(lower), `U+${c.toString(16)} (${flags})`);
      assert.ok(new RegExp(lower, flags).test(s), `U+${c.toString(16)} (${flags})`);
    }
  }
  assert.equal(mayHold('All DONE.', ['done']), true);
  assert.equal(mayHold('Готово', ['готово']), true);
  assert.equal(mayHold('all ſet', ['nothing']), true);
  assert.equal(mayHold('Ship the export', ['done', 'finished']), false);
  assert.equal(mayHold('the box is None', ['none'], true), false);
  assert.equal(mayHold('None at all', ['none'], true), true);
});

test('MAY_BE_EMOJI holds every character the emoji pattern removes', () => {
  const emoji = new RegExp(EMOJI_SOURCE, 'u');
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCodePoint(c);
    if (emoji.test(s)) assert.ok(MAY_BE_EMOJI.test(s), `U+${c.toString(16)}`);
  }
});

test('MAY_BE_FORMAT holds every character terminalSafe drops as a format character or separator, and every one the masker reads past', () => {
  const format = /[\p{Cf}\u2028\u2029]/u;
  const ignorable = /\p{Default_Ignorable_Code_Point}/u;
  let n = 0;
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCodePoint(c);
    const dropped = format.test(s);
    if (!dropped && !ignorable.test(s)) continue;
    n++;
    assert.ok(MAY_BE_FORMAT.test(s), `U+${c.toString(16)}`);
    assert.equal(asMasked(`a${s}b`), 'ab', `U+${c.toString(16)}`);
    if (dropped) assert.equal(terminalSafe(`a${s}b`), 'ab', `U+${c.toString(16)}`);
  }
  assert.ok(n > 150, `${n} format characters`);
  assert.equal(terminalSafe('plain \u00e9 text \u2014 ok'), 'plain \u00e9 text \u2014 ok');
});

test('MAY_BE_MARK holds every combining mark, and the masker reads past each one on an ASCII letter', () => {
  const mark = /\p{M}/u;
  let n = 0;
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCodePoint(c);
    if (!mark.test(s)) continue;
    n++;
    assert.ok(MAY_BE_MARK.test(s), `U+${c.toString(16)}`);
    assert.equal(asMasked(`a${s}b`), 'ab', `U+${c.toString(16)}`);
  }
  assert.ok(n > 2000, `${n} combining marks`);
  // A mark on a letter that is not ASCII is the text's own (no token holds that letter).
  assert.equal(asMasked('\u0915\u094d\u0937 \u0430\u0483'), '\u0915\u094d\u0937 \u0430\u0483');
});

test('the first-word gates of the vague-action patterns pass every phrase the patterns match', () => {
  // Phrases built from the patterns' own words (and a few others), in any case, with any white space.
  const words = [
    ...new Set([...`${VAGUE.source} ${VAGUE_HEAD.source}`.matchAll(/[a-z]+|\.\.\.|…|—|\?|-/g)].map((m) => m[0])),
    'please',
    'src/x.ts',
    '`npm test`',
    'the',
  ];
  const spaces = [' ', ' ', ' ', '  ', '\t', '\u00a0'];
  const r = rng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const cased = (w: string) => [...w].map((ch) => (r() < 0.2 ? ch.toUpperCase() : ch)).join('');
  let vague = 0;
  let head = 0;
  for (let k = 0; k < 40_000; k++) {
    const n = 1 + Math.floor(r() * 6);
    // Half the phrases start with a word the patterns start with, so that many of them match.
    const ws = Array.from({ length: n }, (_, i) =>
      cased(
        i === 0 && r() < 0.5
          ? pick(['continue', 'fix', 'keep', 'work', 'finish', 'tbd', 'see', 'please'])
          : pick(words),
      ),
    );
    let p = ws.reduce((acc, w) => acc + pick(spaces) + w);
    if (r() < 0.2) p += '.';
    if (VAGUE.test(p)) {
      vague++;
      assert.ok(mayBeVague(p), JSON.stringify(p));
    }
    if (VAGUE_HEAD.test(p)) {
      head++;
      assert.ok(mayBeVagueHead(p), JSON.stringify(p));
    }
  }
  assert.ok(vague > 200 && head > 500, `only ${vague} and ${head} phrases matched`);
});

test('each secret rule is tried on a text only when it may match: its gate passes every text its pattern matches', () => {
  // Texts built from the rules' own literals, digits, letters and separators.
  const pieces = [
    ...['AKIA', 'ASIA', 'ghp_', 'gho_', 'github_pat_', 'sk-', 'sk-ant-', 'proj-', 'xoxb-', 'AIza', 'sk_live_', 'npm_'],
    ...[
      'KEY',
      'TOKEN',
      'SECRET',
      'PASS',
      'PWD',
      'CREDENTIALS',
      'DB_',
      'api_key',
      'Api-Key',
      'password',
      'token',
      'secret',
    ],
    ...[
      '=',
      ':',
      ' ',
      '  ',
      '"',
      "'",
      '+',
      '(',
      ')',
      '-',
      '.',
      ',',
      '_',
      '〒',
      'Street',
      'St.',
      'Ave',
      'Road',
      'Baker',
    ],
    ...[
      'Hauptstraße',
      'weg',
      'Rue',
      'Via',
      'de',
      'Rivoli',
      '221B',
      '1600',
      '415',
      '555',
      '0123',
      '49',
      '30',
      '1234',
      '5678',
    ],
    ...['+49 30 1234 5678', '(415) 555-0199', '415-555-0123', '+1 (415) 555-0123'],
    ...['AIzaSyD-abcdefghijklmnopqrstuvwxyz01234', 'npm_abcdefghijklmnopqrstuvwxyz0123456789'],
    ...['Qz7#wR4$xY9!pL2', 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH', 'ABCDEFGHIJKLMNOP', 'x1Y2z3W4v5U6t7S8'],
    ...[
      'glpat-',
      'hf_',
      'SG.',
      'ya29.',
      'dop_v1_',
      'pypi-',
      'sk_test_',
      'PGPASSWORD',
      'abcdefghijklmnopqrstuvwxyz0123456',
    ],
    ...[
      'hooks.slack.com/services/T0123456/B0123456/abcdefghijklmnopqrstuvwxyz0123456',
      '123456789',
      ':AA',
      'Bearer',
      'bearer',
      '-u',
      '--user',
    ],
    ...[
      '123456789:AAabcdefghijklmnopqrstuvwxyz0123456',
      '--password',
      'mysql',
      '-p',
      'admin:',
      '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    ],
    ...['gsk_', 'AccountKey=', 'Basic dXNlcjpwYXNz'],
    ...[
      '4539 1488 0343 6467',
      '5500-1234-5678-9019',
      '3456 789012 34564',
      '4539',
      '789012',
      '123-45-6789',
      '45',
      '6789',
    ],
  ];
  const r = rng(11);
  const hits = new Map<string, number>();
  for (let k = 0; k < 60_000; k++) {
    const n = 1 + Math.floor(r() * 8);
    const text = Array.from({ length: n }, () => pieces[Math.floor(r() * pieces.length)]).join(r() < 0.5 ? '' : ' ');
    for (const rule of REGEX_RULES) {
      rule.re.lastIndex = 0;
      if (!rule.re.test(text)) continue;
      hits.set(rule.name, (hits.get(rule.name) ?? 0) + 1);
      assert.ok(rule.may(text), `${rule.name}: ${JSON.stringify(text)}`);
    }
  }
  for (const rule of REGEX_RULES) assert.ok((hits.get(rule.name) ?? 0) > 0, `no text matched ${rule.name}`);
});
