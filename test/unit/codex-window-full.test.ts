/**
 * Codex CLI when the model refuses a request as longer than its context window: the token_count it
 * then writes, of the shape the real client (0.171.0) wrote against the Responses stand-in answering
 * `response.failed` with `context_length_exceeded`. Codex marks the window full: the running total
 * becomes the window with every part 0, and the last usage only what that total grew by (window less
 * the previous running total, at least 0). And a count that names no window.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { ContextFollower, measure, type ContextUsage } from '../../src/core/context';
import { cli, workspace, write } from './helpers';
import { codexMeta, codexTurn, lines } from './context-records';

const XID = '01a243c3-21e9-7b92-a4e3-8b45de8edc21';
const WINDOW = 258400;
const RATE_LIMITS = {
  limit_id: 'codex',
  limit_name: null,
  primary: null,
  secondary: null,
  credits: null,
  individual_limit: null,
  spend_control_reached: null,
  plan_type: null,
  rate_limit_reached_type: null,
};

const usage = (input: number, output: number, total = input + output) => ({
  input_tokens: input,
  cached_input_tokens: 0,
  cache_write_input_tokens: 0,
  output_tokens: output,
  reasoning_output_tokens: 0,
  total_tokens: total,
});

/** A token_count after a completed request, as Codex writes it. */
function counted(total: ReturnType<typeof usage>, last: ReturnType<typeof usage>, window: number | null = WINDOW) {
  return JSON.stringify({
    timestamp: '2026-12-05T01:13:11.619Z',
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        total_token_usage: total,
        last_token_usage: last,
        last_usage_includes_reasoning: false,
        ...(window !== null ? { model_context_window: window } : {}),
      },
      rate_limits: RATE_LIMITS,
    },
  });
}

/** The token_count Codex writes once the model said the context window was exceeded. */
function filled(previousTotal: number, window = WINDOW) {
  return JSON.stringify({
    timestamp: '2026-12-05T01:13:11.620Z',
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        total_token_usage: usage(0, 0, window),
        last_token_usage: usage(0, 0, Math.max(0, window - previousTotal)),
        model_context_window: window,
      },
      rate_limits: RATE_LIMITS,
    },
  });
}

const failed = JSON.stringify({
  timestamp: '2026-12-05T01:13:11.621Z',
  type: 'event_msg',
  payload: {
    type: 'task_complete',
    last_agent_message: null,
    error: {
      message:
        "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.",
      codex_error_info: 'context_window_exceeded',
    },
  },
});

/** Two turns of 140,012 tokens each (a running total of 280,024, past the window), then the refused third. */
const TWO_TURNS = [
  codexMeta(XID, '/p'),
  codexTurn('gpt-5.1'),
  counted(usage(140000, 12), usage(140000, 12)),
  codexTurn('gpt-5.1'),
  counted(usage(280000, 24), usage(140000, 12)),
  codexTurn('gpt-5.1'),
  counted(usage(280000, 24), usage(140000, 12)),
];

async function one(content: string, opts: Parameters<typeof measure>[1] = {}): Promise<ContextUsage | undefined> {
  const dir = workspace();
  const file = write(dir, `rollout-2026-12-05T01-13-11-${XID}.jsonl`, content);
  const got = await measure(dir, { transcript: file, ...opts });
  assert.ok(got.length <= 1);
  return got[0];
}

test('Codex, window exceeded with a running total past the window (last usage 0): the whole window, 100 %, not 0 %', async () => {
  const u = await one(lines(...TWO_TURNS, filled(280024), failed));
  assert.equal(u?.agent, 'codex');
  assert.equal(u?.usedTokens, WINDOW);
  assert.equal(u?.windowTokens, WINDOW);
  assert.equal(u?.windowSource, 'client');
  assert.equal(u?.percent, 100);
});

test('Codex, window exceeded with a running total under the window: the whole window, not what the total grew by', async () => {
  // Two turns of ~11k: last usage 236,262 (258,400 − 22,138), which was no request's size.
  const u = await one(
    lines(
      codexMeta(XID, '/p'),
      codexTurn('gpt-5.1'),
      counted(usage(11025, 12), usage(11025, 12)),
      counted(usage(22114, 24), usage(11089, 12)),
      filled(22138),
    ),
  );
  assert.equal(u?.usedTokens, WINDOW);
  assert.equal(u?.percent, 100);
});

test('Codex, window exceeded: the CLI says the level past every threshold; JSON and text', () => {
  const root = workspace();
  const home = workspace({}, 'sl-codex-');
  const rollout = [codexMeta(XID, root), ...TWO_TURNS.slice(1), filled(280024)];
  write(home, `sessions/2026/12/05/rollout-2026-12-05T01-13-11-${XID}.jsonl`, lines(...rollout));
  const env = { CODEX_HOME: home, CLAUDE_CONFIG_DIR: workspace({}, 'sl-claude-'), HOME: workspace({}, 'sl-home-') };
  const r = cli(['context', '--json', '--root', root, '--agent', 'codex'], { env });
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.percent, 100);
  assert.equal(j.usedTokens, WINDOW);
  assert.equal(j.level, 'urgent');
  const text = cli(['context', '--root', root, '--agent', 'codex'], { env });
  assert.match(text.stdout, /^Codex CLI 100% · 258\.4k of 258\.4k tokens/);
});

test('Codex, window exceeded while followed: the appended count reads full; the next completed request reads as before', async () => {
  const file = write(workspace(), `rollout-${XID}.jsonl`, lines(...TWO_TURNS));
  const f = new ContextFollower({ agent: 'codex', sessionId: XID, path: file, mtime: 0 });
  assert.equal((await f.read())?.usedTokens, 140012);
  appendFileSync(file, lines(filled(280024), failed));
  const full = await f.read();
  assert.equal(full?.usedTokens, WINDOW);
  assert.equal(full?.percent, 100);
  // The user goes on after clearing history: Codex adds the request to the running total.
  appendFileSync(file, lines(counted(usage(3000, 12, WINDOW + 3012), usage(3000, 12))));
  const after = await f.read();
  assert.equal(after?.usedTokens, 3012);
  assert.equal(after?.percent, 1.17);
});

test('Codex: a running total that happens to equal the window, with its parts, is an ordinary count', async () => {
  const u = await one(lines(codexMeta(XID, '/p'), counted(usage(258000, 400), usage(100000, 400))));
  assert.equal(u?.usedTokens, 100400);
  assert.equal(u?.percent, 38.85);
});

test('Codex: a count that names no window gives tokens without a percentage (no window guessed), or the setting', async () => {
  const content = lines(
    codexMeta(XID, '/p'),
    codexTurn('gpt-5.1'),
    counted(usage(41250, 730), usage(41250, 730), null),
  );
  const u = await one(content);
  assert.equal(u?.usedTokens, 41980);
  assert.equal(u?.windowTokens, null);
  assert.equal(u?.windowSource, 'unknown');
  assert.equal(u?.percent, null);
  const s = await one(content, { windowTokens: 400000 });
  assert.equal(s?.windowTokens, 400000);
  assert.equal(s?.windowSource, 'setting');
  assert.equal(s?.percent, 10.5);
  // The CLI's text: tokens, window unknown, no level.
  const root = workspace();
  const file = write(workspace(), `rollout-${XID}.jsonl`, content);
  const text = cli(['context', '--root', root, '--transcript', file], {
    env: { HOME: workspace({}, 'sl-home-'), CODEX_HOME: workspace({}, 'sl-codex-') },
  });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^Codex CLI 42k tokens · window unknown \(no percentage\) · gpt-5\.1/);
  assert.doesNotMatch(text.stdout, /%/);
});
