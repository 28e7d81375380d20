/** What the walkthrough's hooks and checkpoint steps wait for, read from a real folder after the real install and checkpoint. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { applyHooksPlan, planHooksInstall, planHooksUninstall } from '../../src/core/hooks/install';
import { claudeGuardInstalled, walkthroughFacts } from '../../src/extension/pure/walkthrough-facts';
import { HOOK_SCRIPT, workspace, write } from './helpers';
import { CONFIRM_ALL, run, s3Workspace, SID } from './checkpoint-fixtures';

test('walkthrough facts: the guard hooks count once installed (shared or local settings) and no longer once removed', async () => {
  const dir = workspace({ '.claude/settings.json': '{ "model": "opus" }\n' });
  assert.deepEqual(await walkthroughFacts(dir), { hooksInstalled: false, hasCheckpoint: false });
  await applyHooksPlan(await planHooksInstall(dir, { local: true, cliBundle: HOOK_SCRIPT }));
  assert.equal((await walkthroughFacts(dir)).hooksInstalled, true, 'in .claude/settings.local.json');
  await applyHooksPlan(await planHooksUninstall(dir, { local: true }));
  assert.equal((await walkthroughFacts(dir)).hooksInstalled, false);
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  assert.equal((await walkthroughFacts(dir)).hooksInstalled, true, 'in .claude/settings.json');
});

test('walkthrough facts: a PreCompact hook of someone else, or a settings file that is not JSON, is not ours', async () => {
  const other = workspace({
    '.claude/settings.json':
      '{ "hooks": { "PreCompact": [ { "matcher": "", "hooks": [ { "type": "command", "command": "echo hi" } ] } ] } }',
  });
  assert.equal((await walkthroughFacts(other)).hooksInstalled, false);
  const broken = workspace({ '.claude/settings.json': '{ "hooks": [ session-ledger.cjs' });
  assert.equal((await walkthroughFacts(broken)).hooksInstalled, false);
  const dirAsFile = workspace({ '.claude/settings.json/x': '' });
  assert.deepEqual(await walkthroughFacts(dirAsFile), { hooksInstalled: false, hasCheckpoint: false });
});

test('walkthrough facts: a checkpoint counts once the CLI wrote its marker; a temp file of a write does not', async () => {
  const dir = s3Workspace();
  write(dir, '.claude/.checkpoint-ready.tmp', '');
  assert.equal((await walkthroughFacts(dir)).hasCheckpoint, false);
  const r = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await walkthroughFacts(dir)).hasCheckpoint, true);
});

test("the status bar's guard: installed for Claude Code when the folder's settings or the user's own settings call it; Codex's hooks are not Claude Code's", async () => {
  const home = workspace({});
  const dir = workspace({ '.claude/settings.json': '{ "model": "opus" }\n' });
  assert.equal(await claudeGuardInstalled(dir, home), false);
  await applyHooksPlan(await planHooksInstall(dir, { codex: true, cliBundle: HOOK_SCRIPT }));
  assert.equal(await claudeGuardInstalled(dir, home), false, 'only .codex/hooks.json');
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  assert.equal(await claudeGuardInstalled(dir, home), true, '.claude/settings.json');
  // The user's own settings calling the guard count too.
  const other = workspace({});
  write(home, 'settings.json', readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'));
  assert.equal(await claudeGuardInstalled(other, home), true, "the user's settings.json");
  // disableAllHooks keeps Claude Code from running it, but it is still installed: core claudeStops says
  // why it does not run (claude-stops.test.ts), and the status item says both.
  write(dir, '.claude/settings.local.json', '{ "disableAllHooks": true }\n');
  assert.equal(await claudeGuardInstalled(dir, home), true, 'installed, though not run');
});
