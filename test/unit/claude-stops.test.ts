/**
 * Claude Code's own settings that keep it from running the installed hooks or from showing the relay
 * (core `claudeStops`), read from real files: a temp HOME, CLAUDE_CONFIG_DIR and, for the managed
 * settings, the folder SESSION_LEDGER_CLAUDE_MANAGED_DIR names (only the tests set it: Claude Code's
 * own is /etc/claude-code, which only root writes). What each setting does is what the real client
 * (2.1.332) did with it (`npm run test:claude` shows disableAllHooks keeping the guard from running).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { claudeStops, managedSettingsDir } from '../../src/core/hooks/client-settings';
import { holdsGuard } from '../../src/core/hooks/install';
import { statusView, type GuardView } from '../../src/extension/pure/status-text';
import { cli, contextUsage, HOOK_SCRIPT, jaT, koT, locale, workspace, write } from './helpers';

/** A user's world: HOME with its `.claude`, an empty managed folder, a project. */
function world(configDir = false) {
  const home = workspace({}, 'sl-home-');
  const managed = workspace({}, 'sl-managed-');
  const dir = workspace({ '.claude/settings.json': '{ "model": "opus" }\n' });
  const claude = configDir ? workspace({}, 'sl-claude-') : path.join(home, '.claude');
  mkdirSync(claude, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    SESSION_LEDGER_CLAUDE_MANAGED_DIR: managed,
    ...(configDir ? { CLAUDE_CONFIG_DIR: claude } : {}),
  };
  return { home, managed, dir, claude, env };
}

/** `hooks install` in `dir` says `said`, in its dry run and when it installs. */
function installSays(dir: string, env: NodeJS.ProcessEnv, said: string): void {
  const dry = cli(['hooks', 'install', '--root', dir, '--dry-run', '--cli-bundle', HOOK_SCRIPT], { env });
  assert.ok(dry.stdout.includes(said), `in the dry run: ${dry.stdout}`);
  const r = cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(said), r.stdout);
}

/** `hooks install` in `dir` says `key` (English: `said`) with `arg` in Japanese and Korean, each in words of its own. */
function installSaysInJaKo(dir: string, env: NodeJS.ProcessEnv, said: string, key: string, arg: string): void {
  for (const [lang, tr] of [
    ['ja_JP.UTF-8', jaT],
    ['ko_KR.UTF-8', koT],
  ] as const) {
    const l = cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT], {
      env: { ...env, ...locale(lang) },
    });
    const want = tr(key, arg);
    assert.notEqual(want, said, `${lang} has its words`);
    assert.ok(l.stdout.includes(want), l.stdout);
  }
}

const OFF = '{ "disableAllHooks": true }\n';

test('claudeStops: disableAllHooks true in the file that sets it last stops the hooks and the status line; a later false lets them run', async () => {
  const w = world();
  assert.deepEqual(await claudeStops(w.dir, { env: w.env }), { hooks: null, relay: null });
  write(w.claude, 'settings.json', OFF);
  const user = { file: '~/.claude/settings.json', setting: 'disableAllHooks', managed: false };
  assert.deepEqual(await claudeStops(w.dir, { env: w.env }), { hooks: user, relay: user });
  // The project's false, set after the user's true, lets them run (the client ran them).
  write(w.dir, '.claude/settings.json', '{ "disableAllHooks": false }\n');
  assert.deepEqual(await claudeStops(w.dir, { env: w.env }), { hooks: null, relay: null });
  write(w.dir, '.claude/settings.local.json', OFF);
  assert.deepEqual((await claudeStops(w.dir, { env: w.env })).hooks, {
    file: '.claude/settings.local.json',
    setting: 'disableAllHooks',
    managed: false,
  });
  // The managed settings' false comes last of all.
  write(w.managed, 'managed-settings.json', '{ "disableAllHooks": false }\n');
  assert.deepEqual(await claudeStops(w.dir, { env: w.env }), { hooks: null, relay: null });
});

test('claudeStops: the user folder is CLAUDE_CONFIG_DIR when set; only the boolean true counts, in a file the client takes (strict JSON)', async () => {
  const w = world(true);
  write(w.home, '.claude/settings.json', OFF);
  assert.equal((await claudeStops(w.dir, { env: w.env })).hooks, null, '~/.claude is not read under CLAUDE_CONFIG_DIR');
  write(w.claude, 'settings.json', OFF);
  assert.equal((await claudeStops(w.dir, { env: w.env })).hooks?.file, path.join(w.claude, 'settings.json'));
  // What the client does not take: a string, a comment, a trailing comma (the file is skipped whole).
  for (const text of [
    '{ "disableAllHooks": "true" }',
    '// mine\n{ "disableAllHooks": true }',
    '{ "disableAllHooks": true, }',
    '[true]',
    '{ "disableAllHooks": true, "disableAllHooks": false }',
  ]) {
    write(w.claude, 'settings.json', text);
    assert.equal((await claudeStops(w.dir, { env: w.env })).hooks, null, text);
  }
  // A byte-order mark it takes; a link it follows; a folder in the file's place says nothing.
  write(w.claude, 'settings.json', `\ufeff${OFF}`);
  assert.equal((await claudeStops(w.dir, { env: w.env })).hooks?.setting, 'disableAllHooks', 'BOM');
  const target = write(workspace({}), 'elsewhere.json', OFF);
  write(w.claude, 'settings.json', '{}');
  const linked = world();
  symlinkSync(target, path.join(linked.dir, '.claude', 'settings.local.json'));
  assert.equal((await claudeStops(linked.dir, { env: linked.env })).hooks?.file, '.claude/settings.local.json');
  mkdirSync(path.join(linked.claude, 'settings.json'));
  assert.equal((await claudeStops(linked.dir, { env: linked.env })).hooks?.file, '.claude/settings.local.json');
});

test("claudeStops: the managed settings' disableAllHooks and allowManagedHooksOnly (file or drop-in) stop ours whatever the user's files say", async () => {
  const w = world();
  const managedFile = path.join(w.managed, 'managed-settings.json');
  write(w.managed, 'managed-settings.json', OFF);
  write(w.dir, '.claude/settings.local.json', '{ "disableAllHooks": false }\n');
  const off = { file: managedFile, setting: 'disableAllHooks', managed: true };
  assert.deepEqual(await claudeStops(w.dir, { env: w.env }), { hooks: off, relay: off });
  write(w.managed, 'managed-settings.json', '{ "allowManagedHooksOnly": true }\n');
  write(w.claude, 'settings.json', OFF);
  const only = { file: managedFile, setting: 'allowManagedHooksOnly', managed: true };
  assert.deepEqual(
    await claudeStops(w.dir, { env: w.env }),
    { hooks: only, relay: only },
    'the managed switch is named',
  );
  // Not in the user's settings: there the client ignores it.
  write(w.managed, 'managed-settings.json', '{}');
  write(w.claude, 'settings.json', '{ "allowManagedHooksOnly": true }\n');
  assert.deepEqual(await claudeStops(w.dir, { env: w.env }), { hooks: null, relay: null });
  // A drop-in of managed-settings.d, over the base file.
  const dropIn = write(w.managed, 'managed-settings.d/10-hooks.json', '{ "allowManagedHooksOnly": true }\n');
  assert.deepEqual((await claudeStops(w.dir, { env: w.env })).hooks, {
    file: dropIn,
    setting: 'allowManagedHooksOnly',
    managed: true,
  });
});

test('a guard only in a settings file Claude Code skips (a comment or a trailing comma: not strict JSON) is not guarded: claudeStops names that file, and hooks install says so when it writes there', async () => {
  const w = world();
  const env = { ...w.env, CLAUDE_CONFIG_DIR: '' };
  // The project's settings with a comment the user wrote: install keeps it, so Claude Code skips the file.
  write(w.dir, '.claude/settings.json', '{\n  // the team\'s model\n  "model": "opus"\n}\n');
  const said =
    '/compact is not guarded: Claude Code skips .claude/settings.json, which holds the guard, because it is not strict JSON (a comment or a trailing comma makes it skip the whole file); remove them to let the guard run.';
  installSays(w.dir, env, said);
  const skipped = { file: '.claude/settings.json', setting: 'notJson', managed: false };
  assert.deepEqual((await claudeStops(w.dir, { env, holdsGuard })).hooks, skipped);
  // Not asked whether a file holds the guard, nothing is said of it (what a file the client skips sets says nothing).
  assert.equal((await claudeStops(w.dir, { env })).hooks, null);
  installSaysInJaKo(
    w.dir,
    env,
    said,
    '/compact is not guarded: Claude Code skips {0}, which holds the guard, because it is not strict JSON (a comment or a trailing comma makes it skip the whole file); remove them to let the guard run.',
    '.claude/settings.json',
  );
  // The guard also in a file the client takes: it runs from there.
  const local = cli(['hooks', 'install', '--local', '--root', w.dir, '--cli-bundle', HOOK_SCRIPT], { env });
  assert.equal(local.code, 0, local.stderr);
  assert.doesNotMatch(local.stdout, /not guarded/);
  assert.equal((await claudeStops(w.dir, { env, holdsGuard })).hooks, null);
  // A trailing comma alone does the same; the comment gone, the file is taken.
  write(w.dir, '.claude/settings.local.json', '{}\n');
  const text = readFileSync(path.join(w.dir, '.claude/settings.json'), 'utf8');
  write(w.dir, '.claude/settings.json', text.replace(/\n {2}\/\/ the team's model/, '').replace(/\n}\s*$/, ',\n}\n'));
  assert.deepEqual((await claudeStops(w.dir, { env, holdsGuard })).hooks, skipped);
  write(w.dir, '.claude/settings.json', text.replace(/\n {2}\/\/ the team's model/, ''));
  JSON.parse(readFileSync(path.join(w.dir, '.claude/settings.json'), 'utf8'));
  assert.equal((await claudeStops(w.dir, { env, holdsGuard })).hooks, null);
});

test("claudeStops: a managed statusLine is shown over the project's relay; the user's is not", async () => {
  const w = world();
  write(w.claude, 'settings.json', '{ "statusLine": { "type": "command", "command": "echo mine" } }\n');
  assert.deepEqual(await claudeStops(w.dir, { env: w.env }), { hooks: null, relay: null });
  write(w.managed, 'managed-settings.json', '{ "statusLine": { "type": "command", "command": "echo corp" } }\n');
  assert.deepEqual(await claudeStops(w.dir, { env: w.env }), {
    hooks: null,
    relay: { file: path.join(w.managed, 'managed-settings.json'), setting: 'statusLine', managed: true },
  });
});

test("the managed settings' folder is the platform's, as Claude Code reads it", () => {
  assert.equal(managedSettingsDir({}, 'linux'), '/etc/claude-code');
  assert.equal(managedSettingsDir({}, 'darwin'), '/Library/Application Support/ClaudeCode');
  assert.equal(managedSettingsDir({}, 'win32'), 'C:\\Program Files\\ClaudeCode');
});

test('hooks install says that /compact is not guarded when a setting of Claude Code keeps the guard from running, in English, Japanese and Korean', () => {
  const w = world();
  write(w.claude, 'settings.json', OFF);
  const env = { ...w.env, CLAUDE_CONFIG_DIR: '' };
  const said =
    '/compact is not guarded: disableAllHooks is true in ~/.claude/settings.json, so Claude Code runs no hooks; remove it to let the guard run.';
  installSays(w.dir, env, said);
  const again = cli(['hooks', 'install', '--root', w.dir, '--cli-bundle', HOOK_SCRIPT], { env });
  assert.ok(again.stdout.includes(said), `also when already installed: ${again.stdout}`);
  installSaysInJaKo(
    w.dir,
    env,
    said,
    '/compact is not guarded: disableAllHooks is true in {0}, so Claude Code runs no hooks; remove it to let the guard run.',
    '~/.claude/settings.json',
  );
  // Without the setting, nothing of it is said.
  write(w.claude, 'settings.json', '{}');
  const ok = cli(['hooks', 'install', '--root', w.dir, '--cli-bundle', HOOK_SCRIPT], { env });
  assert.doesNotMatch(ok.stdout, /not guarded/);
});

test("hooks install --statusline says that the managed settings' status line is shown over the relay", () => {
  const w = world();
  write(w.managed, 'managed-settings.json', '{ "statusLine": { "type": "command", "command": "echo corp" } }\n');
  const r = cli(['hooks', 'install', '--statusline', '--root', w.dir, '--cli-bundle', HOOK_SCRIPT], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(
    r.stdout.includes(
      `statusLine: the relay does not run: ${path.join(w.managed, 'managed-settings.json')}, the managed settings, sets a status line, which Claude Code shows instead, so Claude Code's own context figure is not recorded for the meter.`,
    ),
    r.stdout,
  );
  assert.doesNotMatch(r.stdout, /not guarded/, 'the guard runs');
});

const t = (m: string, ...args: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));
const usage = contextUsage();

test('the status item: an installed guard that Claude Code does not run is not guarded, with the file and the setting; never "would be stopped"', () => {
  const base: GuardView = { allow: false, rule: 'no-marker', marker: null, maxAgeMin: 480, installed: true };
  const stopped: GuardView = {
    ...base,
    stopped: { file: '.claude/settings.local.json', setting: 'disableAllHooks', managed: false },
  };
  const v = statusView(t, usage, { profile: 'S3', propose: 15, urgent: 40 }, 'urgent', stopped);
  assert.match(
    v.tooltip,
    /\$\(unlock\) \/compact is not guarded: disableAllHooks is true in `\.claude\/settings\.local\.json`, so Claude Code runs no hooks; remove it to let the guard run\./,
  );
  assert.match(v.label, /\/compact is not guarded: disableAllHooks is true in \.claude\/settings\.local\.json,/);
  for (const said of [v.tooltip, v.label]) assert.doesNotMatch(said, /would be stopped|would pass/);
  assert.doesNotMatch(v.tooltip, /command:sessionLedger\.installHooks/, 'installing again would not help');
  const managed = statusView(t, usage, { profile: 'S3', propose: 15, urgent: 40 }, 'urgent', {
    ...base,
    stopped: { file: '/etc/claude-code/managed-settings.json', setting: 'allowManagedHooksOnly', managed: true },
  });
  assert.match(
    managed.label,
    /\/compact is not guarded: allowManagedHooksOnly is true in \/etc\/claude-code\/managed-settings\.json, the managed settings, so Claude Code runs none of the project's hooks; only whoever manages this machine can lift it\./,
  );
  const relay = statusView(t, usage, { profile: 'S3', propose: 15, urgent: 40 }, 'urgent', {
    ...base,
    relayStopped: { file: '/etc/claude-code/managed-settings.json', setting: 'statusLine', managed: true },
  });
  assert.match(relay.tooltip, /\$\(circle-slash\) \/compact would be stopped by the guard/, 'the guard itself runs');
  assert.match(
    relay.tooltip,
    /\$\(warning\) statusLine: the relay does not run: `\/etc\/claude-code\/managed-settings\.json`/,
  );
});
