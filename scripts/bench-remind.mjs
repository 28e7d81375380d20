// The reminder hook (`hook remind`, UserPromptSubmit) as Claude Code runs it before every prompt: the
// installed hook script as a whole process, next to `node -e 0`, on an S3 workspace whose session
// transcript is 1 MB and 1 GB (npm run bench runs it after the build; reported, never asserted).
//
// Rows per size: below the first mark (silent), crossing it (the suggestion; the record is removed
// before each run), and past it with the band already recorded (silent: the steady state of a long
// session). Goal: ≤ 1.2× `node -e 0`, the same at 1 GB as at 1 MB. Then, crossing the mark while this
// session's checkpoint marker stands there and the figure is of the checkpoint's own turn, which loads
// the guard's part of the script and asks it: the checkpoint untouched (silent: it covers the session),
// and the state file emptied right after it (the suggestion: the guard would block); and a figure of a
// turn 10 minutes after the checkpoint (the suggestion, the guard not asked: no checkpoint is done then).
//
// Environment: BENCH_REMIND_SIZES=1,1024 (MB); BENCH_ROUNDS=N rounds (15), each runs `node -e 0` and
// every row once, in turn; BENCH_INSTR=1 also counts each row's instructions (valgrind's callgrind,
// which a busy machine does not change); KEEP_TMP=1 keeps the files.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TIMED_ENV } from './lib/bench-env.mjs';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repo, 'dist', 'cli.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const SIZES = (process.env.BENCH_REMIND_SIZES ?? '1,1024')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const SID = '7e1a0c55-3b8d-4f2e-9c61-0d4b5a6e7f80';
const WINDOW = 200_000;
/** When the transcripts' assistant records were written (the figure's time). */
const FIGURE_AT = '2026-12-03T09:00:00.000Z';

/** An assistant record of claude-sonnet-4-5 (200,000-token window) that used `tokens`. */
const assistant = (tokens, i) =>
  JSON.stringify({
    isSidechain: false,
    type: 'assistant',
    sessionId: SID,
    uuid: `a${i}`,
    message: {
      id: `msg_${i}`,
      model: 'claude-sonnet-4-5-20250929',
      role: 'assistant',
      content: [{ type: 'text', text: 'done' }],
      usage: { input_tokens: 3, cache_creation_input_tokens: 200, cache_read_input_tokens: tokens - 203 },
    },
    timestamp: FIGURE_AT,
  });

/** A tool result of `n` bytes of text. */
const toolResult = (n, i) =>
  JSON.stringify({
    isSidechain: false,
    type: 'user',
    sessionId: SID,
    uuid: `u${i}`,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'x'.repeat(n) }] },
  });

/**
 * Write a transcript of about `bytes`: turns of a 64 KB tool result and an assistant record, the
 * last assistant record at `lastTokens`, then 24 KB of tool output after it (the prompt's own tail).
 */
function transcript(file, bytes, lastTokens) {
  const fd = openSync(file, 'w');
  let written = 0;
  let i = 0;
  const chunk = [];
  while (written < bytes - 100_000) {
    for (let k = 0; k < 64; k++, i++) chunk.push(toolResult(64 * 1024, i), assistant(20_000 + (i % 1000), i));
    written += writeSync(fd, `${chunk.join('\n')}\n`);
    chunk.length = 0;
  }
  writeSync(fd, `${assistant(lastTokens, i)}\n${toolResult(24 * 1024, i + 1)}\n`);
  closeSync(fd);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

function timed(argv, o = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { input: o.input ?? '', cwd: o.cwd, env: o.env, encoding: 'utf8' });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sl-bench-remind-'));
try {
  const rows = [];
  for (const mb of SIZES) {
    const label = mb >= 1024 ? `${mb / 1024} GB` : `${mb} MB`;
    const ws = path.join(tmp, `ws-${mb}`);
    cpSync(path.join(repo, 'test', 'fixtures', 's3', 'good'), ws, { recursive: true });
    const home = path.join(tmp, `home-${mb}`);
    const claude = path.join(tmp, `claude-${mb}`);
    mkdirSync(home, { recursive: true });
    mkdirSync(claude, { recursive: true });
    const env = { PATH: process.env.PATH, HOME: home, CLAUDE_CONFIG_DIR: claude, CLAUDE_PROJECT_DIR: ws };
    const install = spawnSync(process.execPath, [cli, 'hooks', 'install', '--remind', '--root', ws], {
      env,
      encoding: 'utf8',
    });
    if (install.status !== 0) throw new Error(`hooks install --remind: ${install.stderr}`);
    const script = path.join(ws, '.claude', 'hooks', 'session-ledger.cjs');
    const record = path.join(ws, '.claude', 'session-ledger', 'remind', `${SID}.json`);
    const t0 = Date.now();
    // Two transcripts of the same size: at 10 % (below S3's 15 %) and at 20 % (past it).
    const below = path.join(tmp, `below-${mb}.jsonl`);
    const past = path.join(tmp, `past-${mb}.jsonl`);
    transcript(below, mb * 1024 * 1024, 0.1 * WINDOW);
    transcript(past, mb * 1024 * 1024, 0.2 * WINDOW);
    console.log(`${label}: two transcripts written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const input = (file) =>
      JSON.stringify({
        session_id: SID,
        transcript_path: file,
        cwd: ws,
        permission_mode: 'default',
        hook_event_name: 'UserPromptSubmit',
        prompt: 'go on',
      });
    const argv = [process.execPath, script, 'hook', 'remind'];
    const clearRecord = () => rmSync(record, { force: true });
    rows.push(
      {
        name: `${label}, below the first mark (silent)`,
        argv,
        input: input(below),
        cwd: ws,
        env,
        before: clearRecord,
        says: '',
      },
      {
        name: `${label}, crossing 15 % (the suggestion)`,
        argv,
        input: input(past),
        cwd: ws,
        env,
        before: clearRecord,
        says: 'past the 15% mark of S3 ',
      },
      // Runs right after the crossing, which recorded the band.
      {
        name: `${label}, past 15 %, band recorded (silent)`,
        argv,
        input: input(past),
        cwd: ws,
        env,
        before: () => undefined,
        says: '',
      },
    );
    // The same workspace, checkpointed for this session; and a copy whose state file was emptied since.
    for (const [what, kind] of [
      ['checkpoint covers it (silent)', 'covers'],
      ['state emptied since the checkpoint (the suggestion)', 'emptied'],
      ['checkpoint 10 min before the figure (the suggestion; the guard is not asked)', 'earlier'],
    ]) {
      const emptied = kind === 'emptied';
      const cws = path.join(tmp, `ws-${mb}-${kind}`);
      cpSync(ws, cws, { recursive: true });
      rmSync(path.join(cws, '.claude', 'session-ledger', 'remind'), { recursive: true, force: true });
      const cenv = { ...env, CLAUDE_PROJECT_DIR: cws };
      const c = spawnSync(
        process.execPath,
        [cli, 'checkpoint', '--root', cws, '--session', SID, '--confirm', 'feedback-stored,last-request'],
        { env: cenv, encoding: 'utf8' },
      );
      if (c.status !== 0) throw new Error(`checkpoint: ${c.stdout}${c.stderr}`);
      if (emptied) writeFileSync(path.join(cws, 'docs', 'state', 'STATE.md'), '');
      if (kind === 'earlier') {
        // The figure's turn (its records' time) came 10 minutes after the checkpoint, which wrote the state first.
        const at = new Date(Date.parse(FIGURE_AT) - 600_000);
        const before = new Date(at.getTime() - 60_000);
        utimesSync(path.join(cws, 'docs', 'state', 'STATE.md'), before, before);
        utimesSync(path.join(cws, '.claude', `.checkpoint-ready.${SID}`), at, at);
      }
      const crecord = path.join(cws, '.claude', 'session-ledger', 'remind', `${SID}.json`);
      const cinput = JSON.stringify({ ...JSON.parse(input(past)), cwd: cws });
      rows.push({
        name: `${label}, crossing 15 %, ${what}`,
        argv: [process.execPath, path.join(cws, '.claude', 'hooks', 'session-ledger.cjs'), 'hook', 'remind'],
        input: cinput,
        cwd: cws,
        env: cenv,
        before: () => rmSync(crecord, { force: true }),
        says: kind === 'covers' ? '' : 'past the 15% mark of S3 ',
      });
    }
  }
  // Round-robin: node -e 0, then each row once; a warm-up of each first (page cache, the record in place).
  const floor = [];
  const times = rows.map(() => []);
  // The floor runs in the rows' environment: an inherited variable such as NODE_EXTRA_CA_CERTS (a CA
  // bundle Node loads at start-up) would slow `node -e 0` alone and make the hook look faster than Node.
  const floorEnv = { cwd: rows[0].cwd, env: rows[0].env };
  timed([process.execPath, '-e', '0'], floorEnv);
  for (const r of rows) {
    r.before();
    r.last = timed(r.argv, r);
  }
  for (let k = 0; k < ROUNDS; k++) {
    floor.push(timed([process.execPath, '-e', '0'], floorEnv).ms);
    rows.forEach((r, i) => {
      r.before();
      r.last = timed(r.argv, r);
      times[i].push(r.last.ms);
    });
  }
  const f = median(floor);
  console.log(
    `\n## Reminder hook (\`hook remind\`, the installed script): ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}, Node ${process.version}; ${ROUNDS} rounds, round-robin with node -e 0`,
  );
  console.log(
    '| transcript, case | median | `node -e 0` | ratio | spread (per-round ratio, 25th–75th pct) | it said |',
  );
  console.log('|---|---|---|---|---|---|');
  rows.forEach((r, i) => {
    const ratio = median(times[i]) / f;
    const per = times[i].map((t, k) => t / floor[k]);
    const said =
      r.last.code === 0 && r.last.stdout.includes(r.says) && (r.says !== '' || r.last.stdout === '')
        ? r.says
          ? 'the suggestion'
          : 'nothing'
        : `UNEXPECTED: exit ${r.last.code} ${r.last.stdout.slice(0, 120)} ${r.last.stderr.slice(0, 120)}`;
    console.log(
      `| ${r.name} | ${median(times[i]).toFixed(0)} ms | ${f.toFixed(0)} ms | **${ratio.toFixed(2)}×**${ratio <= 1.2 ? ' ✓' : ' ✗ (goal ≤ 1.2×)'} | ${quantile(per, 0.25).toFixed(2)}–${quantile(per, 0.75).toFixed(2)} | ${said} |`,
    );
  });
  if (process.env.BENCH_INSTR) {
    const count = (argv, o = {}) => {
      const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...argv], {
        input: o.input ?? '',
        cwd: o.cwd,
        env: { ...TIMED_ENV, ...o.env },
        encoding: 'utf8',
      });
      return Number(/Collected : (\d+)/.exec(r.stderr)?.[1]);
    };
    const base = count([process.execPath, '-e', '0']);
    console.log(
      `\n| transcript, case (instructions, callgrind) | instructions | ratio to \`node -e 0\` (${(base / 1e6).toFixed(0)} M) |\n|---|---|---|`,
    );
    for (const r of rows) {
      r.before();
      const n = count(r.argv, r);
      console.log(`| ${r.name} | ${(n / 1e6).toFixed(0)} M | ${(n / base).toFixed(2)}× |`);
    }
  }
} finally {
  if (!process.env.KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
}
