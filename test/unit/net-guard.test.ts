/**
 * The PreCompact guard's decision, in process: which marker speaks for the session (its own, the
 * shared one signed by it or by nobody, never one signed by another session), the opt-out, the
 * skeleton, and what the block reason tells the user to run. guard.test.ts runs the built CLI as
 * Claude Code does; these call the core's decision directly, so a one-line change to it fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { workspace, write, copyDemo } from './helpers';
import { OTHER_SID, preCompact, S2_SKELETON, S3_STATE, SID } from './checkpoint-fixtures';

const MIN = 60_000;
const OWN = `.claude/.checkpoint-ready.${SID}`;
const SHARED = '.claude/.checkpoint-ready';

/** A workspace whose files have the given ages (minutes after `t0`); returns `t0`. */
function setAt(dir: string, t0: number, files: Record<string, number>): void {
  for (const [rel, min] of Object.entries(files)) {
    const t = (t0 + min * MIN) / 1000;
    utimesSync(path.join(dir, rel), t, t);
  }
}

const T0 = Math.floor(Date.now() / 1000) * 1000 - 10 * 24 * 60 * MIN;
const guard = (dir: string, nowMin: number, payload = preCompact(dir)) =>
  preCompactGuard(payload, { cwd: dir, root: dir, now: T0 + nowMin * MIN, env: {}, log: false });

test("guard: the session's own marker speaks for it even when an older shared marker exists", async () => {
  for (const signer of [SID, '-']) {
    const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
    write(dir, SHARED, `${signer}\n`);
    write(dir, OWN, `${SID}\n`);
    // Shared marker at 0, work at 60, own checkpoint at 120, /compact at 600: only the own marker is fresh.
    setAt(dir, T0, { [SHARED]: 0, 'docs/state/STATE.md': 60, [OWN]: 120 });
    const d = await guard(dir, 600);
    assert.deepEqual([d.rule, d.marker, d.allow], ['idle', OWN, true], d.log);
    setAt(dir, T0, { 'docs/state/STATE.md': 200 });
    const w = await guard(dir, 600);
    assert.deepEqual([w.rule, w.marker, w.allow], ['fresh', OWN, true], w.log);
  }
});

test('guard: without its own marker, the shared one counts when signed by this session or by nobody, never by another', async () => {
  for (const [content, rule] of [
    [`${SID}\n`, 'idle'],
    ['\n', 'idle'],
    ['-\n', 'idle'],
    [`${OTHER_SID}\n`, 'foreign-marker'],
  ] as const) {
    const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
    write(dir, SHARED, content);
    setAt(dir, T0, { 'docs/state/STATE.md': 0, [SHARED]: 10 });
    const d = await guard(dir, 20);
    assert.equal(d.rule, rule, `${JSON.stringify(content)}: ${d.log}`);
    assert.equal(d.allow, rule === 'idle');
    if (rule === 'foreign-marker') {
      assert.equal(d.marker, null);
      assert.match(d.reason, new RegExp(`names session ${OTHER_SID}, not this one`));
      assert.match(d.log, new RegExp(`shared marker signed by ${OTHER_SID}`));
    } else assert.equal(d.marker, SHARED);
  }
  // Claude Code sent no session id: the shared marker is the one, whoever signed it.
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  write(dir, SHARED, `${OTHER_SID}\n`);
  setAt(dir, T0, { 'docs/state/STATE.md': 0, [SHARED]: 10 });
  const d = await guard(dir, 20, preCompact(dir, { sessionId: null }));
  assert.deepEqual([d.rule, d.marker], ['idle', SHARED]);
});

test('guard: no marker blocks, naming the open manual items and the command that confirms them', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const d = await guard(dir, 0);
  assert.deepEqual([d.allow, d.exitCode, d.rule], [false, 2, 'no-marker']);
  assert.match(d.reason, new RegExp(`\\(${OWN.replace(/\./g, '\\.')} is missing\\)`));
  assert.match(
    d.reason,
    new RegExp(
      `^3\\. Run:\n {3}session-ledger \\\\\n {5}checkpoint --session ${SID} \\\\\n {5}--confirm feedback-stored,last-request$`,
      'm',
    ),
  );
  assert.match(
    d.reason,
    /^2\. Make sure these are true \(--confirm says so\):\n {3}- feedback-stored: .+\n {3}- last-request: .+$/m,
  );
  assert.match(d.reason, new RegExp(`checkpoint --nothing-to-preserve \\\\\n {5}--session ${SID}$`, 'm'));
  assert.equal(d.log, `BLOCK (no marker: ${OWN})`);
  // It names the state file and the agent's own checkpoint trigger.
  assert.match(
    d.reason,
    /^1\. Have your agent bring each state file up to date:\n {3}- docs\/state\/STATE\.md: \/checkpoint$/m,
  );
  // Without a session id the reason says so and names the shared marker.
  const n = await guard(dir, 0, preCompact(dir, { sessionId: null }));
  assert.match(n.reason, /Claude Code sent no usable session id/);
  assert.match(n.reason, /\(\.claude\/\.checkpoint-ready is missing\)/);
});

test('guard: nothing-to-preserve in the shared or the own marker allows at once; an empty skeleton blocks despite a marker', async () => {
  for (const rel of [SHARED, OWN]) {
    const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
    write(dir, rel, 'nothing-to-preserve\n');
    setAt(dir, T0, { [rel]: 0, 'docs/state/STATE.md': 60 });
    const d = await guard(dir, 100_000);
    assert.deepEqual([d.rule, d.allow, d.marker], ['opt-out', true, rel]);
  }
  const dir = workspace({ '.claude/session-ledger.md': S2_SKELETON });
  write(dir, OWN, `${SID}\n`);
  setAt(dir, T0, { [OWN]: 0, '.claude/session-ledger.md': -60 });
  const d = await guard(dir, 0);
  assert.deepEqual([d.rule, d.allow, d.exitCode], ['skeleton', false, 2]);
  assert.match(d.reason, /\.claude\/session-ledger\.md is an empty skeleton/);
});

test('guard: auto compactions, other events and malformed input are allowed and logged as such', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  assert.equal((await guard(dir, 0, preCompact(dir, { trigger: 'auto' }))).rule, 'auto');
  assert.equal((await guard(dir, 0, preCompact(dir, { extra: { hook_event_name: 'Stop' } }))).rule, 'not-precompact');
  const m = await guard(dir, 0, '{"session_id":');
  assert.deepEqual([m.rule, m.allow], ['malformed', true]);
  // No trigger at all is a manual compaction.
  const p = JSON.parse(preCompact(dir)) as Record<string, unknown>;
  delete p.trigger;
  assert.equal((await guard(dir, 0, JSON.stringify(p))).rule, 'no-marker');
});

test('guard: a state file that cannot be read (a link out of the workspace) is no evidence of idleness: an old marker blocks', async () => {
  const outside = workspace({ 'STATE.md': S3_STATE });
  const dir = workspace({});
  mkdirSync(path.join(dir, 'docs/state'), { recursive: true });
  symlinkSync(path.join(outside, 'STATE.md'), path.join(dir, 'docs/state/STATE.md'));
  write(dir, OWN, `${SID}\n`);
  setAt(dir, T0, { [OWN]: 0 });
  const d = await guard(dir, 481);
  assert.deepEqual([d.rule, d.allow], ['stale', false], d.log);
  assert.deepEqual([(await guard(dir, 480)).rule], ['fresh']);
});

/** The block's last step for S3 alone, whose closing step is /clear. */
const CLEAR_S3 =
  'Type /clear, the closing step of S3: it starts afresh from the state files, with the resume prompt. /compact passes too once the checkpoint is written.';

/** `text` as a regular expression's source that matches it exactly. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

test('guard: every block that asks for a new checkpoint says what is true on its first line, then numbered steps, one per line: what to do about it, the manual items, the command, the closing step', async () => {
  // `first`: the block's own steps; then the manual items, the command and the closing step (`last`), numbered on.
  const steps = (reason: string, first: RegExp[], last = CLEAR_S3) => {
    const lines = reason.split('\n');
    assert.match(lines[0], /^Compaction stopped: .+\.$/);
    for (const [i, re] of first.entries()) assert.match(reason, new RegExp(`^${i + 1}\\. ${re.source}`, 'm'));
    const n = first.length;
    assert.match(reason, new RegExp(`^${n + 1}\\. Make sure these are true \\(--confirm says so\\):$`, 'm'));
    assert.match(
      reason,
      new RegExp(
        `^${n + 2}\\. Run:\n {3}session-ledger \\\\\n {5}checkpoint --session ${SID} \\\\\n {5}--confirm feedback-stored,last-request$`,
        'm',
      ),
    );
    assert.match(reason, new RegExp(`^${n + 3}\\. ${literal(last)}$`, 'm'));
  };
  const upToDate = /Have your agent bring each state file up to date:\n {3}- docs\/state\/STATE\.md: \/checkpoint$/;
  // An empty skeleton under a marker.
  const sk = workspace({ '.claude/session-ledger.md': S2_SKELETON });
  write(sk, OWN, `${SID}\n`);
  setAt(sk, T0, { [OWN]: 0, '.claude/session-ledger.md': -60 });
  const s = await guard(sk, 0);
  assert.equal(s.rule, 'skeleton');
  // S2's closing step is /compact.
  steps(s.reason, [/Have your agent write the state down for real: /], 'Run /compact again.');
  assert.match(
    s.reason,
    new RegExp(
      `^Nothing worth preserving\\? Run:\n {3}session-ledger \\\\\n {5}checkpoint --nothing-to-preserve \\\\\n {5}--session ${SID}$`,
      'm',
    ),
  );
  // Work since a marker past its window.
  const st = workspace({ 'docs/state/STATE.md': S3_STATE });
  write(st, OWN, `${SID}\n`);
  setAt(st, T0, { [OWN]: 0, 'docs/state/STATE.md': 600 });
  const d = await guard(st, 601);
  assert.equal(d.rule, 'stale', d.log);
  steps(d.reason, [/Have your agent bring docs\/state\/STATE\.md up to date\.$/]);
  // Something at the marker's path that no checkpoint wrote: remove it, then a checkpoint as before any.
  const pl = workspace({ 'docs/state/STATE.md': S3_STATE });
  mkdirSync(path.join(pl, OWN), { recursive: true });
  const p = await guard(pl, 0);
  assert.equal(p.rule, 'no-marker', p.log);
  steps(p.reason, [new RegExp(`Remove it: rm -r ${OWN.replace(/\./g, '\\.')}$`), upToDate]);
  // .claude a link: a folder of its own, then a checkpoint as before any.
  const real = workspace({});
  const ln = workspace({ 'docs/state/STATE.md': S3_STATE });
  symlinkSync(real, path.join(ln, '.claude'));
  const l = await guard(ln, 0);
  assert.equal(l.rule, 'no-marker', l.log);
  steps(l.reason, [
    /Make \.claude a folder of its own instead of a link, holding what the link leads to \(in a POSIX shell\):\n {3}cd '[^'\n]+' && t=\$\(cd -P \.\/\.claude && pwd -P\) && mkdir \.claude\.copy && cp -a "\$t"\/\. \.claude\.copy && rm \.claude && mv \.claude\.copy \.claude && rm -f \.claude\/\.checkpoint-ready\*\n {3}A \.claude\.copy left from an earlier try stops it: look inside, then remove it\.\n {3}If the link leads nowhere: cd '[^'\n]+' && rm \.claude && mkdir \.claude, then install the hooks again /,
    upToDate,
  ]);
  // The command, run as written from another folder with a CDPATH set, leaves a folder holding what the
  // link held (without a marker it brought along), and refuses a copy left from before.
  write(real, 'keep.md', 'kept\n');
  write(real, `.checkpoint-ready.${SID}`, `${SID}\n`);
  const line = l.reason.split('\n').find((x) => x.startsWith('   cd '));
  assert.ok(line);
  const elsewhere = workspace({ '.claude/other.md': 'not this one\n' });
  const run = () =>
    spawnSync('/bin/sh', ['-c', line.trim()], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH, CDPATH: `.:${elsewhere}` },
      encoding: 'utf8',
    });
  mkdirSync(path.join(ln, '.claude.copy'));
  assert.notEqual(run().status, 0);
  assert.ok(lstatSync(path.join(ln, '.claude')).isSymbolicLink(), 'the link stays while a copy is in the way');
  rmSync(path.join(ln, '.claude.copy'), { recursive: true });
  const r = run();
  assert.equal(r.status, 0, r.stderr);
  assert.ok(lstatSync(path.join(ln, '.claude')).isDirectory());
  assert.equal(readFileSync(path.join(ln, '.claude/keep.md'), 'utf8'), 'kept\n');
  assert.equal(existsSync(path.join(ln, `.claude/.checkpoint-ready.${SID}`)), false);
  assert.equal(existsSync(path.join(ln, '.claude/other.md')), false);
  assert.equal(readFileSync(path.join(real, 'keep.md'), 'utf8'), 'kept\n');
  // A state file the checkpoint did not vouch for (its system appeared since).
  const un = workspace({ 'docs/state/STATE.md': S3_STATE });
  write(un, OWN, `${SID} 2026-01-01T00:00:00.000Z WORKING\n${'0'.repeat(64)}  other/STATE.md\n`);
  setAt(un, T0, { [OWN]: 0, 'docs/state/STATE.md': -60 });
  const u = await guard(un, 1);
  assert.equal(u.rule, 'unvouched', u.log);
  steps(u.reason, [/Have your agent bring docs\/state\/STATE\.md up to date\.$/]);
});

test('guard: the step that brings each state file up to date leaves out a system switched off (S0 without session.ledger: true)', async () => {
  const dir = workspace({});
  copyDemo(dir);
  const yml = path.join(dir, '.agents.yml');
  writeFileSync(yml, readFileSync(yml, 'utf8').replace(/^ {2}ledger: true/m, '  ledger: false'));
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(d.rule, 'no-marker', d.log);
  assert.match(d.reason, /^ {3}- docs\/state\/STATE\.md: /m);
  assert.doesNotMatch(d.reason, /session_ledger\.md/);
});

test("guard: a block's last step is the closing step of the systems here, in the checkpoint's words: /clear for S3 or S0 (the one the steps switch on), /compact again for S2, the checkpoint's sentence when they end differently", async () => {
  /** The block's last numbered step, without its number. */
  const lastStep = async (dir: string) => {
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    assert.equal(d.rule, 'no-marker', d.log);
    const numbered = d.reason.split('\n').filter((l) => /^\d+\. /.test(l));
    return numbered[numbered.length - 1].replace(/^\d+\. /, '');
  };
  assert.equal(await lastStep(workspace({ 'docs/state/STATE.md': S3_STATE })), CLEAR_S3);
  assert.equal(await lastStep(workspace({ '.claude/session-ledger.md': S2_SKELETON })), 'Run /compact again.');
  // S0 switched off, alone: the steps switch it on, and its closing step is /clear.
  assert.equal(
    await lastStep(workspace({ '.agents.yml': 'session:\n  ledger: false\n' })),
    CLEAR_S3.replace('of S3', 'of S0'),
  );
  const mixed = (clear: string, compact: string) =>
    `The systems here end differently. Type one of the two, not both: /clear (${clear}) starts afresh from the state files, with the resume prompt; /compact (${compact}) keeps a summary of this conversation too. Either is safe: the files are checked and the marker lets /compact through.`;
  const demo = workspace({});
  copyDemo(demo);
  assert.equal(await lastStep(demo), mixed('S0, S3', 'S1, S2, S4'));
  // S0 switched off among the others: its closing step is not named.
  const yml = path.join(demo, '.agents.yml');
  writeFileSync(yml, readFileSync(yml, 'utf8').replace(/^ {2}ledger: true/m, '  ledger: false'));
  assert.equal(await lastStep(demo), mixed('S3', 'S1, S2, S4'));
});
