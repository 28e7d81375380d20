/**
 * The common section names a key table looks up before its patterns run (`withNames`) are each read
 * by the patterns as the same key: the lookup never changes what a heading means.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchKey, matchPattern, namesOfTable, normalizeTitle, type KeyTable } from '../../src/core/markdown/sections';
import { S0_KEYS } from '../../src/core/systems/s0/reader';
import { S1_KEYS } from '../../src/core/systems/s1/reader';
import { S4_KEYS } from '../../src/core/systems/s4/reader-state';

const TABLES: Record<string, KeyTable> = { S0: S0_KEYS, S1: S1_KEYS, S4: S4_KEYS };

for (const [system, table] of Object.entries(TABLES)) {
  test(`${system}: every common section name is normalised and is the key its patterns give it`, () => {
    const names = namesOfTable(table);
    assert.ok(names.size > 0, 'the table has common names');
    const keys = new Set(table.map(([k]) => k));
    for (const [name, key] of names) {
      assert.ok(keys.has(key), `${name}: ${key} is a key of the table`);
      assert.equal(normalizeTitle(name), name, `${name} is written normalised`);
      assert.equal(matchPattern(name, table), key, `the patterns read "${name}" as ${key}`);
    }
  });
}

test('a heading with a common name, decorated, is read by lookup as its patterns read it', () => {
  for (const h of ['## 3. Open Questions:', '**Working Set**', 'Next (2026-03-01)', '🟢 State']) {
    assert.equal(matchKey(h, S0_KEYS), matchPattern(normalizeTitle(h), S0_KEYS), h);
  }
  assert.equal(matchKey('What to do now (priority order)', S1_KEYS), 'next');
  assert.equal(matchKey('将来のアクション', S4_KEYS), 'next');
});
