import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CORE_END_ESCAPED, HOOK_WORDS_MARKER, HOOK_YAML_MARKER } from '../../src/core/hooks/files';
import { YAML_NAMES } from '../../src/core/markdown/yaml-names';
import { HOOK_SCRIPT, REPO } from './helpers';

/** The hook script's YAML part as the code loadPart compiles (the block comment's text, each `*\/` a star-slash again). */
function yamlPart(): string {
  const lines = readFileSync(HOOK_SCRIPT, 'utf8').split('\n');
  const from = lines.indexOf(HOOK_YAML_MARKER);
  const to = lines.indexOf(HOOK_WORDS_MARKER);
  assert.ok(from > 0 && to > from, 'the YAML part and the part after it');
  // The marker, the function's line and `/*` before the code; `*/` and `}` after it.
  return lines
    .slice(from + 3, to - 2)
    .join('\n')
    .split(CORE_END_ESCAPED)
    .join('*/');
}

test("the hook script's YAML part exports the names the code takes from the library, each one there, and no other", () => {
  const mod: { exports: Record<string, unknown> } = { exports: {} };
  new Function('module', 'exports', 'require', yamlPart())(mod, mod.exports, require);
  assert.deepEqual(Object.keys(mod.exports).sort(), [...YAML_NAMES].sort());
  for (const name of YAML_NAMES) assert.equal(typeof mod.exports[name], 'function', name);
  // What the reader does with them, through the part: a document parsed, its mapping found, its error typed.
  const lib = mod.exports as unknown as typeof import('yaml');
  const doc = lib.parseDocument('session:\n  ledger: true\n');
  assert.equal(lib.isMap(doc.contents), true);
  assert.ok(new lib.YAMLParseError([0, 1], 'BAD_INDENT', 'x') instanceof Error);
});

/** The value names a source file imports from 'yaml' (type-only imports and names left out). */
function valueImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(type\s+)?([^;]*?)\s+from\s+'yaml';/gms)) {
    if (m[1]) continue;
    const named = /^\{([^}]*)\}$/s.exec(m[2].trim());
    // A default or namespace import takes the whole library: named as such, so the check below fails on it.
    if (!named) {
      out.push(m[2].trim());
      continue;
    }
    for (const part of named[1]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      if (!part.startsWith('type ')) out.push(part.split(/\s+as\s+/)[0]);
  }
  return out;
}

test("the sources take from 'yaml' at run time only the names its part exports (yaml-names.ts)", () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) files.push(p);
    }
  };
  walk(path.join(REPO, 'src'));
  const allowed = new Set<string>(YAML_NAMES);
  const taken = files.flatMap((f) =>
    valueImports(readFileSync(f, 'utf8')).map((n) => `${path.relative(REPO, f)}: ${n}`),
  );
  assert.ok(taken.length > 0, 'S0\'s "Enable the ledger" imports from the library');
  assert.deepEqual(
    taken.filter((x) => !allowed.has(x.split(': ')[1])),
    [],
    'each name a source imports from yaml is one of YAML_NAMES',
  );
  // Anything else goes through yamlLib(), typed to those names; no other file requires the library itself.
  // (A comment may name it: lines of code only.)
  const requires = files
    .filter((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .some((l) => !/^\s*(\*|\/\/)/.test(l) && /require\(\s*'yaml'\s*\)/.test(l)),
    )
    .map((f) => path.relative(REPO, f));
  assert.deepEqual(requires, ['src/core/markdown/yaml.ts']);
});
