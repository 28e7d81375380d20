#!/usr/bin/env node
// The real Claude Code CLI against Session Ledger: `npm run test:claude`.
//
// Installs @anthropic-ai/claude-code at CLAUDE_CODE_VERSION into the tools folder (once; cached with
// a stamp), starts the stand-in for the model API on 127.0.0.1 (scripts/lib/standin.mjs), and in
// fixture workspaces of every system drives the real client as a user would: `session-ledger hooks
// install`, `claude -p`, `claude --resume ID -p /compact`, `session-ledger checkpoint`, the
// interactive screen in a pseudo-terminal. Nothing leaves the machine.
//
//   node scripts/test-claude.mjs [--only NAME,…] [--keep] [--no-build] [--jobs N]
//
// NAMEs: systems, options, sessions, auto, hooks-off, remind, screen, discovery. Closing line: "N passed, N failed".
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  utimesSync,
  writeFileSync,
  appendFileSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { REPO, makeRunDir, removeRunDir } from './lib/code-server.mjs';
import {
  CLAUDE_CODE_VERSION,
  claudeWorld,
  ensureClaudeCode,
  readJsonl,
  runGroup,
  startTui,
} from './lib/claude-code.mjs';
import { startStandin } from './lib/standin.mjs';
import { testRun } from './lib/test-run.mjs';
import { HOMES } from '../test/e2e/ui.mjs';

const argv = process.argv.slice(2);
const arg = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = arg('--only')?.split(',');
const keep = argv.includes('--keep') || !!process.env.SESSION_LEDGER_KEEP;
const jobs = Math.max(1, Number(arg('--jobs') ?? 2));
const want = (group) => !only || only.includes(group);
const CLI = join(REPO, 'dist', 'cli.js');
/** The manual items (S1 Phase 4) confirmed, as a user who says YES to them: without it no checkpoint is written. */
const CONFIRM = ['--confirm', 'feedback-stored,last-request'];
const CLAUDE_TIMEOUT = 180_000;

const { t0, log, results, test } = testRun('claude');

/** Run async tasks with at most `n` at once. */
async function pool(n, tasks) {
  const queue = [...tasks];
  await Promise.all(
    Array.from({ length: Math.min(n, queue.length) }, async () => {
      while (queue.length) await queue.shift()();
    }),
  );
}

async function main() {
  const bin = ensureClaudeCode({ log });
  if (!argv.includes('--no-build')) {
    log('building (scripts/build.mjs)');
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO, stdio: 'inherit' });
  }
  const standin = await startStandin();
  const run = makeRunDir('claude');
  const world = claudeWorld(run, { standinUrl: standin.url, bin });
  log(`Claude Code ${CLAUDE_CODE_VERSION} (${bin}), stand-in ${standin.url}, run folder ${run}`);

  // ------------------------------------------------------------------ helpers
  /** The real client in `ws` (print mode unless the arguments say otherwise). */
  const claude = async (ws, args, extraEnv = {}) => {
    const r = await runGroup('claude', args, {
      cwd: ws,
      env: { ...world.env, ...extraEnv },
      timeoutMs: CLAUDE_TIMEOUT,
    });
    if (r.timedOut)
      throw new Error(`claude ${args.join(' ')} timed out after ${CLAUDE_TIMEOUT} ms\n${r.stdout}\n${r.stderr}`);
    return { ...r, all: `${r.stdout}\n${r.stderr}` };
  };
  /** `session-ledger ARGS` in `ws`, in the same shell environment as the client. */
  const sl = async (ws, args, extraEnv = {}) =>
    runGroup(process.execPath, [CLI, ...args], { cwd: ws, env: { ...world.env, ...extraEnv }, timeoutMs: 60_000 });
  /** A copy of the system's fixture workspace at `dir` (under the run folder), trusted by the client. */
  const fixture = (sys, dir) => {
    const ws = join(run, dir);
    cpSync(join(REPO, 'test', 'fixtures', sys.toLowerCase(), 'good'), ws, { recursive: true });
    world.trust(ws);
    return ws;
  };
  const install = async (ws, statusline = false, extra = []) => {
    const r = await sl(ws, ['hooks', 'install', ...(statusline ? ['--statusline'] : []), ...extra]);
    assert.equal(r.code, 0, `hooks install: ${r.stdout}${r.stderr}`);
  };
  const sessionRecord = (ws) => JSON.parse(readFileSync(join(ws, '.claude', 'session-ledger', 'session.json'), 'utf8'));
  /** Where the client really wrote a session's transcript (found by its file name, not by our encoding). */
  const transcriptOf = (sid) => {
    const projects = join(world.config, 'projects');
    for (const d of readdirSync(projects)) {
      const f = join(projects, d, `${sid}.jsonl`);
      if (existsSync(f)) return f;
    }
    throw new Error(`no transcript ${sid}.jsonl under ${projects}`);
  };
  const boundaries = (sid) =>
    readJsonl(transcriptOf(sid)).filter((r) => r.type === 'system' && r.subtype === 'compact_boundary');
  /** The client's own figure for a one-request `-p` run: the request's usage and the model's window it reports. */
  const clientFigure = (out) => {
    const [model, mu] = Object.entries(out.modelUsage ?? {}).find(([, v]) => v?.contextWindow) ?? [];
    const u = out.usage ?? {};
    return {
      model,
      window: mu?.contextWindow,
      used: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
    };
  };
  /** The client's own figure of each session's first run, by session id. */
  const figures = new Map();
  /** A new session in `ws`: `claude -p`; its id as the client itself reports it (and sent it to the stand-in). */
  const newSession = async (ws, prompt = 'hello') => {
    const r = await claude(ws, ['-p', prompt, '--output-format', 'json']);
    assert.equal(r.code, 0, `claude -p: ${r.all}`);
    const out = JSON.parse(r.stdout);
    assert.match(out.result, /Stand-in reply/);
    assert.ok(standin.messages(out.session_id).length, `the stand-in saw session ${out.session_id}`);
    figures.set(out.session_id, clientFigure(out));
    return out.session_id;
  };
  /** `session-ledger context --json` in `ws` agrees with the client's own figure (window and tokens). */
  const assertMeterAgrees = async (ws, sid, fig) => {
    const r = await sl(ws, ['context', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.sessionId, sid);
    assert.equal(j.model, fig.model);
    assert.equal(j.windowTokens, fig.window, `the window the client reports for ${fig.model}`);
    assert.equal(j.usedTokens, fig.used, 'the tokens the client reports');
  };
  const compact = (ws, sid, extraEnv) => claude(ws, ['--resume', sid, '-p', '/compact'], extraEnv);
  const BLOCKED = 'Compaction blocked by PreCompact hook';
  const assertBlocked = (r, sid, reason, before = 0) => {
    assert.ok(r.all.includes(BLOCKED), `the client's own "${BLOCKED}" line:\n${r.all}`);
    const line = r.all.split('\n').find((l) => l.includes(BLOCKED));
    assert.match(line, reason, 'our reason is on that line');
    assert.equal(boundaries(sid).length, before, 'no compaction happened');
  };
  const assertCompacted = (r, sid, n = 1) => {
    assert.ok(!r.all.includes(BLOCKED), `not blocked:\n${r.all}`);
    const b = boundaries(sid);
    assert.equal(b.length, n, `${n} compact_boundary record(s) in the transcript`);
    assert.equal(b.at(-1).compactMetadata?.trigger, 'manual');
  };

  // ------------------------------------------------------------------ every system: the guard and the resume block
  const systems = async (sys) => {
    const ws = fixture(sys, `sys-${sys}`);
    let sid;
    let ok =
      await test(`${sys}: hooks install; the SessionStart hook records the real session id and transcript path`, async () => {
        await install(ws);
        sid = await newSession(ws);
        const rec = sessionRecord(ws);
        assert.equal(rec.session_id, sid);
        assert.equal(rec.source, 'startup');
        assert.equal(rec.transcript_path, transcriptOf(sid));
        await assertMeterAgrees(ws, sid, figures.get(sid));
      });
    if (!ok) return;
    ok =
      await test(`${sys}: /compact without a checkpoint is blocked; the client's "${BLOCKED}" line carries our reason`, async () => {
        const r = await compact(ws, sid);
        assertBlocked(
          r,
          sid,
          new RegExp(`no checkpoint has run in this session \\(\\.claude/\\.checkpoint-ready\\.${sid} is missing\\)`),
        );
        assert.match(r.all, new RegExp(`checkpoint --session ${sid}`), 'it says what to run');
      });
    if (!ok) return;
    ok = await test(`${sys}: after \`session-ledger checkpoint\` the same /compact goes through`, async () => {
      const c = await sl(ws, ['checkpoint', ...CONFIRM, '--session', sid]);
      assert.equal(c.code, 0, c.stdout + c.stderr);
      assert.ok(existsSync(join(ws, '.claude', `.checkpoint-ready.${sid}`)));
      assertCompacted(await compact(ws, sid), sid);
    });
    if (!ok) return;
    await test(`${sys}: after /compact the SessionStart resume block reaches the model in the next request`, async () => {
      assert.equal(sessionRecord(ws).source, 'compact', 'SessionStart ran with source compact');
      const before = standin.requests.length;
      const r = await claude(ws, ['--resume', sid, '-p', 'What next?']);
      assert.equal(r.code, 0, r.all);
      const sent = standin.requests.slice(before).filter((q) => q.kind === 'chat' && q.sessionId === sid);
      assert.ok(sent.length, 'a request of this session');
      const body = JSON.stringify(sent.at(-1).body);
      assert.ok(body.includes('Session Ledger — resuming after /compact'), 'the resume block');
      assert.ok(body.includes(`Read ${HOMES[sys]}`), `it names ${HOMES[sys]}`);
      assert.ok(body.includes('Next action: '), 'the next action');
      assert.ok(body.includes(`.checkpoint-ready.${sid}`), "this session's marker");
      if (sys === 'S0') {
        assert.ok(body.includes('UNCONFIRMED items'), 'the UNCONFIRMED items to validate');
        assert.ok(body.includes('Dates are exported in UTC'), 'an UNCONFIRMED item itself');
      }
    });
  };

  // ------------------------------------------------------------------ the guard's other rules
  const options = async () => {
    const ws = fixture('S3', 'opt-nothing');
    await test('`checkpoint --nothing-to-preserve` lets /compact through', async () => {
      await install(ws);
      const sid = await newSession(ws);
      assertBlocked(await compact(ws, sid), sid, /no checkpoint has run in this session/);
      const c = await sl(ws, ['checkpoint', '--nothing-to-preserve', '--session', sid]);
      assert.equal(c.code, 0, c.stdout + c.stderr);
      assertCompacted(await compact(ws, sid), sid);
    });
    const ws2 = fixture('S2', 'opt-stale');
    await test("blocked again when the state file changed after a checkpoint older than the max age (SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN in the client's environment)", async () => {
      await install(ws2);
      const sid = await newSession(ws2);
      const c = await sl(ws2, ['checkpoint', ...CONFIRM, '--session', sid]);
      assert.equal(c.code, 0, c.stdout + c.stderr);
      // The checkpoint is 10 minutes old; the ledger was written after it.
      const marker = join(ws2, '.claude', `.checkpoint-ready.${sid}`);
      const old = new Date(Date.now() - 10 * 60_000);
      utimesSync(marker, old, old);
      appendFileSync(join(ws2, HOMES.S2), '\n- Decided: renewals go through the reservation queue first.\n');
      const env = { SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: '5' };
      assertBlocked(
        await compact(ws2, sid, env),
        sid,
        /changed after the last checkpoint, and that checkpoint is \d+ min old \(window 5 min/,
      );
      // Within the window (the user's default, 480 min) the same marker passes.
      assertCompacted(await compact(ws2, sid), sid);
    });
  };

  const sessions = async () => {
    const ws = fixture('S4', 'two-sessions');
    await test('two real sessions in one workspace: the checkpoint of one does not let the other compact (per-session marker, then a shared marker it signed)', async () => {
      await install(ws);
      const a = await newSession(ws, 'first session');
      const b = await newSession(ws, 'second session');
      assert.notEqual(a, b);
      // Without --session the checkpoint does not guess between them: it refuses and lists both.
      const guess = await sl(ws, ['checkpoint', ...CONFIRM]);
      assert.equal(guess.code, 1, guess.stdout + guess.stderr);
      assert.match(guess.stderr, /2 agent sessions of this folder wrote within the last 30 minutes/);
      for (const id of [a, b]) assert.ok(guess.stderr.includes(id), `it lists ${id}`);
      assert.match(guess.stderr, /"first session"/);
      assert.match(guess.stderr, /"second session"/);
      assert.ok(
        !existsSync(join(ws, '.claude', '.checkpoint-ready')) &&
          !existsSync(join(ws, '.claude', `.checkpoint-ready.${a}`)),
        'no marker',
      );
      const c = await sl(ws, ['checkpoint', ...CONFIRM, '--session', a]);
      assert.equal(c.code, 0, c.stdout + c.stderr);
      assertBlocked(await compact(ws, b), b, new RegExp(`\\.checkpoint-ready\\.${b} is missing`));
      // The shared marker, signed by session A, does not count for B either.
      writeFileSync(
        join(ws, '.claude', '.checkpoint-ready'),
        readFileSync(join(ws, '.claude', `.checkpoint-ready.${a}`)),
      );
      assertBlocked(await compact(ws, b), b, new RegExp(`names session ${a}, not this one`));
      // A's own /compact goes through.
      assertCompacted(await compact(ws, a), a);
    });
  };

  const auto = async () => {
    const ws = fixture('S1', 'auto');
    await test('automatic compaction is never blocked: usage past the threshold (stand-in override), no marker → trigger auto compacts, no "Prompt is too long"', async () => {
      await install(ws);
      const sid = await newSession(ws);
      assertBlocked(await compact(ws, sid), sid, /no checkpoint has run/);
      standin.setUsage({ cache_read_input_tokens: 990_000 }, sid);
      let r;
      try {
        r = await claude(ws, ['--resume', sid, '-p', 'a turn that fills the window']);
        assert.equal(r.code, 0, r.all);
      } finally {
        standin.setUsage(null, sid);
      }
      r = await claude(ws, ['--resume', sid, '-p', 'the next turn']);
      assert.equal(r.code, 0, r.all);
      assert.doesNotMatch(r.all, /Prompt is too long/);
      assert.ok(!r.all.includes(BLOCKED), r.all);
      const b = boundaries(sid);
      assert.equal(b.length, 1, 'one compaction');
      assert.equal(b[0].compactMetadata?.trigger, 'auto');
      assert.ok(b[0].compactMetadata.preTokens >= 990_000, `preTokens ${b[0].compactMetadata.preTokens}`);
      assert.ok(
        !existsSync(join(ws, '.claude', `.checkpoint-ready.${sid}`)),
        'still no marker: the guard was not asked to allow it',
      );
    });
  };

  // ------------------------------------------------------------------ Claude Code's own switch that stops every hook
  const hooksOff = async () => {
    const ws = fixture('S3', 'hooks-off');
    await test('disableAllHooks: true in the local settings keeps the installed guard from running (the plain /compact compacts, no SessionStart record); `hooks install` says /compact is not guarded, and once it is false the guard blocks again', async () => {
      await install(ws);
      writeFileSync(join(ws, '.claude', 'settings.local.json'), '{ "disableAllHooks": true }\n');
      const said = await sl(ws, ['hooks', 'install']);
      assert.equal(said.code, 0, said.stdout + said.stderr);
      assert.match(
        said.stdout,
        /\/compact is not guarded: disableAllHooks is true in \.claude\/settings\.local\.json, so Claude Code runs no hooks/,
      );
      const sid = await newSession(ws);
      assert.ok(!existsSync(join(ws, '.claude', 'session-ledger', 'session.json')), 'no SessionStart hook ran');
      assertCompacted(await compact(ws, sid), sid);
      writeFileSync(join(ws, '.claude', 'settings.local.json'), '{ "disableAllHooks": false }\n');
      assert.doesNotMatch((await sl(ws, ['hooks', 'install'])).stdout, /not guarded/);
      assertBlocked(await compact(ws, sid), sid, /no checkpoint has run in this session/, 1);
    });
  };

  // ------------------------------------------------------------------ the reminder (hooks install --remind)
  const SUGGESTION = 'Session Ledger: context is at ';
  /**
   * One turn of `sid` whose own model request reports `used` tokens (of the default model's 1,000,000),
   * so the reminder sees that figure before the next prompt. Returns how many suggestions this turn's
   * request carried beyond the previous request's (the history repeats the earlier ones).
   */
  const remindTurn = async (ws, sid, used, prompt) => {
    const sent = () => standin.requests.filter((q) => q.kind === 'chat' && q.sessionId === sid);
    const count = (q) => (JSON.stringify(q?.body ?? {}).match(new RegExp(SUGGESTION, 'g')) ?? []).length;
    const before = count(sent().at(-1));
    standin.setUsage({ input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: used }, sid);
    try {
      const r = await claude(ws, ['--resume', sid, '-p', prompt]);
      assert.equal(r.code, 0, r.all);
      assert.doesNotMatch(r.all, /UserPromptSubmit|blocked/i, 'the prompt went through untouched');
    } finally {
      standin.setUsage(null, sid);
    }
    const last = sent().at(-1);
    const text = JSON.stringify(last?.body ?? {});
    const lines = [...text.matchAll(/Session Ledger: context is at [^"\\]*/g)].map((m) => m[0]);
    return { added: count(last) - before, newest: lines.at(-1) ?? '' };
  };
  const remindGroup = async (sys) => {
    const ws = fixture(sys, `remind-${sys}`);
    const [first, urgent] = sys === 'S3' ? [15, 40] : [70, 85];
    const trigger = sys === 'S3' ? '/checkpoint' : 'Apply the session-checkpoint skill';
    await test(`remind ${sys}: the real client carries the suggestion to the model in the next request, once, at ${first} % (not at one token below), and again at ${urgent} %`, async () => {
      await install(ws, false, ['--remind']);
      assert.match(readFileSync(join(ws, '.claude', 'settings.json'), 'utf8'), /"UserPromptSubmit"[\s\S]*hook remind/);
      const sid = await newSession(ws, 'start');
      // Each turn's request reports `used`; the reminder reads it before the following prompt.
      let t = await remindTurn(ws, sid, first * 10_000 - 1, 'turn one');
      assert.equal(t.added, 0, 'nothing before the first figure');
      t = await remindTurn(ws, sid, first * 10_000, 'turn two');
      assert.equal(t.added, 0, `one token below ${first} %: silent (${t.newest})`);
      t = await remindTurn(ws, sid, first * 10_000 + 5_000, 'turn three');
      assert.equal(t.added, 1, `at ${first} %: one suggestion`);
      assert.equal(
        t.newest,
        `Session Ledger: context is at ${first}%, past the ${first}% mark of ${sys === 'S3' ? 'S3 Groundwork' : 'S0 majestic ledger'}: propose a checkpoint to the user. To run: ${trigger}`,
      );
      t = await remindTurn(ws, sid, urgent * 10_000, 'turn four');
      assert.equal(t.added, 0, `still the ${first} % band: not again`);
      t = await remindTurn(ws, sid, urgent * 10_000, 'turn five');
      assert.equal(t.added, 1, `at ${urgent} %: one suggestion`);
      assert.match(t.newest, new RegExp(`past the ${urgent}% mark of ${sys} .*checkpoint now.*To run: ${trigger}$`));
      t = await remindTurn(ws, sid, urgent * 10_000, 'turn six');
      assert.equal(t.added, 0, 'once per band');
      assert.ok(!existsSync(join(ws, '.claude', `.checkpoint-ready.${sid}`)), 'it ran no checkpoint');
      assert.deepEqual(readdirSync(join(ws, '.claude', 'session-ledger', 'remind')), [`${sid}.json`]);
    });
    if (sys !== 'S3') return;
    const ws2 = fixture(sys, 'remind-S3-marker');
    await test("remind S3: never while the checkpoint covers the session (the guard's decision); the band it covered stays said in later turns, the next band is suggested", async () => {
      await install(ws2, false, ['--remind']);
      const sid = await newSession(ws2, 'start');
      // The checkpoint after turn one's answer (20 %): that figure is the one it covers. (A figure of a turn
      // that began after the marker, however soon, is not covered.)
      let t = await remindTurn(ws2, sid, 200_000, 'turn one');
      const c = await sl(ws2, ['checkpoint', ...CONFIRM, '--session', sid]);
      assert.equal(c.code, 0, c.stdout + c.stderr);
      t = await remindTurn(ws2, sid, 200_000, 'turn two');
      assert.equal(t.added, 0, `20 % with a fresh marker: silent (${t.newest})`);
      // Work after the checkpoint, in turns well after it (the figure of a turn more than 2 min after the
      // marker): the 15 % band the checkpoint covered is not said again; the 40 % band is.
      const marker = join(ws2, '.claude', `.checkpoint-ready.${sid}`);
      const old = new Date(Date.now() - 600_000);
      utimesSync(marker, old, old);
      appendFileSync(join(ws2, HOMES.S3), '\n- 2026-02-12 renewals go through the reservation queue first.\n');
      t = await remindTurn(ws2, sid, 250_000, 'turn three');
      t = await remindTurn(ws2, sid, 400_000, 'turn four');
      assert.equal(t.added, 0, `later turns in the band the checkpoint covered: silent (${t.newest})`);
      t = await remindTurn(ws2, sid, 400_000, 'turn five');
      assert.equal(t.added, 1, 'the next band, in a turn after the checkpoint: one suggestion');
      assert.match(t.newest, /past the 40% mark of S3 /);
    });
  };

  // ------------------------------------------------------------------ the interactive screen, the statusLine relay and the meter
  const screen = async () => {
    const ws = fixture('S0', 'screen');
    mkdirSync(join(ws, '.claude'), { recursive: true });
    const prevLog = join(run, 'previous-statusline.log');
    writeFileSync(
      join(ws, '.claude', 'settings.json'),
      `${JSON.stringify({ statusLine: { type: 'command', command: `cat >> '${prevLog}'; echo >> '${prevLog}'; echo MY-OWN-STATUS-LINE` } }, null, 2)}\n`,
    );
    const feedDir = join(ws, '.claude', 'session-ledger');
    const feedOf = (sid) => JSON.parse(readFileSync(join(feedDir, `statusline.${sid}.json`), 'utf8'));
    const until = async (what, probe, ms = 60_000) => {
      const t = Date.now();
      for (;;) {
        let v;
        try {
          v = probe();
        } catch {
          v = undefined;
        }
        if (v) return v;
        if (Date.now() - t > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    await install(ws, true);
    world.trust(ws);
    const tui = startTui(['claude'], { cwd: ws, env: world.env });
    let sid;
    try {
      await test("screen: the statusLine relay runs in the real client and keeps the previous status line's output", async () => {
        await tui.waitFor('MY-OWN-STATUS-LINE', 90_000);
        sid = await until('the SessionStart record', () => sessionRecord(ws).session_id);
        assert.ok(existsSync(join(feedDir, `statusline.${sid}.json`)), 'the relay recorded the session');
        assert.match(
          readFileSync(prevLog, 'utf8'),
          new RegExp(`"session_id":"${sid}"`),
          'the previous command got the same JSON',
        );
      });
      if (!sid) return;
      await test("screen: after a turn the relay records context_window; `session-ledger context` agrees with the client's own used_percentage", async () => {
        const n = tui.screen().length;
        await tui.type('hello from the screen');
        await tui.waitFor('Stand-in reply', 90_000, n);
        const cw = await until('a statusLine figure', () => {
          const f = feedOf(sid).input.context_window;
          return f?.used_percentage != null ? f : null;
        });
        assert.equal(cw.context_window_size, 1_000_000, 'the default model runs with a 1M window');
        const r = await sl(ws, ['context', '--json']);
        assert.equal(r.code, 0, r.stderr);
        const j = JSON.parse(r.stdout);
        assert.equal(j.sessionId, sid);
        assert.equal(j.windowTokens, cw.context_window_size);
        const used =
          cw.current_usage.input_tokens +
          cw.current_usage.cache_creation_input_tokens +
          cw.current_usage.cache_read_input_tokens;
        assert.equal(j.usedTokens, used);
        // The client shows a whole percentage; ours agrees within that rounding.
        assert.ok(
          Math.abs(j.percent - cw.used_percentage) < 1,
          `ours ${j.percent} %, the client's ${cw.used_percentage} %`,
        );
      });
      await test("screen: /compact typed without a checkpoint shows the client's blocked line with our reason; after checkpoint it compacts", async () => {
        let n = tui.screen().length;
        await tui.type('/compact');
        await tui.waitFor(BLOCKED, 90_000, n);
        await tui.waitFor('no checkpoint has run in this session', 10_000, n);
        const c = await sl(ws, ['checkpoint', ...CONFIRM, '--session', sid]);
        assert.equal(c.code, 0, c.stdout + c.stderr);
        n = tui.screen().length;
        await tui.type('/compact');
        await until('a compact_boundary', () => boundaries(sid).length === 1, 90_000);
        assert.equal(boundaries(sid)[0].compactMetadata.trigger, 'manual');
      });
      await test('screen: right after /compact the client has no figure (null used_percentage); the meter shows the compacted size against the reported 1M window, not 0 %', async () => {
        const cw = await until('the statusLine after /compact', () => {
          const f = feedOf(sid).input.context_window;
          return f && f.used_percentage === null && f.context_window_size ? f : null;
        });
        const post = boundaries(sid)[0].compactMetadata.postTokens;
        const j = JSON.parse((await sl(ws, ['context', '--json'])).stdout);
        assert.equal(j.afterCompaction, true);
        assert.equal(j.usedTokens, post);
        assert.equal(j.windowTokens, cw.context_window_size);
        assert.equal(j.windowSource, 'client');
        assert.ok(j.percent > 0, `not 0 % (${j.percent})`);
      });
      await test('screen: the next prompt after /compact carries the resume block (next action, UNCONFIRMED items) to the model', async () => {
        const before = standin.requests.length;
        const n = tui.screen().length;
        await tui.type('continue please');
        await tui.waitFor('Stand-in reply', 90_000, n);
        const sent = standin.requests.slice(before).filter((q) => q.kind === 'chat' && q.sessionId === sid);
        const body = JSON.stringify(sent.at(-1)?.body ?? {});
        assert.ok(body.includes('Session Ledger — resuming after /compact'));
        assert.ok(body.includes('Next action: '));
        assert.ok(body.includes('Should totals include tax?'), 'an UNCONFIRMED item');
      });
    } finally {
      writeFileSync(join(run, 'screen.txt'), tui.screen());
      await tui.kill();
    }
    await userStatusLine(until);
  };

  /** A status line of the user's settings (the client's config folder), kept by a relay installed with --local. */
  const userStatusLine = async (until) => {
    const ws = fixture('S3', 'screen-user');
    const userSettings = join(world.config, 'settings.json');
    const userLog = join(run, 'user-statusline.log');
    writeFileSync(
      userSettings,
      `${JSON.stringify({ statusLine: { type: 'command', command: `cat >> '${userLog}'; echo; echo MY-USER-STATUS-LINE` } }, null, 2)}\n`,
    );
    let tui;
    try {
      await install(ws, true, ['--local']);
      world.trust(ws);
      tui = startTui(['claude'], { cwd: ws, env: world.env });
      await test("screen: a status line of the user's settings keeps showing inside the relay installed with --local", async () => {
        const local = JSON.parse(readFileSync(join(ws, '.claude', 'settings.local.json'), 'utf8'));
        assert.match(local.statusLine.command, /statusline -- 'cat >> /);
        await tui.waitFor('MY-USER-STATUS-LINE', 90_000);
        const sid = await until('the SessionStart record', () => sessionRecord(ws).session_id);
        await until('the relay record', () =>
          existsSync(join(ws, '.claude', 'session-ledger', `statusline.${sid}.json`)),
        );
        assert.match(
          readFileSync(userLog, 'utf8'),
          new RegExp(`"session_id":"${sid}"`),
          'the user command got the JSON',
        );
      });
    } finally {
      if (tui) {
        writeFileSync(join(run, 'screen-user.txt'), tui.screen());
        await tui.kill();
      }
      rmSync(userSettings, { force: true });
    }
  };

  // ------------------------------------------------------------------ where the client writes, and the meter finds it
  const discovery = async () => {
    const names = [
      'with space',
      'dots.v1.2',
      'at@scope',
      'ünïcødé-名前',
      `${'a-very-long-folder-name-'.repeat(9)}/end`,
    ];
    await test('discovery: workspaces whose path has spaces, dots, @, non-ASCII letters, or more than 200 characters are found where the client writes them', async () => {
      const wss = names.map((n) => {
        const ws = join(run, 'paths', n);
        mkdirSync(ws, { recursive: true });
        return ws;
      });
      assert.ok(wss[4].length > 200, `a path of ${wss[4].length} characters`);
      const sids = [];
      await pool(
        jobs,
        wss.map((ws, i) => async () => {
          sids[i] = await newSession(ws);
        }),
      );
      for (let i = 0; i < wss.length; i++) {
        const r = await sl(wss[i], ['context', '--json']);
        assert.equal(r.code, 0, `${wss[i]}: ${r.stderr}`);
        const j = JSON.parse(r.stdout);
        const sid = sids[i];
        const fig = figures.get(sid);
        assert.equal(j.sessionId, sid, wss[i]);
        assert.equal(j.transcriptPath, transcriptOf(sid), wss[i]);
        // Print mode runs no statusLine: the window is the model table's, and it is the client's own (1M).
        assert.equal(j.model, 'claude-opus-5-5');
        assert.equal(fig.window, 1_000_000);
        assert.equal(j.windowTokens, fig.window);
        assert.equal(j.usedTokens, fig.used);
        assert.equal(j.windowSource, 'model');
      }
    });
  };

  const groups = [];
  if (want('systems')) for (const sys of Object.keys(HOMES)) groups.push(() => systems(sys));
  if (want('options')) groups.push(options);
  if (want('sessions')) groups.push(sessions);
  if (want('auto')) groups.push(auto);
  if (want('hooks-off')) groups.push(hooksOff);
  if (want('remind')) for (const sys of ['S3', 'S0']) groups.push(() => remindGroup(sys));
  if (want('discovery')) groups.push(discovery);
  // The screen is timing-sensitive: it runs alone, after the rest.
  await pool(jobs, groups);
  if (want('screen')) await screen();

  await standin.close();
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  if (!failed && !keep) removeRunDir(run);
  else log(`run folder kept: ${run}`);
  log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (!results.length) {
    console.log('no test ran');
    process.exit(1);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e?.stack || e);
  console.log(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed`);
  process.exit(1);
});
