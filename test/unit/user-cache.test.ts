/** The user's cache folder: what older builds and old transcripts left there is pruned, nothing else. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pruneCache } from '../../src/core/files/user-cache';

test('pruneCache drops every core file older builds kept there and compaction counts after 30 days, and nothing else', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sl-cache-'));
  const now = Date.now();
  const DAY = 86_400_000;
  const files: Record<string, number> = {
    'core-aaaa.js': 2 * DAY, // an older build's core and code cache: nothing reads them, pruned
    'core-aaaa-11.3-x64.v8cache': 2 * DAY,
    'core-cccc.js': DAY / 2,
    'compactions-0001.json': 31 * DAY, // pruned
    'compactions-0002.json': 2 * DAY,
    'notes.txt': 400 * DAY, // not ours to judge
  };
  try {
    for (const [name, age] of Object.entries(files)) {
      const f = path.join(dir, name);
      writeFileSync(f, 'x');
      utimesSync(f, (now - age) / 1000, (now - age) / 1000);
    }
    assert.equal(pruneCache(dir, now), 4);
    assert.deepEqual(readdirSync(dir).sort(), ['compactions-0002.json', 'notes.txt']);
    assert.equal(pruneCache(path.join(dir, 'missing'), now), 0, 'a missing folder is no error');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
