/**
 * A session /clear replaced is no live session: after /clear, Claude Code starts the next session in
 * the same process, and the session it replaced, whose transcript wrote a moment before, never writes
 * again. A bare checkpoint then takes the session that runs, and says which, instead of asking which
 * of "two" sessions is meant. Told only from the SessionStart hook's own records of this folder (the
 * next session's `clear` start in the same agent process as the replaced session's record); without
 * them (another agent process, a record that came with the repository or is linked), two sessions that
 * wrote recently stay ambiguous. The records are the real hook's, written through the CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { parentChain } from '../../src/core/hooks/session-record';
import { evaluate } from '../../src/core/report/evaluate';
import { checkpointFlow } from '../../src/extension/pure/checkpoint-flow';
import { git } from './helpers';
import { CONFIRM_ALL, CONFIRMED, emptyClaudeHome, markers, run, transcript } from './checkpoint-fixtures';
import { A, B, C, clearedBeforeTyping, clearedWorkspace, started } from './cleared-fixtures';

/** A bare checkpoint through the CLI (the manual items confirmed), as the user runs it in the folder. */
function bareCheckpoint(root: string, home: string, ...more: string[]) {
  return run(['checkpoint', ...CONFIRM_ALL, ...more], { cwd: root, env: { CLAUDE_CONFIG_DIR: home } });
}

/** The sessions a bare checkpoint lists when it asks which one is meant (the CLI's --json). */
function listed(root: string, home: string): string[] {
  const r = bareCheckpoint(root, home, '--json');
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const out = JSON.parse(r.stdout) as { refusals: Array<{ code: string; sessions?: Array<{ sessionId: string }> }> };
  const amb = out.refusals.find((x) => x.code === 'ambiguous-session');
  assert.ok(amb, r.stdout);
  return (amb.sessions ?? []).map((s) => s.sessionId).sort();
}

/** The sessions "Checkpoint now" asks the user to pick from (the extension's flow over the core). */
async function asked(root: string, home: string): Promise<string[] | undefined> {
  let offered: string[] | undefined;
  await checkpointFlow({
    scan: () => evaluate(root, { confirmed: CONFIRMED }),
    ticked: (report) => report,
    decide: (report, sessionId, reportFor) =>
      checkpoint(root, { report, reportFor, sessionId, claudeHome: home, codexHome: emptyClaudeHome(), env: {} }),
    async pickSession(sessions) {
      offered = sessions.map((s) => s.sessionId).sort();
      return undefined;
    },
    rescan() {},
  });
  return offered;
}

test('after /clear in the same agent process, a bare checkpoint writes the new session’s marker and says which it took', async () => {
  const { root, home } = await clearedWorkspace(true);
  const r = bareCheckpoint(root, home);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(markers(root), [`.checkpoint-ready.${B}`]);
  assert.match(r.stdout, new RegExp(`Marker written: \\.claude/\\.checkpoint-ready\\.${B} \\(session ${B}, `));
  assert.match(
    r.stdout,
    new RegExp(
      `Session ${A} is not counted as running: /clear replaced it with session ${B} in the same agent process`,
    ),
  );
  // "Checkpoint now" asks nothing either: the one decision is the core's.
  assert.equal(await asked(root, home), undefined);
  // The replaced session can still be named.
  const named = bareCheckpoint(root, home, '--session', A);
  assert.equal(named.code, 0, named.stdout + named.stderr);
  assert.deepEqual(markers(root), [`.checkpoint-ready.${A}`, `.checkpoint-ready.${B}`].sort());
});

test('a /clear recorded in another agent process proves nothing: both sessions stay live; the CLI lists and the extension asks the same ones', async () => {
  const { root, home } = await clearedWorkspace(false);
  assert.deepEqual(listed(root, home), [A, B].sort());
  assert.deepEqual(await asked(root, home), [A, B].sort());
  // /clear in A's own agent process starts C: A is replaced, B (another terminal) still runs beside C.
  await started(root, home, C, 'clear', false);
  transcript(home, root, C);
  assert.deepEqual(listed(root, home), [B, C].sort());
  assert.deepEqual(await asked(root, home), [B, C].sort());
  assert.deepEqual(markers(root), []);
});

test('a /clear record that git tracks, or that is hard-linked, is not this machine’s hook’s own: the sessions stay ambiguous', async () => {
  const { root, home } = await clearedWorkspace(true);
  const records = ['.claude/session-ledger/session.json', `.claude/session-ledger/sessions/${B}.json`];
  git(root, 'add', '-f', ...records);
  git(root, 'commit', '-q', '-m', 'records');
  assert.deepEqual(listed(root, home), [A, B].sort());
  git(root, 'rm', '-q', '--cached', ...records);
  git(root, 'commit', '-q', '-m', 'untracked');
  const elsewhere = path.join(root, 'elsewhere');
  mkdirSync(elsewhere);
  for (const [i, rel] of records.entries()) linkSync(path.join(root, rel), path.join(elsewhere, `${i}.json`));
  assert.deepEqual(listed(root, home), [A, B].sort());
  assert.deepEqual(markers(root), []);
  // The hook's own records, as it left them: the new session is taken.
  rmSync(elsewhere, { recursive: true });
  const r = bareCheckpoint(root, home);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(markers(root), [`.checkpoint-ready.${B}`]);
});

test('right after /clear, before the new session wrote its transcript, a bare checkpoint writes the new session’s marker, not the replaced one’s', async () => {
  assert.ok(parentChain().pids.length >= 3, 'the chain of parent processes is read (Linux: /proc)');
  const { root, home } = await clearedBeforeTyping(true);
  const r = bareCheckpoint(root, home);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(markers(root), [`.checkpoint-ready.${B}`]);
  assert.match(r.stdout, new RegExp(`session ${B}, recorded by the SessionStart hook\\)`));
  assert.equal(await asked(root, home), undefined);
  // Started in another agent process, a session proves no /clear of the one that wrote: that one still runs, and
  // so does the session /clear started elsewhere (its record shows it): the checkpoint asks which, and guesses neither.
  const other = await clearedBeforeTyping(false);
  assert.deepEqual(listed(other.root, other.home), [A, B].sort());
  assert.deepEqual(await asked(other.root, other.home), [A, B].sort());
  assert.deepEqual(markers(other.root), []);
});

test('a session whose transcript wrote after the /clear that seems to replace it still runs: the sessions stay ambiguous', async () => {
  // The records say B's /clear came from A's agent process, yet A wrote two minutes after B started: another
  // process with the same chain of parent ids (a reused id, another PID namespace) recorded it.
  const { root, home } = await clearedWorkspace(true);
  // A started three minutes ago, B two (each record keeps its order, the folder's newest record, B's, too);
  // A's transcript wrote just now.
  for (const [sid, ago, recs] of [
    [A, 180_000, [`sessions/${A}.json`]],
    [B, 120_000, [`sessions/${B}.json`, 'session.json']],
  ] as const) {
    for (const name of recs) {
      const rec = path.join(root, '.claude/session-ledger', name);
      const json = JSON.parse(readFileSync(rec, 'utf8')) as { at: string; session_id: string };
      assert.equal(json.session_id, sid);
      json.at = new Date(Date.now() - ago).toISOString();
      writeFileSync(rec, `${JSON.stringify(json)}\n`);
    }
  }
  assert.deepEqual(listed(root, home), [A, B].sort());
  assert.deepEqual(await asked(root, home), [A, B].sort());
  assert.deepEqual(markers(root), []);
});
