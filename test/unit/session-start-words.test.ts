/**
 * What the SessionStart hook tells the new context names only what is there: the marker is said
 * written only when its file stands at its path, and the CLI is named as the hook's own command ran
 * it (`node /…/dist/cli.js`, `node ~/proj/.claude/hooks/session-ledger.cjs`), a command that runs as written
 * from any folder, not `session-ledger`, which is on PATH only after a global install.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CLI } from './helpers';
import {
  CONFIRM_ALL,
  encoded,
  OTHER_SID,
  preCompact,
  run,
  s3Workspace,
  sessionStart,
  SID,
} from './checkpoint-fixtures';
import { preCompactGuard } from '../../src/core/hooks/guard';

/** A PATH with node and the system's programs on it. */
const NODE_PATH_ONLY = `${path.dirname(process.execPath)}:/usr/bin:/bin`;

/** The hook as a process of its own, the way a hook command runs it, with no `session-ledger` on PATH. */
function hookProcess(script: string, dir: string, input: string): string {
  const r = spawnSync(process.execPath, [script, 'hook', 'session-start'], {
    cwd: dir,
    input,
    encoding: 'utf8',
    env: { PATH: NODE_PATH_ONLY, HOME: dir, CLAUDE_CONFIG_DIR: path.join(dir, 'no-claude'), CLAUDE_PROJECT_DIR: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

/** The command the context names for the checks (`Checks of these files: \`<cli> status\``). */
function statusCommand(ctx: string): string {
  const m = /^Checks of these files: `(.+) status` /m.exec(ctx);
  assert.ok(m, ctx);
  return m[1];
}

test('run from dist/cli.js, the hook names the CLI by that script, and the command it names runs as written there', () => {
  const dir = s3Workspace();
  const ctx = hookProcess(CLI, dir, sessionStart(dir, 'clear'));
  const cli = statusCommand(ctx);
  assert.equal(cli, `node ${CLI}`);
  assert.doesNotMatch(ctx, /`session-ledger /, ctx);
  assert.match(
    ctx,
    new RegExp(
      `\\(not written yet: \`node ${CLI.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} checkpoint --session ${SID}\` writes it once the user has confirmed its manual items \\(\`--confirm feedback-stored,last-request\`\\);`,
    ),
  );
  // As written, in the folder the hook ran in, with the hook's PATH: it runs (no "command not found").
  const r = spawnSync('/bin/sh', ['-c', `${cli} status`], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: NODE_PATH_ONLY, HOME: dir },
  });
  assert.match(r.stdout, /^Session Ledger — /, r.stderr);
});

test('the marker is said written once its file is there, and not written before', () => {
  const dir = s3Workspace();
  const before = hookProcess(CLI, dir, sessionStart(dir, 'startup'));
  assert.match(
    before,
    new RegExp(`^Checkpoint marker for this session: \\.claude/\\.checkpoint-ready\\.${SID} \\(not written yet: `, 'm'),
  );
  const c = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(c.code, 0, c.stdout + c.stderr);
  const after = hookProcess(CLI, dir, sessionStart(dir, 'compact'));
  assert.match(
    after,
    new RegExp(`^Checkpoint marker for this session: \\.claude/\\.checkpoint-ready\\.${SID} \\(written; `, 'm'),
  );
  assert.doesNotMatch(after, /not written yet/);
});

test('the marker line never promises /compact: once a state file changed since the checkpoint and fails a blocking check, the guard blocks, and the line said it lets /compact through', async () => {
  const dir = s3Workspace();
  const c = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(c.code, 0, c.stdout + c.stderr);
  // The next action made a placeholder after the checkpoint: a blocking check fails.
  const file = path.join(dir, 'docs', 'state', 'STATE.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^- \*\*Now ▶\*\*.*$/m, '- **Now ▶** TBD'));
  const guard = await preCompactGuard(preCompact(dir, { sessionId: SID }), { root: dir, log: false });
  assert.equal(guard.allow, false, guard.log);
  const ctx = hookProcess(CLI, dir, sessionStart(dir, 'compact'));
  const line = /^Checkpoint marker for this session: .*$/m.exec(ctx)?.[0] ?? '';
  assert.match(line, /\(written; /, ctx);
  assert.doesNotMatch(line, /lets \/compact through on it/, line);
  assert.match(line, /checks what changed since/, line);
});

test('run from the installed hook script in the project folder, the hook names that script by a path that runs from any folder: here from the home folder, which the project is', () => {
  const dir = s3Workspace();
  const i = run([
    'hooks',
    'install',
    '--root',
    dir,
    '--cli-bundle',
    path.join(path.dirname(CLI), 'session-ledger.cjs'),
  ]);
  assert.equal(i.code, 0, i.stdout + i.stderr);
  const ctx = hookProcess(path.join(dir, '.claude/hooks/session-ledger.cjs'), dir, sessionStart(dir, 'clear'));
  const cli = statusCommand(ctx);
  assert.equal(cli, 'node ~/.claude/hooks/session-ledger.cjs');
  // As written, in a subfolder of the project, with the hook's PATH and home: it runs.
  const r = spawnSync('/bin/sh', ['-c', `${cli} status`], {
    cwd: path.join(dir, 'docs'),
    encoding: 'utf8',
    env: { PATH: NODE_PATH_ONLY, HOME: dir },
  });
  assert.match(r.stdout, /^Session Ledger — /, r.stderr);
});

test("after /clear, with the session it replaced still counted as running in the folder, the marker line's command, run as written (the manual items confirmed), writes this session's marker", () => {
  const dir = s3Workspace();
  // Claude Code's home: the cleared session's transcript and the new one's, both written just now.
  const home = path.join(dir, 'claude-home');
  const projects = path.join(home, 'projects', encoded(dir));
  mkdirSync(projects, { recursive: true });
  for (const sid of [OTHER_SID, SID])
    writeFileSync(
      path.join(projects, `${sid}.jsonl`),
      `${JSON.stringify({ type: 'user', sessionId: sid, cwd: dir })}\n`,
    );
  const env = { PATH: NODE_PATH_ONLY, HOME: dir, CLAUDE_CONFIG_DIR: home, CLAUDE_PROJECT_DIR: '' };
  const hook = spawnSync(process.execPath, [CLI, 'hook', 'session-start'], {
    cwd: dir,
    input: sessionStart(dir, 'clear'),
    encoding: 'utf8',
    env,
  });
  assert.equal(hook.status, 0, hook.stderr);
  const ctx = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
  const command =
    /\(not written yet: `([^`]+)` writes it once the user has confirmed its manual items/.exec(ctx)?.[1] ?? '';
  assert.match(command, / checkpoint( |$)/, ctx);
  const r = spawnSync('/bin/sh', ['-c', `${command} ${CONFIRM_ALL.join(' ')}`], { cwd: dir, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.ok(existsSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`)), "this session's marker");
});
