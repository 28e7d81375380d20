/**
 * Secrets written in forms the line masker did not read as a name and its value: in a Markdown table (a
 * `| password | … |` row, a column whose header names a secret), after an HTML comment or an HTML line break
 * (`password: <!-- x -->…`, `password:<br>…`, what Markdown shows as `password: …`), after what YAML writes
 * before a value (`password: !!str …`, `api_key: &k …`, `token_secret: | …`, also in a YAML code block of a
 * Markdown file, which no YAML reader reads), and with a full-width colon (`password：…`). Each stayed raw in
 * the document's text and in the items the readers make of the lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskSecrets } from '../../src/core/secrets/secrets';
import { assertLinear, cli } from './helpers';
import { inEachSystem } from './secret-places';

const V = (n: number) => `hunter2-very-sec-${n}`;

/** A text, what must not stay in it, and the lines (1-based) of its hits. */
const CASES: Array<[string, string[], number[]]> = [
  [`| key | value |\n| --- | --- |\n| password | ${V(1)} |\n`, [V(1)], [3]],
  [`| DB_PASSWORD | \`${V(2)}\` |\n`, [V(2)], [1]],
  [`> | api_key | ${V(3)} |\n`, [V(3)], [1]],
  [
    `| user | **Password** | note |\n| --- | :-: | --- |\n| admin | ${V(4)} | prod |\n| bob | ${V(5)} | x |\n`,
    [V(4), V(5)],
    [3, 4],
  ],
  [`> | API key |\n> |---|\n> | ${V(6)} |\n`, [V(6)], [3]],
  [`- password: <!-- the prod one -->${V(7)}\n`, [V(7)], [1]],
  [`| password:<br>${V(8)} | x |\n`, [V(8)], [1]],
  [`password: !!str ${V(9)}\n`, [V(9)], [1]],
  [`api_key: &k ${V(10)}\n`, [V(10)], [1]],
  [`\`\`\`yaml\ntoken_secret: |\n  ${V(11)}\npassword: !!str\n  ${V(12)}\n\`\`\`\n`, [V(11), V(12)], [3, 5]],
  [`- パスワード password：${V(13)}\n`, [V(13)], [1]],
];

test('a secret in a table, after an HTML comment or line break, after a YAML tag, anchor or block indicator, or after a full-width colon is masked', () => {
  for (const [text, raw, lines] of CASES) {
    const r = maskSecrets(text);
    for (const x of raw) assert.ok(!r.text.includes(x), `${JSON.stringify(text)} -> ${JSON.stringify(r.text)}`);
    assert.equal(r.text.split('\n').length, text.split('\n').length, JSON.stringify(text));
    assert.deepEqual(
      r.hits.map((h) => h.line),
      lines,
      `${JSON.stringify(text)}: ${JSON.stringify(r.hits)}`,
    );
  }
  // The table keeps its pipes and its cells' places; a comment a value runs over is masked with it.
  assert.equal(maskSecrets(`| password | ${V(1)} |`).text, '| password | … (18 chars) |');
  assert.equal(maskSecrets(`| password | x<!-- a -->${V(1)} |`).text, '| password | … (29 chars) |');
});

test('tables and HTML whose cells name no secret and give no value, and pipes outside tables, stay as they were', () => {
  for (const text of [
    // A header that only mentions a secret; values with spaces; a short value.
    '| Password reset flow | status |\n|---|---|\n| documented-in-the-wiki | done |',
    '| user | password |\n|---|---|\n| admin | see the vault |\n| bob | short |',
    // The table ends at a line without a pipe: a row after it is no row of its column.
    `| password |\n|---|\n\nthen | ${V(1)} |`,
    // A pipe in a shell line is no table.
    'cat password | base64-encode-it-now',
    // An unclosed comment, a tag that is no line break.
    `password: <!-- ${V(1)}`,
    `password: <b>${V(1)}</b>`,
  ])
    assert.equal(maskSecrets(text).text, text, JSON.stringify(text));
});

test('no document text, item or surface shows a secret in a table, after a comment or after a YAML tag in a Markdown state file', async () => {
  const add =
    `\n| key | value |\n| --- | --- |\n| password | ${V(21)} |\n\n` +
    `- password: <!-- x -->${V(22)}\n\n` +
    `\`\`\`yaml\npassword: !!str\n  ${V(23)}\n\`\`\`\n\n`;
  const raw = [V(21), V(22), V(23)];
  await inEachSystem(add, ({ name, dir, lines, report, doc }) => {
    const model = JSON.stringify(report);
    for (const x of raw) assert.ok(!model.includes(x), `${name}: the model shows ${x}`);
    const named = new Set((doc.secrets ?? []).map((h) => h.line));
    for (const x of raw) {
      const at = lines.findIndex((l) => l.includes(x)) + 1;
      assert.ok(named.has(at), `${name}: no-secrets names line ${at} (${x})`);
    }
    for (const args of [['status', '--json'], ['check']]) {
      const r = cli([...args, '--root', dir]);
      for (const x of raw) assert.ok(!(r.stdout + r.stderr).includes(x), `${name} ${args.join(' ')} shows ${x}`);
    }
  });
});

test('reading tables, comments and line breaks for secrets takes time linear in the text', () => {
  const wide = (n: number) => `| ${'password | '.repeat(n)}\n| ${'--- | '.repeat(n)}\n| ${`${V(1)} | `.repeat(n)}\n`;
  assertLinear('a table of many secret columns', (t) => maskSecrets(t), wide(5_000), wide(20_000));
  const rows = (n: number) => `| api_key | value |\n|---|---|\n${`| x | ${V(2)} |\n`.repeat(n)}`;
  assertLinear('a table of many rows', (t) => maskSecrets(t), rows(5_000), rows(20_000));
  const comments = (n: number) => `password: ${'<!--'.repeat(n)}\n${'<!-- x -->'.repeat(n)} token: x\n`;
  assertLinear('many comments', (t) => maskSecrets(t), comments(50_000), comments(200_000));
  const breaks = (n: number) => `password:${'<br>'.repeat(n)}${V(3)}\n${'<br'.repeat(n)}\n`;
  assertLinear('many line breaks', (t) => maskSecrets(t), breaks(50_000), breaks(200_000));
  const props = (n: number) => `password: !x${' '.repeat(n)}y\napi_key: &${'a'.repeat(n)}\n`;
  assertLinear('long YAML properties', (t) => maskSecrets(t), props(100_000), props(400_000));
});
