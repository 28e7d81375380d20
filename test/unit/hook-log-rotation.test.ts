/**
 * The hook log at its size limit, with hooks appending at the same time: when one hook moves the log
 * to `.1`, no line of any hook is lost. Each case starts from a log one byte short of the limit, so
 * that every hook's line takes it past.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { appendHookLog, HOOK_LOG_MAX, HOOK_LOG_REL } from '../../src/core/hooks/io';
import { workspace } from './helpers';
import { bothLogs, fillToLimit, hookProcess, IO, missing } from './hook-log-helpers';

/** Run `fn` with `fs[name]` calling `after` (once, when `when` says so) right after the real call. */
async function pausedAfter<K extends 'openSync' | 'writeSync'>(
  name: K,
  when: (args: unknown[]) => boolean,
  after: () => void,
  fn: () => Promise<void>,
): Promise<void> {
  const nodeFs = require('node:fs') as Record<K, (...a: unknown[]) => unknown>;
  const real = nodeFs[name];
  let ran = false;
  nodeFs[name] = (...args: unknown[]) => {
    const r = real(...args);
    if (!ran && when(args)) {
      ran = true;
      after();
    }
    return r;
  };
  try {
    await fn();
  } finally {
    nodeFs[name] = real;
  }
  assert.ok(ran, `the ${name} was reached`);
}

test('three hooks at the limit: one that measured the log before another moved it leaves the new log where it is', async () => {
  const dir = workspace({ '.claude/log/.keep': '' });
  const log = path.join(dir, HOOK_LOG_REL);
  const n = fillToLimit(log);
  // Hook B (this process) has written its line past the limit; before it moves the log, hook A (a
  // process of its own) appends and moves it to .1, and hook C starts a new log with its line.
  await pausedAfter(
    'writeSync',
    (args) => Buffer.isBuffer(args[1]) && args[1].includes(' test hook B'),
    () => {
      hookProcess(dir, 'hook A');
      hookProcess(dir, 'hook C');
    },
    () => appendHookLog(dir, 'test', 'hook B'),
  );
  assert.deepEqual(missing(bothLogs(log), n, ['hook A', 'hook B', 'hook C']), []);
  assert.match(readFileSync(log, 'utf8'), / test hook C\n$/, 'the new log holds C');
  assert.ok(readFileSync(`${log}.1`).length > HOOK_LOG_MAX, 'the moved log is the full one');
});

test('a hook that opened the log just before another moved it writes its line to the moved log', async () => {
  const dir = workspace({ '.claude/log/.keep': '' });
  const log = path.join(dir, HOOK_LOG_REL);
  const n = fillToLimit(log);
  await pausedAfter(
    'openSync',
    // The log is opened by its name in its folder held open (`/proc/self/fd/<fd>/…` on Linux), or by its path.
    (args) => path.basename(String(args[0])) === path.basename(log),
    () => hookProcess(dir, 'hook A'),
    () => appendHookLog(dir, 'test', 'hook B'),
  );
  assert.deepEqual(missing(bothLogs(log), n, ['hook A', 'hook B']), []);
  assert.ok(!existsSync(log), 'no new log: nobody wrote after the move');
});

test('hooks in parallel processes at the limit, round after round: no line is lost', async () => {
  // Each round: the log one byte short of the limit, then every hook process appends LINES lines at
  // once (woken by one byte on its stdin, so that they start together), and says it is done with one
  // byte on its stdout. The interleavings that lose a line are rare in one round (a few in a hundred
  // before the move was made under the lock), so the rounds are many.
  const HOOKS = 4;
  const LINES = 3;
  const ROUNDS = 300;
  const dir = workspace({ '.claude/log/.keep': '' });
  const log = path.join(dir, HOOK_LOG_REL);
  const worker = `const { appendHookLog } = require(${JSON.stringify(IO)});
    const [dir, k] = process.argv.slice(1);
    let round = 0;
    process.stdin.on('data', async (b) => {
      for (let j = 0; j < b.length; j++, round++) {
        for (let i = 0; i < ${LINES}; i++) await appendHookLog(dir, 'test', 'hook ' + k + ' round ' + round + ' line ' + i);
        process.stdout.write('.');
      }
    });`;
  const hooks = [...Array(HOOKS).keys()].map((k) =>
    spawn(process.execPath, ['-e', worker, dir, String(k)], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  let waiting = 0;
  let done = () => {};
  for (const h of hooks)
    h.stdout.on('data', (b: Buffer) => {
      waiting -= b.length;
      if (waiting === 0) done();
    });
  const lost: string[] = [];
  try {
    for (let round = 0; round < ROUNDS && lost.length === 0; round++) {
      rmSync(log, { force: true });
      rmSync(`${log}.1`, { force: true });
      const n = fillToLimit(log);
      waiting = HOOKS;
      const finished = new Promise<void>((resolve) => (done = resolve));
      for (const h of hooks) h.stdin.write('g');
      await finished;
      const texts = hooks.flatMap((_, k) => [...Array(LINES).keys()].map((i) => `hook ${k} round ${round} line ${i}`));
      for (const m of missing(bothLogs(log), n, texts)) lost.push(`round ${round}: ${m}`);
    }
  } finally {
    for (const h of hooks) h.stdin.end();
  }
  await Promise.all(hooks.map((h) => new Promise((r) => (h.exitCode !== null ? r(null) : h.on('close', r)))));
  assert.deepEqual(lost, []);
});
