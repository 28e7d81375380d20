/**
 * The commands check, status, checkpoint and the SessionStart hook print name the program as it was run:
 * the installed hook script (`node .claude/hooks/session-ledger.cjs`, where no `session-ledger` is on
 * PATH) when run through it, `session-ledger` when run as the npm package's command. Each command is
 * taken from the output as printed and run with `sh` in the project, as a user copies it: real
 * processes, real files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { cli, CLI, gitInit, HOOK_SCRIPT, workspace } from './helpers';
import {
  age,
  CONFIRMED,
  emptyClaudeHome,
  markers,
  s3Workspace,
  SID,
  OTHER_SID,
  sessionStart,
  transcript,
} from './checkpoint-fixtures';

const SCRIPT = 'node .claude/hooks/session-ledger.cjs';

/** `command` in a POSIX shell in `cwd`, as a user or Claude Code runs it there (no `session-ledger` on PATH). */
function sh(command: string, cwd: string, o: { input?: string; home?: string; dir?: string } = {}) {
  const r = spawnSync('sh', ['-c', command], {
    cwd,
    input: o.input ?? '',
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: workspace({}, 'sl-home-'),
      CLAUDE_CONFIG_DIR: o.home ?? emptyClaudeHome(),
      CLAUDE_PROJECT_DIR: o.dir ?? cwd,
    },
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, all: r.stdout + r.stderr };
}

/** `dir` with the guard hooks installed (the hook script in .claude/hooks/). */
function installed(dir: string): string {
  const r = cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  return dir;
}

/** The command printed on the lines after the first line `at` matches: one shell command, its lines joined by ` \`. */
function commandAfter(text: string, at: (line: string) => boolean, narrow = true): string {
  const lines = text.split('\n');
  const i = lines.findIndex(at);
  assert.ok(i >= 0, text);
  const out = [lines[i + 1]];
  while (out.at(-1)!.endsWith(' \\')) out.push(lines[i + out.length + 1]);
  if (narrow) for (const l of out) assert.ok(l.length <= 80, `not wrapped at 80 columns: ${JSON.stringify(l)}`);
  return out.join('\n').trim();
}

/** The code span of `text` that holds `word`. */
function span(text: string, word: string): string {
  const m = [...text.matchAll(/`([^`]+)`/g)].find((x) => x[1].includes(word));
  assert.ok(m, `a \`…${word}…\` in:\n${text}`);
  return m[1];
}

const HANDOFF = '# Session Handoff\n\n## What to do now (priority order)\n1. trim MEMORY.md\n';

test('check and status run through the hook script name it in their fix hints: the `attest` they print runs as printed and writes the sidecar; the npm command says session-ledger', () => {
  for (const command of ['check', 'status']) {
    const dir = installed(workspace({ 'memory/session-handoff-LATEST.md': HANDOFF }));
    gitInit(dir);
    const r = sh(`${SCRIPT} ${command}`, dir);
    const attest = span(r.stdout, ' attest');
    assert.equal(attest, `${SCRIPT} attest`, r.stdout);
    const run = sh(attest, dir);
    assert.equal(run.code, 0, `${attest}:\n${run.all}`);
    assert.ok(existsSync(path.join(dir, 'memory/.session-handoff.sha256')), run.all);
  }
  // The npm package's command names itself.
  const dir = installed(workspace({ 'memory/session-handoff-LATEST.md': HANDOFF }));
  const npm = spawnSync(process.execPath, [CLI, 'check'], { cwd: dir, encoding: 'utf8' });
  assert.equal(span(npm.stdout, ' attest'), 'session-ledger attest', npm.stdout);
});

test('with no state file, check run through the hook script names it in "Start one with": its `init` runs as printed', () => {
  const dir = installed(workspace({}));
  const r = sh(`${SCRIPT} check`, dir);
  const init = span(r.stdout, ' init');
  assert.equal(init, `${SCRIPT} init S0`, r.stdout);
  const run = sh(`${SCRIPT} init S3`, dir);
  assert.equal(run.code, 0, run.all);
  assert.equal(sh(init, dir).code, 0, `${init} runs as printed`);
});

test('a checkpoint refused on open manual items ends with the whole command, program and --root as given and --confirm: run as printed, it writes the marker', () => {
  // In the project, through the hook script.
  const dir = installed(s3Workspace());
  const refused = sh(`${SCRIPT} checkpoint`, dir);
  assert.equal(refused.code, 1, refused.all);
  const next = commandAfter(refused.stderr, (l) => l.startsWith('When they are true, confirm them'));
  assert.match(next, new RegExp(`^${SCRIPT} \\\\\n`), next);
  assert.match(next, new RegExp(`--confirm ${CONFIRMED.join(',')}$`), next);
  const run = sh(next, dir);
  assert.equal(run.code, 0, `${next}\n${run.all}`);
  assert.deepEqual(markers(dir), ['.checkpoint-ready']);

  // From another folder, with --root: the script by its absolute path, the same --root.
  const other = installed(s3Workspace());
  const away = workspace({}, 'sl-away-');
  const script = `node ${path.join(other, '.claude/hooks/session-ledger.cjs')}`;
  const again = sh(`${script} checkpoint --root ${other}`, away, { dir: other });
  assert.equal(again.code, 1, again.all);
  // (Its lines as long as the absolute paths they name.)
  const cmd = commandAfter(again.stderr, (l) => l.startsWith('When they are true, confirm them'), false);
  assert.ok(cmd.startsWith(`${script} \\\n`) && cmd.includes(`--root ${other}`), cmd);
  assert.equal(sh(cmd, away, { dir: other }).code, 0, cmd);
  assert.deepEqual(markers(other), ['.checkpoint-ready']);
});

test('a checkpoint refused because several sessions wrote lists under each session the command that writes its marker: run as printed, it does', () => {
  const dir = installed(s3Workspace());
  const home = emptyClaudeHome();
  age(transcript(home, dir, SID), 60_000);
  transcript(home, dir, OTHER_SID);
  const refused = sh(`${SCRIPT} checkpoint`, dir, { home });
  assert.equal(refused.code, 1, refused.all);
  assert.match(refused.stderr, /Name it with --session ID:/);
  for (const sid of [SID, OTHER_SID]) {
    const next = commandAfter(refused.stderr, (l) => l.startsWith(`  ${sid}  `));
    assert.ok(next.startsWith(`${SCRIPT} \\\n`) && next.includes(`--session ${sid}`), next);
    assert.ok(next.includes(`--confirm ${CONFIRMED.join(',')}`), next);
  }
  const next = commandAfter(refused.stderr, (l) => l.startsWith(`  ${SID}  `));
  const run = sh(next, dir, { home });
  assert.equal(run.code, 0, `${next}\n${run.all}`);
  assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`]);
});

test("the resume block's marker line names the manual items the checkpoint asks the user to confirm: its command with that --confirm, run as printed, writes the marker", () => {
  const dir = installed(s3Workspace());
  const hook = sh('node "$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger.cjs" hook session-start', dir, {
    input: sessionStart(dir, 'clear'),
  });
  assert.equal(hook.code, 0, hook.all);
  const ctx = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
  const line = ctx.split('\n').find((l) => l.startsWith('Checkpoint marker for this session:')) ?? '';
  assert.match(line, /writes it once the user has confirmed its manual items \(`--confirm [^`]+`\)/, ctx);
  const command = span(line, ' checkpoint --session');
  assert.equal(command, `${SCRIPT} checkpoint --session ${SID}`);
  // The command alone refuses while the items are open; with the --confirm the line names, it writes the marker.
  assert.equal(sh(command, dir).code, 1);
  const confirm = span(line, '--confirm');
  assert.equal(confirm, `--confirm ${CONFIRMED.join(',')}`);
  const run = sh(`${command} ${confirm}`, dir);
  assert.equal(run.code, 0, run.all);
  assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`]);
});
