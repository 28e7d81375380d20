/**
 * A write lock left behind on the hook log (a hook killed while it held it, its pid used again by another
 * process since, a lock file committed to the repository) stops the move to `.1` only as long as a hook
 * could still hold it: once its process is gone, or it is older than any hook holds it, the next line past
 * the limit takes it over and moves the log, as the write actions take over a stale lock. A lock a live hook
 * holds is never taken over, no line is lost on the way, and nothing is done through a link at the lock.
 * Each hook here is a process of its own, as hooks are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../../src/core/files/atomic';
import { lockPath } from '../../src/core/files/lock';
import {
  appendHookLog,
  HOOK_LOG_LOCK_HELD_AT_MOST_MS,
  HOOK_LOG_MAX,
  HOOK_LOG_MOST,
  HOOK_LOG_REL,
} from '../../src/core/hooks/io';
import { git, gitInit, workspace } from './helpers';
import { bothLogs, fillToLimit, hookProcess, missing } from './hook-log-helpers';

const LOCK_JS = path.join(__dirname, '..', '..', 'src', 'core', 'files', 'lock.js');

/** Set a file's times `ms` from now (negative: in the past). */
function dated(file: string, ms: number): void {
  const t = (Date.now() + ms) / 1000;
  utimesSync(file, t, t);
}

/** A process that stays alive until killed (standing for whatever process has a pid now). */
function liveProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
}

/** A hook process that takes the log's write lock and holds it (until it is killed), as a hook moving the log does. */
async function holdingHook(log: string, dir: string): Promise<ChildProcess> {
  const p = spawn(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(LOCK_JS)}).withWriteLock(process.argv[1], process.argv[2], () => { process.stdout.write('held'); return new Promise(() => setInterval(() => {}, 1e9)); }, { waitMs: 0 })`,
      log,
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    p.stdout!.once('data', () => resolve());
    p.once('exit', (code) => reject(new Error(`the holding hook exited (${code})`)));
  });
  return p;
}

async function killed(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const gone = new Promise((r) => p.once('exit', r));
  p.kill('SIGKILL');
  await gone;
}

/** The log at the limit in a fresh workspace (`files` beside it), the log's lock path and the prefill's line count. */
function logAtLimit(files: Record<string, string> = {}): { dir: string; log: string; lock: string; n: number } {
  const dir = workspace({ '.claude/log/.keep': '', ...files });
  const log = path.join(dir, HOOK_LOG_REL);
  return { dir, log, lock: lockPath(log), n: fillToLimit(log) };
}

test('a hook-log lock naming a live process that is not its holder (its pid used again): the log is left while a hook could hold it, and moved once the lock is older than any hook holds it', async () => {
  const other = liveProcess();
  try {
    for (const far of [-(HOOK_LOG_LOCK_HELD_AT_MOST_MS + 60_000), HOOK_LOG_LOCK_HELD_AT_MOST_MS + 60_000]) {
      const { dir, log, lock, n } = logAtLimit();
      const planted = `${other.pid} 2026-01-01T00:00:00.000Z\n`;
      writeFileSync(lock, planted);
      // Fresh: it may be a hook's that is moving the log right now; the line is written, the log not moved.
      hookProcess(dir, 'one');
      assert.ok(!existsSync(`${log}.1`), 'a fresh lock is left to its holder');
      assert.equal(readFileSync(lock, 'utf8'), planted);
      // Dated past any hold (before now, or after it): the next line past the limit takes it over and moves the log.
      dated(lock, far);
      hookProcess(dir, 'two');
      assert.ok(existsSync(`${log}.1`), `moved with the lock dated ${far} ms from now`);
      assert.ok(readFileSync(`${log}.1`).length > HOOK_LOG_MAX, 'the moved log is the full one');
      assert.ok(!existsSync(lock), 'the lock is let go after the move');
      hookProcess(dir, 'three');
      assert.match(readFileSync(log, 'utf8'), /^\S+ test three\n$/, 'a new log starts');
      assert.deepEqual(missing(bothLogs(log), n, ['one', 'two', 'three']), []);
      assert.ok(processAlive(other.pid!), 'the process the lock named is left alone');
    }
  } finally {
    await killed(other);
  }
});

test('a hook killed while it held the hook-log lock: its live hold keeps the log in place, then the next line past the limit takes the lock over and moves it; no line lost', async () => {
  const { dir, log, lock, n } = logAtLimit();
  const holder = await holdingHook(log, dir);
  try {
    assert.equal(readFileSync(lock, 'utf8').split(' ')[0], String(holder.pid));
    // Held by a live hook: lines go on into the log, which is not moved under its holder.
    hookProcess(dir, 'while held');
    assert.ok(!existsSync(`${log}.1`), 'a live hold is never taken over');
  } finally {
    await killed(holder);
  }
  hookProcess(dir, 'after the kill');
  assert.ok(existsSync(`${log}.1`), 'moved once its holder is gone');
  assert.ok(!existsSync(lock));
  assert.deepEqual(missing(bothLogs(log), n, ['while held', 'after the kill']), []);
});

test('a hook-log lock committed to the repository does not stop the move for good: one naming a process gone is taken over at once, one naming a live process once it is older than any hook holds it', async () => {
  const rel = lockPath(HOOK_LOG_REL);
  for (const [pid, age] of [
    ['999999', 0],
    ['1', HOOK_LOG_LOCK_HELD_AT_MOST_MS + 60_000],
  ] as const) {
    const { dir, log, lock, n } = logAtLimit({ [rel]: `${pid} 2025-01-01T00:00:00.000Z\n`, 'notes.md': 'x\n' });
    gitInit(dir);
    assert.equal(git(dir, 'ls-files', rel).trim(), rel, 'the lock is committed');
    if (age === 0) {
      assert.ok(!processAlive(Number(pid)), `pid ${pid} is gone here`);
    } else {
      // Just checked out, it may be a hook's: left alone.
      hookProcess(dir, 'fresh');
      assert.ok(!existsSync(`${log}.1`), 'a fresh committed lock naming a live process is left');
      dated(lock, -age);
    }
    hookProcess(dir, 'past');
    assert.ok(existsSync(`${log}.1`), `pid ${pid}: the log is moved`);
    assert.ok(!existsSync(lock), `pid ${pid}: the committed lock is gone from the work tree`);
    assert.deepEqual(missing(bothLogs(log), n, age === 0 ? ['past'] : ['fresh', 'past']), []);
  }
});

test('a link at the hook-log lock, old or leading to a stale-looking lock, is never followed nor removed: the log stays where it is, every line in it', async () => {
  for (const target of ['STATE.md', 'elsewhere.lock']) {
    const { dir, log, lock, n } = logAtLimit({
      'STATE.md': '# State\n\nkeep me\n',
      'elsewhere.lock': '999999 2025-01-01T00:00:00.000Z\n',
    });
    const aim = path.join(dir, target);
    const before = readFileSync(aim, 'utf8');
    symlinkSync(aim, lock);
    dated(aim, -(HOOK_LOG_LOCK_HELD_AT_MOST_MS + 60_000));
    hookProcess(dir, 'past');
    hookProcess(dir, 'again');
    assert.ok(lstatSync(lock).isSymbolicLink(), `${target}: the link stays`);
    assert.equal(readFileSync(aim, 'utf8'), before, `${target}: its target keeps its bytes`);
    assert.ok(!existsSync(`${log}.1`), `${target}: not moved through a link`);
    assert.deepEqual(missing(bothLogs(log), n, ['past', 'again']), []);
  }
});

test('something other than a lock file at the hook-log lock (a link, a FIFO, a folder) stops the move, and the log stops at its most instead of growing without end; once it is gone the next line moves the log', async () => {
  for (const kind of ['link', 'fifo', 'folder'] as const) {
    const dir = workspace({ '.claude/log/.keep': '' });
    const log = path.join(dir, HOOK_LOG_REL);
    const lock = lockPath(log);
    // The log a few lines short of the most it may hold, as months of hooks past the limit would leave it.
    writeFileSync(log, `${'x'.repeat(199)}\n`.repeat(Math.floor((HOOK_LOG_MOST - 1_000) / 200)));
    if (kind === 'link') symlinkSync(path.join(dir, 'elsewhere'), lock);
    else if (kind === 'fifo') execFileSync('mkfifo', [lock]);
    else mkdirSync(lock);
    for (let i = 0; i < 40; i++) await appendHookLog(dir, 'test', `line ${i} ${'y'.repeat(100)}`);
    const size = statSync(log).size;
    assert.ok(size <= HOOK_LOG_MOST, `${kind}: the log holds ${size} bytes, more than ${HOOK_LOG_MOST}`);
    assert.match(readFileSync(log, 'utf8'), / test line 0 y+\n/, `${kind}: lines go on while there is room`);
    assert.ok(!existsSync(`${log}.1`), `${kind}: not moved while the lock path is taken`);
    assert.ok(kind === 'link' ? lstatSync(lock).isSymbolicLink() : existsSync(lock), `${kind}: left where it is`);
    rmSync(lock, { recursive: true });
    await appendHookLog(dir, 'test', 'after');
    assert.ok(statSync(`${log}.1`).size > HOOK_LOG_MAX, `${kind}: the full log is moved once the lock path is free`);
    assert.match(readFileSync(`${log}.1`, 'utf8'), / test after\n$/, `${kind}: the line goes into the moved log`);
    assert.ok(!existsSync(log) || statSync(log).size === 0, `${kind}: a new log starts`);
  }
});
