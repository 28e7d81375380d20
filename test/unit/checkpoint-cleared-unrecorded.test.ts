/**
 * A session the SessionStart hook never recorded (it started before the hooks were installed) and a
 * /clear after it: the hook's record of the session /clear started says which agent process it ran in,
 * but nothing says which session it replaced. The session without a record may be the one replaced, or
 * may still run in another terminal (the replaced one then an idle session that wrote nothing lately):
 * no record, transcript or time tells the two apart. So neither is guessed: both count as running, a bare
 * checkpoint asks which session it is for (and says why it cannot tell, and to name the session with
 * --session), and the status bar chooses among both as among any sessions that run at once (the
 * active terminal's, else the newest, naming the other). The records
 * are the real hook's, written through the CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followedSession, liveSessions } from '../../src/core/checkpoint/live';
import { findSessions } from '../../src/core/context';
import { parentChain } from '../../src/core/hooks/session-record';
import { chooseShownSession } from '../../src/extension/pure/session-pick';
import { age, CONFIRM_ALL, emptyClaudeHome, markers, run, s3Workspace, transcript } from './checkpoint-fixtures';
import { A, B, started } from './cleared-fixtures';

/** A's transcript (A started before the hooks were installed: no record of it), then /clear in A's agent process starts B. */
async function clearedUnrecorded(typed: boolean) {
  assert.ok(parentChain().pids.length >= 3, 'the chain of parent processes is read (Linux: /proc)');
  const root = s3Workspace();
  const home = emptyClaudeHome();
  age(transcript(home, root, A), 5_000);
  await started(root, home, B, 'clear', true);
  if (typed) transcript(home, root, B);
  return { root, home };
}

/** A bare checkpoint through the CLI, its --json outcome: the sessions it asks about, and what it says. */
function bare(root: string, home: string) {
  const env = { CLAUDE_CONFIG_DIR: home };
  const r = run(['checkpoint', ...CONFIRM_ALL, '--json'], { cwd: root, env });
  const out = JSON.parse(r.stdout) as {
    refusals: Array<{
      code: string;
      sessions?: Array<{ sessionId: string }>;
      unplaced?: Array<{ by: string; maybe: string[] }>;
    }>;
  };
  const amb = out.refusals.find((x) => x.code === 'ambiguous-session');
  const text = run(['checkpoint', ...CONFIRM_ALL], { cwd: root, env });
  return {
    code: r.code,
    listed: (amb?.sessions ?? []).map((s) => s.sessionId).sort(),
    unplaced: amb?.unplaced ?? [],
    text: text.stdout + text.stderr,
  };
}

for (const typed of [false, true])
  test(`a /clear after a session the hook never recorded (${typed ? 'typed in the new session' : 'nothing typed in it yet'}): both count as running, a bare checkpoint asks which and says to name it`, async () => {
    const { root, home } = await clearedUnrecorded(typed);
    const r = bare(root, home);
    assert.equal(r.code, 1, r.text);
    assert.deepEqual(r.listed, [A, B].sort());
    assert.deepEqual(r.unplaced, [{ by: B, maybe: [A] }]);
    assert.match(
      r.text,
      new RegExp(
        `Session ${A} has no SessionStart record here \\(it started before the hooks were installed, or its record was removed\\), so whether /clear replaced it with session ${B} cannot be told\\. Name the session this checkpoint is for with --session ID\\.`,
      ),
    );
    assert.deepEqual(markers(root), [], 'no marker is written for a session guessed');
    // The status bar counts the same sessions as running, and picks among them as among any (it follows B, the newest, by default).
    const opts = { claudeHome: home };
    const { live } = await followedSession(root, (await findSessions(root, opts))[0] ?? null, opts);
    assert.deepEqual(live.live.map((s) => s.sessionId).sort(), [A, B].sort());
    const pick = chooseShownSession(
      live.live.map((s) => ({ ...s, pids: [] })),
      undefined,
      Date.now(),
    );
    assert.equal(pick?.shown.sessionId, B, 'with no terminal to tell by: the newest, the session /clear started');
    assert.deepEqual(
      pick?.others.map((s) => s.sessionId),
      [A],
      'and the other that may run, said in the item',
    );
    // Named, each is written.
    const named = run(['checkpoint', ...CONFIRM_ALL, '--session', B], { cwd: root, env: { CLAUDE_CONFIG_DIR: home } });
    assert.equal(named.code, 0, named.stdout + named.stderr);
    assert.deepEqual(markers(root), [`.checkpoint-ready.${B}`]);
  });

test('with a record of the session /clear replaced, nothing changes: the new session is the one, and it says which it left out', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  await started(root, home, A, 'startup', true);
  age(transcript(home, root, A), 5_000);
  await started(root, home, B, 'clear', true);
  const l = await liveSessions(root, { claudeHome: home });
  assert.deepEqual(
    l.live.map((s) => s.sessionId),
    [B],
  );
  const r = run(['checkpoint', ...CONFIRM_ALL], { cwd: root, env: { CLAUDE_CONFIG_DIR: home } });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(markers(root), [`.checkpoint-ready.${B}`]);
});
