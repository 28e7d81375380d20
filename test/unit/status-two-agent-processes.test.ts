/**
 * Two Claude Code processes run beside each other in one folder, started by the same parent (two sessions
 * of the editor's Claude Code panel, or two `claude` a script starts), on a system whose /bin/sh is bash
 * (Fedora, Arch, RHEL): bash execs a hook command that is one simple command, so the hook's nearest parent
 * is the Claude Code process itself, not a shell, and the rest of both chains is the same. A /clear in one
 * process then must not be taken as having replaced the session the other runs: the status item keeps
 * following that session and its figure. Checked with the real Claude Code 2.1.332 under a /bin/sh that is
 * bash: two `claude -p` of one parent record `pids` [own pid, parent, …], equal from the second on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { followedSession, liveSessions } from '../../src/core/checkpoint/live';
import { ContextFollower, findSessions, levelOf, thresholdProfile } from '../../src/core/context';
import { noFigureView, statusView } from '../../src/extension/pure/status-text';
import { age, emptyClaudeHome, encoded, run, s3Workspace, sessionStart, transcript } from './checkpoint-fixtures';
import { A, B, C } from './cleared-fixtures';
import { asst, ofFolder } from './context-records';

const t = (m: string, ...args: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));

function answered(home: string, root: string, sid: string, percent: number, at = new Date()): void {
  const line = asst({ session: sid, read: percent * 2000 - 1, at: at.toISOString() });
  appendFileSync(path.join(home, 'projects', encoded(root), `${sid}.jsonl`), `${ofFolder(line, root)}\n`);
}

/**
 * One Claude Code process running the installed hook for each of `starts` in turn: a Node process of its own
 * stands in for it (its name is no shell's, as Claude Code's is not) and runs the hook's command through a
 * shell, as Claude Code does. `exec`: as bash does with a command that is all `-c` holds, the shell execs it,
 * so the hook's parent is the agent process itself; else (`; true` after it) the shell stays the hook's parent,
 * as dash does.
 */
function agentProcess(root: string, home: string, starts: Array<{ sid: string; source: string }>, exec = true): void {
  const command = `node "$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger.cjs" hook session-start${exec ? '' : '; true'}`;
  const inputs = starts.map(({ sid, source }) =>
    sessionStart(root, source, {
      sessionId: sid,
      extra: { transcript_path: path.join(home, 'projects', encoded(root), `${sid}.jsonl`) },
    }),
  );
  const agent = `const { spawnSync } = require('node:child_process');
for (const input of JSON.parse(process.env.STARTS)) {
  const r = spawnSync(${JSON.stringify(exec ? 'bash' : 'sh')}, ['-c', process.env.HOOK], { input, encoding: 'utf8' });
  if (r.status !== 0) { process.stderr.write(r.stderr); process.exit(1); }
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
}`;
  const r = spawnSync(process.execPath, ['-e', agent], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      CLAUDE_PROJECT_DIR: root,
      CLAUDE_CONFIG_DIR: home,
      STARTS: JSON.stringify(inputs),
      HOOK: command,
    },
  });
  assert.equal(r.status, 0, r.stderr);
}

async function statusItem(root: string, home: string) {
  const opts = { claudeHome: home };
  const newest = (await findSessions(root, opts))[0] ?? null;
  const { ref, live } = await followedSession(root, newest, opts);
  assert.ok(ref);
  const usage = await new ContextFollower(ref, { root, claudeHome: home }).read();
  const profile = thresholdProfile(['S3']);
  const view = usage ? statusView(t, usage, profile, levelOf(usage.percent, profile)) : noFigureView(t, ref, profile);
  return { session: ref.sessionId, live: live.live.map((s) => s.sessionId).sort(), view };
}

for (const exec of [true, false])
  test(`two Claude Code processes beside each other (hooks ${exec ? 'exec’d by the shell, as bash does' : 'run as the shell’s child, as dash does'}): a /clear in one does not replace the other’s session; in its own process it does`, async () => {
    const root = s3Workspace();
    const home = emptyClaudeHome();
    assert.equal(run(['hooks', 'install'], { cwd: root, env: { CLAUDE_CONFIG_DIR: home } }).code, 0);
    // Claude Code process 1: session A, at 80 % (past S3's urgent mark); its last answer 20 s ago.
    agentProcess(root, home, [{ sid: A, source: 'startup' }], exec);
    transcript(home, root, A);
    answered(home, root, A, 80, new Date(Date.now() - 20_000));
    age(path.join(home, 'projects', encoded(root), `${A}.jsonl`), 20_000);
    // Claude Code process 2, in another tab of the same editor: session C, then /clear starts B.
    agentProcess(
      root,
      home,
      [
        { sid: C, source: 'startup' },
        { sid: B, source: 'clear' },
      ],
      exec,
    );
    // C wrote before its /clear, and before A last did.
    transcript(home, root, C);
    age(path.join(home, 'projects', encoded(root), `${C}.jsonl`), 30_000);
    const [a, b, c] = [A, B, C].map(
      (s) =>
        JSON.parse(readFileSync(path.join(root, `.claude/session-ledger/sessions/${s}.json`), 'utf8')) as {
          pids: number[];
          hookShell?: boolean;
        },
    );
    assert.equal(a.hookShell, !exec, 'the record says whether a shell stands between the agent and the hook');
    const from = exec ? 0 : 1;
    assert.notEqual(a.pids[from], b.pids[from], 'two agent processes');
    assert.deepEqual(a.pids.slice(from + 1), b.pids.slice(from + 1), 'started by the same parent');
    assert.deepEqual(b.pids.slice(from), c.pids.slice(from), 'B and C: one agent process');
    const l = await liveSessions(root, { claudeHome: home });
    assert.ok(!l.replaced.some((x) => x.id === A), `A was replaced by no /clear: ${JSON.stringify(l.replaced)}`);
    assert.deepEqual(
      l.replaced.map((x) => [x.id, x.by]),
      [[C, B]],
      'the /clear in its own process replaced C',
    );
    const item = await statusItem(root, home);
    assert.ok(
      item.live.includes(A),
      'A still runs in its own Claude Code process: another process’s /clear did not replace it',
    );
    assert.equal(item.session, A, 'the item keeps following A, the session at 80 %');
    assert.equal(item.view.text, '$(error) 80%');
  });
