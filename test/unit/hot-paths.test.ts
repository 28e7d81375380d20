import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { byCodeUnits, withThousands } from '../../src/core/text';
import { HOOK_SCRIPT, workspace, write } from './helpers';
import { emptyClaudeHome, preCompact, S3_STATE, SID } from './checkpoint-fixtures';

test('withThousands writes numbers as toLocaleString("en-US") does', () => {
  const xs = [0, 7, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, 3000, 1500.5, 29_000.25, 0.125, 0.12345, -1234.5, -7, 116_000 / 4];
  for (const x of xs) assert.equal(withThousands(x), x.toLocaleString('en-US'), String(x));
});

test('byCodeUnits orders as the code units do', () => {
  assert.deepEqual(['b', 'B', 'a', 'session-ledger-2.md', 'session-ledger-10.md', 'A'].sort(byCodeUnits), ['A', 'B', 'a', 'b', 'session-ledger-10.md', 'session-ledger-2.md']);
});

test('the PreCompact hook starts no git process (its rules need no git fact); SessionStart still reads git', () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  // A `git` first on PATH that records each call and runs the real one.
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  const bin = workspace({}, 'sl-bin-');
  const log = path.join(bin, 'calls');
  chmodSync(write(bin, 'git', `#!/bin/sh\necho "$@" >> '${log}'\nexec '${real}' "$@"\n`), 0o755);
  const env = { PATH: `${bin}${path.delimiter}${process.env.PATH}`, HOME: dir, TMPDIR: workspace({}, 'sl-tmp-'), CLAUDE_CONFIG_DIR: emptyClaudeHome(), CLAUDE_PROJECT_DIR: dir };
  const pre = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'pre-compact'], { cwd: dir, env, input: preCompact(dir), encoding: 'utf8' });
  assert.equal(pre.status, 2, pre.stderr);
  assert.match(pre.stderr, /Compaction stopped: no checkpoint/);
  assert.equal(existsSync(log), false, existsSync(log) ? readFileSync(log, 'utf8') : '');
  const ss = JSON.stringify({ session_id: SID, transcript_path: '/x.jsonl', cwd: dir, hook_event_name: 'SessionStart', source: 'clear' });
  assert.equal(spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'session-start'], { cwd: dir, env, input: ss, encoding: 'utf8' }).status, 0);
  assert.match(readFileSync(log, 'utf8'), /status --porcelain=v2/);
});
