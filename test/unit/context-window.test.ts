/**
 * The context window comes from the client, not a guess: the window Claude Code reported for the
 * session (its statusLine record), then the setting, then the model table Claude Code 2.1.332 was
 * seen to use, then "window unknown" (tokens without a percentage). A null `used_percentage`
 * (start-up, right after /compact) is "no figure yet", never 0 %.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  ContextFollower,
  claudeWindow,
  encodeClaudeProjectDir,
  modelWindow,
  parseFeedInfo,
  percentOf,
} from '../../src/core/context';
import { statusView } from '../../src/extension/pure/status-text';
import { cli, workspace, write } from './helpers';
import { asst, compact, lines, ofFolder } from './context-records';

const SID = '0b3f7f4e-5a1c-4d2e-9f10-2c3d4e5f6a7b';

test('model table: the windows Claude Code 2.1.332 reports for its model ids (modelUsage.contextWindow)', () => {
  const seen: Record<string, number> = {
    // claude --model ID -p … --output-format json, this client, against the stand-in
    'claude-opus-5-5': 1_000_000,
    'claude-opus-5': 1_000_000,
    'claude-opus-4-8': 1_000_000,
    'claude-opus-4-7': 1_000_000,
    'claude-sonnet-5-5': 1_000_000,
    'claude-sonnet-5': 1_000_000,
    'claude-haiku-5-5': 1_000_000,
    'claude-opus-4-6': 200_000,
    'claude-opus-4-5': 200_000,
    'claude-sonnet-4-6': 200_000,
    'claude-sonnet-4-5': 200_000,
    'claude-sonnet-4-5-20250929': 200_000,
    'claude-sonnet-4-0': 200_000,
    'claude-haiku-4-5': 200_000,
    'claude-3-7-sonnet-20250219': 200_000,
    'claude-3-5-haiku-20241022': 200_000,
    'claude-sonnet-4-5[1m]': 1_000_000,
    'claude-sonnet-4-6[1m]': 1_000_000,
    'claude-opus-4-6[1m]': 1_000_000,
    'claude-haiku-4-5[1m]': 1_000_000,
  };
  for (const [id, w] of Object.entries(seen)) assert.equal(modelWindow(id), w, id);
  // Dated, Bedrock and Vertex forms of the same ids.
  assert.equal(modelWindow('claude-opus-4-20250514'), 200_000);
  assert.equal(modelWindow('us.anthropic.claude-sonnet-4-5-20250929-v1:0'), 200_000);
  assert.equal(modelWindow('claude-opus-4-5@20251101'), 200_000);
  assert.equal(modelWindow('claude-sonnet-4'), 200_000);
  assert.equal(modelWindow('claude-3-sonnet-20240229'), 200_000);
  // What the table does not know is unknown, not 200,000.
  for (const id of [null, '', 'gpt-5.3-codex', 'my-proxy-model', 'claude-standin'])
    assert.equal(modelWindow(id), null, String(id));
});

test("window order: the client's report, then the setting, then the table (raised when the usage cannot fit), else unknown", () => {
  assert.deepEqual(claudeWindow('claude-sonnet-4-5', 1000, 500_000, 1_000_000), {
    tokens: 1_000_000,
    source: 'client',
  });
  assert.deepEqual(claudeWindow('claude-sonnet-4-5', 1000, 500_000, null), { tokens: 500_000, source: 'setting' });
  assert.deepEqual(claudeWindow('claude-opus-5-5', 1000), { tokens: 1_000_000, source: 'model' });
  assert.deepEqual(claudeWindow('claude-sonnet-4-5', 1000), { tokens: 200_000, source: 'model' });
  assert.deepEqual(claudeWindow('claude-sonnet-4-5', 250_000), { tokens: 1_000_000, source: 'usage' });
  assert.deepEqual(claudeWindow(null, 250_000), { tokens: null, source: 'unknown' });
  assert.deepEqual(claudeWindow('claude-standin', 1000), { tokens: null, source: 'unknown' });
  assert.equal(percentOf(3129, 1_000_000), 0.31);
  assert.equal(percentOf(3129, null), null);
});

function statusInput(
  root: string,
  cw: Record<string, unknown> | undefined,
  model = 'claude-opus-5-5',
): Record<string, unknown> {
  return {
    session_id: SID,
    transcript_path: `/x/${SID}.jsonl`,
    cwd: root,
    model: { id: model, display_name: 'Opus 5.5' },
    workspace: { current_dir: root, project_dir: root },
    version: '2.1.332',
    ...(cw ? { context_window: cw } : {}),
  };
}

/** What Claude Code 2.1.332 sent its statusLine right after /compact (seen in the real client). */
const AFTER_COMPACT = {
  total_input_tokens: 0,
  total_output_tokens: 0,
  context_window_size: 1_000_000,
  current_usage: null,
  used_percentage: null,
  remaining_percentage: null,
};

function session(model: string, used: number, at = new Date(Date.now() - 60_000).toISOString()) {
  const root = workspace({ '.claude/settings.json': '{}' });
  const home = workspace({}, 'cw-claude-');
  const transcript = write(
    path.join(home, 'projects', encodeClaudeProjectDir(root)),
    `${SID}.jsonl`,
    ofFolder(lines(asst({ read: used, input: 0, model, session: SID, at })), root),
  );
  return { root, home, transcript, ref: { agent: 'claude' as const, sessionId: SID, path: transcript, mtime: 0 } };
}

test('a transcript figure takes the window the client reported for that session, even when the report has no figure yet', async () => {
  const s = session('claude-opus-5-5', 3129);
  // No report: the table (1M for the default model, not 200k).
  let u = await new ContextFollower(s.ref, { root: s.root }).read();
  assert.equal(u?.windowTokens, 1_000_000);
  assert.equal(u?.windowSource, 'model');
  assert.equal(u?.percent, 0.31);
  // A report for a model the table gets wrong (a proxy's id): the client's window wins.
  const p = session('claude-proxy-large', 50_000);
  u = await new ContextFollower(p.ref, { root: p.root }).read();
  assert.equal(u?.windowTokens, null, 'unknown model, no report: window unknown');
  assert.equal(u?.percent, null);
  assert.equal(
    cli(['statusline'], {
      input: JSON.stringify(
        statusInput(p.root, { ...AFTER_COMPACT, context_window_size: 400_000 }, 'claude-proxy-large'),
      ),
    }).code,
    0,
  );
  u = await new ContextFollower(p.ref, { root: p.root }).read();
  assert.equal(u?.source, 'transcript', 'a report without a figure is no figure');
  assert.equal(u?.usedTokens, 50_000);
  assert.equal(u?.windowTokens, 400_000);
  assert.equal(u?.windowSource, 'client');
  assert.equal(u?.percent, 12.5);
  // A report naming another model (the user switched with /model) does not lend its window.
  const q = session('claude-sonnet-4-5', 50_000);
  cli(['statusline'], { input: JSON.stringify(statusInput(q.root, AFTER_COMPACT, 'claude-opus-5-5')) });
  u = await new ContextFollower(q.ref, { root: q.root }).read();
  assert.equal(u?.windowTokens, 200_000);
  assert.equal(u?.windowSource, 'model');
  // The `[1m]` variant the statusLine names is the same model as the transcript's plain id.
  const r = session('claude-sonnet-4-5', 300_000);
  cli(['statusline'], { input: JSON.stringify(statusInput(r.root, AFTER_COMPACT, 'claude-sonnet-4-5[1m]')) });
  u = await new ContextFollower(r.ref, { root: r.root }).read();
  assert.equal(u?.windowTokens, 1_000_000);
  assert.equal(u?.windowSource, 'client');
  assert.equal(u?.percent, 30);
});

test("after /compact: the client's null used_percentage is no figure (not 0 %); the transcript's postTokens count against the reported window", async () => {
  const s = session('claude-opus-5-5', 14_209);
  const { appendFileSync } = await import('node:fs');
  appendFileSync(s.transcript, lines(compact(3129)));
  const info = parseFeedInfo(
    JSON.stringify({
      version: 1,
      receivedAt: new Date().toISOString(),
      sessionId: SID,
      input: statusInput(s.root, AFTER_COMPACT),
    }),
  );
  assert.equal(info?.figure, null);
  assert.equal(info?.windowTokens, 1_000_000);
  // The relay's own line says "no figure yet" rather than 0 %.
  const out = cli(['statusline'], { input: JSON.stringify(statusInput(s.root, AFTER_COMPACT)), cwd: s.root });
  assert.equal(out.code, 0);
  assert.doesNotMatch(out.stdout, /\b0%/);
  const u = await new ContextFollower(s.ref, { root: s.root }).read();
  assert.equal(u?.source, 'transcript');
  assert.equal(u?.afterCompaction, true);
  assert.equal(u?.usedTokens, 3129);
  assert.equal(u?.windowTokens, 1_000_000);
  assert.equal(u?.percent, 0.31);
});

/**
 * What Claude Code 2.1.332 sent its statusLine right after a /compact typed in its screen (seen in the
 * real client, default and 200k models alike): every count 0 and used_percentage 0, not null.
 */
const AFTER_COMPACT_ZEROS = {
  total_input_tokens: 0,
  total_output_tokens: 0,
  context_window_size: 1_000_000,
  current_usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  used_percentage: 0,
  remaining_percentage: 100,
};

test("after /compact: the client's all-zero usage is no figure either (not 0 %); the status line and `context` show the transcript's postTokens", async () => {
  const s = session('claude-opus-5-5', 14_209);
  const { appendFileSync } = await import('node:fs');
  appendFileSync(s.transcript, lines(compact(3129)));
  const info = parseFeedInfo(
    JSON.stringify({
      version: 1,
      receivedAt: new Date().toISOString(),
      sessionId: SID,
      input: statusInput(s.root, AFTER_COMPACT_ZEROS),
    }),
  );
  assert.equal(info?.figure, null);
  assert.equal(info?.windowTokens, 1_000_000);
  const input = { ...statusInput(s.root, AFTER_COMPACT_ZEROS), transcript_path: s.transcript };
  const out = cli(['statusline'], { input: JSON.stringify(input), cwd: s.root });
  assert.equal(out.code, 0);
  assert.doesNotMatch(out.stdout, /\b0%|\(0\//, out.stdout);
  const u = await new ContextFollower(s.ref, { root: s.root }).read();
  assert.equal(u?.source, 'transcript');
  assert.equal(u?.afterCompaction, true);
  assert.equal(u?.usedTokens, 3129);
  assert.equal(u?.windowTokens, 1_000_000);
  const j = JSON.parse(cli(['context', '--json', '--root', s.root], { env: { CLAUDE_CONFIG_DIR: s.home } }).stdout);
  assert.equal(j.usedTokens, 3129, JSON.stringify(j));
  assert.equal(j.source, 'transcript');
  // A real turn's figure (a request always carries the system prompt) is still the client's.
  const turn = parseFeedInfo(
    JSON.stringify({
      version: 1,
      receivedAt: new Date().toISOString(),
      sessionId: SID,
      input: statusInput(s.root, {
        ...AFTER_COMPACT_ZEROS,
        total_input_tokens: 14_300,
        current_usage: {
          input_tokens: 12,
          output_tokens: 9,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 14_288,
        },
        used_percentage: 1,
        remaining_percentage: 99,
      }),
    }),
  );
  assert.equal(turn?.figure?.usedTokens, 14_300);
});

test('window unknown: CLI text and JSON give tokens without a percentage; the status bar too', async () => {
  const s = session('claude-proxy-large', 84_600);
  const env = { CLAUDE_CONFIG_DIR: s.home };
  const j = JSON.parse(cli(['context', '--json', '--root', s.root], { env }).stdout);
  assert.equal(j.usedTokens, 84_600);
  assert.equal(j.windowTokens, null);
  assert.equal(j.percent, null);
  assert.equal(j.windowSource, 'unknown');
  const text = cli(['context', '--root', s.root], { env });
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^Claude Code 84\.6k tokens · window unknown \(no percentage\) · claude-proxy-large/);
  assert.doesNotMatch(text.stdout, /%/);
  const v = statusView((m: string) => m, j, { profile: 'default', propose: 60, urgent: 80 }, 'ok');
  assert.equal(v.text, '$(pulse) 84.6k tokens');
  assert.match(v.tooltip, /84,600 tokens · context window unknown/);
  assert.equal(v.background, undefined);
});
