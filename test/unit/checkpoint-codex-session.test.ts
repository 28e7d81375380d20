/**
 * The session a checkpoint is for, when none is named, is the folder's one session that wrote recently,
 * of either client: a Codex CLI rollout counts as a Claude Code transcript does (the status bar shows
 * the newest of both), so a folder where only Codex runs gets its thread's marker, the one Codex's guard
 * hook reads, and neither the shared marker nor an old Claude Code session's. A live session of each
 * client is as ambiguous as two of one: the checkpoint refuses and lists both with their clients.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { markerRel, SHARED_MARKER_REL } from '../../src/core/checkpoint/marker';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { workspace } from './helpers';
import {
  age,
  CODEX_ID,
  CONFIRM_ALL,
  CONFIRMED,
  emptyClaudeHome,
  markers,
  OTHER_SID,
  preCompact,
  rollout,
  run,
  s3Workspace,
  SID,
  transcript,
} from './checkpoint-fixtures';

/** The PreCompact payload Codex CLI sends for the thread `id`. */
function codexPreCompact(cwd: string, transcriptPath: string, id = CODEX_ID): string {
  return JSON.stringify({
    session_id: id,
    turn_id: '01a23c00-8c16-7503-a0c2-5d68a9641469',
    transcript_path: transcriptPath,
    cwd,
    hook_event_name: 'PreCompact',
    model: 'gpt-5.1',
    trigger: 'manual',
  });
}

test("a folder where only Codex CLI runs: checkpoint, no session named, writes the thread's own marker, which Codex's guard takes", async () => {
  const dir = s3Workspace();
  const claudeHome = emptyClaudeHome();
  const codexHome = workspace({}, 'sl-codex-');
  const file = rollout(codexHome, dir);
  const out = await checkpoint(dir, { claudeHome, codexHome, env: {}, confirmed: CONFIRMED });
  assert.equal(out.kind, 'written', out.lines.join('\n'));
  assert.equal(out.sessionId, CODEX_ID, out.lines.join('\n'));
  assert.equal(out.marker, markerRel(CODEX_ID));
  assert.equal(out.shared, false);
  assert.equal(out.sessionSource, 'transcript');
  assert.equal(out.sessionAgent, 'codex');
  assert.ok(
    out.lines.includes(
      `Marker written: ${markerRel(CODEX_ID)} (session ${CODEX_ID}, from the newest Codex CLI session of this folder).`,
    ),
    out.lines.join('\n'),
  );
  assert.equal(existsSync(path.join(dir, SHARED_MARKER_REL)), false, 'no shared marker');
  const d = await preCompactGuard(codexPreCompact(dir, file), { root: dir, agent: 'codex', log: false });
  assert.equal(d.allow, true, d.log);
  assert.equal(d.marker, markerRel(CODEX_ID), d.log);
});

test("an old Claude Code session of the folder and a live Codex CLI thread: the checkpoint is for the Codex thread, whose guard then lets /compact through (not the old Claude session's marker, which Codex's guard never reads)", async () => {
  const dir = s3Workspace();
  const claudeHome = emptyClaudeHome();
  const codexHome = workspace({}, 'sl-codex-');
  age(transcript(claudeHome, dir, OTHER_SID), 3 * 24 * 3600_000);
  const file = rollout(codexHome, dir);
  const out = await checkpoint(dir, { claudeHome, codexHome, env: {}, confirmed: CONFIRMED });
  assert.equal(out.kind, 'written', out.lines.join('\n'));
  assert.equal(out.sessionId, CODEX_ID, out.lines.join('\n'));
  assert.equal(existsSync(path.join(dir, markerRel(OTHER_SID))), false, 'no marker for the old Claude Code session');
  const d = await preCompactGuard(codexPreCompact(dir, file), { root: dir, agent: 'codex', log: false });
  assert.equal(d.allow, true, d.log);
  // The newer of the two is taken whichever client it is: the Claude Code session once it writes again.
  age(transcript(claudeHome, dir, OTHER_SID), 0);
  age(file, 40 * 60_000);
  const claude = await checkpoint(dir, { claudeHome, codexHome, env: {}, confirmed: CONFIRMED });
  assert.equal(claude.sessionId, OTHER_SID, claude.lines.join('\n'));
  assert.equal(claude.sessionAgent, 'claude');
  assert.ok(claude.lines.some((l) => l.endsWith('from the newest Claude Code transcript of this folder).')));
});

test("a live Claude Code session and a live Codex CLI thread of one folder: checkpoint without --session refuses (ambiguous-session), lists both with their clients, writes no marker; --session naming either writes that one's marker", async () => {
  const dir = s3Workspace();
  const claudeHome = emptyClaudeHome();
  const codexHome = workspace({}, 'sl-codex-');
  age(transcript(claudeHome, dir, SID), 2 * 60_000);
  const file = rollout(codexHome, dir);
  const env = { CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: codexHome };
  const r = run(['checkpoint', '--root', dir, ...CONFIRM_ALL], { env });
  assert.equal(r.code, 1, r.stdout);
  assert.match(
    r.stderr,
    /2 agent sessions of this folder wrote within the last 30 minutes; which one is this checkpoint for\? Name it with --session ID:/,
  );
  assert.match(r.stderr, new RegExp(`${CODEX_ID} {2}Codex CLI, last write just now: "wire the export button"`));
  assert.match(r.stderr, new RegExp(`${SID} {2}Claude Code, last write 2 min ago: "hi"`));
  assert.deepEqual(markers(dir), [], "no marker, neither session's nor the shared one");
  const j = JSON.parse(run(['checkpoint', '--root', dir, ...CONFIRM_ALL, '--json'], { env }).stdout);
  assert.equal(j.ok, false);
  assert.deepEqual(
    j.refusals.map((x: { code: string }) => x.code),
    ['ambiguous-session'],
  );
  assert.deepEqual(
    j.refusals[0].sessions.map((s: { sessionId: string; agent: string }) => [s.sessionId, s.agent]),
    [
      [CODEX_ID, 'codex'],
      [SID, 'claude'],
    ],
  );
  assert.deepEqual(markers(dir), []);
  // The Codex thread named: its marker, which Codex's guard takes; the Claude Code session's guard still stops /compact.
  const codex = run(['checkpoint', '--root', dir, '--session', CODEX_ID, ...CONFIRM_ALL], { env });
  assert.equal(codex.code, 0, codex.stderr);
  assert.deepEqual(markers(dir), [`.checkpoint-ready.${CODEX_ID}`]);
  const x = await preCompactGuard(codexPreCompact(dir, file), { root: dir, agent: 'codex', log: false });
  assert.equal(x.allow, true, x.log);
  const c = await preCompactGuard(preCompact(dir, { sessionId: SID }), { root: dir, log: false });
  assert.equal(c.allow, false, 'no go-signal for the Claude Code session: no checkpoint was written for it');
  // The Claude Code session named: its own marker beside the thread's.
  const claude = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL], { env });
  assert.equal(claude.code, 0, claude.stderr);
  assert.deepEqual(markers(dir).sort(), [`.checkpoint-ready.${CODEX_ID}`, `.checkpoint-ready.${SID}`].sort());
  const c2 = await preCompactGuard(preCompact(dir, { sessionId: SID }), { root: dir, log: false });
  assert.equal(c2.allow, true, c2.log);
});

test('checkpoint --json says the client of the session its marker is for (sessionAgent): the thread found by its rollout, the session named with --session, null when none is known', () => {
  const dir = s3Workspace();
  const claudeHome = emptyClaudeHome();
  const codexHome = workspace({}, 'sl-codex-');
  const json = (args: string[]) =>
    JSON.parse(run(['checkpoint', '--root', dir, ...CONFIRM_ALL, '--json', ...args], { env }).stdout);
  let env = { CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: codexHome };
  // No session anywhere: the shared marker, for no known client.
  const none = json([]);
  assert.deepEqual([none.outcome, none.sessionId, none.sessionAgent], ['written', null, null]);
  rollout(codexHome, dir);
  const found = json([]);
  assert.deepEqual([found.sessionId, found.sessionSource, found.sessionAgent], [CODEX_ID, 'transcript', 'codex']);
  age(transcript(claudeHome, dir, SID), 2 * 60_000);
  const codex = json(['--session', CODEX_ID]);
  assert.deepEqual([codex.sessionId, codex.sessionSource, codex.sessionAgent], [CODEX_ID, 'option', 'codex']);
  const claude = json(['--session', SID]);
  assert.deepEqual([claude.sessionId, claude.sessionSource, claude.sessionAgent], [SID, 'option', 'claude']);
  // A session of no client this folder knows of: its id is taken as given, its client not guessed.
  env = { CLAUDE_CONFIG_DIR: emptyClaudeHome(), CODEX_HOME: workspace({}, 'sl-codex-') };
  const unknown = json(['--session', OTHER_SID]);
  assert.deepEqual([unknown.sessionId, unknown.sessionSource, unknown.sessionAgent], [OTHER_SID, 'option', null]);
});

test("checkpoint's own line names the client of the session its marker is for, when it is known", () => {
  const dir = s3Workspace();
  const claudeHome = emptyClaudeHome();
  const codexHome = workspace({}, 'sl-codex-');
  const env = { CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: codexHome };
  const said = (args: string[]) => run(['checkpoint', '--root', dir, ...CONFIRM_ALL, ...args], { env }).stdout;
  rollout(codexHome, dir);
  assert.match(said([]), new RegExp(`Marker written: \\S+ \\(session ${CODEX_ID}, from the newest Codex CLI session`));
  age(transcript(claudeHome, dir, SID), 2 * 60_000);
  assert.match(said(['--session', CODEX_ID]), new RegExp(`\\(Codex CLI session ${CODEX_ID}, given with --session\\)`));
  assert.match(said(['--session', SID]), new RegExp(`\\(Claude Code session ${SID}, given with --session\\)`));
  assert.match(said(['--session', OTHER_SID]), new RegExp(`\\(session ${OTHER_SID}, given with --session\\)`));
});

test('checkpoint --session with an id no session of this folder is known by says so (a typo writes a marker no guard reads); a known one says nothing more', () => {
  const dir = s3Workspace();
  const claudeHome = emptyClaudeHome();
  const env = { CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: workspace({}, 'sl-codex-') };
  const said = (args: string[]) => run(['checkpoint', '--root', dir, ...CONFIRM_ALL, ...args], { env });
  transcript(claudeHome, dir, SID);
  const typo = said(['--session', OTHER_SID]);
  assert.equal(typo.code, 0, typo.stderr);
  assert.match(
    typo.stdout,
    new RegExp(`No session ${OTHER_SID} is known here: .*If the id is mistyped, no guard takes this marker`),
  );
  const known = said(['--session', SID]);
  assert.equal(known.code, 0, known.stderr);
  assert.doesNotMatch(known.stdout, /is known here/);
});

test('checkpoint --shared says the client of the session that signs the shared marker (signedByAgent, and in its line), when it is known', () => {
  const dir = s3Workspace();
  const claudeHome = emptyClaudeHome();
  const codexHome = workspace({}, 'sl-codex-');
  const env = { CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: codexHome };
  const go = (args: string[]) => run(['checkpoint', '--root', dir, ...CONFIRM_ALL, '--shared', ...args], { env });
  const json = (args: string[]) => JSON.parse(go(['--json', ...args]).stdout);
  // The Codex thread found by its rollout signs it.
  rollout(codexHome, dir);
  const found = json([]);
  assert.deepEqual([found.marker, found.signedBy, found.signedByAgent], [SHARED_MARKER_REL, CODEX_ID, 'codex']);
  assert.match(go([]).stdout, new RegExp(`signed by Codex CLI session ${CODEX_ID}, the one found here`));
  // A session named with --session signs it, with its client when this folder knows it.
  age(transcript(claudeHome, dir, SID), 2 * 60_000);
  const named = json(['--session', SID]);
  assert.deepEqual([named.signedBy, named.signedByAgent], [SID, 'claude']);
  assert.match(go(['--session', SID]).stdout, new RegExp(`signed by Claude Code session ${SID}[,;]`));
  const unknown = json(['--session', OTHER_SID]);
  assert.deepEqual([unknown.signedBy, unknown.signedByAgent], [OTHER_SID, null]);
  assert.match(go(['--session', OTHER_SID]).stdout, new RegExp(`signed by session ${OTHER_SID}[,;]`));
});
