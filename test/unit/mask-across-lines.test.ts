/**
 * A secret a line break splits: a secret's name at the end of a line and its value on the next (a list item
 * or a paragraph wrapped, as Markdown reads a soft line break: a space), `Authorization: Bearer` and its
 * token, `curl -u` and its credentials, a phone number or an address wrapped, a YAML explicit key and its
 * value, a token continued with a backslash (a YAML double-quoted line). The line masker looked at one line at
 * a time and took a value on the next line only when it looked generated, so `- password:` /
 * `  hunter2-very-secret` stayed raw in the document's text, and the readers, which join a list item's lines
 * with a space, held `password: hunter2-very-secret` in the item's text (status and check show it, and S1's
 * checks quote it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { maskSecrets } from '../../src/core/secrets/secrets';
import { closingSteps } from '../../src/core/report/closing';
import { assertLinear, cli } from './helpers';
import { inEachSystem } from './secret-places';

const A18 = 'A'.repeat(18);
const B18 = 'B'.repeat(18);

/** A text, what must not stay in it, and the lines (1-based) its hits are at. */
const CASES: Array<[string, string[], number[]]> = [
  ['- password:\n  hunter2-very-secret\n', ['hunter2-very-secret'], [2]],
  ['> Rotate the password:\n> hunter2-very-secret\n', ['hunter2-very-secret'], [2]],
  ['- the_api_key\n  = hunter2-very-secret\n', ['hunter2-very-secret'], [2]],
  ['? client_secret\n: hunter2-very-secret\n', ['hunter2-very-secret'], [2]],
  ['- call it with Authorization: Bearer\n  abcdefghijklmnopqrstu0123\n', ['abcdefghijklmnopqrstu0123'], [2]],
  ['- run curl -u\n  admin:hunter2-secret\n', ['hunter2-secret'], [2]],
  ['- Authorization: Basic\n  YWRtaW46aHVudGVyMi12ZXJ5LXNlY3JldA==\n', ['YWRtaW46aHVudGVyMi12ZXJ5LXNlY3JldA=='], [2]],
  ['- call +49 30\n  1234 5678 first\n', ['+49 30', '1234 5678'], [1]],
  ['- she lives at 221B Baker\n  Street now\n', ['221B Baker', 'Street now'], [1]],
  [`note: "ghp_${A18}\\\n  ${B18}"\n`, [A18, B18], [1]],
  ['a\r\n- password:\r  hunter2-very-secret\r\nb', ['hunter2-very-secret'], [3]],
];

test('a secret a line break splits is masked: each part on its own line, the line breaks kept, one hit', () => {
  for (const [text, raw, lines] of CASES) {
    const r = maskSecrets(text);
    for (const x of raw) assert.ok(!r.text.includes(x), `${JSON.stringify(text)} -> ${JSON.stringify(r.text)}`);
    assert.deepEqual(
      r.text.match(/\r\n|\r|\n/g),
      text.match(/\r\n|\r|\n/g),
      `${JSON.stringify(text)}: the line breaks stay`,
    );
    assert.deepEqual(
      r.hits.map((h) => h.line),
      lines,
      `${JSON.stringify(text)}: ${JSON.stringify(r.hits)}`,
    );
  }
  // The hit names the whole value; the token's prefix stays visible on its line, the part below shows none of it.
  const token = maskSecrets(`note: "ghp_${A18}\\\n  ${B18}"\n`);
  assert.equal(token.text, `note: "ghp_… (22 chars)\\\n  … (18 chars)"\n`);
  assert.deepEqual(token.hits, [{ rule: 'GitHub token', line: 1, masked: 'ghp_… (40 chars)' }]);
  // A value whose start the line masks already is named once.
  assert.equal(maskSecrets('secret_key: "hunter2-very-\\\n  secret-5"\n').hits.length, 1);
});

test('what no line break splits stays as it was', () => {
  for (const text of [
    // The next list item is no value of the line before.
    '- password:\n- rotate-the-keys-tomorrow',
    // A paragraph break.
    'password:\n\nhunter2-very-secret',
    // A token is one word: a soft line break (a space) ends it.
    `- deploy ghp_${A18}\n  ${B18}`,
    // Words after the name.
    '- Reset the password:\n  ask the admin',
    '- the token\n  = short',
    // A placeholder.
    '- password:\n  your-password-here-123',
  ])
    assert.equal(maskSecrets(text).text, text, JSON.stringify(text));
});

test('no document text, item, check or surface shows a secret a soft line break splits in a Markdown state file', async () => {
  const add = [
    '- password:\n  hunter2-very-sec-1\n',
    '- deploy with Authorization: Bearer\n  abcdefghijklmnopqrstu0123\n',
    '- call +49 30\n  1234 5678 first\n',
  ].join('');
  const raw = ['hunter2-very-sec-1', 'abcdefghijklmnopqrstu0123', '1234 5678'];
  await inEachSystem(add, ({ name, dir, file, lines, report, doc }) => {
    const model = JSON.stringify({ report, closing: closingSteps(report.systems) });
    for (const x of raw) assert.ok(!model.includes(x), `${name}: the model shows ${x}`);
    assert.equal(doc.text.split('\n').length, readFileSync(file, 'utf8').split('\n').length, name);
    const named = new Set((doc.secrets ?? []).map((h) => h.line));
    // Each at the line its value starts on: the password's and the token's own, the phone number's first.
    for (const [needle, below] of [
      ['hunter2-very-sec-1', 0],
      ['Bearer', 1],
      ['+49 30', 0],
    ] as const) {
      const at = lines.findIndex((l) => l.includes(needle)) + 1 + below;
      assert.ok(named.has(at), `${name}: no-secrets names line ${at} (${needle})`);
    }
    for (const args of [['status'], ['status', '--json'], ['check'], ['check', '--json']]) {
      const r = cli([...args, '--root', dir]);
      for (const x of raw) assert.ok(!(r.stdout + r.stderr).includes(x), `${name} ${args.join(' ')} shows ${x}`);
    }
  });
});

test('looking for secrets over line breaks takes time linear in the text, whatever its lines hold', () => {
  const pairs = (n: number) => Array.from({ length: n }, (_, i) => `- api_key:\n  hunter2-very-${i}`).join('\n');
  assertLinear('names and values on alternate lines', (t) => maskSecrets(t), pairs(2_000), pairs(8_000));
  const longLines = (n: number) => `password: ${'a '.repeat(n)}\n${'b'.repeat(n)} key\n${'c '.repeat(n)}=\n`;
  assertLinear('long lines', (t) => maskSecrets(t), longLines(100_000), longLines(400_000));
  const continued = (n: number) => `x: "ghp_\\\n`.repeat(n);
  assertLinear('lines continued with a backslash', (t) => maskSecrets(t), continued(5_000), continued(20_000));
});
