/**
 * Workspaces where /clear replaced a Claude Code session: the SessionStart records are the real hook's,
 * written through the CLI, as the client runs it (shared by the checkpoint's and the status bar's tests).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { parentChain } from '../../src/core/hooks/session-record';
import { cliProcess } from './helpers';
import {
  age,
  emptyClaudeHome,
  OTHER_SID,
  run,
  s3Workspace,
  SID,
  sessionStart,
  transcript,
} from './checkpoint-fixtures';

/** The session /clear replaces (A) and the one it starts (B). */
export const A = SID;
export const B = OTHER_SID;
/** A session in another terminal. */
export const C = '7e1d2c3b-4a59-4687-9a0b-c1d2e3f4a5b6';

/** A moment, so each record's start time is after the one before. */
export const tick = () => new Promise((r) => setTimeout(r, 15));

/**
 * The SessionStart hook of session `sid` as the CLI runs it: `same`, in this test's agent process (the
 * CLI in this process, so its chain of parent processes is this process's); else in an agent process
 * of its own (the CLI as a process this one starts).
 */
export async function started(root: string, home: string, sid: string, source: string, same: boolean): Promise<void> {
  await tick();
  const input = sessionStart(root, source, {
    sessionId: sid,
    extra: { transcript_path: path.join(home, 'projects', 'x', `${sid}.jsonl`) },
  });
  const env = { CLAUDE_CONFIG_DIR: home, CLAUDE_PROJECT_DIR: '' };
  const r = same
    ? run(['hook', 'session-start'], { cwd: root, input, env })
    : cliProcess(['hook', 'session-start'], { cwd: root, input, env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(path.join(root, `.claude/session-ledger/sessions/${sid}.json`)), 'recorded');
}

/** S3's workspace where A started, then /clear started B; both transcripts wrote just now, A's last. */
export async function clearedWorkspace(sameProcess: boolean) {
  assert.ok(parentChain().pids.length >= 3, 'the chain of parent processes is read (Linux: /proc)');
  const root = s3Workspace();
  const home = emptyClaudeHome();
  await started(root, home, A, 'startup', sameProcess);
  await started(root, home, B, 'clear', true);
  age(transcript(home, root, B), 5_000);
  transcript(home, root, A);
  return { root, home };
}

/** A's transcript, then /clear starts B (in A's agent process when `sameProcess`), with nothing typed in B yet: no transcript of B. */
export async function clearedBeforeTyping(sameProcess: boolean) {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  await started(root, home, A, 'startup', sameProcess);
  transcript(home, root, A);
  await started(root, home, B, 'clear', true);
  return { root, home };
}
