import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { HOOK_LOG_REL } from '../../src/core/hook-io';
import { SESSION_RECORD_REL } from '../../src/core/session-record';
import { gitInit, workspace } from './helpers';
import { run, s3Workspace, S0_CONFIG, S0_LEDGER, sessionStart, SID } from './checkpoint-fixtures';

function hook(dir: string, input: string) {
  return run(['hook', 'session-start'], { cwd: dir, input });
}

function context(stdout: string): string {
  const out = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
  return out.hookSpecificOutput.additionalContext;
}

test('startup and resume: the session is recorded, nothing is printed', () => {
  const dir = s3Workspace();
  for (const source of ['startup', 'resume']) {
    const r = hook(dir, sessionStart(dir, source));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const rec = JSON.parse(readFileSync(path.join(dir, SESSION_RECORD_REL), 'utf8'));
    assert.equal(rec.session_id, SID);
    assert.equal(rec.source, source);
    assert.equal(rec.cwd, dir);
    assert.match(rec.transcript_path, new RegExp(`${SID}\\.jsonl$`));
    assert.ok(!Number.isNaN(Date.parse(rec.at)));
  }
});

test('clear and compact: the resume block names the file, the next action and this session marker', () => {
  const dir = s3Workspace();
  for (const source of ['clear', 'compact']) {
    const r = hook(dir, sessionStart(dir, source));
    assert.equal(r.code, 0, r.stderr);
    const ctx = context(r.stdout);
    assert.match(ctx, new RegExp(`after /${source}`));
    assert.match(ctx, /Read docs\/state\/STATE\.md/);
    assert.match(ctx, /Next action: wire the PreCompact hook into \.claude\/settings\.json/);
    assert.match(ctx, /Resume prompt: Read docs\/state\/STATE\.md and continue from the Now ▶ action\./);
    assert.match(ctx, new RegExp(`Checkpoint marker for this session: \\.claude/\\.checkpoint-ready\\.${SID}`));
  }
});

test("after /clear, S0's open UNCONFIRMED items come first (post-clear protocol), with their lines", () => {
  const dir = workspace({ '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER });
  gitInit(dir);
  const ctx = context(hook(dir, sessionStart(dir, 'clear')).stdout);
  assert.match(ctx, /Read \.agents\/session_ledger\.md/);
  assert.match(ctx, /Validate these UNCONFIRMED items with the user before continuing/);
  const lines = S0_LEDGER.split('\n');
  const taxLine = lines.findIndex((l) => l.includes('totals include tax')) + 1;
  assert.match(ctx, new RegExp(`Should totals include tax\\?.*\\(\\.agents/session_ledger\\.md:${taxLine}\\)`));
  assert.match(ctx, /Dates are exported in UTC/);
});

test('blocking findings travel in the resume block', () => {
  const dir = workspace({ 'docs/state/STATE.md': '# State\n\n## Handoff\n\n- **Status:** x\n\n## Log\n' });
  gitInit(dir);
  const ctx = context(hook(dir, sessionStart(dir, 'compact')).stdout);
  assert.match(ctx, /Blocking findings/);
  assert.match(ctx, /S3 (next-action|handoff-block)/);
});

test('no state file: nothing printed after /clear either; missing session id: nothing recorded', () => {
  const dir = workspace();
  const r = hook(dir, sessionStart(dir, 'clear', { sessionId: null, extra: { transcript_path: undefined } }));
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.equal(existsSync(path.join(dir, SESSION_RECORD_REL)), false);
});

test('garbage stdin, unknown sources and extra fields: exit 0, never a stack trace', () => {
  const dir = s3Workspace();
  for (const input of ['', '}{', '"clear"', '{"source": 42}']) {
    const r = hook(dir, input);
    assert.equal(r.code, 0, input);
    assert.equal(r.stdout, '');
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
  assert.match(readFileSync(path.join(dir, HOOK_LOG_REL), 'utf8'), /session-start nothing \(malformed stdin/);
  const odd = hook(dir, sessionStart(dir, 'teleport', { extra: { model: 'claude-x', agent_type: 'main' } }));
  assert.equal(odd.code, 0);
  assert.equal(odd.stdout, '');
  const extra = hook(dir, sessionStart(dir, 'clear', { extra: { model: 'claude-x', permission_mode: 'plan' } }));
  assert.match(context(extra.stdout), /Read docs\/state\/STATE\.md/);
});
