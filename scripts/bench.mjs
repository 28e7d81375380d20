// npm run bench: the paths that run all day, each as a ratio to `node -e 0` measured in the same run,
// then every scripts/bench-*.mjs (context meter with its peers, the extension). Figures are reported,
// never asserted.
//
// Process rows run round-robin with `node -e 0` (one of each per round, BENCH_ROUNDS rounds, 15 by
// default): the ratio is the median of the command over the median of `node -e 0`; "spread" is the
// 25th–75th percentile of the per-round ratios, which says how noisy the machine was.
// Environment: BENCH_ROUNDS=N; BENCH_ONLY=main skips the bench-*.mjs files.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { prepareWorkspace, writeClaudeHome, SESSION_ID } from './lib/workspace.mjs';
import { DROPPED, TIMED_ENV } from './lib/bench-env.mjs';

/** A second session of the demo, for the row whose record holds no figure. */
const OTHER_SESSION_ID = '0f6a8d2c-4e71-4d2c-9b3e-5b0c2f8e7a41';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const cli = path.join(repo, 'dist', 'cli.js');

const quantile = (xs, q) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const median = (xs) => quantile(xs, 0.5);
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;

function timeOnce(argv, { input = '', cwd, env } = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { input, cwd, env: { ...TIMED_ENV, ...env }, encoding: 'utf8' });
  return { ms: ms(t0), code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Run every row and `node -e 0` round-robin; returns per row { ms, floor, ratio, lo, hi, last }.
 * Each row: { name, argv, input?, cwd?, env?, before?() } (before runs untimed ahead of each run).
 */
function interleaved(rows) {
  const floor = [];
  const times = rows.map(() => []);
  const lasts = rows.map(() => null);
  // One untimed warm-up of each (disk cache).
  timeOnce([process.execPath, '-e', '0']);
  for (const r of rows) {
    r.before?.();
    timeOnce(r.argv, r);
  }
  for (let k = 0; k < ROUNDS; k++) {
    floor.push(timeOnce([process.execPath, '-e', '0']).ms);
    rows.forEach((r, i) => {
      r.before?.();
      const t = timeOnce(r.argv, r);
      times[i].push(t.ms);
      lasts[i] = t;
    });
  }
  const f = median(floor);
  return rows.map((r, i) => {
    const perRound = times[i].map((t, k) => t / floor[k]);
    return {
      name: r.name,
      ms: median(times[i]),
      floor: f,
      ratio: median(times[i]) / f,
      // What the row adds to Node's own start-up, in the same round (a ratio moves with the machine's start-up time).
      added: median(times[i].map((t, k) => t - floor[k])),
      lo: quantile(perRound, 0.25),
      hi: quantile(perRound, 0.75),
      last: lasts[i],
    };
  });
}

/** Each system's home file padded to about `n` lines (list items in its last section). */
function padHomes(ws, n) {
  for (const rel of [
    '.agents/session_ledger.md',
    'memory/session-handoff-LATEST.md',
    '.claude/session-ledger.md',
    'docs/state/STATE.md',
    '.agents/STATE.md',
  ]) {
    const f = path.join(ws, rel);
    if (!existsSync(f)) continue;
    const have = readFileSync(f, 'utf8').split('\n').length;
    const extra = [];
    for (let i = have; i < n; i++) extra.push(`- bench line ${i}: checked the loan renewal path and its test`);
    appendFileSync(f, `\n${extra.join('\n')}\n`);
  }
}

function installHooks(ws, env) {
  const r = spawnSync(process.execPath, [cli, 'hooks', 'install', '--statusline', '--root', ws], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`hooks install failed: ${r.stderr}`);
  return path.join(ws, '.claude', 'hooks', 'session-ledger.cjs');
}

/** Every file under `dir` (its .git aside) dated `ms` ago. */
function writtenAgo(dir, ms) {
  const at = (Date.now() - ms) / 1000;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.git') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) writtenAgo(p, ms);
    else if (e.isFile()) utimesSync(p, at, at);
  }
}

/** A real checkpoint of the bench's session in `ws` (every system ready, the manual items confirmed): its marker is written. */
function checkpoint(ws, env) {
  const r = spawnSync(
    process.execPath,
    [cli, 'checkpoint', '--root', ws, '--session', SESSION_ID, '--confirm', 'feedback-stored,last-request'],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`checkpoint failed (${r.status}): ${r.stdout}${r.stderr}`);
}

/** The script the installed status line relay runs (beside the hook script). */
const statusLineScript = (hookScript) => path.join(path.dirname(hookScript), 'session-ledger-statusline.cjs');

function fmtRow(r, goal) {
  const ok = goal === undefined ? '' : r.ratio <= goal ? ' ✓' : ` ✗ (goal ≤ ${goal}×)`;
  return `| ${r.name} | ${r.ms.toFixed(0)} ms | ${r.floor.toFixed(0)} ms | **${r.ratio.toFixed(2)}×**${ok} | ${r.lo.toFixed(2)}–${r.hi.toFixed(2)} | ${r.added < 0 ? '' : '+'}${r.added.toFixed(1)} ms |`;
}

async function main() {
  if (!existsSync(cli)) throw new Error('dist/cli.js missing: run npm run build');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sl-bench-'));
  try {
    // The demo workspace (all five systems, a git history, a Claude Code home with this workspace's session).
    const demo = prepareWorkspace(path.join(repo, 'test', 'fixtures', 'e2e-workspace'), path.join(tmp, 'demo'));
    const home = writeClaudeHome(path.join(tmp, 'claude'), demo, { percent: 42 });
    const env = { CLAUDE_CONFIG_DIR: home.home, CODEX_HOME: path.join(tmp, 'codex'), CLAUDE_PROJECT_DIR: demo };
    const script = installHooks(demo, env);
    // The same with every system's home file at 10,000 lines.
    const long = prepareWorkspace(path.join(repo, 'test', 'fixtures', 'e2e-workspace'), path.join(tmp, 'long'));
    padHomes(long, 10_000);
    const longHome = writeClaudeHome(path.join(tmp, 'claude-long'), long, { percent: 42 });
    const longScript = installHooks(long, { ...env, CLAUDE_CONFIG_DIR: longHome.home, CLAUDE_PROJECT_DIR: long });
    // The demo after a real checkpoint of the session: the guard finds its marker and allows /compact.
    const done = prepareWorkspace(path.join(repo, 'test', 'fixtures', 'e2e-workspace'), path.join(tmp, 'checkpointed'));
    const doneHome = writeClaudeHome(path.join(tmp, 'claude-checkpointed'), done, { percent: 42 });
    const doneEnv = { ...env, CLAUDE_CONFIG_DIR: doneHome.home, CLAUDE_PROJECT_DIR: done };
    const doneScript = installHooks(done, doneEnv);
    checkpoint(done, doneEnv);
    // The same, a state file written since the checkpoint (still whole): the guard runs every rule on it first.
    const worked = prepareWorkspace(path.join(repo, 'test', 'fixtures', 'e2e-workspace'), path.join(tmp, 'worked'));
    const workedHome = writeClaudeHome(path.join(tmp, 'claude-worked'), worked, { percent: 42 });
    const workedEnv = { ...env, CLAUDE_CONFIG_DIR: workedHome.home, CLAUDE_PROJECT_DIR: worked };
    const workedScript = installHooks(worked, workedEnv);
    // The session's files were written before its checkpoint (ten minutes ago), the checkpoint five minutes
    // ago, and one state file since: only that file's system is checked again.
    writtenAgo(worked, 10 * 60_000);
    checkpoint(worked, workedEnv);
    const fiveMinAgo = (Date.now() - 5 * 60_000) / 1000;
    utimesSync(path.join(worked, '.claude', `.checkpoint-ready.${SESSION_ID}`), fiveMinAgo, fiveMinAgo);
    appendFileSync(
      path.join(worked, 'docs', 'state', 'STATE.md'),
      '\n- Also checked: the pier gauge reports every 10 minutes.\n',
    );
    // One workspace per system, as a real project has one: the demo holds all five, each hook's worst case. Each
    // is the system's fixture, with its own Claude Code home and the hooks installed (`name`: its folders' prefix).
    const oneSystem = (id, name) => {
      const ws = prepareWorkspace(path.join(repo, 'test', 'fixtures', id, 'good'), path.join(tmp, `${name}-${id}`));
      const h = writeClaudeHome(path.join(tmp, `claude-${name}-${id}`), ws, { percent: 42 });
      const e = { ...env, CLAUDE_CONFIG_DIR: h.home, CLAUDE_PROJECT_DIR: ws };
      return { id: id.toUpperCase(), ws, env: e, script: installHooks(ws, e), transcript: h.transcript };
    };
    const ids = ['s0', 's1', 's2', 's3', 's4'];
    const single = ids.map((id) => oneSystem(id, 'one'));
    // The same, each after a real checkpoint of the session: the guard's allow on a real project's one system.
    const allowed = ids.map((id) => {
      const one = oneSystem(id, 'checkpointed');
      checkpoint(one.ws, one.env);
      return one;
    });
    // An empty project (only its .claude/ folder, where the relay records the figure).
    const empty = path.join(tmp, 'empty');
    mkdirSync(path.join(empty, '.claude'), { recursive: true });

    const statusInput = (ws, transcript, percent = 42) =>
      JSON.stringify({
        hook_event_name: 'Status',
        session_id: SESSION_ID,
        transcript_path: transcript,
        cwd: ws,
        model: { id: 'claude-sonnet-4-5-20250929', display_name: 'Sonnet 4.5' },
        workspace: { current_dir: ws, project_dir: ws },
        version: '2.0.14',
        context_window: {
          context_window_size: 200000,
          used_percentage: percent,
          current_usage: {
            input_tokens: 4000,
            cache_creation_input_tokens: 4000,
            cache_read_input_tokens: (percent / 100) * 200000 - 8000,
          },
        },
      });
    const preCompact = (ws, transcript = home.transcript) =>
      JSON.stringify({
        session_id: SESSION_ID,
        transcript_path: transcript,
        cwd: ws,
        hook_event_name: 'PreCompact',
        trigger: 'manual',
        custom_instructions: '',
      });
    const sessionStart = (ws, transcript = home.transcript) =>
      JSON.stringify({
        session_id: SESSION_ID,
        transcript_path: transcript,
        cwd: ws,
        hook_event_name: 'SessionStart',
        source: 'compact',
      });
    const node = process.execPath;

    console.log(
      `\n## Paths that run all day: ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}, Node ${process.version}; ${ROUNDS} rounds, round-robin with node -e 0`,
    );
    const dropped = DROPPED.filter((k) => process.env[k] !== undefined);
    if (dropped.length)
      console.log(
        `Every measured process, node -e 0 included, runs without ${dropped.join(' and ')} (set here): Node's own start-up would change with ${dropped.length > 1 ? 'them' : 'it'}.`,
      );
    console.log(
      `Installed hook script: .claude/hooks/session-ledger.cjs ${kb(statSync(script).size)}, one plain JavaScript file (the whole CLI; the transcript meter, the meter, the core, the PreCompact and SessionStart hooks on their own, the rest, the YAML library and the Japanese and Korean words in block comments); the status line relay runs .claude/hooks/session-ledger-statusline.cjs ${kb(statSync(statusLineScript(script)).size)} (its first two parts: the status line and the transcript meter)`,
    );
    // Each row's goal (the status line runs on every refresh: near Node's start-up; the hooks and `status` run a
    // few times a session: clarity first), and its place in the BENCH_INSTR table.
    const rowsIn = [
      // The first three rows bring the figure of the last refresh, as a refresh after a prompt or a tool result does
      // (the figure changes with each answer): the relay writes nothing. The fourth brings a new figure each time.
      {
        name: '`statusline` relay, empty project',
        goal: 1.2,
        argv: [node, statusLineScript(script), 'statusline'],
        input: statusInput(empty, ''),
        cwd: empty,
        env: { ...env, CLAUDE_PROJECT_DIR: empty },
      },
      {
        name: '`statusline` relay, demo (five systems)',
        goal: 1.2,
        instructions: 2,
        argv: [node, statusLineScript(script), 'statusline'],
        input: statusInput(demo, home.transcript),
        cwd: demo,
        env,
      },
      {
        name: '`statusline` relay, five 10k-line state files',
        goal: 1.2,
        argv: [node, statusLineScript(longScript), 'statusline'],
        input: statusInput(long, longHome.transcript),
        cwd: long,
        env: { ...env, CLAUDE_CONFIG_DIR: longHome.home, CLAUDE_PROJECT_DIR: long },
      },
      {
        name: '`statusline` relay, demo, a new figure on every refresh (after each answer)',
        goal: 1.2,
        argv: [node, statusLineScript(script), 'statusline'],
        input: statusInput(demo, home.transcript),
        percent: 42,
        before() {
          this.percent = this.percent >= 60 ? 42 : this.percent + 1;
          this.input = statusInput(demo, home.transcript, this.percent);
        },
        cwd: demo,
        env,
      },
      {
        name: '`statusline` relay, demo, figure from the transcript',
        goal: 1.2,
        argv: [node, statusLineScript(script), 'statusline'],
        // A session of its own: its record (no figure) is not the one the rows above compare with.
        input: JSON.stringify({
          session_id: OTHER_SESSION_ID,
          transcript_path: home.transcript,
          cwd: demo,
          workspace: { current_dir: demo, project_dir: demo },
        }),
        cwd: demo,
        env,
      },
      {
        // Only in the checkpoint's own turn: past a mark, with the session's marker there, the status line
        // asks the guard whether the checkpoint is done (a later figure asks nothing). Not an all-day path.
        name: '`statusline` relay, demo right after a checkpoint (past a mark: it asks the guard, "checkpoint done")',
        argv: [node, statusLineScript(doneScript), 'statusline'],
        input: statusInput(done, doneHome.transcript),
        before() {
          const now = Date.now() / 1000;
          utimesSync(path.join(done, '.claude', `.checkpoint-ready.${SESSION_ID}`), now, now);
        },
        cwd: done,
        env: doneEnv,
      },
      {
        name: '`hook pre-compact`, demo, no checkpoint yet (the guard blocks)',
        goal: 3,
        instructions: 4,
        argv: [node, script, 'hook', 'pre-compact'],
        input: preCompact(demo),
        cwd: demo,
        env,
        exit: 2,
      },
      {
        name: '`hook pre-compact`, demo after a checkpoint (the guard allows)',
        goal: 3,
        instructions: 5,
        argv: [node, doneScript, 'hook', 'pre-compact'],
        input: preCompact(done),
        cwd: done,
        env: doneEnv,
      },
      {
        name: '`hook pre-compact`, demo, a state file written since the checkpoint (every rule of its system runs; the guard allows)',
        goal: 3,
        argv: [node, workedScript, 'hook', 'pre-compact'],
        input: preCompact(worked),
        cwd: worked,
        env: workedEnv,
      },
      ...allowed.map((one) => ({
        name: `\`hook pre-compact\`, ${one.id} alone after a checkpoint (the guard allows)`,
        goal: 3,
        argv: [node, one.script, 'hook', 'pre-compact'],
        input: preCompact(one.ws, one.transcript),
        cwd: one.ws,
        env: one.env,
      })),
      {
        name: '`hook session-start`, demo (all five systems)',
        goal: 3,
        instructions: 6,
        argv: [node, script, 'hook', 'session-start'],
        input: sessionStart(demo),
        cwd: demo,
        env,
      },
      ...single.map((one) => ({
        name: `\`hook session-start\`, ${one.id} alone (its fixture workspace)`,
        goal: 3,
        argv: [node, one.script, 'hook', 'session-start'],
        input: sessionStart(one.ws, one.transcript),
        cwd: one.ws,
        env: one.env,
      })),
      {
        name: '`status --json`, demo (five systems)',
        goal: 3,
        instructions: 7,
        argv: [node, cli, 'status', '--json', '--root', demo],
        cwd: demo,
        env,
      },
      {
        name: '`context --json`, demo',
        // The meter's command has the goal its 1 GB row has (scripts/bench-context.mjs): it is no status line.
        goal: 1.5,
        argv: [node, cli, 'context', '--json', '--root', demo],
        cwd: demo,
        env,
      },
      // Two floors, for scale: the least a status line can do, and what loading the hook script costs before any hook runs.
      {
        name: 'floor: a 10-line status line that only records and prints (scripts/lib/statusline-floor.cjs), demo',
        instructions: 1,
        argv: [node, path.join(here, 'lib', 'statusline-floor.cjs')],
        input: statusInput(demo, home.transcript),
        cwd: demo,
      },
      {
        name: 'floor: `--version` through the hook script (loads and compiles its core, runs nothing)',
        instructions: 3,
        argv: [node, script, '--version'],
        cwd: demo,
      },
    ];
    const rows = interleaved(rowsIn);
    console.log(
      '\n| path | median | `node -e 0` | ratio | spread (per-round ratio, 25th–75th pct) | over `node -e 0` (per-round median) |',
    );
    console.log('|---|---|---|---|---|---|');
    rows.forEach((r, i) => console.log(fmtRow(r, rowsIn[i].goal)));
    rows.forEach((r, i) => {
      if (r.last.code !== (rowsIn[i].exit ?? 0))
        console.log(`  (${r.name} exited ${r.last.code}: ${r.last.stderr.slice(0, 200)})`);
    });
    if (process.env.BENCH_INSTR)
      instructions([
        { name: '`node -e 0`', argv: [node, '-e', '0'] },
        ...rowsIn.filter((r) => r.instructions).sort((a, b) => a.instructions - b.instructions),
      ]);

    await linearity(tmp);
    await hugeRecords(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * BENCH_INSTR=1: the instructions each row executes (valgrind's callgrind, every thread of the Node
 * process, child processes such as git not counted), which a busy machine does not change.
 */
function instructions(rows) {
  if (spawnSync('valgrind', ['--version']).status !== 0) return console.log('\ninstructions: valgrind not found');
  console.log('\n| path (instructions, callgrind) | instructions | ratio to `node -e 0` |\n|---|---|---|');
  let floor = null;
  for (const r of rows) {
    r.before?.();
    const out = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...r.argv], {
      input: r.input ?? '',
      cwd: r.cwd,
      env: { ...TIMED_ENV, ...r.env },
      encoding: 'utf8',
    });
    const n = Number(/Collected : (\d+)/.exec(out.stderr)?.[1]);
    floor ??= n;
    console.log(`| ${r.name} | ${(n / 1e6).toFixed(0)} M | ${(n / floor).toFixed(2)}× |`);
  }
}

/**
 * `status` on long state files: time at 10k, 20k and 100k lines (evaluate, the best of 9 runs at the
 * two small sizes and of 3 at 100k: a small run takes 10–150 ms, where one run more or less of V8
 * warming up moves it by half), each size in a Node process of its own, so one case's garbage does
 * not land on the next case's collections; the ratio 10k → 100k, and the time a line at each size.
 */
async function linearity(tmp) {
  // src/core/report/evaluate.ts, as `node scripts/build.mjs --tests` (the first half of npm run bench) transpiles it.
  const entry = path.join(repo, 'out', 'src', 'core', 'report', 'evaluate.js');
  if (!existsSync(entry))
    return console.log(
      `\nlinearity: ${path.relative(repo, entry)} missing (npm run bench compiles it; run node scripts/build.mjs --tests)`,
    );
  const child = `const { evaluate } = require(${JSON.stringify(entry)});
    (async () => { let best = Infinity;
      for (let i = 0; i < Number(process.argv[2]); i++) { const t0 = process.hrtime.bigint(); await evaluate(process.argv[1], { noGit: true }); best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6); }
      process.stdout.write(String(best)); })();`;
  const best = async (root, runs) =>
    Number(execFileSync(process.execPath, ['-e', child, root, String(runs)], { encoding: 'utf8' }));
  const make = (name, rel, head, entry, n) => {
    const root = path.join(tmp, `${name}-${n}`);
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    const parts = [head];
    for (let i = 0; parts.length < n; i++) parts.push(...entry(i));
    writeFileSync(path.join(root, rel), parts.join('\n') + '\n');
    return root;
  };
  const cases = [
    [
      'S3 STATE.md, list items',
      'docs/state/STATE.md',
      '# STATE\n\n## Handoff\nNow ▶ write the renewal test\n\n## Log',
      (i) => [`- 2026-01-01 entry ${i}: renewal path checked`],
    ],
    [
      'S4 STATE.md, headings',
      '.agents/STATE.md',
      '# Agent State\n\n## Progress Tracker\n- [ ] step',
      (i) => [`### Note ${i}`, `- checked ${i}`, ''],
    ],
    ['S4 PROGRESS.md, entries', 'PROGRESS.md', '# Progress', (i) => [`## 2026-01-01 Session ${i}`, `- did ${i}`, '']],
    [
      'S0 ledger, headings',
      '.agents/session_ledger.md',
      '# Session Ledger\n\n## Goal\nship',
      (i) => [`## Note ${i}`, `- item ${i}`],
    ],
  ];
  console.log(
    '\n## `status` on long state files (evaluate; the best of 9 runs at 10k and 20k lines, of 3 at 100k; a process per file): 10× the lines should take ≤ 11× the time',
  );
  console.log('| file | 10k lines | 20k | 100k | 10k → 100k | µs a line at 10k / 20k / 100k |');
  console.log('|---|---|---|---|---|---|');
  for (const [label, rel, head, entry] of cases) {
    const t = {};
    for (const n of [10_000, 20_000, 100_000]) {
      const root = make(label.replace(/\W+/g, '-'), rel, head, entry, n);
      // PROGRESS.md belongs to an S4 workspace: give it its STATE.md.
      if (rel === 'PROGRESS.md') {
        mkdirSync(path.join(root, '.agents'), { recursive: true });
        writeFileSync(path.join(root, '.agents', 'STATE.md'), '# Agent State\n\n## Progress Tracker\n- [ ] step\n');
      }
      t[n] = await best(root, n <= 20_000 ? 9 : 3);
    }
    const r = t[100_000] / t[10_000];
    const per = [10_000, 20_000, 100_000].map((n) => ((t[n] * 1000) / n).toFixed(1)).join(' / ');
    console.log(
      `| ${label} | ${t[10_000].toFixed(0)} ms | ${t[20_000].toFixed(0)} ms | ${t[100_000].toFixed(0)} ms | **${r.toFixed(1)}×**${r <= 11 ? ' ✓' : ' ✗'} | ${per} |`,
    );
  }
  // A floor, for scale: the first step of every parse, markdown-it's own table of where each line begins
  // and ends (StateBlock: one loop over the text, five numbers pushed a line), on the S4 STATE.md files
  // above. Its growth is the machine's (the arrays and the text outgrow the CPU's caches), none of ours.
  const mdIt = createRequire(import.meta.url).resolve('markdown-it');
  const floorChild = `const MarkdownIt = require(${JSON.stringify(mdIt)}); const md = new MarkdownIt();
    const text = require('node:fs').readFileSync(process.argv[1], 'utf8'); let best = Infinity;
    for (let i = 0; i < Number(process.argv[2]); i++) { const t0 = process.hrtime.bigint(); new md.block.State(text, md, {}, []); best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6); }
    process.stdout.write(String(best));`;
  const f = {};
  for (const n of [10_000, 20_000, 100_000]) {
    const file = path.join(tmp, `S4-STATE-md-headings-${n}`, '.agents', 'STATE.md');
    f[n] = Number(
      execFileSync(process.execPath, ['-e', floorChild, file, String(n <= 20_000 ? 9 : 3)], { encoding: 'utf8' }),
    );
  }
  const fr = f[100_000] / f[10_000];
  const fper = [10_000, 20_000, 100_000].map((n) => ((f[n] * 1000) / n).toFixed(2)).join(' / ');
  console.log(
    `| floor: markdown-it's line table alone (StateBlock) on the S4 STATE.md files | ${f[10_000].toFixed(2)} ms | ${f[20_000].toFixed(2)} ms | ${f[100_000].toFixed(2)} ms | **${fr.toFixed(1)}×** | ${fper} |`,
  );
}

/** The meter when the newest record is huge (a pasted image of 9 MB): a figure, and how long it takes. */
async function hugeRecords(tmp) {
  const ctxFile = path.join(repo, 'out', 'src', 'core', 'context', 'index.js');
  const ctx = await import(ctxFile).catch(() => null);
  if (!ctx)
    return console.log(
      `\nMeter, huge records: ${path.relative(repo, ctxFile)} missing (run node scripts/build.mjs --tests)`,
    );
  const file = path.join(tmp, 'huge.jsonl');
  const asst = JSON.stringify({
    isSidechain: false,
    type: 'assistant',
    sessionId: 's',
    message: {
      model: 'claude-opus-4-6',
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 90000 },
    },
    timestamp: '2026-02-11T21:19:35.672Z',
  });
  const image = JSON.stringify({
    isSidechain: false,
    type: 'user',
    sessionId: 's',
    message: {
      role: 'user',
      content: [
        { type: 'text', text: 'what does the assistant make of this?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(9 * 1024 * 1024) } },
      ],
    },
  });
  writeFileSync(file, `${asst}\n${image}\n`);
  const t0 = process.hrtime.bigint();
  const u = await new ctx.ContextFollower({ agent: 'claude', sessionId: 's', path: file, mtime: 0 }).read();
  console.log(
    `\n## Meter, huge records: newest record a 9 MB pasted image → ${u ? `figure ${u.usedTokens} tokens` : 'NO FIGURE'} in ${ms(t0).toFixed(1)} ms (goal: a figure always)`,
  );
  // A record larger than the meter reads (200 MB, over its 64 MB scan budget): passed over, the figure before it given.
  const big = path.join(tmp, 'huge-200.jsonl');
  writeFileSync(big, `${asst}\n`);
  const piece = 'A'.repeat(8 * 1024 * 1024);
  appendFileSync(big, '{"type":"user","message":{"role":"user","content":"');
  for (let i = 0; i < 25; i++) appendFileSync(big, piece);
  appendFileSync(big, '"}}\n');
  const rss0 = process.memoryUsage().rss;
  const t1 = process.hrtime.bigint();
  const f = new ctx.ContextFollower({ agent: 'claude', sessionId: 's', path: big, mtime: 0 });
  const v = await f.read();
  console.log(
    `Newest record ${(statSync(big).size / 1048576).toFixed(0)} MB (too large to read) → ${v ? `figure ${v.usedTokens} tokens, the record named too large (${v.tooLargeRecordBytes} bytes)` : 'NO FIGURE'} in ${ms(t1).toFixed(0)} ms, RSS +${((process.memoryUsage().rss - rss0) / 1048576).toFixed(0)} MB`,
  );
  rmSync(big, { force: true });
}

await main();
if (process.env.BENCH_ONLY !== 'main') {
  for (const f of readdirSync(here)
    .filter((f) => /^bench-.+\.mjs$/.test(f))
    .sort()) {
    console.log(`\n## ${f}`);
    const r = spawnSync(process.execPath, [path.join(here, f)], { stdio: 'inherit', cwd: repo });
    if (r.status !== 0) console.log(`(${f} exited ${r.status})`);
  }
}
