/**
 * The tool's own files are never written through a link a repository planted: a symbolic link at
 * the file or at a folder on its way, or a file with more than one hard link, refuses the write (and
 * says so), writes nothing, and a dry run says what it would refuse. Each case starts from the
 * hostile repository: a link from one of the tool's paths to the agent's state file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { ownFileLinkProblem, writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { lockPath } from '../../src/core/files/lock';
import { sha256 } from '../../src/core/files/fsread';
import { attestFix } from '../../src/extension/pure/attest-fix';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { HOOK_LOG_REL } from '../../src/core/hooks/io';
import { sessionStartHook } from '../../src/core/hooks/session-start';
import { SESSION_RECORD_REL, SESSION_RECORDS_DIR_REL } from '../../src/core/hooks/session-record';
import {
  applyHooksPlan,
  INSTALL_RECORD_REL,
  planHooksInstall,
  planHooksUninstall,
  SCRIPT_REL,
  STATUSLINE_SCRIPT_REL,
} from '../../src/core/hooks/install';
import { feedPath } from '../../src/core/context/feed';
import { gitInit, HOOK_SCRIPT, workspace } from './helpers';
import { runIn } from './hostile-helpers';
import { preCompact, S3_STATE, s3StateOverBudget, s3Workspace, sessionStart, SID } from './checkpoint-fixtures';

const STATE = 'docs/state/STATE.md';

/** A git workspace with S3's STATE.md, and `rel` (one of the tool's paths) linked to it: symbolically, or hard. */
function planted(rel: string, how: 'symlink' | 'hardlink' | 'folder'): string {
  const dir = s3Workspace();
  const at = path.join(dir, rel);
  if (how === 'folder') {
    // The folder that holds the tool's file is a link to the state file's folder.
    mkdirSync(path.dirname(path.dirname(at)), { recursive: true });
    symlinkSync(path.join(dir, 'docs/state'), path.dirname(at));
    return dir;
  }
  mkdirSync(path.dirname(at), { recursive: true });
  if (how === 'symlink') symlinkSync(path.relative(path.dirname(at), path.join(dir, STATE)), at);
  else linkSync(path.join(dir, STATE), at);
  return dir;
}

/** The state file and its folder are as they were: nothing written through the link, nothing created beside it. */
function untouched(dir: string, what: string): void {
  assert.equal(readFileSync(path.join(dir, STATE), 'utf8'), S3_STATE, `${what}: STATE.md is unchanged`);
  assert.deepEqual(
    readdirSync(path.join(dir, 'docs/state')),
    ['STATE.md'],
    `${what}: nothing was created in docs/state`,
  );
}

const HOWS = ['symlink', 'hardlink', 'folder'] as const;

test('the hook log is never written through a link: the PreCompact guard still decides, the state file keeps its bytes', async () => {
  for (const how of HOWS) {
    const dir = planted(HOOK_LOG_REL, how);
    const d = await preCompactGuard(preCompact(dir), { root: dir });
    assert.equal(d.rule, 'no-marker', how);
    untouched(dir, `hook log (${how})`);
  }
});

test('the session records are never written through a link: SessionStart logs that it refused', async () => {
  for (const rel of [SESSION_RECORD_REL, `${SESSION_RECORDS_DIR_REL}/${SID}.json`]) {
    for (const how of HOWS) {
      const dir = planted(rel, how);
      const r = await sessionStartHook(sessionStart(dir, 'startup'), { root: dir });
      untouched(dir, `${rel} (${how})`);
      assert.match(
        r.log,
        /could not record the session: .*never writes its own files through a link/,
        `${rel} (${how})`,
      );
      assert.match(readFileSync(path.join(dir, HOOK_LOG_REL), 'utf8'), /link/, 'the hook log says so');
    }
  }
});

test('hooks install never writes the hook script or its install record through a link; --dry-run says it would refuse', async () => {
  for (const rel of [SCRIPT_REL, INSTALL_RECORD_REL]) {
    for (const how of HOWS) {
      const dir = planted(rel, how);
      const dry = await runIn(['hooks', 'install', '--root', dir, '--dry-run']);
      assert.equal(dry.code, 1, `${rel} (${how}) dry run: ${dry.stdout}`);
      assert.match(dry.stderr, /never writes its own files through a link/);
      const r = await runIn(['hooks', 'install', '--root', dir]);
      assert.equal(r.code, 1, `${rel} (${how}): ${r.stdout}`);
      assert.match(r.stderr, /never writes its own files through a link; nothing was written/);
      untouched(dir, `${rel} (${how})`);
      assert.equal(
        existsSync(path.join(dir, '.claude/settings.json')),
        false,
        `${rel} (${how}): no settings written either`,
      );
    }
  }
});

test('checkpoint never writes the marker through a link', async () => {
  for (const how of HOWS) {
    const dir = planted(`.claude/.checkpoint-ready.${SID}`, how);
    const r = await runIn(['checkpoint', '--root', dir, '--session', SID, '--nothing-to-preserve']);
    assert.equal(r.code, 1, `${how}: ${r.stdout}`);
    assert.match(r.stdout + r.stderr, /never writes its own files through a link/);
    untouched(dir, `marker (${how})`);
  }
});

test("checkpoint with a file where .claude, the marker's folder, should be: refused in its words, not ENOTDIR", async () => {
  for (const shared of [false, true]) {
    const dir = s3Workspace();
    rmSync(path.join(dir, '.claude'), { recursive: true, force: true });
    writeFileSync(path.join(dir, '.claude'), 'notes\n');
    const who = shared ? ['--shared'] : ['--session', SID];
    const r = await runIn(['checkpoint', '--root', dir, ...who, '--nothing-to-preserve']);
    assert.equal(r.code, 1, r.stdout);
    const marker = shared ? '.claude/.checkpoint-ready' : `.claude/.checkpoint-ready.${SID}`;
    assert.match(
      r.stdout + r.stderr,
      new RegExp(`\\.claude is not a folder, and ${marker.replace(/\./g, '\\.')} goes in it`),
    );
    assert.doesNotMatch(r.stdout + r.stderr, /ENOTDIR/);
    assert.equal(readFileSync(path.join(dir, '.claude'), 'utf8'), 'notes\n');
  }
});

test('attest never writes the S1 sidecar through a link; --dry-run says it would refuse', async () => {
  for (const how of ['symlink', 'hardlink'] as const) {
    const dir = s3Workspace({ 'memory/session-handoff-LATEST.md': '# Handoff\n\n## Now\n- x\n' });
    const at = path.join(dir, 'memory/.session-handoff.sha256');
    if (how === 'symlink') symlinkSync(`../${STATE}`, at);
    else linkSync(path.join(dir, STATE), at);
    const dry = await runIn(['attest', '--root', dir, '--dry-run']);
    assert.equal(dry.code, 1, dry.stdout);
    assert.match(dry.stderr, /memory\/\.session-handoff\.sha256 .*(symbolic link|hard links)/);
    const r = await runIn(['attest', '--root', dir]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /never writes its own files through a link/);
    // The dry run says what the write says, in its words.
    assert.equal(dry.stderr, r.stderr, how);
    untouched(dir, `sidecar (${how})`);
  }
});

test("the status line's record is never written through a link, and the status line still prints", async () => {
  for (const how of HOWS) {
    const dir = planted(feedPath('', SID), how);
    const input = JSON.stringify({
      session_id: SID,
      cwd: dir,
      workspace: { project_dir: dir },
      context_window: { context_window_size: 200000, current_usage: { input_tokens: 1000 } },
    });
    const r = await runIn(['statusline'], { stdin: input, cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    untouched(dir, `status line record (${how})`);
  }
});

test('writeAtomic with own: a link anywhere under the root refuses before any folder is made; a plain path is written', async () => {
  const dir = workspace({ 'victim/a.txt': 'keep\n' });
  symlinkSync(path.join(dir, 'victim'), path.join(dir, 'own'));
  await assert.rejects(
    writeAtomic(path.join(dir, 'own/new/file.json'), 'x', { root: dir, own: true }),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'link' && e.file === 'own/new/file.json',
  );
  assert.deepEqual(readdirSync(path.join(dir, 'victim')), ['a.txt'], 'no folder was made through the link');
  assert.equal(ownFileLinkProblem(path.join(dir, 'mine/file.json'), dir), null);
  await writeAtomic(path.join(dir, 'mine/file.json'), 'ok', { root: dir, own: true });
  assert.equal(readFileSync(path.join(dir, 'mine/file.json'), 'utf8'), 'ok');
  // The root itself may be reached through a link (a workspace opened by a linked path).
  const viaLink = `${dir}-link`;
  symlinkSync(dir, viaLink);
  await writeAtomic(path.join(viaLink, 'mine/file.json'), 'again', { root: viaLink, own: true });
  assert.equal(readFileSync(path.join(dir, 'mine/file.json'), 'utf8'), 'again');
});

/** `at` (a path of the tool's own) linked to the state file: symbolically, or hard. */
function linkToState(dir: string, at: string, how: 'symlink' | 'hardlink'): void {
  mkdirSync(path.dirname(at), { recursive: true });
  if (how === 'symlink') symlinkSync(path.relative(path.dirname(at), path.join(dir, STATE)), at);
  else linkSync(path.join(dir, STATE), at);
}

test('a link at the write lock beside the file: hooks install, attest and enable-ledger refuse, and their --dry-run says so', async () => {
  const HANDOFF = { 'memory/session-handoff-LATEST.md': '# Handoff\n\n## Now\n- x\n' };
  const cases: Array<{ name: string; lock: string; args: string[]; extra?: Record<string, string> }> = [
    { name: 'hooks install', lock: '.claude/settings.json', args: ['hooks', 'install'] },
    { name: 'attest', lock: 'memory/.session-handoff.sha256', args: ['attest'], extra: HANDOFF },
    { name: 'enable-ledger', lock: '.agents.yml', args: ['enable-ledger'] },
  ];
  for (const c of cases) {
    for (const how of ['symlink', 'hardlink'] as const) {
      const what = `${c.name}, lock (${how})`;
      const dir = s3Workspace(c.extra);
      linkToState(dir, lockPath(path.join(dir, c.lock)), how);
      const dry = await runIn([...c.args, '--root', dir, '--dry-run']);
      assert.equal(dry.code, 1, `${what} dry run: ${dry.stdout}`);
      assert.match(
        dry.stderr,
        /session-ledger\.lock (is a symbolic link|has 2 hard links).*never writes its own files through a link/,
        what,
      );
      const r = await runIn([...c.args, '--root', dir]);
      assert.equal(r.code, 1, `${what}: ${r.stdout}`);
      assert.match(r.stderr, /never writes its own files through a link; nothing was written/, what);
      untouched(dir, what);
      assert.equal(existsSync(path.join(dir, c.lock)), false, `${what}: ${c.lock} was not written`);
    }
  }
});

test('enable-ledger never writes .agents.yml through a link; --dry-run says it would refuse', async () => {
  for (const how of ['symlink', 'hardlink'] as const) {
    const dir = s3Workspace({ 'docs/agents.yml': 'session:\n  ledger: false\n' });
    const at = path.join(dir, '.agents.yml');
    if (how === 'symlink') symlinkSync('docs/agents.yml', at);
    else linkSync(path.join(dir, 'docs/agents.yml'), at);
    const dry = await runIn(['enable-ledger', '--root', dir, '--dry-run']);
    assert.equal(dry.code, 1, `${how} dry run: ${dry.stdout}`);
    assert.match(dry.stderr, /\.agents\.yml (is a symbolic link|has 2 hard links)/, how);
    const r = await runIn(['enable-ledger', '--root', dir]);
    assert.equal(r.code, 1, `${how}: ${r.stdout}`);
    assert.match(r.stderr, /never writes its own files through a link; nothing was written/, how);
    // The dry run says what the write says, in its words.
    assert.equal(dry.stderr, r.stderr, how);
    assert.equal(readFileSync(path.join(dir, 'docs/agents.yml'), 'utf8'), 'session:\n  ledger: false\n', how);
  }
  // A plain .agents.yml is written, and its dry run names no refusal.
  const dir = s3Workspace();
  writeFileSync(path.join(dir, '.agents.yml'), 'session:\n  ledger: false\n');
  assert.equal((await runIn(['enable-ledger', '--root', dir, '--dry-run'])).code, 0);
  assert.equal((await runIn(['enable-ledger', '--root', dir])).code, 0);
  assert.match(readFileSync(path.join(dir, '.agents.yml'), 'utf8'), /ledger: true/);
});

test('the extension\'s quick fix "Attest the handoff" never writes the S1 sidecar through a link: refused before it asks, nothing written', async () => {
  const HOME = 'memory/session-handoff-LATEST.md';
  const HANDOFF = '# Handoff\n\n## Now\n- x\n';
  const refused = (e: unknown) => e instanceof WriteRefused && e.reason === 'link';
  for (const how of ['symlink', 'hardlink', 'lock'] as const) {
    const dir = s3Workspace({ [HOME]: HANDOFF });
    const sidecar = path.join(dir, 'memory/.session-handoff.sha256');
    linkToState(dir, how === 'lock' ? lockPath(sidecar) : sidecar, how === 'lock' ? 'symlink' : how);
    let asked = 0;
    const ask = async () => (asked++, true);
    await assert.rejects(attestFix(dir, HOME, ask), refused, how);
    assert.equal(asked, 0, `${how}: nothing was asked`);
    untouched(dir, `quick fix attest (${how})`);
  }
  // `memory` links to another folder of the workspace: the handoff is read there, the sidecar not written.
  const dir = s3Workspace({ 'shared/memory/session-handoff-LATEST.md': HANDOFF });
  symlinkSync('shared/memory', path.join(dir, 'memory'));
  await assert.rejects(
    attestFix(dir, HOME, async () => true),
    refused,
  );
  assert.deepEqual(readdirSync(path.join(dir, 'shared/memory')), ['session-handoff-LATEST.md']);

  // A plain sidecar that holds another hash: written only once the user confirms.
  const ok = s3Workspace({ [HOME]: HANDOFF, 'memory/.session-handoff.sha256': '0'.repeat(64) });
  const at = path.join(ok, 'memory/.session-handoff.sha256');
  assert.equal((await attestFix(ok, HOME, async () => false)).kind, 'cancelled');
  assert.equal(readFileSync(at, 'utf8'), '0'.repeat(64));
  assert.equal((await attestFix(ok, HOME, async () => true)).kind, 'written');
  assert.equal(readFileSync(at, 'utf8'), sha256(Buffer.from(HANDOFF)));
});

test('hooks uninstall removes nothing through a link planted after its plan (while the extension shows the preview): refused, the files behind the link kept', async () => {
  for (const folder of ['.claude/hooks', '.claude/session-ledger']) {
    const dir = s3Workspace();
    await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true }));
    const plan = await planHooksUninstall(dir);
    assert.equal(plan.error, undefined);
    // The folder of the tool's files is swapped for a link to another folder holding files of those names.
    const elsewhere = workspace(
      { 'session-ledger.cjs': 'mine\n', 'session-ledger-statusline.cjs': 'mine\n', 'install.json': 'mine\n' },
      'sl-elsewhere-',
    );
    rmSync(path.join(dir, folder), { recursive: true });
    symlinkSync(elsewhere, path.join(dir, folder));
    await assert.rejects(
      applyHooksPlan(plan),
      (e: unknown) => e instanceof WriteRefused && e.reason === 'link',
      folder,
    );
    assert.deepEqual(
      readdirSync(elsewhere).sort(),
      ['install.json', 'session-ledger-statusline.cjs', 'session-ledger.cjs'],
      `${folder}: nothing removed through the link`,
    );
    assert.match(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), /PreCompact/, 'settings unchanged');
  }
});

test('hooks install writes nothing through a link planted at one of its files after its plan (while the extension shows the preview): refused, the state file kept', async () => {
  for (const own of [SCRIPT_REL, STATUSLINE_SCRIPT_REL, INSTALL_RECORD_REL]) {
    const dir = s3Workspace();
    const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true });
    assert.equal(plan.error, undefined);
    // While the user reads the preview, the repository's link appears at the tool's path: to the agent's state file.
    const state = path.join(dir, 'docs/state/STATE.md');
    mkdirSync(path.dirname(path.join(dir, own)), { recursive: true });
    symlinkSync(state, path.join(dir, own));
    await assert.rejects(applyHooksPlan(plan), (e: unknown) => e instanceof WriteRefused && e.reason === 'link', own);
    assert.equal(readFileSync(state, 'utf8'), S3_STATE, `${own}: the state file is kept`);
    assert.equal(existsSync(path.join(dir, '.claude/settings.json')), false, `${own}: no settings written`);
  }
});

test('a link at the write lock beside the file: rotate-log, compact-state, checkpoint, init and hooks uninstall refuse (their previews and dry runs say so), and the file it leads to keeps its bytes', async () => {
  const VICTIM = 'notes/keep.md';
  const KEEP = '# Mine\n\nnever written by Session Ledger\n';
  // S3's STATE.md over its 150-line budget, so that rotate-log has entries to move.
  const ROTATE = s3StateOverBudget();
  // S4's state with an older block of a kind a newer one replaces, so that compact-state has one to remove.
  const block = (name: string) =>
    `\n## Current Project: ${name}\n<!-- orchestra:block-id: ${name} -->\n\n### Context\n\n- Goal: ${name}.\n\n### Next Steps\n\n- ship ${name}\n\n---\n`;
  const S4 = `# Agent State\n\n## Main Agent\n\nClaude Code\n\n## Progress Tracker\n\nRolling progress summary: [PROGRESS.md](../PROGRESS.md)\n\n---\n${block('v1')}${block('v2')}`;
  const cases: Array<{
    name: string;
    files: Record<string, string>;
    lock: string;
    args: string[];
    dryRun?: string[];
    before?: (dir: string) => Promise<void>;
    /** Files the refused action must leave as they were (besides the link's target). */
    kept: string[];
    /** Files it must not have created. */
    absent: string[];
  }> = [
    {
      name: 'rotate-log',
      files: { 'docs/state/STATE.md': ROTATE },
      lock: 'docs/state/STATE.md',
      args: ['rotate-log', '--apply'],
      dryRun: ['rotate-log'],
      kept: ['docs/state/STATE.md'],
      absent: ['docs/state/log'],
    },
    {
      name: 'compact-state',
      files: { '.agents/STATE.md': S4 },
      lock: '.agents/STATE.md',
      args: ['compact-state', '--apply'],
      dryRun: ['compact-state'],
      kept: ['.agents/STATE.md'],
      absent: [],
    },
    {
      name: 'checkpoint',
      files: { 'docs/state/STATE.md': S3_STATE },
      lock: `.claude/.checkpoint-ready.${SID}`,
      args: ['checkpoint', '--session', SID, '--nothing-to-preserve'],
      kept: ['docs/state/STATE.md'],
      absent: [`.claude/.checkpoint-ready.${SID}`],
    },
    {
      name: 'init S3',
      files: {},
      lock: 'docs/state/STATE.md',
      args: ['init', 'S3'],
      dryRun: ['init', 'S3', '--dry-run'],
      kept: [],
      absent: ['docs/state/STATE.md'],
    },
    ...[INSTALL_RECORD_REL, '.claude/settings.json'].map((lock) => ({
      name: `hooks uninstall (the lock of ${lock})`,
      files: { 'docs/state/STATE.md': S3_STATE },
      lock,
      args: ['hooks', 'uninstall'],
      dryRun: ['hooks', 'uninstall', '--dry-run'],
      before: async (dir: string) => {
        const r = await runIn(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
        assert.equal(r.code, 0, r.stderr);
      },
      kept: ['.claude/settings.json', INSTALL_RECORD_REL, SCRIPT_REL],
      absent: [],
    })),
  ];
  for (const c of cases) {
    for (const how of ['symlink', 'hardlink'] as const) {
      const what = `${c.name}, lock (${how})`;
      const dir = workspace({ ...c.files, [VICTIM]: KEEP });
      gitInit(dir);
      await c.before?.(dir);
      const before = new Map(c.kept.map((rel) => [rel, readFileSync(path.join(dir, rel))]));
      const lock = lockPath(path.join(dir, c.lock));
      mkdirSync(path.dirname(lock), { recursive: true });
      if (how === 'symlink') symlinkSync(path.relative(path.dirname(lock), path.join(dir, VICTIM)), lock);
      else linkSync(path.join(dir, VICTIM), lock);
      if (c.dryRun) {
        const dry = await runIn([...c.dryRun, '--root', dir]);
        assert.equal(dry.code, 1, `${what} dry run: ${dry.stdout}`);
        assert.match(
          dry.stderr,
          /session-ledger\.lock (is a symbolic link|has 2 hard links).*never writes its own files through a link/,
          `${what} dry run`,
        );
      }
      const r = await runIn([...c.args, '--root', dir]);
      assert.equal(r.code, 1, `${what}: ${r.stdout}`);
      assert.match(
        r.stdout + r.stderr,
        /session-ledger\.lock (is a symbolic link|has 2 hard links).*never writes its own files through a link; nothing was written/,
        what,
      );
      assert.equal(
        readFileSync(path.join(dir, VICTIM), 'utf8'),
        KEEP,
        `${what}: the file the link leads to is unchanged`,
      );
      const st = lstatSync(lock);
      assert.ok(how === 'symlink' ? st.isSymbolicLink() : st.nlink === 2, `${what}: the link itself is still there`);
      for (const [rel, bytes] of before)
        assert.deepEqual(readFileSync(path.join(dir, rel)), bytes, `${what}: ${rel} is unchanged`);
      for (const rel of c.absent)
        assert.equal(existsSync(path.join(dir, rel)), false, `${what}: ${rel} was not written`);
    }
  }
});
