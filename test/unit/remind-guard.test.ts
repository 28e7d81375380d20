/**
 * The reminder (`hook remind`) says a checkpoint covers the session only when the PreCompact guard's
 * own decision does: never while the guard would stop /compact. The state files the checkpoint
 * vouched for are changed right after it (within the guard's 30 s grace, or with their old times
 * kept: `cp -p`, `mv`), so their times say nothing; the guard blocks, and the reminder suggests the
 * checkpoint, through the core and through the installed hook script. The status line's "checkpoint
 * done" and the status bar's say the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpointDone, preCompactGuard } from '../../src/core/hooks/guard';
import { remind } from '../../src/core/hooks/remind';
import { evaluate } from '../../src/core/report/evaluate';
import { checkpointed, guardViewOf } from '../../src/extension/pure/status-text';
import { HOOK_CORE_MARKER } from '../../src/core/hooks/files';
import { cli, gitInit, HOOK_SCRIPT, hookScript, workspace, write } from './helpers';
import {
  CONFIRMED,
  emptyClaudeHome,
  projectEnv,
  run,
  S0_CONFIG,
  S0_LEDGER,
  S3_STATE,
  SID,
  transcriptAt,
} from './checkpoint-fixtures';

/** A system's workspace: its files, its home, a figure past its first mark, and an older copy of the home that fails a blocking check. */
const SYSTEMS = [
  {
    id: 'S3',
    files: { 'docs/state/STATE.md': S3_STATE },
    home: 'docs/state/STATE.md',
    pct: 20,
    mark: /past the 15% mark of S3/,
    // Before the handoff named its next action.
    older: S3_STATE.replace(/^- \*\*Now ▶\*\*.*\n/m, ''),
  },
  {
    id: 'S0',
    files: { '.agents.yml': S0_CONFIG, '.agents/session_ledger.md': S0_LEDGER },
    home: '.agents/session_ledger.md',
    pct: 75,
    mark: /past the 70% mark of S0/,
    // Before the ledger held its State.
    older: S0_LEDGER.replace(/\n## State\n[\s\S]*?\n## Open Questions/, '\n## Open Questions'),
  },
] as const;

/** What is done to the home right after the checkpoint: nothing, or a change its times do not show. */
const CHANGES: Record<string, (dir: string, home: string, older: string) => void> = {
  untouched: () => undefined,
  // Within the grace after the marker.
  emptied: (dir, home) => writeFileSync(path.join(dir, home), ''),
  // An older copy with its own (earlier) time kept.
  'cp -p an older copy': (dir, home, older) => {
    const copy = write(workspace({}, 'sl-older-'), 'old.md', older);
    const t = (Date.now() - 3_600_000) / 1000;
    utimesSync(copy, t, t);
    copyFileSync(copy, path.join(dir, home));
    utimesSync(path.join(dir, home), t, t);
  },
  'mv an older copy over it': (dir, home, older) => {
    const copy = write(dir, `${home}.old`, older);
    const t = (Date.now() - 3_600_000) / 1000;
    utimesSync(copy, t, t);
    renameSync(copy, path.join(dir, home));
  },
};

/** A git workspace of `files`, checkpointed for SID just now, then changed by `change`. */
function checkpointedThen(sys: (typeof SYSTEMS)[number], change: string): string {
  const dir = workspace({ ...sys.files });
  gitInit(dir);
  const r = run(['checkpoint', '--root', dir, '--session', SID, '--confirm', CONFIRMED.join(',')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  CHANGES[change](dir, sys.home, sys.older);
  return dir;
}

/** The PreCompact payload for SID with its transcript. */
const payload = (dir: string, transcript: string) =>
  JSON.stringify({
    session_id: SID,
    transcript_path: transcript,
    cwd: dir,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
  });

test('a vouched home emptied within the grace, or replaced by an older copy with its time kept (cp -p, mv): the guard blocks, and the reminder suggests the checkpoint; untouched, both let it be', async () => {
  const wrong: string[] = [];
  for (const sys of SYSTEMS)
    for (const change of Object.keys(CHANGES)) {
      const dir = checkpointedThen(sys, change);
      const transcript = transcriptAt(sys.pct);
      const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome() };
      const guard = await preCompactGuard(payload(dir, transcript), { root: dir, env, log: false });
      const said = (await remind({ root: dir, sessionId: SID, transcript, agent: 'claude', env, checkpointDone })).text;
      const what = `${sys.id} ${change}`;
      if (change === 'untouched') {
        if (!guard.allow) wrong.push(`${what}: the guard blocks (${guard.log})`);
        if (said !== null) wrong.push(`${what}: the reminder suggests a checkpoint the guard takes as done`);
        continue;
      }
      if (guard.allow) wrong.push(`${what}: the guard allows (${guard.log})`);
      if (!sys.mark.test(said ?? '')) wrong.push(`${what}: the reminder stays silent while the guard blocks`);
    }
  assert.deepEqual(wrong, []);
});

test('the installed hook script and the CLI: `hook remind` asks the guard once a mark is crossed while a marker stands there', () => {
  const sys = SYSTEMS[0];
  for (const change of ['emptied', 'cp -p an older copy', 'untouched']) {
    const dir = checkpointedThen(sys, change);
    const transcript = transcriptAt(sys.pct);
    const input = JSON.stringify({
      session_id: SID,
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'go on',
    });
    const env = { ...projectEnv(dir), SESSION_LEDGER_REMIND_DEBUG: '1' };
    // The hook script (the guard's own part) and the `session-ledger` command (the meter's script, the guard
    // from the hook script beside it): each as its own process for the first change, then each one's own
    // entry in this process.
    const own = change === 'emptied';
    for (const argv of [[HOOK_SCRIPT], [path.join(path.dirname(HOOK_SCRIPT), 'cli.js')]]) {
      const r = own
        ? (() => {
            const p = spawnSync(process.execPath, [...argv, 'hook', 'remind'], {
              cwd: dir,
              env,
              input,
              encoding: 'utf8',
            });
            return { code: p.status, stdout: p.stdout, stderr: p.stderr };
          })()
        : argv[0] === HOOK_SCRIPT
          ? hookScript(HOOK_SCRIPT, ['hook', 'remind'], { cwd: dir, env, input })
          : cli(['hook', 'remind'], { cwd: dir, env, input });
      const how = `${change}, ${path.basename(argv[0])}${own ? '' : ' (in this process)'}: ${r.stderr}`;
      assert.equal(r.code, 0, how);
      if (change === 'untouched') {
        assert.equal(r.stdout, '', how);
        assert.match(r.stderr, /the checkpoint covers the session, as the guard decides; bands recorded/, how);
      } else {
        assert.notEqual(r.stdout, '', `silent while the guard blocks: ${how}`);
        assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, sys.mark, how);
      }
      // Covered or said, the band is handled and recorded: the record goes, and the next run crosses the mark again.
      rmSync(path.join(dir, '.claude/session-ledger/remind', `${SID}.json`));
    }
  }
  // A copy of the hook script without the guard (cut short before the core) cannot ask it: no checkpoint keeps it silent.
  const dir = checkpointedThen(sys, 'untouched');
  const full = readFileSync(HOOK_SCRIPT, 'utf8');
  const coreless = write(
    workspace({}, 'sl-coreless-'),
    'session-ledger.cjs',
    full.slice(0, full.indexOf(`\n${HOOK_CORE_MARKER}\n`) + 1),
  );
  const r = spawnSync(process.execPath, [coreless, 'hook', 'remind'], {
    cwd: dir,
    env: projectEnv(dir),
    input: JSON.stringify({ session_id: SID, transcript_path: transcriptAt(sys.pct), cwd: dir }),
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, sys.mark);
});

test('the same states: the status line and the status bar say "checkpoint done" exactly when the guard lets /compact through on the checkpoint', async () => {
  for (const sys of SYSTEMS)
    for (const change of Object.keys(CHANGES)) {
      const dir = checkpointedThen(sys, change);
      const transcript = transcriptAt(sys.pct);
      const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome() };
      const figureAt = new Date().toISOString();
      const guard = await preCompactGuard(payload(dir, transcript), { root: dir, env, log: false });
      const line = await checkpointDone(dir, { sessionId: SID, transcript, env, figureAt });
      // The extension's guard runs on its store's report of the folder.
      const report = await evaluate(dir, { confirmed: CONFIRMED });
      const forBar = await preCompactGuard(payload(dir, transcript), {
        root: dir,
        env,
        log: false,
        report,
        turns: true,
      });
      const bar = checkpointed(guardViewOf(forBar, true, 480), {
        at: figureAt,
      } as Parameters<typeof checkpointed>[1]);
      const what = `${sys.id} ${change}: ${guard.log} / ${forBar.log}`;
      assert.equal(guard.allow, change === 'untouched', what);
      assert.equal(forBar.allow, guard.allow, what);
      assert.deepEqual([line, bar], [guard.allow, guard.allow], what);
    }
});
