/**
 * Every message of the write actions names a file of the workspace relative to its root, with `/`, as
 * the rest of the tool does: a refusal reached from a file changed between the read and the write (by
 * the user, or by a second writer) never prints the absolute path of the file. A path outside the
 * workspace (where a link leads) stays absolute. Real files in temp folders, through the real actions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { sha256 } from '../../src/core/files/fsread';
import {
  applyHooksPlan,
  planDiff,
  planHooksInstall,
  planHooksUninstall,
  SCRIPT_REL,
} from '../../src/core/hooks/install';
import { applyEnableLedger, planEnableLedger } from '../../src/core/systems/s0/enable';
import { applyAttest, planAttest } from '../../src/core/systems/s1/attest';
import { applyRotateLog, planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { HOOK_SCRIPT, refusal, workspace } from './helpers';

/** The refusal's English message, after checking it names no absolute path of the workspace `dir`. */
async function refusedWith(p: Promise<unknown>, dir: string): Promise<string> {
  const err = await refusal(p);
  assert.ok(err instanceof WriteRefused, String(err));
  assert.ok(!err.message.includes(dir), `the message names the workspace's absolute path: ${err.message}`);
  return err.message;
}

test('hooks install: the settings changed while the preview was open: the refusal names .claude/settings.json, and nothing is written (no hook script either)', async () => {
  const dir = workspace({ '.claude/settings.json': '{"model": "opus"}\n' });
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true });
  writeFileSync(path.join(dir, '.claude/settings.json'), '{"model": "sonnet"}\n');
  const said = await refusedWith(applyHooksPlan(plan), dir);
  assert.deepEqual(readdirSync(path.join(dir, '.claude')), ['settings.json'], 'no script, record or folder written');
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), '{"model": "sonnet"}\n');
  assert.equal(said, '.claude/settings.json changed since it was read; nothing was written. Run it again.');
});

test('hooks uninstall: the hook script edited after the plan: the refusal names .claude/hooks/session-ledger.cjs', async () => {
  const dir = workspace({ '.claude/settings.json': '{"model": "opus"}\n' });
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  const plan = await planHooksUninstall(dir);
  assert.equal(plan.script, 'remove');
  writeFileSync(path.join(dir, SCRIPT_REL), '// my own fix\n', { flag: 'a' });
  assert.equal(
    await refusedWith(applyHooksPlan(plan), dir),
    `${SCRIPT_REL} changed since it was read; nothing was written. Run it again.`,
  );
});

test('hooks uninstall: settings it would remove (install created them) changed after the plan: the refusal names .claude/settings.json', async () => {
  const dir = workspace();
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  const plan = await planHooksUninstall(dir);
  assert.ok(plan.deleteSettings);
  const file = path.join(dir, '.claude/settings.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('{', '{"model": "opus", '));
  assert.equal(
    await refusedWith(applyHooksPlan(plan), dir),
    '.claude/settings.json changed since it was read; nothing was written. Run it again.',
  );
});

test('hooks install and uninstall: settings it cannot edit are named relative to the workspace, in the plan and the dry run', async () => {
  const cases: Array<[string, string]> = [
    ['{"a": 1,', '.claude/settings.json is not valid JSON at line 1, column 9: '],
    ['[1]', '.claude/settings.json is not a JSON object'],
    ['{"a": 1, "a": 2}', '.claude/settings.json has the key "a" twice'],
    ['{"hooks": 1}', '"hooks" in .claude/settings.json is not an object'],
    ['{"hooks": {"PreCompact": 1}}', '"hooks.PreCompact" in .claude/settings.json is not an array'],
    [`${'['.repeat(20000)}${']'.repeat(20000)}`, '.claude/settings.json is nested too deeply'],
  ];
  for (const [text, said] of cases) {
    const dir = workspace({ '.claude/settings.json': text });
    const install = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
    assert.ok(install.error?.startsWith(said), `${said}: ${install.error}`);
    // Uninstall asks nothing of `hooks` itself.
    if (!said.startsWith('"hooks')) {
      const uninstall = await planHooksUninstall(dir);
      assert.ok(uninstall.error?.startsWith(said), `${said} (uninstall): ${uninstall.error}`);
    }
  }
  const codex = workspace({ '.codex/hooks.json': '[1]' });
  assert.ok(
    (await planHooksInstall(codex, { codex: true, cliBundle: HOOK_SCRIPT })).error?.startsWith(
      '.codex/hooks.json is not a JSON object',
    ),
  );
  // The dry run's diff names the file as the lines above it do.
  const dir = workspace({ '.claude/settings.json': '{"model": "opus"}\n' });
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.deepEqual(planDiff(plan).slice(0, 2), ['--- .claude/settings.json', '+++ .claude/settings.json']);
});

test('hooks install: settings that are a link out of the workspace: named relative, where it leads absolute', async () => {
  const dir = workspace();
  const outside = workspace({ 'settings.json': '{}' });
  mkdirSync(path.join(dir, '.claude'));
  symlinkSync(path.join(outside, 'settings.json'), path.join(dir, '.claude/settings.json'));
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.equal(
    plan.error,
    `.claude/settings.json leads outside the workspace (to ${path.join(outside, 'settings.json')}); nothing was written.`,
  );
});

test('enable-ledger: .agents.yml changed after the preview: the refusal names .agents.yml', async () => {
  const dir = workspace({ '.agents.yml': 'session:\n  ledger: false\n' });
  const p = await planEnableLedger(dir);
  assert.ok(p.ok);
  writeFileSync(path.join(dir, '.agents.yml'), 'session:\n  ledger: false\nother: 1\n');
  assert.equal(
    await refusedWith(applyEnableLedger(dir, p.plan), dir),
    '.agents.yml changed since it was read; nothing was written. Run it again.',
  );
});

const HANDOFF = '# Session Handoff\n\n## What to do now (priority order)\n1. trim MEMORY.md\n';

test('attest: the handoff changed while it was attested, or the sidecar since the plan: the refusal names the file relative', async () => {
  const dir = workspace({ 'memory/session-handoff-LATEST.md': HANDOFF });
  const plan = await planAttest(dir);
  assert.ok(plan);
  writeFileSync(path.join(dir, 'memory/session-handoff-LATEST.md'), `${HANDOFF}2. and one more\n`);
  assert.equal(
    await refusedWith(applyAttest(plan), dir),
    'memory/session-handoff-LATEST.md changed while it was being attested; nothing was written. Run it again.',
  );
  const again = await planAttest(dir);
  assert.ok(again);
  writeFileSync(path.join(dir, 'memory/.session-handoff.sha256'), 'written by someone else');
  assert.equal(
    await refusedWith(applyAttest(again), dir),
    'memory/.session-handoff.sha256 already exists; nothing was overwritten. Run it again.',
  );
});

const entry = (date: string, title: string, n: number) =>
  `\n### ${date} - ${title}\n\n${Array.from({ length: n }, (_, i) => `- ${title}: step ${i + 1}`).join('\n')}\n`;
const STATE =
  '# STATE: live project state\n\n## Handoff: read this first\n\n- **Now ▶** wire the Stop hook\n\n## Log\n' +
  [
    entry('2026-08-03', 'stop hook', 40),
    entry('2026-08-01', 'checkpoint skill', 40),
    entry('2026-07-20', 'agent file cap', 40),
    entry('2026-07-02', 'budgets', 40),
  ].join('');

test('rotate-log: STATE.md changed, or hard-linked elsewhere, between the read and the rename: the refusal names docs/state/STATE.md', async () => {
  const dir = workspace({ 'docs/state/STATE.md': STATE });
  const file = path.join(dir, 'docs/state/STATE.md');
  const plan = await planRotateLog(dir);
  assert.ok(plan?.changed);
  assert.equal(
    await refusedWith(
      applyRotateLog(dir, plan.hash, { beforeStateRename: () => writeFileSync(file, `${STATE}- the agent\n`) }),
      dir,
    ),
    'docs/state/STATE.md changed since it was read; nothing was written. Run it again.',
  );
  writeFileSync(file, STATE);
  const elsewhere = workspace({}, 'sl-elsewhere-');
  const again = await planRotateLog(dir);
  assert.ok(again?.changed);
  const message = await refusedWith(
    applyRotateLog(dir, again.hash, { beforeStateRename: () => linkSync(file, path.join(elsewhere, 'other')) }),
    dir,
  );
  assert.match(message, /^docs\/state\/STATE\.md has 2 hard links, so it may be a file from outside the workspace/);
});

test('a file created by a second writer before the rename (a starter, a preview): "already exists", named relative', async () => {
  const dir = workspace();
  const file = path.join(dir, 'docs/state/STATE.md');
  assert.equal(
    await refusedWith(
      writeAtomic(file, 'the starter', {
        root: dir,
        expectHash: null,
        beforeRename: () => writeFileSync(file, 'mine'),
      }),
      dir,
    ),
    'docs/state/STATE.md already exists; nothing was overwritten. Run it again.',
  );
  assert.equal(readFileSync(file, 'utf8'), 'mine');
  // Without a root the writer knows no workspace: the path stays as it was given.
  const other = path.join(dir, 'other.md');
  writeFileSync(other, 'v1');
  const err = await refusal(
    writeAtomic(other, 'v2', { expectHash: sha256(Buffer.from('v1')), beforeRename: () => writeFileSync(other, 'x') }),
  );
  assert.ok(err instanceof WriteRefused);
  assert.equal(err.message, `${other} changed since it was read; nothing was written. Run it again.`);
});
