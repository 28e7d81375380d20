import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { readTextFile, sha256 } from '../../src/core/files/fsread';
import { workspace, write } from './helpers';

test('reads text, strips a BOM, reports CRLF and hashes the raw bytes', async () => {
  const dir = workspace();
  const raw = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\r\n')]);
  const f = write(dir, 'x.md', raw);
  const r = await readTextFile(f);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.text, 'a\r\nb\r\n');
  assert.equal(r.bom, true);
  assert.equal(r.crlf, true);
  assert.equal(r.hash, sha256(raw));
});

test('binary, not UTF-8, directory, missing, symlink loop each say what they are', async () => {
  const dir = workspace();
  const bin = write(dir, 'bin.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
  const latin = write(dir, 'latin.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  mkdirSync(path.join(dir, 'adir.md'));
  symlinkSync(path.join(dir, 'loop2'), path.join(dir, 'loop1'));
  symlinkSync(path.join(dir, 'loop1'), path.join(dir, 'loop2'));
  assert.equal(((await readTextFile(bin)) as { kind: string }).kind, 'binary');
  assert.equal(((await readTextFile(latin)) as { kind: string }).kind, 'not-utf8');
  assert.equal(((await readTextFile(path.join(dir, 'adir.md'))) as { kind: string }).kind, 'directory');
  assert.equal(((await readTextFile(path.join(dir, 'none.md'))) as { kind: string }).kind, 'missing');
  assert.equal(((await readTextFile(path.join(dir, 'loop1'))) as { kind: string }).kind, 'loop');
});

test('a huge file is read up to the limit, cut on a character boundary', async () => {
  const dir = workspace();
  const f = write(dir, 'big.md', '한'.repeat(1000)); // 3 bytes each
  const r = await readTextFile(f, 1000);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.truncated, true);
  assert.equal(r.text, '한'.repeat(333));
});

test('permission denied is a finding, not a throw (as root: read by `nobody` in a child process)', async () => {
  const dir = workspace();
  chmodSync(dir, 0o755);
  const f = write(dir, 'secret.md', 'x');
  chmodSync(f, 0);
  if (process.getuid?.() !== 0) {
    assert.equal(((await readTextFile(f)) as { kind: string }).kind, 'permission');
    return;
  }
  // Root reads every file whatever its mode, so the read runs as `nobody` (uid/gid 65534, set by
  // spawn itself), from a copy of this module that every user can read (the clone may be private).
  const lib = workspace({}, 'sl-lib-');
  chmodSync(lib, 0o755);
  const mod = path.join(lib, 'fsread.js');
  copyFileSync(require.resolve('../../src/core/files/fsread'), mod);
  chmodSync(mod, 0o644);
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(mod)}).readTextFile(${JSON.stringify(f)}).then((r) => process.stdout.write(JSON.stringify(r)))`,
    ],
    { uid: 65534, gid: 65534, cwd: '/', encoding: 'utf8', timeout: 30_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).kind, 'permission');
});
