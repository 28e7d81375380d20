/**
 * `hooks install --codex`: Codex CLI's project hook file `.codex/hooks.json`, the script beside it,
 * the hook commands as Codex runs them (through a shell, in the session's folder, which may be a
 * subfolder), the block in Codex's wire, and an uninstall that gives back the exact bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  applyHooksPlan,
  CODEX_HOOKS_REL,
  CODEX_SCRIPT_REL,
  codexHookCommand,
  hookGroup,
  INSTALL_RECORD_REL,
  planHooksInstall,
  planHooksUninstall,
  SCRIPT_REL,
} from '../../src/core/hooks/install';
import { codexBlock } from '../../src/cli/commands/hook';
import { WriteRefused } from '../../src/core/files/atomic';
import { agentTrigger } from '../../src/core/hooks/guard';
import { SYSTEM_IDS } from '../../src/core/model/model';
import { FACTS } from '../../src/core/systems/facts';
import { said } from '../../src/extension/pure/checkpoint-text';
import { HOOK_SCRIPT, jaT, workspace } from './helpers';
import { CONFIRM_ALL, emptyClaudeHome, run, S3_STATE, scriptProgram, shownProgram } from './checkpoint-fixtures';

/** A Codex thread id as Codex 0.171.0 writes it. */
const CODEX_SID = '01a23c00-8b1f-7412-b10e-c12ea255a2b1';

/** Every file under `dir` with its bytes (folders too), for before/after comparisons. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = path.join(d, n);
      const rel = path.relative(dir, p);
      if (statSync(p).isDirectory()) {
        out[`${rel}/`] = '';
        walk(p);
      } else out[rel] = readFileSync(p, 'latin1');
    }
  };
  walk(dir);
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test walks parsed JSON
function hooksJson(dir: string): Record<string, any> {
  return JSON.parse(readFileSync(path.join(dir, CODEX_HOOKS_REL), 'utf8'));
}

/** The PreCompact payload exactly as Codex CLI 0.171.0 sends it (seen in the real client's hook input). */
function codexPreCompact(cwd: string, trigger = 'manual'): string {
  return JSON.stringify({
    session_id: CODEX_SID,
    turn_id: '01a23c00-8c16-7503-a0c2-5d68a9641469',
    transcript_path: `/home/u/.codex/sessions/2026/12/03/rollout-2026-12-03T13-03-18-${CODEX_SID}.jsonl`,
    cwd,
    hook_event_name: 'PreCompact',
    model: 'gpt-5.1',
    trigger,
  });
}

function codexSessionStart(cwd: string, source: string): string {
  return JSON.stringify({
    session_id: CODEX_SID,
    transcript_path: `/home/u/.codex/sessions/2026/12/03/rollout-2026-12-03T13-03-18-${CODEX_SID}.jsonl`,
    cwd,
    hook_event_name: 'SessionStart',
    model: 'gpt-5.1',
    permission_mode: 'default',
    source,
  });
}

test('install --codex writes .codex/hooks.json (the guard and the resume hook) and the script; nothing of Claude Code', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const r = run(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Wrote \.codex\/hooks\/session-ledger\.cjs/m);
  assert.match(
    r.stdout,
    /^Added hooks\.PreCompact \(matcher manual\) and hooks\.SessionStart \(matcher startup\|resume\|clear\|compact\) to \.codex\/hooks\.json\.$/m,
  );
  assert.match(r.stdout, /^Remove them with: session-ledger hooks uninstall --codex$/m);
  // What Codex needs before it runs them, once, last: the step the user takes next.
  const lines = r.stdout.trim().split('\n');
  assert.equal(
    lines[lines.length - 1],
    'Codex skips these hooks without a word until you trust them: start `codex` in this folder, choose "Trust and continue" for the folder, then "Trust all and continue" when it says "Hooks need review" (or review the two one by one; /hooks lists them any time).',
  );
  assert.equal(lines.filter((l) => /trust/i.test(l)).length, 1, r.stdout);
  assert.deepEqual(hooksJson(dir), {
    hooks: { PreCompact: [hookGroup('PreCompact', 'codex')], SessionStart: [hookGroup('SessionStart', 'codex')] },
  });
  assert.equal(hookGroup('PreCompact', 'codex').matcher, 'manual');
  assert.equal(hookGroup('SessionStart', 'codex').matcher, 'startup|resume|clear|compact');
  assert.equal(hookGroup('PreCompact', 'codex').hooks[0].timeout, 30);
  assert.ok(statSync(path.join(dir, CODEX_SCRIPT_REL)).mode & 0o100);
  assert.match(readFileSync(path.join(dir, CODEX_SCRIPT_REL), 'utf8'), /^#!\/usr\/bin\/env node/);
  assert.equal(existsSync(path.join(dir, '.claude/settings.json')), false);
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false);
  // Twice: nothing to do, and the trust note again.
  const again = run(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^Hooks already installed in \.codex\/hooks\.json; nothing to do\.$/m);
  assert.match(again.stdout, /Codex skips these hooks without a word until you trust them/);
});

test('uninstall --codex gives back the folder byte for byte (no .codex, no .claude, no .gitignore left behind)', () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const before = tree(dir);
  assert.equal(run(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  assert.notDeepEqual(tree(dir), before);
  const u = run(['hooks', 'uninstall', '--codex', '--root', dir]);
  assert.equal(u.code, 0, u.stderr);
  assert.match(
    u.stdout,
    /Removed the Session Ledger hooks from \.codex\/hooks\.json \(left empty: the file was removed\)/,
  );
  assert.deepEqual(tree(dir), before);
  const u2 = run(['hooks', 'uninstall', '--codex', '--root', dir]);
  assert.equal(u2.code, 0, u2.stderr);
  assert.match(u2.stdout, /^No Session Ledger hooks in \.codex\/hooks\.json; nothing to do\.$/m);
});

test("uninstall for the client that has none says where the other client's hooks are", () => {
  const dir = workspace({});
  assert.equal(run(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const claude = run(['hooks', 'uninstall', '--root', dir]);
  assert.equal(claude.code, 0, claude.stderr);
  assert.match(claude.stdout, /^No Session Ledger hooks in \.claude\/settings\.json; nothing to do\.$/m);
  assert.match(claude.stdout, /^The Codex CLI hooks are in \.codex\/hooks\.json: add --codex\.$/m);
  assert.ok(existsSync(path.join(dir, CODEX_HOOKS_REL)), 'nothing removed');
  assert.equal(run(['hooks', 'uninstall', '--codex', '--root', dir]).code, 0);
  assert.equal(run(['hooks', 'install', '--local', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const codex = run(['hooks', 'uninstall', '--codex', '--root', dir]);
  assert.match(
    codex.stdout,
    /^The Claude Code hooks are in \.claude\/settings\.local\.json: run it without --codex, with --local\.$/m,
  );
});

const USER_HOOKS = `{
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "./scripts/notify.sh", "timeout": 5 } ] }
    ],
    "PreCompact": [{"hooks": [{"type": "command", "command": "echo compacting >> .codex/log"}]}]
  }
}
`;

test("a hooks.json and config.toml of the user's: install adds its groups only, uninstall gives back the bytes", async () => {
  const dir = workspace({ '.codex/hooks.json': USER_HOOKS, '.codex/config.toml': 'model = "o3"\n' });
  const before = tree(dir);
  await applyHooksPlan(await planHooksInstall(dir, { codex: true, cliBundle: HOOK_SCRIPT }));
  const v = hooksJson(dir);
  assert.deepEqual(v.hooks.Stop, JSON.parse(USER_HOOKS).hooks.Stop);
  assert.deepEqual(v.hooks.PreCompact, [
    { hooks: [{ type: 'command', command: 'echo compacting >> .codex/log' }] },
    hookGroup('PreCompact', 'codex'),
  ]);
  assert.deepEqual(v.hooks.SessionStart, [hookGroup('SessionStart', 'codex')]);
  assert.equal(readFileSync(path.join(dir, '.codex/config.toml'), 'utf8'), 'model = "o3"\n');
  assert.equal((await planHooksInstall(dir, { codex: true, cliBundle: HOOK_SCRIPT })).changed, false);
  await applyHooksPlan(await planHooksUninstall(dir, { codex: true }));
  assert.deepEqual(tree(dir), before);
});

test('Claude Code and Codex side by side: each uninstall takes out only its own; the last one the shared lines', async () => {
  for (const order of [
    ['claude', 'codex'],
    ['codex', 'claude'],
  ] as const) {
    const dir = workspace({ 'docs/state/STATE.md': S3_STATE, '.gitignore': 'node_modules/\n' });
    const before = tree(dir);
    await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
    await applyHooksPlan(await planHooksInstall(dir, { codex: true, cliBundle: HOOK_SCRIPT }));
    assert.ok(existsSync(path.join(dir, SCRIPT_REL)) && existsSync(path.join(dir, CODEX_SCRIPT_REL)));
    // Each client's script is its own in the install record: installing either again is nothing to do, never "changed by someone".
    for (const codex of [false, true]) {
      const again = await planHooksInstall(dir, { codex, cliBundle: HOOK_SCRIPT });
      assert.equal(again.error, undefined, again.error);
      assert.equal(again.changed, false);
    }
    const [first, second] = order;
    await applyHooksPlan(await planHooksUninstall(dir, { codex: first === 'codex' }));
    // The other client's hooks, script and the .gitignore block stay.
    assert.equal(existsSync(path.join(dir, first === 'codex' ? CODEX_SCRIPT_REL : SCRIPT_REL)), false, order.join());
    assert.equal(existsSync(path.join(dir, second === 'codex' ? CODEX_SCRIPT_REL : SCRIPT_REL)), true, order.join());
    assert.match(readFileSync(path.join(dir, '.gitignore'), 'utf8'), /\.claude\/\.checkpoint-ready\*/);
    await applyHooksPlan(await planHooksUninstall(dir, { codex: second === 'codex' }));
    assert.deepEqual(tree(dir), before, order.join());
  }
});

test('--codex with a Claude-only option is a usage error; --dry-run writes nothing', () => {
  const dir = workspace({});
  for (const flag of ['--local', '--statusline', '--remind']) {
    const r = run(['hooks', 'install', '--codex', flag, '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
    assert.equal(r.code, 2, `${flag}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`${flag} is for Claude Code's settings`));
  }
  const d = run(['hooks', 'install', '--codex', '--dry-run', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(d.code, 0, d.stderr);
  assert.match(d.stdout, /^Would write \.codex\/hooks\/session-ledger\.cjs/m);
  assert.match(d.stdout, /^\+\+\+ .*\.codex\/hooks\.json$/m);
  assert.deepEqual(readdirSync(dir), []);
});

test("Codex's trust steps are said once, after the install, in English, Japanese and Korean: not in the dry run, where nothing is installed to trust yet; again on an install that finds them installed", () => {
  const steps = /Trust and continue/g;
  for (const LANG of ['C', 'ja_JP.UTF-8', 'ko_KR.UTF-8']) {
    const dir = workspace({});
    const env = { LC_ALL: '', LC_MESSAGES: '', LANG };
    const args = ['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT];
    const dry = run([...args, '--dry-run'], { env });
    assert.equal(dry.code, 0, dry.stderr);
    assert.doesNotMatch(dry.stdout, steps, `${LANG}: ${dry.stdout}`);
    for (const pass of ['installed', 'already installed']) {
      const r = run(args, { env });
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.trim().split('\n');
      assert.equal(r.stdout.match(steps)?.length, 1, `${LANG}, ${pass}: ${r.stdout}`);
      assert.match(lines[lines.length - 1], steps, `${LANG}, ${pass}: the last line`);
    }
  }
});

test('a .codex/hooks folder that links out of the project: install refuses and writes nothing', async () => {
  const outside = workspace({});
  const dir = workspace({});
  mkdirSync(path.join(dir, '.codex'));
  symlinkSync(outside, path.join(dir, '.codex', 'hooks'));
  const plan = await planHooksInstall(dir, { codex: true, cliBundle: HOOK_SCRIPT });
  assert.ok(plan.error, 'refused');
  const r = run(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 1, r.stdout);
  assert.deepEqual(readdirSync(outside), []);
  assert.equal(existsSync(path.join(dir, CODEX_HOOKS_REL)), false);
});

test("Codex's block is continue:false with the reason (the wire Codex 0.171.0 takes as a block)", () => {
  assert.deepEqual(JSON.parse(codexBlock('Compaction stopped: x')), {
    continue: false,
    stopReason: 'Compaction stopped: x',
  });
  // The command is plain sh and names the script by the project-relative path the install writes.
  assert.match(
    codexHookCommand('pre-compact'),
    /^sh -c '.*\.codex\/hooks\/session-ledger\.cjs" hook pre-compact --codex --root "\$\{r:-\/\}"'$/,
  );
});

/**
 * An S3 project (a git repository) with the Codex hooks installed, and the environment a hook runs in:
 * Codex sets no project variable (an enclosing Claude Code's must not be taken for it), and a home of its
 * own (the project is never the home folder, where the hook log is not written).
 */
function s3WithCodexHooks(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  assert.equal(run(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const env = {
    PATH: process.env.PATH,
    HOME: workspace({}),
    CLAUDE_CONFIG_DIR: emptyClaudeHome(),
    CODEX_HOME: path.join(dir, 'no-codex'),
    NODE_PATH: '',
  };
  return { dir, env };
}

test('the installed Codex hooks, run as Codex runs them (a shell, in a subfolder): blocked, allowed after checkpoint, auto passes, resume block', () => {
  const { dir, env } = s3WithCodexHooks();
  const sub = path.join(dir, 'src', 'deep');
  mkdirSync(sub, { recursive: true });
  const v = hooksJson(dir);
  const shell = (command: string, input: string) =>
    spawnSync('/bin/sh', ['-c', command], { cwd: sub, input, env, encoding: 'utf8' });
  const pre = v.hooks.PreCompact[0].hooks[0].command as string;
  const blocked = shell(pre, codexPreCompact(sub));
  assert.equal(blocked.status, 0, blocked.stderr);
  assert.equal(blocked.stderr, '');
  const b = JSON.parse(blocked.stdout);
  assert.equal(b.continue, false);
  assert.match(
    b.stopReason,
    /^Compaction stopped: no checkpoint has run in this session \(\.claude\/\.checkpoint-ready\.01a23c00-/,
  );
  // The CLI named as the hook ran it, in a way that runs from the subfolder too.
  assert.ok(
    b.stopReason.includes(
      `Run:\n   ${shownProgram(scriptProgram(dir, CODEX_SCRIPT_REL))} \\\n     checkpoint --session ${CODEX_SID}`,
    ),
    b.stopReason,
  );
  // The marker is looked for at the project root the command found, not in the subfolder.
  assert.equal(existsSync(path.join(sub, '.claude')), false);
  assert.match(
    readFileSync(path.join(dir, '.claude/log/session-ledger-hook.log'), 'utf8'),
    /pre-compact BLOCK \(no marker/,
  );
  // Automatic compaction passes (Codex calls the guard only for manual ones; the guard allows auto anyway).
  const auto = shell(pre, codexPreCompact(sub, 'auto'));
  assert.equal(auto.status, 0);
  assert.equal(auto.stdout, '');
  const c = spawnSync(process.execPath, [CODEX_SCRIPT_REL, 'checkpoint', '--session', CODEX_SID, ...CONFIRM_ALL], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  assert.equal(c.status, 0, c.stdout + c.stderr);
  const allowed = shell(pre, codexPreCompact(sub));
  assert.equal(allowed.status, 0, allowed.stderr);
  assert.equal(allowed.stdout, '');
  // SessionStart after /compact: the resume block as additionalContext; the session recorded at the root.
  const start = shell(v.hooks.SessionStart[0].hooks[0].command as string, codexSessionStart(sub, 'compact'));
  assert.equal(start.status, 0, start.stderr);
  const out = JSON.parse(start.stdout);
  assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
  assert.match(out.hookSpecificOutput.additionalContext, /^Session Ledger — resuming after \/compact/);
  assert.match(out.hookSpecificOutput.additionalContext, /Read docs\/state\/STATE\.md/);
  const rec = JSON.parse(readFileSync(path.join(dir, '.claude/session-ledger/session.json'), 'utf8'));
  assert.equal(rec.session_id, CODEX_SID);
  assert.match(rec.transcript_path, /rollout-.*\.jsonl$/);
});

test("Codex's block never tells the user to type a system's slash command, which Codex does not have (its screen answers \"Unrecognized command\"): to Codex it is a request in words; Claude Code's block keeps the command", () => {
  const { dir, env } = s3WithCodexHooks();
  assert.equal(run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const codex = spawnSync('/bin/sh', ['-c', hooksJson(dir).hooks.PreCompact[0].hooks[0].command as string], {
    cwd: dir,
    input: codexPreCompact(dir),
    env,
    encoding: 'utf8',
  });
  assert.equal(codex.status, 0, codex.stderr);
  const said = JSON.parse(codex.stdout).stopReason as string;
  assert.ok(
    said.includes(
      '1. Have your agent bring each state file up to date:\n' +
        '   - docs/state/STATE.md: Bring docs/state/STATE.md up to date for a checkpoint (Codex has no /checkpoint command)\n',
    ),
    said,
  );
  assert.doesNotMatch(said, /STATE\.md: \/checkpoint$/m);
  // Claude Code runs the system's /checkpoint: its block names it as it is.
  const claude = spawnSync(process.execPath, [path.join(dir, SCRIPT_REL), 'hook', 'pre-compact'], {
    cwd: dir,
    input: JSON.stringify({ session_id: CODEX_SID, cwd: dir, hook_event_name: 'PreCompact', trigger: 'manual' }),
    env: { ...env, CLAUDE_PROJECT_DIR: dir },
    encoding: 'utf8',
  });
  assert.equal(claude.status, 2, claude.stdout + claude.stderr);
  assert.match(claude.stderr, /^ {3}- docs\/state\/STATE\.md: \/checkpoint$/m);
});

test('Claude Code and Codex hooks installed at once (two plans from one record): the second waits and refuses, so neither loses its entry in the install record; run again, both are recorded', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE, '.gitignore': 'node_modules/\n' });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const claude = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  const codex = await planHooksInstall(dir, { codex: true, cliBundle: HOOK_SCRIPT });
  await applyHooksPlan(claude);
  const before = readFileSync(path.join(dir, INSTALL_RECORD_REL), 'utf8');
  await assert.rejects(
    applyHooksPlan(codex),
    (e: unknown) =>
      e instanceof WriteRefused &&
      e.reason === 'changed' &&
      /install\.json changed since it was read; nothing was written/.test(e.message),
  );
  assert.equal(
    readFileSync(path.join(dir, INSTALL_RECORD_REL), 'utf8'),
    before,
    "the record keeps Claude Code's entries",
  );
  assert.equal(existsSync(path.join(dir, '.codex')), false, 'nothing of Codex was written, no folder left');
  await applyHooksPlan(await planHooksInstall(dir, { codex: true, cliBundle: HOOK_SCRIPT }));
  const rec = JSON.parse(readFileSync(path.join(dir, INSTALL_RECORD_REL), 'utf8'));
  assert.ok(rec.script && rec.codexScript, JSON.stringify(rec));
  // Uninstalling both leaves the folder as it was: no settings file install created, .gitignore as before.
  await applyHooksPlan(await planHooksUninstall(dir));
  await applyHooksPlan(await planHooksUninstall(dir, { codex: true }));
  assert.equal(readFileSync(path.join(dir, '.gitignore'), 'utf8'), 'node_modules/\n');
  assert.equal(existsSync(path.join(dir, '.claude')), false, 'no .claude left behind');
  assert.equal(existsSync(path.join(dir, '.codex')), false, 'no .codex left behind');
});

test('an install refused at its apply (.gitignore changed since the plan) leaves no folder behind in a project that had none', async () => {
  for (const codex of [false, true]) {
    const dir = workspace({ 'docs/state/STATE.md': S3_STATE, '.gitignore': 'node_modules/\n' });
    const plan = await planHooksInstall(dir, { codex, cliBundle: HOOK_SCRIPT });
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\ndist/\n');
    await assert.rejects(applyHooksPlan(plan), (e: unknown) => e instanceof WriteRefused && e.reason === 'changed');
    assert.deepEqual(readdirSync(dir).sort(), ['.gitignore', 'docs'], `codex ${codex}`);
  }
});

test('a .gitignore that is a link to the settings file install edits: refused before anything is written, the dry run too', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE, '.claude/settings.json': '{}\n' });
  symlinkSync('.claude/settings.json', path.join(dir, '.gitignore'));
  const dry = run(['hooks', 'install', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 1, dry.stdout);
  const r = run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(
    r.stderr,
    /\.gitignore is a link to \.claude\/settings\.json, which install edits too; nothing was written/,
  );
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), '{}\n');
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false, 'no script written');
});

test('a .gitignore that is a symbolic link (to a source file): install refuses, the dry run too, and the file it leads to is unchanged', () => {
  const app = 'export const x = 1;\n';
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE, 'src/app.js': app });
  symlinkSync('src/app.js', path.join(dir, '.gitignore'));
  for (const args of [['--dry-run'], [], ['--codex']]) {
    const r = run(['hooks', 'install', ...args, '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr, /\.gitignore is a symbolic link, which git does not read; nothing was written/);
  }
  assert.equal(readFileSync(path.join(dir, 'src/app.js'), 'utf8'), app);
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false, 'no script written');
});

test("one client's hook file a link to the other's (.codex/hooks.json to .claude/settings.json): refused before anything is written, the guard's entries kept", () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  assert.equal(run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const settings = readFileSync(path.join(dir, '.claude/settings.json'), 'utf8');
  assert.match(settings, /PreCompact/);
  mkdirSync(path.join(dir, '.codex'));
  symlinkSync('../.claude/settings.json', path.join(dir, CODEX_HOOKS_REL));
  for (const args of [['--codex', '--dry-run'], ['--codex'], []]) {
    const r = run(['hooks', 'install', ...args, '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}`);
    assert.match(
      r.stderr,
      /are one file \(a link\), which Claude Code's and Codex's installs would each edit as their own; nothing was written/,
    );
  }
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), settings);
  assert.equal(existsSync(path.join(dir, CODEX_SCRIPT_REL)), false, 'no Codex script written');
});

test('a settings file nested thousands of brackets deep: install and uninstall say it cannot be edited safely, with no internal error, and change nothing', () => {
  const deep = `{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}\n`;
  for (const [file, args] of [
    ['.claude/settings.json', []],
    [CODEX_HOOKS_REL, ['--codex']],
  ] as const) {
    const dir = workspace({ 'docs/state/STATE.md': S3_STATE, [file]: deep });
    for (const action of ['install', 'uninstall']) {
      const r = run(['hooks', action, ...args, '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
      assert.equal(r.code, 1, `${file} ${action}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /is nested too deeply to edit safely \(fix it by hand first; nothing was changed\)/);
      assert.doesNotMatch(r.stderr, /internal error/);
      assert.equal(readFileSync(path.join(dir, file), 'utf8'), deep);
    }
  }
});

const isRoot = process.getuid?.() === 0;

/** A project with S3's state and the Codex hooks installed, in a folder of its own under `parent` (made here), and a subfolder to run in. */
function projectBelow(prefix: string): { parent: string; dir: string; sub: string } {
  const parent = workspace({}, prefix);
  const dir = path.join(parent, 'proj');
  mkdirSync(path.join(dir, 'docs/state'), { recursive: true });
  writeFileSync(path.join(dir, 'docs/state/STATE.md'), S3_STATE);
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  assert.equal(run(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const sub = path.join(dir, 'src');
  mkdirSync(sub);
  return { parent, dir, sub };
}

/** The installed PreCompact command run as Codex runs it, in `sub` of the project `dir`. */
function codexGuardIn(dir: string, sub: string) {
  return spawnSync('/bin/sh', ['-c', codexHookCommand('pre-compact')], {
    cwd: sub,
    input: codexPreCompact(sub),
    env: {
      PATH: process.env.PATH,
      HOME: workspace({}),
      CLAUDE_CONFIG_DIR: emptyClaudeHome(),
      CODEX_HOME: path.join(dir, 'no-codex'),
    },
    encoding: 'utf8',
  });
}

/** A script that leaves `mark` when it runs. */
const marking = (mark: string) => `require('fs').writeFileSync(${JSON.stringify(mark)}, 'ran')\n`;

test("a Codex hook never runs a script from a folder above the project that is a link or, as root, another user's (a shared temporary folder): the project's own runs", () => {
  const ways = [
    'the script a link',
    '.codex a link',
    '.codex/hooks a link',
    ...(isRoot ? ["another user's script"] : []),
  ];
  for (const way of ways) {
    const { parent, dir, sub } = projectBelow('sl-shared-');
    // What someone else puts above the project: a script that leaves a mark.
    const mark = path.join(parent, 'PWNED');
    const evil = path.join(workspace({}, 'sl-evil-'), 'hooks');
    mkdirSync(evil);
    writeFileSync(path.join(evil, 'session-ledger.cjs'), marking(mark));
    const codex = path.join(parent, '.codex');
    if (way === '.codex a link') symlinkSync(path.dirname(evil), codex);
    else {
      mkdirSync(codex);
      if (way === '.codex/hooks a link') symlinkSync(evil, path.join(codex, 'hooks'));
      else {
        mkdirSync(path.join(codex, 'hooks'));
        const script = path.join(codex, 'hooks', 'session-ledger.cjs');
        if (way === 'the script a link') symlinkSync(path.join(evil, 'session-ledger.cjs'), script);
        else {
          writeFileSync(script, readFileSync(path.join(evil, 'session-ledger.cjs')));
          for (const p of [codex, path.join(codex, 'hooks'), script]) chownSync(p, 65534, 65534);
        }
      }
    }
    const r = codexGuardIn(dir, sub);
    assert.equal(existsSync(mark), false, `${way}: the script above the project ran`);
    assert.equal(r.status, 0, `${way}: ${r.stderr}`);
    assert.match(
      JSON.parse(r.stdout).stopReason,
      /^Compaction stopped: no checkpoint has run/,
      `${way}: the project's own guard`,
    );
  }
});

test(
  "as root on a checkout another user owns (a container on the host user's files): the Codex hook runs the project's script, and still none above it of a third user",
  { skip: !isRoot && 'needs root to hand the project to another user' },
  () => {
    const { parent, dir, sub } = projectBelow('sl-host-');
    spawnSync('chown', ['-R', '1000:1000', dir]);
    // A third user's script above the project.
    const mark = path.join(parent, 'PWNED');
    mkdirSync(path.join(parent, '.codex/hooks'), { recursive: true });
    writeFileSync(path.join(parent, '.codex/hooks/session-ledger.cjs'), marking(mark));
    spawnSync('chown', ['-R', '65534:65534', path.join(parent, '.codex')]);
    const r = codexGuardIn(dir, sub);
    assert.equal(existsSync(mark), false, "the third user's script ran");
    assert.equal(r.status, 0, r.stderr);
    assert.match(JSON.parse(r.stdout).stopReason, /^Compaction stopped: no checkpoint has run/, r.stdout);
  },
);

test('a Codex hook whose script is gone fails (Codex shows the error and compacts): it never blocks', () => {
  const dir = workspace({});
  const r = spawnSync('/bin/sh', ['-c', codexHookCommand('pre-compact')], {
    cwd: dir,
    input: codexPreCompact(dir),
    env: { PATH: process.env.PATH, HOME: os.tmpdir() },
    encoding: 'utf8',
  });
  assert.notEqual(r.status, 0);
  assert.equal(r.stdout, '');
});

test("a newer Session Ledger installed for one client: the other client's older script is replaced, not taken for a user's edit", async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const newer = path.join(workspace({}), 'session-ledger.cjs');
  writeFileSync(newer, `${readFileSync(HOOK_SCRIPT, 'utf8')}//\n`);
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  await applyHooksPlan(await planHooksInstall(dir, { codex: true, cliBundle: newer }));
  const claude = await planHooksInstall(dir, { cliBundle: newer });
  assert.equal(claude.error, undefined, claude.error);
  assert.equal(claude.script, 'write');
  await applyHooksPlan(claude);
  assert.deepEqual(readFileSync(path.join(dir, SCRIPT_REL)), readFileSync(path.join(dir, CODEX_SCRIPT_REL)));
  // A script really changed by someone is still refused.
  writeFileSync(path.join(dir, CODEX_SCRIPT_REL), `${readFileSync(path.join(dir, CODEX_SCRIPT_REL), 'utf8')}//\n//\n`);
  const refused = await planHooksInstall(dir, { codex: true, cliBundle: HOOK_SCRIPT });
  assert.match(refused.error ?? '', /\.codex\/hooks\/session-ledger\.cjs was changed since `hooks install` wrote it/);
});

test('"Ask the agent to checkpoint" to Codex: every system with a slash command is asked in words (the guard\'s own sentence, in the user\'s language), Claude Code gets the command itself', () => {
  for (const id of SYSTEM_IDS) {
    const home = FACTS[id].home;
    const own = FACTS[id].checkpointTrigger;
    assert.equal(agentTrigger(id, home, 'claude'), own, id);
    const codex = agentTrigger(id, home, 'codex');
    const typed = typeof codex === 'string' ? codex : said(codex, jaT);
    if (own.startsWith('/')) {
      assert.notEqual(typeof codex, 'string', id);
      assert.ok(!typed.startsWith('/') && typed.includes(home) && typed.includes(own), `${id}: ${typed}`);
      assert.match(typed, /[\u3040-\u30ff]/, `${id} in Japanese: ${typed}`);
    } else assert.equal(codex, own, id);
  }
});
