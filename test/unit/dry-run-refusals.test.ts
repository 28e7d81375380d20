// A dry run says what the write itself would refuse, with the same words and exit code: a link at a write
// lock (init's starter file, the hooks' install record), a starter folder that is a link into .git. Real CLI, real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { lockPath } from '../../src/core/files/lock';
import { INSTALL_RECORD_REL } from '../../src/core/hooks/install';
import { gitInit, HOOK_SCRIPT, workspace } from './helpers';
import { runIn } from './hostile-helpers';

const REFUSAL = /session-ledger\.lock is a symbolic link.*never writes its own files through a link/;

function linkAtLock(dir: string, rel: string): void {
  const lock = lockPath(path.join(dir, rel));
  mkdirSync(path.dirname(lock), { recursive: true });
  symlinkSync(path.relative(path.dirname(lock), path.join(dir, 'victim.md')), lock);
}

test('init --dry-run says it would refuse a link at its lock', async () => {
  const dir = workspace({ 'victim.md': 'keep\n' });
  linkAtLock(dir, 'docs/state/STATE.md');
  const dry = await runIn(['init', 'S3', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 1, dry.stdout);
  assert.match(dry.stderr, REFUSAL);
});

test("hooks install --dry-run says it would refuse a link at the install record's lock", async () => {
  const dir = workspace({ 'victim.md': 'keep\n' });
  gitInit(dir);
  linkAtLock(dir, INSTALL_RECORD_REL);
  const dry = await runIn(['hooks', 'install', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 1, dry.stdout);
  assert.match(dry.stderr, REFUSAL);
});

test("hooks uninstall --dry-run says it would refuse a link at the install record's lock", async () => {
  const dir = workspace({ 'victim.md': 'keep\n' });
  gitInit(dir);
  assert.equal((await runIn(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT])).code, 0);
  linkAtLock(dir, INSTALL_RECORD_REL);
  const dry = await runIn(['hooks', 'uninstall', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 1, dry.stdout);
  assert.match(dry.stderr, REFUSAL);
});

test('init --dry-run says it would refuse docs/state as a link into .git (the real run refuses it)', async () => {
  const dir = workspace({ 'victim.md': 'keep\n' });
  mkdirSync(path.join(dir, '.git/x'), { recursive: true });
  mkdirSync(path.join(dir, 'docs'));
  symlinkSync('../.git/x', path.join(dir, 'docs/state'));
  const real = await runIn(['init', 'S3', '--root', dir]);
  assert.equal(real.code, 1, 'control: the real run refuses');
  const dry = await runIn(['init', 'S3', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 1, dry.stdout);
  assert.match(dry.stderr, /is a link into \.git/);
});
