import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint, resumePromptFor } from '../../src/core/checkpoint/checkpoint';
import { evaluate } from '../../src/core/report/evaluate';
import { sha256 } from '../../src/core/files/fsread';
import { formatMarker, isSessionId, markerRel, parseMarker } from '../../src/core/checkpoint/marker';
import { writeSessionRecord } from '../../src/core/hooks/session-record';
import { gitInit, workspace, write } from './helpers';
import {
  CONFIRM_ALL,
  CONFIRMED,
  emptyClaudeHome,
  OTHER_SID,
  run,
  s3Workspace,
  S3_STATE,
  SID,
  transcript,
} from './checkpoint-fixtures';

const S3_PROMPT = 'Read docs/state/STATE.md and continue from the Now ▶ action.';

test('marker naming: per session, or the shared file; never a path from a bad id', () => {
  assert.equal(markerRel(SID), `.claude/.checkpoint-ready.${SID}`);
  assert.equal(markerRel(null), '.claude/.checkpoint-ready');
  for (const bad of ['../x', 'a/b', '', ' ', '-', '.hidden', 'nothing-to-preserve', 'a b', 'x'.repeat(200)]) {
    assert.equal(isSessionId(bad), false, bad);
    assert.equal(markerRel(bad), '.claude/.checkpoint-ready');
  }
  const text = formatMarker({
    sessionId: SID,
    at: '2026-05-01T10:00:00.000Z',
    label: 'WORKING',
    hashes: [{ hash: 'a'.repeat(64), path: 'docs/state/STATE.md' }],
  });
  assert.equal(text, `${SID} 2026-05-01T10:00:00.000Z WORKING\n${'a'.repeat(64)}  docs/state/STATE.md\n`);
  assert.deepEqual(parseMarker(text), {
    sessionId: SID,
    sessionIds: [SID],
    at: '2026-05-01T10:00:00.000Z',
    label: 'WORKING',
    nothingToPreserve: false,
    hashes: [{ hash: 'a'.repeat(64), path: 'docs/state/STATE.md' }],
    confirmed: [],
  });
  assert.equal(
    parseMarker(formatMarker({ sessionId: null, at: '2026-05-01T10:00:00.000Z', label: 'PARTIAL' })).sessionId,
    null,
  );
  assert.equal(parseMarker('').sessionId, null);
  assert.equal(parseMarker(`  ${SID}\n`).sessionId, SID, 'S2 style: just the id');
});

test('checkpoint --session writes the per-session marker: id first, then time, label, state hashes; prints the S3 prompt verbatim', () => {
  const dir = s3Workspace();
  const r = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout.trimEnd().split('\n');
  assert.deepEqual(out.slice(-3), ['```', S3_PROMPT, '```']);
  const marker = readFileSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`), 'utf8');
  const m = parseMarker(marker);
  assert.equal(marker.split(/\s+/)[0], SID);
  assert.equal(m.sessionId, SID);
  assert.ok(m.at && Math.abs(Date.parse(m.at) - Date.now()) < 60_000);
  assert.match(m.label ?? '', /^(WORKING|PARTIAL)$/);
  assert.deepEqual(m.hashes, [{ hash: sha256(Buffer.from(S3_STATE)), path: 'docs/state/STATE.md' }]);
  assert.equal(existsSync(path.join(dir, '.claude/.checkpoint-ready')), false, 'no shared marker');
  assert.deepEqual(readdirSync(path.join(dir, '.claude')), [`.checkpoint-ready.${SID}`], 'no temp file left');
});

test('something blocks: nothing is written, each blocking check is printed with its location, exit 1', () => {
  const dir = workspace({
    'docs/state/STATE.md': '# State\n\n## Handoff\n\n- **Status:** tbd\n- **Now ▶** continue work\n\n## Log\n',
  });
  gitInit(dir);
  const r = run(['checkpoint', '--root', dir, '--session', SID]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Checkpoint not written:\n\d+ blocking checks? failed:/);
  assert.match(r.stderr, /S3 FAIL next-action .*\(docs\/state\/STATE\.md:6\)/);
  assert.doesNotMatch(r.stdout + r.stderr, /Checkpoint saved/);
  assert.equal(existsSync(path.join(dir, '.claude')), false);
  const j = run(['checkpoint', '--root', dir, '--session', SID, '--json']);
  assert.equal(j.code, 1);
  const body = JSON.parse(j.stdout);
  assert.equal(body.ok, false);
  assert.equal(body.marker, null);
  assert.ok(
    body.blocking.some(
      (c: { id: string; path: string; line: number }) =>
        c.id === 'next-action' && c.path === 'docs/state/STATE.md' && c.line === 6,
    ),
  );
});

test('no id known: the shared marker, saying so; never an id taken from the ledger', async () => {
  // An S2 ledger that names an old session id in its preamble: that id belongs to another session.
  const dir = s3Workspace({ 'notes.md': `_session: ${OTHER_SID}_\n` });
  const r = run(['checkpoint', '--root', dir, ...CONFIRM_ALL]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /Marker written: \.claude\/\.checkpoint-ready — the shared marker, because no session id is known/,
  );
  const m = parseMarker(readFileSync(path.join(dir, '.claude/.checkpoint-ready'), 'utf8'));
  assert.equal(m.sessionId, null);
  assert.equal(readdirSync(path.join(dir, '.claude')).length, 1);
  const res = await checkpoint(dir, { claudeHome: emptyClaudeHome(), confirmed: CONFIRMED });
  assert.equal(res.shared, true);
  assert.equal(res.sessionSource, null);
});

test('the session id comes from the newest Claude Code transcript of the workspace, else from the SessionStart record', async () => {
  const dir = s3Workspace();
  const home = emptyClaudeHome();
  await writeSessionRecord(dir, {
    session_id: OTHER_SID,
    transcript_path: null,
    source: 'startup',
    cwd: dir,
    at: new Date().toISOString(),
  });
  let res = await checkpoint(dir, { claudeHome: home, confirmed: CONFIRMED });
  assert.equal(res.sessionId, OTHER_SID);
  assert.equal(res.sessionSource, 'session-start');
  transcript(home, dir, SID);
  res = await checkpoint(dir, { claudeHome: home, confirmed: CONFIRMED });
  assert.equal(res.sessionId, SID);
  assert.equal(res.sessionSource, 'transcript');
  assert.equal(res.markerPath, path.join(dir, `.claude/.checkpoint-ready.${SID}`));
  res = await checkpoint(dir, { claudeHome: home, sessionId: 'explicit-1', confirmed: CONFIRMED });
  assert.equal(res.sessionSource, 'option');
  // The CLI finds the transcript through CLAUDE_CONFIG_DIR.
  const r = run(['checkpoint', '--root', dir, ...CONFIRM_ALL], { env: { CLAUDE_CONFIG_DIR: home } });
  assert.match(r.stdout, new RegExp(`session ${SID}, from the newest Claude Code transcript`));
});

test('a bad --session is a usage error (exit 2) and writes nothing', () => {
  const dir = s3Workspace();
  const r = run(['checkpoint', '--root', dir, '--session', '../../evil']);
  assert.equal(r.code, 2);
  assert.equal(existsSync(path.join(dir, '.claude')), false);
});

test('manual items can be confirmed; --json carries the resume prompt and the marker', () => {
  const dir = s3Workspace();
  const r = run(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.ok, true);
  assert.equal(j.marker, `.claude/.checkpoint-ready.${SID}`);
  assert.equal(j.resumePrompt, S3_PROMPT);
  assert.equal(j.sessionSource, 'option');
  assert.equal(j.outcome, 'written');
  assert.deepEqual(
    j.closing.map((c: { system: string; step: string }) => [c.system, c.step]),
    [['S3', '/clear']],
  );
});

test('a checkpoint replaces a marker the agent touched (S2 style) with a signed one', async () => {
  const dir = s3Workspace();
  const f = write(dir, `.claude/.checkpoint-ready.${SID}`, ''); // S2's `touch`
  const res = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED });
  assert.equal(res.ok, true);
  assert.equal(parseMarker(readFileSync(f, 'utf8')).sessionId, SID);
});

test('resumePromptFor: one line per detected system, S3 verbatim', async () => {
  const dir = s3Workspace();
  const report = await evaluate(dir);
  assert.equal(resumePromptFor(report), S3_PROMPT);
  assert.equal(resumePromptFor({ root: dir, label: 'WORKING', systems: [] }), '');
});

test('the marker write is atomic: an existing marker survives a failed write', () => {
  const dir = s3Workspace();
  // `.claude` is a file here: the marker cannot be written, and the command says so instead of crashing.
  writeFileSync(path.join(dir, '.claude'), 'not a folder');
  const t0 = Date.now();
  const r = run(['checkpoint', '--root', dir, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(r.code, 1);
  // Not a speed figure: a folder that cannot be made is no lock held by another run, so nothing waits out the 10 s lock wait.
  assert.ok(Date.now() - t0 < 5_000, `the refusal waited ${Date.now() - t0} ms`);
  assert.match(r.stderr, /Checkpoint not written:\nThe marker could not be written/);
  assert.equal(readFileSync(path.join(dir, '.claude'), 'utf8'), 'not a folder');
});
