/**
 * The status line relay under a previous command that misbehaves, as an attack round found it: a
 * background job that keeps the output open held the line until it ended (and past the time limit,
 * when it left the process group); a relay ended by a signal (Claude Code cancels a refresh it no
 * longer needs) left the command running.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { relay } from '../../src/cli/status-line';
import { bufferIo } from '../../src/cli/io';
import { STATUSLINE_SCRIPT, workspace } from './helpers';

test('a background job the command leaves holding its output does not hold the line: the relay answers once the command has exited', async () => {
  const dir = workspace({});
  const io = bufferIo({ cwd: dir });
  const t0 = Date.now();
  const code = await relay([`(sleep 4; touch ${JSON.stringify(path.join(dir, 'late'))}) & echo fg`], '{}', io, 30_000);
  assert.equal(code, 0);
  assert.equal(io.out(), 'fg\n');
  assert.ok(Date.now() - t0 < 3000, `answered after ${Date.now() - t0} ms`);
});

test('the time limit holds even when the command starts a job in a session of its own', async () => {
  const io = bufferIo({ cwd: workspace({}) });
  const t0 = Date.now();
  const code = await relay(['setsid sleep 20 & echo fg; sleep 20'], '{}', io, 500);
  assert.equal(code, 1);
  assert.match(io.out(), /fg/);
  assert.ok(Date.now() - t0 < 5000, `answered after ${Date.now() - t0} ms`);
});

test('a relay ended by a signal takes the command with it', async () => {
  const dir = workspace({ '.claude/settings.json': '{}' });
  const mark = path.join(dir, 'still-running');
  const child = spawn(
    process.execPath,
    [STATUSLINE_SCRIPT, 'statusline', '--', `sleep 1; touch ${JSON.stringify(mark)}`],
    {
      cwd: dir,
      stdio: ['pipe', 'ignore', 'ignore'],
    },
  );
  child.stdin.end('{}');
  await new Promise((r) => setTimeout(r, 500));
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(!existsSync(mark), 'the command did not go on after the relay ended');
  assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), '{}');
});

test('a signal that comes the moment the command has started still takes the command with it', async () => {
  const dir = workspace({ '.claude/settings.json': '{}' });
  const mark = path.join(dir, 'still-running');
  // The relay's process signals itself as soon as spawn returns: the earliest a signal can come once the command runs.
  const preload = path.join(dir, 'signal-after-spawn.cjs');
  writeFileSync(
    preload,
    "const cp = require('node:child_process'); const spawn = cp.spawn;\n" +
      "cp.spawn = function (...a) { const c = spawn.apply(this, a); process.kill(process.pid, 'SIGTERM'); return c; };\n",
  );
  const child = spawn(
    process.execPath,
    ['--require', preload, STATUSLINE_SCRIPT, 'statusline', '--', `sleep 1; touch ${JSON.stringify(mark)}`],
    { cwd: dir, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  child.stdin.end('{}');
  const code = await new Promise((r) => child.on('exit', (c, sig) => r(c ?? sig)));
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(!existsSync(mark), `the command went on after the relay ended (${code})`);
  assert.equal(code, 143);
});
