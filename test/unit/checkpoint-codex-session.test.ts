/**
 * The session a checkpoint is for, when none is named, is the folder's newest session of either client:
 * a Codex CLI rollout counts as a Claude Code transcript does (the status bar shows the newest of both),
 * so a folder where only Codex runs gets its thread's marker, the one Codex's guard hook reads, and
 * neither the shared marker nor an old Claude Code session's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { markerRel, SHARED_MARKER_REL } from '../../src/core/checkpoint/marker';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { workspace } from './helpers';
import { age, CONFIRMED, emptyClaudeHome, OTHER_SID, s3Workspace, transcript } from './checkpoint-fixtures';

const CODEX_ID = '019a23c0-8c16-7503-a0c2-5d68a9641469';

/** A Codex CLI rollout of `root` under `codexHome` (its first record names the thread and the folder), begun a minute ago. */
function rollout(codexHome: string, root: string, id = CODEX_ID): string {
  const day = path.join(codexHome, 'sessions', '2026', '12', '03');
  mkdirSync(day, { recursive: true });
  const f = path.join(day, `rollout-2026-12-03T13-03-18-${id}.jsonl`);
  const at = new Date(Date.now() - 60_000).toISOString();
  writeFileSync(
    f,
    [
      { timestamp: at, type: 'session_meta', payload: { id, cwd: root, originator: 'codex_cli_rs' } },
      { timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: 'wire the export button' } },
    ]
      .map((o) => JSON.stringify(o))
      .join('\n') + '\n',
  );
  return f;
}

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
