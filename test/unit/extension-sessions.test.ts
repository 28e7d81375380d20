/** The context meter's choice among several live sessions: the active terminal's, else the newest; the others in the tooltip. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  liveSessions,
  otherSessionsLines,
  chooseShownSession,
  sharedCodexPids,
  sessionName,
  sessionPickItem,
  shownSessionText,
  type LiveSession,
} from '../../src/extension/pure/session-pick';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO } from './helpers';

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

test("sessions: the active terminal's session is shown (by its processes, else by its client), the others listed", () => {
  // a's agent (4243) runs under the active terminal's shell (4242); c's under another shell.
  const all = [
    s('claude', 'a', 5, { pids: [9001, 4243, 4242, 1] }),
    s('claude', 'c', 2, { pids: [9002, 778, 777, 1] }),
    s('codex', 'b', 1),
  ];
  const byPid = chooseShownSession(all, { agent: 'claude', shell: 4242, below: [4243, 4244] }, NOW)!;
  assert.equal(byPid.shown.sessionId, 'a');
  assert.equal(byPid.by, 'process');
  assert.deepEqual(
    byPid.others.map((x) => x.sessionId),
    ['b', 'c'],
  );
  // The shell that ran a's agent, with the agent gone: a ended there; the terminal runs no agent.
  const ended = chooseShownSession(all, { shell: 4242, below: [] }, NOW)!;
  assert.equal(ended.shown.sessionId, 'b');
  assert.equal(ended.by, 'newest');
  // No /proc: the recorded chain holding the shell tells it.
  assert.equal(chooseShownSession(all, { shell: 777, below: null }, NOW)!.shown.sessionId, 'c');
  // An agent process under the terminal names its session (no record).
  assert.equal(chooseShownSession(all, { shell: 5, below: [6], runs: ['b'] }, NOW)!.by, 'process');
  const byAgent = chooseShownSession(all, { agent: 'codex', shell: 1, below: [2] }, NOW)!;
  assert.equal(byAgent.shown.sessionId, 'b');
  assert.equal(byAgent.by, 'agent');
  // Names are not processes: two terminals named alike tell nothing.
  assert.equal(chooseShownSession(all, { name: 'bash', shell: 3, below: [] }, NOW)!.by, 'newest');
  const none = chooseShownSession(all, undefined, NOW)!;
  assert.equal(none.shown.sessionId, 'b', 'no terminal: the newest');
  assert.equal(none.by, 'no-terminal', 'no terminal is open: none runs any session');
  assert.equal(chooseShownSession([], undefined, NOW), null);
  const stale = chooseShownSession([s('claude', 'x', 120)], undefined, NOW)!;
  assert.equal(stale.shown.sessionId, 'x', 'nothing live: the newest session still shows');
  assert.deepEqual(stale.others, []);
  // After /clear one agent process ran two sessions: the newer is shown.
  const twice = [s('claude', 'old', 9, { pids: [50, 40] }), s('claude', 'new', 3, { pids: [51, 40] })];
  assert.equal(chooseShownSession(twice, { shell: 40, below: [50, 51] }, NOW)!.shown.sessionId, 'new');
});

test("checkpoint's question which session: each choice names its client (Claude Code or Codex CLI), the terminal that runs it when known, its id and last write", () => {
  const claude = {
    agent: 'claude' as const,
    sessionId: 'a1b2c3d4-e5f6',
    lastWrite: min(2),
    firstUserLine: 'fix the login test',
  };
  const codex = { agent: 'codex' as const, sessionId: '019a23c0-8c16', lastWrite: min(0), firstUserLine: null };
  assert.deepEqual(sessionPickItem(t, claude, undefined, NOW), {
    label: 'fix the login test',
    description: 'Claude Code session a1b2c3d4…',
    detail: 'a1b2c3d4-e5f6 · last write 2 min ago',
  });
  assert.deepEqual(sessionPickItem(t, codex, { index: 3, name: 'codex' }, NOW), {
    label: '(no user message yet)',
    description: 'Codex CLI session 019a23c0… (terminal 3 "codex")',
    detail: '019a23c0-8c16 · last write just now',
  });
});

test('sessions: whose figure the item shows is said, the newest said to be the newest', () => {
  const id = '3f2a1b2c-aaaa-4bbb-8ccc-dddddddddddd';
  assert.equal(sessionName(t, { agent: 'claude', sessionId: id }), 'Claude Code session 3f2a1b2c…');
  assert.equal(
    sessionName(t, { agent: 'codex', sessionId: id }, { index: 2, name: 'bash' }),
    'Codex CLI session 3f2a1b2c… (terminal 2 "bash")',
  );
  assert.equal(sessionName(t, { agent: 'claude', sessionId: null }), 'Claude Code session');
  const own = shownSessionText(t, { agent: 'claude', sessionId: id }, 'process');
  assert.equal(own.label, 'Claude Code session 3f2a1b2c…, running in the active terminal.');
  assert.match(own.line, /^\$\(terminal\) Claude Code session 3f2a1b2c…, running in the active terminal$/);
  const newest = shownSessionText(t, { agent: 'codex', sessionId: id }, 'newest');
  assert.equal(
    newest.label,
    'Newest session in this workspace (Codex CLI session 3f2a1b2c…): the active terminal runs no agent session of it.',
  );
  assert.match(newest.line, /^\$\(info\) Newest session in this workspace/);
  // With no terminal open the sentence does not speak of an active terminal's sessions.
  assert.equal(
    shownSessionText(t, { agent: 'claude', sessionId: id }, 'no-terminal').label,
    'Newest session in this workspace (Claude Code session 3f2a1b2c…): no terminal is open in this window to tell which one you use.',
  );
  assert.match(
    shownSessionText(t, { agent: 'claude', sessionId: id }, 'agent').label,
    /^Newest Claude Code session in this workspace/,
  );
  // Japanese and Korean say it too.
  for (const lang of ['ja', 'ko']) {
    const bundle = JSON.parse(readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8')) as Record<
      string,
      string
    >;
    const tl = (m: string, ...args: Array<string | number | boolean>) =>
      (bundle[m] ?? `MISSING ${m}`).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));
    for (const by of ['process', 'agent', 'newest', 'no-terminal'] as const)
      assert.doesNotMatch(
        shownSessionText(tl, { agent: 'claude', sessionId: id }, by).label,
        /MISSING/,
        `${lang} ${by}`,
      );
  }
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

test("sessions: Codex's shared hook server (in two Codex sessions' chains) does not tie a session to the terminal that started it", () => {
  // Codex's screen in terminal 1 (shell 100, codex 101) started the hook server 102; the session of
  // terminal 2 (shell 200, codex 201) ran its SessionStart hook in that same server.
  const all = [
    s('codex', 'second', 1, { pids: [102, 101, 100, 1] }),
    s('codex', 'first', 3, { pids: [102, 101, 100, 1] }),
  ];
  assert.deepEqual([...sharedCodexPids(all)].sort(), [1, 100, 101, 102]);
  const t1 = chooseShownSession(all, { agent: 'codex', shell: 100, below: [101, 102] }, NOW)!;
  assert.notEqual(t1.by, 'process', 'terminal 1 is not said to run the second session by a shared process');
  // A chain of its own still tells: a Codex session started without the shared server (--no-daemon).
  const own = [...all, s('codex', 'own', 0, { pids: [301, 300, 1] })];
  const t3 = chooseShownSession(own, { agent: 'codex', shell: 300, below: [301] }, NOW)!;
  assert.equal(t3.shown.sessionId, 'own');
  assert.equal(t3.by, 'process');
  // Claude Code after /clear: one process ran two sessions; the newer is its own (not shared).
  const claude = [s('claude', 'new', 1, { pids: [401, 400] }), s('claude', 'old', 9, { pids: [401, 400] })];
  assert.deepEqual([...sharedCodexPids(claude)], []);
  assert.equal(chooseShownSession(claude, { shell: 400, below: [401] }, NOW)!.shown.sessionId, 'new');
});
