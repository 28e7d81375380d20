/**
 * An emptied state file whose seed takes an empty one for a failed state: S1's MEMORY.md and
 * context-log.md (Error Recovery `tool_failure`, "0-size file") and S4's PROGRESS.md (its latest
 * checkpoint summaries) are refused by `check`, in their seeds' words, with the way back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli, gitInit, REPO, workspace } from './helpers';

test("an emptied S1 memory store, and an emptied or blank PROGRESS.md, are refused in their seeds' words with the way back", () => {
  const dir = workspace({});
  cpSync(path.join(REPO, 'examples/demo-workspace'), dir, { recursive: true });
  gitInit(dir);
  writeFileSync(path.join(dir, 'memory/context-log.md'), '');
  writeFileSync(path.join(dir, 'PROGRESS.md'), '\n  \n');
  const r = cli(['check', '--root', dir]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(
    r.stdout,
    /FAIL tool-failure +tool_failure: memory\/context-log\.md is empty \(0 bytes\)\. Phase 3 saves to it, and the seed takes a 0-size file for a failed write \(BROKEN\)\. {2}\(memory\/context-log\.md\)\n {10}fix: Restore memory\/context-log\.md if it was emptied by mistake \(git checkout -- memory\/context-log\.md, for a file git tracks\)/,
  );
  assert.match(r.stdout, /FAIL template +PROGRESS\.md has no checkpoint summaries: the seed's format requires it\./);
  // A context log of one blank line is no 0-size file (something was written), and PROGRESS.md back holds its entries.
  writeFileSync(path.join(dir, 'memory/context-log.md'), '\n');
  writeFileSync(path.join(dir, 'PROGRESS.md'), readFileSync(path.join(REPO, 'examples/demo-workspace/PROGRESS.md')));
  const ok = cli(['check', '--root', dir]);
  assert.doesNotMatch(ok.stdout, /FAIL (?:tool-failure|template)/, ok.stdout);
});
