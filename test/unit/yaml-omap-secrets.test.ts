/**
 * A secret inside an ordered map or a list of pairs (`!!omap`, `!!pairs`), whose items are pairs, in the YAML
 * the readers take (`.agents.yml`, S1's snapshot block, `context-manifest.yaml`, S4's front matter): named by
 * no-secrets at its line and held masked, as one in a mapping is. Before, the tree's search for secrets did
 * not enter those pairs (check said "No secrets found."), and a secret written as a key (an escape the line
 * masker does not read) stayed raw in the data, which status shows as JSON (`m: {"ghp_…":1}`), in a mapping
 * as in a list of pairs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, appendFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readYaml } from '../../src/core/markdown/yaml-tree';
import { evaluate } from '../../src/core/report/evaluate';
import { assertLinear, cli, fixtureCopy, gitInit } from './helpers';

/** Tokens the line masker does not see in the text: a GitHub token spelled with an escape (`\x70` is `p`). */
const token = (c: string) => `ghp_${c.repeat(36)}`;
const escaped = (t: string) => JSON.stringify(t).replace('ghp', 'gh\\x70');
const PASSWORD = 'Qz7#wR4$xk9!Lm2pA';
const TOKENS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map(token);
const RAW = [...TOKENS, PASSWORD];

/**
 * YAML lines at `indent` with a secret in each place a pair of an ordered map or a list of pairs holds one: a
 * value, a value YAML takes from below its key (a tag), a key, a value of a mapping in it, of an ordered map
 * in it, a list item in it (anchored, and repeated through an alias outside), a flow ordered map, a list of
 * pairs; and a key in a plain mapping. Each secret's line holds its needle.
 */
const block = (i: string) =>
  `${i}o: !!omap\n` +
  `${i}  - note: ${escaped(TOKENS[0])}\n` +
  `${i}  - password: !!str\n${i}      ${PASSWORD}\n` +
  `${i}  - ${escaped(TOKENS[1])}: 1\n` +
  `${i}  - inner:\n${i}      deep: ${escaped(TOKENS[2])}\n` +
  `${i}  - again: !!omap\n${i}      - deeper: ${escaped(TOKENS[3])}\n` +
  `${i}  - list:\n${i}      - &anc ${escaped(TOKENS[4])}\n` +
  `${i}flow: !!omap [ note: ${escaped(TOKENS[5])} ]\n` +
  `${i}p: !!pairs\n${i}  - ${escaped(TOKENS[6])}: 1\n` +
  `${i}m:\n${i}  ${escaped(TOKENS[7])}: 1\n` +
  `${i}al: *anc\n`;
const NEEDLES = [
  escaped(TOKENS[0]),
  PASSWORD,
  escaped(TOKENS[1]),
  escaped(TOKENS[2]),
  escaped(TOKENS[3]),
  escaped(TOKENS[4]),
  escaped(TOKENS[5]),
  escaped(TOKENS[6]),
  escaped(TOKENS[7]),
];

/** Every string in `v` (object keys, a Map's keys and values, a Set's members), without recursion. */
function strings(v: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const todo: unknown[] = [v];
  while (todo.length) {
    const x = todo.pop();
    if (typeof x === 'string') out.push(x);
    if (typeof x !== 'object' || x === null || seen.has(x)) continue;
    seen.add(x);
    if (x instanceof Map) for (const [k, y] of x) todo.push(k, y);
    else if (x instanceof Set) for (const y of x) todo.push(y);
    else for (const [k, y] of Object.entries(x)) todo.push(k, y);
  }
  return out;
}

function assertNothingRaw(v: unknown, where: string): void {
  const all = typeof v === 'string' ? [v] : strings(v);
  for (const s of RAW) assert.ok(!all.some((x) => x.includes(s)), `${where} shows ${s.slice(0, 8)}…`);
}

const lineWith = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

test('the tree names a secret in an `!!omap` or `!!pairs` pair (value, key, nested, anchored) at its line, and its data holds none', () => {
  const text = `a: 1\n${block('')}`;
  const y = readYaml(text);
  assert.equal(y.error, null);
  assert.deepEqual(
    y.secrets.map((h) => h.line),
    NEEDLES.map((n) => lineWith(text, n)),
  );
  for (const h of y.secrets) assert.match(h.masked, /^(?:ghp_)?… \(\d+ chars\)$/);
  assertNothingRaw(y.data.value, 'data');
  // The alias repeats the anchored item, masked; an ordered map's key is masked where it stands in the Map.
  const data = y.data.value as Record<string, unknown>;
  assert.equal(data.al, 'ghp_… (40 chars)');
  assert.deepEqual(
    [...(data.o as Map<unknown, unknown>).keys()],
    ['note', 'password', 'ghp_… (40 chars)', 'inner', 'again', 'list'],
  );
  assert.deepEqual(data.p, [{ 'ghp_… (40 chars)': 1 }]);
  assert.deepEqual(data.m, { 'ghp_… (40 chars)': 1 });
  // In a document that says YAML 1.1 (the library's own `!!omap` schema) too, and an ordered map at the top.
  assert.equal(readYaml(`%YAML 1.1\n---\n${block('')}`).secrets.length, NEEDLES.length);
  assert.deepEqual(
    readYaml(`!!omap\n- note: ${escaped(TOKENS[0])}\n`).secrets.map((h) => [h.rule, h.line]),
    [['GitHub token', 2]],
  );
});

test('a mapping keeps its order of keys when one is masked, and keys that are no secret stay as they are', () => {
  const y = readYaml(`z: 1\n${escaped(TOKENS[0])}: 2\na: 3\n__proto__: 4\n'10': 5\n`);
  assert.deepEqual(Object.entries(y.data.value as object), [
    ['10', 5],
    ['z', 1],
    ['ghp_… (40 chars)', 2],
    ['a', 3],
    ['__proto__', 4],
  ]);
  assert.equal(Object.getPrototypeOf(y.data.value), Object.prototype);
});

test('each reader names the secrets in an `!!omap` or `!!pairs` at their lines; status, check and the model show none of them', async () => {
  const dirs: Array<[string, string, string]> = [];
  const s0 = fixtureCopy('s0/good');
  appendFileSync(path.join(s0, '.agents.yml'), block('  '));
  dirs.push(['S0', s0, '.agents.yml']);
  const s1 = fixtureCopy('s1/compression-low');
  const handoff = path.join(s1, 'memory', 'session-handoff-LATEST.md');
  writeFileSync(handoff, readFileSync(handoff, 'utf8').replace('ts: 2026-05-04\n', `ts: 2026-05-04\n${block('')}`));
  dirs.push(['S1', s1, 'memory/session-handoff-LATEST.md']);
  const s2 = fixtureCopy('s2/good');
  appendFileSync(path.join(s2, 'context-manifest.yaml'), block(''));
  dirs.push(['S2', s2, 'context-manifest.yaml']);
  const s4 = fixtureCopy('s4/good');
  const cp = path.join(s4, '.agents', 'checkpoints', '2026-03-05-171200.md');
  writeFileSync(cp, readFileSync(cp, 'utf8').replace('commits: 4\n', `commits: 4\n${block('')}`));
  dirs.push(['S4', s4, '.agents/checkpoints/2026-03-05-171200.md']);
  for (const [name, dir, rel] of dirs) {
    gitInit(dir);
    for (const args of [['status'], ['status', '--json'], ['check'], ['check', '--json']]) {
      const r = cli([...args, '--root', dir]);
      assertNothingRaw(r.stdout + r.stderr, `${name} ${args.join(' ')}`);
    }
    const check = cli(['check', '--root', dir]).stdout;
    assert.doesNotMatch(check, /No secrets found/, name);
    const text = readFileSync(path.join(dir, rel), 'utf8');
    for (const needle of NEEDLES) {
      const line = lineWith(text, needle);
      assert.match(
        check,
        new RegExp(`no-secrets .* in ${rel.replace(/\./g, '\\.')}:${line} \\(`),
        `${name} ${rel}:${line}`,
      );
    }
    // The model the extension renders, each document's text too (a value YAML takes from below a tagged key,
    // `password: !!str`, and a token spelled with an escape show masked where they are written).
    const report = await evaluate(dir);
    assertNothingRaw(report, `${name} model`);
    const doc = report.systems.flatMap((s) => s.docs).find((d) => d.relPath === rel);
    for (const t of TOKENS) assert.ok(!doc?.text.includes(t.slice(4)), `${name} doc.text shows ${t.slice(0, 8)}…`);
  }
});

test('finding secrets in ordered maps and masking the keys of the data take time linear in them', () => {
  const many = (n: number) =>
    `o: !!omap\n${Array.from({ length: n }, (_, i) => `  - ${escaped(`${TOKENS[0].slice(0, -6)}${String(i).padStart(6, '0')}`)}: ${i}`).join('\n')}\n`;
  const read = (t: string) => {
    const y = readYaml(t);
    return [y.data.value, y.secrets];
  };
  assert.equal(readYaml(many(10)).secrets.length, 10);
  assertLinear('secret keys of an ordered map', read, many(1_000), many(4_000));
});
