// A dry run says what the write itself would refuse, with the same words and exit code: a link at a write
// lock (init's starter file, the hooks' install record), a folder or FIFO there, a starter folder that is a link into
// .git, a Log archive folder that leads nowhere. Real CLI, real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { lockPath } from '../../src/core/files/lock';
import { sha256 } from '../../src/core/files/fsread';
import { INSTALL_RECORD_REL } from '../../src/core/hooks/install';
import { git, gitInit, HOOK_SCRIPT, workspace } from './helpers';
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

/** Every write action's dry run or preview, then its real run (`hash`: the state file's bytes, for --expect-hash). */
const WRITES: Array<{
  name: string;
  rel: string;
  files: Record<string, string>;
  setup?: (dir: string) => Promise<unknown>;
  dry: string[];
  real: (dir: string) => string[];
}> = [
  {
    name: 'attest',
    rel: 'memory/.session-handoff.sha256',
    files: { 'memory/session-handoff-LATEST.md': '# Handoff\n\n## Now\n- x\n' },
    dry: ['attest', '--dry-run'],
    real: () => ['attest'],
  },
  {
    name: 'enable-ledger',
    rel: '.agents.yml',
    files: { '.agents.yml': 'session:\n  ledger: false\n' },
    dry: ['enable-ledger', '--dry-run'],
    real: () => ['enable-ledger'],
  },
  { name: 'init', rel: 'docs/state/STATE.md', files: {}, dry: ['init', 'S3', '--dry-run'], real: () => ['init', 'S3'] },
  {
    name: 'hooks install',
    rel: '.claude/settings.json',
    files: {},
    dry: ['hooks', 'install', '--dry-run'],
    real: () => ['hooks', 'install', '--cli-bundle', HOOK_SCRIPT],
  },
  {
    name: 'hooks uninstall',
    rel: '.claude/settings.json',
    files: {},
    setup: (dir) => runIn(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]),
    dry: ['hooks', 'uninstall', '--dry-run'],
    real: () => ['hooks', 'uninstall'],
  },
  {
    name: 'rotate-log',
    rel: 'docs/state/STATE.md',
    files: { 'docs/state/STATE.md': s3StateOverBudget() },
    dry: ['rotate-log'],
    real: (dir) => [
      'rotate-log',
      '--apply',
      '--expect-hash',
      sha256(readFileSync(path.join(dir, 'docs/state/STATE.md'))),
    ],
  },
  {
    name: 'compact-state',
    rel: '.agents/STATE.md',
    files: {
      '.agents/STATE.md': ['a', 'b']
        .map(
          (n) =>
            `\n## Current Project: ${n}\n<!-- orchestra:block-id: ${n} -->\n\n### Next Steps\n\n- step ${n}\n\n---\n`,
        )
        .join('')
        .replace(/^/, '# Agent State\n\n## Main Agent\n\nClaude Code\n\n---\n'),
    },
    dry: ['compact-state'],
    real: (dir) => [
      'compact-state',
      '--apply',
      '--expect-hash',
      sha256(readFileSync(path.join(dir, '.agents/STATE.md'))),
    ],
  },
];

test('a write lock git tracks (it came with the repository): every dry run and preview refuses as the write does, in its words, not "Would write"', async () => {
  const TRACKED =
    /session-ledger\.lock is tracked by git: it came with the repository, so it is no lock of a run on this machine; nothing was written/;
  for (const w of WRITES) {
    const dir = workspace(w.files);
    gitInit(dir);
    await w.setup?.(dir);
    const lock = lockPath(path.join(dir, w.rel));
    mkdirSync(path.dirname(lock), { recursive: true });
    writeFileSync(lock, '4242 2026-01-01T00:00:00.000Z\n');
    git(dir, 'add', '-f', path.relative(dir, lock));
    const dry = await runIn([...w.dry, '--root', dir]);
    const real = await runIn([...w.real(dir), '--root', dir]);
    assert.equal(real.code, 1, `control: ${w.name} refuses: ${real.stdout}${real.stderr}`);
    assert.match(real.stderr, TRACKED, w.name);
    assert.equal(dry.code, 1, `${w.name}: ${dry.stdout}`);
    assert.match(dry.stderr, TRACKED, w.name);
  }
});

test('a folder where attest writes its sidecar: the dry run refuses as the write does, in its words, naming the file in the workspace', async () => {
  const dir = workspace({ 'memory/session-handoff-LATEST.md': '# Handoff\n\n## Now\n- x\n' });
  mkdirSync(path.join(dir, 'memory/.session-handoff.sha256'));
  const dry = await runIn(['attest', '--root', dir, '--dry-run']);
  const real = await runIn(['attest', '--root', dir]);
  assert.equal(real.code, 1, `control: the real run refuses: ${real.stdout}`);
  assert.equal(
    real.stderr,
    'session-ledger attest: memory/.session-handoff.sha256 is not a regular file; nothing was written.\n',
  );
  assert.equal(dry.code, 1, dry.stdout);
  assert.equal(dry.stderr, real.stderr);
});
