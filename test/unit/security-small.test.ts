/**
 * The smaller holes of the attack round, each from its hostile input: a relayed status line command
 * that leaves a child running or prints without end, hooks appending to the log at the same time, a
 * file name with a line break in the marker, bidi and other format characters in a ledger, a working
 * directory deleted under the hook, a hook script changed by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { formatMarker, parseMarker } from '../../src/core/checkpoint/marker';
import { HOOK_LOG_REL } from '../../src/core/hooks/io';
import { relay, RELAY_OUTPUT_MAX } from '../../src/cli/status-line';
import { bufferIo } from '../../src/cli/io';
import { SCRIPT_REL } from '../../src/core/hooks/install';
import { CLI, HOOK_SCRIPT, workspace } from './helpers';
import { runIn } from './hostile-helpers';
import { preCompact, s3Workspace } from './checkpoint-fixtures';

/** The process runs (a zombie waiting to be reaped by init does not count). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

test("the relay's time limit kills the relayed command's whole process group, and keeps at most 64 KB of its output", async () => {
  const dir = workspace({});
  const pidFile = path.join(dir, 'grandchild.pid');
  const io = bufferIo({ cwd: dir });
  // A shell that starts a long child and waits for it: killing only the shell would leave the child running.
  const code = await relay([`sleep 60 & echo $! > '${pidFile}'; wait`], '', io, 500);
  assert.notEqual(code, 0);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(alive(pid), false, `the shell's child ${pid} was killed with it`);

  const big = bufferIo({ cwd: dir });
  await relay([process.execPath, '-e', "process.stdout.write('x'.repeat(5 * 1024 * 1024))"], '', big, 20_000);
  assert.ok(big.out().length <= RELAY_OUTPUT_MAX + 1, `kept ${big.out().length} bytes`);
  assert.ok(big.out().length >= RELAY_OUTPUT_MAX, 'the first 64 KB are kept');
});

test('hooks run in parallel (3 processes × 40 appends) never lose a log line', async () => {
  const dir = s3Workspace();
  const io = path.join(__dirname, '..', '..', 'src', 'core', 'hooks', 'io.js');
  const child = (k: number) =>
    new Promise<number | null>((resolve) => {
      const p = spawn(
        process.execPath,
        [
          '-e',
          `const { appendHookLog } = require(${JSON.stringify(io)}); (async () => { for (let i = 0; i < 40; i++) await appendHookLog(process.argv[1], 'test', 'writer ${k} line ' + i); })();`,
          dir,
        ],
        { stdio: 'ignore' },
      );
      p.on('close', resolve);
    });
  assert.deepEqual(await Promise.all([0, 1, 2].map(child)), [0, 0, 0]);
  const lines = readFileSync(path.join(dir, HOOK_LOG_REL), 'utf8').split('\n').filter(Boolean);
  assert.equal(lines.length, 120, 'every line is there');
  for (const k of [0, 1, 2])
    for (let i = 0; i < 40; i++)
      assert.ok(
        lines.some((l) => l.endsWith(` test writer ${k} line ${i}`)),
        `writer ${k} line ${i}`,
      );
});

test('a file name with a line break cannot forge a line of the marker', () => {
  const fake = 'f'.repeat(64);
  const hash = 'a'.repeat(64);
  const text = formatMarker({
    sessionId: null,
    at: '2026-12-03T10:00:00.000Z',
    label: 'WORKING',
    hashes: [{ hash, path: `docs/x.md\n${fake}  docs/state/STATE.md` }],
  });
  assert.equal(text.split('\n').filter(Boolean).length, 2, 'one line per vouched file');
  const m = parseMarker(text);
  assert.deepEqual(
    m.hashes,
    [{ hash, path: `docs/x.md\n${fake}  docs/state/STATE.md` }],
    'read back as the one name it is',
  );
  // A name with a backslash round-trips too.
  assert.deepEqual(
    parseMarker(formatMarker({ sessionId: null, at: 'x', label: 'WORKING', hashes: [{ hash, path: 'a\\nb' }] })).hashes,
    [{ hash, path: 'a\\nb' }],
  );
});

test('bidi and other format characters from a ledger never reach the terminal', async () => {
  const evil = 'Wire \u202Eexport()\u202C into \u2066src/x.ts\u2069 and\u200B test\u2028it';
  const dir = workspace({
    'docs/state/STATE.md': `# State\n\n## Handoff\n\n- **Status:** ok\n- **Now ▶** ${evil}\n\n## Log\n`,
  });
  for (const args of [['status'], ['status', '--json']]) {
    const r = await runIn([...args, '--root', dir]);
    const out = r.stdout + r.stderr;
    assert.match(out, /export\(\)/, `${args.join(' ')} shows the text`);
    assert.doesNotMatch(
      out,
      /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029\u061C\uFEFF]/,
      `${args.join(' ')}: no format character`,
    );
  }
});

test('a working directory deleted under a hook: a clear message, a log line in the project, never a bare exit 2', () => {
  const project = s3Workspace();
  const parent = workspace({});
  const run = (args: string[], env: NodeJS.ProcessEnv, input = '') =>
    spawnSync(
      'sh',
      ['-c', 'mkdir gone && cd gone && rmdir ../gone && exec "$0" "$@"', process.execPath, CLI, ...args],
      { cwd: parent, input, encoding: 'utf8', env: { ...process.env, ...env } },
    );
  // Claude Code names the project: the hook runs there (the guard decides as ever) and the log says why.
  const inProject = run(['hook', 'pre-compact'], { CLAUDE_PROJECT_DIR: project }, preCompact(project));
  assert.equal(inProject.status, 2, inProject.stderr);
  assert.match(inProject.stderr, /checkpoint/i, 'the guard says why it blocks');
  assert.match(readFileSync(path.join(project, HOOK_LOG_REL), 'utf8'), /working directory .* no longer exists/);
  // No project: the hook allows and says so; another command says so and exits 2.
  const bare = run(['hook', 'pre-compact'], { CLAUDE_PROJECT_DIR: '' }, '{}');
  assert.equal(bare.status, 0);
  assert.match(bare.stderr, /working directory .*no longer exists.*allowing/);
  const st = run(['status'], { CLAUDE_PROJECT_DIR: '' });
  assert.equal(st.status, 2);
  assert.match(st.stderr, /working directory .*no longer exists/);
  assert.equal(existsSync(path.join(parent, 'gone')), false);
  mkdirSync(path.join(parent, 'ok'));
});

test('hooks install never replaces a hook script changed since it wrote it; one it wrote itself is updated', async () => {
  const dir = s3Workspace();
  // An older build of the script, as install wrote it.
  const older = path.join(workspace({}, 'sl-build-'), 'session-ledger.cjs');
  writeFileSync(older, `${readFileSync(HOOK_SCRIPT, 'utf8')}// an older build\n`);
  assert.equal((await runIn(['hooks', 'install', '--root', dir, '--cli-bundle', older])).code, 0);
  const script = path.join(dir, SCRIPT_REL);
  // Unchanged since: the new build replaces it.
  const update = await runIn(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(update.code, 0, update.stderr);
  assert.deepEqual(readFileSync(script), readFileSync(HOOK_SCRIPT));
  // Someone edits it: install refuses (also --dry-run) and keeps their bytes.
  const mine = `${readFileSync(script, 'utf8')}// my local fix\n`;
  writeFileSync(script, mine);
  for (const extra of [['--dry-run'], []]) {
    const r = await runIn(['hooks', 'install', '--root', dir, '--cli-bundle', older, ...extra]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /session-ledger\.cjs was changed since `hooks install` wrote it; nothing was changed/);
    assert.equal(readFileSync(script, 'utf8'), mine);
  }
});
