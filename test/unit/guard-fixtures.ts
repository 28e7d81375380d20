// Workspaces the guard's tests make many times over (a real checkpoint on real git, the same files each
// time): each is made once per test process and handed out as a copy (about 10 ms of CPU for the
// checkpointed demo, against about 90 ms to make it).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { SID } from './checkpoint-fixtures';
import { cli, copyTree, demoRepo, HOOK_SCRIPT, workspace } from './helpers';

/** The built hook script installed in `dir` as `hooks install` puts it (.claude/hooks/session-ledger.cjs). */
export function installHook(dir: string): void {
  mkdirSync(path.join(dir, '.claude/hooks'), { recursive: true });
  copyFileSync(HOOK_SCRIPT, path.join(dir, '.claude/hooks/session-ledger.cjs'));
}

const made = new Map<string, string>();

/**
 * A copy of the workspace `make` builds, built the first time `key` is asked for in this process and kept
 * as it was then (`make` must give the same files every time, and nothing in it may name its own path).
 */
export function madeOnce(key: string, make: () => string): string {
  let original = made.get(key);
  if (original === undefined) {
    original = make();
    made.set(key, original);
  }
  const dir = workspace({});
  copyTree(original, dir);
  return dir;
}

/**
 * A copy of the demo workspace (five systems, committed) after a real checkpoint for SID, made once per
 * process: its files and marker keep that checkpoint's times (the caller dates the marker as its case needs).
 */
export function checkpointedDemo(): string {
  return madeOnce('checkpointed demo', () => {
    const made = demoRepo();
    const r = cli(['checkpoint', '--root', made, '--session', SID, '--confirm', 'feedback-stored,last-request']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return made;
  });
}
