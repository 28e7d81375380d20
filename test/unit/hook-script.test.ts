import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { applyHooksPlan, CORE_REL, planHooksInstall, planHooksUninstall, SCRIPT_REL } from '../../src/core/hooks/install';
import { HOOK_CORE_NAME } from '../../src/core/hooks/files';
import { HOOK_SCRIPT, REPO, workspace } from './helpers';
import { emptyClaudeHome, preCompact, S3_STATE } from './checkpoint-fixtures';

const HOOK_CORE = path.join(path.dirname(HOOK_SCRIPT), HOOK_CORE_NAME);

test('the hook script committed into users\' repositories is at most 120 KB; its compressed core beside it at most 120 KB', () => {
  assert.ok(statSync(HOOK_SCRIPT).size <= 120 * 1024, `${HOOK_SCRIPT}: ${statSync(HOOK_SCRIPT).size} bytes`);
  assert.ok(statSync(HOOK_CORE).size <= 120 * 1024, `${HOOK_CORE}: ${statSync(HOOK_CORE).size} bytes`);
  // The status line's part holds no Markdown or YAML reader: those are in the core.
  const script = readFileSync(HOOK_SCRIPT, 'utf8');
  assert.doesNotMatch(script, /markdown-it|linkify|YAMLParseError/);
});

test('the extension takes the core from the hook script\'s two files instead of bundling a second copy', () => {
  const ext = path.join(REPO, 'dist', 'extension.js');
  if (!existsSync(ext)) return;
  const text = readFileSync(ext, 'utf8');
  assert.match(text, /require\("\.\/session-ledger\.cjs"\)/);
  // A development build names each module it holds in a `// path` line (`// table:path` when taken from the hook script).
  assert.doesNotMatch(text, /^\/\/ (node_modules\/(yaml|markdown-it)|src\/core\/(formats|checks))\//m);
});

function env(dir: string, tmp: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir, TMPDIR: tmp, CLAUDE_CONFIG_DIR: emptyClaudeHome(), CLAUDE_PROJECT_DIR: dir, NODE_PATH: '' };
}

test('install writes the script and its core byte for byte; a missing or foreign core lets the hooks allow, and install puts it back', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const tmp = workspace({}, 'sl-tmp-');
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.equal(plan.corePath, path.join(dir, CORE_REL));
  await applyHooksPlan(plan);
  assert.deepEqual(readFileSync(path.join(dir, CORE_REL)), readFileSync(HOOK_CORE));
  const node = (args: string[], input = '') => spawnSync(process.execPath, [SCRIPT_REL, ...args], { cwd: dir, env: env(dir, tmp), input, encoding: 'utf8' });
  assert.equal(node(['hook', 'pre-compact'], preCompact(dir)).status, 2, 'no marker: blocks');

  // A core of another build (a half-updated checkout): the hook allows, the other commands say why.
  writeFileSync(path.join(dir, CORE_REL), Buffer.from('not the core'));
  const hook = node(['hook', 'pre-compact'], preCompact(dir));
  assert.equal(hook.status, 0, hook.stderr);
  assert.match(hook.stderr, /belongs to another build.*hooks install.*Allowing/);
  const st = node(['status']);
  assert.equal(st.status, 2);
  assert.match(st.stderr, /session-ledger-core\.br belongs to another build/);
  // The status line needs no core.
  assert.equal(node(['context', '--json']).status, 3);

  const again = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.equal(again.script, 'write');
  await applyHooksPlan(again);
  assert.deepEqual(readFileSync(path.join(dir, CORE_REL)), readFileSync(HOOK_CORE));
  assert.equal(node(['hook', 'pre-compact'], preCompact(dir)).status, 2);

  const u = await planHooksUninstall(dir);
  assert.equal(u.script, 'remove');
  await applyHooksPlan(u);
  assert.equal(existsSync(path.join(dir, CORE_REL)), false);
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false);
});

test('the core, decompressed, and its code cache are written once into the user\'s own cache folder; a damaged cache is ignored', () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const tmp = workspace({}, 'sl-tmp-');
  const status = () => spawnSync(process.execPath, [HOOK_SCRIPT, 'status', '--json', '--root', dir], { env: env(dir, tmp), encoding: 'utf8' });
  const first = status();
  assert.equal(first.status, 0, first.stderr);
  const folders = readdirSync(tmp).filter((f) => f.startsWith('session-ledger-'));
  assert.equal(folders.length, 1);
  const folder = path.join(tmp, folders[0]);
  if (process.platform !== 'win32') assert.equal(statSync(folder).mode & 0o077, 0, 'not readable or writable by others');
  const files = readdirSync(folder).sort();
  assert.equal(files.length, 2, files.join(' '));
  const text = files.find((f) => f.endsWith('.js')) ?? '';
  const cache = files.find((f) => f.endsWith('.v8cache')) ?? '';
  assert.match(text, /^core-[0-9a-f]{20}\.js$/);
  assert.match(cache, /^core-[0-9a-f]{20}-.+\.v8cache$/);
  assert.deepEqual(readFileSync(path.join(folder, text)), zlib.brotliDecompressSync(readFileSync(HOOK_CORE)), 'the core, decompressed');
  writeFileSync(path.join(folder, cache), Buffer.from('garbage'));
  const second = status();
  assert.equal(second.status, 0, second.stderr);
  assert.equal(second.stdout, first.stdout);
  assert.ok(statSync(path.join(folder, cache)).size > 1000, 'rewritten after being rejected');
});
