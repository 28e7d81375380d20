/**
 * The light `.agents.yml` reader of the status line and `context` (src/core/context/agents-yml-light.ts):
 * on random settings files, seeded (SL_FUZZ_SEED picks another seed), it answers as the YAML reader
 * does or says `unsure`; and its time is linear on hostile input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentsYmlLight } from '../../src/core/context/agents-yml-light';
import { s0ConfigOfText } from '../../src/core/systems/s0/reader';
import { assertLinear, rng } from './helpers';

const SEED = Number(process.env.SL_FUZZ_SEED ?? 20261203);
const KEYS = ['session', 'ledger', 'ledger_path', 'a', 'tools', 'k1'];
const VALUES = [
  'true',
  'True',
  'TRUE',
  'false',
  'yes',
  '1',
  '~',
  '"true"',
  "'true'",
  "''",
  '{ledger: true}',
  '{a: 1, ledger: true}',
  '{ledger: true,}',
  '[a, b]',
  '[]',
  'a b',
  'true # c',
  'http://x',
  '-1',
  'a#b',
  '"x" # c',
];
/** What one edit inserts somewhere: anchors, aliases, tags, merge keys, quotes, indicators, tabs, markers. */
const EDITS = [
  '&a ',
  '*a',
  '!!str ',
  '? ',
  '"',
  "'",
  '\t',
  ' ',
  '  ',
  '- ',
  ':',
  '#',
  '{',
  '[',
  '}',
  ']',
  ',',
  '|',
  '>',
  '<<: ',
  '---',
  '...',
  '%YAML 1.1\n',
  '\\',
  // White space to JavaScript's trim and not to YAML, and a CR that ends no line.
  '\u2028',
  '\u00a0',
  '\u3000',
  '\v',
  '\f',
  '\r',
  '\ufeff',
];

/** A settings file of nested block mappings, sequences and block scalars, then (mostly) one random edit. */
function config(r: () => number): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)];
  const lines: string[] = [];
  const block = (ind: number, depth: number): void => {
    for (let i = 1 + Math.floor(r() * 3); i > 0; i--) {
      const key = ' '.repeat(ind) + pick(KEYS);
      const x = r();
      if (depth < 3 && x < 0.3) {
        lines.push(`${key}:`);
        block(ind + pick([1, 2, 2, 4]), depth + 1);
      } else if (depth < 3 && x < 0.4) {
        lines.push(`${key}:`);
        const col = ind + pick([0, 2]);
        for (let j = 0; j < 2; j++)
          lines.push(`${' '.repeat(col)}- ${r() < 0.5 ? pick(VALUES) : `${pick(KEYS)}: ${pick(VALUES)}`}`);
      } else if (x < 0.45) {
        lines.push(`${key}: ${pick(['|', '>', '|-'])}`, `${' '.repeat(ind + 2)}${pick(['text', 'a: b', '# x', '&x'])}`);
      } else lines.push(`${key}: ${pick(VALUES)}`);
    }
  };
  block(0, 0);
  if (r() < 0.6) {
    const i = Math.floor(r() * lines.length);
    const at = Math.floor(r() * (lines[i].length + 1));
    lines[i] = lines[i].slice(0, at) + pick(EDITS) + lines[i].slice(at);
  }
  if (r() < 0.2) lines.splice(Math.floor(r() * lines.length), 0, pick(['# c', '', '   ', '---', '...']));
  return `${lines.join('\n')}\n`;
}

test(`random settings files (seed ${SEED}): the light reader answers as the YAML reader, or is unsure`, () => {
  const r = rng(SEED);
  let sure = 0;
  let on = 0;
  for (let n = 0; n < 4000; n++) {
    const text = config(r);
    const light = agentsYmlLight(text);
    if (light === 'unsure') continue;
    sure++;
    if (light === 'on') on++;
    assert.equal(light, s0ConfigOfText(text), JSON.stringify(text));
  }
  // Most of them are plain enough to be answered lightly, some of them `on`.
  assert.ok(sure > 1000 && on > 10, `${sure} sure, ${on} on`);
});

// Linear time: the same hostile file at n and 4n characters (helpers' assertLinear).

const HOSTILE: Record<string, (n: number) => string> = {
  'quoted values, one a line': (n) => Array.from({ length: n / 10 }, (_, i) => `k${i}: "v"`).join('\n'),
  'a flow sequence of quotes': (n) => `session: [${"'a', ".repeat(n / 5)}]`,
  'a flow mapping of many entries': (n) =>
    `session: {${Array.from({ length: n / 8 }, (_, i) => `k${i}: 1`).join(', ')}}`,
  'an unclosed flow': (n) => `a: ${'['.repeat(n)}`,
  'spaces inside a key': (n) => `a${' '.repeat(n)}b: 1`,
  'spaces before a colon': (n) => `a${' '.repeat(n)}:`,
  'colons in a value': (n) => `a: ${'b:'.repeat(n / 2)}`,
  'comment marks': (n) => `a: b${' #'.repeat(n / 2)}`,
  'sequence items': (n) => `s:\n${'- a: 1\n  b: 2\n'.repeat(n / 14)}`,
  'nesting in and out': (n) => Array.from({ length: n / 200 }, (_, i) => `${' '.repeat(i % 300)}k${i}:`).join('\n'),
  'a long block scalar': (n) => `a: |\n${'  text # x\n'.repeat(n / 11)}session:\n  ledger: true\n`,
  'tabs after a value': (n) => `a: b${'\t'.repeat(n)}`,
};

test('the light reader is linear on hostile settings files (n vs 4n)', () => {
  // 50,000 against 200,000 characters: a step quadratic in the length takes seconds at 200,000.
  const n = 50_000;
  for (const [name, make] of Object.entries(HOSTILE)) assertLinear(name, agentsYmlLight, make(n), make(4 * n));
});
