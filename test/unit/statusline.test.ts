/** `session-ledger statusline [-- CMD…]`: records Claude Code's figure, relays or prints a status line. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { ContextFollower, encodeClaudeProjectDir, feedPath, parseFeed } from '../../src/core/context';
import { isoTime } from '../../src/core/context/feed';
import { cli, fixtureCopy, gitInit, hookScript, REPO, STATUSLINE_SCRIPT, workspace, write } from './helpers';
import { STATUS_WORDS } from '../../src/cli/status-line';
import { markerRel, SHARED_MARKER_REL } from '../../src/core/checkpoint/marker';
import { checkpointDone, preCompactGuard } from '../../src/core/hooks/guard';
import { HOOK_HOOKS_MARKER } from '../../src/core/hooks/files';
import { guardCheckpointed } from '../../src/core/checkpoint/freshness';
import { asst, lines, ofFolder } from './context-records';
import { turnBegan } from './checkpoint-fixtures';

const SID = '6c2214d7-b87e-4432-8e41-22ba294ea584';

function statusInput(root: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hook_event_name: 'Status',
    session_id: SID,
    transcript_path: `/home/u/.claude/projects/x/${SID}.jsonl`,
    cwd: root,
    model: { id: 'claude-opus-4-6', display_name: 'Opus' },
    workspace: { current_dir: root, project_dir: root },
    version: '2.1.39',
    context_window: {
      total_input_tokens: 15234,
      total_output_tokens: 4521,
      context_window_size: 200000,
      used_percentage: 53.87,
      remaining_percentage: 46.13,
      current_usage: {
        input_tokens: 8,
        output_tokens: 1200,
        cache_creation_input_tokens: 2000,
        cache_read_input_tokens: 105733,
      },
    },
    ...extra,
  };
}

test('statusline records the JSON atomically per session under .claude/session-ledger and prints its own line', () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  const r = cli(['statusline'], { input: JSON.stringify(statusInput(root)), cwd: '/' });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'ctx 53.8% (107.7k/200k)\n');
  const file = feedPath(root, SID);
  assert.equal(file, path.join(root, '.claude', 'session-ledger', `statusline.${SID}.json`));
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(rec.version, 1);
  assert.equal(rec.sessionId, SID);
  assert.ok(Math.abs(Date.parse(rec.receivedAt) - Date.now()) < 60_000);
  assert.match(rec.receivedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.deepEqual(rec.input, statusInput(root));
  assert.deepEqual(readdirSync(path.dirname(file)), [path.basename(file)], 'no temp file left');
  const f = parseFeed(readFileSync(file, 'utf8'));
  assert.equal(f?.percent, 53.87);
  assert.equal(f?.usedTokens, 107741);
  assert.equal(f?.windowTokens, 200000);
});

test("the record's time is the text Date#toISOString gives, from 1970 to 9999, and Date's own outside", () => {
  const day = 86_400_000;
  const edges = [
    0,
    1,
    day - 1,
    day,
    Date.UTC(1972, 1, 29, 23, 59, 59, 999), // a leap day
    Date.UTC(2000, 1, 29), // a leap day in a year divisible by 400
    Date.UTC(2100, 2, 1) - 1, // 2100 is no leap year
    Date.UTC(2026, 11, 31, 23, 59, 59, 999),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    1_764_878_484_463.7, // a fraction of a millisecond is cut off, as Date does
  ];
  // Every day of four centuries at a time of day that moves with the day, and 20,000 random times.
  const days = Array.from({ length: 146_097 }, (_, i) => Date.UTC(1970, 0, 1) + i * day + ((i * 7_919_993) % day));
  let seed = 42;
  const random = Array.from({ length: 20_000 }, () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((seed / 2_147_483_648) * 253_402_300_800_000);
  });
  for (const ms of [...edges, ...days, ...random]) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
  assert.equal(isoTime(-1), new Date(-1).toISOString());
  assert.equal(isoTime(253_402_300_800_000), new Date(253_402_300_800_000).toISOString());
  assert.throws(() => isoTime(NaN), RangeError);
});

test('statusline shows the level at the thresholds', () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  const input = statusInput(root);
  (input.context_window as Record<string, unknown>).used_percentage = 85.5;
  const r = cli(['statusline'], { input: JSON.stringify(input) });
  assert.equal(r.stdout, 'ctx 85.5% (107.7k/200k) · checkpoint now\n');
  // Past the proposal mark: the words the status bar says ("Checkpoint proposed"), one vocabulary.
  (input.context_window as Record<string, unknown>).used_percentage = 65;
  const p = cli(['statusline'], { input: JSON.stringify(input) });
  assert.equal(p.stdout, 'ctx 65% (107.7k/200k) · checkpoint proposed\n');
});

test('past a mark after a checkpoint the status line says "checkpoint done", as the status bar does, while the guard would let /compact through on it and the conversation has not gone on; nothing-to-preserve saves nothing', () => {
  const root = fixtureCopy('s3/good');
  mkdirSync(path.join(root, '.claude'));
  gitInit(root);
  // The checkpoint is run in the agent's turn, which began before it.
  const turn = turnBegan(SID);
  const line = (pct: number) => {
    const input = statusInput(root, { transcript_path: turn });
    (input.context_window as Record<string, unknown>).used_percentage = pct;
    const r = cli(['statusline'], { input: JSON.stringify(input) });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim();
  };
  // Past S3's urgent mark (40 %), no checkpoint yet.
  assert.equal(line(53.87), 'ctx 53.8% (107.7k/200k) · checkpoint now');
  const cp = cli(['checkpoint', '--root', root, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(cp.code, 0, cp.stdout + cp.stderr);
  // The same figure (Claude Code reported it before the checkpoint), and one of the checkpoint's own turn.
  assert.equal(line(53.87), 'ctx 53.8% (107.7k/200k) · checkpoint done');
  assert.equal(line(54.5), 'ctx 54.5% (107.7k/200k) · checkpoint done');
  // A figure first reported more than a turn after the checkpoint: the conversation went on.
  const marker = path.join(root, markerRel(SID));
  const fiveMinAgo = (Date.now() - 5 * 60_000) / 1000;
  utimesSync(marker, fiveMinAgo, fiveMinAgo);
  assert.equal(line(55), 'ctx 55% (107.7k/200k) · checkpoint now');
  // The figure still the checkpoint's turn.
  const now = Date.now() / 1000;
  for (const rel of ['docs/state/STATE.md', 'docs/state/DEBT.md', 'docs/state/log/2026-02.md'])
    utimesSync(path.join(root, rel), now - 120, now - 120);
  utimesSync(marker, now - 60, now - 60);
  assert.equal(line(55), 'ctx 55% (107.7k/200k) · checkpoint done');
  // A state file written since is checked again by the guard: only touched, it still passes; emptied, it
  // stops /compact, and the status line says so as the guard does.
  utimesSync(path.join(root, 'docs/state/STATE.md'), now, now);
  assert.equal(line(55), 'ctx 55% (107.7k/200k) · checkpoint done');
  const state = readFileSync(path.join(root, 'docs/state/STATE.md'));
  writeFileSync(path.join(root, 'docs/state/STATE.md'), '');
  assert.equal(line(55), 'ctx 55% (107.7k/200k) · checkpoint now');
  writeFileSync(path.join(root, 'docs/state/STATE.md'), state);
  utimesSync(path.join(root, 'docs/state/STATE.md'), now - 120, now - 120);
  assert.equal(line(55), 'ctx 55% (107.7k/200k) · checkpoint done');
  // Nothing to preserve lets /compact through, but no checkpoint saved anything.
  rmSync(marker);
  writeFileSync(path.join(root, SHARED_MARKER_REL), 'nothing-to-preserve\n');
  assert.equal(line(55), 'ctx 55% (107.7k/200k) · checkpoint now');
});

test('a state file written since the checkpoint and still whole: the guard checks it in the status line\'s process and says "checkpoint done"; a guard that allows only because it could not check never does', async () => {
  const root = fixtureCopy('s3/good');
  mkdirSync(path.join(root, '.claude'));
  gitInit(root);
  const cp = cli(['checkpoint', '--root', root, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(cp.code, 0, cp.stdout + cp.stderr);
  const marker = path.join(root, markerRel(SID));
  const now = Date.now() / 1000;
  for (const rel of ['docs/state/STATE.md', 'docs/state/DEBT.md', 'docs/state/log/2026-02.md'])
    utimesSync(path.join(root, rel), now - 120, now - 120);
  utimesSync(marker, now - 60, now - 60);
  utimesSync(path.join(root, 'docs/state/STATE.md'), now, now);
  // The guard runs every rule of S3 on it, in this process as in the hook script's.
  const payload = { session_id: SID, cwd: root, hook_event_name: 'PreCompact', trigger: 'manual' };
  const d = await preCompactGuard(JSON.stringify(payload), { root, log: false });
  assert.deepEqual([d.allow, d.rule, d.unchecked], [true, 'fresh', undefined], d.log);
  const q = { sessionId: SID, transcript: turnBegan(SID), env: {}, figureAt: new Date().toISOString() };
  assert.equal(await checkpointDone(root, q), true);
  // The same allow, had the guard been unable to check them, is no "checkpoint done".
  assert.equal(guardCheckpointed({ ...d, unchecked: 'the evaluation failed' }, Date.now()), false);
  assert.equal(guardCheckpointed(d, d.markerMtime ?? NaN), true, "a figure of the marker's time");
  const input = statusInput(root, { transcript_path: q.transcript });
  assert.equal(
    cli(['statusline'], { input: JSON.stringify(input) }).stdout.trim(),
    'ctx 53.8% (107.7k/200k) · checkpoint done',
  );
});

test('a hook script without its hooks part (a copy cut short): the status line asks the core, as the hook then does, and agrees with it', () => {
  const root = fixtureCopy('s3/good');
  mkdirSync(path.join(root, '.claude'));
  gitInit(root);
  assert.equal(cli(['hooks', 'install', '--statusline', '--root', root]).code, 0);
  const cp = cli(['checkpoint', '--root', root, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(cp.code, 0, cp.stdout + cp.stderr);
  const hook = path.join(root, '.claude', 'hooks', 'session-ledger.cjs');
  const text = readFileSync(hook, 'utf8');
  writeFileSync(hook, text.slice(0, text.indexOf(`\n${HOOK_HOOKS_MARKER}\n`) + 1));
  const env = { ...process.env, CLAUDE_PROJECT_DIR: root };
  const sl = spawnSync(process.execPath, ['.claude/hooks/session-ledger-statusline.cjs', 'statusline'], {
    cwd: root,
    env,
    // The checkpoint's own turn: it began before the checkpoint.
    input: JSON.stringify(statusInput(root, { transcript_path: turnBegan(SID) })),
    encoding: 'utf8',
  });
  assert.equal(sl.stdout.trim(), 'ctx 53.8% (107.7k/200k) · checkpoint done', sl.stderr);
  const payload = JSON.stringify({ session_id: SID, cwd: root, hook_event_name: 'PreCompact', trigger: 'manual' });
  const pc = spawnSync(process.execPath, ['.claude/hooks/session-ledger.cjs', 'hook', 'pre-compact'], {
    cwd: root,
    env,
    input: payload,
    encoding: 'utf8',
  });
  assert.equal(pc.status, 0, pc.stderr);
});

test('a marker the guard takes no checkpoint from is no "checkpoint done", whatever its file times say: one touched by hand over an empty skeleton, a link at its path', () => {
  const root = fixtureCopy('s3/template');
  mkdirSync(path.join(root, '.claude'));
  gitInit(root);
  const input = statusInput(root);
  const line = () => cli(['statusline'], { input: JSON.stringify(input) }).stdout.trim();
  const marker = path.join(root, markerRel(SID));
  writeFileSync(marker, '');
  assert.equal(line(), 'ctx 53.8% (107.7k/200k) · checkpoint now');
  rmSync(marker);
  const elsewhere = path.join(workspace({}), 'marker');
  writeFileSync(elsewhere, `${SID} ${new Date().toISOString()} WORKING\n`);
  symlinkSync(elsewhere, marker);
  assert.equal(line(), 'ctx 53.8% (107.7k/200k) · checkpoint now');
});

test('statusline -- CMD relays the previous status line fed the same stdin (shell for one argument, argv for several)', () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  const input = JSON.stringify(statusInput(root));
  const script = write(
    root,
    'prev.js',
    "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const j=JSON.parse(s);console.log('PREV '+j.model.display_name+' '+j.context_window.used_percentage+' '+process.argv.slice(2).join('|'))})",
  );
  let r = cli(['statusline', '--', `${JSON.stringify(process.execPath)} ${JSON.stringify(script)} "a b" c`], { input });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'PREV Opus 53.87 a b|c\n');
  r = cli(['statusline', '--', process.execPath, script, 'a b', 'c'], { input });
  assert.equal(r.stdout, 'PREV Opus 53.87 a b|c\n');
  assert.ok(existsSync(feedPath(root, SID)), 'recorded as well');
  // The previous command's failure is its own: exit code passed through.
  r = cli(['statusline', '--', 'exit 7'], { input });
  assert.equal(r.code, 7);
  // Not JSON: still relayed untouched, nothing recorded.
  const other = workspace({ '.claude/settings.json': '{}' });
  r = cli(['statusline', '--', 'cat'], { input: 'not json', cwd: other });
  assert.equal(r.stdout, 'not json\n');
  assert.equal(existsSync(path.join(other, '.claude', 'session-ledger')), false);
  // The user's own status line's output passes as it is: its colours (ESC[31m) and a bidi override
  // (U+202E) too, relayed by the CLI and by the installed relay script, as Claude Code runs it.
  const own = '\u001b[31mred\u001b[0m \u001b[1;32mbold green\u001b[0m \u202eright-to-left\u202c\n';
  const colour = write(root, 'colour.js', `process.stdout.write(${JSON.stringify(own)})`);
  r = cli(['statusline', '--', process.execPath, colour], { input });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, own, 'relayed by the CLI unchanged');
  const relayed = spawnSync(process.execPath, [STATUSLINE_SCRIPT, 'statusline', '--', process.execPath, colour], {
    cwd: root,
    input,
    encoding: 'utf8',
  });
  assert.equal(relayed.status, 0, relayed.stderr);
  assert.equal(relayed.stdout, own, 'relayed by the status line script unchanged');
});

test('statusline writes only into a project that has .claude/ (or --root); without a figure it asks the meter', () => {
  const bare = workspace();
  const input = statusInput(bare);
  delete input.context_window;
  let r = cli(['statusline'], { input: JSON.stringify(input), cwd: bare });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, 'ctx --\n');
  assert.equal(existsSync(path.join(bare, '.claude')), false);
  // With a transcript the meter reads it.
  const t = write(bare, `${SID}.jsonl`, lines(asst({ read: 30000, input: 0 })));
  r = cli(['statusline'], { input: JSON.stringify({ ...input, transcript_path: t }), cwd: bare });
  assert.equal(r.stdout, 'ctx 15% (30k/200k)\n');
  // --root creates the folder.
  r = cli(['statusline', '--root', bare], { input: JSON.stringify(statusInput(bare)) });
  assert.equal(r.code, 0);
  assert.ok(existsSync(feedPath(bare, SID)));
  assert.equal(cli(['statusline', '--bogus'], { input: '{}' }).code, 2);
});

test("without a figure of Claude Code's, the status line measures only the session its JSON names: none named gives no figure, never the folder's newest session", () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  const home = workspace({}, 'sl-claude-');
  const env = { CLAUDE_CONFIG_DIR: home };
  write(
    path.join(home, 'projects', encodeClaudeProjectDir(root)),
    `${SID}.jsonl`,
    ofFolder(lines(asst({ read: 30000, input: 0, session: SID })), root),
  );
  const input = { cwd: root, workspace: { current_dir: root, project_dir: root } };
  // The session named by its id: its own transcript in the folder's project folder.
  let r = cli(['statusline'], { input: JSON.stringify({ ...input, session_id: SID }), cwd: root, env });
  assert.equal(r.stdout, 'ctx 15% (30k/200k)\n');
  // No session named (no id, no transcript): no figure, although the folder has a session.
  for (const none of [input, { ...input, session_id: 'not-a-session-id' }]) {
    r = cli(['statusline'], { input: JSON.stringify(none), cwd: root, env });
    assert.equal(r.stdout, 'ctx --\n', JSON.stringify(none));
  }
});

test('the meter prefers a feed newer than the transcript figure and says so; an older or foreign feed is ignored', async () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  const home = workspace({}, 'sl-claude-');
  const transcript = write(
    path.join(home, 'projects', encodeClaudeProjectDir(root)),
    `${SID}.jsonl`,
    ofFolder(
      lines(asst({ read: 30000, input: 0, session: SID, at: new Date(Date.now() - 60_000).toISOString() })),
      root,
    ),
  );
  const ref = { agent: 'claude' as const, sessionId: SID, path: transcript, mtime: 0 };
  const f = new ContextFollower(ref, { root });
  let u = await f.read();
  assert.equal(u?.source, 'transcript');
  assert.equal(u?.usedTokens, 30000);
  assert.equal(cli(['statusline'], { input: JSON.stringify(statusInput(root)) }).code, 0);
  u = await f.read();
  assert.equal(u?.source, 'statusline');
  assert.equal(u?.percent, 53.87);
  assert.equal(u?.usedTokens, 107741);
  assert.equal(u?.windowTokens, 200000);
  assert.equal(u?.sessionId, SID);
  assert.equal(u?.transcriptPath, transcript);
  // The CLI says the same.
  const j = JSON.parse(cli(['context', '--json', '--root', root], { env: { CLAUDE_CONFIG_DIR: home } }).stdout);
  assert.equal(j.source, 'statusline');
  assert.equal(j.percent, 53.87);
  // The transcript moves on past the feed: the transcript wins again.
  const { appendFileSync } = await import('node:fs');
  appendFileSync(
    transcript,
    lines(asst({ read: 40000, input: 0, id: 'm2', session: SID, at: new Date(Date.now() + 60_000).toISOString() })),
  );
  u = await f.read();
  assert.equal(u?.source, 'transcript');
  assert.equal(u?.usedTokens, 40000);
  // A feed of another session is never used.
  const other = new ContextFollower({ ...ref, sessionId: 'ffffffff-b87e-4432-8e41-22ba294ea584' }, { root });
  assert.equal((await other.read())?.source, 'transcript');
  // A feed with no figure yet (used_percentage null before the first API call) is ignored.
  const input = statusInput(root);
  (input.context_window as Record<string, unknown>).used_percentage = null;
  (input.context_window as Record<string, unknown>).current_usage = null;
  cli(['statusline'], { input: JSON.stringify(input) });
  const fresh = new ContextFollower(ref, { root });
  assert.equal((await fresh.read())?.source, 'transcript');
});

test('the status line waits for stdin on a socket with one pool thread, and the command it relays does not inherit that setting', () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  // At exit: how many threads the process had (Linux lists them under /proc/self/task).
  const threads = write(
    root,
    'threads.cjs',
    "process.on('exit',()=>{try{process.stderr.write('threads='+require('fs').readdirSync('/proc/self/task').length)}catch{}})",
  );
  const { UV_THREADPOOL_SIZE: _, ...env } = process.env;
  // spawnSync hands stdin over as Node's child processes get it: a socket, read in the thread pool.
  const run = (extra: NodeJS.ProcessEnv) =>
    spawnSync(
      process.execPath,
      ['--require', threads, STATUSLINE_SCRIPT, 'statusline', '--', 'echo "pool=${UV_THREADPOOL_SIZE-unset}"'],
      { cwd: root, input: JSON.stringify(statusInput(root)), env: { ...env, ...extra }, encoding: 'utf8' },
    );
  const own = run({});
  assert.equal(own.stdout, 'pool=unset\n', own.stderr);
  const four = run({ UV_THREADPOOL_SIZE: '4' });
  assert.equal(four.stdout, 'pool=4\n', 'a size the user set is kept, and passed on');
  const count = (r: { stderr: string }) => Number(/threads=(\d+)/.exec(r.stderr)?.[1]);
  if (existsSync('/proc/self/task')) assert.equal(count(four) - count(own), 3, `${own.stderr} / ${four.stderr}`);
});

test('statusline run in the home folder prints its line and writes nothing under ~/.claude (Claude Code’s own configuration); a project still gets its record', () => {
  const home = workspace({ '.claude/settings.json': '{}' });
  const project = workspace({ '.claude/settings.json': '{}' });
  const run = (dir: string) =>
    hookScript(STATUSLINE_SCRIPT, ['statusline'], {
      input: JSON.stringify(statusInput(dir)),
      cwd: dir,
      env: { HOME: home },
    });
  const r = run(home);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'ctx 53.8% (107.7k/200k)\n');
  assert.deepEqual(readdirSync(path.join(home, '.claude')), ['settings.json'], 'nothing written under ~/.claude');
  const p = run(project);
  assert.equal(p.code, 0, p.stderr);
  assert.ok(existsSync(feedPath(project, SID)), 'another project still gets its record');
});

test('a refresh that brings the figure the record holds writes nothing; a new figure, window, model or transcript is recorded', () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  const file = feedPath(root, SID);
  const run = (input: Record<string, unknown>) => {
    const r = hookScript(STATUSLINE_SCRIPT, ['statusline'], { input: JSON.stringify(input), cwd: root });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const seen = () => {
    const st = statSync(file);
    return { ino: st.ino, mtime: st.mtimeMs, text: readFileSync(file, 'utf8') };
  };
  const first = run(statusInput(root));
  const was = seen();
  // Claude Code's cost, duration and version change on every refresh; the meter reads none of them.
  const again = run(
    statusInput(root, { cost: { total_cost_usd: 0.42, total_duration_ms: 90_000 }, version: '2.1.40' }),
  );
  assert.equal(again, first, 'the same line');
  assert.deepEqual(seen(), was, 'the record is not rewritten: it says when the figure was first reported');
  const base = statusInput(root);
  const cw = base.context_window as Record<string, unknown>;
  const changes: Array<[string, Record<string, unknown>]> = [
    ['a new figure', { context_window: { ...cw, used_percentage: 61.2 } }],
    ['a new window', { context_window: { ...cw, context_window_size: 1_000_000 } }],
    ['another model', { model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet' } }],
    ['another transcript', { transcript_path: `/home/u/.claude/projects/y/${SID}.jsonl` }],
  ];
  for (const [what, extra] of changes) {
    const before = seen();
    run(statusInput(root, extra));
    const now = seen();
    assert.notEqual(now.ino, before.ino, `${what}: written (a new file renamed into place)`);
    assert.deepEqual(JSON.parse(now.text).input, statusInput(root, extra), `${what}: the record holds it`);
  }
});

test('a FIFO or a link at the record: the status line neither waits on it nor writes through it, and prints its line', () => {
  const outside = workspace({ 'victim.json': '' }, 'sl-outside-');
  for (const how of ['fifo', 'symlink'] as const) {
    const root = workspace({ '.claude/settings.json': '{}' });
    const file = feedPath(root, SID);
    mkdirSync(path.dirname(file), { recursive: true });
    const victim = path.join(outside, 'victim.json');
    if (how === 'fifo') assert.equal(spawnSync('mkfifo', [file]).status, 0);
    else {
      // The link's target holds exactly the record this refresh would compare with.
      writeFileSync(
        victim,
        `${JSON.stringify({ version: 1, receivedAt: isoTime(0), sessionId: SID, input: statusInput(root) })}\n`,
      );
      symlinkSync(victim, file);
    }
    const before = how === 'symlink' ? readFileSync(victim, 'utf8') : '';
    const r = spawnSync(process.execPath, [STATUSLINE_SCRIPT, 'statusline'], {
      input: JSON.stringify(statusInput(root)),
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 0, `${how}: ${r.stderr}`);
    assert.equal(r.stdout, 'ctx 53.8% (107.7k/200k)\n', how);
    const st = lstatSync(file);
    assert.ok(how === 'fifo' ? st.isFIFO() : st.isSymbolicLink(), `${how}: left as it was`);
    if (how === 'symlink') assert.equal(readFileSync(victim, 'utf8'), before, 'the target is not rewritten');
  }
});

test("the status line speaks the locale's language (LC_ALL, LC_MESSAGES, LANG), in the extension's own words for a level; its figures and any other locale stay as they are", () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  const input = statusInput(root);
  const cw = input.context_window as Record<string, unknown>;
  const said = (env: NodeJS.ProcessEnv, percent: number): string => {
    cw.used_percentage = percent;
    const r = hookScript(STATUSLINE_SCRIPT, ['statusline'], {
      input: JSON.stringify(input),
      env: { LC_ALL: '', LC_MESSAGES: '', LANG: '', ...env },
    });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  assert.equal(said({ LANG: 'ja_JP.UTF-8' }, 85.5), 'ctx 85.5% (107.7k/200k) · 今すぐチェックポイント\n');
  assert.equal(said({ LANG: 'ja_JP.UTF-8' }, 65), 'ctx 65% (107.7k/200k) · チェックポイントを推奨\n');
  assert.equal(
    said({ LC_ALL: 'ko_KR.UTF-8', LANG: 'ja_JP.UTF-8' }, 85.5),
    'ctx 85.5% (107.7k/200k) · 지금 체크포인트\n',
  );
  assert.equal(said({ LC_MESSAGES: 'ko_KR.UTF-8' }, 65), 'ctx 65% (107.7k/200k) · 체크포인트 권장\n');
  for (const env of [{ LANG: 'C' }, { LANG: 'ja_JP.eucJP' }, { LC_ALL: 'en_US.UTF-8', LANG: 'ja_JP.UTF-8' }, {}])
    assert.equal(said(env, 85.5), 'ctx 85.5% (107.7k/200k) · checkpoint now\n', JSON.stringify(env));
  assert.equal(said({ LANG: 'ko_KR.UTF-8' }, 20), 'ctx 20% (107.7k/200k)\n');
});

test("the status line's words are the short forms of the extension's own translations (one vocabulary)", () => {
  for (const lang of ['ja', 'ko'] as const) {
    const bundle = JSON.parse(readFileSync(path.join(REPO, 'l10n', `bundle.l10n.${lang}.json`), 'utf8')) as Record<
      string,
      string
    >;
    // Each word of a short form is a word of the extension's sentence for it.
    const said = {
      now: 'Checkpoint now',
      proposed: 'Checkpoint proposed.',
      done: 'Checkpoint done: the state is saved; start the fresh context as your system says.',
      tokens:
        'Session Ledger: context {0} tokens used; the window of this model is unknown, so there is no percentage.',
    } as const;
    for (const [k, english] of Object.entries(said) as Array<[keyof typeof said, string]>)
      for (const word of STATUS_WORDS[lang][k].split(' '))
        assert.ok(bundle[english].includes(word), `${lang} ${k}: ${word} in ${bundle[english]}`);
  }
});
