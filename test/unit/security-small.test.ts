/**
 * The smaller holes of the attack round, each from its hostile input: a relayed status line command
 * that leaves a child running or prints without end, hooks appending to the log at the same time, a
 * file name with a line break in the marker, bidi and other format characters in a ledger, a working
 * directory deleted under the hook, a hook script changed by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { formatMarker, parseMarker } from '../../src/core/checkpoint/marker';
import { HOOK_LOG_REL } from '../../src/core/hooks/io';
import { relay, RELAY_OUTPUT_MAX } from '../../src/cli/status-line';
import { bufferIo, internalError } from '../../src/cli/io';
import {
  applyHooksPlan,
  CODEX_SCRIPT_REL,
  hooksInstalledIn,
  INSTALL_RECORD_REL,
  planHooksInstall,
  planHooksUninstall,
  SCRIPT_REL,
  STATUSLINE_SCRIPT_REL,
} from '../../src/core/hooks/install';
import { STATUSLINE_SCRIPT_NAME } from '../../src/core/hooks/files';
import { CLI_HOOK_COMMANDS, noteSaid } from '../../src/core/hooks/install-words';
import { WriteRefused } from '../../src/core/files/atomic';
import { CLI, filesUnder, git, gitInit, HOOK_SCRIPT, STATUSLINE_SCRIPT, workspace } from './helpers';
import { runIn } from './hostile-helpers';
import { CONFIRM_ALL, preCompact, S0_LEDGER, S3_STATE, s3Workspace, SID } from './checkpoint-fixtures';

/** The process runs (a zombie waiting to be reaped by init does not count). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

test("the relay's time limit kills the relayed command's whole process group, and keeps at most 64 KB of each of its streams", async () => {
  const dir = workspace({});
  const held = path.join(dir, 'held.pid');
  const loose = path.join(dir, 'loose.pid');
  const io = bufferIo({ cwd: dir });
  // A shell that starts two long children and waits for them. One keeps the relay's pipes open: killing
  // only the shell would hold the status line until that child ends. The other lets go of the pipes:
  // killing only the shell would leave it running for good.
  const cmd = `sleep 60 & echo $! > '${held}'; sleep 60 </dev/null >/dev/null 2>&1 & echo $! > '${loose}'; wait`;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'still running'>((r) => (timer = setTimeout(() => r('still running'), 10_000)));
  try {
    const code = await Promise.race([relay([cmd], '', io, 500), limit]);
    assert.notEqual(code, 'still running', 'the relay returned within 10 s of its 500 ms limit');
    assert.notEqual(code, 0);
    await new Promise((r) => setTimeout(r, 200));
    for (const f of [held, loose]) {
      const pid = Number(readFileSync(f, 'utf8'));
      assert.equal(alive(pid), false, `the shell's child ${pid} (${path.basename(f)}) was killed with it`);
    }
  } finally {
    clearTimeout(timer);
    // What a failing run left behind goes now.
    for (const f of [held, loose]) {
      const pid = existsSync(f) ? Number(readFileSync(f, 'utf8')) : 0;
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }

  const big = bufferIo({ cwd: dir });
  const flood = "const x = 'x'.repeat(5 * 1024 * 1024); process.stdout.write(x); process.stderr.write(x)";
  await relay([process.execPath, '-e', flood], '', big, 20_000);
  for (const [name, kept] of [
    ['stdout', big.out()],
    ['stderr', big.err()],
  ]) {
    assert.ok(kept.length <= RELAY_OUTPUT_MAX + 1, `${name}: kept ${kept.length} bytes`);
    assert.ok(kept.length >= RELAY_OUTPUT_MAX, `${name}: the first 64 KB are kept`);
  }
});

test('hooks run in parallel (3 processes × 400 appends) never lose a log line', async () => {
  const dir = s3Workspace();
  const io = path.join(__dirname, '..', '..', 'src', 'core', 'hooks', 'io.js');
  const go = path.join(dir, 'GO');
  // Each writer waits for GO, so the three append at the same time and not one after the other.
  const child = (k: number) =>
    new Promise<number | null>((resolve) => {
      const p = spawn(
        process.execPath,
        [
          '-e',
          `const fs = require('fs'); const { appendHookLog } = require(${JSON.stringify(io)});
          while (!fs.existsSync(process.argv[2])) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
          (async () => { for (let i = 0; i < 400; i++) await appendHookLog(process.argv[1], 'test', 'writer ${k} line ' + i); })();`,
          dir,
          go,
        ],
        { stdio: 'ignore' },
      );
      p.on('close', resolve);
    });
  const writers = [0, 1, 2].map(child);
  await new Promise((r) => setTimeout(r, 300));
  writeFileSync(go, '');
  assert.deepEqual(await Promise.all(writers), [0, 0, 0]);
  const lines = readFileSync(path.join(dir, HOOK_LOG_REL), 'utf8').split('\n').filter(Boolean);
  assert.equal(lines.length, 1200, 'every line is there');
  // Each line whole: one time stamp, one writer's text, nothing of another line mixed in.
  const bad = lines.filter((l) => !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z test writer [012] line \d{1,3}$/.test(l));
  assert.deepEqual(bad, [], 'no line is torn or mixed');
  const count = new Map<string, number>();
  for (const l of lines)
    count.set(l.slice(l.indexOf(' test ') + 6), (count.get(l.slice(l.indexOf(' test ') + 6)) ?? 0) + 1);
  for (const k of [0, 1, 2])
    for (let i = 0; i < 400; i++) assert.equal(count.get(`writer ${k} line ${i}`), 1, `writer ${k} line ${i}`);
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

test("a state file's name cannot forge the marker: a line break, or a name that says nothing-to-preserve, never lets /compact through", async () => {
  for (const name of ['docs/led\nnothing-to-preserve.md', 'docs/Nothing-To-Preserve.md']) {
    // S0's ledger under that name, as .agents.yml may name it; the checkpoint vouches for it in the marker.
    const dir = workspace({
      '.agents.yml': `session:\n  ledger: true\n  ledger_path: ${JSON.stringify(name)}\n`,
      [name]: S0_LEDGER,
    });
    gitInit(dir);
    const cp = await runIn(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
    assert.equal(cp.code, 0, cp.stdout + cp.stderr);
    const marker = readFileSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`), 'utf8');
    // S2's guard greps the whole marker for the word: it is nowhere, and the name reads back as it is.
    assert.doesNotMatch(marker, /nothing-to-preserve/i, JSON.stringify(marker));
    assert.ok(
      parseMarker(marker).hashes.some((h) => h.path === name),
      JSON.stringify(marker),
    );
    // The checkpoint is 2 hours old, over the 60-minute window, and the ledger changed since: the
    // marker no longer covers it, and the guard blocks.
    const markerFile = path.join(dir, `.claude/.checkpoint-ready.${SID}`);
    const before = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(markerFile, before, before);
    const env = { CLAUDE_PROJECT_DIR: dir, SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: '60' };
    const pre = await runIn(['hook', 'pre-compact'], { stdin: preCompact(dir), env });
    assert.equal(pre.code, 2, `${JSON.stringify(name)}: the guard blocks (${pre.stderr})`);
    assert.match(pre.stderr, /changed after the last checkpoint/);
    // Control: the opt-out itself, as old, lets it through.
    assert.equal((await runIn(['checkpoint', '--root', dir, '--session', SID, '--nothing-to-preserve'])).code, 0);
    utimesSync(markerFile, before, before);
    assert.equal((await runIn(['hook', 'pre-compact'], { stdin: preCompact(dir), env })).code, 0);
    assert.match(readFileSync(path.join(dir, HOOK_LOG_REL), 'utf8'), /allow \(nothing-to-preserve in [^\n]*\n$/);
  }
  // A marker an older version wrote, the name plain in a vouched line: not the opt-out either.
  const older = `${SID} 2026-12-03T10:00:00.000Z WORKING\n${'a'.repeat(64)}  docs/nothing-to-preserve.md\n`;
  assert.equal(parseMarker(older).nothingToPreserve, false);
  assert.equal(parseMarker('nothing-to-preserve\n').nothingToPreserve, true, "S2's hand-written opt-out");
});

test('bidi and other format characters from a ledger never reach the terminal: status, check, checkpoint, both hooks', async () => {
  // Bidi overrides and isolates, a zero-width space, an Arabic letter mark, a tag character; in the Log a line separator too.
  const evil = 'Wire \u202Eexport()\u202C into \u2066src/x.ts\u2069 and\u200B test\u061C it\u{E0041}';
  const dir = s3Workspace({
    'docs/state/STATE.md': S3_STATE.replace('wire the PreCompact hook', `${evil}: wire the PreCompact hook`).replace(
      '- Done: marker format',
      `- Done: marker format, ${evil}\u2028and \u2029more`,
    ),
  });
  // S0 with a ledger whose name and goal hold them: the guard names the file, a written checkpoint shows the goal.
  const ledger = 'docs/led\u202Egm.exe\u202C\u200B.md';
  const s0 = workspace({
    '.agents.yml': `session:\n  ledger: true\n  ledger_path: "${ledger}"\n`,
    [ledger]: S0_LEDGER.replace('Ship CSV export', `Ship ${evil} CSV export`),
  });
  gitInit(s0);
  const outs: Array<[string, string]> = [];
  const cli = async (what: string, args: string[], o: Parameters<typeof runIn>[1] = {}) => {
    const r = await runIn(args, o);
    outs.push([what, r.stdout + r.stderr]);
    return r;
  };
  for (const args of [['status'], ['status', '--json'], ['check'], ['checkpoint']])
    await cli(args.join(' '), [...args, '--root', dir]);
  const pre = await cli('hook pre-compact', ['hook', 'pre-compact'], {
    stdin: preCompact(s0),
    env: { CLAUDE_PROJECT_DIR: s0 },
  });
  assert.equal(pre.code, 2, 'no checkpoint yet: the guard blocks');
  const cp = await cli('checkpoint (written)', ['checkpoint', '--root', s0, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(cp.code, 0, cp.stderr);
  // S3's marker, so that SessionStart after /clear resumes from its state file.
  assert.equal((await runIn(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL])).code, 0);
  await cli('hook session-start', ['hook', 'session-start'], {
    stdin: JSON.stringify({ hook_event_name: 'SessionStart', source: 'clear', session_id: SID, cwd: dir }),
    env: { CLAUDE_PROJECT_DIR: dir },
  });
  for (const [what, out] of outs) {
    // Each shows the text itself, only without those characters (check and a refused checkpoint show checks).
    const shown = what === 'hook pre-compact' ? /docs\/ledgm\.exe\.md/ : /export\(\)/;
    if (!['check', 'checkpoint'].includes(what)) assert.match(out, shown, `${what} shows the text`);
    assert.doesNotMatch(
      out,
      /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029\u061C\uFEFF]|\u{E0041}/u,
      `${what}: no format character`,
    );
  }
});

test("an internal error's one line (its message may quote a file's name or text) reaches the terminal without escapes or format characters", () => {
  const io = bufferIo();
  internalError(
    io,
    'status',
    new Error('cannot read docs/\u202Eexe.md\u202C: \u001b]0;owned\u0007\u001b[31mred\u200B'),
  );
  assert.equal(io.err(), 'session-ledger status: internal error: cannot read docs/exe.md: red\n');
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

test("an install record the repository plants gives nothing back at uninstall: no settings of its own, none of the user's .gitignore lines taken out; one git tracks is neither used nor written over", async () => {
  for (const committed of [false, true]) {
    const dir = s3Workspace({ '.gitignore': 'node_modules/\n*.env\n' });
    assert.equal((await runIn(['hooks', 'install', '--root', dir])).code, 0);
    const record = path.join(dir, INSTALL_RECORD_REL);
    const real = JSON.parse(readFileSync(record, 'utf8'));
    // What uninstall would "give back": settings that run the repository's command, and the user's own line
    // before install's in .gitignore.
    const mark = path.join(dir, 'PWNED');
    const theirs = JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${mark}` }] }] },
    });
    const planted = {
      ...real,
      settingsBefore: { 'settings.json': `${theirs}\n` },
      gitignore: { appended: `*.env\n${real.gitignore.appended}`, created: false },
    };
    writeFileSync(record, JSON.stringify(planted));
    if (committed) {
      git(dir, 'add', '-f', INSTALL_RECORD_REL);
      git(dir, 'commit', '-qm', 'ship the record');
    }
    const rels = ['.claude/settings.json', '.gitignore', INSTALL_RECORD_REL];
    const before = rels.map((r) => readFileSync(path.join(dir, r), 'utf8'));
    const uninstall = await runIn(['hooks', 'uninstall', '--root', dir]);
    if (committed) {
      // Tracked: refused, nothing read from it or written, by uninstall and install alike.
      assert.equal(uninstall.code, 1, uninstall.stdout);
      assert.match(uninstall.stderr, /install\.json is tracked by git: it came with the repository/);
      assert.equal((await runIn(['hooks', 'install', '--root', dir])).code, 1);
      assert.deepEqual(
        rels.map((r) => readFileSync(path.join(dir, r), 'utf8')),
        before,
        'a file was changed',
      );
      continue;
    }
    assert.equal(uninstall.code, 0, uninstall.stderr);
    const settings = path.join(dir, '.claude/settings.json');
    const after = existsSync(settings) ? readFileSync(settings, 'utf8') : '';
    assert.doesNotMatch(after, /PWNED|touch/, `the record's settings were written: ${after}`);
    assert.equal(readFileSync(path.join(dir, '.gitignore'), 'utf8'), 'node_modules/\n*.env\n', "the user's .gitignore");
  }
});

/** An older build of both scripts, as install once wrote them: the hook script's path (the status line's beside it). */
function olderBuild(): string {
  const older = path.join(workspace({}, 'sl-build-'), 'session-ledger.cjs');
  writeFileSync(older, `${readFileSync(HOOK_SCRIPT, 'utf8')}// an older build\n`);
  writeFileSync(
    path.join(path.dirname(older), STATUSLINE_SCRIPT_NAME),
    `${readFileSync(STATUSLINE_SCRIPT, 'utf8')}// an older build\n`,
  );
  return older;
}

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

/** Stands for the build to install, whichever script a case edits. */
const NEW_BUILD = '\u0000the new build\u0000';

test('hooks install replaces no script someone changed however it was saved (CRLF, a whole new file), and uninstall removes none; line breaks alone or a copy cut short are no change', async () => {
  const older = olderBuild();
  const crlf = (t: string) => t.replace(/\n/g, '\r\n');
  const edits: Array<[string, (t: string) => string, boolean]> = [
    ['saved with CRLF, a line added', (t) => crlf(`// my tweak\n${t}`), true],
    ['replaced by their own script', () => 'console.log("mine");\n', true],
    ['its line breaks turned to CRLF (a checkout)', crlf, false],
    // A teammate's commit of the new build, checked out with CRLF line breaks.
    ['the new build, checked out with CRLF', () => NEW_BUILD, false],
  ];
  for (const rel of [SCRIPT_REL, STATUSLINE_SCRIPT_REL])
    for (const [what, edit, changed] of edits) {
      const dir = s3Workspace();
      assert.equal((await runIn(['hooks', 'install', '--statusline', '--root', dir, '--cli-bundle', older])).code, 0);
      const file = path.join(dir, rel);
      const want = readFileSync(rel === SCRIPT_REL ? HOOK_SCRIPT : STATUSLINE_SCRIPT, 'utf8');
      const edited = edit(readFileSync(file, 'utf8'));
      const theirs = edited === NEW_BUILD ? crlf(want) : edited;
      writeFileSync(file, theirs);
      const r = await runIn(['hooks', 'install', '--statusline', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
      if (!changed) {
        assert.equal(r.code, 0, `${rel} ${what}: ${r.stderr}`);
        assert.equal(readFileSync(file, 'utf8'), want, `${rel} ${what}: updated`);
        continue;
      }
      assert.equal(r.code, 1, `${rel} ${what}: ${r.stdout}`);
      assert.match(r.stderr, /was changed since `hooks install` wrote it; nothing was changed/);
      assert.equal(readFileSync(file, 'utf8'), theirs, `${rel} ${what}: their bytes are kept`);
      // Uninstall takes the hooks out and keeps their script, and says so.
      const u = await runIn(['hooks', 'uninstall', '--root', dir]);
      assert.equal(u.code, 0, u.stderr);
      assert.equal(readFileSync(file, 'utf8'), theirs, `${rel} ${what}: uninstall removed their script`);
      assert.match(u.stdout, /was changed since `hooks install` wrote it, so it was kept/);
      // Kept for good: a later install still refuses to replace it, a later uninstall keeps it again.
      assert.equal(
        (await runIn(['hooks', 'install', '--statusline', '--root', dir, '--cli-bundle', HOOK_SCRIPT])).code,
        1,
      );
      assert.equal((await runIn(['hooks', 'uninstall', '--root', dir])).code, 0);
      assert.equal(readFileSync(file, 'utf8'), theirs, `${rel} ${what}: a second uninstall removed their script`);
    }
  // A copy of the new build cut short (a half-written checkout) is damaged, not someone's work: replaced.
  const dir = s3Workspace();
  assert.equal((await runIn(['hooks', 'install', '--root', dir, '--cli-bundle', older])).code, 0);
  const full = readFileSync(HOOK_SCRIPT, 'utf8');
  writeFileSync(path.join(dir, SCRIPT_REL), full.slice(0, 4000));
  assert.equal((await runIn(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT])).code, 0);
  assert.equal(readFileSync(path.join(dir, SCRIPT_REL), 'utf8'), full);
});

test('hooks install never replaces a script edited after its plan was made (the extension asks first): nothing is written', async () => {
  const older = olderBuild();
  for (const edited of [SCRIPT_REL, STATUSLINE_SCRIPT_REL, 'a new script']) {
    const dir = s3Workspace();
    const fresh = edited === 'a new script';
    if (!fresh) await applyHooksPlan(await planHooksInstall(dir, { cliBundle: older, statusline: true }));
    // The plan replaces the older build (install wrote it, unchanged since) or writes the first one…
    const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true });
    assert.equal(plan.script, 'write');
    // …and while the user reads the preview, someone edits the script (or puts their own in place).
    const file = path.join(dir, fresh ? SCRIPT_REL : edited);
    const theirs = fresh ? '// my own hook\n' : `${readFileSync(file, 'utf8')}// my local fix\n`;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, theirs);
    const before = new Map(
      [SCRIPT_REL, STATUSLINE_SCRIPT_REL, '.claude/settings.json'].map((r) => [
        r,
        existsSync(path.join(dir, r)) ? readFileSync(path.join(dir, r), 'utf8') : null,
      ]),
    );
    await assert.rejects(
      applyHooksPlan(plan),
      (e: unknown) => e instanceof WriteRefused && e.reason === 'changed',
      edited,
    );
    assert.equal(readFileSync(file, 'utf8'), theirs, `${edited}: their bytes are kept`);
    for (const [r, text] of before)
      assert.equal(
        existsSync(path.join(dir, r)) ? readFileSync(path.join(dir, r), 'utf8') : null,
        text,
        `${edited}: ${r} is untouched`,
      );
  }
});

/** Every file under `dir` (git's own aside) → its bytes. */
function snapshot(dir: string): Map<string, string> {
  return new Map(
    filesUnder(dir)
      .filter((f) => !path.relative(dir, f).startsWith(`.git${path.sep}`))
      .map((f) => [path.relative(dir, f), readFileSync(f, 'latin1')]),
  );
}

test('hooks uninstall never removes a script edited after its plan was made (the extension asks first): nothing is changed; run again, it keeps the script as it keeps one edited before the plan', async () => {
  // The rule: a write refuses when a file changed since it was read, and nothing of the user's is lost.
  // Uninstall's plan keeps a script changed since install wrote it (it takes the hooks out and says so);
  // its apply checks again under the lock that each script it removes still has the bytes the plan
  // read, and refuses (nothing written, nothing removed) when one changed since, like install's apply.
  // The settings stay consistent: they still name the script, which is still there.
  const cases: Array<{ edited: string; codex: boolean }> = [
    { edited: SCRIPT_REL, codex: false },
    { edited: STATUSLINE_SCRIPT_REL, codex: false },
    { edited: CODEX_SCRIPT_REL, codex: true },
  ];
  for (const { edited, codex } of cases) {
    const dir = s3Workspace();
    await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: !codex, codex }));
    // The plan removes every script install wrote (unchanged since)…
    const plan = await planHooksUninstall(dir, { codex });
    assert.equal(plan.script, 'remove', edited);
    if (!codex) assert.equal(plan.statuslineScript, 'remove', edited);
    // …and while the user reads the preview, they edit one of them.
    const file = path.join(dir, edited);
    const theirs = `${readFileSync(file, 'utf8')}// my local fix, made while the preview was open\n`;
    writeFileSync(file, theirs);
    const before = snapshot(dir);
    await assert.rejects(
      applyHooksPlan(plan),
      (e: unknown) =>
        e instanceof WriteRefused &&
        e.reason === 'changed' &&
        e.file === edited &&
        /changed since it was read; nothing was written\. Run it again\./.test(e.message),
      edited,
    );
    // Nothing changed: their script, the other scripts, the settings (still naming the script), the
    // record and .gitignore.
    assert.deepEqual(snapshot(dir), before, `${edited}: nothing was written or removed`);
    // Run again: the new plan sees the edit, takes the hooks out and keeps their script, and says so.
    const again = await planHooksUninstall(dir, { codex });
    const notes = again.notes.map((n) => noteSaid(n, CLI_HOOK_COMMANDS).text);
    assert.ok(
      notes.some((n) => n.startsWith(`${edited} was changed since \`hooks install\` wrote it, so it was kept`)),
      `${edited}: ${notes.join(' | ')}`,
    );
    await applyHooksPlan(again);
    assert.equal(readFileSync(file, 'utf8'), theirs, `${edited}: their bytes are kept`);
    const settings = path.join(dir, codex ? '.codex/hooks.json' : '.claude/settings.json');
    if (existsSync(settings))
      assert.deepEqual(
        hooksInstalledIn(readFileSync(settings, 'utf8')),
        { PreCompact: false, SessionStart: false, UserPromptSubmit: false },
        `${edited}: the hooks are out`,
      );
    for (const other of codex ? [] : [SCRIPT_REL, STATUSLINE_SCRIPT_REL].filter((r) => r !== edited))
      assert.equal(existsSync(path.join(dir, other)), false, `${edited}: ${other}, unchanged, was removed`);
  }
  // A script removed by hand since the plan loses nothing: the apply goes on.
  const dir = s3Workspace();
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  const plan = await planHooksUninstall(dir);
  rmSync(path.join(dir, SCRIPT_REL));
  await applyHooksPlan(plan);
  assert.equal(existsSync(path.join(dir, '.claude/settings.json')), false, 'the settings install created are gone');
});

test("a manual PreCompact payload over the hook's 8 MB input limit is stopped, not taken as malformed (which allows): CLI and hook script, through a pipe", () => {
  const dir = s3Workspace();
  const payload = JSON.stringify({
    ...JSON.parse(preCompact(dir)),
    custom_instructions: 'x'.repeat(9 * 1024 * 1024),
  });
  for (const script of [CLI, HOOK_SCRIPT]) {
    const r = spawnSync(process.execPath, [script, 'hook', 'pre-compact'], {
      input: payload,
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(r.status, 2, `${path.basename(script)}: ${r.stderr}`);
    assert.match(r.stderr, /^Compaction stopped: the hook's input was over 8 MB, so it was not read whole/);
  }
  assert.match(readFileSync(path.join(dir, HOOK_LOG_REL), 'utf8'), /BLOCK \(input over 8 MB, not read whole\)/);
  // An automatic compaction is never stopped: its trigger comes before the instructions, in the part read.
  const auto = payload.replace('"trigger":"manual"', '"trigger":"auto"');
  assert.notEqual(auto, payload);
  const r = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'pre-compact'], {
    input: auto,
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
  });
  assert.equal(r.status, 0, r.stderr);
});
