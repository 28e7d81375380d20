/**
 * The tool's own records are never read through a link, as they are never written through one: a
 * symbolic link at a record, or at a folder between the root and it (`.claude`, `.claude/session-ledger`),
 * means no record, as if it were absent. Each case starts from the hostile repository: a link from the
 * tool's folder to a folder the repository fills with a record of its choosing, which the same record as
 * a plain file would make count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { feedPath, isoTime } from '../../src/core/context/feed';
import { encodeClaudeProjectDir } from '../../src/core/context';
import { markerRel } from '../../src/core/checkpoint/marker';
import { REMIND_DIR_REL } from '../../src/core/hooks/remind';
import {
  readSessionRecord,
  readSessionRecordFor,
  SESSION_RECORD_REL,
  SESSION_RECORDS_DIR_REL,
} from '../../src/core/hooks/session-record';
import { installChanges } from '../../src/core/hooks/install-edits';
import { INSTALL_RECORD_REL, SCRIPT_REL } from '../../src/core/hooks/files';
import { sha256 } from '../../src/core/files/fsread';
import { cli, cliProcess, fixtureCopy, gitInit, HOOK_SCRIPT, STATUSLINE_SCRIPT, workspace, write } from './helpers';
import { asst, lines, ofFolder } from './context-records';
import { emptyClaudeHome, promptSubmit, S3_STATE, SID, turnBegan } from './checkpoint-fixtures';

/** `.claude/session-ledger` of `root` moved out to a folder elsewhere and linked back: what the repository plants. */
function linkOut(root: string): string {
  const own = path.join(root, '.claude/session-ledger');
  const elsewhere = path.join(workspace({}, 'sl-planted-'), 'session-ledger');
  renameSync(own, elsewhere);
  symlinkSync(elsewhere, own);
  return elsewhere;
}

test("the status line never reads its record back through a linked .claude/session-ledger: a planted record of the live figure does not make a checkpoint's turn of it", () => {
  const root = fixtureCopy('s3/good');
  mkdirSync(path.join(root, '.claude'));
  gitInit(root);
  const turn = turnBegan(SID);
  const cp = cli(['checkpoint', '--root', root, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(cp.code, 0, cp.stdout + cp.stderr);
  // The checkpoint was five minutes ago: a figure first reported now is past its turn.
  const marker = path.join(root, markerRel(SID));
  const at = Date.now() - 5 * 60_000;
  utimesSync(marker, at / 1000, at / 1000);
  const input = {
    session_id: SID,
    transcript_path: turn,
    cwd: root,
    model: { id: 'claude-opus-4-6' },
    workspace: { current_dir: root, project_dir: root },
    context_window: {
      context_window_size: 200000,
      used_percentage: 55,
      current_usage: { cache_read_input_tokens: 110000 },
    },
  };
  // A record of this very figure, dated in the checkpoint's turn.
  const planted = `${JSON.stringify({ version: 1, receivedAt: isoTime(at + 10_000), sessionId: SID, input })}\n`;
  const line = () => {
    const r = spawnSync(process.execPath, [STATUSLINE_SCRIPT, 'statusline'], {
      cwd: root,
      input: JSON.stringify(input),
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: workspace({}, 'sl-home-'), CLAUDE_CONFIG_DIR: emptyClaudeHome() },
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  write(root, path.relative(root, feedPath(root, SID)), planted);
  // As a plain file it is the relay's own record: the figure was reported in the checkpoint's turn.
  assert.equal(line(), 'ctx 55% (110k/200k) · checkpoint done');
  const elsewhere = linkOut(root);
  assert.equal(line(), 'ctx 55% (110k/200k) · checkpoint now', 'read through the link, the record is none');
  assert.equal(
    readFileSync(path.join(elsewhere, path.basename(feedPath(root, SID))), 'utf8'),
    planted,
    'and nothing is written there',
  );
});

test("`context` never takes Claude Code's figure from a record reached through a linked .claude/session-ledger", () => {
  const root = workspace({ '.claude/settings.json': '{}' });
  const home = workspace({}, 'sl-claude-');
  write(
    path.join(home, 'projects', encodeClaudeProjectDir(root)),
    `${SID}.jsonl`,
    ofFolder(
      lines(asst({ read: 30000, input: 0, session: SID, at: new Date(Date.now() - 60_000).toISOString() })),
      root,
    ),
  );
  const input = { session_id: SID, context_window: { context_window_size: 200000, used_percentage: 90 } };
  write(
    root,
    path.relative(root, feedPath(root, SID)),
    `${JSON.stringify({ version: 1, receivedAt: isoTime(Date.now()), sessionId: SID, input })}\n`,
  );
  const context = () =>
    JSON.parse(cliProcess(['context', '--json', '--root', root], { env: { CLAUDE_CONFIG_DIR: home } }).stdout);
  assert.equal(context().percent, 90, "a plain record: Claude Code's newer figure");
  linkOut(root);
  const j = context();
  assert.equal(j.source, 'transcript');
  assert.equal(j.percent, 15);
});

test('the reminder never reads its record through a link: the planted bands keep nothing quiet, and it says why it stays silent (its record cannot be written there)', () => {
  const root = workspace({ 'docs/state/STATE.md': S3_STATE, '.claude/settings.json': '{}' });
  const transcript = path.join(workspace({}, 'sl-claude-'), `${SID}.jsonl`);
  writeFileSync(
    transcript,
    `${JSON.stringify({ isSidechain: false, type: 'assistant', sessionId: SID, message: { model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 100_000 } }, timestamp: new Date().toISOString() })}\n`,
  );
  // Bands past both of S3's marks, as if both were said already.
  write(
    root,
    `${REMIND_DIR_REL}/${SID}.json`,
    `${JSON.stringify({ version: 1, sessionId: SID, bands: { S3: 2 }, compaction: null })}\n`,
  );
  const log = () => {
    const r = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'remind'], {
      cwd: root,
      input: promptSubmit(root, transcript),
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: workspace({}, 'sl-home-'),
        CLAUDE_CONFIG_DIR: emptyClaudeHome(),
        CLAUDE_PROJECT_DIR: root,
        SESSION_LEDGER_REMIND_DEBUG: '1',
      },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    return r.stderr;
  };
  assert.match(log(), /silent \(50%: no band crossed\)/, 'a plain record: both bands were said');
  linkOut(root);
  assert.match(log(), /silent \(50%: the session's reminder record cannot be written\)/);
});

test("the session records, the newest and each session's, are none when reached through a link", async () => {
  const root = workspace({});
  const rec = `${JSON.stringify({ session_id: SID, transcript_path: '/t.jsonl', source: 'startup', cwd: root, at: new Date().toISOString() })}\n`;
  write(root, SESSION_RECORD_REL, rec);
  write(root, `${SESSION_RECORDS_DIR_REL}/${SID}.json`, rec);
  assert.equal((await readSessionRecord(root))?.session_id, SID);
  assert.equal((await readSessionRecordFor(root, SID))?.session_id, SID);
  linkOut(root);
  assert.equal(await readSessionRecord(root), null);
  assert.equal(await readSessionRecordFor(root, SID), null);
  // A link at the record itself, in a folder of the tool's own.
  const other = workspace({});
  const planted = write(workspace({}), 'record.json', rec);
  mkdirSync(path.join(other, SESSION_RECORDS_DIR_REL), { recursive: true });
  symlinkSync(planted, path.join(other, SESSION_RECORD_REL));
  symlinkSync(planted, path.join(other, SESSION_RECORDS_DIR_REL, `${SID}.json`));
  assert.equal(await readSessionRecord(other), null);
  assert.equal(await readSessionRecordFor(other, SID), null);
});

test("the install record is none when reached through a link: the hook script it names is the session's work again", async () => {
  const root = workspace({ [SCRIPT_REL]: '// a script\n' });
  const script = readFileSync(path.join(root, SCRIPT_REL));
  write(root, INSTALL_RECORD_REL, `${JSON.stringify({ script: sha256(script) })}\n`);
  assert.equal((await installChanges(root))(SCRIPT_REL, null), true, "a plain record: install's own script");
  linkOut(root);
  assert.equal((await installChanges(root))(SCRIPT_REL, null), false);
});
