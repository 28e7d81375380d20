/**
 * Two live sessions known only from their SessionStart records (no transcript found) are as
 * ambiguous as two live transcripts: the CLI refuses and lists them, never picks one; one record
 * alone still names the session.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { recentSessions } from '../../src/core/context/sessions';
import { writeSessionRecord } from '../../src/core/hooks/session-record';
import { workspace } from './helpers';
import { CONFIRM_ALL, CONFIRMED, OTHER_SID, run, s3Workspace, SID } from './checkpoint-fixtures';

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
