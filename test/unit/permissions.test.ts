/**
 * Permission errors, for real: the CLI runs as an unprivileged user (as root, as `nobody`, uid/gid
 * 65534 set by spawn itself; as anyone else, directly) over files and folders it may not read. Each gets a clear
 * finding or a one-line message, never a crash. The CLI runs from a copy `nobody` can read: the
 * clone itself may sit in a private folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import * as path from 'node:path';
import { sharedCli, workspace } from './helpers';
import { S0_CONFIG, S0_LEDGER, sessionStart } from './checkpoint-fixtures';

const isRoot = process.getuid?.() === 0;
const runnable = process.platform === 'win32' ? null : sharedCli();
const skip =
  process.platform === 'win32' ? 'POSIX permissions' : runnable && 'reason' in runnable ? runnable.reason : false;

function asUser(
  args: string[],
  o: { input?: string; env?: NodeJS.ProcessEnv } = {},
): { code: number; stdout: string; stderr: string } {
  const cli = (runnable as { cli: string }).cli;
  // cwd '/': the test's own working directory (the clone) may be closed to that user.
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: '/',
    ...o,
    ...(isRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A temp workspace every user can enter (mkdtemp makes it 0700). */
function openWorkspace(files: Record<string, string>): string {
  const dir = workspace(files);
  chmodSync(dir, 0o755);
  return dir;
}

test(
  'an unreadable state file is its system, damaged: a blocking "permission denied" finding with its path',
  { skip },
  () => {
    const dir = openWorkspace({
      'docs/state/STATE.md': '# STATE\n\n## Handoff\n- Now ▶ ship it\n',
      '.agents/STATE.md': '# Agent State\n',
    });
    for (const d of ['docs', 'docs/state', '.agents']) chmodSync(path.join(dir, d), 0o755);
    chmodSync(path.join(dir, 'docs/state/STATE.md'), 0o000);
    chmodSync(path.join(dir, '.agents/STATE.md'), 0o000);
    const r = asUser(['status', '--json', '--root', dir]);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    for (const [id, rel] of [
      ['S3', 'docs/state/STATE.md'],
      ['S4', '.agents/STATE.md'],
    ]) {
      const s = j.systems.find((x: { id: string }) => x.id === id);
      assert.ok(s, `${id} detected`);
      assert.equal(s.label, 'BROKEN');
      const c = s.checks.find((x: { id: string }) => x.id === 'readable');
      assert.equal(c?.status, 'fail');
      assert.equal(c?.path, rel);
      assert.match(c?.message ?? '', /permission denied/);
    }
    assert.equal(asUser(['check', '--root', dir]).code, 1);
  },
);

test('an unreadable folder on the way to a state file: the system is reported, damaged, not missing', { skip }, () => {
  const dir = openWorkspace({
    'memory/session-handoff-LATEST.md': '# Handoff\n## What to do now\n1. Write the migration\n',
  });
  chmodSync(path.join(dir, 'memory'), 0o000);
  const r = asUser(['status', '--json', '--root', dir]);
  chmodSync(path.join(dir, 'memory'), 0o755);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const s1 = JSON.parse(r.stdout).systems.find((x: { id: string }) => x.id === 'S1');
  assert.ok(s1, 'S1 reported');
  assert.equal(s1.label, 'BROKEN');
  const c = s1.checks.find((x: { id: string }) => x.id === 'readable');
  assert.equal(c?.path, 'memory/session-handoff-LATEST.md');
  assert.match(c?.message ?? '', /permission denied/);
});

test('an unreadable root is a usage error: exit 2 with one line', { skip }, () => {
  const dir = openWorkspace({});
  chmodSync(dir, 0o000);
  const r = asUser(['check', '--root', dir]);
  chmodSync(dir, 0o755);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /cannot read root .*EACCES/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});

test(
  "S0's .agents.yml that may not be read, its ledger at the default path: SessionStart after /clear reads the ledger and says .agents.yml cannot be read (permission denied) and what to do, as check does",
  { skip },
  () => {
    const dir = openWorkspace({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER });
    chmodSync(path.join(dir, '.agents'), 0o755);
    chmodSync(path.join(dir, '.agents/session_ledger.md'), 0o644);
    chmodSync(path.join(dir, '.agents.yml'), 0o000);
    const check = asUser(['check', '--root', dir]);
    assert.match(
      check.stdout,
      /FAIL readable +Cannot read the document: permission denied: the file cannot be read\. {2}\(\.agents\.yml\)\n {10}fix: Fix the file permissions so your user can read it\.\n/,
    );
    const r = asUser(['hook', 'session-start'], {
      input: sessionStart(dir, 'clear'),
      env: { PATH: process.env.PATH, HOME: '/', CLAUDE_PROJECT_DIR: dir },
    });
    assert.equal(r.code, 0, r.stderr);
    const ctx = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(ctx, /^1\. Read \.agents\/session_ledger\.md \(S0 /m, ctx);
    assert.match(
      ctx,
      /^ {3}\.agents\.yml cannot be read, so whether S0 keeps its state here \(the default place\) is not known: Cannot read the document: permission denied: the file cannot be read\. \(\.agents\.yml\)\n {3}Fix the file permissions so your user can read it\. Tell the user \(`node \S+\/cli\.js check` shows it\)\.$/m,
      ctx,
    );
  },
);
