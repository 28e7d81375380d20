import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { WriteRefused } from '../../src/core/files/atomic';
import { sha256 } from '../../src/core/files/fsread';
import {
  applyHooksPlan,
  hookGroup,
  planHooksInstall,
  planHooksUninstall,
  relayCommand,
  relayHidden,
  SCRIPT_CMD,
  SCRIPT_REL,
  STATUSLINE_SCRIPT_REL,
  unwrapRelay,
} from '../../src/core/hooks/install';
import { CLI_HOOK_COMMANDS, noteSaid } from '../../src/core/hooks/install-words';
import { hooksProblemText } from '../../src/extension/pure/error-text';
import { cli, cliProcess, HOOK_SCRIPT, jaT, REPO, workspace } from './helpers';
import { hooksDialog, notesSaid } from '../../src/extension/pure/hooks-dialog';
import {
  CONFIRM_ALL,
  emptyClaudeHome,
  preCompact,
  projectEnv,
  run,
  S3_STATE,
  SID,
  turnBegan,
  scriptProgram,
  shownProgram,
} from './checkpoint-fixtures';

/** Settings as people write them: comments, a trailing comma, odd spacing, other hooks. */
const SETTINGS = `// Project settings — shared with the team
{
    "model": "opus",   /* keep */
    "env": {"FOO": "1", "BAR": "two"},
    "permissions": {
        "allow": [ "Bash(npm test:*)",
                   "Read" ],
    },
    "hooks": {
        // lint after every edit
        "PostToolUse": [
            { "matcher": "Edit|Write", "hooks": [ { "type": "command", "command": "npm run lint --silent" } ] }
        ],
        "PreCompact": [
            {"matcher": "", "hooks": [{"type": "command", "command": "echo precompact >> /tmp/log"}]}
        ]
    }
}
`;

/**
 * How many contiguous runs of inserted characters turn `before` into `after` (the fewest), or null
 * when that cannot be done by insertions alone (something of `before` was deleted or changed).
 */
function insertedRuns(before: string, after: string): number | null {
  const n = before.length;
  const m = after.length;
  const INF = 0xffff;
  // match[i][j] / ins[i][j]: fewest runs to align before[i:] with after[j:], the previous step a match / an insertion.
  const match: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  const ins: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n; i >= 0; i--) {
    for (let j = m; j >= 0; j--) {
      if (i === n) {
        match[i][j] = j === m ? 0 : 1;
        ins[i][j] = 0;
        continue;
      }
      if (j === m) {
        match[i][j] = ins[i][j] = INF;
        continue;
      }
      const same = before[i] === after[j] ? match[i + 1][j + 1] : INF;
      match[i][j] = Math.min(same, Math.min(INF, ins[i][j + 1] + 1));
      ins[i][j] = Math.min(same, ins[i][j + 1]);
    }
  }
  return match[0][0] >= INF ? null : match[0][0];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test walks parsed JSON of any shape
function settingsOf(dir: string, rel = '.claude/settings.json'): Record<string, any> {
  return parseJsonc(readFileSync(path.join(dir, rel), 'utf8'));
}

test('install edits only its own spans: comments, formatting, other settings and hooks stay byte for byte', async () => {
  const dir = workspace({ '.claude/settings.json': SETTINGS });
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.equal(plan.changed, true);
  assert.equal(plan.script, 'write');
  await applyHooksPlan(plan);
  const after = readFileSync(path.join(dir, '.claude/settings.json'), 'utf8');
  // Nothing of the original deleted or changed; at most two inserted spans (the PreCompact group, the SessionStart array).
  const runs = insertedRuns(SETTINGS, after);
  assert.ok(runs !== null && runs >= 1 && runs <= 2, after);
  const v = settingsOf(dir);
  assert.deepEqual(v.hooks.PreCompact, [
    { matcher: '', hooks: [{ type: 'command', command: 'echo precompact >> /tmp/log' }] },
    hookGroup('PreCompact'),
  ]);
  assert.deepEqual(v.hooks.SessionStart, [hookGroup('SessionStart')]);
  assert.equal(v.hooks.PreCompact[1].matcher, 'manual');
  assert.equal(v.hooks.SessionStart[0].matcher, 'clear|compact|startup|resume');
  assert.match(
    v.hooks.PreCompact[1].hooks[0].command,
    /^node "\$CLAUDE_PROJECT_DIR\/\.claude\/hooks\/session-ledger\.cjs" hook pre-compact$/,
  );
  assert.equal(v.hooks.PreCompact[1].hooks[0].timeout, 30);
  assert.deepEqual(v.env, { FOO: '1', BAR: 'two' });
  // The script: the bundled CLI, executable, without the source map comment.
  const script = path.join(dir, SCRIPT_REL);
  assert.ok(statSync(script).mode & 0o100);
  assert.match(readFileSync(script, 'utf8'), /^#!\/usr\/bin\/env node/);
  assert.doesNotMatch(readFileSync(script, 'utf8'), /\/\/# sourceMappingURL=\S+\s*$/);
});

test('installing twice changes nothing; uninstall gives back the original bytes and removes the script', async () => {
  const dir = workspace({ '.claude/settings.json': SETTINGS });
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  const file = path.join(dir, '.claude/settings.json');
  const once = readFileSync(file);
  const mtime = statSync(file).mtimeMs;
  const again = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.equal(again.changed, false);
  assert.equal(again.script, 'keep');
  const r = run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Hooks already installed in \.claude\/settings\.json; nothing to do\.$/m);
  assert.deepEqual(readFileSync(file), once);
  assert.equal(statSync(file).mtimeMs, mtime);

  const u = run(['hooks', 'uninstall', '--root', dir]);
  assert.equal(u.code, 0, u.stderr);
  assert.equal(readFileSync(file, 'utf8'), SETTINGS);
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false);
  assert.equal(existsSync(path.join(dir, '.claude/hooks')), false);
  const u2 = run(['hooks', 'uninstall', '--root', dir]);
  assert.match(u2.stdout, /No Session Ledger hooks/);
  assert.equal(readFileSync(file, 'utf8'), SETTINGS);
});

test('no settings file: install creates it; uninstall removes it again, and the folders install made', () => {
  const dir = workspace();
  const r = run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Remove them with: session-ledger hooks uninstall/);
  const v = settingsOf(dir);
  assert.deepEqual(v, { hooks: { PreCompact: [hookGroup('PreCompact')], SessionStart: [hookGroup('SessionStart')] } });
  const u = run(['hooks', 'uninstall', '--root', dir]);
  assert.equal(u.code, 0, u.stderr);
  assert.equal(existsSync(path.join(dir, '.claude')), false);
});

test('tabs, CRLF and single-line objects keep their style; empty hooks objects are filled in place', async () => {
  const cases = [
    '{\r\n\t"model": "sonnet",\r\n\t"hooks": {}\r\n}\r\n',
    '{"model": "sonnet", "hooks": {"PreCompact": []}}',
    '{\n  "statusLine": {"type": "command", "command": "echo hi"}\n}',
    '{\n  // nothing here yet\n}\n',
  ];
  for (const before of cases) {
    const dir = workspace({ '.claude/settings.json': before });
    await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
    const after = readFileSync(path.join(dir, '.claude/settings.json'), 'utf8');
    const runs = insertedRuns(before, after);
    assert.ok(runs !== null && runs <= 2, `only insertions: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    if (before.includes('\r\n')) assert.doesNotMatch(after.replace(/\r\n/g, ''), /\n/, 'CRLF kept');
    if (before.includes('\t')) assert.match(after, /\n\t\t"PreCompact"/);
    assert.deepEqual(settingsOf(dir).hooks.PreCompact, [hookGroup('PreCompact')]);
    await applyHooksPlan(await planHooksUninstall(dir));
    const back = readFileSync(path.join(dir, '.claude/settings.json'), 'utf8');
    // Everything else stays as it was; a `hooks: {}` that was there before stays too (install records
    // that the key was not its own), and so does the user's own `PreCompact` list, empty as it was.
    assert.equal(back, before);
  }
});

test('--local edits settings.local.json; the script stays while the other settings file still calls it', async () => {
  const dir = workspace({ '.claude/settings.json': '{\n  "model": "opus"\n}\n' });
  assert.equal(run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  assert.equal(run(['hooks', 'install', '--root', dir, '--local', '--cli-bundle', HOOK_SCRIPT]).code, 0);
  assert.deepEqual(settingsOf(dir, '.claude/settings.local.json').hooks.SessionStart, [hookGroup('SessionStart')]);
  assert.equal(run(['hooks', 'uninstall', '--root', dir, '--local']).code, 0);
  assert.equal(existsSync(path.join(dir, '.claude/settings.local.json')), false);
  assert.ok(existsSync(path.join(dir, SCRIPT_REL)), 'settings.json still calls it');
  assert.equal(run(['hooks', 'uninstall', '--root', dir]).code, 0);
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), '{\n  "model": "opus"\n}\n');
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false);
});

test('--dry-run prints the change and writes nothing', () => {
  const dir = workspace({ '.claude/settings.json': SETTINGS });
  const r = run(['hooks', 'install', '--root', dir, '--dry-run', '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Would write \.claude\/hooks\/session-ledger\.cjs/);
  assert.match(r.stdout, /^\+.*"matcher": "manual"/m);
  assert.match(r.stdout, /^\+.*hook session-start/m);
  // The only line shown as removed is the one that got a comma (the user's group before ours).
  const removed = r.stdout.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
  assert.deepEqual(removed, [
    '-            {"matcher": "", "hooks": [{"type": "command", "command": "echo precompact >> /tmp/log"}]}',
  ]);
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), SETTINGS);
  assert.equal(existsSync(path.join(dir, '.claude/hooks')), false);
});

test('an install over one already there names only what it adds: the relay alone names no hook, the reminder alone only its own', () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const install = (...flags: string[]) =>
    run(['hooks', 'install', '--root', dir, ...flags, '--cli-bundle', HOOK_SCRIPT]);
  const first = install();
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^Added hooks\.PreCompact \(matcher manual\) and hooks\.SessionStart /m);
  // `flag` added to the install, previewed then done: each names what it adds (`wouldSay`, `said`) and no hook.
  const addsOnly = (flag: string, wouldSay: RegExp, said: RegExp) => {
    for (const dry of [true, false]) {
      const r = install(flag, ...(dry ? ['--dry-run'] : []));
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /hooks\.PreCompact|hooks\.SessionStart/, r.stdout);
      assert.match(r.stdout, dry ? wouldSay : said);
    }
  };
  addsOnly(
    '--statusline',
    /^statusLine: the context relay would be added\.$/m,
    /^statusLine: the context relay was added\.$/m,
  );
  assert.equal(settingsOf(dir).statusLine.command, relayCommand(null));
  addsOnly(
    '--remind',
    /^Would add hooks\.UserPromptSubmit \(the reminder\) to \.claude\/settings\.json\.$/m,
    /^Added hooks\.UserPromptSubmit \(the reminder\) to \.claude\/settings\.json\.$/m,
  );
  assert.equal(install('--remind').stdout, 'Hooks already installed in .claude/settings.json; nothing to do.\n');
});

test('--statusline wraps the user statusLine command; uninstall puts it back byte for byte', async () => {
  const own = `bash -c 'echo "$(whoami) it'"'"'s me"'`;
  const before = `{\n  "statusLine": {\n    "type": "command",\n    "command": ${JSON.stringify(own)},\n    "padding": 0\n  }\n}\n`;
  const dir = workspace({ '.claude/settings.json': before });
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true });
  await applyHooksPlan(plan);
  const sl = settingsOf(dir).statusLine;
  assert.equal(sl.command, relayCommand(own));
  assert.equal(sl.padding, 0);
  assert.equal(unwrapRelay(sl.command), own);
  // The relay hands the wrapped command exactly one shell word after `--`.
  const argv = spawnSync('/bin/sh', ['-c', `printf '%s\\n' ${sl.command.slice(sl.command.indexOf('-- ') + 3)}`], {
    encoding: 'utf8',
  }).stdout;
  assert.equal(argv, `${own}\n`);
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true }));
  assert.equal(settingsOf(dir).statusLine.command, relayCommand(own), 'not wrapped twice');
  await applyHooksPlan(await planHooksUninstall(dir));
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), before);

  const fresh = workspace();
  assert.equal(run(['hooks', 'install', '--root', fresh, '--statusline', '--cli-bundle', HOOK_SCRIPT]).code, 0);
  assert.equal(settingsOf(fresh).statusLine.command, relayCommand(null));
  assert.equal(run(['hooks', 'uninstall', '--root', fresh]).code, 0);
  assert.equal(existsSync(path.join(fresh, '.claude')), false);
});

/** A temp home whose Claude Code config folder (`~/.claude`, named by CLAUDE_CONFIG_DIR) holds the user's own status line. */
function userHome(command: string): { env: NodeJS.ProcessEnv; settings: string; before: string } {
  const home = workspace({}, 'sl-home-');
  const before = `{\n  "statusLine": { "type": "command", "command": ${JSON.stringify(command)}, "padding": 0 }\n}\n`;
  const settings = path.join(home, '.claude', 'settings.json');
  mkdirSync(path.dirname(settings), { recursive: true });
  writeFileSync(settings, before);
  return { env: { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude') }, settings, before };
}

/** What a settings file's statusLine command prints, run as Claude Code runs it (`sh -c`, the session's JSON on stdin). */
function statusLineOutput(dir: string, rel: string): string {
  return spawnSync('/bin/sh', ['-c', settingsOf(dir, rel).statusLine.command], {
    input: JSON.stringify({ session_id: 'sl-test', workspace: { current_dir: dir } }),
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
    encoding: 'utf8',
  }).stdout;
}

test("--statusline --local: the relay wraps the status line Claude Code showed from below (the project's settings.json, else the user's settings), which stay as they are; uninstall takes the relay out", () => {
  const user = userHome('echo MY-USER-LINE');
  // The CLI in this process; the first install as its own process, which reads its own environment.
  const sl = (dir: string, ...args: string[]) =>
    cli(['hooks', ...args, '--root', dir, '--cli-bundle', HOOK_SCRIPT], { env: user.env });
  const local = '.claude/settings.local.json';

  // The user's settings: the preview says so and writes nothing; the install wraps it, `padding` and all.
  const dir = workspace();
  let r = sl(dir, 'install', '--statusline', '--local', '--dry-run');
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^statusLine: the relay would wrap your command from ~\/\.claude\/settings\.json \(echo MY-USER-LINE\), which stays as it is; `hooks uninstall` takes the relay out\.$/m,
  );
  assert.equal(existsSync(path.join(dir, '.claude')), false);
  r = cliProcess(['hooks', 'install', '--statusline', '--local', '--root', dir, '--cli-bundle', HOOK_SCRIPT], {
    env: user.env,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^statusLine: the relay now wraps your command from ~\/\.claude\/settings\.json \(echo MY-USER-LINE\)/m,
  );
  assert.deepEqual(settingsOf(dir, local).statusLine, {
    type: 'command',
    command: relayCommand('echo MY-USER-LINE'),
    padding: 0,
  });
  assert.equal(statusLineOutput(dir, local), 'MY-USER-LINE\n');
  assert.equal(
    sl(dir, 'install', '--statusline', '--local').stdout,
    `Hooks already installed in ${local}; nothing to do.\n`,
  );
  r = sl(dir, 'uninstall', '--local');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^statusLine: the context relay was removed\.$/m);
  assert.equal(existsSync(path.join(dir, local)), false);
  assert.equal(readFileSync(user.settings, 'utf8'), user.before);

  // The project's settings.json comes before the user's; a local file with settings of its own gets them back byte for byte.
  const shared = `{\n  "statusLine": { "type": "command", "command": "echo PROJECT-LINE" }\n}\n`;
  const mine = `{\n  "model": "opus"\n}\n`;
  const proj = workspace({ '.claude/settings.json': shared, [local]: mine });
  r = sl(proj, 'install', '--statusline', '--local');
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^statusLine: the relay now wraps your command from \.claude\/settings\.json \(echo PROJECT-LINE\)/m,
  );
  assert.equal(settingsOf(proj, local).statusLine.command, relayCommand('echo PROJECT-LINE'));
  assert.equal(statusLineOutput(proj, local), 'PROJECT-LINE\n');
  assert.equal(sl(proj, 'uninstall', '--local').code, 0);
  assert.equal(readFileSync(path.join(proj, local), 'utf8'), mine);
  assert.equal(readFileSync(path.join(proj, '.claude/settings.json'), 'utf8'), shared);
  assert.equal(readFileSync(user.settings, 'utf8'), user.before);

  // A local relay installed alone before takes the user's command up at the next install.
  const earlier = workspace();
  assert.equal(
    cli(['hooks', 'install', '--root', earlier, '--statusline', '--local', '--cli-bundle', HOOK_SCRIPT], {
      env: { CLAUDE_CONFIG_DIR: workspace() },
    }).code,
    0,
  );
  assert.equal(settingsOf(earlier, local).statusLine.command, relayCommand(null));
  r = sl(earlier, 'install', '--statusline', '--local');
  assert.match(r.stdout, /^statusLine: the relay now wraps your command from ~\/\.claude\/settings\.json/m);
  assert.equal(settingsOf(earlier, local).statusLine.command, relayCommand('echo MY-USER-LINE'));
});

test("--statusline in the shared settings.json never takes in the user's own status line: the preview, the result and the extension's dialog say it no longer shows in this project and that --local keeps it", async () => {
  const user = userHome('echo MY-USER-LINE');
  const dir = workspace();
  const sl = (...args: string[]) =>
    cli(['hooks', 'install', '--root', dir, '--statusline', '--cli-bundle', HOOK_SCRIPT, ...args], {
      env: user.env,
    });
  const hidden = (done: boolean) =>
    new RegExp(
      `^statusLine: your own status line in ~/\\.claude/settings\\.json ${done ? 'no longer shows' : 'would no longer show'} in this project \\(project settings take precedence over it\\); \`hooks install --statusline --local\` keeps it, wrapped\\.$`,
      'm',
    );
  let r = sl('--dry-run');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, hidden(false));
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true, env: user.env });
  assert.ok(
    hooksDialog(plan, jaT).detail.includes(
      jaT(
        'statusLine: your own status line in {0} would no longer show in this project (project settings take precedence over it); {1} keeps it, wrapped.',
        '~/.claude/settings.json',
        jaT('"Install guard hooks" with .claude/settings.local.json and the status line relay'),
      ),
    ),
  );
  // As its own process, which reads its own environment.
  r = cliProcess(['hooks', 'install', '--root', dir, '--statusline', '--cli-bundle', HOOK_SCRIPT], { env: user.env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, hidden(true));
  assert.equal(settingsOf(dir).statusLine.command, relayCommand(null));
  assert.doesNotMatch(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), /MY-USER-LINE/);
  assert.equal(readFileSync(user.settings, 'utf8'), user.before);
  // A status line of the project's local file shows instead of both: nothing to say of the user's.
  const over = workspace({
    '.claude/settings.local.json': '{ "statusLine": { "type": "command", "command": "echo MINE" } }\n',
  });
  r = cli(['hooks', 'install', '--root', over, '--statusline', '--cli-bundle', HOOK_SCRIPT], { env: user.env });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /no longer shows/);
});

test("--statusline in the shared settings.json while settings.local.json sets a status line of its own: the relay would not run, and the preview, the result, a second install, the extension's dialog and relayHidden say so and what to do; a relay of ours in the local file hides nothing", async () => {
  const local = '.claude/settings.local.json';
  const dir = workspace({ [local]: '{ "statusLine": { "type": "command", "command": "echo MINE" } }\n' });
  const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome() };
  const sl = (...args: string[]) =>
    cli(['hooks', 'install', '--root', dir, '--statusline', '--cli-bundle', HOOK_SCRIPT, ...args], { env });
  const hidden = (done: boolean) =>
    new RegExp(
      `^statusLine: the relay in \\.claude/settings\\.json ${done ? 'does not run' : 'would not run'} in this project: \\.claude/settings\\.local\\.json sets a status line of its own, which Claude Code takes over it, so Claude Code's own context figure ${done ? 'is not' : 'would not be'} recorded for the meter\\. \`hooks install --statusline --local\` wraps that status line instead, or remove the statusLine from \\.claude/settings\\.local\\.json\\.$`,
      'm',
    );
  let r = sl('--dry-run');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, hidden(false));
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true, env });
  assert.ok(
    hooksDialog(plan, jaT).detail.includes(
      jaT(
        "statusLine: the relay in {0} would not run in this project: {1} sets a status line of its own, which Claude Code takes over it, so Claude Code's own context figure would not be recorded for the meter. {2} wraps that status line instead, or remove the statusLine from {1}.",
        '.claude/settings.json',
        local,
        jaT('"Install guard hooks" with .claude/settings.local.json and the status line relay'),
      ),
    ),
  );
  assert.equal(await relayHidden(dir), null, 'no relay installed yet');
  r = sl();
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, hidden(true));
  assert.equal(settingsOf(dir).statusLine.command, relayCommand(null));
  assert.deepEqual(await relayHidden(dir), { file: '.claude/settings.json', by: local });
  // Installed again, with or without --statusline: nothing to do, and the relay still does not run.
  for (const again of [sl(), cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT], { env })]) {
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^Hooks already installed in \.claude\/settings\.json; nothing to do\.$/m);
    assert.match(again.stdout, hidden(true));
  }
  // The extension says it too when it has nothing to install (its message after "already installed").
  const again = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true, env });
  assert.equal(again.changed, false);
  assert.deepEqual(notesSaid(again, jaT, true), [
    jaT(
      "statusLine: the relay in {0} does not run in this project: {1} sets a status line of its own, which Claude Code takes over it, so Claude Code's own context figure is not recorded for the meter. {2} wraps that status line instead, or remove the statusLine from {1}.",
      '.claude/settings.json',
      local,
      jaT('"Install guard hooks" with .claude/settings.local.json and the status line relay'),
    ),
  ]);
  // What it says to do: the local install wraps that status line, and then nothing hides the relay.
  r = cli(['hooks', 'install', '--root', dir, '--statusline', '--local', '--cli-bundle', HOOK_SCRIPT], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(settingsOf(dir, local).statusLine.command, relayCommand('echo MINE'));
  assert.equal(await relayHidden(dir), null);
  r = sl();
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /not run/);
  // A shared install without the relay says nothing of the local status line.
  const plain = workspace({ [local]: '{ "statusLine": { "type": "command", "command": "echo MINE" } }\n' });
  r = cli(['hooks', 'install', '--root', plain, '--cli-bundle', HOOK_SCRIPT], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /not run/);
});

test("--statusline installs the status line's own script (under a fifteenth of the hook script: the status line and its transcript meter, no core and no meter), which takes every other part from the hook script beside it; an earlier relay through the hook script is rewritten; a changed script is kept; uninstall removes it", async () => {
  // An earlier version's relay, through the hook script, wrapping the user's command.
  const legacy = `${SCRIPT_CMD} statusline -- 'echo mine'`;
  const dir = workspace({
    'docs/state/STATE.md': S3_STATE,
    '.claude/settings.json': `${JSON.stringify({ statusLine: { type: 'command', command: legacy } }, null, 2)}\n`,
  });
  assert.equal(unwrapRelay(legacy), 'echo mine');
  // A plain install (without --statusline) keeps the relay that is there current too.
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.equal(plan.statuslineScript, 'write');
  const notes = plan.notes.map((n) => noteSaid(n, CLI_HOOK_COMMANDS).text);
  assert.ok(
    notes.some((n) => /the relay now runs the status line's own script/.test(n)),
    notes.join('\n'),
  );
  await applyHooksPlan(plan);
  assert.equal(settingsOf(dir).statusLine.command, relayCommand('echo mine'));
  assert.match(relayCommand(null), /session-ledger-statusline\.cjs" statusline$/);
  const script = readFileSync(path.join(dir, STATUSLINE_SCRIPT_REL), 'utf8');
  assert.ok(script.length * 15 < readFileSync(path.join(dir, SCRIPT_REL), 'utf8').length, `${script.length} bytes`);
  assert.ok(!script.includes('\n// ---- session-ledger core ----\n'), 'no core');
  assert.ok(!script.includes('\n// ---- session-ledger meter ----\n'), 'no meter');
  assert.ok(script.includes('\n// ---- session-ledger transcript ----\n'), 'the transcript meter');
  const env = projectEnv(dir);
  const node = (args: string[], input = '') =>
    spawnSync(process.execPath, [STATUSLINE_SCRIPT_REL, ...args], { cwd: dir, env, input, encoding: 'utf8' });
  const input = JSON.stringify({
    session_id: SID,
    cwd: dir,
    workspace: { project_dir: dir, current_dir: dir },
    context_window: { context_window_size: 200000, used_percentage: 42 },
  });
  assert.equal(node(['statusline'], input).stdout, 'ctx 42% (84k/200k) · checkpoint now\n');
  // Everything else (here: help and `status`) comes from the core of the hook script beside it.
  const help = node(['statusline', '--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /statusline/);
  assert.equal(node(['status']).status, 0);
  // Without the hook script beside it, it says which file to put back.
  const hook = readFileSync(path.join(dir, SCRIPT_REL));
  writeFileSync(path.join(dir, SCRIPT_REL), '');
  const alone = node(['status']);
  assert.equal(alone.status, 2);
  assert.match(alone.stderr, /session-ledger\.cjs holds no core.*hooks install/);
  assert.equal(node(['statusline'], input).status, 0, 'the status line itself needs no core');
  writeFileSync(path.join(dir, SCRIPT_REL), hook);

  // Installing again changes nothing; a status line script someone changed is not replaced.
  assert.equal((await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true })).changed, false);
  writeFileSync(path.join(dir, STATUSLINE_SCRIPT_REL), `${script}// mine\n`);
  const again = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true });
  assert.deepEqual(again.problem, { kind: 'modified', file: STATUSLINE_SCRIPT_REL });
  // Nor one of an earlier version (its second part the meter) that someone changed.
  const older = script.replace('\n// ---- session-ledger transcript ----\n', '\n// ---- session-ledger meter ----\n');
  writeFileSync(path.join(dir, STATUSLINE_SCRIPT_REL), `${older}// mine\n`);
  const earlier = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true });
  assert.deepEqual(earlier.problem, { kind: 'modified', file: STATUSLINE_SCRIPT_REL });
  writeFileSync(path.join(dir, STATUSLINE_SCRIPT_REL), script);

  const u = await planHooksUninstall(dir);
  assert.equal(u.statuslineScript, 'remove');
  await applyHooksPlan(u);
  assert.equal(existsSync(path.join(dir, STATUSLINE_SCRIPT_REL)), false);
  assert.equal(settingsOf(dir).statusLine.command, 'echo mine');
});

test('uninstall removes only our hook from a group the user shares with it; an older install is replaced in place', async () => {
  const mixed = {
    hooks: {
      PreCompact: [
        { matcher: 'manual', hooks: [{ type: 'command', command: 'echo mine' }, hookGroup('PreCompact').hooks[0]] },
      ],
      SessionStart: [{ matcher: 'compact', hooks: [{ ...hookGroup('SessionStart').hooks[0], timeout: 5 }] }],
    },
  };
  const dir = workspace({ '.claude/settings.json': JSON.stringify(mixed, null, 2) });
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  let v = settingsOf(dir);
  assert.deepEqual(v.hooks.SessionStart, [hookGroup('SessionStart')], 'the old group replaced, not duplicated');
  assert.deepEqual(v.hooks.PreCompact[0].hooks, [{ type: 'command', command: 'echo mine' }]);
  assert.deepEqual(v.hooks.PreCompact[1], hookGroup('PreCompact'));
  await applyHooksPlan(await planHooksUninstall(dir));
  v = settingsOf(dir);
  assert.deepEqual(v, {
    hooks: { PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: 'echo mine' }] }] },
  });
});

test('settings that do not parse, or a hooks value of the wrong type, are refused untouched', () => {
  for (const bad of ['{ "model": ', '[1, 2]', '{"hooks": []}', '{"hooks": {"PreCompact": {}}}']) {
    const dir = workspace({ '.claude/settings.json': bad });
    const r = run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
    assert.equal(r.code, 1, bad);
    assert.match(r.stderr, /fix it by hand first/i);
    assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), bad);
    assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false);
  }
  assert.equal(run(['hooks', 'frobnicate']).code, 2);
});

test('a folder at the core path older versions used: the dry run and the install refuse before anything is written, and so does uninstall', async () => {
  // Install and uninstall remove that file; a folder there is someone's, and no write starts while it stands.
  const core = '.claude/hooks/session-ledger-core.br';
  const dir = workspace({ '.claude/settings.json': SETTINGS, [`${core}/notes`]: 'mine\n' });
  for (const args of [['--dry-run'], []]) {
    const r = run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT, ...args]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      /\.claude\/hooks\/session-ledger-core\.br is a folder, where older versions of Session Ledger kept a file of their own .*; nothing was written\. Move it away/,
    );
    assert.doesNotMatch(r.stderr, /EISDIR/);
  }
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), SETTINGS);
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false);
  assert.equal(existsSync(path.join(dir, '.claude/session-ledger')), false);
  assert.equal(existsSync(path.join(dir, '.gitignore')), false);
  assert.equal(readFileSync(path.join(dir, core, 'notes'), 'utf8'), 'mine\n');
  // Installed before the folder came: uninstall refuses too, the hooks and the script stay.
  const other = workspace({ '.claude/settings.json': SETTINGS });
  assert.equal(run(['hooks', 'install', '--root', other, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const installed = readFileSync(path.join(other, '.claude/settings.json'), 'utf8');
  mkdirSync(path.join(other, core));
  const u = run(['hooks', 'uninstall', '--root', other]);
  assert.equal(u.code, 1, u.stdout);
  assert.match(u.stderr, /session-ledger-core\.br is a folder/);
  assert.equal(readFileSync(path.join(other, '.claude/settings.json'), 'utf8'), installed);
  assert.ok(existsSync(path.join(other, SCRIPT_REL)));
});

test('.claude or .codex a plain file: the dry run and the install say which path is not a folder, no errno text, nothing written', async () => {
  for (const [rel, flags, settings] of [
    ['.claude', [], '.claude/settings.json'],
    ['.codex', ['--codex'], '.codex/hooks.json'],
  ] as const) {
    const dir = workspace({ [rel]: 'keep\n' });
    for (const args of [['--dry-run'], []]) {
      const r = run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT, ...flags, ...args]);
      assert.equal(r.code, 1, r.stdout);
      assert.ok(
        r.stderr.includes(
          `${rel} is not a folder, and ${settings} goes in it; nothing was written. Move it away and run it again.`,
        ),
        r.stderr,
      );
      assert.doesNotMatch(r.stderr, /ENOTDIR/);
    }
    assert.equal(readFileSync(path.join(dir, rel), 'utf8'), 'keep\n');
    assert.equal(existsSync(path.join(dir, '.gitignore')), false);
    assert.equal(existsSync(path.join(dir, '.claude/session-ledger')), false);
    // The extension says it in the user's language.
    const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, codex: rel === '.codex' });
    assert.equal(
      hooksProblemText(jaT, settings, plan.problem, plan.error ?? ''),
      `${settings} を変更できません: ${rel} はフォルダーではありませんが、Session Ledger のファイルはその中に置かれます。何も書き込んでいません。移動してからもう一度試してください。`,
    );
  }
});

test('a settings change racing the install is refused and the file is intact', async () => {
  const dir = workspace({ '.claude/settings.json': SETTINGS });
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  const theirs = SETTINGS.replace('"opus"', '"sonnet"');
  writeFileSync(path.join(dir, '.claude/settings.json'), theirs);
  await assert.rejects(applyHooksPlan(plan), (e: unknown) => e instanceof WriteRefused && e.reason === 'changed');
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), theirs);
  // And for uninstall.
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  const u = await planHooksUninstall(dir);
  writeFileSync(
    path.join(dir, '.claude/settings.json'),
    `${readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')} `,
  );
  await assert.rejects(applyHooksPlan(u), WriteRefused);
});

test('a crash between the temp write and the rename leaves the old settings intact', () => {
  const dir = workspace({ '.claude/settings.json': SETTINGS });
  const file = path.join(dir, '.claude/settings.json');
  // A real process, killed (SIGKILL) right before the rename.
  const script = `
    const { writeAtomic } = require(${JSON.stringify(path.join(REPO, 'out/src/core/files/atomic.js'))});
    writeAtomic(${JSON.stringify(file)}, 'half-installed', { expectHash: ${JSON.stringify(sha256(Buffer.from(SETTINGS)))}, beforeRename: () => process.kill(process.pid, 'SIGKILL') });
  `;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.signal, 'SIGKILL');
  assert.equal(readFileSync(file, 'utf8'), SETTINGS);
  // The next install still works over the leftover temp file.
  assert.equal(run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  assert.deepEqual(settingsOf(dir).hooks.SessionStart, [hookGroup('SessionStart')]);
});

test('the installed hook, run by plain node from a folder without node_modules: blocks without a marker, allows after checkpoint', () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  for (let d = dir; ; d = path.dirname(d)) {
    assert.equal(existsSync(path.join(d, 'node_modules')), false, `no node_modules above ${dir}`);
    if (path.dirname(d) === d) break;
  }
  assert.equal(run(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const env = {
    PATH: process.env.PATH,
    // A home of its own: the project is not the home folder (nothing of the tool's is written there).
    HOME: workspace({}),
    CLAUDE_CONFIG_DIR: emptyClaudeHome(),
    CLAUDE_PROJECT_DIR: dir,
    NODE_PATH: '',
  };
  // Exactly as Claude Code runs it: the command string from settings.json through a shell.
  const command = settingsOf(dir).hooks.PreCompact[0].hooks[0].command as string;
  const sh = (input: string) => spawnSync('/bin/sh', ['-c', command], { cwd: dir, input, env, encoding: 'utf8' });
  const blocked = sh(preCompact(dir));
  assert.equal(blocked.status, 2, blocked.stderr);
  assert.match(blocked.stderr, /Compaction stopped: no checkpoint has run in this session/);
  // The script named so that it runs from any folder (the project is outside the home folder).
  assert.ok(
    blocked.stderr.includes(`   ${shownProgram(scriptProgram(dir))} \\\n     checkpoint --session `),
    blocked.stderr,
  );
  const c = spawnSync(process.execPath, [SCRIPT_REL, 'checkpoint', '--session', SID, ...CONFIRM_ALL], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  assert.equal(c.status, 0, c.stderr);
  // S3's closing step: the hooks are installed here, so SessionStart hands the resume prompt over after /clear.
  assert.match(
    c.stdout,
    /^Handoff docs\/state\/STATE\.md checked\. Start a fresh session with \/clear: the SessionStart hook hands the agent the resume prompt/m,
  );
  const allowed = sh(preCompact(dir));
  assert.equal(allowed.status, 0, allowed.stderr);
  assert.equal(allowed.stderr, '');
  // The SessionStart hook through its own command.
  const ss = settingsOf(dir).hooks.SessionStart[0].hooks[0].command as string;
  const out = spawnSync('/bin/sh', ['-c', ss], {
    cwd: dir,
    input: JSON.stringify({
      session_id: SID,
      transcript_path: '/x.jsonl',
      cwd: dir,
      hook_event_name: 'SessionStart',
      source: 'clear',
    }),
    env,
    encoding: 'utf8',
  });
  assert.equal(out.status, 0, out.stderr);
  assert.match(JSON.parse(out.stdout).hookSpecificOutput.additionalContext, /Read docs\/state\/STATE\.md/);
  // The status line relay (the script's own hot commands) and a command of the embedded CLI.
  const status = {
    session_id: SID,
    // The checkpoint above ran in this turn of the agent's: it began before it.
    transcript_path: turnBegan(SID),
    cwd: dir,
    workspace: { project_dir: dir, current_dir: dir },
    context_window: {
      context_window_size: 200000,
      used_percentage: 42,
      current_usage: { input_tokens: 4000, cache_creation_input_tokens: 0, cache_read_input_tokens: 80000 },
    },
  };
  const sl = spawnSync(process.execPath, [SCRIPT_REL, 'statusline'], {
    cwd: dir,
    env,
    input: JSON.stringify(status),
    encoding: 'utf8',
  });
  assert.equal(sl.status, 0, sl.stderr);
  // S3 is present (urgent from 40 %), and this session's checkpoint ran above, after no answer since.
  assert.equal(sl.stdout, 'ctx 42% (84k/200k) · checkpoint done\n');
  assert.ok(existsSync(path.join(dir, '.claude', 'session-ledger', `statusline.${SID}.json`)));
  const st = spawnSync(process.execPath, [SCRIPT_REL, 'status', '--json'], { cwd: dir, env, encoding: 'utf8' });
  assert.equal(st.status, 0, st.stderr);
  assert.deepEqual(
    JSON.parse(st.stdout).systems.map((x: { id: string }) => x.id),
    ['S3'],
  );
  assert.equal(spawnSync(process.execPath, [SCRIPT_REL, 'nonsense'], { cwd: dir, env, encoding: 'utf8' }).status, 2);
});
