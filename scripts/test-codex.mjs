#!/usr/bin/env node
// The real Codex CLI against Session Ledger: `npm run test:codex`.
//
// Installs @openai/codex at CODEX_VERSION into the tools folder (once; cached with a stamp), starts
// the stand-in for the Responses API on 127.0.0.1 (scripts/lib/responses-standin.mjs), and in
// fixture workspaces of every system drives the real client through its own app server (and once
// through its own screen in a pseudo-terminal): `session-ledger hooks install --codex`, the project
// and hook trust the user gives, turns, `/compact` (thread/compact/start), `session-ledger
// checkpoint`, `/clear` (a new thread started from /clear), automatic compaction past the client's
// own token limit, the model refusing a request as longer than its window. The workspaces and
// CODEX_HOME live under the tools folder, not in the temp folder. Nothing leaves the machine.
//
//   node scripts/test-codex.mjs [--only NAME,…] [--keep] [--no-build]
//
// NAMEs: trust, systems, clear, auto, full, screen. Closing line: "N passed, N failed".
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { REPO } from './lib/code-server.mjs';
import { readJsonl, runGroup, startTui, TOOLS } from './lib/claude-code.mjs';
import { CODEX_VERSION, codexWorld, ensureCodex, startAppServer } from './lib/codex-cli.mjs';
import { startResponsesStandin } from './lib/responses-standin.mjs';
import { runOptions, testRun } from './lib/test-run.mjs';
import { HOMES } from '../test/e2e/ui.mjs';

const { argv, keep, want } = runOptions();
const CLI = join(REPO, 'dist', 'cli.js');
/** The manual items (S1 Phase 4) confirmed, as a user who says YES to them: without it no checkpoint is written. */
const CONFIRM = ['--confirm', 'feedback-stored,last-request'];
const TURN_TIMEOUT = 120_000;

const { log, results, test } = testRun('codex');

/** Whether the client saved `ws` as a trusted project in its config.toml (what the trust dialog writes). */
function folderTrusted(world, ws) {
  try {
    return readFileSync(join(world.codexHome, 'config.toml'), 'utf8').includes(`[projects.${JSON.stringify(ws)}]`);
  } catch {
    return false;
  }
}

async function main() {
  const bin = ensureCodex({ log });
  if (!argv.includes('--no-build')) {
    log('building (scripts/build.mjs)');
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO, stdio: 'inherit' });
  }
  const standin = await startResponsesStandin();
  // Not in the temp folder: the client refuses a temporary CODEX_HOME, and the hook script runs from the workspace.
  mkdirSync(join(TOOLS, 'codex-runs'), { recursive: true });
  const run = realpathSync(mkdtempSync(join(TOOLS, 'codex-runs', 'run-')));
  const world = codexWorld(run, { standinUrl: standin.url, bin });
  log(`Codex CLI ${CODEX_VERSION} (${bin}), stand-in ${standin.url}, run folder ${run}`);

  // ------------------------------------------------------------------ helpers
  /** `session-ledger ARGS` in `ws`, in the same environment as the client. */
  const sl = (ws, args) => runGroup(process.execPath, [CLI, ...args], { cwd: ws, env: world.env, timeoutMs: 60_000 });
  /** A copy of the system's fixture workspace at `dir` (under the run folder), a git repository as a project is. */
  const fixture = (sys, dir) => {
    const ws = join(run, dir);
    cpSync(join(REPO, 'test', 'fixtures', sys.toLowerCase(), 'good'), ws, { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: ws });
    return ws;
  };
  const install = async (ws) => {
    const r = await sl(ws, ['hooks', 'install', '--codex']);
    assert.equal(r.code, 0, `hooks install --codex: ${r.stdout}${r.stderr}`);
    return r;
  };
  /** The hooks Codex itself sees for `ws`: its own hooks/list. */
  const hooksOf = async (server, ws) => {
    const r = await server.call('hooks/list', { cwds: [ws] });
    const entry = r.data.find((d) => d.cwd === ws) ?? r.data[0];
    assert.deepEqual(entry.errors ?? [], [], 'Codex read the hook file without errors');
    return entry.hooks.filter((h) => String(h.sourcePath).startsWith(ws));
  };
  /**
   * What the user does after install (the CLI's note): trust the project, then the two hooks. Written
   * through the client's own config API, with the hashes the client itself reports for the hooks.
   */
  const trust = async (server, ws) => {
    await server.call('config/batchWrite', {
      edits: [{ keyPath: 'projects', value: { [ws]: { trust_level: 'trusted' } }, mergeStrategy: 'upsert' }],
      reloadUserConfig: true,
    });
    const hooks = await hooksOf(server, ws);
    assert.equal(hooks.length, 2, `Codex lists our two hooks in ${ws}: ${JSON.stringify(hooks)}`);
    await server.call('config/batchWrite', {
      edits: [
        {
          keyPath: 'hooks.state',
          value: Object.fromEntries(hooks.map((h) => [h.key, { trusted_hash: h.currentHash }])),
          mergeStrategy: 'upsert',
        },
      ],
      reloadUserConfig: true,
    });
    const after = await hooksOf(server, ws);
    assert.deepEqual(
      after.map((h) => [h.eventName, h.matcher, h.trustStatus]),
      [
        ['preCompact', 'manual', 'trusted'],
        ['sessionStart', 'startup|resume|clear|compact', 'trusted'],
      ],
    );
  };
  const sessionRecordPath = (ws) => join(ws, '.claude', 'session-ledger', 'session.json');
  const sessionRecord = (ws) => JSON.parse(readFileSync(sessionRecordPath(ws), 'utf8'));
  /** A new thread in `ws` (`from: 'clear'`: as /clear starts it). */
  const newThread = async (server, ws, from) =>
    (await server.call('thread/start', { cwd: ws, ...(from ? { sessionStartSource: from } : {}) })).thread.id;
  /** One user turn; resolves with its turn/completed notification and the notifications it brought. */
  const turn = async (server, threadId, text) => {
    const from = server.notes.length;
    await server.call('turn/start', { threadId, input: [{ type: 'text', text, text_elements: [] }] });
    const done = await server.waitFor(
      (n) => n.method === 'turn/completed' && n.params.threadId === threadId,
      TURN_TIMEOUT,
      from,
    );
    return { done, notes: server.notes.slice(from) };
  };
  /** `/compact`: what the client's /compact asks its server for; resolves with the notifications of that turn. */
  const compact = async (server, threadId) => {
    const from = server.notes.length;
    await server.call('thread/compact/start', { threadId });
    const done = await server.waitFor(
      (n) => n.method === 'turn/completed' && n.params.threadId === threadId,
      TURN_TIMEOUT,
      from,
    );
    return { done, notes: server.notes.slice(from) };
  };
  const hookRuns = (notes, event) =>
    notes.filter((n) => n.method === 'hook/completed' && n.params.run.eventName === event).map((n) => n.params.run);
  const compactions = (notes) =>
    notes.filter((n) => n.method === 'item/completed' && n.params.item?.type === 'contextCompaction');
  /** The rollout the client wrote for a thread (found by its file name under CODEX_HOME/sessions). */
  const rolloutOf = (threadId) => {
    const walk = (d) =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith(`-${threadId}.jsonl`) ? [join(d, e.name)] : [],
      );
    const found = walk(join(world.codexHome, 'sessions'));
    assert.equal(found.length, 1, `one rollout for ${threadId}: ${found.join(', ')}`);
    return found[0];
  };
  const compactedRecords = (threadId) => readJsonl(rolloutOf(threadId)).filter((r) => r.type === 'compacted');
  /** The newest figure the client's own rollout records: its last token_count event. */
  const rolloutFigure = (threadId) => {
    const t = readJsonl(rolloutOf(threadId)).filter((r) => r.type === 'event_msg' && r.payload?.type === 'token_count');
    const info = t.at(-1)?.payload?.info;
    assert.ok(info?.last_token_usage, 'the rollout records a token count');
    return { used: info.last_token_usage.total_tokens, window: info.model_context_window };
  };
  /** The stand-in's requests for a thread since index `from`, of a kind. */
  const sent = (threadId, from, kind) =>
    standin.requests.slice(from).filter((q) => q.sessionId === threadId && (!kind || q.kind === kind));

  // ------------------------------------------------------------------ untrusted hooks do not run
  if (want('trust')) {
    const ws = fixture('S3', 'trust');
    const server = await startAppServer(bin, { cwd: ws, env: world.env });
    try {
      await test('hooks install --codex says what Codex needs; until the user trusts them Codex lists both hooks as untrusted and runs neither', async () => {
        const r = await install(ws);
        assert.match(r.stdout, /Codex skips these hooks without a word until you trust them/);
        await server.call('config/batchWrite', {
          edits: [{ keyPath: 'projects', value: { [ws]: { trust_level: 'trusted' } }, mergeStrategy: 'upsert' }],
          reloadUserConfig: true,
        });
        const hooks = await hooksOf(server, ws);
        assert.deepEqual(
          hooks.map((h) => [h.eventName, h.trustStatus]),
          [
            ['preCompact', 'untrusted'],
            ['sessionStart', 'untrusted'],
          ],
        );
        const tid = await newThread(server, ws);
        const { notes } = await turn(server, tid, 'hello');
        assert.equal(hookRuns(notes, 'sessionStart').length, 0, 'no SessionStart hook ran');
        assert.equal(existsSync(sessionRecordPath(ws)), false, 'nothing recorded');
        // Trusted: the next thread runs it.
        await trust(server, ws);
        const tid2 = await newThread(server, ws);
        const second = await turn(server, tid2, 'hello again');
        assert.equal(hookRuns(second.notes, 'sessionStart').length, 1, 'the SessionStart hook ran once trusted');
        assert.equal(sessionRecord(ws).session_id, tid2);
      });
    } finally {
      await server.close();
    }
  }

  // ------------------------------------------------------------------ every system: the guard, the resume block, the meter
  const systems = async (sys) => {
    const ws = fixture(sys, `sys-${sys}`);
    const server = await startAppServer(bin, { cwd: ws, env: world.env });
    try {
      let tid;
      let ok =
        await test(`${sys}: hooks install --codex, trusted; the SessionStart hook records the real thread id and its rollout`, async () => {
          await install(ws);
          await trust(server, ws);
          tid = await newThread(server, ws);
          const { done, notes } = await turn(server, tid, 'hello');
          assert.equal(done.params.turn.status, 'completed');
          const runs = hookRuns(notes, 'sessionStart');
          assert.equal(runs.length, 1);
          assert.equal(runs[0].status, 'completed', JSON.stringify(runs[0]));
          const rec = sessionRecord(ws);
          assert.equal(rec.session_id, tid);
          assert.equal(rec.source, 'startup');
          assert.equal(rec.transcript_path, rolloutOf(tid));
        });
      if (!ok) return;
      await test(`${sys}: the meter (session-ledger context --json) equals the figure the client's rollout records and reports`, async () => {
        const fig = rolloutFigure(tid);
        const usage = server.notes
          .filter((n) => n.method === 'thread/tokenUsage/updated' && n.params.threadId === tid)
          .at(-1);
        assert.equal(
          usage.params.tokenUsage.last.totalTokens,
          fig.used,
          "the client's own notification agrees with its rollout",
        );
        assert.equal(usage.params.tokenUsage.modelContextWindow, fig.window);
        for (const args of [
          ['--transcript', rolloutOf(tid)],
          ['--agent', 'codex'],
        ]) {
          const r = await sl(ws, ['context', '--json', ...args]);
          assert.equal(r.code, 0, r.stderr);
          const j = JSON.parse(r.stdout);
          assert.equal(j.agent, 'codex', args.join(' '));
          assert.equal(j.sessionId, tid, args.join(' '));
          assert.equal(j.usedTokens, fig.used, `${args.join(' ')}: the tokens the rollout records`);
          assert.equal(j.windowTokens, fig.window, `${args.join(' ')}: the window the rollout records`);
        }
      });
      ok = await test(`${sys}: /compact without a checkpoint is stopped; Codex reports our reason`, async () => {
        const from = standin.requests.length;
        const { done, notes } = await compact(server, tid);
        const runs = hookRuns(notes, 'preCompact');
        assert.equal(runs.length, 1, 'the guard ran once');
        assert.equal(runs[0].status, 'stopped', JSON.stringify(runs[0]));
        const said = runs[0].entries.map((e) => e.text).join('\n');
        assert.match(
          said,
          new RegExp(`no checkpoint has run in this session \\(\\.claude/\\.checkpoint-ready\\.${tid} is missing\\)`),
        );
        assert.match(said, new RegExp(`checkpoint --session ${tid}`), 'it says what to run');
        assert.equal(done.params.turn.status, 'interrupted');
        assert.equal(compactions(notes).length, 0, 'no compaction item');
        assert.equal(sent(tid, from, 'compact').length, 0, 'no compaction request reached the model');
        assert.equal(compactedRecords(tid).length, 0, 'no compaction in the rollout');
      });
      if (!ok) return;
      ok = await test(`${sys}: after \`session-ledger checkpoint\` the same /compact goes through`, async () => {
        const c = await sl(ws, ['checkpoint', ...CONFIRM, '--session', tid]);
        assert.equal(c.code, 0, c.stdout + c.stderr);
        assert.ok(existsSync(join(ws, '.claude', `.checkpoint-ready.${tid}`)));
        const from = standin.requests.length;
        const { done, notes } = await compact(server, tid);
        const runs = hookRuns(notes, 'preCompact');
        assert.equal(runs.length, 1);
        assert.equal(runs[0].status, 'completed', JSON.stringify(runs[0]));
        assert.equal(done.params.turn.status, 'completed');
        assert.equal(compactions(notes).length, 1, 'one compaction item');
        assert.equal(sent(tid, from, 'compact').length, 1, 'the compaction request reached the model');
        assert.equal(compactedRecords(tid).length, 1, 'the rollout records the compaction');
        const m = await sl(ws, ['context', '--json', '--agent', 'codex']);
        assert.equal(m.code, 0, m.stderr);
        assert.equal(
          JSON.parse(m.stdout).compactions,
          1,
          'session-ledger context counts the compaction the rollout records',
        );
      });
      if (!ok) return;
      await test(`${sys}: after /compact the SessionStart resume block reaches the model in the next request`, async () => {
        const from = standin.requests.length;
        const { notes } = await turn(server, tid, 'What next?');
        assert.equal(hookRuns(notes, 'sessionStart').length, 1, 'SessionStart ran');
        assert.equal(sessionRecord(ws).source, 'compact', 'with source compact');
        const q = sent(tid, from, 'turn');
        assert.ok(q.length, 'a request of this thread');
        const text = q.at(-1).text;
        assert.ok(text.includes('Session Ledger — resuming after /compact'), 'the resume block');
        assert.ok(text.includes(`Read ${HOMES[sys]}`), `it names ${HOMES[sys]}`);
        assert.ok(text.includes('Next action: '), 'the next action');
        assert.ok(text.includes(`.checkpoint-ready.${tid}`), "this session's marker");
      });
    } finally {
      await server.close();
    }
  };

  if (want('systems')) for (const sys of Object.keys(HOMES)) await systems(sys);

  // ------------------------------------------------------------------ /clear
  if (want('clear')) {
    const ws = fixture('S3', 'clear');
    const server = await startAppServer(bin, { cwd: ws, env: world.env });
    let first;
    let tid;
    try {
      const ok = await test('/clear: the new thread it starts gets the resume block in its first request', async () => {
        await install(ws);
        await trust(server, ws);
        first = await newThread(server, ws);
        await turn(server, first, 'hello');
        const from = standin.requests.length;
        tid = await newThread(server, ws, 'clear');
        const { notes } = await turn(server, tid, 'Where were we?');
        assert.equal(hookRuns(notes, 'sessionStart').length, 1);
        assert.equal(sessionRecord(ws).source, 'clear');
        const text = sent(tid, from, 'turn').at(-1)?.text ?? '';
        assert.ok(text.includes('Session Ledger — resuming after /clear'), 'the resume block');
        assert.ok(text.includes(`Read ${HOMES.S3}`));
      });
      if (ok)
        await test('checkpoint without --session lists both threads of the folder, each with the first line its user typed (the app server writes no user_message event)', async () => {
          const r = await sl(ws, ['checkpoint', ...CONFIRM]);
          assert.equal(r.code, 1, r.stdout + r.stderr);
          assert.match(r.stderr, new RegExp(`${first} {2}Codex CLI, last write [^:\\n]*: "hello"`), r.stderr);
          assert.match(r.stderr, new RegExp(`${tid} {2}Codex CLI, last write [^:\\n]*: "Where were we\\?"`), r.stderr);
        });
    } finally {
      await server.close();
    }
  }

  // ------------------------------------------------------------------ automatic compaction
  if (want('auto')) {
    const ws = fixture('S3', 'auto');
    // The client's own auto-compaction limit, below what one stand-in turn reports: the next turn compacts first.
    const server = await startAppServer(bin, {
      cwd: ws,
      env: world.env,
      args: ['-c', 'model_auto_compact_token_limit=4000'],
    });
    try {
      await test('automatic compaction is never blocked: past the limit, no checkpoint, the client compacts (trigger auto) and the turn completes', async () => {
        await install(ws);
        await trust(server, ws);
        const tid = await newThread(server, ws);
        await turn(server, tid, 'hello');
        assert.equal(existsSync(join(ws, '.claude', `.checkpoint-ready.${tid}`)), false, 'no marker');
        const from = standin.requests.length;
        const { done, notes } = await turn(server, tid, 'go on');
        assert.equal(compactions(notes).length, 1, 'the client compacted on its own');
        assert.equal(hookRuns(notes, 'preCompact').length, 0, 'the guard is not asked about an automatic compaction');
        assert.equal(sent(tid, from, 'compact').length, 1, 'the compaction request reached the model');
        assert.equal(done.params.turn.status, 'completed');
        assert.ok(compactedRecords(tid).length >= 1, 'the rollout records it');
        const m = await sl(ws, ['context', '--json', '--agent', 'codex']);
        assert.equal(m.code, 0, m.stderr);
        assert.equal(
          JSON.parse(m.stdout).compactions,
          compactedRecords(tid).length,
          'session-ledger context counts it',
        );
        // And the thread comes back after it too.
        assert.ok(sent(tid, from, 'turn').at(-1).text.includes('Session Ledger — resuming after /compact'));
      });
    } finally {
      await server.close();
    }
  }

  // ------------------------------------------------------------------ the window exceeded
  if (want('full')) {
    const ws = fixture('S3', 'full');
    const server = await startAppServer(bin, { cwd: ws, env: world.env });
    try {
      await test('window exceeded: the model refuses the request (context_length_exceeded); the count Codex then writes (running total = window, last usage 0) reads 100 %, urgent', async () => {
        const tid = await newThread(server, ws);
        // Two turns of 140,012 tokens: a running total past the window, so Codex's last usage becomes 0.
        standin.setUsage({ input_tokens: 140_000 });
        await turn(server, tid, 'hello');
        await turn(server, tid, 'go on');
        standin.failTurns({
          type: 'invalid_request_error',
          code: 'context_length_exceeded',
          message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        });
        const { done } = await turn(server, tid, 'and more');
        assert.equal(done.params.turn.status, 'failed');
        assert.equal(done.params.turn.error?.codexErrorInfo, 'contextWindowExceeded');
        const t = readJsonl(rolloutOf(tid)).filter((r) => r.type === 'event_msg' && r.payload?.type === 'token_count');
        const info = t.at(-1).payload.info;
        assert.equal(info.total_token_usage.total_tokens, info.model_context_window, 'the running total is the window');
        assert.equal(info.total_token_usage.input_tokens, 0);
        assert.equal(info.last_token_usage.total_tokens, 0, 'the last usage Codex writes is 0');
        const r = await sl(ws, ['context', '--json', '--agent', 'codex']);
        assert.equal(r.code, 0, r.stderr);
        const j = JSON.parse(r.stdout);
        assert.equal(j.sessionId, tid);
        assert.equal(j.usedTokens, info.model_context_window);
        assert.equal(j.windowTokens, info.model_context_window);
        assert.equal(j.percent, 100);
        assert.equal(j.level, 'urgent');
      });
    } finally {
      standin.failTurns(null);
      standin.setUsage({});
      await server.close();
    }
  }

  // ------------------------------------------------------------------ the interactive screen
  if (want('screen')) {
    const ws = fixture('S3', 'screen');
    const server = await startAppServer(bin, { cwd: ws, env: world.env });
    let tui;
    try {
      await test('screen: the trust install asks for, given in the client\'s own screen; /compact typed there without a checkpoint shows "Hook stopped" with our reason; after checkpoint it compacts', async () => {
        await install(ws);
        // Its own server, not the shared background one (which would outlive the test).
        tui = startTui([bin, '--no-alt-screen', '--no-daemon'], { cwd: ws, env: world.env });
        // What install tells the user to do, as the screen asks it.
        await tui.waitFor('Trust this folder?', 90_000);
        await tui.waitFor('Trust and continue', 10_000);
        await tui.settle();
        let n = tui.screen().length;
        // A key that reaches the client while it still sets up its terminal can be lost (seen once in CI:
        // nothing changed on the screen and the trust was never saved). Enter is sent again only while the
        // client has not saved the folder's trust, so a key it did take is never pressed twice.
        for (let i = 0; ; i++) {
          tui.write('\r');
          try {
            await tui.waitFor('Hooks need review', 10_000, n);
            break;
          } catch (e) {
            if (folderTrusted(world, ws)) {
              await tui.waitFor('Hooks need review', 60_000, n);
              break;
            }
            if (i >= 3) throw e;
          }
        }
        await tui.waitFor('Trust all and continue', 10_000, n);
        n = tui.screen().length;
        tui.write('\x1b[B');
        await tui.waitFor(/› 2\. Trust all and continue/, 10_000, n);
        n = tui.screen().length;
        tui.write('\r');
        // The main view's footer names the model; the dialogs' footers do not.
        await tui.waitFor('gpt-5.1 default', 60_000, n);
        // The trust the screen saved, as the client itself reads it back.
        const trusted = async () =>
          (await hooksOf(server, ws)).map((h) => [h.eventName, h.trustStatus]).join() ===
          'preCompact,trusted,sessionStart,trusted';
        for (let i = 0; !(await trusted()); i++) {
          assert.ok(i < 50, `the screen trusted both hooks: ${JSON.stringify(await hooksOf(server, ws))}`);
          await new Promise((r) => setTimeout(r, 200));
        }
        await tui.type('hello from the screen');
        await tui.waitFor('Stand-in reply', 60_000);
        const tid = sessionRecord(ws).session_id;
        n = tui.screen().length;
        await tui.type('/compact');
        await tui.waitFor('Hook stopped', 60_000, n);
        await tui.waitFor(
          `no checkpoint has run in this session (.claude/.checkpoint-ready.${tid} is missing)`,
          10_000,
          n,
        );
        assert.equal(compactedRecords(tid).length, 0, 'no compaction in the rollout');
        const c = await sl(ws, ['checkpoint', ...CONFIRM, '--session', tid]);
        assert.equal(c.code, 0, c.stdout + c.stderr);
        n = tui.screen().length;
        await tui.type('/compact');
        await tui.waitFor('Context compacted', 60_000, n);
        assert.ok(!tui.screen().slice(n).includes('Hook stopped'), 'not stopped this time');
        assert.equal(compactedRecords(tid).length, 1, 'the rollout records the compaction');
      });
    } finally {
      await tui?.kill();
      await server.close();
    }
  }

  await standin.close();
  const failed = results.filter((r) => !r.ok).length;
  if (!keep && failed === 0) rmSync(run, { recursive: true, force: true });
  else log(`kept ${run}`);
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed || results.length === 0 ? 1 : 0;
}

main().catch((e) => {
  console.error(e?.stack || e);
  process.exitCode = 1;
});
