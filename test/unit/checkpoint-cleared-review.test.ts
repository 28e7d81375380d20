/**
 * What the SessionStart records of a /clear can prove, and what they cannot (an adversarial review of
 * the /clear rule). A Codex CLI app server (the client editors drive: `codex app-server`, one process,
 * several threads at once) runs the SessionStart hook of every thread from that one process, so a
 * `clear` start of one thread proves nothing about another thread of the same process: it still runs,
 * and a bare checkpoint asks which session it is for. And after several /clear in a row, a session is
 * replaced by the first of them: a session that wrote after that one started (beyond the slack) still
 * runs, whatever later /clear the same chain of process ids recorded. The records are the real hook's,
 * written through the CLI in this test's process (one agent process, as an app server is).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { goSignalUse } from '../../src/core/checkpoint/used';
import { parentChain } from '../../src/core/hooks/session-record';
import { workspace } from './helpers';
import {
  age,
  CONFIRM_ALL,
  emptyClaudeHome,
  markers,
  rollout,
  run,
  s3Workspace,
  transcript,
} from './checkpoint-fixtures';
import { A, B, C, started, tick } from './cleared-fixtures';

/** Three Codex threads of one app server: chat one (X), chat two (Y), and the thread /clear started in chat two (Z). */
const X = '019a23c0-8c16-7503-a0c2-5d68a9641461';
const Y = '019a23c0-8c16-7503-a0c2-5d68a9641462';
const Z = '019a23c0-8c16-7503-a0c2-5d68a9641463';

/** Codex CLI's SessionStart hook of thread `id` in this test's process (the app server's), its rollout `file`. */
async function codexStarted(root: string, env: NodeJS.ProcessEnv, id: string, source: string, file: string) {
  await tick();
  const input = JSON.stringify({
    session_id: id,
    transcript_path: file,
    cwd: root,
    hook_event_name: 'SessionStart',
    model: 'gpt-5.1',
    permission_mode: 'default',
    source,
  });
  const r = run(['hook', 'session-start', '--codex', '--root', root], { input, env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
}

/** The sessions a bare checkpoint lists when it asks which one is meant (the CLI's --json), or the marker it wrote. */
function bare(root: string, env: NodeJS.ProcessEnv): { code: number; listed: string[]; out: string } {
  const r = run(['checkpoint', ...CONFIRM_ALL, '--json'], { cwd: root, env });
  const out = JSON.parse(r.stdout) as { refusals?: Array<{ code: string; sessions?: Array<{ sessionId: string }> }> };
  const amb = out.refusals?.find((x) => x.code === 'ambiguous-session');
  return { code: r.code, listed: (amb?.sessions ?? []).map((s) => s.sessionId).sort(), out: r.stdout };
}

test('a Codex app server runs several threads in one process: /clear in one chat does not hide the thread of another chat that still runs', async () => {
  assert.ok(parentChain().pids.length >= 3, 'the chain of parent processes is read (Linux: /proc)');
  const root = s3Workspace();
  const codexHome = workspace({}, 'sl-codex-');
  const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome(), CODEX_HOME: codexHome };
  // Chat one: thread X, its last turn a minute ago; chat two: thread Y, then /clear there starts Z, whose first turn wrote just now.
  const x = rollout(codexHome, root, X);
  await codexStarted(root, env, X, 'startup', x);
  age(x, 60_000);
  const y = rollout(codexHome, root, Y);
  await codexStarted(root, env, Y, 'startup', y);
  age(y, 30_000);
  const z = rollout(codexHome, root, Z);
  await codexStarted(root, env, Z, 'clear', z);
  const r = bare(root, env);
  // X still runs in chat one: nothing tells which thread the /clear replaced, so the checkpoint asks.
  assert.equal(r.code, 1, r.out);
  assert.ok(r.listed.includes(X), `thread X is listed as running: ${r.listed.join(', ')}`);
  assert.deepEqual(markers(root), []);
});

test('a go-signal for a Codex thread is not used because another thread of the same app server started', async () => {
  assert.ok(parentChain().pids.length >= 3, 'the chain of parent processes is read (Linux: /proc)');
  const root = s3Workspace();
  const codexHome = workspace({}, 'sl-codex-');
  const claudeHome = emptyClaudeHome();
  const env = { CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: codexHome };
  const x = rollout(codexHome, root, X);
  await codexStarted(root, env, X, 'startup', x);
  const named = run(['checkpoint', '--session', X, ...CONFIRM_ALL], { cwd: root, env });
  assert.equal(named.code, 0, named.stdout + named.stderr);
  const at = Date.now();
  // The user opens a second chat (and clears it): thread X runs on in the first.
  await codexStarted(root, env, Y, 'startup', rollout(codexHome, root, Y));
  await codexStarted(root, env, Z, 'clear', rollout(codexHome, root, Z));
  assert.equal(await goSignalUse(root, { sessionId: X, at: at - 1 }, { claudeHome, codexHome }), null);
});

/** Set the start time the hook recorded for `sid` (its own record, and the folder's newest when that is its) to `ago` ms ago. */
function redate(root: string, sid: string, ago: number): void {
  for (const name of [`sessions/${sid}.json`, 'session.json']) {
    const rec = path.join(root, '.claude/session-ledger', name);
    const json = JSON.parse(readFileSync(rec, 'utf8')) as { at: string; session_id: string };
    if (json.session_id !== sid) continue;
    json.at = new Date(Date.now() - ago).toISOString();
    writeFileSync(rec, `${JSON.stringify(json)}\n`);
  }
}

test('after two /clear in a row, a session that wrote after the first of them started still runs: the later /clear does not hide it', async () => {
  assert.ok(parentChain().pids.length >= 3, 'the chain of parent processes is read (Linux: /proc)');
  const root = s3Workspace();
  const home = emptyClaudeHome();
  await started(root, home, A, 'startup', true);
  await started(root, home, B, 'clear', true);
  await started(root, home, C, 'clear', true);
  // The records say A started three minutes ago, B's /clear two, C's just now, all from one chain of process ids;
  // yet A wrote a minute ago, a minute after B's /clear would have ended it: another process with the same chain.
  redate(root, A, 180_000);
  redate(root, B, 120_000);
  redate(root, C, 5_000);
  age(transcript(home, root, A), 60_000);
  age(transcript(home, root, B), 10_000);
  const r = bare(root, { CLAUDE_CONFIG_DIR: home });
  assert.equal(r.code, 1, r.out);
  assert.deepEqual(r.listed, [A, C].sort());
  assert.deepEqual(markers(root), []);
});
