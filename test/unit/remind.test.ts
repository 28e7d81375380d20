import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import {
  bandOf,
  compareBands,
  remind,
  REMIND_DIR_REL,
  suggestionLine,
  type RemindInput,
} from '../../src/core/hooks/remind';
import { applyHooksPlan, planHooksInstall, SCRIPT_REL } from '../../src/core/hooks/install';
import { FACTS } from '../../src/core/systems/facts';
import { SYSTEM_IDS } from '../../src/core/model/model';
import { formatMarker } from '../../src/core/checkpoint/marker';
import { checkpointDone } from '../../src/core/hooks/guard';
import { lockPath } from '../../src/core/files/lock';
import { HOOK_SCRIPT, loadedModules, moduleRecorder, workspace, write } from './helpers';
import { HOOK_CORE_MARKER } from '../../src/core/hooks/files';
import { emptyClaudeHome, run, S0_CONFIG, S0_LEDGER, S3_STATE, SID } from './checkpoint-fixtures';

// ------------------------------------------------------------------ the bands, at their edges

test("bands at each system's marks: at the mark is past it, one below is not, one above is", () => {
  for (const id of SYSTEM_IDS) {
    const { propose, urgent } = FACTS[id].thresholds;
    assert.equal(bandOf(id, propose), 1, `${id} at ${propose}`);
    assert.equal(bandOf(id, propose - 1), 0, `${id} at ${propose - 1}`);
    assert.equal(bandOf(id, propose - 0.001), 0, `${id} just below ${propose}`);
    assert.equal(bandOf(id, propose + 1), 1, `${id} at ${propose + 1}`);
    if (urgent === null) {
      assert.equal(bandOf(id, 100), 1, `${id} names one cue: never urgent`);
      continue;
    }
    assert.equal(bandOf(id, urgent), 2, `${id} at ${urgent}`);
    assert.equal(bandOf(id, urgent - 1), 1, `${id} at ${urgent - 1}`);
    assert.equal(bandOf(id, urgent + 1), 2, `${id} at ${urgent + 1}`);
  }
  // The seeds' own figures: S3 15 / 40, S0 70 / 85, S2 one cue at 50.
  assert.deepEqual(
    [bandOf('S3', 14), bandOf('S3', 15), bandOf('S3', 16), bandOf('S3', 39), bandOf('S3', 40), bandOf('S3', 41)],
    [0, 1, 1, 1, 2, 2],
  );
  assert.deepEqual(
    [bandOf('S0', 69), bandOf('S0', 70), bandOf('S0', 71), bandOf('S0', 84), bandOf('S0', 85), bandOf('S0', 86)],
    [0, 1, 1, 1, 2, 2],
  );
  assert.deepEqual([bandOf('S2', 49), bandOf('S2', 50), bandOf('S2', 99)], [0, 1, 1]);
  assert.equal(bandOf('S3', null), 0);
});

test('once per band: a band that rose is suggested, the same band is not, a band reached again after falling back is', () => {
  assert.deepEqual(compareBands({ S3: 0 }, {}), { rose: [], record: { S3: 0 }, changed: false });
  assert.deepEqual(compareBands({ S3: 1 }, {}), { rose: ['S3'], record: { S3: 1 }, changed: true });
  assert.deepEqual(compareBands({ S3: 1 }, { S3: 1 }), { rose: [], record: { S3: 1 }, changed: false });
  assert.deepEqual(compareBands({ S3: 2 }, { S3: 1 }), { rose: ['S3'], record: { S3: 2 }, changed: true });
  assert.deepEqual(compareBands({ S3: 2 }, { S3: 2 }), { rose: [], record: { S3: 2 }, changed: false });
  // Fell back (a compaction): the lower band is recorded, so the next crossing counts again.
  assert.deepEqual(compareBands({ S3: 0 }, { S3: 2 }), { rose: [], record: { S3: 0 }, changed: true });
  assert.deepEqual(compareBands({ S3: 1 }, { S3: 0 }), { rose: ['S3'], record: { S3: 1 }, changed: true });
  // Right after a compaction nothing recorded counts.
  assert.deepEqual(compareBands({ S3: 1 }, { S3: 1 }, true).rose, ['S3']);
  // Each system on its own marks.
  assert.deepEqual(compareBands({ S0: 0, S3: 2 }, { S0: 0, S3: 1 }).rose, ['S3']);
});

test('the suggestion says which system, which mark and what to run, in one line', () => {
  const s3 = suggestionLine('S3', 1, 15.04);
  assert.equal(
    s3,
    'Session Ledger: context is at 15%, past the 15% mark of S3 Groundwork: propose a checkpoint to the user. To run: /checkpoint',
  );
  assert.match(
    suggestionLine('S3', 2, 41.27),
    /at 41\.2%, past the 40% mark of S3 Groundwork: checkpoint now.*To run: \/checkpoint$/,
  );
  assert.match(
    suggestionLine('S0', 2, 90),
    /past the 85% mark of S0 majestic ledger: .*To run: Apply the session-checkpoint skill$/,
  );
  for (const id of SYSTEM_IDS) assert.ok(!suggestionLine(id, 2, 99).includes('\n'));
  // S1 and S4 name no context figure of their own: the mark is said as Session Ledger's own, not theirs.
  assert.match(
    suggestionLine('S4', 1, 51),
    /past the 50% mark Session Ledger uses for S4 checkpointing \(it names no mark of its own\)/,
  );
  assert.match(suggestionLine('S1', 2, 81), /past the 80% mark Session Ledger uses for S1 /);
  assert.doesNotMatch(suggestionLine('S4', 1, 51), /mark of S4/);
});

// ------------------------------------------------------------------ over real files

/** A Claude Code transcript record, dated `at`, whose last assistant record used `tokens` of claude-sonnet-4-5's 200,000. */
function usageLine(tokens: number, at = new Date(), sid = SID): string {
  return `${JSON.stringify({ isSidechain: false, type: 'assistant', sessionId: sid, message: { model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: tokens } }, timestamp: at.toISOString() })}\n`;
}

/**
 * A workspace of `files` and a transcript; `at(pct)` appends a turn at that percentage and runs the reminder
 * (`later` ms from now: the turn is dated then, and the reminder decides then).
 */
function session(files: Record<string, string>) {
  const root = workspace(files);
  const transcript = path.join(workspace({}, 'sl-claude-'), `${SID}.jsonl`);
  writeFileSync(transcript, '');
  const input: RemindInput = {
    root,
    sessionId: SID,
    transcript,
    agent: 'claude',
    env: { CLAUDE_CONFIG_DIR: emptyClaudeHome() },
    checkpointDone,
  };
  const at = async (pct: number, later = 0) => {
    appendFileSync(transcript, usageLine(Math.round(pct * 2000), new Date(Date.now() + later)));
    return (await remind(later ? { ...input, now: Date.now() + later } : input)).text;
  };
  return { root, transcript, input, at };
}

/** A checkpoint of SID's made now: its marker written, the state file `stateRel` written a minute before it. The marker's path. */
function checkpointedNow(root: string, stateRel: string): string {
  const marker = write(
    root,
    `.claude/.checkpoint-ready.${SID}`,
    formatMarker({ sessionId: SID, at: new Date().toISOString(), label: 'WORKING' }),
  );
  const before = new Date(Date.now() - 60_000);
  utimesSync(path.join(root, stateRel), before, before);
  return marker;
}

test('S3: silent below 15 %, once at 15 %, once at 40 %, again after the context fell back and crossed again', async () => {
  const s = session({ 'docs/state/STATE.md': S3_STATE });
  assert.equal(await s.at(5), null);
  assert.equal(await s.at(14.9), null, 'below the mark');
  assert.equal(await s.at(14.9995), null, 'one token below the mark (the meter rounds it to 15.00 %)');
  assert.match((await s.at(15)) ?? '', /past the 15% mark of S3/);
  assert.equal(await s.at(15), null, 'the same band again');
  assert.equal(await s.at(39), null);
  assert.match((await s.at(40)) ?? '', /past the 40% mark of S3/);
  assert.equal(await s.at(60), null);
  // A compaction: the context falls back, then grows past the mark again.
  assert.equal(await s.at(3), null);
  assert.match((await s.at(16)) ?? '', /past the 15% mark of S3/);
  const rec = JSON.parse(readFileSync(path.join(s.root, REMIND_DIR_REL, `${SID}.json`), 'utf8'));
  assert.deepEqual(rec.bands, { S3: 1 });
  // Its own record is all it wrote: the state file is untouched, nothing else appeared under .claude/.
  assert.equal(readFileSync(path.join(s.root, 'docs/state/STATE.md'), 'utf8'), S3_STATE);
  assert.deepEqual(readdirSync(path.join(s.root, '.claude')), ['session-ledger']);
  assert.deepEqual(readdirSync(path.join(s.root, '.claude/session-ledger')), ['remind']);
});

test('right after a compaction (the compact boundary is the newest figure) a band already past counts again', async () => {
  const s = session({ 'docs/state/STATE.md': S3_STATE });
  assert.match((await s.at(20)) ?? '', /15% mark/);
  appendFileSync(
    s.transcript,
    `${JSON.stringify({ type: 'system', subtype: 'compact_boundary', sessionId: SID, timestamp: new Date().toISOString(), compactMetadata: { trigger: 'manual', preTokens: 40000, postTokens: 34000 } })}\n`,
  );
  assert.match((await remind(s.input)).text ?? '', /at 17%, past the 15% mark of S3/);
  assert.equal((await remind(s.input)).text, null, 'once');
});

test('silent when nothing is detected, and without a session id or a figure', async () => {
  const s = session({ 'README.md': '# a project\n' });
  assert.equal(await s.at(90), null);
  assert.equal(existsSync(path.join(s.root, '.claude')), false, 'nothing written');
  const t = session({ 'docs/state/STATE.md': S3_STATE });
  assert.equal((await remind({ ...t.input, sessionId: null })).text, null);
  assert.equal((await remind(t.input)).text, null, 'an empty transcript gives no figure');
});

test("a checkpoint that covers the session when a band is reached (the guard's decision: done, or nothing-to-preserve) keeps it silent; a band reached in a turn after the marker, work past the marker's window, another session's marker or no marker do not", async () => {
  const s = session({ 'docs/state/STATE.md': S3_STATE });
  const marker = checkpointedNow(s.root, 'docs/state/STATE.md');
  const state = path.join(s.root, 'docs/state/STATE.md');
  const past = (ms: number) => new Date(Date.now() - ms);
  assert.equal(await s.at(20), null, 'the checkpoint covers the state');
  // The state changed after the checkpoint, and the next band is reached in a turn well after it: a checkpoint is due again.
  utimesSync(marker, past(600_000), past(600_000));
  utimesSync(state, past(0), past(0));
  assert.match((await s.at(40)) ?? '', /40% mark/);
  // Reached past the marker's window with nothing written since: the guard still lets /compact through
  // (idle), and the checkpoint covers the band.
  const idle = (s2: ReturnType<typeof session>) => ({
    ...s2.input,
    env: { ...s2.input.env, SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: '0' },
    now: Date.now() + 60_000,
  });
  const fresh = () => {
    const f = session({ 'docs/state/STATE.md': S3_STATE });
    checkpointedNow(f.root, 'docs/state/STATE.md');
    appendFileSync(f.transcript, usageLine(45 * 2000));
    return f;
  };
  const covered = fresh();
  assert.equal((await remind(idle(covered))).text, null);
  // Work after the marker past its window: the guard stops /compact (stale), and the suggestion comes.
  const stale = fresh();
  const ahead = new Date(Date.now() + 60_000);
  utimesSync(path.join(stale.root, 'docs/state/STATE.md'), ahead, ahead);
  assert.match((await remind(idle(stale))).text ?? '', /40% mark/);
  // Another session's marker speaks not for this one; nothing-to-preserve does.
  const t = session({ 'docs/state/STATE.md': S3_STATE });
  write(
    t.root,
    '.claude/.checkpoint-ready',
    formatMarker({ sessionId: 'c9d8e7f6-a5b4-4c3d-8e2f-1a0b9c8d7e6f', at: new Date().toISOString(), label: 'WORKING' }),
  );
  utimesSync(path.join(t.root, 'docs/state/STATE.md'), past(60_000), past(60_000));
  assert.match((await t.at(20)) ?? '', /15% mark/);
  const u = session({ 'docs/state/STATE.md': S3_STATE });
  write(u.root, `.claude/.checkpoint-ready.${SID}`, 'nothing-to-preserve\n');
  assert.equal(await u.at(50), null);
});

test('a band the checkpoint covers when it is reached is handled: a turn ten minutes later in that band says nothing, the next band is suggested; one record per session, never written through a link', async () => {
  const s = session({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER });
  assert.equal(await s.at(60), null);
  // The checkpoint at 72 %: its marker written, the ledger before it; the prompt after it says nothing.
  checkpointedNow(s.root, '.agents/session_ledger.md');
  assert.equal(await s.at(72), null, 'the checkpoint covers 72 %');
  const record = path.join(s.root, REMIND_DIR_REL, `${SID}.json`);
  assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')).bands, { S0: 1 }, 'the band is recorded as handled');
  // Ten minutes later, further into the same band: no new reason for a checkpoint.
  assert.equal(await s.at(73, 600_000), null, 'no suggestion at 73 % ten minutes after the checkpoint');
  assert.equal(await s.at(84, 900_000), null);
  // The next band, reached in a later turn than the checkpoint's: suggested once.
  assert.match((await s.at(86, 1_200_000)) ?? '', /past the 85% mark of S0/);
  assert.equal(await s.at(90, 1_300_000), null);
  assert.deepEqual(readdirSync(path.join(s.root, REMIND_DIR_REL)), [`${SID}.json`], 'one record for the session');
  // A record that is a link a repository planted: nothing is written through it; the reminder says nothing.
  const t = session({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER, 'docs/other.md': 'x\n' });
  checkpointedNow(t.root, '.agents/session_ledger.md');
  mkdirSync(path.join(t.root, REMIND_DIR_REL), { recursive: true });
  symlinkSync(path.join(t.root, 'docs/other.md'), path.join(t.root, REMIND_DIR_REL, `${SID}.json`));
  assert.equal(await t.at(72), null);
  assert.equal(await t.at(73, 600_000), null);
  assert.equal(readFileSync(path.join(t.root, 'docs/other.md'), 'utf8'), 'x\n');
});

test('S0: silent below 70 %, once at 70 % and 85 % with its own trigger; silent when .agents.yml switches it off', async () => {
  const s = session({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER });
  assert.equal(await s.at(69), null);
  assert.match((await s.at(70)) ?? '', /past the 70% mark of S0 .*To run: Apply the session-checkpoint skill/);
  assert.equal(await s.at(71), null);
  assert.match((await s.at(85)) ?? '', /past the 85% mark of S0/);
  const off = session({ '.agents.yml': 'session:\n  ledger: false\n', '.agents/session_ledger.md': S0_LEDGER });
  assert.equal(await off.at(90), null);
});

test('the record is never written through a link a repository planted: then the reminder says nothing', async () => {
  const s = session({ 'docs/state/STATE.md': S3_STATE });
  const elsewhere = workspace({}, 'sl-elsewhere-');
  mkdirSync(path.join(s.root, '.claude'), { recursive: true });
  symlinkSync(elsewhere, path.join(s.root, '.claude/session-ledger'));
  assert.equal(await s.at(50), null);
  assert.deepEqual(readdirSync(elsewhere), []);
  // A link inside the workspace is refused as well.
  const t = session({ 'docs/state/STATE.md': S3_STATE, 'docs/other.md': 'x\n' });
  mkdirSync(path.join(t.root, '.claude/session-ledger/remind'), { recursive: true });
  symlinkSync(path.join(t.root, 'docs/other.md'), path.join(t.root, '.claude/session-ledger/remind', `${SID}.json`));
  assert.equal(await t.at(50), null);
  assert.equal(readFileSync(path.join(t.root, 'docs/other.md'), 'utf8'), 'x\n');
});

// ------------------------------------------------------------------ the installed hook, as Claude Code runs it

test("`hook remind` in the installed script: Claude Code's additionalContext JSON once, exit 0, without loading the rest of the CLI", async () => {
  const s = session({ 'docs/state/STATE.md': S3_STATE, '.claude/settings.json': '{}' });
  const recorder = moduleRecorder();
  const env = {
    PATH: process.env.PATH,
    HOME: workspace({}, 'sl-home-'),
    TMPDIR: workspace({}, 'sl-tmp-'),
    CLAUDE_CONFIG_DIR: emptyClaudeHome(),
    CLAUDE_PROJECT_DIR: s.root,
  };
  const input = JSON.stringify({
    session_id: SID,
    transcript_path: s.transcript,
    cwd: s.root,
    hook_event_name: 'UserPromptSubmit',
    prompt: 'go on',
  });
  // The hook script without its core (the rest of the CLI): the reminder needs none of it.
  const full = readFileSync(HOOK_SCRIPT, 'utf8');
  const coreless = write(
    workspace({}, 'sl-coreless-'),
    'session-ledger.cjs',
    full.slice(0, full.indexOf(`\n${HOOK_CORE_MARKER}\n`) + 1),
  );
  const hook = () =>
    spawnSync(process.execPath, ['--require', recorder, coreless, 'hook', 'remind'], {
      cwd: s.root,
      env,
      input,
      encoding: 'utf8',
    });
  appendFileSync(s.transcript, usageLine(20_000));
  let r = hook();
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
  appendFileSync(s.transcript, usageLine(32_000));
  r = hook();
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.hookSpecificOutput.hookEventName, 'UserPromptSubmit');
  assert.match(
    out.hookSpecificOutput.additionalContext,
    /^Session Ledger: context is at 16%, past the 15% mark of S3 .*To run: \/checkpoint$/,
  );
  assert.equal(out.decision, undefined, 'never blocks');
  // Nothing is unpacked or spawned.
  const { required } = loadedModules(r.stderr);
  for (const m of ['zlib', 'child_process']) assert.ok(!required.includes(m), `${m} loaded: ${required.join(' ')}`);
  r = hook();
  assert.equal(r.stdout, '', 'once per band');
  // Nothing but its own record: not even the hook log.
  assert.deepEqual(readdirSync(path.join(s.root, '.claude')).sort(), ['session-ledger', 'settings.json']);
  const why = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'remind'], {
    cwd: s.root,
    env: { ...env, SESSION_LEDGER_REMIND_DEBUG: '1' },
    input,
    encoding: 'utf8',
  });
  assert.match(why.stderr, /silent \(16%: no band crossed\)/);
  // Bad stdin says nothing and exits 0.
  const bad = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'remind'], {
    cwd: s.root,
    env,
    input: 'not json',
    encoding: 'utf8',
  });
  assert.equal(bad.status, 0);
  assert.equal(bad.stdout, '');
});

test('an .agents.yml only the YAML reader can answer for: the hook script hands stdin over to the whole CLI', () => {
  const root = workspace({
    '.agents.yml': 'session: &s\n  ledger: true\nother: *s\n',
    '.agents/session_ledger.md': S0_LEDGER,
  });
  const { env, input } = hookPrompt(root, 75);
  const r = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'remind'], { cwd: root, env, input, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, /past the 70% mark of S0/);
});

// ------------------------------------------------------------------ install and uninstall

const SETTINGS = `{
  // mine
  "hooks": {
    "UserPromptSubmit": [ { "hooks": [ { "type": "command", "command": "echo my-own-prompt-hook" } ] } ]
  },
  "model": "opus"
}
`;

test("`hooks install --remind` adds the UserPromptSubmit hook beside the user's; uninstall gives back the exact bytes", async () => {
  const dir = workspace({ '.claude/settings.json': SETTINGS });
  const file = path.join(dir, '.claude/settings.json');
  const r = run(['hooks', 'install', '--remind', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /hooks\.UserPromptSubmit \(the reminder\)/);
  const after = readFileSync(file, 'utf8');
  assert.ok(after.includes('echo my-own-prompt-hook'));
  assert.ok(after.includes('session-ledger.cjs\\" hook remind'));
  assert.ok(after.includes('// mine'));
  // Twice: nothing to do; without --remind an installed reminder stays.
  assert.equal((await planHooksInstall(dir, { remind: true, cliBundle: HOOK_SCRIPT })).changed, false);
  assert.equal((await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT })).changed, false);
  const u = run(['hooks', 'uninstall', '--root', dir]);
  assert.equal(u.code, 0, u.stderr);
  assert.equal(readFileSync(file, 'utf8'), SETTINGS);
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false);
  assert.equal(run(['hooks', 'uninstall', '--remind', '--root', dir]).code, 2, '--remind is for install');
});

test('without --remind no reminder is installed; a settings file install --remind created goes away on uninstall', async () => {
  const plain = workspace();
  await applyHooksPlan(await planHooksInstall(plain, { cliBundle: HOOK_SCRIPT }));
  assert.ok(!readFileSync(path.join(plain, '.claude/settings.json'), 'utf8').includes('UserPromptSubmit'));
  const dir = workspace();
  await applyHooksPlan(await planHooksInstall(dir, { remind: true, statusline: true, cliBundle: HOOK_SCRIPT }));
  assert.ok(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8').includes('"UserPromptSubmit"'));
  assert.equal(run(['hooks', 'uninstall', '--root', dir]).code, 0);
  assert.equal(existsSync(path.join(dir, '.claude')), false);
});

/**
 * The hook's environment and stdin, as Claude Code runs `hook remind` in `root`, for session `sid` whose
 * transcript's last turn is at `pct` % (a transcript of its own); `extra` is added to the environment.
 */
function hookPrompt(root: string, pct: number, sid = SID, extra: NodeJS.ProcessEnv = {}) {
  const transcript = path.join(workspace({}, 'sl-claude-'), `${sid}.jsonl`);
  writeFileSync(transcript, usageLine(pct * 2000, new Date(), sid));
  const env = {
    PATH: process.env.PATH,
    HOME: workspace({}, 'sl-home-'),
    TMPDIR: workspace({}, 'sl-tmp-'),
    CLAUDE_CONFIG_DIR: emptyClaudeHome(),
    CLAUDE_PROJECT_DIR: root,
    ...extra,
  };
  const input = JSON.stringify({
    session_id: sid,
    transcript_path: transcript,
    cwd: root,
    hook_event_name: 'UserPromptSubmit',
    prompt: 'go on',
  });
  return { env, input };
}

// ------------------------------------------------------------------ two prompts of one session at once

/** The hook's command line, environment and stdin for session `sid` at `pct` % in `root`, its log on stderr. */
function prompt(root: string, sid: string, pct: number) {
  return {
    args: [HOOK_SCRIPT, 'hook', 'remind'],
    cwd: root,
    ...hookPrompt(root, pct, sid, { SESSION_LEDGER_REMIND_DEBUG: '1' }),
  };
}

/** The suggestion in a hook's output, or null when it said nothing. */
function said(stdout: string): string | null {
  return stdout ? (JSON.parse(stdout).hookSpecificOutput.additionalContext as string) : null;
}

function runHook(p: ReturnType<typeof prompt>) {
  const r = spawnSync(process.execPath, p.args, { cwd: p.cwd, env: p.env, input: p.input, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return { said: said(r.stdout), stderr: r.stderr };
}

test("a prompt that runs while another run holds the session's reminder record says nothing and exits 0 at once; the band is said once", () => {
  const root = workspace({ 'docs/state/STATE.md': S3_STATE, '.claude/settings.json': '{}' });
  const p = prompt(root, SID, 20);
  // Another run of the reminder (a live process: this one) is between its read of the record and its write.
  const record = path.join(root, REMIND_DIR_REL, `${SID}.json`);
  const lock = lockPath(record);
  mkdirSync(path.dirname(lock), { recursive: true });
  writeFileSync(lock, `${process.pid} ${new Date().toISOString()}\n`);
  const started = Date.now();
  const second = runHook(p);
  assert.equal(second.said, null, 'the run holding the record decides the band');
  assert.match(second.stderr, /another run of the reminder is deciding for this session/);
  assert.ok(Date.now() - started < 10_000, 'it never waits for the lock');
  assert.equal(readFileSync(lock, 'utf8').split(' ')[0], String(process.pid), "the other run's lock is left as it is");
  assert.ok(!existsSync(record), 'nothing recorded under the lock of another run');
  // That run is done: the band is said once, by the next prompt, then never again in the band.
  rmSync(lock);
  assert.match(runHook(p).said ?? '', /past the 15% mark of S3/);
  assert.equal(runHook(p).said, null);
  assert.ok(!existsSync(lock), 'the lock goes with its run');
});

test('two prompts of one session at once (two real hook processes): the band is said exactly once', async () => {
  const root = workspace({ 'docs/state/STATE.md': S3_STATE, '.claude/settings.json': '{}' });
  for (let i = 0; i < 4; i++) {
    const sid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const p = prompt(root, sid, 20);
    const once = () =>
      new Promise<string | null>((resolve, reject) => {
        const c = spawn(process.execPath, p.args, { cwd: p.cwd, env: p.env });
        let out = '';
        c.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
        c.on('error', reject);
        c.on('close', (code) => (code === 0 ? resolve(said(out)) : reject(new Error(`exit ${code}`))));
        c.stdin.end(p.input);
      });
    const both = await Promise.all([once(), once()]);
    assert.equal(both.filter((s) => s !== null).length, 1, `session ${i}: ${JSON.stringify(both)}`);
    assert.equal(runHook(p).said, null, `session ${i}: the band is recorded`);
  }
});
