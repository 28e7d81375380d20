// Context meter benchmark (npm run bench runs it after the build; reported, never asserted).
//
// For synthetic Claude Code transcripts of about 1 MB, 100 MB, 500 MB and 1 GB (a session whose
// context grows and compacts, large tool results between assistant records, 24 KB of tool output
// after the last assistant record), the median time and peak memory of:
//   (a) the meter in process (ContextFollower: the first figure, and the update after an append),
//   (b) `session-ledger context --json` as a whole process, next to `node -e 0`, and (b0) the same with an
//       empty cache folder (TMPDIR): the first figure on a new machine, before any compaction count is kept,
//   (c) a whole-file baseline (read, split, parse every line) in a child process,
//   (d) ccstatusline and (e) `ccusage statusline --no-cache`, installed from npm into a temp tools
//       folder (never the package's dependencies) and fed a statusLine JSON without context_window.
//
// Environment: BENCH_CONTEXT_SIZES=1,100 (MB) picks sizes; BENCH_RUNS=N whole-process runs (11: a run takes about 50 ms, and medians of 5 spread by several ms between bench runs);
// BENCH_HEAVY_RUNS=N runs of (c)(d)(e) (3); BENCH_TOOLS=0 skips (d)(e); BENCH_TOOLS_DIR reuses a tools
// folder; KEEP_TMP=1 keeps the generated files.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  appendFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TIMED_ENV } from './lib/bench-env.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const SELF = fileURLToPath(import.meta.url);

const CCSTATUSLINE = 'ccstatusline@2.2.30';
// 20.0.24: the newest ccusage whose @ccusage/ccusage-linux-x64 binary package is on the registry.
const CCUSAGE = 'ccusage@20.0.24';
const MODEL = 'claude-opus-4-6';

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

// ------------------------------------------------------------------ synthetic transcripts

/** Deterministic PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILLER = (() => {
  const words =
    'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua const let function return await import export'.split(
      ' ',
    );
  const r = rng(7);
  let s = '';
  while (s.length < 70000) s += words[Math.floor(r() * words.length)] + (r() < 0.1 ? '\n' : ' ');
  return s;
})();

function makeWriter(sid, cwd) {
  let n = 0;
  let time = Date.parse('2026-02-11T09:00:00.000Z');
  const base = () => ({
    parentUuid: `u${n - 1}`,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId: sid,
    version: '2.1.39',
    gitBranch: 'main',
  });
  const stamp = () => new Date((time += 1500)).toISOString();
  return {
    user: (text) =>
      JSON.stringify({
        ...base(),
        type: 'user',
        message: { role: 'user', content: text },
        uuid: `u${n++}`,
        timestamp: stamp(),
      }),
    assistant: (id, content, used) =>
      JSON.stringify({
        ...base(),
        message: {
          model: MODEL,
          id,
          type: 'message',
          role: 'assistant',
          content,
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: used.input,
            cache_creation_input_tokens: used.create,
            cache_read_input_tokens: used.read,
            cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: used.create },
            output_tokens: 120,
            service_tier: 'standard',
          },
        },
        requestId: `req_${id}`,
        type: 'assistant',
        uuid: `u${n++}`,
        timestamp: stamp(),
      }),
    tool: (toolId, out) =>
      JSON.stringify({
        ...base(),
        type: 'user',
        message: {
          role: 'user',
          content: [{ tool_use_id: toolId, type: 'tool_result', content: out, is_error: false }],
        },
        uuid: `u${n++}`,
        timestamp: stamp(),
        toolUseResult: { stdout: out, stderr: '', interrupted: false, isImage: false },
      }),
    progress: (toolId) =>
      JSON.stringify({
        ...base(),
        type: 'progress',
        data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: 'PostToolUse:Bash', command: 'echo' },
        parentToolUseID: toolId,
        toolUseID: toolId,
        uuid: `u${n++}`,
        timestamp: stamp(),
      }),
    compact: (pre, post) =>
      JSON.stringify({
        ...base(),
        parentUuid: null,
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        timestamp: stamp(),
        uuid: `u${n++}`,
        level: 'info',
        compactMetadata: { trigger: 'auto', preTokens: pre, postTokens: post },
      }),
  };
}

/**
 * Write a transcript of about `target` bytes. Returns the figure it must give (the last main-chain
 * assistant record's input + cache creation + cache read) and the number of compactions.
 */
function generate(file, target, sid, cwd) {
  const w = makeWriter(sid, cwd);
  const r = rng(target % 100003);
  const fd = openSync(file, 'w');
  let buf = [];
  let bufLen = 0;
  let written = 0;
  const put = (line) => {
    buf.push(line, '\n');
    bufLen += line.length + 1;
    if (bufLen > 8 << 20) flush();
  };
  const flush = () => {
    const s = buf.join('');
    written += writeSync(fd, s);
    buf = [];
    bufLen = 0;
  };
  let ctx = 18000;
  let turn = 0;
  let compactions = 0;
  let last = 0;
  const tail = 24 * 1024;
  while (written + bufLen < target - tail - 4096) {
    turn++;
    if (turn % 6 === 1)
      put(w.user(`Please continue with step ${turn}: ${FILLER.slice(0, 200 + Math.floor(r() * 800))}`));
    const id = `msg_${turn.toString(36).padStart(8, '0')}`;
    const toolId = `toolu_${turn.toString(36).padStart(8, '0')}`;
    const create = 200 + Math.floor(r() * 3000);
    const used = { input: 1 + Math.floor(r() * 9), create, read: ctx };
    // One message over several records (thinking, text, tool_use), the same usage on each.
    put(w.assistant(id, [{ type: 'thinking', thinking: FILLER.slice(0, 300), signature: 'sig' }], used));
    put(w.assistant(id, [{ type: 'text', text: FILLER.slice(100, 400) }], used));
    put(
      w.assistant(
        id,
        [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: 'npm test', description: 'Run the tests' } }],
        used,
      ),
    );
    last = used.input + used.create + used.read;
    put(w.progress(toolId));
    const outLen = 2048 + Math.floor(r() * r() * 60000);
    const start = Math.floor(r() * (FILLER.length - outLen));
    put(w.tool(toolId, FILLER.slice(start, start + outLen)));
    put(w.progress(toolId));
    ctx += create + Math.floor(outLen / 4);
    if (ctx > 165000) {
      const post = 25000 + Math.floor(r() * 10000);
      put(w.compact(ctx, post));
      compactions++;
      ctx = post + 2500;
    }
  }
  // The last assistant record, then at least 16 KB of tool output and a few hook records after it.
  const id = 'msg_final';
  const used = { input: 3, create: 1234, read: ctx };
  put(w.assistant(id, [{ type: 'tool_use', id: 'toolu_final', name: 'Read', input: { file_path: '/x' } }], used));
  last = used.input + used.create + used.read;
  put(w.progress('toolu_final'));
  put(w.tool('toolu_final', FILLER.slice(0, tail)));
  put(w.progress('toolu_final'));
  put(w.progress('toolu_final'));
  flush();
  closeSync(fd);
  return { expect: last, compactions, bytes: statSync(file).size };
}

// ------------------------------------------------------------------ children

/** Child (a): the library call the extension makes. Prints one JSON line. */
async function childMeter(bundle, file, sid, expect, runs) {
  const { ContextFollower } = await import(bundle);
  const ref = { agent: 'claude', sessionId: sid, path: file, mtime: 0 };
  const first = [];
  let ok = true;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const f = new ContextFollower(ref);
    const u = await f.read();
    first.push(ms(t0));
    ok &&= u?.usedTokens === expect;
  }
  const firstRss = process.resourceUsage().maxRSS;
  const f = new ContextFollower(ref);
  await f.read();
  const update = [];
  for (let i = 0; i < runs; i++) {
    const used = 50000 + i;
    const rec = JSON.stringify({
      isSidechain: false,
      type: 'assistant',
      sessionId: sid,
      message: {
        model: MODEL,
        id: `msg_upd_${i}`,
        role: 'assistant',
        content: [{ type: 'text', text: 'ok' }],
        usage: { input_tokens: used, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 },
      },
      timestamp: new Date().toISOString(),
    });
    const out = JSON.stringify({
      isSidechain: false,
      type: 'user',
      sessionId: sid,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't', content: FILLER.slice(0, 16 * 1024) }],
      },
    });
    appendFileSync(file, `${rec}\n${out}\n`);
    const t0 = process.hrtime.bigint();
    const u = await f.read();
    update.push(ms(t0));
    ok &&= u?.usedTokens === used;
  }
  console.log(
    JSON.stringify({
      first: median(first),
      update: median(update),
      firstMax: Math.max(...first.slice(1)),
      ok,
      rssKb: process.resourceUsage().maxRSS,
      firstRssKb: firstRss,
    }),
  );
}

/** Child (c): what most peers do: read the whole file, split it, parse every line. */
function childBaseline(file) {
  const text = readFileSync(file, 'utf8');
  let last = null;
  let compact = null;
  for (const line of text.split('\n')) {
    let o;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    if (!o || typeof o !== 'object' || o.isSidechain === true) continue;
    const u = o.type === 'assistant' ? o.message?.usage : null;
    if (u) {
      last = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
      compact = null;
    } else if (o.type === 'system' && o.subtype === 'compact_boundary') compact = o.compactMetadata?.postTokens ?? 0;
  }
  console.log(JSON.stringify({ used: compact ?? last }));
}

// ------------------------------------------------------------------ measuring processes

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** Run a command; wall time (ms) measured here, peak RSS (MB) from /usr/bin/time or a preload. */
function runProcess(cmd, args, { input, env, cwd, tmp }) {
  const memFile = path.join(tmp, `mem-${process.pid}-${Math.random().toString(36).slice(2)}`);
  let file = cmd;
  let argv = args;
  // Node's own start-up as most users have it (scripts/lib/bench-env.mjs): no NODE_EXTRA_CA_CERTS, no NODE_OPTIONS.
  let e = { ...TIMED_ENV, ...env };
  if (TIME) {
    file = TIME;
    argv = ['-f', '%M', '-o', memFile, cmd, ...args];
  } else {
    const preload = path.join(tmp, 'rss-preload.cjs');
    // No /usr/bin/time: Node processes report their own peak (a native binary is not measured).
    if (!existsSync(preload))
      writeFileSync(
        preload,
        "process.on('exit',()=>{try{require('fs').writeFileSync(process.env.SL_MEM_FILE,String(process.resourceUsage().maxRSS))}catch{}})",
      );
    e = { ...e, NODE_OPTIONS: `${e.NODE_OPTIONS ?? ''} --require ${preload}`, SL_MEM_FILE: memFile };
  }
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, argv, {
    input: input ?? '',
    env: e,
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: 300_000,
  });
  const wall = ms(t0);
  let rssMb = NaN;
  try {
    rssMb = Number(readFileSync(memFile, 'utf8').trim().split('\n').pop()) / 1024;
    rmSync(memFile, { force: true });
  } catch {
    /* not measured */
  }
  return { wall, rssMb, code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function repeat(n, fn) {
  const rs = [];
  for (let i = 0; i < n; i++) rs.push(fn(i));
  return {
    wall: median(rs.map((r) => r.wall)),
    rssMb: Math.max(...rs.map((r) => (Number.isFinite(r.rssMb) ? r.rssMb : -1))),
    last: rs[rs.length - 1],
    all: rs,
  };
}

function installTools(tmp) {
  if (process.env.BENCH_TOOLS === '0') return null;
  const dir = process.env.BENCH_TOOLS_DIR ?? path.join(tmp, 'sl-bench-tools');
  const ccs = path.join(dir, 'node_modules', 'ccstatusline', 'dist', 'ccstatusline.js');
  const ccu = path.join(dir, 'node_modules', 'ccusage', 'src', 'cli.js');
  if (!existsSync(ccs) || !existsSync(ccu)) {
    mkdirSync(dir, { recursive: true });
    console.log(`installing ${CCSTATUSLINE} ${CCUSAGE} into ${dir} (not a dependency of this package)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(
      npm,
      ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', CCSTATUSLINE, CCUSAGE],
      { encoding: 'utf8', timeout: 300_000 },
    );
    if (r.status !== 0 || !existsSync(ccs) || !existsSync(ccu)) {
      console.log(
        `(d)(e) skipped: npm install failed: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`,
      );
      return null;
    }
  }
  return { ccs, ccu };
}

// ------------------------------------------------------------------ main

function fmtMs(x) {
  if (!Number.isFinite(x)) return 'n/a';
  if (x < 1) return `${x.toFixed(2)} ms`;
  if (x < 1000) return `${x.toFixed(x < 10 ? 1 : 0)} ms`;
  return `${(x / 1000).toFixed(2)} s`;
}
const fmtMb = (x) => (Number.isFinite(x) && x >= 0 ? `${x.toFixed(0)} MB` : 'n/a');
const ratio = (x, base) =>
  Number.isFinite(x) && Number.isFinite(base) && base > 0 ? `${(x / base).toFixed(x / base < 10 ? 1 : 0)}x` : 'n/a';

async function main() {
  const mode = process.argv[2];
  if (mode === '--child-meter')
    return childMeter(
      process.argv[3],
      process.argv[4],
      process.argv[5],
      Number(process.argv[6]),
      Number(process.argv[7]),
    );
  if (mode === '--child-baseline') return childBaseline(process.argv[3]);

  const cli = path.join(repo, 'dist', 'cli.js');
  if (!existsSync(cli)) {
    console.log('bench-context: dist/cli.js missing (run npm run build)');
    return;
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sl-bench-context-'));
  const cleanup = () => {
    if (!process.env.KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    // The meter as the extension loads it: one bundle of src/core/context.
    const esbuild = await import('esbuild');
    const bundle = path.join(tmp, 'meter.cjs');
    await esbuild.build({
      entryPoints: [path.join(repo, 'src', 'core', 'context', 'index.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: bundle,
      logLevel: 'warning',
    });
    const tools = installTools(tmp);
    const sizesMb = (process.env.BENCH_CONTEXT_SIZES ?? '1,100,500,1024')
      .split(',')
      .map(Number)
      .filter((n) => n > 0);
    const runs = Number(process.env.BENCH_RUNS ?? 11);
    const heavyRuns = Number(process.env.BENCH_HEAVY_RUNS ?? 3);
    const rows = [];
    console.log(
      `\n## Context meter: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}; medians, peak RSS; files in the page cache`,
    );
    for (const mb of sizesMb) {
      const label = mb >= 1024 ? `${mb / 1024} GB` : `${mb} MB`;
      const dir = path.join(tmp, `s${mb}`);
      const root = path.join(dir, 'workspace');
      const home = path.join(dir, 'claude');
      const codex = path.join(dir, 'codex');
      const userHome = path.join(dir, 'home');
      mkdirSync(root, { recursive: true });
      mkdirSync(codex, { recursive: true });
      mkdirSync(userHome, { recursive: true });
      const sid = `0000${mb.toString(16).padStart(4, '0')}-ae70-4798-800f-63464d01a85d`;
      const projDir = path.join(home, 'projects', root.replace(/[^a-zA-Z0-9]/g, '-'));
      mkdirSync(projDir, { recursive: true });
      const file = path.join(projDir, `${sid}.jsonl`);
      let t0 = process.hrtime.bigint();
      const gen = generate(file, mb * 1024 * 1024, sid, root);
      console.log(
        `${label}: ${(gen.bytes / 2 ** 20).toFixed(1)} MiB written in ${fmtMs(ms(t0))}, ${gen.compactions} compactions, expected figure ${gen.expect} tokens`,
      );
      const env = {
        CLAUDE_CONFIG_DIR: home,
        CODEX_HOME: codex,
        HOME: userHome,
        USERPROFILE: userHome,
        XDG_CONFIG_HOME: path.join(userHome, '.config'),
      };
      const row = { label, expect: gen.expect };

      // (b) the CLI as a whole process, interleaved with node -e 0 (one discarded warm-up run each).
      runProcess(process.execPath, ['-e', '0'], { env, cwd: root, tmp });
      runProcess(process.execPath, [cli, 'context', '--json', '--root', root], { env, cwd: root, tmp });
      const b = [];
      const b0 = [];
      const floor = [];
      for (let i = 0; i < runs; i++) {
        floor.push(runProcess(process.execPath, ['-e', '0'], { env, cwd: root, tmp }));
        b.push(runProcess(process.execPath, [cli, 'context', '--json', '--root', root], { env, cwd: root, tmp }));
        // The first figure on a new machine: an empty cache folder (TMPDIR), nothing counted yet.
        b0.push(
          runProcess(process.execPath, [cli, 'context', '--json', '--root', root], {
            env: { ...env, TMPDIR: mkdtempSync(path.join(tmp, 'empty-cache-')) },
            cwd: root,
            tmp,
          }),
        );
      }
      row.b = { wall: median(b.map((r) => r.wall)), rssMb: Math.max(...b.map((r) => r.rssMb)) };
      row.b0 = { wall: median(b0.map((r) => r.wall)), rssMb: Math.max(...b0.map((r) => r.rssMb)) };
      row.floor = { wall: median(floor.map((r) => r.wall)), rssMb: Math.max(...floor.map((r) => r.rssMb)) };
      const figure = (r) => {
        try {
          return JSON.parse(r.stdout).usedTokens;
        } catch {
          return null;
        }
      };
      row.bOk = [...b, ...b0].every((r) => r.code === 0 && figure(r) === gen.expect);
      if (!row.bOk)
        console.log(`  (b) unexpected: exit ${b[0].code}, ${b[0].stdout.slice(0, 200)} ${b[0].stderr.slice(0, 200)}`);

      // (c) the whole-file baseline, in a child so a crash there cannot take the bench down.
      const c = repeat(mb >= 1024 ? 1 : heavyRuns, () =>
        runProcess(process.execPath, [SELF, '--child-baseline', file], { env, cwd: root, tmp }),
      );
      row.c = c;
      row.cOk = c.last.code === 0 && JSON.parse(c.last.stdout || '{}').used === gen.expect;
      if (c.last.code !== 0)
        row.cFail = /ERR_STRING_TOO_LONG|Cannot create a string longer/.test(c.last.stderr)
          ? 'fails: string too long'
          : /heap out of memory/.test(c.last.stderr)
            ? 'fails: out of memory'
            : `fails: exit ${c.last.code}`;

      // (d) ccstatusline and (e) ccusage, fed a statusLine JSON without context_window.
      if (tools) {
        const input = JSON.stringify({
          hook_event_name: 'Status',
          session_id: sid,
          transcript_path: file,
          cwd: root,
          model: { id: MODEL, display_name: 'Opus 4.6' },
          workspace: { current_dir: root, project_dir: root },
          version: '2.1.39',
          output_style: { name: 'default' },
          cost: {
            total_cost_usd: 1.5,
            total_duration_ms: 60000,
            total_api_duration_ms: 30000,
            total_lines_added: 10,
            total_lines_removed: 2,
          },
        });
        if (rows.length === 0) {
          // Warm-up on the first (small) size: first runs pay for disk caches and settings files.
          runProcess(process.execPath, [tools.ccs], { input, env, cwd: root, tmp });
          runProcess(process.execPath, [tools.ccu, 'statusline', '--no-cache'], { input, env, cwd: root, tmp });
        }
        row.d = repeat(heavyRuns, () => runProcess(process.execPath, [tools.ccs], { input, env, cwd: root, tmp }));
        row.e = repeat(heavyRuns, () =>
          runProcess(process.execPath, [tools.ccu, 'statusline', '--no-cache'], { input, env, cwd: root, tmp }),
        );
        const strip = (s) =>
          s
            .replace(/\x1b\[[0-9;]*m/g, '')
            .split('\n')[0]
            .slice(0, 110);
        console.log(`  ccstatusline says: ${strip(row.d.last.stdout) || row.d.last.stderr.slice(0, 100)}`);
        console.log(`  ccusage says:      ${strip(row.e.last.stdout) || row.e.last.stderr.slice(0, 100)}`);
      }

      // (a) last: its update runs append to the file.
      const a = runProcess(
        process.execPath,
        [SELF, '--child-meter', bundle, file, sid, String(gen.expect), String(Math.max(20, runs * 4))],
        { env, cwd: root, tmp },
      );
      try {
        row.a = JSON.parse(a.stdout.trim().split('\n').pop());
        row.a.rssMb = a.rssMb;
      } catch {
        row.a = { first: NaN, update: NaN, ok: false, rssMb: NaN };
        console.log(`  (a) failed: ${a.stderr.slice(0, 300)}`);
      }
      rows.push(row);
      const line = [
        `  (a) first ${fmtMs(row.a.first)}, update ${fmtMs(row.a.update)}, ${fmtMb(row.a.rssMb)}${row.a.ok ? '' : ' WRONG FIGURE'}`,
        `(b) ${fmtMs(row.b.wall)} ${fmtMb(row.b.rssMb)}${row.bOk ? '' : ' WRONG'}`,
        `(b0) empty cache folder ${fmtMs(row.b0.wall)} (${ratio(row.b0.wall, row.floor.wall)} node)`,
        `node -e 0 ${fmtMs(row.floor.wall)}`,
        `(c) ${row.cFail ?? `${fmtMs(row.c.wall)} ${fmtMb(row.c.rssMb)}`}`,
      ];
      if (row.d)
        line.push(`(d) ${fmtMs(row.d.wall)} ${fmtMb(row.d.rssMb)}`, `(e) ${fmtMs(row.e.wall)} ${fmtMb(row.e.rssMb)}`);
      console.log(line.join(' · '));
      rmSync(dir, { recursive: true, force: true });
    }

    // The table (Markdown, for the README).
    console.log(
      '\n| transcript | (a) meter in process: first / update / peak RSS | (b) `session-ledger context --json` | (b0) the same, empty cache folder (first figure) | `node -e 0` | (b) / `node -e 0` | (b0) / `node -e 0` | (c) whole-file baseline | (d) ccstatusline | (e) ccusage statusline |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      const cell = (x, name) =>
        x
          ? `${fmtMs(x.wall)} / ${fmtMb(x.rssMb)} (${ratio(x.wall, r.b.wall)} (b), ${ratio(x.wall, r.a.first)} (a))`
          : name;
      console.log(
        `| ${r.label} | ${fmtMs(r.a.first)} / ${fmtMs(r.a.update)} / ${fmtMb(r.a.rssMb)}${r.a.ok ? '' : ' (wrong figure)'} | ${fmtMs(r.b.wall)} / ${fmtMb(r.b.rssMb)}${r.bOk ? '' : ' (wrong figure)'} | ${fmtMs(r.b0.wall)} / ${fmtMb(r.b0.rssMb)} | ${fmtMs(r.floor.wall)} / ${fmtMb(r.floor.rssMb)} | ${ratio(r.b.wall, r.floor.wall)} | ${ratio(r.b0.wall, r.floor.wall)} | ${r.cFail ?? cell(r.c)} | ${cell(r.d, 'not run')} | ${cell(r.e, 'not run')} |`,
      );
    }
    if (rows.length > 1) {
      const f = rows[0];
      const l = rows[rows.length - 1];
      console.log(
        `\n(b) at ${l.label} / (b) at ${f.label}: ${ratio(l.b.wall, f.b.wall)}; (a) first figure at ${l.label} / at ${f.label}: ${ratio(l.a.first, f.a.first)}`,
      );
    }
    console.log(
      'Goals: (a) < 5 ms first, < 1 ms update, memory flat; (b) within 1.3x of node -e 0, 1 GB within 1.5x of 1 MB, < 64 MB; (b0) within 1.5x of node -e 0 at any size.',
    );
  } finally {
    cleanup();
  }
}

await main();
