/**
 * Figures an attack round on the meter found wrong, each from the hostile transcript: a newest record
 * whose usage holds no numbers (strings, none, a negative count, one past any window) read as 0 % "ok"
 * instead of the figure before it; the status line, told its session, showed another session's figure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { claudeProjectDirName } from '../../src/core/context/discovery';
import { cli, STATUSLINE_SCRIPT, workspace } from './helpers';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

/** An assistant record of `sid` with `usage`. */
function record(sid: string, usage: unknown, id = 'm1'): string {
  return `${JSON.stringify({
    type: 'assistant',
    sessionId: sid,
    isSidechain: false,
    timestamp: '2026-03-01T10:00:00.000Z',
    message: {
      id,
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: 'hi' }],
      usage,
    },
  })}\n`;
}

/** A workspace and a Claude Code home holding `transcripts` (session id → text) of it. */
function session(transcripts: Record<string, string>): { root: string; home: string; dir: string } {
  const root = workspace({ '.claude/settings.json': '{}' });
  const home = workspace({});
  const dir = path.join(home, 'projects', claudeProjectDirName(root));
  mkdirSync(dir, { recursive: true });
  for (const [sid, text] of Object.entries(transcripts)) writeFileSync(path.join(dir, `${sid}.jsonl`), text);
  return { root, home, dir };
}

test('a newest record whose usage holds no numbers is no figure: the one before it counts', () => {
  const good = record(A, { input_tokens: 1000, cache_creation_input_tokens: 0, cache_read_input_tokens: 50_000 });
  for (const bad of [
    { input_tokens: '90000', cache_read_input_tokens: '90000' },
    {},
    { input_tokens: 1000, cache_read_input_tokens: -5000 },
    { input_tokens: 1e20 },
  ]) {
    const { root, home } = session({ [A]: good + record(A, bad, 'm2') });
    const r = cli(['context', '--json', '--root', root], { env: { CLAUDE_CONFIG_DIR: home } });
    assert.equal(r.code, 0, r.stderr);
    const u = JSON.parse(r.stdout) as { usedTokens: number };
    assert.equal(u.usedTokens, 51_000, JSON.stringify(bad));
  }
});

test('a compaction record whose figure no window holds (1e308, negative, a string) is passed over: the figure before it counts', () => {
  const good = record(A, { input_tokens: 1000, cache_creation_input_tokens: 0, cache_read_input_tokens: 50_000 });
  for (const postTokens of [1e308, 5e9, -3, '90000']) {
    const boundary = `${JSON.stringify({ type: 'system', subtype: 'compact_boundary', sessionId: A, timestamp: '2026-03-01T10:05:00.000Z', compactMetadata: { trigger: 'manual', postTokens } })}\n`;
    const { root, home } = session({ [A]: good + boundary });
    const r = cli(['context', '--json', '--root', root], { env: { CLAUDE_CONFIG_DIR: home } });
    assert.equal(r.code, 0, r.stderr);
    const u = JSON.parse(r.stdout) as { usedTokens: number; percent: number | null };
    assert.equal(u.usedTokens, 51_000, `${postTokens}: ${r.stdout}`);
  }
});

test('the status line told its session (no transcript path, no figure of its own) measures that session, not the newest of the folder', () => {
  const { root, home, dir } = session({
    [A]: record(A, { input_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: 150_000 }),
    [B]: record(B, { input_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: 20_000 }),
  });
  const past = Date.now() / 1000 - 180;
  utimesSync(path.join(dir, `${A}.jsonl`), past, past);
  const run = (sid: string) =>
    spawnSync(process.execPath, [STATUSLINE_SCRIPT, 'statusline'], {
      input: JSON.stringify({ session_id: sid, cwd: root, workspace: { current_dir: root, project_dir: root } }),
      cwd: root,
      env: { ...process.env, CLAUDE_CONFIG_DIR: home },
      encoding: 'utf8',
    }).stdout;
  assert.match(run(A), /^ctx 75\.5% \(151k\/200k\)/);
  assert.match(run(B), /^ctx 10\.5% \(21k\/200k\)/);
  assert.equal(
    run('cccccccc-0000-4000-8000-000000000003').trim(),
    'ctx --',
    'a session with no transcript here has no figure',
  );
});
