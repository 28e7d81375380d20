/**
 * The status bar's guard verdict for a Codex CLI session: the guard of the session's own client, asked
 * with the input that client sends (its thread id, its rollout file), and "installed" judged by Codex's
 * hooks file, not Claude Code's settings. A Codex session checkpointed for its thread shows
 * "checkpoint done" as a Claude Code session does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { guardCheckpointed } from '../../src/core/checkpoint/freshness';
import { guardInstalledFor, manualCompactInput } from '../../src/extension/pure/walkthrough-facts';
import { guardViewOf, guardSentence } from '../../src/extension/pure/status-text';
import { enT, HOOK_SCRIPT, workspace } from './helpers';
import { CONFIRM_ALL, emptyClaudeHome, run, S3_STATE } from './checkpoint-fixtures';

const THREAD = '01a23c00-8b1f-7412-b10e-c12ea255a2b1';

/** A Codex session of `dir`: its rollout file under a Codex home, as Codex CLI writes it. */
function codexSession(dir: string): { home: string; ref: { agent: 'codex'; sessionId: string; path: string } } {
  const home = workspace({}, 'sl-codex-home-');
  const rollout = path.join(home, 'sessions', '2026', '12', '06', `rollout-2026-12-06T10-00-00-${THREAD}.jsonl`);
  mkdirSync(path.dirname(rollout), { recursive: true });
  writeFileSync(
    rollout,
    `${JSON.stringify({ timestamp: new Date(Date.now() - 3_600_000).toISOString(), type: 'session_meta', payload: { id: THREAD, cwd: dir } })}\n`,
  );
  return { home, ref: { agent: 'codex', sessionId: THREAD, path: rollout } };
}

/** What the status bar shows for the session: the guard's verdict with the client's own "installed". */
async function statusOf(dir: string, codexHome: string, ref: { agent: 'codex'; sessionId: string; path: string }) {
  const d = await preCompactGuard(manualCompactInput(ref, dir), { root: dir, log: false, agent: ref.agent });
  const installed = await guardInstalledFor(ref.agent, dir, codexHome);
  return { d, installed, said: guardSentence(enT, guardViewOf(d, installed, 480)) };
}

test("a Codex session's guard verdict: not guarded before Codex's hooks are installed (Claude Code's do not count), then blocked, then checkpoint done once its thread's marker is written", async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const { home, ref } = codexSession(dir);
  const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome(), CODEX_HOME: home };
  // Claude Code's guard installed: Codex runs none of it.
  assert.equal(run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT], { env }).code, 0);
  let s = await statusOf(dir, home, ref);
  assert.equal(s.installed, false, "Claude Code's settings do not guard a Codex session");
  assert.match(s.said, /not guarded/);
  // Codex's own hooks: the guard blocks until the thread is checkpointed.
  assert.equal(run(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT], { env }).code, 0);
  s = await statusOf(dir, home, ref);
  assert.equal(s.installed, true);
  assert.deepEqual([s.d.allow, s.d.rule], [false, 'no-marker'], s.d.log);
  const c = run(['checkpoint', '--root', dir, '--session', THREAD, ...CONFIRM_ALL], { env });
  assert.equal(c.code, 0, c.stdout + c.stderr);
  s = await statusOf(dir, home, ref);
  assert.equal(s.d.allow, true, s.d.log);
  assert.equal(s.d.marker, `.claude/.checkpoint-ready.${THREAD}`);
  assert.equal(guardCheckpointed(s.d, NaN), true, 'checkpoint done, as the status line says it');
});

test("Codex's hooks file in the user's Codex home guards the session too; a Codex session's input names its thread and rollout", async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const { home, ref } = codexSession(dir);
  assert.equal(await guardInstalledFor('codex', dir, home), false);
  writeFileSync(
    path.join(home, 'hooks.json'),
    JSON.stringify({
      hooks: {
        PreCompact: [
          {
            hooks: [{ type: 'command', command: 'node "/p/.codex/hooks/session-ledger.cjs" hook pre-compact --codex' }],
          },
        ],
      },
    }),
  );
  assert.equal(await guardInstalledFor('codex', dir, home), true);
  assert.deepEqual(JSON.parse(manualCompactInput(ref, dir)), {
    session_id: THREAD,
    transcript_path: ref.path,
    cwd: dir,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
  });
});
