/**
 * "Checkpoint done" only for a figure of the checkpoint's own turn. A checkpoint is usually run inside
 * the agent's turn, whose final figure comes after the marker: that figure is covered. A bare checkpoint
 * right after /clear, before anything is typed in the new session, writes that session's marker; the
 * first answer that follows, however soon, is of a turn the checkpoint never saw (it began after the
 * marker), so no surface says "checkpoint done" for it: the status line, `context`, `hook remind`, the status bar.
 * The SessionStart records are the real hook's (cleared-fixtures); the transcript's records are shaped as
 * Claude Code writes them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { checkpointDone, preCompactGuard } from '../../src/core/hooks/guard';
import { evaluate } from '../../src/core/report/evaluate';
import { checkpointed, guardViewOf, turnUnread } from '../../src/extension/pure/status-text';
import { manualCompactInput } from '../../src/extension/pure/walkthrough-facts';
import type { ContextUsage } from '../../src/core/model/model';
import { firstTurnBetween } from '../../src/core/context/turns';
import { CONFIRM_ALL, CONFIRMED, encoded, markers, run, s3Workspace, emptyClaudeHome } from './checkpoint-fixtures';
import { B, clearedBeforeTyping, tick } from './cleared-fixtures';
import { asst, ofFolder } from './context-records';

/** B's transcript, where Claude Code writes it. */
const transcriptOf = (home: string, root: string, sid: string) =>
  path.join(home, 'projects', encoded(root), `${sid}.jsonl`);

/** Append records to the session's transcript, as Claude Code writes them. */
function append(home: string, root: string, sid: string, ...records: string[]): void {
  const file = transcriptOf(home, root, sid);
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, records.map((r) => `${ofFolder(r, root)}\n`).join(''));
}

/** What the user types: a `user` record whose content is the text. */
const prompt = (sid: string, text: string, at = new Date()) =>
  JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/u/proj',
    sessionId: sid,
    version: '2.1.39',
    type: 'user',
    message: { role: 'user', content: text },
    uuid: `u-${at.getTime()}`,
    timestamp: at.toISOString(),
  });

/** A tool's result, which the agent's turn goes on with (no turn of its own). */
const toolResult = (sid: string, at = new Date()) =>
  JSON.stringify({
    isSidechain: false,
    cwd: '/home/u/proj',
    sessionId: sid,
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Marker written' }] },
    toolUseResult: { stdout: 'Marker written', stderr: '' },
    timestamp: at.toISOString(),
  });

/** A reminder the client adds as its own record (no turn of the user's). */
const meta = (sid: string, at = new Date()) =>
  JSON.stringify({
    isSidechain: false,
    isMeta: true,
    sessionId: sid,
    type: 'user',
    message: { role: 'user', content: '<system-reminder>a note</system-reminder>' },
    timestamp: at.toISOString(),
  });

/** The agent's answer: `percent` of a 200,000-token window used. */
const answer = (sid: string, percent: number, at = new Date()) =>
  asst({ session: sid, model: 'claude-sonnet-4-5-20250929', read: percent * 2000, at: at.toISOString() });

/** Claude Code's statusLine input for the session, with its own figure. */
function statusInput(root: string, home: string, sid: string, percent: number): string {
  const usage = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: percent * 2000 };
  const window = { context_window_size: 200000, used_percentage: percent, current_usage: usage };
  const transcript = transcriptOf(home, root, sid);
  return JSON.stringify({ session_id: sid, transcript_path: transcript, cwd: root, context_window: window });
}

/**
 * What every surface says of the session `sid` now, its figure `percent` (past S3's 15 % mark) dated
 * `figureAt`: the status line's words, `context`'s level words, the reminder's suggestion (null when
 * silent), the status bar's "checkpoint done", each through what runs for real (the CLI; the extension's
 * guard preview over the store's report).
 */
async function surfaces(root: string, home: string, sid: string, percent: number) {
  const env = { CLAUDE_CONFIG_DIR: home };
  const transcript = transcriptOf(home, root, sid);
  // The meter's figure, the answer just written: dated before the surfaces read anything.
  const usage = { at: new Date().toISOString() } as ContextUsage;
  const line = run(['statusline'], { cwd: root, input: statusInput(root, home, sid, percent), env });
  assert.equal(line.code, 0, line.stderr);
  // `context` right after, on the figure the status line recorded: its level words, as the status line says them.
  const ctx = run(['context'], { cwd: root, env });
  assert.equal(ctx.code, 0, ctx.stderr);
  const level = /· ([^·]*) \(S3: 15%\/40%, the one system here\)/.exec(ctx.stdout)?.[1];
  const remind = run(['hook', 'remind'], {
    cwd: root,
    input: JSON.stringify({
      session_id: sid,
      transcript_path: transcript,
      cwd: root,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'next',
    }),
    env: { ...env, CLAUDE_PROJECT_DIR: root },
  });
  assert.equal(remind.code, 0, remind.stderr);
  // The status bar: the guard preview's verdict (the store's report, the session's transcript) and the meter's figure.
  const report = await evaluate(root, { confirmed: CONFIRMED });
  const d = await preCompactGuard(manualCompactInput({ sessionId: sid, path: transcript }, root), {
    root,
    env,
    log: false,
    report,
    turns: true,
  });
  return {
    line: line.stdout.trim(),
    context: level,
    remind: remind.stdout ? (JSON.parse(remind.stdout).hookSpecificOutput.additionalContext as string) : null,
    bar: checkpointed(guardViewOf(d, true, 480), usage),
    done: await checkpointDone(root, { sessionId: sid, transcript, env, figureAt: usage.at as string }),
  };
}

test('a bare checkpoint right after /clear, then the new session’s first answer within two minutes: no surface says "checkpoint done"', async () => {
  const { root, home } = await clearedBeforeTyping(true);
  const cp = run(['checkpoint', ...CONFIRM_ALL], { cwd: root, env: { CLAUDE_CONFIG_DIR: home } });
  assert.equal(cp.code, 0, cp.stdout + cp.stderr);
  assert.deepEqual(markers(root), [`.checkpoint-ready.${B}`]);
  await tick();
  // The user types in B after the marker; B's first answer comes seconds later, at 20 % (past S3's 15 % mark).
  append(home, root, B, prompt(B, 'add the export'));
  append(home, root, B, answer(B, 20));
  const s = await surfaces(root, home, B, 20);
  assert.equal(s.line, 'ctx 20% (40k/200k) · checkpoint proposed');
  assert.equal(s.context, 'checkpoint proposed');
  assert.match(s.remind ?? '', /past the 15% mark of S3/);
  assert.equal(s.bar, false, 'the status bar');
  assert.equal(s.done, false, "the core's checkpointDone");
});

test('a checkpoint run inside the agent’s turn: its final answer, after the marker, is the checkpoint’s own turn, and every surface says "checkpoint done"', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  const sid = B;
  // The turn began (the user's prompt), the agent worked; then it ran the checkpoint.
  append(
    home,
    root,
    sid,
    prompt(sid, 'checkpoint please', new Date(Date.now() - 20_000)),
    answer(sid, 19, new Date(Date.now() - 10_000)),
  );
  const cp = run(['checkpoint', ...CONFIRM_ALL, '--session', sid], { cwd: root, env: { CLAUDE_CONFIG_DIR: home } });
  assert.equal(cp.code, 0, cp.stdout + cp.stderr);
  await tick();
  // The tool's result, a reminder of the client's own, then the turn's final answer: all after the marker.
  append(home, root, sid, toolResult(sid), meta(sid), answer(sid, 20));
  const s = await surfaces(root, home, sid, 20);
  assert.deepEqual(s, {
    line: 'ctx 20% (40k/200k) · checkpoint done',
    context: 'checkpoint done',
    remind: null,
    bar: true,
    done: true,
  });
  // The user's next turn: its answer is after the checkpoint, however soon.
  await tick();
  append(home, root, sid, prompt(sid, 'and now the import'), answer(sid, 21));
  const next = await surfaces(root, home, sid, 21);
  assert.equal(next.line, 'ctx 21% (42k/200k) · checkpoint proposed');
  assert.equal(next.context, 'checkpoint proposed');
  assert.equal(next.bar, false);
  assert.equal(next.done, false);
});

test('the transcript says when the first turn after a marker began, or that it cannot tell', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  const sid = B;
  const t0 = Date.now() - 60_000;
  const at = (s: number) => new Date(t0 + s * 1000);
  append(home, root, sid, prompt(sid, 'one', at(0)), toolResult(sid, at(5)), meta(sid, at(6)), answer(sid, 20, at(7)));
  append(home, root, sid, prompt(sid, 'two', at(20)), answer(sid, 21, at(25)), prompt(sid, 'three', at(40)));
  const file = transcriptOf(home, root, sid);
  // After the marker written at 3 s: the tool result, the reminder and the answer are the first turn's; the second began at 20 s.
  assert.equal(await firstTurnBetween(file, t0 + 3000, t0 + 120_000), t0 + 20_000);
  assert.equal(await firstTurnBetween(file, t0 + 21_000, t0 + 120_000), t0 + 40_000);
  assert.equal(await firstTurnBetween(file, t0 + 41_000, t0 + 120_000), null, 'none began since');
  assert.equal(await firstTurnBetween(file, t0 + 3000, t0 + 10_000), null, 'none within the time asked');
  assert.equal(await firstTurnBetween(path.join(home, 'none.jsonl'), t0, t0 + 1000), undefined, 'no transcript');
  // A Codex CLI rollout: a turn begins with its `task_started` (then `user_message`) event; the developer and
  // environment messages Codex adds as the user's, its tool calls and its counts begin none.
  const codex = (s: number, type: string, payload: Record<string, unknown> = {}) =>
    JSON.stringify({ timestamp: at(s).toISOString(), type, payload });
  const rollout = path.join(home, 'rollout.jsonl');
  appendFileSync(
    rollout,
    [
      codex(0, 'event_msg', { type: 'task_started', turn_id: 't1', model_context_window: 258400 }),
      codex(0, 'event_msg', { type: 'user_message', message: 'one', images: [] }),
      codex(4, 'response_item', { type: 'function_call_output', call_id: 'c', output: 'Marker written' }),
      codex(7, 'event_msg', { type: 'token_count', info: null }),
      codex(20, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'env' }] }),
      codex(21, 'event_msg', { type: 'task_started', turn_id: 't2', model_context_window: 258400 }),
      codex(21, 'event_msg', { type: 'user_message', message: 'two', images: [] }),
    ]
      .map((l) => `${l}\n`)
      .join(''),
  );
  assert.equal(await firstTurnBetween(rollout, t0 + 3000, t0 + 120_000), t0 + 21_000);
  assert.equal(await firstTurnBetween(rollout, t0 + 3000, t0 + 15_000), null);
  // The status bar reads again only for a figure the verdict cannot place.
  const g = guardViewOf(
    { allow: true, rule: 'fresh', marker: 'm', markerMtime: t0 + 3000, turnAfter: { began: null, read: t0 + 10_000 } },
    true,
    480,
  );
  const u = (s: number) => ({ at: at(s).toISOString() }) as ContextUsage;
  assert.deepEqual(
    [u(2), u(8), u(12), u(200)].map((x) => [turnUnread(g, x), checkpointed(g, x)]),
    [
      [false, true],
      [false, true],
      [true, false],
      [false, false],
    ],
  );
});
