/**
 * The extension's Install / Remove guard hooks dialogs say every change the plan makes, in the words
 * of the CLI's dry run (one core plan, one set of sentences): the scripts, the settings file and the
 * `.gitignore` lines; a removal that has only `.gitignore` left to change asks about `.gitignore` and
 * previews it, not a settings file that is gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { changesSettings, planHooksInstall, planHooksUninstall, relOf } from '../../src/core/hooks/install';
import {
  codexInstalledText,
  hooksDialog,
  notesSaid,
  removalChoices,
  removedText,
} from '../../src/extension/pure/hooks-dialog';
import { cli, enT, HOOK_SCRIPT, jaT, koT, workspace } from './helpers';

/** The lines the CLI's dry run prints before its diff. */
function dryRun(args: string[]): string[] {
  const r = cli([...args, '--dry-run', '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const diff = lines.indexOf('');
  return diff < 0 ? lines : lines.slice(0, diff);
}

test('the install dialog says every change the plan makes in the dry run’s words: both scripts, the settings and the .gitignore lines', async () => {
  const dir = workspace({});
  const plan = await planHooksInstall(dir, { statusline: true, remind: true, cliBundle: HOOK_SCRIPT });
  const d = hooksDialog(plan, enT);
  // Every file the plan writes is named in the detail, and every line .gitignore gains.
  assert.ok(plan.gitignore, 'the plan adds to .gitignore');
  const files = [plan.settingsPath, plan.scriptPath, plan.statuslinePath, plan.gitignore.path].map((f) =>
    relOf(plan, f),
  );
  for (const f of files) assert.ok(d.detail.includes(f), `the dialog names ${f}:\n${d.detail}`);
  for (const l of plan.gitignore.lines) assert.ok(d.detail.includes(l), `the dialog names ${l}:\n${d.detail}`);
  // The same sentences as the CLI's dry run of the same install.
  assert.deepEqual(
    d.detail.split('\n'),
    dryRun(['hooks', 'install', '--statusline', '--remind', '--root', workspace({})]),
  );
  assert.equal(d.name, '.claude/settings.json');
  // In Japanese and Korean, the same sentences translated.
  assert.match(hooksDialog(plan, jaT).detail, /\.gitignore に追加します/);
  assert.match(hooksDialog(plan, koT).detail, /\.gitignore에 추가합니다/);
});

test("Install guard hooks for Codex says Codex's trust steps once, in the notice after the install (en, ja, ko): not in the dialog before it; on hooks found installed, beside that", async () => {
  const steps = /Trust and continue/g;
  const plan = await planHooksInstall(workspace({}), { codex: true, cliBundle: HOOK_SCRIPT });
  for (const [name, t] of [
    ['en', enT],
    ['ja', jaT],
    ['ko', koT],
  ] as const) {
    assert.doesNotMatch(hooksDialog(plan, t).detail, steps, name);
    const notice = codexInstalledText(plan, t, '.codex/hooks.json');
    assert.equal(notice.match(steps)?.length, 1, `${name}: ${notice}`);
    assert.ok(notice.startsWith(t('Guard hooks installed in {0}.', '.codex/hooks.json')), `${name}: ${notice}`);
    // What an install over installed hooks says beside "already installed".
    assert.equal(notesSaid(plan, t, true).join(' ').match(steps)?.length, 1, name);
  }
  assert.equal(
    codexInstalledText(plan, enT, '.codex/hooks.json'),
    'Guard hooks installed in .codex/hooks.json. Codex skips these hooks without a word until you trust them: start `codex` in this folder, choose "Trust and continue" for the folder, then "Trust all and continue" when it says "Hooks need review" (or review the two one by one; /hooks lists them any time).',
  );
});

test('a second Remove guard hooks, with only .gitignore left to change, asks about .gitignore, previews it and says the change', async () => {
  const dir = workspace({});
  assert.equal(cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  // A record of the tool's keeps the .gitignore lines through the first removal.
  const record = path.join(dir, '.claude/session-ledger/session.json');
  writeFileSync(record, '{}\n');
  assert.equal(cli(['hooks', 'uninstall', '--root', dir]).code, 0);
  rmSync(record);
  const plans = await Promise.all([
    planHooksUninstall(dir, { local: false }),
    planHooksUninstall(dir, { local: true }),
    planHooksUninstall(dir, { codex: true }),
  ]);
  // No hook file holds hooks: one plan is asked about, not a choice of three settings files.
  const choices = removalChoices(plans);
  assert.equal(choices.length, 1);
  const plan = choices[0];
  assert.ok(plan.changed && plan.gitignore && !changesSettings(plan));
  const d = hooksDialog(plan, enT);
  assert.equal(d.name, '.gitignore');
  assert.equal(d.question, 'Remove what the Session Ledger guard hooks left in .gitignore?');
  assert.deepEqual(d.detail.split('\n'), dryRun(['hooks', 'uninstall', '--root', dir]));
  assert.match(
    d.detail,
    /^Would remove from \.gitignore \(left empty: the file goes\): \.claude\/\.checkpoint-ready\*/,
  );
  assert.match(d.before ?? '', /^\.claude\/session-ledger\/$/m);
  assert.equal(d.after, '');
  assert.match(removedText(plan, enT), /^Removed from \.gitignore/);
});

test("the dialogs' notes are said in the user's language and name the extension's own commands, where the CLI names `hooks install` and `hooks uninstall`", async () => {
  const dir = workspace({
    '.claude/settings.json': '{ "statusLine": { "type": "command", "command": "echo mine" } }\n',
  });
  // Installing the relay around the user's own status line: the note says which command puts it back.
  const install = await planHooksInstall(dir, { statusline: true, cliBundle: HOOK_SCRIPT });
  const wraps = 'statusLine: the relay would wrap your command (echo mine); "Remove guard hooks" puts it back.';
  assert.ok(hooksDialog(install, enT).detail.split('\n').includes(wraps));
  assert.ok(
    dryRun(['hooks', 'install', '--statusline', '--root', dir]).includes(
      'statusLine: the relay would wrap your command (echo mine); `hooks uninstall` puts it back.',
    ),
  );
  assert.equal(cli(['hooks', 'install', '--statusline', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  // A record of the tool's left, and the status line's script edited since install wrote it.
  writeFileSync(path.join(dir, '.claude/session-ledger/session.json'), '{}\n');
  writeFileSync(path.join(dir, '.claude/hooks/session-ledger-statusline.cjs'), '// mine\n');
  const plan = await planHooksUninstall(dir);
  const d = hooksDialog(plan, enT).detail.split('\n');
  for (const line of [
    'statusLine: your command would come back (echo mine).',
    '.claude/hooks/session-ledger-statusline.cjs was changed since "Install guard hooks" wrote it, so it would be kept: delete it yourself once you no longer need it.',
    '.gitignore keeps its Session Ledger lines: .claude/session-ledger/session.json is still there. Delete it, then run "Remove guard hooks" again to take the lines out.',
  ])
    assert.ok(d.includes(line), `the dialog says: ${line}\n${d.join('\n')}`);
  assert.doesNotMatch(d.join('\n'), /hooks (un)?install/);
  // The CLI says the same notes with its own commands.
  const dry = dryRun(['hooks', 'uninstall', '--root', dir]);
  assert.ok(
    dry.includes(
      '.gitignore keeps its Session Ledger lines: .claude/session-ledger/session.json is still there. Delete it, then run `hooks uninstall` again to take the lines out.',
    ),
    dry.join('\n'),
  );
  // In Japanese and Korean every line is translated (the file names and the user's command stay), and names the command by its title there.
  for (const [tr, command] of [
    [jaT, '「ガードフックを削除」'],
    [koT, '"가드 훅 제거"'],
  ] as const) {
    const local = hooksDialog(plan, tr).detail.split('\n');
    assert.equal(local.length, d.length);
    local.forEach((l, i) => assert.notEqual(l, d[i], `translated: ${l}`));
    assert.ok(
      local.some((l) => l.includes(command) && l.includes('.claude/session-ledger/session.json')),
      local.join('\n'),
    );
  }
});

test('Remove guard hooks with the hooks in .claude/settings.json only: no choice of settings files is offered, the one that holds them is planned', async () => {
  const dir = workspace({});
  assert.equal(cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const plans = await Promise.all([
    planHooksUninstall(dir, { local: false }),
    planHooksUninstall(dir, { local: true }),
    planHooksUninstall(dir, { codex: true }),
  ]);
  // settings.local.json's plan only says the hooks are elsewhere: it is not offered beside the real one.
  assert.equal(plans[1].problem?.kind, 'elsewhere');
  const choices = removalChoices(plans);
  assert.deepEqual(
    choices.map((p) => path.relative(dir, p.settingsPath)),
    [path.join('.claude', 'settings.json')],
  );
  assert.ok(changesSettings(choices[0]));
});
