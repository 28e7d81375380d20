/**
 * The installed scripts' mode: exactly 0755 whatever the umask and whatever mode a script there had,
 * set on the written file's descriptor before its rename. A mode set by the path after the rename
 * follows a symbolic link planted there since (by anyone who can write .claude/hooks/) and changes
 * the mode of whatever the link leads to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, workspace, write } from './helpers';

const SCRIPTS = ['.claude/hooks/session-ledger.cjs', '.claude/hooks/session-ledger-statusline.cjs'];

/** `hooks install --statusline` on `dir` by the real CLI in a process of its own, each of `preloads` required first. */
function install(dir: string, preloads: string[], env: NodeJS.ProcessEnv = {}): void {
  const r = spawnSync(
    process.execPath,
    [...preloads.flatMap((p) => ['--require', p]), CLI, 'hooks', 'install', '--statusline', '--root', dir],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 },
  );
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
}

/** A preload that sets the process's umask to 077: a new file gets no bit for the group or others. */
function umask077(): string {
  return write(workspace({}, 'sl-umask-'), 'umask.cjs', 'process.umask(0o077);\n');
}

/** A workspace with both scripts already there (no install record: someone put them there), mode 0644. */
function scriptsAt0644(): string {
  const dir = workspace(Object.fromEntries(SCRIPTS.map((rel) => [rel, '#!/usr/bin/env node\n'])));
  for (const rel of SCRIPTS) chmodSync(path.join(dir, rel), 0o644);
  return dir;
}

test('the installed scripts are exactly 0755 under a 077 umask: new, and over scripts that were 0644', () => {
  const umask = umask077();
  for (const [what, dir] of [
    ['new', workspace({})],
    ['over 0644', scriptsAt0644()],
  ] as const) {
    install(dir, [umask]);
    for (const rel of SCRIPTS) {
      const st = lstatSync(path.join(dir, rel));
      assert.ok(st.isFile(), `${what}: ${rel} is a regular file`);
      assert.equal((st.mode & 0o7777).toString(8), '755', `${what}: ${rel}`);
    }
    // The umask still holds for the other files install writes (they are not scripts).
    assert.equal((statSync(path.join(dir, '.claude/settings.json')).mode & 0o777).toString(8), '600', what);
  }
});

test('hooks install never sets a mode by a path: no chmod or lchmod of its files (the mode goes on the descriptor)', () => {
  // Every mode call of the process recorded, each passed through to the real function.
  const spy = write(
    workspace({}, 'sl-spy-'),
    'spy.cjs',
    `const fs = require('node:fs'); const path = require('node:path'); const log = process.env.SL_MODE_LOG;
const note = (kind, target, mode) => fs.appendFileSync(log, JSON.stringify([kind, typeof target === 'number' ? target : path.resolve(String(target)), mode]) + '\\n');
for (const [obj, names] of [[fs, ['chmod', 'chmodSync', 'lchmod', 'lchmodSync', 'fchmod', 'fchmodSync']], [fs.promises, ['chmod', 'lchmod']]])
  for (const name of names) {
    const real = obj[name];
    if (typeof real !== 'function') continue;
    obj[name] = function (target, mode, ...rest) { note(name, target, mode); return real.call(this, target, mode, ...rest); };
  }
`,
  );
  for (const [what, dir] of [
    ['new', workspace({})],
    ['over 0644', scriptsAt0644()],
  ] as const) {
    const log = path.join(workspace({}, 'sl-spy-log-'), 'modes.jsonl');
    install(dir, [spy], { SL_MODE_LOG: log });
    const calls = existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as [string, string | number, number])
      : [];
    const byPath = calls.filter(([kind, target]) => !kind.startsWith('f') && typeof target === 'string');
    assert.deepEqual(
      byPath.filter(([, p]) => p === dir || (p as string).startsWith(dir + path.sep)),
      [],
      `${what}: a mode set by the path`,
    );
    // The spy sees the tool's own calls: both scripts got their mode on a descriptor.
    const onFd = calls.filter(([kind, , mode]) => kind.startsWith('fchmod') && mode === 0o755);
    assert.equal(onFd.length, 2, `${what}: ${JSON.stringify(calls)}`);
    for (const rel of SCRIPTS) assert.equal(statSync(path.join(dir, rel)).mode & 0o7777, 0o755, `${what}: ${rel}`);
  }
});

test('a link planted at a script the moment it is renamed into place: the file it leads to keeps its mode', () => {
  const dir = workspace({});
  const victim = write(workspace({}, 'sl-victim-'), 'private.txt', 'secret\n');
  chmodSync(victim, 0o600);
  // Right after each script's rename, the script is swapped for a link to a private file of the user's.
  const plant = write(
    workspace({}, 'sl-plant-'),
    'plant.cjs',
    `const fs = require('node:fs'); const rename = fs.renameSync;
fs.renameSync = function (from, to) {
  const r = rename.call(this, from, to);
  if (/session-ledger(-statusline)?\\.cjs$/.test(String(to))) { fs.unlinkSync(to); fs.symlinkSync(process.env.SL_VICTIM, to); }
  return r;
};
`,
  );
  install(dir, [plant], { SL_VICTIM: victim });
  assert.ok(lstatSync(path.join(dir, SCRIPTS[0])).isSymbolicLink(), 'the link was planted');
  assert.equal((statSync(victim).mode & 0o7777).toString(8), '600');
});
