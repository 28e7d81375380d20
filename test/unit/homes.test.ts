/**
 * One home per system: nothing outside `src/core/systems/<sN>/` knows that system's rules or
 * wording. Checked in two ways over every `.ts` file of src/ and webview/ (comments left out):
 *
 * 1. Wording: each message template a home's files write (`t('…')`) and each string its facts
 *    declare (paths, globs, closing line, skip line, resume prompts, trigger) appears in no string
 *    literal outside that home. A string two homes both declare is shared and not looked for.
 * 2. Rules by id: no code outside a home picks a system by its id to treat it specially
 *    (`=== 'S0'`, `case 'S3':`, `case 'S0 timestamp':`, `includes('S0')`, `FACTS.S4`,
 *    `companionPath('S1', …)` …); a home may name its own id.
 *
 * KNOWN lists a place that still does, with why it is not moved yet (none is left); the test fails
 * on any other place, and on a KNOWN entry that no longer occurs (so the list only shrinks).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { filesUnder, REPO } from './helpers';

const HOMES = ['s0', 's1', 's2', 's3', 's4'];

/** Places outside the homes that still know a system, and why. Key: `file: what`. */
const KNOWN: Record<string, string> = {};

/** Templates a home writes that say nothing of its system (the same words fit any file, or join any two texts, or name the tool's own thing). */
const GENERIC = new Set(['{0} cannot be read.', '(none)', '{0} {1}', 'checkpoint']);

const rel = (f: string) => path.relative(REPO, f).split(path.sep).join('/');
const code = (s: string) => s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
/** String literals of a source, import specifiers left out. */
function literals(src: string): string[] {
  const noImports = src.replace(/\b(?:from|import)\s*\(?\s*(?:'[^']*'|"[^"]*")/g, '');
  return [...noImports.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.)*)`/g)].map((m) =>
    (m[1] ?? m[2] ?? m[3]).replace(/\\(.)/g, '$1'),
  );
}

/**
 * What each home words: its message templates (looked for as whole literals), and the strings its
 * facts declare (paths, globs, lines, prompts: looked for inside any literal).
 */
function wordsOfHomes(): Record<string, Map<string, 'template' | 'fact'>> {
  const out: Record<string, Map<string, 'template' | 'fact'>> = {};
  for (const h of HOMES) {
    const words = new Map<string, 'template' | 'fact'>();
    for (const f of filesUnder(path.join(REPO, 'src/core/systems', h)).filter((x) => x.endsWith('.ts'))) {
      const c = code(readFileSync(f, 'utf8'));
      for (const m of c.matchAll(/(?<![\w$.])t\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g)) {
        const w = (m[1] ?? m[2]).replace(/\\(.)/g, '$1');
        if (!GENERIC.has(w)) words.set(w, 'template');
      }
      if (f.endsWith(`${path.sep}facts.ts`))
        for (const l of literals(c)) if (l.length >= 6 && /[/ .]/.test(l)) words.set(l, 'fact');
    }
    out[h] = words;
  }
  return out;
}

const ID_RULE =
  /(?:'S[0-4] [a-z][a-z-]*'|[=!]==\s*'S[0-4]'|'S[0-4]'\s*[=!]==|case\s+'S[0-4]'|includes\(\s*'S[0-4]'\s*\)|\bFACTS\.S[0-4]\b|\bFACTS\[\s*'S[0-4]'\s*\]|\b(?:companionPath|factsOf|resumePrompt|homeOf|readerById)\(\s*'S[0-4]')/g;

function leaks(): string[] {
  const words = wordsOfHomes();
  const homesOf = new Map<string, number>();
  for (const h of HOMES) for (const w of words[h].keys()) homesOf.set(w, (homesOf.get(w) ?? 0) + 1);
  const out = new Set<string>();
  for (const f of [...filesUnder(path.join(REPO, 'src')), ...filesUnder(path.join(REPO, 'webview'))].filter((x) =>
    x.endsWith('.ts'),
  )) {
    const r = rel(f);
    const c = code(readFileSync(f, 'utf8'));
    const lits = literals(c);
    const own = /^src\/core\/systems\/(s[0-4])\//.exec(r)?.[1];
    for (const h of HOMES) {
      if (h === own) continue;
      for (const [w, kind] of words[h]) {
        if ((homesOf.get(w) ?? 0) !== 1) continue;
        if (kind === 'template' ? lits.includes(w) : lits.some((l) => l.includes(w))) out.add(`${r}: ${h} '${w}'`);
      }
    }
    for (const m of c.matchAll(ID_RULE))
      if (!own || !m[0].includes(`'${own.toUpperCase()}'`)) out.add(`${r}: id ${m[0]}`);
  }
  return [...out].sort();
}

test("nothing outside a system's home words that system or picks it by id (except the places KNOWN lists, each with its reason)", () => {
  const found = leaks();
  assert.deepEqual(
    found.filter((x) => !(x in KNOWN)),
    [],
    "a system's wording or rule outside its home: move it into src/core/systems/<sN>/",
  );
  assert.deepEqual(
    Object.keys(KNOWN).filter((k) => !found.includes(k)),
    [],
    'no longer found: remove it from KNOWN',
  );
});

test('the homes check finds what it looks for: a closing line or an id rule written outside the home', () => {
  const words = wordsOfHomes();
  assert.ok(words.s2.has('Checkpoint saved. Safe to run /compact now.'), "S2's closing line is S2's wording");
  assert.ok(words.s3.has('docs/state/STATE.md'), "S3's home path is S3's wording");
  assert.ok(
    words.s1.has('checkpoint complete. Run /compact to compress context. Handoff: {0}'),
    "S1's closing notice is S1's wording",
  );
  assert.ok([..."x === 'S0' || case 'S3': case 'S1 attestation':".matchAll(ID_RULE)].length === 3);
});

test('every home has its index, facts, reader, rules, closing and starter, and its index links its requirement table', () => {
  for (const h of HOMES) {
    const dir = path.join(REPO, 'src/core/systems', h);
    for (const f of ['index.ts', 'facts.ts', 'reader.ts', 'rules.ts', 'closing.ts', 'starter.ts'])
      assert.ok(readdirSync(dir).includes(f), `${h}/${f}`);
    assert.match(
      readFileSync(path.join(dir, 'index.ts'), 'utf8'),
      /\.\/REQUIREMENTS\.md/,
      `${h}/index.ts links ./REQUIREMENTS.md`,
    );
  }
});

test("facts stay cheap: no home's facts.ts imports anything but types, messages, another home's facts and the helper that builds them (which imports types only)", () => {
  const imports = (file: string) =>
    [
      ...readFileSync(path.join(REPO, 'src/core/systems', file), 'utf8').matchAll(
        /^import\s+(type\s+)?[^'"]*['"]([^'"]+)['"]/gm,
      ),
    ]
      .filter((m) => !m[1])
      .map((m) => m[2]);
  for (const h of HOMES)
    for (const m of imports(`${h}/facts.ts`))
      assert.match(
        m,
        /^(?:\.\.\/\.\.\/model\/messages|\.\.\/s[0-4]\/facts|\.\.\/hot-facts)$/,
        `${h}/facts.ts imports ${m}`,
      );
  assert.deepEqual(imports('hot-facts.ts'), []);
});
