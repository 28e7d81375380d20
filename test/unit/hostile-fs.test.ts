/**
 * Hostile repositories on disk: Restricted Mode spawns nothing, configured paths and links stay
 * inside the root, FIFOs never hang a read, writes follow links only inside the root, the hooks
 * judge and write in the project only, a marker that cannot be read lets /compact through.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { evaluate } from '../../src/core/report/evaluate';
import { readTextFile } from '../../src/core/files/fsread';
import { lockPath } from '../../src/core/files/lock';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { HOOK_LOG_REL, hookRoot } from '../../src/core/hooks/io';
import { sessionStartHook } from '../../src/core/hooks/session-start';
import { CONFIG_MAX_BYTES } from '../../src/core/model/workspace';
import { gitInit, workspace, write, REPO } from './helpers';
import { runIn } from './hostile-helpers';
import { preCompact, S3_STATE, s3Workspace, SID } from './checkpoint-fixtures';

const S0_LEDGER = `# Session Ledger

## Goal
- Ship the export button

## Now
- Wire exportCsv() into src/export.ts

## Next
- Add the end-to-end test
`;

const mkfifo = (p: string) => execFileSync('mkfifo', [p]);

/**
 * A writer waiting to open each FIFO (`exec 3>FIFO` blocks until a reader opens it): once anything
 * opens a FIFO for reading, even without blocking and only for a moment, its writer goes on and
 * leaves a mark. `fifoWatch` resolves once every writer is about to wait; `opened` names the FIFOs
 * that were opened; `stop` ends the writers still waiting.
 */
async function fifoWatch(fifos: string[]): Promise<{ opened: () => Promise<string[]>; stop: () => void }> {
  const marks = workspace({}, 'sl-fifo-marks-');
  const mark = (i: number, what: string) => path.join(marks, `${what}-${i}`);
  const writers = fifos.map((f, i) =>
    spawn('sh', ['-c', 'touch "$2"; exec 3>"$1"; touch "$3"', 'sh', f, mark(i, 'ready'), mark(i, 'opened')], {
      stdio: 'ignore',
    }),
  );
  const stop = () => {
    for (const w of writers) w.kill('SIGKILL');
  };
  // Every writer has started (a busy machine may take a while), and had a moment to reach its open.
  for (let t = 0; t < 200 && !fifos.every((_, i) => existsSync(mark(i, 'ready'))); t++)
    await new Promise((r) => setTimeout(r, 50));
  if (!fifos.every((_, i) => existsSync(mark(i, 'ready')))) {
    stop();
    assert.fail('the FIFO writers did not start');
  }
  await new Promise((r) => setTimeout(r, 100));
  return {
    opened: async () => {
      // A writer let go runs its `touch` at once; give it the time to.
      await new Promise((r) => setTimeout(r, 300));
      return fifos.filter((_, i) => existsSync(mark(i, 'opened')));
    },
    stop,
  };
}

/** Resolve within `ms` or fail: a FIFO opened for reading would block forever. */
async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>(
    (_, rej) =>
      (timer = setTimeout(() => rej(new Error(`${what} did not finish in ${ms} ms (blocked on a FIFO?)`)), ms)),
  );
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Restricted Mode at the core boundary: noGit spawns no process at all

test('noGit spawns nothing: a git on PATH that leaves a trace is never run (and is run without noGit)', async () => {
  const dir = s3Workspace();
  const bin = workspace({}, 'sl-bin-');
  const trace = path.join(bin, 'git-ran');
  write(bin, 'git', `#!/bin/sh\necho "$@" >> '${trace}'\nexit 1\n`);
  execFileSync('chmod', ['+x', path.join(bin, 'git')]);
  const oldPath = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${oldPath}`;
  try {
    const r = await evaluate(dir, { noGit: true });
    assert.equal(existsSync(trace), false, 'no git process in Restricted Mode');
    const fresh = r.systems[0].checks.find((c) => c.id === 'fresh');
    assert.equal(fresh?.status, 'skipped');
    const g = await preCompactGuard(preCompact(dir), { root: dir, log: false, noGit: true });
    assert.equal(g.rule, 'no-marker');
    assert.equal(existsSync(trace), false, 'the guard preview spawns nothing either');
    await evaluate(dir);
    assert.ok(existsSync(trace), 'control: without noGit the (fake) git does run');
  } finally {
    process.env.PATH = oldPath;
  }
});

// ---------------------------------------------------------------------------------------------
// 2. Paths from repository config stay inside the root

test('.agents.yml ledger_path outside the root (../x, /etc/passwd, a link out) is refused with a finding and never read', async () => {
  const outside = workspace({ 'secret.md': `${S0_LEDGER}- TOPSECRET-OUTSIDE\n` }, 'sl-outside-');
  for (const lp of [
    '../' + path.basename(outside) + '/secret.md',
    path.join(outside, 'secret.md'),
    '/etc/passwd',
    'linked/ledger.md',
  ]) {
    const dir = workspace({ '.agents.yml': `session:\n  ledger: true\n  ledger_path: ${lp}\n` });
    // `../<outside>/secret.md` is a real file: both folders live in the temp folder.
    mkdirSync(path.join(dir, 'linked'));
    symlinkSync(path.join(outside, 'secret.md'), path.join(dir, 'linked/ledger.md'));
    const r = await evaluate(dir, { noGit: true });
    const s0 = r.systems.find((s) => s.id === 'S0');
    assert.ok(s0, lp);
    const home = s0.docs.find((d) => d.role === 'ledger');
    assert.equal(home?.text ?? '', '', `${lp}: nothing of the file is read`);
    assert.ok(
      s0.checks.some((c) => c.status === 'fail' && /outside the workspace/.test(c.message)),
      `${lp}: a finding says why: ${s0.checks.map((c) => c.message).join(' | ')}`,
    );
    const out = await runIn(['status', '--root', dir, '--json']);
    assert.doesNotMatch(out.stdout, /TOPSECRET|root:x:0/);
    const ss = await sessionStartHook(
      JSON.stringify({ hook_event_name: 'SessionStart', source: 'clear', session_id: SID, cwd: dir }),
      { root: dir, log: false },
    );
    assert.doesNotMatch(ss.stdout ?? '', /TOPSECRET|root:x:0/);
  }
});

test('a home file that is itself a link out of the root, the manifest project_state and extraPaths settings are refused too', async () => {
  const outside = workspace(
    {
      'STATE.md': S3_STATE.replace('building the guard hooks', 'TOPSECRET-OUTSIDE'),
      'ps.md': '# Project State\n\n## Goal\n- TOPSECRET-OUTSIDE\n',
    },
    'sl-outside-',
  );
  const dir = workspace({
    '.claude/session-ledger.md': '# Session Ledger\n\n## TASK\n- real task\n\n## NEXT\n- do it\n',
    'context-manifest.yaml': `ledger: .claude/session-ledger.md\ncompaction:\n  checkpoint:\n    durable_context:\n      project_state: ${path.join(outside, 'ps.md')}\n`,
  });
  mkdirSync(path.join(dir, 'docs/state'), { recursive: true });
  symlinkSync(path.join(outside, 'STATE.md'), path.join(dir, 'docs/state/STATE.md'));
  const r = await evaluate(dir, { noGit: true, extraPaths: { S4: ['../' + path.basename(outside) + '/STATE.md'] } });
  const all = JSON.stringify(r);
  assert.doesNotMatch(all, /TOPSECRET/);
  const s3 = r.systems.find((s) => s.id === 'S3');
  assert.ok(
    s3?.checks.some((c) => c.status === 'fail' && /outside the workspace/.test(c.message)),
    'the linked STATE.md carries a finding',
  );
  const s2 = r.systems.find((s) => s.id === 'S2');
  assert.ok(
    s2?.checks.some((c) => /outside the workspace/.test(c.message)),
    'the outside project_state carries a finding',
  );
  // Manifest stores that lead outside: refused with a finding, not even looked at.
  const dir2 = workspace({
    '.claude/session-ledger.md': '## NEXT\n- do it\n',
    'context-manifest.yaml': `ledger: .claude/session-ledger.md\nmemory:\n  dir: ../${path.basename(outside)}\ncompaction:\n  checkpoint:\n    durable_context:\n      knowledge_docs: [/etc/*.conf, docs/notes.md]\n`,
  });
  const r2 = await evaluate(dir2, { noGit: true });
  const outsideChecks = r2.systems[0].checks.filter((c) => c.id === 'outside-root');
  assert.deepEqual(outsideChecks.map((c) => c.message).sort(), [
    `Store ../${path.basename(outside)} leads outside the workspace folder; it is not read.`,
    'Store /etc/*.conf leads outside the workspace folder; it is not read.',
  ]);
  assert.ok(
    r2.systems[0].checks.some((c) => c.id === 'stale-paths' && /docs\/notes\.md/.test(c.message)),
    'a store inside is still checked',
  );
});

test('a path a state file names outside the workspace is never looked at: the same finding whether it exists or not', async () => {
  const ledger = readFileSync(path.join(REPO, 'test/fixtures/s0/good/.agents/session_ledger.md'), 'utf8');
  const said: string[] = [];
  for (const target of ['../../../../../../../etc/ld.so.conf', '../../../../../../../etc/no-such-file.conf']) {
    const dir = workspace({
      '.agents.yml': 'session:\n  ledger: true\n',
      '.agents/session_ledger.md': ledger.replace(
        '- Files: src/export.ts, src/invoices.ts, docs/export.md',
        `- Files: ${target}`,
      ),
    });
    const r = await evaluate(dir, { noGit: true });
    const stale = r.systems.find((x) => x.id === 'S0')?.checks.filter((c) => c.id === 'stale-paths') ?? [];
    assert.ok(stale.length > 0, target);
    assert.ok(
      stale.every(
        (c) => c.status === 'skipped' && /is outside the workspace folder: not checked/.test(String(c.message)),
      ),
      `${target}: ${stale.map((c) => `${c.status} ${c.message}`).join(' | ')}`,
    );
    said.push(stale.map((c) => c.status).join());
  }
  assert.equal(new Set(said).size, 1, 'the same answer for a file there and one that is not');
});

test('YAML config files are capped far below the state-file cap: a huge .agents.yml or context-manifest.yaml is refused with a finding, unparsed', async () => {
  const pad = '# padding padding padding padding padding padding padding\n'.repeat(
    Math.ceil((CONFIG_MAX_BYTES + 10) / 58),
  );
  for (const [id, files] of [
    ['S0', { '.agents.yml': `session:\n  ledger: true\n${pad}`, '.agents/session_ledger.md': S0_LEDGER }],
    ['S2', { 'context-manifest.yaml': `version: 1\n${pad}`, '.claude/session-ledger.md': '# Session ledger\n' }],
  ] as const) {
    const dir = workspace({ ...files });
    const r = await evaluate(dir, { noGit: true });
    const sys = r.systems.find((s) => s.id === id);
    assert.ok(
      sys?.checks.some((c) => c.status === 'fail' && /limit for this file/.test(c.message)),
      `${id}: ${sys?.checks.map((c) => c.message).join(' | ')}`,
    );
  }
  assert.ok(CONFIG_MAX_BYTES <= 256 * 1024);
});

// ---------------------------------------------------------------------------------------------
// 4. FIFOs never hang a read

test('the FIFO watch is real: a non-blocking open of a moment is seen, a stat is not', async () => {
  const dir = workspace({});
  const [seen, untouched] = [path.join(dir, 'seen'), path.join(dir, 'untouched')];
  mkfifo(seen);
  mkfifo(untouched);
  const watch = await fifoWatch([seen, untouched]);
  try {
    closeSync(openSync(seen, constants.O_RDONLY | constants.O_NONBLOCK));
    statSync(untouched);
    assert.deepEqual(await watch.opened(), [seen]);
  } finally {
    watch.stop();
  }
});

test('attest (even --dry-run) with a FIFO as handoff or sidecar returns at once, and never opens it', async () => {
  const dir = workspace({ 'memory/session-handoff-LATEST.md': '# Session Handoff\n\n## What to do now\n1. x\n' });
  const dir2 = workspace({});
  mkdirSync(path.join(dir2, 'memory'));
  const fifos = [path.join(dir, 'memory/.session-handoff.sha256'), path.join(dir2, 'memory/session-handoff-LATEST.md')];
  for (const f of fifos) mkfifo(f);
  const watch = await fifoWatch(fifos);
  try {
    const dry = await within(5000, 'attest --dry-run', runIn(['attest', '--root', dir, '--dry-run']));
    const real = await within(5000, 'attest', runIn(['attest', '--root', dir]));
    assert.equal(real.code, 1);
    assert.match(real.stderr, /not a regular file/);
    // The dry run refuses as the write does, in its words.
    assert.equal(dry.code, 1, dry.stdout);
    assert.equal(dry.stderr, real.stderr);
    const none = await within(5000, 'attest on a FIFO handoff', runIn(['attest', '--root', dir2, '--dry-run']));
    assert.equal(none.code, 1);
    assert.deepEqual(await watch.opened(), [], 'no FIFO was opened');
  } finally {
    watch.stop();
  }
});

test('hooks install (even --dry-run) with a FIFO at the script path, the settings path or as --cli-bundle returns at once, and never opens it', async () => {
  for (const where of ['.claude/hooks/session-ledger.cjs', '.claude/settings.json']) {
    const dir = workspace({});
    mkdirSync(path.dirname(path.join(dir, where)), { recursive: true });
    mkfifo(path.join(dir, where));
    const watch = await fifoWatch([path.join(dir, where)]);
    try {
      for (const dry of [['--dry-run'], []]) {
        const r = await within(
          5000,
          `hooks install ${dry.join(' ')} (${where})`,
          runIn(['hooks', 'install', '--root', dir, ...dry]),
        );
        assert.notEqual(r.code, 2, r.stderr);
      }
      assert.deepEqual(await watch.opened(), [], `${where}: the FIFO was not opened`);
    } finally {
      watch.stop();
    }
  }
  const dir = workspace({});
  mkfifo(path.join(dir, 'bundle.js'));
  const watch = await fifoWatch([path.join(dir, 'bundle.js')]);
  try {
    const r = await within(
      5000,
      'hooks install --cli-bundle FIFO',
      runIn(['hooks', 'install', '--root', dir, '--dry-run', '--cli-bundle', path.join(dir, 'bundle.js')]),
    );
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not a readable regular file/);
    assert.deepEqual(await watch.opened(), [], 'the bundle FIFO was not opened');
  } finally {
    watch.stop();
  }
});

test('a FIFO at the hook log or at a write lock never hangs: the hook decides, the write action refuses with a message', () => {
  // Each in a process of its own with a time limit: a blocking open would stop this one's clock too.
  const inChild = (code: string) =>
    spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', timeout: 5000, killSignal: 'SIGKILL' });
  const hookLog = s3Workspace();
  mkdirSync(path.join(hookLog, '.claude/log'), { recursive: true });
  mkfifo(path.join(hookLog, HOOK_LOG_REL));
  const guard = inChild(
    `require(${JSON.stringify(require.resolve('../../src/core/hooks/io'))})
      .appendHookLog(${JSON.stringify(hookLog)}, 'PreCompact', 'x').then(() => console.log('returned'));`,
  );
  assert.equal(guard.signal, null, 'the hook log append returned (it hung on the FIFO)');
  assert.match(guard.stdout, /returned/);

  const locked = s3Workspace();
  const state = path.join(locked, 'docs/state/STATE.md');
  mkfifo(lockPath(state));
  const lock = inChild(
    `require(${JSON.stringify(require.resolve('../../src/core/files/lock'))})
      .withWriteLock(${JSON.stringify(state)}, ${JSON.stringify(locked)}, async () => console.log('ran'), { waitMs: 200 })
      .catch((e) => console.log(e.reason, e.message));`,
  );
  assert.equal(lock.signal, null, 'the lock returned (it hung reading the FIFO)');
  assert.match(
    lock.stdout,
    /^io .*docs\/state\/\.STATE\.md\.session-ledger\.lock is not a regular file; nothing was written/,
  );
  assert.equal(readFileSync(state, 'utf8'), S3_STATE);
});

test('every state-file read refuses a FIFO, never opening it, and says so (the evaluation of a folder full of pipes finishes)', async () => {
  const dir = workspace({});
  const rels = [
    '.agents.yml',
    '.claude/session-ledger.md',
    'docs/state/STATE.md',
    '.agents/STATE.md',
    'memory/session-handoff-LATEST.md',
    'context-manifest.yaml',
  ];
  for (const rel of rels) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    mkfifo(path.join(dir, rel));
  }
  const watch = await fifoWatch(rels.map((rel) => path.join(dir, rel)));
  try {
    const r = await within(10_000, 'evaluate', evaluate(dir, { noGit: true }));
    assert.ok(r.systems.length >= 1);
    const said = r.systems.flatMap((s) => s.checks).filter((c) => /not a regular file/.test(c.message));
    assert.ok(said.length >= 1, 'a finding says a pipe is not read');
    assert.deepEqual(await watch.opened(), [], 'no FIFO was opened');
  } finally {
    watch.stop();
  }
});

// ---------------------------------------------------------------------------------------------
// 6. The hooks' root and their writes

test('hooks: the root is $CLAUDE_PROJECT_DIR; a payload cwd outside it is ignored; "/" and the home folder are never written', async () => {
  const dir = s3Workspace();
  const other = s3Workspace();
  assert.equal(hookRoot({ cwd: other }, { CLAUDE_PROJECT_DIR: dir }, '/'), dir);
  assert.equal(hookRoot({ cwd: path.join(dir, 'docs') }, { CLAUDE_PROJECT_DIR: dir }, '/'), dir);
  const d = await preCompactGuard(preCompact(other), { env: { CLAUDE_PROJECT_DIR: dir } });
  assert.equal(d.root, dir);
  assert.equal(existsSync(path.join(other, '.claude')), false, 'nothing written where the payload cwd points');
  assert.ok(existsSync(path.join(dir, HOOK_LOG_REL)));

  const slashLog = path.join('/', HOOK_LOG_REL);
  const before = existsSync(slashLog);
  const r = await runIn(['hook', 'pre-compact'], {
    cwd: '/',
    stdin: JSON.stringify({ hook_event_name: 'PreCompact', trigger: 'manual', session_id: SID, cwd: '/' }),
    env: { CLAUDE_PROJECT_DIR: '' },
  });
  assert.ok(r.code === 0 || r.code === 2);
  await runIn(['hook', 'session-start'], {
    cwd: '/',
    stdin: JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', session_id: SID, cwd: '/' }),
    env: { CLAUDE_PROJECT_DIR: '' },
  });
  if (!before) assert.equal(existsSync(slashLog), false, '/.claude/log was not created');
  assert.equal(existsSync('/.claude/session-ledger/session.json') && !before, false);
  const home = os.homedir();
  const homeLog = path.join(home, HOOK_LOG_REL);
  const homeBefore = existsSync(homeLog) ? readFileSync(homeLog, 'utf8') : null;
  await runIn(['hook', 'pre-compact'], {
    cwd: home,
    stdin: JSON.stringify({ hook_event_name: 'PreCompact', trigger: 'auto', cwd: home }),
    env: { CLAUDE_PROJECT_DIR: '' },
  });
  assert.equal(
    existsSync(homeLog) ? readFileSync(homeLog, 'utf8') : null,
    homeBefore,
    "the home folder's .claude is not written",
  );
});

// ---------------------------------------------------------------------------------------------
// 7. The guard allows on its own read error

test('what stands at the marker and is no file the tool wrote (a symlink loop, a folder) is no checkpoint: the guard blocks and says to remove it', async () => {
  for (const [make, what] of [
    [(p: string) => symlinkSync(path.basename(p), p), 'a symbolic link'],
    [(p: string) => mkdirSync(p), 'a folder'],
  ] as const) {
    const dir = s3Workspace();
    mkdirSync(path.join(dir, '.claude'), { recursive: true });
    make(path.join(dir, `.claude/.checkpoint-ready.${SID}`));
    const d = await preCompactGuard(preCompact(dir), { root: dir });
    assert.deepEqual([d.allow, d.rule], [false, 'no-marker'], what);
    assert.match(d.reason, new RegExp(`is ${what}, not a marker Session Ledger wrote`), what);
    assert.match(
      readFileSync(path.join(dir, HOOK_LOG_REL), 'utf8'),
      new RegExp(`BLOCK \\(\\.claude/\\.checkpoint-ready\\.${SID} is ${what}`),
    );
  }
  // Missing is no checkpoint either: it blocks.
  const dir = s3Workspace();
  assert.equal((await preCompactGuard(preCompact(dir), { root: dir, log: false })).rule, 'no-marker');
});

// ---------------------------------------------------------------------------------------------
// 8. Symlinks on write

test('a symlinked settings.json or .agents/STATE.md is written through (the link stays); a target outside the root is refused', async () => {
  const dir = workspace({ 'shared/settings.json': '{\n  "model": "opus"\n}\n' });
  gitInit(dir);
  mkdirSync(path.join(dir, '.claude'));
  symlinkSync('../shared/settings.json', path.join(dir, '.claude/settings.json'));
  const r = await runIn(['hooks', 'install', '--root', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(lstatSync(path.join(dir, '.claude/settings.json')).isSymbolicLink(), 'still a link');
  assert.equal(readlinkSync(path.join(dir, '.claude/settings.json')), '../shared/settings.json');
  assert.match(readFileSync(path.join(dir, 'shared/settings.json'), 'utf8'), /PreCompact/);

  const outside = workspace({ 'settings.json': '{}\n' }, 'sl-outside-');
  const dir2 = workspace({});
  mkdirSync(path.join(dir2, '.claude'));
  symlinkSync(path.join(outside, 'settings.json'), path.join(dir2, '.claude/settings.json'));
  const r2 = await runIn(['hooks', 'install', '--root', dir2]);
  assert.equal(r2.code, 1);
  assert.match(r2.stderr, /leads outside the workspace/);
  assert.equal(readFileSync(path.join(outside, 'settings.json'), 'utf8'), '{}\n');

  // A whole .claude that links out of the root: no write at all (hooks, checkpoint marker, hook log).
  const dir3 = s3Workspace();
  const out3 = workspace({}, 'sl-outside-');
  symlinkSync(out3, path.join(dir3, '.claude'));
  assert.equal((await runIn(['hooks', 'install', '--root', dir3])).code, 1);
  const cp = await runIn(['checkpoint', '--root', dir3, '--nothing-to-preserve']);
  assert.equal(cp.code, 1, cp.stdout);
  await preCompactGuard(preCompact(dir3), { root: dir3 });
  assert.deepEqual(require('node:fs').readdirSync(out3), [], 'nothing was written outside the root');

  // The atomic writer itself: through a link inside, refused outside.
  const dir4 = workspace({ 'real/STATE.md': 'old\n' });
  mkdirSync(path.join(dir4, '.agents'));
  symlinkSync('../real/STATE.md', path.join(dir4, '.agents/STATE.md'));
  await writeAtomic(path.join(dir4, '.agents/STATE.md'), 'new\n', { root: dir4 });
  assert.ok(lstatSync(path.join(dir4, '.agents/STATE.md')).isSymbolicLink());
  assert.equal(readFileSync(path.join(dir4, 'real/STATE.md'), 'utf8'), 'new\n');
  await assert.rejects(
    writeAtomic(path.join(dir4, '.agents/STATE.md'), 'x', { root: path.join(dir4, '.agents') }),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'outside',
  );
});

// ---------------------------------------------------------------------------------------------
// 11. --expect-hash is case-insensitive

test('compact-state and rotate-log accept the preview hash in upper case', async () => {
  const s4 = `# Agent State\n\n## Current Project\n- old\n\n## Current Project\n- new\n\n## Progress Tracker\n- [ ] x\n`;
  const dir = workspace({ '.agents/STATE.md': s4 });
  const prev = await runIn(['compact-state', '--root', dir, '--json']);
  const hash = JSON.parse(prev.stdout).state_hash_before as string;
  const r = await runIn(['compact-state', '--root', dir, '--apply', '--expect-hash', hash.toUpperCase()]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(readFileSync(path.join(dir, '.agents/STATE.md'), 'utf8'), /- old/);
});

// ---------------------------------------------------------------------------------------------
// 14. Torn reads

test('a state file that changes while it is read is read again: the result is the file as it stands after the change', async () => {
  const dir = workspace({ 'STATE.md': '# State\n\n## Now\n- half' });
  const file = path.join(dir, 'STATE.md');
  let attempts = 0;
  const f = await readTextFile(file, undefined, {
    afterRead: (n) => {
      attempts = n;
      // The agent finishes writing the file in place while we read it.
      if (n === 1) writeFileSync(file, '# State\n\n## Now\n- half of it is done, the rest is next\n');
    },
  });
  assert.equal(attempts, 2);
  assert.ok(f.ok);
  assert.equal(f.text, '# State\n\n## Now\n- half of it is done, the rest is next\n');
});
