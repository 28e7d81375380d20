/**
 * A write lock the repository commits (naming pid 1, or any pid alive here) is no run on this
 * machine: a lock file git tracks is refused at once, naming it and saying to untrack and delete it,
 * never waited for and never taken over. A lock that is waited for too long is refused naming the
 * lock file, and saying that if no Session Ledger run is going on, deleting it lets the write go on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { WriteRefused } from '../../src/core/files/atomic';
import { lockPath, withWriteLock } from '../../src/core/files/lock';
import { sha256 } from '../../src/core/files/fsread';
import { errorText } from '../../src/extension/pure/error-text';
import { planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { SID } from './checkpoint-fixtures';
import { cli, gitInit, HOOK_SCRIPT, jaT, refusal, workspace } from './helpers';

const PLANTED = '1 2025-01-01T00:00:00.000Z\n';

test('a committed lock naming pid 1 (alive) or a pid that is gone: refused at once, naming the lock and saying to untrack and delete it; nothing runs, the lock stays', async () => {
  for (const holder of ['1', '999999']) {
    const dir = workspace({
      'notes/f.md': 'x\n',
      'notes/.f.md.session-ledger.lock': `${holder} 2025-01-01T00:00:00Z\n`,
    });
    gitInit(dir);
    const file = path.join(dir, 'notes/f.md');
    let ran = false;
    const t0 = Date.now();
    const err = await refusal(
      withWriteLock(file, dir, async () => {
        ran = true;
      }),
    );
    assert.ok(Date.now() - t0 < 5_000, `refused at once, not after the 10 s wait (${Date.now() - t0} ms)`);
    assert.equal(ran, false);
    assert.ok(err instanceof WriteRefused, String(err));
    assert.equal(err.detail, 'tracked');
    assert.equal(err.file, 'notes/.f.md.session-ledger.lock');
    assert.equal(
      err.message,
      'notes/.f.md.session-ledger.lock is tracked by git: it came with the repository, so it is no lock of a run on this machine; nothing was written. Untrack and delete it (git rm --cached notes/.f.md.session-ledger.lock, then delete the file), then run it again.',
    );
    assert.equal(
      errorText(jaT, err),
      'notes/.f.md.session-ledger.lock は git で追跡されています。リポジトリに含まれて届いたもので、このマシンでの実行のロックではありません。何も書き込んでいません。追跡をやめて削除して（git rm --cached notes/.f.md.session-ledger.lock のあと、ファイルを削除）から、もう一度試してください。',
    );
    assert.equal(readFileSync(lockPath(file), 'utf8'), `${holder} 2025-01-01T00:00:00Z\n`, 'the lock is left as it is');
  }
});

test('rotate-log --apply, hooks install and checkpoint --shared with committed locks naming pid 1: each refuses at once, naming its lock, and writes nothing', async () => {
  const state = `# STATE\n\n## Handoff\n\n- **Status:** building\n- **Branch / HEAD:** main\n- **Gates:** tests 42/42\n- **Now ▶** write the lock test\n- **Blocked on:** nothing\n\n## Log\n${Array.from(
    { length: 11 },
    (_, i) =>
      `\n### 2026-${String(12 - i).padStart(2, '0')}-01 - e${i}\n\n${Array.from({ length: 20 }, (_, k) => `- e${i} step ${k + 1}`).join('\n')}\n`,
  ).join('')}`;
  const locks = [
    'docs/state/.STATE.md.session-ledger.lock',
    '.claude/session-ledger/.install.json.session-ledger.lock',
    '.claude/..checkpoint-ready.session-ledger.lock',
  ];
  const dir = workspace({ 'docs/state/STATE.md': state, ...Object.fromEntries(locks.map((l) => [l, PLANTED])) });
  gitInit(dir);
  const plan = await planRotateLog(dir);
  assert.ok(plan && plan.moves.length > 0);
  const runs: Array<[string, string[]]> = [
    [locks[0], ['rotate-log', '--apply', '--expect-hash', plan.hash]],
    [locks[1], ['hooks', 'install', '--cli-bundle', HOOK_SCRIPT]],
    [locks[2], ['checkpoint', '--shared', '--session', SID, '--nothing-to-preserve']],
  ];
  for (const [lock, args] of runs) {
    const t0 = Date.now();
    const r = cli([...args, '--root', dir]);
    assert.ok(Date.now() - t0 < 8_000, `${args[0]} refused at once (${Date.now() - t0} ms)`);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(
        `${lock.replace(/\./g, '\\.')} is tracked by git: .*Untrack and delete it \\(git rm --cached ${lock.replace(/\./g, '\\.')}, then delete the file\\)`,
      ),
      args.join(' '),
    );
    assert.doesNotMatch(r.stderr, /process 1\b/);
  }
  assert.equal(sha256(readFileSync(path.join(dir, 'docs/state/STATE.md'))), plan.hash, 'STATE.md unchanged');
  assert.equal(existsSync(path.join(dir, 'docs/state/log')), false, 'no archive written');
  assert.equal(existsSync(path.join(dir, '.claude/settings.json')), false, 'no settings written');
  assert.equal(existsSync(path.join(dir, '.claude/.checkpoint-ready')), false, 'no shared marker written');
});

test('a lock held by a live process that is not tracked: after the wait the refusal names the lock file and says deleting it lets the write go on when no run is going on', async () => {
  const dir = workspace({ 'f.md': 'x\n' });
  const file = path.join(dir, 'f.md');
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
  try {
    writeFileSync(lockPath(file), `${holder.pid} 2026-12-03T10:00:00Z\n`);
    const err = await refusal(withWriteLock(file, dir, async () => 'ran', { waitMs: 200 }));
    assert.ok(err instanceof WriteRefused && err.reason === 'busy', String(err));
    assert.equal(err.file, 'f.md');
    assert.equal(err.lock, '.f.md.session-ledger.lock');
    assert.equal(
      err.message,
      `.f.md.session-ledger.lock says another Session Ledger run (process ${holder.pid}) is changing f.md; nothing was written. Run it again once that run is done; if no Session Ledger run is going on, delete .f.md.session-ledger.lock and run it again.`,
    );
    assert.equal(
      errorText(jaT, err),
      '.f.md.session-ledger.lock によると、別の Session Ledger の実行が f.md を変更中です。何も書き込んでいません。その実行が終わってからもう一度試してください。Session Ledger の実行が何も行われていなければ、.f.md.session-ledger.lock を削除してからもう一度試してください。',
    );
  } finally {
    holder.kill('SIGKILL');
    await new Promise((r) => holder.on('close', r));
  }
});
