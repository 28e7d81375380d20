/**
 * The hook log at its size limit, with hooks appending at the same time: when one hook moves the log
 * to `.1`, no line of any hook is lost. Each case starts from a log one byte short of the limit, so
 * that every hook's line takes it past.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { appendHookLog, HOOK_LOG_MAX, HOOK_LOG_REL } from '../../src/core/hooks/io';
import { workspace } from './helpers';

const IO = path.join(__dirname, '..', '..', 'src', 'core', 'hooks', 'io.js');

/** Fill the log with numbered lines to one byte short of the limit; returns how many lines. */
function fillToLimit(log: string): number {
  const lines: string[] = [];
  let size = 0;
  while (size < HOOK_LOG_MAX - 64) {
    const l = `prefill ${lines.length}\n`;
    lines.push(l);
    size += l.length;
  }
  const last = `prefill ${lines.length} `;
  lines.push(`${last}${'x'.repeat(HOOK_LOG_MAX - 1 - size - last.length - 1)}\n`);
  writeFileSync(log, lines.join(''));
  return lines.length;
}

/** The log and the one before it, oldest first. */
function bothLogs(log: string): string {
  return [`${log}.1`, log].map((f) => (existsSync(f) ? readFileSync(f, 'utf8') : '')).join('');
}

/** What is missing of `n` prefill lines and of the lines naming each of `texts` once. */
function missing(text: string, n: number, texts: string[]): string[] {
  const out: string[] = [];
  const pre = (text.match(/^prefill \d+( x+)?$/gm) ?? []).length;
  if (pre !== n) out.push(`${n - pre} of ${n} earlier lines`);
  for (const t of texts) {
    const count = text.split(` test ${t}\n`).length - 1;
    if (count !== 1) out.push(`"${t}" ${count} times`);
  }
  return out;
}

/** A hook appending `text` in a process of its own, run to its end. */
function hookProcess(dir: string, text: string): void {
  const r = spawnSync(
    process.execPath,
    ['-e', `require(${JSON.stringify(IO)}).appendHookLog(process.argv[1], 'test', process.argv[2])`, dir, text],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
}

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

test('a hook that opened the log just before another moved it writes its line to the moved log', async () => {
  const dir = workspace({ '.claude/log/.keep': '' });
  const log = path.join(dir, HOOK_LOG_REL);
  const n = fillToLimit(log);
  await pausedAfter(
    'openSync',
    (args) => args[0] === log,
    () => hookProcess(dir, 'hook A'),
    () => appendHookLog(dir, 'test', 'hook B'),
  );
  assert.deepEqual(missing(bothLogs(log), n, ['hook A', 'hook B']), []);
  assert.ok(!existsSync(log), 'no new log: nobody wrote after the move');
});
