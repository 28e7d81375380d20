/**
 * Two write actions at once never lose data: two real `rotate-log --apply` processes on one
 * STATE.md, the first held between writing the archives and its last rename until the second has
 * finished; the second waits for it and then refuses, and every Log entry is in exactly one file. A lock whose holder is gone is
 * taken over; one held too long refuses. Every write action of the command line (and so of the
 * extension, whose commands call the same core) takes that lock: held by another live process, each
 * waits, then refuses and writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { WriteRefused } from '../../src/core/files/atomic';
import { lockPath, withWriteLock } from '../../src/core/files/lock';
import { planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { sha256 } from '../../src/core/files/fsread';
import { cli, CLI, HOOK_SCRIPT, workspace } from './helpers';
import { CONFIRM_ALL, s3Workspace, SID } from './checkpoint-fixtures';

const TITLES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo'];

/** An S3 STATE.md with 11 dated Log entries, far over its 150-line budget. */
function state(): string {
  const head = `# STATE\n\n## Handoff\n\n- **Status:** building\n- **Branch / HEAD:** main\n- **Gates:** tests 42/42\n- **Now ▶** write the lock test in test/unit/write-lock.test.ts\n- **Blocked on:** nothing\n\n## Log\n`;
  // Newest first, one entry a month.
  const entries = TITLES.map(
    (t, i) =>
      `\n### 2026-${String(12 - i).padStart(2, '0')}-01 - ${t}\n\n${Array.from({ length: 20 }, (_, k) => `- ${t} step ${k + 1}`).join('\n')}\n`,
  );
  return head + entries.join('');
}

/** How many times each entry's heading stands in STATE.md and the archives together. */
function placements(dir: string): Record<string, number> {
  const files = [path.join(dir, 'docs/state/STATE.md')];
  const logDir = path.join(dir, 'docs/state/log');
  if (existsSync(logDir)) for (const f of readdirSync(logDir)) files.push(path.join(logDir, f));
  const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  return Object.fromEntries(TITLES.map((t) => [t, text.split(`- ${t}\n`).length - 1]));
}

const ROTATE = path.join(__dirname, '..', '..', 'src', 'core', 'systems', 's3', 'rotate-log.js');

test('two rotate-log --apply at once, the first held before its last rename until the second has finished: the second waits and refuses, no entry is lost or doubled', async () => {
  const dir = workspace({ 'docs/state/STATE.md': state() });
  const plan = await planRotateLog(dir);
  assert.ok(plan && plan.moves.length > 0, 'entries to move');
  const entered = path.join(dir, 'A-WAITING');
  const go = path.join(dir, 'A-GO');
  // Process A: the rotation, held after the archives are written and before STATE.md is replaced, until B is done (at most 30 s).
  const a = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs');
      const held = () => new Promise((r) => { const t0 = Date.now(); const i = setInterval(() => { if (fs.existsSync(process.argv[4]) || Date.now() - t0 > 30000) { clearInterval(i); r(); } }, 50); });
      require(${JSON.stringify(ROTATE)}).applyRotateLog(process.argv[1], process.argv[2], { beforeStateRename: () => { fs.writeFileSync(process.argv[3], ''); return held(); } })
        .then(() => process.stdout.write('A done'), (e) => { process.stdout.write('A refused: ' + e.message); process.exitCode = 1; });`,
      dir,
      plan.hash,
      entered,
      go,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let aOut = '';
  a.stdout.on('data', (c) => (aOut += c));
  a.stderr.on('data', (c) => (aOut += c));
  const aDone = new Promise<number | null>((r) => a.on('close', r));
  for (let i = 0; i < 600 && !existsSync(entered); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(existsSync(entered), `A reached its last rename (${aOut})`);
  // Process B: the CLI, with the same preview hash, while A is held; then A goes on.
  const b = spawnSync(process.execPath, [CLI, 'rotate-log', '--root', dir, '--apply', '--expect-hash', plan.hash], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  writeFileSync(go, '');
  assert.equal(await aDone, 0, aOut);
  assert.match(aOut, /A done/);
  // B waited its 10 s for A's lock, then refused without writing.
  assert.equal(b.status, 1, `B: ${b.stdout}${b.stderr}`);
  assert.match(
    b.stderr,
    /says another Session Ledger run \(process \d+\) is changing docs\/state\/STATE\.md; nothing was written\. Run it again once that run is done; if no Session Ledger run is going on, delete docs\/state\/\.STATE\.md\.session-ledger\.lock and run it again\./,
  );
  assert.deepEqual(placements(dir), Object.fromEntries(TITLES.map((t) => [t, 1])), 'every entry in exactly one file');
  assert.equal(existsSync(lockPath(path.join(dir, 'docs/state/STATE.md'))), false, 'the lock is gone');
});

test("a lock held longer than the wait refuses with the holder's pid; a lock whose process is gone is taken over", async () => {
  const dir = workspace({ 'f.md': 'x\n' });
  const file = path.join(dir, 'f.md');
  // A live holder: another process, sleeping.
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
  try {
    writeFileSync(lockPath(file), `${holder.pid} 2026-12-03T10:00:00Z\n`);
    await assert.rejects(
      withWriteLock(file, dir, async () => 'ran', { waitMs: 200 }),
      (e: unknown) =>
        e instanceof WriteRefused &&
        e.reason === 'busy' &&
        e.message.includes(`process ${holder.pid}`) &&
        e.file === 'f.md',
    );
  } finally {
    holder.kill('SIGKILL');
    await new Promise((r) => holder.on('close', r));
  }
  // The holder is gone now: its lock is stale and taken over.
  assert.equal(await withWriteLock(file, dir, async () => 'ran', { waitMs: 200 }), 'ran');
  assert.equal(existsSync(lockPath(file)), false);
});

/** An S4 state with two blocks of one kind: compact-state has something to remove. */
const S4_STATE = [
  '# Agent State\n\n## Main Agent\n\nClaude Code\n\n---\n',
  ...['ledger-v1', 'ledger-v2'].map(
    (name) =>
      `\n## Current Project: ${name}\n<!-- orchestra:block-id: ${name} -->\n\n### Context\n\n- Goal: ${name}.\n\n### Next Steps\n\n- Ship ${name}.\n\n---\n`,
  ),
].join('');

test('every write action takes the lock beside the file it writes: while another live process holds it, each waits its 10 s, then refuses and writes nothing', async () => {
  const handoff = '# Session Handoff\n\n## What to do now (priority order)\n1. trim MEMORY.md under 24KB\n';
  const actions: Array<{ name: string; dir: string; file: string; args: string[] }> = [];
  const add = (name: string, dir: string, file: string, args: string[]) =>
    actions.push({ name, dir, file: path.join(dir, file), args: [...args, '--root', dir] });
  add('checkpoint', s3Workspace(), `.claude/.checkpoint-ready.${SID}`, [
    'checkpoint',
    '--session',
    SID,
    ...CONFIRM_ALL,
  ]);
  add('attest', workspace({ 'memory/session-handoff-LATEST.md': handoff }), 'memory/.session-handoff.sha256', [
    'attest',
  ]);
  add('compact-state', workspace({ '.agents/STATE.md': S4_STATE }), '.agents/STATE.md', [
    'compact-state',
    '--apply',
    '--expect-hash',
    sha256(Buffer.from(S4_STATE)),
  ]);
  const rotating = workspace({ 'docs/state/STATE.md': state() });
  add('rotate-log', rotating, 'docs/state/STATE.md', [
    'rotate-log',
    '--apply',
    '--expect-hash',
    (await planRotateLog(rotating))!.hash,
  ]);
  add('enable-ledger', workspace({ '.agents.yml': 'session:\n  ledger: false\n' }), '.agents.yml', ['enable-ledger']);
  add('init', workspace({}), 'docs/state/STATE.md', ['init', 'S3']);
  add('hooks install', workspace({}), '.claude/settings.json', ['hooks', 'install', '--cli-bundle', HOOK_SCRIPT]);
  const installed = workspace({});
  assert.equal(cli(['hooks', 'install', '--root', installed, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  add('hooks uninstall', installed, '.claude/settings.json', ['hooks', 'uninstall']);

  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    const before = actions.map((a) => (existsSync(a.file) ? readFileSync(a.file, 'utf8') : null));
    for (const a of actions) {
      mkdirSync(path.dirname(a.file), { recursive: true });
      writeFileSync(lockPath(a.file), `${holder.pid} 2026-12-03T10:00:00Z\n`);
    }
    // All at once, as real processes: the wait is 10 s each, side by side.
    const runs = await Promise.all(
      actions.map(
        (a) =>
          new Promise<{ code: number | null; out: string }>((resolve) => {
            const p = spawn(process.execPath, [CLI, ...a.args], { stdio: ['ignore', 'pipe', 'pipe'] });
            let out = '';
            p.stdout.on('data', (c) => (out += c));
            p.stderr.on('data', (c) => (out += c));
            p.on('close', (code) => resolve({ code, out }));
          }),
      ),
    );
    actions.forEach((a, i) => {
      assert.equal(runs[i].code, 1, `${a.name}: ${runs[i].out}`);
      assert.match(
        runs[i].out,
        new RegExp(`says another Session Ledger run \\(process ${holder.pid}\\) is changing`),
        `${a.name} waited for the lock and refused`,
      );
      const lock = path.relative(a.dir, lockPath(a.file)).split(path.sep).join('/');
      assert.ok(
        runs[i].out.includes(`if no Session Ledger run is going on, delete ${lock} and run it again`),
        `${a.name} names its lock file: ${runs[i].out}`,
      );
      assert.equal(existsSync(a.file) ? readFileSync(a.file, 'utf8') : null, before[i], `${a.name} wrote nothing`);
    });
  } finally {
    holder.kill('SIGKILL');
    await new Promise((r) => holder.on('close', r));
  }
});
