/**
 * A user inside a subfolder of the project: Claude Code's shell after a `cd src` (where it runs the hooks
 * too, and where `!` commands run), or a terminal opened there. The commands the guard's block names run as
 * written from that folder and act on the project the guard reads; the CLI run there without --root acts on
 * the project whose guard hooks are installed above it, not on the subfolder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli, escapeRegExp, HOOK_SCRIPT, workspace, write } from './helpers';
import {
  blockCommand,
  CONFIRM_ALL,
  emptyClaudeHome,
  preCompact,
  S3_STATE,
  projectShell as sh,
  s3Workspace,
  SID,
} from './checkpoint-fixtures';

/** An S3 project with the guard hooks installed, and a subfolder `src/deep`. */
function project(): { dir: string; sub: string; command: string } {
  const dir = s3Workspace();
  const r = cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  const sub = path.join(dir, 'src', 'deep');
  mkdirSync(sub, { recursive: true });
  const settings = JSON.parse(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')) as {
    hooks: { PreCompact: Array<{ hooks: Array<{ command: string }> }> };
  };
  return { dir, sub, command: settings.hooks.PreCompact[0].hooks[0].command };
}

test("the guard's block, met in a subfolder: its checkpoint command run as written there writes the project's marker, and /compact goes through", () => {
  const { dir, sub, command } = project();
  const blocked = sh(command, sub, dir, preCompact(sub));
  assert.equal(blocked.code, 2, blocked.stderr);
  const step = blockCommand(blocked.stderr, '3. Run:');
  assert.match(step, /^ *checkpoint --session /m, blocked.stderr);
  const r = sh(step, sub, dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`)), 'the marker the guard reads');
  assert.ok(!existsSync(path.join(sub, '.claude')), 'nothing written in the subfolder');
  assert.equal(sh(command, sub, dir, preCompact(sub)).code, 0);
});

test("the guard's nothing-to-preserve command, run as written in the subfolder, writes the project's marker", () => {
  const { dir, sub, command } = project();
  const blocked = sh(command, sub, dir, preCompact(sub));
  const step = blockCommand(blocked.stderr, 'Nothing worth preserving? Run:');
  assert.match(step, /--nothing-to-preserve/, blocked.stderr);
  const r = sh(step, sub, dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(!existsSync(path.join(sub, '.claude')), 'nothing written in the subfolder');
  assert.equal(sh(command, sub, dir, preCompact(sub)).code, 0, 'the guard lets /compact through, as it said');
});

test('the CLI in a subfolder of a project whose hooks are installed, without --root: status, check and checkpoint act on the project', () => {
  const { dir, sub } = project();
  const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome(), CLAUDE_PROJECT_DIR: '' };
  const status = cli(['status'], { cwd: sub, env });
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, new RegExp(`^Session Ledger — ${escapeRegExp(dir)}\\n`));
  assert.match(status.stdout, /S3 Groundwork/);
  assert.doesNotMatch(status.stdout, /No state files detected/);
  assert.equal(cli(['check'], { cwd: sub, env }).code, 0);
  const cp = cli(['checkpoint', '--session', SID, ...CONFIRM_ALL], { cwd: sub, env });
  assert.equal(cp.code, 0, cp.stdout + cp.stderr);
  assert.ok(existsSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`)));
  assert.ok(!existsSync(path.join(sub, '.claude')), 'nothing written in the subfolder');
  // The guard's "switch S0 on" step names enable-ledger: it too acts on the project.
  const en = cli(['enable-ledger', '--dry-run'], { cwd: sub, env });
  assert.match(en.stderr, new RegExp(`^Project: ${escapeRegExp(dir)} `, 'm'), en.stderr);
  assert.ok(!existsSync(path.join(sub, '.agents.yml')));
});

test('the CLI stays in its folder when that folder holds a state file of its own, a Claude Code session was started there, or no project with installed hooks is above it', () => {
  const { dir } = project();
  // A package with a STATE.md of its own inside the project: that package.
  const pkg = path.join(dir, 'packages', 'api');
  write(pkg, 'docs/state/STATE.md', S3_STATE);
  const own = cli(['status'], { cwd: pkg });
  assert.match(own.stdout, new RegExp(`^Session Ledger — ${escapeRegExp(pkg)}\\n`));
  // A subfolder where a Claude Code session was started (it reads that folder's settings and markers): that folder.
  const started = path.join(dir, 'tools');
  mkdirSync(started);
  const home = emptyClaudeHome();
  mkdirSync(path.join(home, 'projects', started.replace(/[^a-zA-Z0-9]/g, '-')), { recursive: true });
  const s = cli(['status'], { cwd: started, env: { CLAUDE_CONFIG_DIR: home } });
  assert.match(s.stdout, /No state files detected/);
  // It says so, and names the project above whose hooks are installed, with the option that acts on it.
  assert.equal(
    s.stderr.trim(),
    `Project: ${started} (a Claude Code session was started in this folder, so it is a project of its own). The guard hooks are installed in ${dir}, above it: --root ${dir} names that project.`,
  );
  const named = /--root (\S+) names that project\.$/.exec(s.stderr.trim())?.[1] ?? '';
  const there = cli(['checkpoint', '--session', SID, ...CONFIRM_ALL, '--root', named], {
    cwd: started,
    env: { CLAUDE_CONFIG_DIR: home },
  });
  assert.equal(there.code, 0, there.stdout + there.stderr);
  assert.ok(existsSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`)), 'the marker of the project named');
  // A subfolder of a folder without our hooks: the folder itself, as before.
  const plain = workspace({ 'docs/state/STATE.md': S3_STATE });
  mkdirSync(path.join(plain, 'src'));
  const r = cli(['status'], { cwd: path.join(plain, 'src') });
  assert.match(r.stdout, /No state files detected/);
  // A folder where a session was started, with no installed hooks above it: nothing to point to.
  mkdirSync(path.join(home, 'projects', path.join(plain, 'src').replace(/[^a-zA-Z0-9]/g, '-')));
  assert.equal(cli(['status'], { cwd: path.join(plain, 'src'), env: { CLAUDE_CONFIG_DIR: home } }).stderr, '');
});
