/**
 * What an attack round on `hooks install` / `uninstall` found, each from the user's own files: an
 * uninstall that deleted a settings file the user had (`{}`, a blank file, Codex's hooks.json) or
 * dropped their empty event lists; an install that wrote the script and the settings, then failed on
 * its record and said "nothing was written"; an uninstall that took out the .gitignore lines while the
 * tool's records were still there (the next `git add -A` committed session ids and transcript paths).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, HOOK_SCRIPT, workspace } from './helpers';

test("install then uninstall gives back the user's settings file byte for byte: {}, { }, a blank file, empty event lists, Codex's hooks.json", () => {
  const cases: Array<[string, string]> = [
    ['.claude/settings.json', '{}\n'],
    ['.claude/settings.json', '{ }\n'],
    ['.claude/settings.json', '{\n}'],
    ['.claude/settings.json', ''],
    ['.claude/settings.json', '  \n'],
    ['.claude/settings.json', '{\n  "hooks": {\n    "PreCompact": []\n  }\n}\n'],
    [
      '.claude/settings.json',
      '{\n  "model": "opus",\n  "hooks": {\n    "PreCompact": [],\n    "SessionStart": []\n  }\n}\n',
    ],
    ['.claude/settings.json', '{\n  "hooks": { // my hooks\n    "PreCompact": [ // none yet\n    ]\n  }\n}\n'],
    ['.codex/hooks.json', '{}\n'],
    ['.codex/hooks.json', '\t{ }\n\n'],
  ];
  for (const [rel, text] of cases) {
    const dir = workspace({ [rel]: text });
    const codex = rel.startsWith('.codex') ? ['--codex'] : [];
    assert.equal(cli(['hooks', 'install', '--root', dir, ...codex]).code, 0, JSON.stringify(text));
    assert.equal(cli(['hooks', 'uninstall', '--root', dir, ...codex]).code, 0, JSON.stringify(text));
    assert.ok(existsSync(path.join(dir, rel)), `${JSON.stringify(text)}: the file is still there`);
    assert.equal(readFileSync(path.join(dir, rel), 'utf8'), text);
  }
  // A file install created from nothing goes again.
  const fresh = workspace({});
  cli(['hooks', 'install', '--root', fresh]);
  cli(['hooks', 'uninstall', '--root', fresh]);
  assert.ok(!existsSync(path.join(fresh, '.claude/settings.json')));
});

test('install refuses before writing anything when its record cannot be written (a folder at install.json, a file at .claude/session-ledger)', () => {
  for (const make of [
    (d: string) => mkdirSync(path.join(d, '.claude/session-ledger/install.json'), { recursive: true }),
    (d: string) => {
      mkdirSync(path.join(d, '.claude'), { recursive: true });
      writeFileSync(path.join(d, '.claude/session-ledger'), '');
    },
  ]) {
    const dir = workspace({ '.claude/settings.json': '{}\n' });
    make(dir);
    const r = cli(['hooks', 'install', '--root', dir]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /nothing was written/);
    assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), '{}\n', 'the settings are untouched');
    assert.ok(!existsSync(path.join(dir, '.claude/hooks')), 'no script');
    assert.ok(!existsSync(path.join(dir, '.gitignore')), 'no .gitignore');
  }
});

test("uninstall keeps the .gitignore lines while the tool's records are still there, says so, and takes them out once they are gone", () => {
  const dir = workspace({ 'docs/state/STATE.md': '# State\n\n## Handoff\n\n- **Now ▶** x\n' });
  assert.equal(cli(['hooks', 'install', '--root', dir]).code, 0);
  writeFileSync(path.join(dir, '.claude/session-ledger/session.json'), '{"session_id":"abc"}\n');
  const r = cli(['hooks', 'uninstall', '--root', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /\.gitignore keeps its Session Ledger lines: \.claude\/session-ledger\/session\.json is still there/,
  );
  assert.match(readFileSync(path.join(dir, '.gitignore'), 'utf8'), /\.claude\/session-ledger\//);
  rmSync(path.join(dir, '.claude/session-ledger/session.json'));
  // The hook log's write lock, left by a hook that died holding it, is such a record too.
  const lock = '.claude/log/.session-ledger-hook.log.session-ledger.lock';
  mkdirSync(path.dirname(path.join(dir, lock)), { recursive: true });
  writeFileSync(path.join(dir, lock), '');
  const l = cli(['hooks', 'uninstall', '--root', dir]);
  assert.match(
    l.stdout,
    /\.gitignore keeps its Session Ledger lines: \.claude\/log\/\.session-ledger-hook\.log\.session-ledger\.lock is still there/,
  );
  rmSync(path.join(dir, lock));
  assert.equal(cli(['hooks', 'uninstall', '--root', dir]).code, 0);
  assert.ok(!existsSync(path.join(dir, '.gitignore')), 'the lines (and the file install created) are gone');
});

test('a file the tool rewrites keeps its mode: a group-writable settings.json and .gitignore stay 664 under a 022 umask (they became 644)', () => {
  const dir = workspace({ '.claude/settings.json': '{\n  "a": 1\n}\n', '.gitignore': 'x\n' });
  for (const f of ['.claude/settings.json', '.gitignore']) chmodSync(path.join(dir, f), 0o664);
  const old = process.umask(0o022);
  try {
    assert.equal(cli(['hooks', 'install', '--root', dir]).code, 0);
    for (const f of ['.claude/settings.json', '.gitignore'])
      assert.equal(statSync(path.join(dir, f)).mode & 0o777, 0o664, `${f} after install`);
    assert.equal(cli(['hooks', 'uninstall', '--root', dir]).code, 0);
    for (const f of ['.claude/settings.json', '.gitignore'])
      assert.equal(statSync(path.join(dir, f)).mode & 0o777, 0o664, `${f} after uninstall`);
  } finally {
    process.umask(old);
  }
});

test("Codex's hook run from a vendored project inside the user's, which ships a script of its own, runs the user's: the guard still blocks", () => {
  const dir = workspace({ 'docs/state/STATE.md': '# State\n\n## Handoff\n\n- **Now ▶** x\n' });
  assert.equal(cli(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const ran = path.join(dir, 'vendored-ran');
  const vendored = path.join(dir, 'vendor/lib');
  mkdirSync(path.join(vendored, '.codex/hooks'), { recursive: true });
  mkdirSync(path.join(vendored, 'src'), { recursive: true });
  writeFileSync(
    path.join(vendored, '.codex/hooks/session-ledger.cjs'),
    `require('fs').writeFileSync(${JSON.stringify(ran)}, 'ran'); process.stdout.write('{}');\n`,
  );
  const hooks = JSON.parse(readFileSync(path.join(dir, '.codex/hooks.json'), 'utf8')) as {
    hooks: { PreCompact: Array<{ hooks: Array<{ command: string }> }> };
  };
  const r = spawnSync('sh', ['-c', hooks.hooks.PreCompact[0].hooks[0].command], {
    cwd: path.join(vendored, 'src'),
    input: JSON.stringify({ session_id: '01a23c00-8b1f-7412-b10e-c12ea255a2b1', trigger: 'manual' }),
    encoding: 'utf8',
  });
  assert.ok(!existsSync(ran), "the vendored project's script did not run");
  assert.match(r.stdout, /"continue":false/);
});

test('a statusLine that names its command twice is refused untouched (install would wrap the first, Claude Code runs the last)', () => {
  const text = '{\n  "statusLine": {"type":"command","command":"echo A","command":"echo B"}\n}\n';
  const dir = workspace({ '.claude/settings.json': text });
  const r = cli(['hooks', 'install', '--statusline', '--root', dir]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /statusLine\."command" twice/);
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), text);
  assert.ok(!existsSync(path.join(dir, '.claude/hooks')));
});

test('a statusLine with an empty command comes back as it was after install --statusline and uninstall (the whole statusLine went)', () => {
  const text = '{\n  "statusLine": {"type":"command","command":"","padding":2}\n}\n';
  const dir = workspace({ '.claude/settings.json': text });
  assert.equal(cli(['hooks', 'install', '--statusline', '--root', dir]).code, 0);
  assert.equal(cli(['hooks', 'uninstall', '--root', dir]).code, 0);
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), text);
});
