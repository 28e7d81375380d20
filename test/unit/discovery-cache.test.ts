/** Session discovery over a project folder of many sessions: its listing is reused while the folder's mtime stands still. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encodeClaudeProjectDir, findClaudeSession } from '../../src/core/context';

const id = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;

test('a new session in a folder of 2,000 is found; appends to an older one make it the newest', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sl-disc-cache-'));
  const root = path.join(home, 'proj');
  mkdirSync(root);
  const dir = path.join(home, 'projects', encodeClaudeProjectDir(root));
  mkdirSync(dir, { recursive: true });
  const past = (s: number) => new Date(Date.now() - s * 1000);
  for (let i = 0; i < 2000; i++) {
    const f = path.join(dir, `${id(i)}.jsonl`);
    writeFileSync(f, '{}\n');
    utimesSync(f, past(3600 - i), past(3600 - i));
  }
  utimesSync(dir, past(60), past(60)); // an old folder mtime: its listing is cached
  assert.equal((await findClaudeSession(root, { claudeHome: home }))?.sessionId, id(1999));
  // An older session resumed: its mtime moves, the folder's does not; still found without a new listing.
  utimesSync(path.join(dir, `${id(5)}.jsonl`), past(1), past(1));
  assert.equal((await findClaudeSession(root, { claudeHome: home }))?.sessionId, id(5));
  // A new session file: the folder's mtime moves and the folder is listed again.
  writeFileSync(path.join(dir, `${id(9999)}.jsonl`), '{}\n');
  assert.equal((await findClaudeSession(root, { claudeHome: home }))?.sessionId, id(9999));
});
