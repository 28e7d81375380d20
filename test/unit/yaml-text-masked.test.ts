/**
 * A secret that YAML takes from where the line masker does not see it as one (a value on the line below its
 * key after a tag, an anchor or a comment, a value after an explicit key, a block scalar, a double-quoted
 * value continued with a backslash, a value spelled with escapes, a `!!binary` value) is masked by the YAML
 * tree in what it decodes; the document's text the model keeps (`doc.text`, which the extension maps its
 * diagnostics on) showed it raw. Now the text shows it masked where it is written, each line break kept,
 * in every YAML a reader takes (`.agents.yml`, S1's snapshot block, `context-manifest.yaml`, S4's front
 * matter) and in the front matter of every other Markdown document (S1's handoff, S3's STATE.md …).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readYaml, withLineCuts, lineCutsOf } from '../../src/core/markdown/yaml-tree';
import { maskSecrets } from '../../src/core/secrets/secrets';
import { evaluate } from '../../src/core/report/evaluate';
import { assertLinear, assertLinearStringWork, cli, fixtureCopy, gitInit } from './helpers';

/** Values the line masker leaves as they are (each under 20 characters, of two kinds: no "generated" value). */
const V = (n: number) => `hunter2-very-sec-${String(n).padStart(2, '0')}`;
const ESCAPED_TOKEN = `gh\\x70_${'C'.repeat(36)}`;
const BINARY = Buffer.from(`password: ${V(9)}`).toString('base64');

/** YAML lines with a secret in each form the line masker does not read, and what must not show. */
const FORMS: Array<[string, string]> = [
  [`password: !!str\n  ${V(1)}\n`, V(1)],
  [`api_key: &k\n  ${V(2)}\n`, V(2)],
  [`db_password:   # the prod one\n  ${V(3)}\n`, V(3)],
  [`? client_secret\n: ${V(4)}\n`, V(4)],
  [`private_key: |\n  ${V(5)}\n`, V(5)],
  [`auth_token: >-\n  ${V(6)}\n`, V(6)],
  [`secret_key: "hunter2-\\\n  very-sec-07"\n`, 'very-sec-07'],
  [`note: "${ESCAPED_TOKEN}"\n`, 'C'.repeat(36)],
  [`blob: !!binary ${BINARY}\n`, BINARY],
];
const YAML = FORMS.map(([y]) => y).join('');
const RAW = FORMS.map(([, r]) => r);

function assertNoRaw(text: string, where: string): void {
  for (const r of RAW) assert.ok(!text.includes(r), `${where} shows ${r}`);
}

/** Every line break of `a` stands in `b`, at the same line (the same number of lines, each ended the same way). */
function assertSameBreaks(a: string, b: string, where: string): void {
  assert.deepEqual(b.match(/\r\n|\r|\n/g) ?? [], a.match(/\r\n|\r|\n/g) ?? [], where);
}

/** The lines of `masked` that differ from `raw`'s (1-based). */
function changedLines(raw: string, masked: string): number[] {
  const a = raw.split('\n');
  const b = masked.split('\n');
  return a.flatMap((l, k) => (l === b[k] ? [] : [k + 1]));
}

test("the YAML tree's cuts show what it masks where it is written: line breaks kept, a line's length kept where the masked form is shorter", () => {
  const text = `a: 1\n${YAML}z: 2\n`;
  const shown = maskSecrets(text).text;
  const y = readYaml(shown);
  assert.equal(y.error, null);
  const out = withLineCuts(shown, y.cuts);
  assertNoRaw(out, 'the text');
  assertSameBreaks(text, out, 'line breaks');
  // Each line that holds a secret changes; the lines around the YAML forms stay.
  const lines = text.split('\n');
  const changed = changedLines(text, out);
  for (const r of RAW) assert.ok(changed.includes(lines.findIndex((l) => l.includes(r)) + 1), `${r}'s line is masked`);
  assert.equal(out.split('\n')[0], 'a: 1');
  assert.equal(out.split('\n').at(-2), 'z: 2');
  // A value on its own line keeps the line's length: the masked form and blanks after it (the value below a
  // comment is one the line masker never takes).
  const at = lines.findIndex((l) => l.includes(V(3)));
  assert.equal(out.split('\n')[at], `  … (19 chars)${' '.repeat(7)}`);
  // What the text says is still YAML, and says the masked values.
  const again = readYaml(out);
  assert.equal(again.error, null);
  const data = again.data.value as Record<string, unknown>;
  assert.equal(data.password, '… (19 chars)');
  assert.equal(data.note, 'ghp_… (40 chars)');
  // CRLF and lone CR line breaks stay as they were.
  const crlf = text.replace(/\n/g, '\r\n');
  const outCrlf = withLineCuts(maskSecrets(crlf).text, readYaml(maskSecrets(crlf).text).cuts);
  assertNoRaw(outCrlf, 'the CRLF text');
  assertSameBreaks(crlf, outCrlf, 'CRLF line breaks');
  // A cut over lines keeps every break, lone CR too: its first line gets the masked form, the others blanks.
  assert.deepEqual(lineCutsOf('k: "ab\r\n  cd\r  ef"\n', [{ from: 3, to: 18, put: '"x"' }]), [
    { line: 1, from: 3, to: 6, put: '"x"' },
    { line: 2, from: 0, to: 4, put: '    ' },
    { line: 2, from: 5, to: 10, put: '     ' },
  ]);
});

test('each reader keeps the text of its YAML with the secrets YAML decodes masked, and no-secrets names their lines', async () => {
  const places: Array<[string, string, string, (t: string) => string]> = [
    ['S0', 's0/good', '.agents.yml', (t) => t + YAML],
    [
      'S1 snapshot',
      's1/compression-low',
      'memory/session-handoff-LATEST.md',
      (t) => t.replace('ts: 2026-05-04\n', `ts: 2026-05-04\n${YAML}`),
    ],
    [
      'S1 front matter',
      's1/compression-low',
      'memory/session-handoff-LATEST.md',
      (t) => t.replace('description: forward-only handoff for the next session\n', (m) => m + YAML),
    ],
    ['S2', 's2/good', 'context-manifest.yaml', (t) => t + YAML],
    ['S3 front matter', 's3/good', 'docs/state/STATE.md', (t) => `---\ntitle: state\n${YAML}---\n${t}`],
    [
      'S4 front matter',
      's4/good',
      '.agents/checkpoints/2026-03-05-171200.md',
      (t) => t.replace('commits: 4\n', `commits: 4\n${YAML}`),
    ],
  ];
  for (const [name, fixture, rel, edit] of places) {
    const dir = fixtureCopy(fixture);
    const file = path.join(dir, rel);
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    gitInit(dir);
    const raw = readFileSync(file, 'utf8');
    const report = await evaluate(dir);
    const doc = report.systems.flatMap((s) => s.docs).find((d) => d.relPath === rel);
    assert.ok(doc, `${name}: ${rel} is a document`);
    assertNoRaw(doc.text, `${name} doc.text`);
    assertSameBreaks(raw, doc.text, `${name} line breaks`);
    assert.equal(doc.lineCount, raw.split('\n').length, name);
    // Every secret is named at the line its value starts on (the `!!binary` value holds `password: …`).
    const lines = raw.split('\n');
    const named = new Set((doc.secrets ?? []).map((h) => h.line));
    for (const r of RAW) {
      const n = lines.findIndex((l) => l.includes(r === 'very-sec-07' ? 'hunter2-\\' : r)) + 1;
      assert.ok(named.has(n), `${name}: no-secrets names line ${n} (${r})`);
    }
    // Nothing else of the model, and no surface of the CLI.
    assertNoRaw(JSON.stringify(report), `${name} model`);
    for (const args of [
      ['status', '--json'],
      ['check', '--json'],
    ]) {
      const r = cli([...args, '--root', dir]);
      assertNoRaw(r.stdout + r.stderr, `${name} ${args.join(' ')}`);
    }
  }
});

test('showing what the YAML tree masks in the text takes time linear in the text', () => {
  // Each value on the line below its key after a tag and a comment: the line masker leaves it, the tree cuts it.
  const many = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `k${i}_password: !!str   # the prod one\n  hunter2-very-${String(i).padStart(6, '0')}\n`,
    ).join('');
  const run = (t: string) => {
    const shown = maskSecrets(t).text;
    return withLineCuts(shown, readYaml(shown).cuts);
  };
  assert.equal(readYaml(maskSecrets(many(10)).text).cuts.length, 10);
  assert.ok(!run(many(10)).includes('hunter2-very-000003'));
  assertLinear('the cuts of many tagged values', run, many(1_000), many(4_000));
  assertLinearStringWork('the cuts of many tagged values', run, many, 100);
  const long = (n: number) => `password: !!str\n  ${'x'.repeat(n)}\nnote: "${'y'.repeat(n)}\\\n  ${ESCAPED_TOKEN}"\n`;
  assertLinear('the cuts of long values', run, long(100_000), long(400_000));
});
