import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { byCodeUnits, codePointCount, withThousands } from '../../src/core/markdown/text';
import { ownFileLinkProblem, refuseOwnFileLink, writeAtomic } from '../../src/core/files/atomic';
import { feedPath } from '../../src/core/context/feed';
import { FACTS } from '../../src/core/systems/facts';
import { SYSTEM_IDS } from '../../src/core/model/model';
import {
  fixtureCopy,
  HOOK_SCRIPT,
  loadedModules,
  moduleRecorder,
  REPO,
  rng,
  STATUSLINE_SCRIPT,
  workspace,
  write,
} from './helpers';
import { emptyClaudeHome, preCompact, projectEnv, S3_STATE, sessionStart, SID } from './checkpoint-fixtures';

test('withThousands writes numbers as toLocaleString("en-US") does', () => {
  const xs = [
    0,
    7,
    999,
    1000,
    1001,
    12_345,
    999_999,
    1_000_000,
    123_456_789,
    3000,
    1500.5,
    29_000.25,
    0.125,
    0.12345,
    -1234.5,
    -7,
    116_000 / 4,
  ];
  for (const x of xs) assert.equal(withThousands(x), x.toLocaleString('en-US'), String(x));
});

test('byCodeUnits orders as the code units do', () => {
  assert.deepEqual(['b', 'B', 'a', 'session-ledger-2.md', 'session-ledger-10.md', 'A'].sort(byCodeUnits), [
    'A',
    'B',
    'a',
    'b',
    'session-ledger-10.md',
    'session-ledger-2.md',
  ]);
});

test('neither hook starts a git process: the guard needs no git fact, and SessionStart gives what a fresh context resumes from', () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  // A `git` first on PATH that records each call and runs the real one.
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  const bin = workspace({}, 'sl-bin-');
  const log = path.join(bin, 'calls');
  chmodSync(write(bin, 'git', `#!/bin/sh\necho "$@" >> '${log}'\nexec '${real}' "$@"\n`), 0o755);
  const env = {
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    HOME: workspace({}, 'sl-home-'),
    TMPDIR: workspace({}, 'sl-tmp-'),
    CLAUDE_CONFIG_DIR: emptyClaudeHome(),
    CLAUDE_PROJECT_DIR: dir,
  };
  const pre = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'pre-compact'], {
    cwd: dir,
    env,
    input: preCompact(dir),
    encoding: 'utf8',
  });
  assert.equal(pre.status, 2, pre.stderr);
  assert.match(pre.stderr, /Compaction stopped: no checkpoint/);
  assert.equal(existsSync(log), false, existsSync(log) ? readFileSync(log, 'utf8') : '');
  const ss = JSON.stringify({
    session_id: SID,
    transcript_path: '/x.jsonl',
    cwd: dir,
    hook_event_name: 'SessionStart',
    source: 'clear',
  });
  const started = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'session-start'], {
    cwd: dir,
    env,
    input: ss,
    encoding: 'utf8',
  });
  assert.equal(started.status, 0, started.stderr);
  assert.match(started.stdout, /Next action: /);
  assert.equal(existsSync(log), false, existsSync(log) ? readFileSync(log, 'utf8') : '');
  // The recorder works: `status` in the same workspace runs git through it.
  spawnSync(process.execPath, [HOOK_SCRIPT, 'status', '--root', dir], { cwd: dir, env, encoding: 'utf8' });
  assert.match(readFileSync(log, 'utf8'), /status --porcelain=v2/);
});

test("the guard hashes no file, before or after a checkpoint: node:crypto stays unloaded (SessionStart, which checks S1's attestation, loads it: the control)", () => {
  // Every system, S0's ledger (whose skeleton check reads a copy of it) and S1's attested handoff among them.
  const dir = fixtureCopy('e2e-workspace');
  const env = projectEnv(dir);
  const recorder = moduleRecorder();
  const hook = (name: string, input: string) =>
    spawnSync(process.execPath, ['--require', recorder, HOOK_SCRIPT, 'hook', name], {
      cwd: dir,
      env,
      input,
      encoding: 'utf8',
    });
  const blocked = hook('pre-compact', preCompact(dir));
  assert.equal(blocked.status, 2, blocked.stderr);
  writeFileSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`), `${SID}\n`);
  const allowed = hook('pre-compact', preCompact(dir));
  assert.equal(allowed.status, 0, allowed.stderr);
  for (const r of [blocked, allowed]) {
    const { required } = loadedModules(r.stderr);
    assert.ok(required.includes('fs'), r.stderr);
    assert.ok(!required.includes('crypto'), `crypto loaded: ${required.join(' ')}`);
  }
  const started = hook('session-start', sessionStart(dir, 'compact'));
  assert.match(started.stdout, /S1 session handoff attestation: MATCH/);
  assert.ok(loadedModules(started.stderr).required.includes('crypto'), started.stderr);
});

/** A workspace with an S3 state and its `.claude/` folder, the status line's environment there, and Claude Code's input at 42 %. */
function statusLineCase(): { dir: string; env: NodeJS.ProcessEnv; input: string } {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE, '.claude/settings.json': '{}' });
  const env = projectEnv(dir);
  const input = JSON.stringify({
    session_id: SID,
    cwd: dir,
    workspace: { project_dir: dir, current_dir: dir },
    context_window: { context_window_size: 200000, used_percentage: 42 },
  });
  return { dir, env, input };
}

test("the status line's script and the hook script hold no regular-expression literal with a Unicode property class (\\p{…}): V8 checks a literal's syntax as it parses the code around it, and for a property class that check builds ICU's set of the property on every run, whether the code runs or not", () => {
  // A literal writes `\p{` with one backslash; the same pattern built from a string is written `\\p{` in the script.
  const text = readFileSync(STATUSLINE_SCRIPT, 'utf8');
  const literals = (t: string) => t.split('\n').filter((l) => /(?<!\\)\\p\{/.test(l));
  assert.deepEqual(literals(text), []);
  // The transcript part is in the file too (the relay compiles it from there when it needs a figure).
  assert.ok(text.includes('// ---- session-ledger transcript ----'));
  // Every part of the hook script: a hook compiles its own part (every system's readers and rules), `status` the core.
  const hooks = readFileSync(HOOK_SCRIPT, 'utf8');
  assert.ok(hooks.includes('// ---- session-ledger hooks ----'));
  assert.deepEqual(literals(hooks), []);
});

test("a write of one of the tool's own files that goes ahead (the status line's record) works out no refusal's message, and its walk normalises no path per folder on its way: the file's path once, not once more for a name it would print", async () => {
  // In a process that has just started, each normalisation of a whole path costs tens of thousands of instructions.
  const nodePath = require('node:path') as typeof import('node:path');
  const dir = workspace({ '.claude/settings.json': '{}' });
  const file = feedPath(dir, SID);
  const calls = { join: 0, relative: 0 };
  const { join, relative } = nodePath;
  nodePath.join = (...a) => (calls.join++, join(...a));
  nodePath.relative = (...a) => (calls.relative++, relative(...a));
  try {
    // The walk over .claude/session-ledger/<record>: one relative() to find the parts, no join() per part.
    assert.equal(ownFileLinkProblem(file, dir), null);
    assert.deepEqual(calls, { join: 0, relative: 1 });
    // Let through: the walk's relative() only, none for the root-relative name a refusal would print.
    calls.relative = 0;
    assert.equal(refuseOwnFileLink(file, dir), false);
    assert.deepEqual(calls, { join: 0, relative: 1 });
  } finally {
    nodePath.join = join;
    nodePath.relative = relative;
  }
  // The same walk still finds each folder and the file.
  await writeAtomic(file, '{}\n', { root: dir, own: true, durable: false });
  assert.equal(readFileSync(file, 'utf8'), '{}\n');
  assert.equal(ownFileLinkProblem(file, dir), null);
  assert.equal(refuseOwnFileLink(file, dir), true);
});

test("the status line's script holds each system's presence globs and thresholds and none of its other facts (names, resume prompts, budgets, help): it compiled and built them all on every refresh", () => {
  const text = readFileSync(STATUSLINE_SCRIPT, 'utf8');
  const hot = text.slice(0, text.indexOf('// ---- session-ledger transcript ----\nfunction'));
  assert.ok(hot.length > 0);
  for (const id of SYSTEM_IDS) {
    for (const g of FACTS[id].presence) assert.ok(hot.includes(JSON.stringify(g)), `${id} ${g}`);
    assert.ok(hot.includes(`propose: ${FACTS[id].thresholds.propose}`), id);
    assert.ok(!hot.includes(JSON.stringify(FACTS[id].name)), `${id}'s name is in the status line's script`);
    assert.ok(
      !hot.includes(JSON.stringify(FACTS[id].checkpointTrigger)),
      `${id}'s trigger is in the status line's script`,
    );
  }
  // S3's verbatim resume prompt, S4's compact-state help.
  assert.ok(!hot.includes('continue from the Now'));
  assert.ok(!hot.includes('session-ledger compact-state [--root DIR]'));
});

test('the status line loads no module it does not use: node:crypto, node:zlib, node:vm, node:child_process stay unloaded, and stdin, stdout and the write of its record load neither net, tty, the streams nor fs.promises', () => {
  const { dir, env } = statusLineCase();
  // Preloaded: records every built-in module the script requires, printed when the process ends.
  const recorder = moduleRecorder();
  const input = JSON.stringify({
    session_id: SID,
    cwd: dir,
    workspace: { project_dir: dir, current_dir: dir },
    context_window: {
      context_window_size: 200000,
      used_percentage: 42,
      current_usage: { input_tokens: 4000, cache_creation_input_tokens: 0, cache_read_input_tokens: 80000 },
    },
  });
  const r = spawnSync(process.execPath, ['--require', recorder, HOOK_SCRIPT, 'statusline'], {
    cwd: dir,
    env,
    input,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'ctx 42% (84k/200k) · checkpoint now\n');
  const { required: loaded, internal } = loadedModules(r.stderr);
  assert.ok(loaded.includes('fs'), r.stderr);
  for (const m of ['crypto', 'zlib', 'vm', 'child_process'])
    assert.ok(!loaded.includes(m), `${m} loaded: ${loaded.join(' ')}`);
  // process.stdin / process.stdout would load net, tty and the stream modules (a pipe is a net.Socket),
  // and the first use of fs.promises loads internal/fs/promises and the streams too.
  assert.ok(internal.length > 10, r.stderr);
  for (const m of ['net', 'tty', 'stream', 'internal/fs/promises'])
    assert.ok(!internal.includes(`NativeModule ${m}`), `${m} loaded`);
});

test("the meter (`context --json`, and the status line's figure from a transcript) loads neither fs.promises nor Node's stream and readline modules, and the status line's script never compiles the core", () => {
  const { dir, env } = statusLineCase();
  const home = String(env.CLAUDE_CONFIG_DIR);
  const usage = JSON.stringify({
    type: 'assistant',
    sessionId: SID,
    cwd: dir,
    message: {
      model: 'claude-sonnet-4-5-20250929',
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 84000 },
    },
    timestamp: new Date().toISOString(),
  });
  const transcript = write(
    path.join(home, 'projects', dir.replace(/[^a-zA-Z0-9]/g, '-')),
    `${SID}.jsonl`,
    `${usage}\n`,
  );
  // The status line's own script (what the relay runs), with no hook script beside it: its figure from
  // a transcript needs no other part. `context` runs from the hook script's meter part.
  const script = write(
    workspace({}, 'sl-script-'),
    'session-ledger-statusline.cjs',
    readFileSync(STATUSLINE_SCRIPT, 'utf8'),
  );
  const recorder = moduleRecorder();
  const runs = [
    spawnSync(process.execPath, ['--require', recorder, HOOK_SCRIPT, 'context', '--json', '--root', dir], {
      cwd: dir,
      env,
      encoding: 'utf8',
    }),
    spawnSync(process.execPath, ['--require', recorder, script, 'statusline'], {
      cwd: dir,
      env,
      input: JSON.stringify({ session_id: SID, transcript_path: transcript, cwd: dir }),
      encoding: 'utf8',
    }),
  ];
  assert.equal(runs[0].status, 0, runs[0].stderr);
  assert.equal(JSON.parse(runs[0].stdout.replace(/LOADED[\s\S]*/, '')).usedTokens, 84000);
  assert.equal(runs[1].status, 0, runs[1].stderr);
  assert.equal(runs[1].stdout, 'ctx 42% (84k/200k) · checkpoint now\n');
  for (const r of runs) {
    const { internal } = loadedModules(r.stderr);
    assert.ok(internal.length > 10, r.stderr);
    for (const m of ['internal/fs/promises', 'stream', 'internal/readline/interface', 'net'])
      assert.ok(!internal.includes(`NativeModule ${m}`), `${m} loaded`);
  }
  // Claude Code's folder is found from $HOME (here set): node:os is loaded only for a home no variable names.
  const { required } = loadedModules(runs[1].stderr);
  assert.ok(required.includes('vm') && !required.includes('os'), required.join(' '));
});

test('stdin sent in pieces is read to its end; a closed stdin or /dev/null reads as nothing', async () => {
  const { dir, env, input } = statusLineCase();
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [HOOK_SCRIPT, 'statusline'], {
    cwd: dir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stdin.write(input.slice(0, 40));
  await new Promise((r) => setTimeout(r, 300));
  child.stdin.end(input.slice(40));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  assert.equal(code, 0);
  assert.match(out, /^ctx 42% /);
  for (const stdin of ['ignore', 'pipe'] as const) {
    const r = spawnSync(process.execPath, [HOOK_SCRIPT, 'statusline'], {
      cwd: dir,
      env,
      stdio: [stdin, 'pipe', 'pipe'],
      input: stdin === 'pipe' ? '' : undefined,
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'ctx --\n');
  }
});

// libuv makes a child's standard streams blocking, so the parent here is python3, which keeps O_NONBLOCK.
const PYTHON = spawnSync('python3', ['-c', 'pass']).status === 0;
test(
  'a non-blocking stdin that has nothing yet (EAGAIN) is asked again until its writer sends and closes',
  { skip: PYTHON ? false : 'python3 is not installed (the parent that hands over a non-blocking stdin)' },
  () => {
    const { dir, env, input } = statusLineCase();
    const parent = [
      'import os, subprocess, sys, time, fcntl',
      'r, w = os.pipe()',
      'fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)',
      'p = subprocess.Popen(sys.argv[1:], stdin=r, stdout=subprocess.PIPE)',
      'os.close(r)',
      'data = os.environ["SL_INPUT"].encode()',
      'time.sleep(0.3); os.write(w, data[:40]); time.sleep(0.2); os.write(w, data[40:]); os.close(w)',
      'out = p.communicate()[0]',
      'sys.stdout.write(out.decode())',
      'sys.exit(p.returncode)',
    ].join('\n');
    const r = spawnSync('python3', ['-c', parent, process.execPath, HOOK_SCRIPT, 'statusline'], {
      cwd: dir,
      env: { ...env, SL_INPUT: input },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ctx 42% /);
  },
);

test('the compaction count is kept for the next process: it reads only what was appended, and counts a replaced file again', () => {
  const tmp = workspace({}, 'sl-tmp-');
  const dir = workspace();
  const file = path.join(dir, `${SID}.jsonl`);
  const boundary = (i: number) =>
    `${JSON.stringify({ type: 'system', subtype: 'compact_boundary', sessionId: SID, timestamp: `2026-01-0${i}T00:00:00Z`, compactMetadata: { trigger: 'manual' } })}\n`;
  const user = `${JSON.stringify({ type: 'user', sessionId: SID, message: { role: 'user', content: 'go on' } })}\n`;
  writeFileSync(file, user + boundary(1) + user + boundary(2) + user);
  const count = () => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(path.join(REPO, 'out/src/core/context/compactions.js'))}).countCompactions(${JSON.stringify(file)}).then((c) => console.log(JSON.stringify(c)))`,
      ],
      { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    const { complete, ...c } = JSON.parse(r.stdout) as { count: number; last: string | null; complete: boolean };
    assert.equal(complete, true);
    return c;
  };
  assert.deepEqual(count(), { count: 2, last: '2026-01-02T00:00:00Z' });
  const folder = path.join(tmp, readdirSync(tmp).find((f) => f.startsWith('session-ledger-')) ?? '');
  const stored = path.join(folder, readdirSync(folder).find((f) => /^compactions-[0-9a-f]{16}\.json$/.test(f)) ?? '');
  const entry = JSON.parse(readFileSync(stored, 'utf8'));
  assert.equal(entry.file, file);
  // The next process takes the kept count as it is (nothing before the kept offset is read again).
  writeFileSync(stored, JSON.stringify({ ...entry, count: 5 }));
  assert.equal(count().count, 5);
  appendFileSync(file, boundary(3));
  assert.deepEqual(count(), { count: 6, last: '2026-01-03T00:00:00Z' });
  // Another file at the same path (a new inode) is counted from its start.
  writeFileSync(`${file}.new`, boundary(1) + user);
  renameSync(`${file}.new`, file);
  assert.deepEqual(count(), { count: 1, last: '2026-01-01T00:00:00Z' });
  // A kept entry for another path is not used.
  writeFileSync(
    stored,
    JSON.stringify({ ...JSON.parse(readFileSync(stored, 'utf8')), file: '/elsewhere.jsonl', count: 9 }),
  );
  assert.equal(count().count, 1);
});

test('codePointCount counts what [...s].length counts (a surrogate pair is one, a lone surrogate is one), on seeded random strings', () => {
  const next = rng(7);
  const units = [0x41, 0xe9, 0x4e2d, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0x0a, 0xfeff];
  for (let k = 0; k < 2000; k++) {
    const s = String.fromCharCode(
      ...Array.from({ length: Math.floor(next() * 40) }, () => units[Math.floor(next() * units.length)]),
    );
    assert.equal(codePointCount(s), [...s].length, JSON.stringify(s));
  }
  assert.equal(codePointCount('a😀b'), 3);
});
