// A dry run says what the write itself would refuse, with the same words and exit code: a link at a write
// lock (init's starter file, the hooks' install record), a folder or FIFO there, a starter folder that is a link into
// .git, a Log archive folder that leads nowhere. Real CLI, real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { lockPath } from '../../src/core/files/lock';
import { INSTALL_RECORD_REL } from '../../src/core/hooks/install';
import { gitInit, HOOK_SCRIPT, workspace } from './helpers';
import { runIn } from './hostile-helpers';
import { s3StateOverBudget } from './checkpoint-fixtures';

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

test('a folder or a FIFO at a write lock: the dry run refuses as the write does (init, hooks install), not "Would write"', async () => {
  for (const what of ['folder', 'fifo'] as const) {
    for (const [args, rel, setup] of [
      [['init', 'S3'], 'docs/state/STATE.md', (_d: string) => {}],
      [['hooks', 'install'], INSTALL_RECORD_REL, (d: string) => gitInit(d)],
      [['hooks', 'install'], '.claude/settings.json', (d: string) => gitInit(d)],
    ] as const) {
      const dir = workspace({});
      setup(dir);
      const lock = lockPath(path.join(dir, rel));
      mkdirSync(path.dirname(lock), { recursive: true });
      if (what === 'folder') mkdirSync(lock);
      else execFileSync('mkfifo', [lock]);
      const real = await runIn([...args, '--root', dir, ...(args[0] === 'hooks' ? ['--cli-bundle', HOOK_SCRIPT] : [])]);
      assert.equal(real.code, 1, `${what} ${rel}: the real run refuses`);
      const dry = await runIn([...args, '--root', dir, '--dry-run']);
      assert.equal(dry.code, 1, `${what} ${rel}: ${dry.stdout}`);
      assert.match(dry.stderr, /session-ledger\.lock is not a regular file; nothing was written/, `${what} ${rel}`);
    }
  }
});

test('rotate-log with the Log archive folder a link that leads nowhere: the preview refuses, and --apply refuses and makes no folder where it points', async () => {
  const state = s3StateOverBudget();
  const dir = workspace({ 'docs/state/STATE.md': state });
  gitInit(dir);
  symlinkSync('nowhere', path.join(dir, 'docs/state/log'));
  const preview = await runIn(['rotate-log', '--root', dir]);
  assert.equal(preview.code, 1, preview.stdout);
  assert.match(preview.stderr, /a link that leads nowhere; nothing was written/);
  const apply = await runIn(['rotate-log', '--root', dir, '--apply']);
  assert.equal(apply.code, 1, apply.stdout);
  assert.ok(!existsSync(path.join(dir, 'docs/state/nowhere')), 'no folder made where the link points');
});

test('attest and enable-ledger --dry-run say what the write says, in its words, for a link at the lock and a folder there (the dry run wrote nothing and said nothing of a folder)', async () => {
  for (const [args, rel, files] of [
    [
      ['attest'],
      'memory/.session-handoff.sha256',
      { 'memory/session-handoff-LATEST.md': '# Handoff\n\n## Now\n- x\n' },
    ],
    [['enable-ledger'], '.agents.yml', { '.agents.yml': 'session:\n  ledger: false\n' }],
  ] as const) {
    for (const how of ['link', 'folder'] as const) {
      const dir = workspace({ 'victim.md': 'keep\n', ...files });
      if (how === 'link') linkAtLock(dir, rel);
      else mkdirSync(lockPath(path.join(dir, rel)), { recursive: true });
      const dry = await runIn([...args, '--root', dir, '--dry-run']);
      const real = await runIn([...args, '--root', dir]);
      assert.equal(real.code, 1, `control: the real run refuses (${args[0]}, ${how}): ${real.stdout}`);
      assert.equal(dry.code, 1, `${args[0]} --dry-run, ${how}: ${dry.stdout}`);
      assert.equal(dry.stderr, real.stderr, `${args[0]}, ${how}`);
    }
  }
});
