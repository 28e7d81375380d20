/** hooks install|uninstall on settings files a user (or a repository) really has: duplicated keys, BOM, comments, typos; .gitignore. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { GITIGNORE_LINES } from '../../src/core/hooks/install';
import { CLI, REPO, workspace } from './helpers';
import { runIn } from './hostile-helpers';

const install = (dir: string, ...more: string[]) =>
  runIn(['hooks', 'install', '--root', dir, '--cli-bundle', CLI, ...more]);
const uninstall = (dir: string, ...more: string[]) => runIn(['hooks', 'uninstall', '--root', dir, ...more]);
const bytes = (dir: string, rel: string) =>
  existsSync(path.join(dir, rel)) ? readFileSync(path.join(dir, rel)) : null;

test('a settings.json with "hooks" twice is refused with a clear message (Claude Code reads the last one)', async () => {
  const text = '{\n  "hooks": {},\n  "model": "opus",\n  "hooks": {"Stop": []}\n}\n';
  const dir = workspace({ '.claude/settings.json': text });
  const r = await install(dir);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /has the key "hooks" twice: Claude Code reads the last one/);
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), text);
  const dir2 = workspace({ '.claude/settings.json': '{"hooks": {"PreCompact": [], "PreCompact": []}}' });
  assert.match((await install(dir2)).stderr, /has the key hooks\."PreCompact" twice/);
});

test('install then uninstall is byte-exact with a BOM, an existing empty "hooks": {}, and a comment inside hooks', async () => {
  for (const text of [
    '\uFEFF{\n  "model": "opus"\n}\n',
    '{\n  "model": "opus",\n  "hooks": {}\n}\n',
    '\uFEFF{\r\n  "hooks": {}\r\n}\r\n',
    '{\n  "hooks": {\n    // our team adds Stop hooks here\n  },\n  "model": "opus"\n}\n',
    '{\n  "hooks": { /* inline */ }\n}\n',
  ]) {
    const dir = workspace({ '.claude/settings.json': text, '.gitignore': 'node_modules/\n' });
    const before = bytes(dir, '.claude/settings.json');
    const r = await install(dir);
    assert.equal(r.code, 0, r.stderr);
    const installed = readFileSync(path.join(dir, '.claude/settings.json'), 'utf8');
    assert.match(installed, /PreCompact/);
    assert.equal(installed.startsWith('\uFEFF'), text.startsWith('\uFEFF'), 'the BOM is kept');
    const u = await uninstall(dir);
    assert.equal(u.code, 0, u.stderr);
    assert.deepEqual(bytes(dir, '.claude/settings.json'), before, JSON.stringify(text));
    assert.equal(readFileSync(path.join(dir, '.gitignore'), 'utf8'), 'node_modules/\n');
  }
});

test('a malformed settings.json: the error names its line and column', async () => {
  const dir = workspace({ '.claude/settings.json': '{\n  "model": "opus",\n  "hooks": {\n    "Stop": [,]\n  }\n}\n' });
  const r = await install(dir);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /settings\.json is not valid JSON at line 4, column 14: a value is expected there/);
});

test('uninstall after an install with --local says where the hooks are', async () => {
  const dir = workspace({});
  assert.equal((await install(dir, '--local')).code, 0);
  const u = await uninstall(dir);
  assert.equal(u.code, 1);
  assert.match(u.stderr, /installed in \.claude\/settings\.local\.json: add --local/);
  assert.equal((await uninstall(dir, '--local')).code, 0);
  assert.equal(existsSync(path.join(dir, '.claude')), false);
});

test('install proposes (dry run) and adds the .gitignore lines for its own files; uninstall removes exactly them', async () => {
  for (const gi of [null, 'dist/\n', 'dist/', '.claude/log/\n']) {
    const dir = workspace(gi === null ? {} : { '.gitignore': gi });
    const dry = await install(dir, '--dry-run');
    const expected = GITIGNORE_LINES.filter((l) => !(gi ?? '').includes(l));
    assert.match(
      dry.stdout,
      new RegExp(`Would add to \\.gitignore .*${expected.map((l) => l.replace(/[.*]/g, '\\$&')).join('  ')}`),
    );
    assert.deepEqual(bytes(dir, '.gitignore'), gi === null ? null : Buffer.from(gi), 'the dry run writes nothing');
    assert.equal((await install(dir)).code, 0);
    const after = readFileSync(path.join(dir, '.gitignore'), 'utf8');
    for (const l of GITIGNORE_LINES) assert.ok(after.split('\n').includes(l), `${l} is ignored`);
    assert.equal((await uninstall(dir)).code, 0);
    assert.deepEqual(
      bytes(dir, '.gitignore'),
      gi === null ? null : Buffer.from(gi),
      `byte-exact after uninstall (${JSON.stringify(gi)})`,
    );
  }
  // Nothing to add when .claude/ is ignored as a whole.
  const dir = workspace({ '.gitignore': '.claude/\n' });
  assert.doesNotMatch((await install(dir, '--dry-run')).stdout, /gitignore/);
});

test('.vscodeignore keeps every .claude file out of the package', () => {
  const lines = readFileSync(path.join(REPO, '.vscodeignore'), 'utf8').split('\n');
  assert.ok(lines.includes('.claude/**') || lines.includes('**/.claude/**'));
});
