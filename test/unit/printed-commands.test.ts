/**
 * The commands check, status, checkpoint, the guard and the SessionStart hook print name the program as it
 * was run: the installed hook script when run through it (where no `session-ledger` is on PATH), by a path
 * that runs from any folder (`node ~/proj/.claude/hooks/session-ledger.cjs` in the home folder, else the
 * absolute path), `session-ledger` when run as the npm package's command. Each command is taken from the
 * output as printed and run with `sh` in a subfolder of the project, as a user whose shell moved there
 * copies it: real processes, real files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { anywhereWord } from '../../src/core/files/shell';
import { cliCommand } from '../../src/core/hooks/guard';
import { cli, CLI, gitInit, HOOK_SCRIPT, workspace } from './helpers';
import {
  age,
  CONFIRMED,
  emptyClaudeHome,
  markers,
  s3Workspace,
  SID,
  OTHER_SID,
  preCompact,
  scriptProgram,
  sessionStart,
  shownProgram,
  transcript,
} from './checkpoint-fixtures';

/** The hook script run by its path in the project, as a user types it there. */
const SCRIPT = 'node .claude/hooks/session-ledger.cjs';
/** The name `inHome` gives a project: one a shell must quote. */
const NAME = "it's mine";
/** The hook script of a project `inHome` made, as the commands it prints name it: from the home folder, quoted. */
const PROGRAM = `node ~/'it'\\''s mine/.claude/hooks/session-ledger.cjs'`;

/**
 * `dir` moved into a home folder of its own under NAME, as a user keeps a project, with a subfolder
 * (`sub`, made when missing) where the user's shell may be.
 */
function inHome(dir: string, subfolder = 'docs'): { dir: string; home: string; sub: string } {
  const home = workspace({}, 'sl-home-');
  const to = path.join(home, NAME);
  renameSync(dir, to);
  const sub = path.join(to, subfolder);
  mkdirSync(sub, { recursive: true });
  return { dir: to, home, sub };
}

/** `command` in a POSIX shell in `cwd`, as a user or Claude Code runs it there (no `session-ledger` on PATH). */
function sh(command: string, cwd: string, o: { input?: string; home?: string; dir?: string; userHome?: string } = {}) {
  const r = spawnSync('sh', ['-c', command], {
    cwd,
    input: o.input ?? '',
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: o.userHome ?? workspace({}, 'sl-home-'),
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

test('check and status run through the hook script name it in their fix hints: the `attest` they print runs as printed from a subfolder and writes the sidecar; the npm command says session-ledger', () => {
  for (const command of ['check', 'status']) {
    const { dir, home, sub } = inHome(installed(workspace({ 'memory/session-handoff-LATEST.md': HANDOFF })), 'memory');
    gitInit(dir);
    const r = sh(`${SCRIPT} ${command}`, dir, { userHome: home });
    const attest = span(r.stdout, ' attest');
    assert.equal(attest, `${PROGRAM} attest`, r.stdout);
    // Run from a subfolder the same: the same command.
    assert.equal(
      span(sh(`node ../.claude/hooks/session-ledger.cjs ${command}`, sub, { userHome: home }).stdout, ' attest'),
      attest,
    );
    const run = sh(attest, sub, { userHome: home });
    assert.equal(run.code, 0, `${attest}:\n${run.all}`);
    assert.ok(existsSync(path.join(dir, 'memory/.session-handoff.sha256')), run.all);
  }
  // The npm package's command names itself where PATH finds it (a global install's link to dist/cli.js).
  const dir = installed(workspace({ 'memory/session-handoff-LATEST.md': HANDOFF }));
  const bin = workspace({}, 'sl-bin-');
  symlinkSync(CLI, path.join(bin, 'session-ledger'));
  const PATH = `${bin}${path.delimiter}${process.env.PATH}`;
  const npm = spawnSync(process.execPath, [CLI, 'check'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH },
  });
  assert.equal(span(npm.stdout, ' attest'), 'session-ledger attest', npm.stdout);
});

test('check, status and checkpoint run as `node <clone>/dist/cli.js` (no global install) name it so: the `checkpoint --confirm` and `hooks install` they print run as printed', () => {
  const program = `node ${anywhereWord(CLI, process.env.HOME)}`;
  for (const command of ['check', 'status', 'checkpoint']) {
    const dir = s3Workspace();
    // No `session-ledger` on this PATH: only node's folder.
    const env = { PATH: path.dirname(process.execPath), HOME: process.env.HOME, CLAUDE_CONFIG_DIR: emptyClaudeHome() };
    const r = spawnSync(process.execPath, [CLI, command], { cwd: dir, encoding: 'utf8', env });
    const out = r.stdout + r.stderr;
    assert.doesNotMatch(out, /session-ledger (\\|hooks install)/, out);
    const confirm = commandAfter(out, (l) => l.startsWith('When they are true, confirm them with:'), false);
    assert.ok(confirm.startsWith(`${program} \\`), confirm);
    if (command !== 'checkpoint') {
      assert.ok(out.includes(`(run ${program} hooks install)`), out);
      continue;
    }
    const run = spawnSync('sh', ['-c', confirm], { cwd: dir, encoding: 'utf8', env });
    assert.equal(run.status, 0, `${confirm}:\n${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /Marker written/, run.stdout);
  }
});

test('with no state file, check run through the hook script names it in "Start one with": its `init`, run as printed from a subfolder, writes the starter in the project', () => {
  const { dir, home, sub } = inHome(installed(workspace({})));
  const r = sh(`${SCRIPT} check`, dir, { userHome: home });
  const init = span(r.stdout, ' init');
  assert.equal(init, `${PROGRAM} init S0`, r.stdout);
  const run = sh(`${PROGRAM} init S3`, dir, { userHome: home });
  assert.equal(run.code, 0, run.all);
  assert.ok(existsSync(path.join(dir, 'docs/state/STATE.md')), run.all);
  // From a subfolder: the project's starter, said on stderr, nothing in the subfolder.
  const there = sh(init, sub, { userHome: home });
  assert.equal(there.code, 0, `${init} runs as printed:\n${there.all}`);
  assert.match(there.stderr, /^Project: .*its guard hooks are installed there; this folder is inside it/, there.all);
  assert.ok(existsSync(path.join(dir, '.agents/session_ledger.md')), there.all);
  assert.equal(existsSync(path.join(sub, '.agents')), false, there.all);
  // What it names next, and what a second one that refuses names, run as printed there too.
  const check = span(there.stdout, ' check');
  assert.equal(check, `${PROGRAM} check`, there.stdout);
  assert.match(sh(check, sub, { userHome: home }).stdout, /^S0 majestic ledger — /m);
  const again = sh(init, sub, { userHome: home });
  assert.equal(again.code, 1, again.all);
  const status = span(again.stderr, ' status');
  assert.equal(status, `${PROGRAM} status`, again.stderr);
  assert.match(sh(status, sub, { userHome: home }).stdout, /^Session Ledger — /, status);
  // The npm package's command, and --root, set up the folder they are given, as before.
  const npm = spawnSync(process.execPath, [CLI, 'init', 'S3'], { cwd: sub, encoding: 'utf8' });
  assert.equal(npm.status, 0, npm.stderr);
  assert.ok(existsSync(path.join(sub, 'docs/state/STATE.md')), npm.stdout);
});

test('a checkpoint refused on open manual items ends with the whole command, program and --root as given and --confirm: run as printed, it writes the marker', () => {
  // In the project, through the hook script; pasted in a subfolder.
  const { dir, home, sub } = inHome(installed(s3Workspace()));
  const refused = sh(`${SCRIPT} checkpoint`, dir, { userHome: home });
  assert.equal(refused.code, 1, refused.all);
  const next = commandAfter(refused.stderr, (l) => l.startsWith('When they are true, confirm them'));
  assert.ok(next.startsWith(`${PROGRAM} \\\n`), next);
  assert.match(next, new RegExp(`--confirm ${CONFIRMED.join(',')}$`), next);
  const run = sh(next, sub, { userHome: home });
  assert.equal(run.code, 0, `${next}\n${run.all}`);
  assert.deepEqual(markers(dir), ['.checkpoint-ready']);

  // From another folder, with --root: the script named so that it runs from anywhere, the same --root.
  const other = installed(s3Workspace());
  const away = workspace({}, 'sl-away-');
  const script = `node ${path.join(other, '.claude/hooks/session-ledger.cjs')}`;
  const again = sh(`${script} checkpoint --root ${other}`, away, { dir: other });
  assert.equal(again.code, 1, again.all);
  // (Its lines as long as the absolute paths they name.)
  const cmd = commandAfter(again.stderr, (l) => l.startsWith('When they are true, confirm them'), false);
  assert.ok(cmd.startsWith(`${shownProgram(scriptProgram(other))} \\\n`) && cmd.includes(`--root ${other}`), cmd);
  assert.equal(sh(cmd, away, { dir: other }).code, 0, cmd);
  assert.deepEqual(markers(other), ['.checkpoint-ready']);
});

test('a checkpoint refused because several sessions wrote lists under each session the command that writes its marker: run as printed, it does', () => {
  const { dir, home: userHome, sub } = inHome(installed(s3Workspace()));
  const home = emptyClaudeHome();
  age(transcript(home, dir, SID), 60_000);
  transcript(home, dir, OTHER_SID);
  const refused = sh(`${SCRIPT} checkpoint`, dir, { home, userHome });
  assert.equal(refused.code, 1, refused.all);
  assert.match(refused.stderr, /Name it with --session ID:/);
  for (const sid of [SID, OTHER_SID]) {
    const next = commandAfter(refused.stderr, (l) => l.startsWith(`  ${sid}  `));
    assert.ok(next.startsWith(`${PROGRAM} \\\n`) && next.includes(`--session ${sid}`), next);
    assert.ok(next.includes(`--confirm ${CONFIRMED.join(',')}`), next);
  }
  const next = commandAfter(refused.stderr, (l) => l.startsWith(`  ${SID}  `));
  const run = sh(next, sub, { home, userHome, dir });
  assert.equal(run.code, 0, `${next}\n${run.all}`);
  assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`]);
});

test("the resume block's marker line names the manual items the checkpoint asks the user to confirm: its command with that --confirm, run as printed, writes the marker", () => {
  const { dir, home, sub } = inHome(installed(s3Workspace()));
  const hook = sh('node "$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger.cjs" hook session-start', dir, {
    input: sessionStart(dir, 'clear'),
    userHome: home,
  });
  assert.equal(hook.code, 0, hook.all);
  const ctx = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
  const line = ctx.split('\n').find((l) => l.startsWith('Checkpoint marker for this session:')) ?? '';
  assert.match(line, /writes it once the user has confirmed its manual items \(`--confirm [^`]+`\)/, ctx);
  const command = span(line, ' checkpoint --session');
  assert.equal(command, `${PROGRAM} checkpoint --session ${SID}`);
  // The command alone refuses while the items are open; with the --confirm the line names, it writes the
  // marker, from a subfolder too.
  assert.equal(sh(command, sub, { userHome: home, dir }).code, 1);
  const confirm = span(line, '--confirm');
  assert.equal(confirm, `--confirm ${CONFIRMED.join(',')}`);
  const run = sh(`${command} ${confirm}`, sub, { userHome: home, dir });
  assert.equal(run.code, 0, run.all);
  assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`]);
});

/** The hook command `hooks install` wrote for `event` into `.claude/settings.json`. */
function hookCommand(dir: string, event: 'PreCompact' | 'SessionStart'): string {
  const v = JSON.parse(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
  };
  return v.hooks[event][0].hooks[0].command;
}

test("the guard's block, its hook run from the project's folder as Claude Code runs it, names commands that run as printed from a subfolder: the checkpoint, nothing-to-preserve and the marker written by hand", () => {
  const guard = (dir: string, userHome: string) =>
    sh(hookCommand(dir, 'PreCompact'), dir, { input: preCompact(dir), userHome });
  const block = (dir: string, userHome: string): string => {
    const r = guard(dir, userHome);
    assert.equal(r.code, 2, r.all);
    return r.stderr;
  };
  // In the home folder, under a name a shell must quote: the script by its path from there.
  const { dir, home, sub } = inHome(installed(s3Workspace()));
  const said = block(dir, home);
  const next = commandAfter(said, (l) => l === '3. Run:');
  assert.equal(next, `${PROGRAM} \\\n     checkpoint --session ${SID} \\\n     --confirm ${CONFIRMED.join(',')}`, said);
  const nothing = commandAfter(said, (l) => l === 'Nothing worth preserving? Run:');
  assert.ok(nothing.startsWith(`${PROGRAM} \\\n     checkpoint --nothing-to-preserve`), said);
  const byHand = commandAfter(said, (l) => l === 'Or write the marker by hand:', false);
  for (const command of [nothing, byHand]) {
    const run = sh(command, sub, { userHome: home, dir });
    assert.equal(run.code, 0, `${command}\n${run.all}`);
    assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`], command);
    assert.equal(existsSync(path.join(sub, '.claude')), false, command);
    assert.equal(guard(dir, home).code, 0, 'the guard lets /compact through');
    sh(`rm ${path.join(dir, '.claude', `.checkpoint-ready.${SID}`)}`, dir);
  }
  const run = sh(next, sub, { userHome: home, dir });
  assert.equal(run.code, 0, `${next}\n${run.all}`);
  assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`]);

  // Outside the home folder, at a path too long for a line of 80 columns with the script's after it: the
  // command goes to the project's folder first, on a line of its own, and every line fits.
  const other = path.join(workspace({}, 'sl-far-'), 'a-long-project-x');
  renameSync(installed(s3Workspace()), other);
  const elsewhere = workspace({}, 'sl-home-');
  const far = commandAfter(block(other, elsewhere), (l) => l === '3. Run:');
  assert.ok(far.startsWith(`cd ${other} && \\\n     node .claude/hooks/session-ledger.cjs \\\n`), far);
  mkdirSync(path.join(other, 'src'));
  assert.equal(sh(far, path.join(other, 'src'), { userHome: elsewhere, dir: other }).code, 0, far);
  assert.deepEqual(markers(other), [`.checkpoint-ready.${SID}`]);
});

test('the hook script as the printed commands name it: from the home folder, by its absolute path, or from its folder when that path is too long for a line', () => {
  const script = '.claude/hooks/session-ledger.cjs';
  const named = (root: string, home: string, cwd = root) =>
    cliCommand(root, { script: path.join(root, script), cwd, env: { HOME: home } });
  assert.equal(named('/home/u/p', '/home/u'), `node ~/p/${script}`);
  assert.equal(named('/home/u/p', '/home/u', '/home/u/p/src'), `node ~/p/${script}`);
  assert.equal(named('/srv/p', '/home/u'), `node /srv/p/${script}`);
  assert.equal(named('/srv/a b', '/home/u'), `node '/srv/a b/${script}'`);
  // `node` and the path past 70 columns.
  const long = `/srv/${'x'.repeat(30)}`;
  assert.equal(named(long, '/home/u'), `cd ${long} && node ${script}`);
  assert.equal(named(`/home/u/${'x'.repeat(40)}`, '/home/u'), `cd ~/${'x'.repeat(40)} && node ${script}`);
  assert.equal(named(`/home/u/${'x'.repeat(28)}`, '/home/u'), `node ~/${'x'.repeat(28)}/${script}`);
  // Another script (the npm package's) by its path.
  assert.equal(
    cliCommand('/srv/p', { script: `${long}/dist/cli.js`, cwd: '/srv/p', env: {} }),
    `node ${long}/dist/cli.js`,
  );
});

test('a path as the printed commands name it: from the home folder when inside it, else whole; quoted as a shell needs', () => {
  assert.equal(anywhereWord('/home/u/p/x.cjs', '/home/u'), '~/p/x.cjs');
  assert.equal(anywhereWord('/home/u/p/x.cjs', '/home/u/'), '~/p/x.cjs');
  assert.equal(anywhereWord("/home/u/it's mine/x.cjs", '/home/u'), `~/'it'\\''s mine/x.cjs'`);
  // Not inside it (a folder whose name only starts the same, the home folder itself), no home, `/` or a relative one.
  assert.equal(anywhereWord('/home/uv/x.cjs', '/home/u'), '/home/uv/x.cjs');
  assert.equal(anywhereWord('/home/u', '/home/u'), '/home/u');
  assert.equal(anywhereWord('/srv/a b/x.cjs', undefined), "'/srv/a b/x.cjs'");
  assert.equal(anywhereWord('/srv/p/x.cjs', '/'), '/srv/p/x.cjs');
  assert.equal(anywhereWord('/srv/p/x.cjs', 'srv'), '/srv/p/x.cjs');
});

test('check and status name the session their checkpoint command is for, so it runs as printed once another session runs too; while several run, each session with its command, as the refusal gives them', () => {
  const { dir, home: userHome, sub } = inHome(installed(s3Workspace()));
  const home = emptyClaudeHome();
  transcript(home, dir, SID);
  const o = { home, userHome, dir };
  const after = (l: string) => l === 'When they are true, confirm them with:';
  for (const command of ['check', 'status']) {
    const said = sh(`${SCRIPT} ${command}`, dir, o).stdout;
    assert.equal(
      commandAfter(said, after),
      `${PROGRAM} \\\n     checkpoint \\\n     --session ${SID} \\\n     --confirm ${CONFIRMED.join(',')}`,
      said,
    );
  }
  // The same from a subfolder.
  const printed = commandAfter(sh('node ../.claude/hooks/session-ledger.cjs check', sub, o).stdout, after);
  // Another session starts (a /clear whose record names no session it replaced, a second agent): the command
  // as printed still writes the marker of the session it names.
  transcript(home, dir, OTHER_SID);
  const run = sh(printed, sub, o);
  assert.equal(run.code, 0, `${printed}\n${run.all}`);
  assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`]);

  // Now two run and none is meant: the --confirm, then each session with the command that writes its marker.
  const two = inHome(installed(s3Workspace()));
  const h2 = emptyClaudeHome();
  age(transcript(h2, two.dir, SID), 60_000);
  transcript(h2, two.dir, OTHER_SID);
  const o2 = { home: h2, userHome: two.home, dir: two.dir };
  const said = sh(`${SCRIPT} status`, two.dir, o2).stdout;
  assert.ok(
    said.includes(
      `\nWhen they are true, confirm them: --confirm ${CONFIRMED.join(',')} (the commands below give it).\n2 agent sessions of this folder wrote within the last 30 minutes; which one is this checkpoint for? Name it with --session ID:\n`,
    ),
    said,
  );
  for (const sid of [SID, OTHER_SID]) {
    const next = commandAfter(said, (l) => l.startsWith(`  ${sid}  `));
    assert.equal(
      next,
      `${PROGRAM} \\\n     checkpoint \\\n     --session ${sid} \\\n     --confirm ${CONFIRMED.join(',')}`,
    );
  }
  const next = commandAfter(said, (l) => l.startsWith(`  ${OTHER_SID}  `));
  assert.equal(sh(next, two.sub, o2).code, 0, next);
  assert.deepEqual(markers(two.dir), [`.checkpoint-ready.${OTHER_SID}`]);
});
