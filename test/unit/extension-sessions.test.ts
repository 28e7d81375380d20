/** The context meter's choice among several live sessions: the active terminal's, else the newest; the others in the tooltip. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  liveSessions,
  otherSessionsLines,
  chooseShownSession,
  type LiveSession,
} from '../../src/extension/pure/session-pick';

const t = (m: string, ...args: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));
const NOW = Date.parse('2026-12-02T17:00:00Z');
const min = (n: number) => NOW - n * 60_000;
const s = (agent: LiveSession['agent'], id: string, ago: number, extra: Partial<LiveSession> = {}): LiveSession => ({
  agent,
  sessionId: id,
  transcriptPath: `/t/${id}.jsonl`,
  lastWrite: min(ago),
  ...extra,
});

test('sessions: live means written within 30 minutes, newest first', () => {
  const all = [s('claude', 'old', 90), s('claude', 'a', 5), s('codex', 'b', 1)];
  assert.deepEqual(
    liveSessions(all, NOW).map((x) => x.sessionId),
    ['b', 'a'],
  );
});

test("sessions: the active terminal's session is shown (by its process, else by its agent), the others listed", () => {
  const all = [s('claude', 'a', 5, { terminal: 4242 }), s('claude', 'c', 2, { terminal: 777 }), s('codex', 'b', 1)];
  const byPid = chooseShownSession(all, { agent: 'claude', pids: [4242, 4243] }, NOW)!;
  assert.equal(byPid.shown.sessionId, 'a');
  assert.equal(byPid.byTerminal, true);
  assert.deepEqual(
    byPid.others.map((x) => x.sessionId),
    ['b', 'c'],
  );
  const byAgent = chooseShownSession(all, { agent: 'codex', pids: [1] }, NOW)!;
  assert.equal(byAgent.shown.sessionId, 'b');
  const none = chooseShownSession(all, undefined, NOW)!;
  assert.equal(none.shown.sessionId, 'b', 'no agent terminal: the newest');
  assert.equal(none.byTerminal, false);
  assert.equal(chooseShownSession([], undefined, NOW), null);
  const stale = chooseShownSession([s('claude', 'x', 120)], undefined, NOW)!;
  assert.equal(stale.shown.sessionId, 'x', 'nothing live: the newest session still shows');
  assert.deepEqual(stale.others, []);
});

test('sessions: the tooltip lists the other live sessions as inert code spans', () => {
  const lines = otherSessionsLines(
    t,
    [s('codex', 'bbbbbbbb-1', 1, { firstUserLine: 'fix `the` tests\nnow' }), s('claude', null as unknown as string, 0)],
    NOW,
  );
  assert.deepEqual(lines, [
    '',
    'Other live sessions of this workspace:',
    '- Codex CLI `bbbbbbbb` · 1 min ago — `fix  the  tests now`',
    '- Claude Code · just now',
  ]);
  assert.deepEqual(otherSessionsLines(t, [], NOW), []);
});
