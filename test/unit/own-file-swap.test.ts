/**
 * The tool's own files when a folder on their way is swapped for a symbolic link at the very moment
 * between the tool's check of that way and its act (the create, the mkdir, the removal): on Linux the
 * folder is held open from the root down and the act names its file through that descriptor, so it
 * lands in, or removes from, the folder that was checked, and nothing is created, written or removed
 * where the link leads. Each swap is made certain by running it from inside the act's own file call.
 * Where folders cannot be held (no /proc), the checks by path still refuse a link that is already there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { removeOwn, writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { foldersHeld, holdByPathForTest } from '../../src/core/files/dirfd';
import { isRecordName, keepNewest, SESSION_FILES_KEPT } from '../../src/core/files/prune';
import { gitTracksEach } from '../../src/core/git/tracked';
import { HOOK_SCRIPT_NAME } from '../../src/core/hooks/files';
import { applyHooksPlan, planHooksInstall, planHooksUninstall } from '../../src/core/hooks/install';
import { appendHookLog, HOOK_LOG_REL } from '../../src/core/hooks/io';
import { SESSION_RECORD_REL, SESSION_RECORDS_DIR_REL } from '../../src/core/hooks/session-record';
import { HOOK_SCRIPT, whileActing, whileOpening, workspace } from './helpers';

const REMOVALS = new Set(['unlinkSync', 'rmSync', 'unlink', 'rm']);

/**
 * Run `fn` (its refusal let go) while the first file call `when` picks (an open, or a call `whileActing`
 * reports) first renames `folder` away and puts a link to `to` in its place.
 */
async function swappedAt(
  when: (file: string, call: string) => boolean,
  folder: string,
  to: string,
  fn: () => Promise<unknown>,
): Promise<unknown> {
  let swapped = false;
  let outcome: unknown;
  const swap = (file: string, call: string) => {
    if (swapped || !when(file, call)) return;
    swapped = true;
    renameSync(folder, `${folder}.orig`);
    symlinkSync(to, folder);
  };
  await whileOpening(
    (file) => swap(file, 'openSync'),
    () =>
      whileActing(swap, () =>
        fn().then(
          (r) => (outcome = r),
          (err: unknown) => (outcome = err),
        ),
      ),
  );
  assert.ok(swapped, 'the act was reached');
  return outcome;
}

test('folders are held by descriptor on Linux with /proc', () => {
  assert.equal(foldersHeld(), process.platform === 'linux' && existsSync('/proc/self/fd'));
});

test('the hook log: .claude/log swapped for a link at the open of the log creates no file where the link leads', async () => {
  const root = workspace({ '.claude/log/.keep': '' });
  const outside = workspace({});
  await swappedAt(
    (file, call) => call === 'openSync' && file.endsWith('/session-ledger-hook.log'),
    path.join(root, '.claude/log'),
    outside,
    () => appendHookLog(root, 'pre-compact', 'BLOCK'),
  );
  assert.deepEqual(readdirSync(outside), [], 'nothing created or written where the link leads');
  // The log may be made in the folder that was checked (moved away by the swap), but the line goes nowhere.
  const checked = path.join(root, '.claude/log.orig', path.basename(HOOK_LOG_REL));
  assert.ok(!existsSync(checked) || !readFileSync(checked, 'utf8').includes('BLOCK'));
});

test('a session record: .claude swapped for a link at the mkdir of its folder is refused, and no folder or file is made where the link leads', async () => {
  const root = workspace({ '.claude/settings.json': '{}\n' });
  const elsewhere = workspace({});
  const err = await swappedAt(
    (file, call) => call === 'mkdirSync' && file.endsWith(`${path.sep}session-ledger`),
    path.join(root, '.claude'),
    elsewhere,
    () => writeAtomic(path.join(root, SESSION_RECORD_REL), '{"session_id":"s"}\n', { root, own: true, durable: false }),
  );
  assert.ok(err instanceof WriteRefused && err.reason === 'link', String(err));
  assert.deepEqual(readdirSync(elsewhere), [], 'no folder made where the link leads');
});

test('hooks uninstall: .claude/hooks swapped for a link to another folder of the workspace at the removal of the hook script leaves the file of that name there', async () => {
  const root = workspace({ 'victim/.keep': '' });
  await applyHooksPlan(await planHooksInstall(root, { cliBundle: HOOK_SCRIPT }));
  const victim = path.join(root, 'victim', HOOK_SCRIPT_NAME);
  writeFileSync(victim, 'not the hook script\n');
  const plan = await planHooksUninstall(root);
  assert.equal(plan.script, 'remove');
  await swappedAt(
    (file, call) => REMOVALS.has(call) && path.basename(file) === HOOK_SCRIPT_NAME,
    path.join(root, '.claude/hooks'),
    path.join(root, 'victim'),
    () => applyHooksPlan(plan),
  );
  assert.equal(readFileSync(victim, 'utf8'), 'not the hook script\n', 'the file where the link leads is still there');
  // The removal was made in the folder that was checked (moved away by the swap).
  assert.deepEqual(readdirSync(path.join(root, '.claude/hooks.orig')), []);
});

test('pruning: sessions/ swapped for a link at the first removal removes nothing where the link leads', async () => {
  const root = workspace({});
  const dir = path.join(root, SESSION_RECORDS_DIR_REL);
  const outside = workspace({});
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 40; i++) {
    const name = `s-${String(i).padStart(2, '0')}.json`;
    for (const d of [dir, outside]) {
      writeFileSync(path.join(d, name), '{}\n');
      utimesSync(path.join(d, name), 1_700_000_000 + i, 1_700_000_000 + i);
    }
  }
  await swappedAt(
    (file, call) => REMOVALS.has(call) && file.endsWith('.json'),
    dir,
    outside,
    () => keepNewest(dir, root, isRecordName, gitTracksEach),
  );
  assert.equal(readdirSync(outside).length, 40, 'every file where the link leads stays');
  assert.equal(readdirSync(`${dir}.orig`).length, SESSION_FILES_KEPT, 'the folder checked was pruned');
});

test('pruning holds its folder by way of a record of one name: a link and a hard-linked file among the records stop nothing, and stay', async () => {
  const root = workspace({});
  const dir = path.join(root, SESSION_RECORDS_DIR_REL);
  const outside = workspace({ 'theirs.json': 'theirs\n' });
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 40; i++) {
    const f = path.join(dir, `s-${String(i).padStart(2, '0')}.json`);
    writeFileSync(f, '{}\n');
    utimesSync(f, 1_700_000_000 + i, 1_700_000_000 + i);
  }
  symlinkSync(path.join(outside, 'theirs.json'), path.join(dir, 'a-link.json'));
  linkSync(path.join(dir, 's-39.json'), path.join(outside, 'second-name.json'));
  await keepNewest(dir, root, isRecordName, gitTracksEach);
  const left = readdirSync(dir);
  assert.equal(left.filter((n) => n.startsWith('s-')).length, SESSION_FILES_KEPT);
  assert.ok(left.includes('a-link.json') && left.includes('s-39.json'));
  assert.equal(readFileSync(path.join(outside, 'theirs.json'), 'utf8'), 'theirs\n');
});

test('without /proc (folders held by path), a link already on the way still refuses a write, a removal and pruning', async () => {
  holdByPathForTest(true);
  try {
    assert.equal(foldersHeld(), false);
    const root = workspace({});
    const elsewhere = workspace({ 'session.json': 'theirs\n' });
    mkdirSync(path.join(root, '.claude'));
    symlinkSync(elsewhere, path.join(root, '.claude/session-ledger'));
    const file = path.join(root, SESSION_RECORD_REL);
    await assert.rejects(
      writeAtomic(file, '{}\n', { root, own: true }),
      (err: unknown) => err instanceof WriteRefused && err.reason === 'link',
    );
    assert.throws(
      () => removeOwn(file, root),
      (err: unknown) => err instanceof WriteRefused && err.reason === 'link',
    );
    for (let i = 0; i < 40; i++) writeFileSync(path.join(elsewhere, `s-${i}.json`), '{}\n');
    await keepNewest(path.join(root, '.claude/session-ledger'), root, isRecordName, gitTracksEach);
    assert.equal(readdirSync(elsewhere).length, 41);
    assert.equal(readFileSync(path.join(elsewhere, 'session.json'), 'utf8'), 'theirs\n');
    // A plain own file is written, made folders and all, and removed.
    const mine = path.join(root, '.claude/log/own.json');
    await writeAtomic(mine, 'x\n', { root, own: true });
    assert.equal(readFileSync(mine, 'utf8'), 'x\n');
    removeOwn(mine, root);
    assert.equal(existsSync(mine), false);
  } finally {
    holdByPathForTest(undefined);
  }
});
