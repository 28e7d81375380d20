/**
 * A terminal shows its own session, by process: real processes, real /proc, the real SessionStart
 * hook. Each "terminal" is a real `sh` reading commands from its stdin, as an integrated terminal's
 * shell does; the "agent" a real Node process whose script is named `claude.mjs` / `codex.mjs` (as
 * the clients' npm packages run), which holds its transcript open and runs the built CLI's
 * SessionStart hook through `sh -c`, as the clients run hook commands. Both terminals carry the same
 * name: only processes tell them apart.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readSessionRecordFor } from '../../src/core/hooks/session-record';
import { agentOfProcess, descendantsOf, firstAgent, sessionsRunBy } from '../../src/extension/process-tree';
import {
  chooseShownSession,
  runsInTerminal,
  type ActiveTerminal,
  type LiveSession,
} from '../../src/extension/pure/session-pick';
import { CLI, workspace } from './helpers';
import { S3_STATE } from './checkpoint-fixtures';

const LINUX = process.platform === 'linux';
const SID_A = '1a2b3c4d-0000-4000-8000-00000000000a';
const SID_B = '1a2b3c4d-0000-4000-8000-00000000000b';
const SID_C = '1a2b3c4d-0000-4000-8000-00000000000c';

/** The stand-in agent: holds its transcript open, runs the SessionStart hook as a shell command, then waits. */
const AGENT = `
import { spawn } from 'node:child_process';
import { openSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
const [sid, transcript, root, cli] = process.argv.slice(2);
mkdirSync(dirname(transcript), { recursive: true });
const fd = openSync(transcript, 'a');
const payload = JSON.stringify({ hook_event_name: 'SessionStart', session_id: sid, transcript_path: transcript, source: 'startup', cwd: root });
const h = spawn('/bin/sh', ['-c', '"' + process.execPath + '" "' + cli + '" hook session-start'], { cwd: root, stdio: ['pipe', 'ignore', 'inherit'] });
h.stdin.end(payload);
h.on('exit', (code) => process.stdout.write('hooked ' + code + ' ' + process.pid + ' ' + fd + '\\n'));
setInterval(() => {}, 1000);
`;

const procs: ChildProcess[] = [];
// Each shell leads its own process group: the agents and the sleep under it end with it.
after(() => {
  for (const p of procs) {
    try {
      process.kill(-(p.pid as number), 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

/** A terminal's shell: `sh` reading commands from its stdin. */
function shell(root: string): ChildProcess & { out: () => string } {
  // The clients name the project to their hooks in CLAUDE_PROJECT_DIR.
  // Its stderr is kept, not shown: the shell reports the agent this test kills ("Killed").
  const sh = spawn('/bin/sh', [], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, CLAUDE_PROJECT_DIR: root },
    detached: true,
  });
  procs.push(sh);
  let text = '';
  sh.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  sh.stderr?.on('data', () => undefined);
  return Object.assign(sh, { out: () => text });
}

async function until<T>(
  what: string,
  f: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Start the agent in a terminal, as its user types it; resolves with the agent's pid once its hook ran. */
async function startAgent(
  sh: ReturnType<typeof shell>,
  bin: string,
  sid: string,
  transcript: string,
  root: string,
): Promise<number> {
  sh.stdin?.write(`"${process.execPath}" "${bin}" ${sid} "${transcript}" "${root}" "${CLI}"\n`);
  const m = await until('the SessionStart hook', () => /hooked (\d+) (\d+)/.exec(sh.out()));
  assert.equal(m[1], '0', 'the hook exits 0');
  return Number(m[2]);
}

test(
  'two terminals of one name, each running an agent: each shows its own session, told by process',
  { skip: !LINUX && 'Linux /proc only' },
  async () => {
    const root = workspace({ 'docs/state/STATE.md': S3_STATE });
    const bin = path.join(workspace({}, 'sl-agents-'), 'agents');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'claude.mjs'), AGENT);
    writeFileSync(path.join(bin, 'codex.mjs'), AGENT);
    const home = workspace({}, 'sl-home-');
    const tA = path.join(home, 'a', `${SID_A}.jsonl`);
    const tB = path.join(home, 'b', `${SID_B}.jsonl`);
    const tC = path.join(home, 'c', `${SID_C}.jsonl`);

    const shA = shell(root);
    const shB = shell(root);
    const shC = shell(root); // a terminal with no agent
    const shD = shell(root); // a terminal whose Codex agent runs, then ends
    const agentA = await startAgent(shA, path.join(bin, 'claude.mjs'), SID_A, tA, root);
    const agentB = await startAgent(shB, path.join(bin, 'claude.mjs'), SID_B, tB, root);
    const agentC = await startAgent(shD, path.join(bin, 'codex.mjs'), SID_C, tC, root);
    shC.stdin?.write('sleep 60\n');

    // The processes under each shell, from /proc: the agent under its own shell only.
    const below = async (sh: ChildProcess) => (await descendantsOf(sh.pid as number)) as number[];
    const [dA, dB] = [await below(shA), await below(shB)];
    assert.ok(dA.includes(agentA) && !dA.includes(agentB), `A: ${dA}`);
    assert.ok(dB.includes(agentB) && !dB.includes(agentA), `B: ${dB}`);
    // Read through every /proc/<pid>/stat (a kernel without children lists): the same processes.
    assert.deepEqual(new Set((await descendantsOf(shA.pid as number, { byStat: true })) ?? []), new Set(dA));
    assert.equal((await descendantsOf(shA.pid as number, { limit: 1 }))?.length, 1, 'at most `limit` processes');
    assert.deepEqual(await descendantsOf(2 ** 22 + 1), [], 'a process that is gone has none');
    assert.equal((await firstAgent(dA))?.agent, 'claude');
    assert.equal((await firstAgent(await below(shD)))?.agent, 'codex');
    assert.equal(await agentOfProcess(shA.pid as number), undefined, 'the shell is no agent');

    // The hook recorded its parent chain: the agent that ran it, and the terminal's shell.
    const rec = async (sid: string) => (await readSessionRecordFor(root, sid))?.pids ?? [];
    const [pA, pB, pC] = [await rec(SID_A), await rec(SID_B), await rec(SID_C)];
    assert.ok(pA.includes(agentA) && pA.includes(shA.pid as number), `record A: ${pA}`);
    assert.ok(pB.includes(agentB) && pB.includes(shB.pid as number), `record B: ${pB}`);

    const now = Date.now();
    // B wrote last: the newest.
    const sessions: LiveSession[] = [
      { agent: 'claude', sessionId: SID_A, transcriptPath: tA, lastWrite: now - 120_000, pids: pA },
      { agent: 'claude', sessionId: SID_B, transcriptPath: tB, lastWrite: now - 1_000, pids: pB },
      { agent: 'codex', sessionId: SID_C, transcriptPath: tC, lastWrite: now - 60_000, pids: pC },
    ];
    const term = async (sh: ChildProcess): Promise<ActiveTerminal> => ({
      name: 'sh',
      shell: sh.pid as number,
      below: await below(sh),
    });
    const onA = chooseShownSession(sessions, { ...(await term(shA)), agent: 'claude' }, now)!;
    assert.equal(onA.shown.sessionId, SID_A, 'terminal A shows its own (older) session');
    assert.equal(onA.by, 'process');
    assert.deepEqual(
      onA.others.map((s) => s.sessionId),
      [SID_B, SID_C],
    );
    const onB = chooseShownSession(sessions, { ...(await term(shB)), agent: 'claude' }, now)!;
    assert.equal(onB.shown.sessionId, SID_B);
    assert.equal(onB.by, 'process');
    const onD = chooseShownSession(sessions, { ...(await term(shD)), agent: 'codex' }, now)!;
    assert.equal(onD.shown.sessionId, SID_C, 'the Codex session in its terminal');
    assert.equal(onD.by, 'process');
    const onC = chooseShownSession(sessions, await term(shC), now)!;
    assert.equal(onC.shown.sessionId, SID_B, 'a terminal with no agent: the newest session');
    assert.equal(onC.by, 'newest');

    // An agent process holding the transcript open says which session it runs (no record needed).
    const files = [
      { sessionId: SID_A, transcriptPath: tA },
      { sessionId: SID_B, transcriptPath: tB },
      { sessionId: SID_C, transcriptPath: tC },
    ];
    assert.deepEqual(await sessionsRunBy(dA, files), [SID_A]);
    assert.deepEqual(await sessionsRunBy(await below(shC), files), []);
    const unrecorded = sessions.map((s) => ({ ...s, pids: [] }));
    const byFd = chooseShownSession(unrecorded, { ...(await term(shA)), runs: [SID_A] }, now)!;
    assert.equal(byFd.shown.sessionId, SID_A);

    // The Codex agent ends: its terminal's shell is still in the record, but nothing runs there now.
    process.kill(agentC, 'SIGKILL');
    const gone = await until('the agent gone from /proc', async () => !(await below(shD)).includes(agentC));
    assert.ok(gone);
    const dD = await term(shD);
    assert.equal(runsInTerminal(sessions[2], dD), false, 'an ended session is not the terminal’s');
    const afterEnd = chooseShownSession(sessions, dD, now)!;
    assert.equal(afterEnd.by, 'newest');
    assert.equal(afterEnd.shown.sessionId, SID_B);

    // Where processes cannot be read (no /proc): a recorded chain holding the shell still tells it.
    assert.equal(runsInTerminal(sessions[0], { shell: shA.pid as number, below: null }), true);
    assert.equal(runsInTerminal(sessions[0], { shell: shB.pid as number, below: null }), false);
  },
);
