/**
 * Two live sessions known only from their SessionStart records (no transcript found) are as
 * ambiguous as two live transcripts: the CLI refuses and lists them, never picks one; one record
 * alone still names the session.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { recentSessions } from '../../src/core/context/sessions';
import { SESSION_RECORD_REL, writeSessionRecord } from '../../src/core/hooks/session-record';
import { workspace } from './helpers';
import {
  CODEX_ID,
  CONFIRM_ALL,
  CONFIRMED,
  markers,
  OTHER_SID,
  rollout,
  run,
  s3Workspace,
  SID,
} from './checkpoint-fixtures';

const record = (dir: string, id: string) =>
  writeSessionRecord(dir, {
    session_id: id,
    transcript_path: null,
    source: 'startup',
    cwd: dir,
    at: new Date().toISOString(),
    pids: [],
  });

test('two sessions known only from SessionStart records: the CLI refuses, lists both, writes no marker; --session picks one', async () => {
  const dir = s3Workspace();
  const home = workspace({}, 'sl-claude-');
  await record(dir, SID);
  await record(dir, OTHER_SID);
  const recent = await recentSessions(dir, { claudeHome: home, codexHome: home });
  assert.deepEqual(recent.map((s) => s.sessionId).sort(), [SID, OTHER_SID].sort());
  const r = run(['checkpoint', '--root', dir, ...CONFIRM_ALL], { env: { CLAUDE_CONFIG_DIR: home, CODEX_HOME: home } });
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /2 agent sessions of this folder wrote within the last 30 minutes/);
  assert.match(r.stderr, new RegExp(SID));
  assert.match(r.stderr, new RegExp(OTHER_SID));
  assert.equal(existsSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`)), false);
  assert.equal(existsSync(path.join(dir, '.claude/.checkpoint-ready')), false);
  const out = await checkpoint(dir, { claudeHome: home, codexHome: home, confirmed: CONFIRMED });
  assert.equal(out.refusals[0]?.code, 'ambiguous-session');
  const ok = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL], {
    env: { CLAUDE_CONFIG_DIR: home, CODEX_HOME: home },
  });
  assert.equal(ok.code, 0, ok.stderr);
});

test('one session known only from its SessionStart record is not ambiguous: it is the session', async () => {
  const dir = s3Workspace();
  const home = workspace({}, 'sl-claude-');
  await record(dir, SID);
  const out = await checkpoint(dir, { claudeHome: home, codexHome: home, confirmed: CONFIRMED });
  assert.deepEqual(
    out.refusals.map((x) => x.code),
    [],
  );
  assert.equal(out.sessionId, SID);
});

test("a thread Codex CLI's SessionStart hook recorded is a Codex CLI session (its first line read from its rollout); a record that does not name its client, as written before, is Claude Code's", async () => {
  const dir = s3Workspace();
  const home = workspace({}, 'sl-claude-');
  // The rollout is where this Codex keeps it, not under the Codex home the checkpoint looks in: only the record knows the thread.
  const file = rollout(workspace({}, 'sl-codex-'), dir);
  const payload = JSON.stringify({
    session_id: CODEX_ID,
    transcript_path: file,
    cwd: dir,
    hook_event_name: 'SessionStart',
    model: 'gpt-5.1',
    permission_mode: 'default',
    source: 'startup',
  });
  const env = { CLAUDE_CONFIG_DIR: home, CODEX_HOME: home };
  const hook = run(['hook', 'session-start', '--codex', '--root', dir], { input: payload, env });
  assert.equal(hook.code, 0, hook.stderr);
  assert.equal(JSON.parse(readFileSync(path.join(dir, SESSION_RECORD_REL), 'utf8')).agent, 'codex');
  // Alone, it is the session, and the checkpoint says whose.
  const one = await checkpoint(dir, { claudeHome: home, codexHome: home, env: {}, confirmed: CONFIRMED });
  assert.deepEqual(
    [one.kind, one.sessionId, one.sessionSource, one.sessionAgent],
    ['written', CODEX_ID, 'session-start', 'codex'],
  );
  // A record of Claude Code's hook from before the client was recorded: no `agent`.
  await record(dir, SID);
  const recent = await recentSessions(dir, { claudeHome: home, codexHome: home });
  assert.deepEqual(
    recent.map((x) => [x.sessionId, x.agent, x.firstUserLine]).sort(),
    [
      [CODEX_ID, 'codex', 'wire the export button'],
      [SID, 'claude', null],
    ].sort(),
  );
  const before = markers(dir);
  const r = run(['checkpoint', '--root', dir, ...CONFIRM_ALL], { env });
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, new RegExp(`${CODEX_ID} {2}Codex CLI, last write just now: "wire the export button"`));
  assert.match(r.stderr, new RegExp(`${SID} {2}Claude Code, last write just now: \\(no user message yet\\)`));
  assert.deepEqual(markers(dir), before, 'no marker written');
});
