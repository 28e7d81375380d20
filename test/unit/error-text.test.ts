/**
 * The extension's sentence for an error (src/extension/pure/error-text.ts), through the Japanese
 * bundle: refused writes are worded from their reason and file, in the user's language, never
 * from the core's English message; errno and unknown errors keep their own message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { applyCompactState } from '../../src/core/systems/s4/compact-state';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { applyHooksPlan, planHooksInstall, planHooksUninstall } from '../../src/core/hooks/install';
import { sha256 } from '../../src/core/files/fsread';
import { markerRel } from '../../src/core/checkpoint/marker';
import { writeStarter } from '../../src/core/systems/starter';
import { outcomeMessage } from '../../src/extension/pure/checkpoint-text';
import { errorText, hooksProblemText } from '../../src/extension/pure/error-text';
import { CONFIRMED, emptyClaudeHome, SID } from './checkpoint-fixtures';
import { fixtureCopy, gitInit, HOOK_SCRIPT, jaT, refusal, workspace, write } from './helpers';

const ja = jaT;

test('a stale expectHash: "changed since it was read", the file relative to the workspace, in Japanese', async () => {
  const dir = workspace();
  const f = write(dir, 'docs/state/STATE.md', 'original');
  writeFileSync(f, 'changed by the agent');
  const err = await refusal(writeAtomic(f, 'mine', { root: dir, expectHash: sha256(Buffer.from('original')) }));
  assert.ok(err instanceof WriteRefused);
  assert.match(err.message, /changed since it was read/, 'the CLI still prints the English message');
  assert.equal(
    errorText(ja, err),
    `${path.join('docs', 'state', 'STATE.md')} は読み取り後に変更されました。何も書き込んでいません。もう一度お試しください。`,
  );
});

test('an existing file where none may be (expectHash null): "already exists"', async () => {
  const dir = workspace({ 'notes.md': 'mine\n' });
  const err = await refusal(writeAtomic(path.join(dir, 'notes.md'), 'x', { root: dir, expectHash: null }));
  assert.equal(errorText(ja, err), 'notes.md は既に存在します。上書きしていません。');
  assert.equal(readFileSync(path.join(dir, 'notes.md'), 'utf8'), 'mine\n');
});

test('a link that leads outside the workspace: "leads outside the workspace"', async () => {
  const dir = workspace();
  const outside = workspace({ 'settings.json': '{}' });
  mkdirSync(path.join(dir, '.claude'));
  symlinkSync(path.join(outside, 'settings.json'), path.join(dir, '.claude', 'settings.json'));
  const err = await refusal(writeAtomic(path.join(dir, '.claude', 'settings.json'), '{"x":1}', { root: dir }));
  assert.ok(err instanceof WriteRefused && err.reason === 'outside');
  assert.equal(
    errorText(ja, err),
    `${path.join('.claude', 'settings.json')} はワークスペースの外を指しています。何も書き込んでいません。`,
  );
  assert.equal(readFileSync(path.join(outside, 'settings.json'), 'utf8'), '{}');
});

test('a folder where the file should be: "not a regular file"', async () => {
  const dir = workspace();
  mkdirSync(path.join(dir, 'STATE.md'));
  const err = await refusal(writeAtomic(path.join(dir, 'STATE.md'), 'x', { root: dir }));
  assert.equal(errorText(ja, err), 'STATE.md は通常のファイルではありません。何も書き込んでいません。');
});

test('compacting a state that is gone, and a starter over an existing home file, in Japanese', async () => {
  const dir = workspace();
  assert.equal(
    errorText(ja, await refusal(applyCompactState(dir, '0'.repeat(64)))),
    '.agents/STATE.md が見つからないか、プレビューした内容がもうありません。何も書き込んでいません。',
  );
  write(dir, 'docs/state/STATE.md', 'mine\n');
  assert.equal(
    errorText(ja, await refusal(writeStarter(dir, 'S3'))),
    'docs/state/STATE.md は既に存在します。上書きしていません。',
  );
});

test('a checkpoint whose marker cannot be written: the refusal in Japanese, the CLI lines in English', async () => {
  const dir = fixtureCopy('s2/good');
  gitInit(dir);
  mkdirSync(path.join(dir, markerRel(SID)), { recursive: true });
  const o = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(o.kind, 'refused');
  assert.equal(o.refusals[0].code, 'write-failed');
  assert.match(o.refusals[0].error ?? '', /is not a regular file; nothing was written/);
  assert.match(o.lines.join('\n'), /is not a regular file/);
  assert.match(
    outcomeMessage(o, ja).text,
    new RegExp(`${markerRel(SID).replace(/\./g, '\\.')} は通常のファイルではありません。何も書き込んでいません。`),
  );
});

test('errno errors and unknown errors keep their own message', async () => {
  const dir = workspace({ 'a-file': 'x' });
  const err = await refusal(writeAtomic(path.join(dir, 'a-file', 'b.md'), 'x', { root: dir }));
  assert.equal((err as NodeJS.ErrnoException).code, 'ENOTDIR');
  assert.equal(errorText(ja, err), (err as Error).message);
  assert.equal(errorText(ja, new Error('git の出力がありません')), 'git の出力がありません');
  assert.equal(errorText(ja, 'thrown text'), 'thrown text');
  assert.equal(errorText(ja, undefined), 'undefined');
  // A refusal that names no file (the hook path's) falls back to its message too.
  assert.equal(errorText(ja, new WriteRefused('no bundled CLI to install', 'io')), 'no bundled CLI to install');
});

test("guard hooks that cannot be planned: the reason in Japanese from the plan's problem, the CLI's English error unchanged", async () => {
  const settings = path.join('.claude', 'settings.json');
  const planFor = async (text: string) => {
    const dir = workspace({ '.claude/settings.json': text });
    const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
    assert.ok(plan.error, text);
    return hooksProblemText(jaT, settings, plan.problem, plan.error);
  };
  assert.equal(
    await planFor('{ "a": 1,, }'),
    `${settings} は有効な JSON ではありません（1 行 10 列）: ダブルクォートで囲んだキーがあるべき所です（多くは余分なカンマか、引用符のないキー）。先に手で直してください。何も変更していません。`,
  );
  assert.equal(
    await planFor('[1]'),
    `${settings} は JSON オブジェクトではありません。先に手で直してください。何も変更していません。`,
  );
  assert.match(await planFor('{ "hooks": {}, "hooks": {} }'), /にはキー "hooks" が 2 回あります。/);
  assert.equal(
    await planFor('{ "hooks": 1 }'),
    `${settings} の「hooks」がオブジェクトではありません。先に手で直してください。何も変更していません。`,
  );
  assert.equal(
    await planFor('{ "hooks": { "PreCompact": {} } }'),
    `${settings} の「hooks.PreCompact」がリストではありません。先に手で直してください。何も変更していません。`,
  );

  // Installed in the local settings, removed from the shared ones: where they are.
  const dir = workspace();
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, local: true }));
  const un = await planHooksUninstall(dir);
  assert.match(un.error ?? '', /they are installed in \.claude\/settings\.local\.json/);
  assert.equal(
    hooksProblemText(jaT, settings, un.problem, un.error ?? ''),
    `${settings} には Session Ledger のフックがありません。フックは .claude/settings.local.json にインストールされています。`,
  );

  // A settings file that links out of the workspace: the refusal, worded by errorText.
  const linked = workspace();
  const outside = workspace({ 'settings.json': '{}' });
  mkdirSync(path.join(linked, '.claude'));
  symlinkSync(path.join(outside, 'settings.json'), path.join(linked, '.claude', 'settings.json'));
  const out = await planHooksInstall(linked, { cliBundle: HOOK_SCRIPT });
  assert.match(out.error ?? '', /leads outside the workspace/);
  assert.equal(
    hooksProblemText(jaT, settings, out.problem, out.error ?? ''),
    `${settings} を変更できません: ${settings} はワークスペースの外を指しています。何も書き込んでいません。`,
  );
});
