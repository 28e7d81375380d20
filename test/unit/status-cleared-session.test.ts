/**
 * The status bar after /clear: the session /clear replaced is not the one it shows. The item follows the
 * session the core's one rule says runs (`followedSession` over `liveSessions`, the rule a bare checkpoint
 * takes its session by): the one /clear started, also before it wrote anything (then `--`, never the
 * replaced session's figure). Told only from the SessionStart hook's own records, written here by the real
 * hook through the CLI; without them, or with a /clear recorded in another agent process, it follows the
 * folder's newest session as before. What the extension runs, without VS Code: the core's choice, the
 * core's follower for the figure, and the pure rendering of the item.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { followedSession } from '../../src/core/checkpoint/live';
import { ContextFollower, findSessions, levelOf, thresholdProfile } from '../../src/core/context';
import { noFigureView, statusView } from '../../src/extension/pure/status-text';
import { CONFIRMED, encoded, transcript } from './checkpoint-fixtures';
import { A, B, clearedBeforeTyping, clearedWorkspace } from './cleared-fixtures';
import { asst, ofFolder } from './context-records';

const t = (m: string, ...args: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));

/** An answer of the agent in session `sid`'s transcript: `percent` of a 200,000-token window used. */
function answered(home: string, root: string, sid: string, percent: number): void {
  const line = asst({ session: sid, read: percent * 2000 - 1, at: new Date().toISOString() });
  appendFileSync(path.join(home, 'projects', encoded(root), `${sid}.jsonl`), `${ofFolder(line, root)}\n`);
}

/**
 * What the status item shows for the folder, as the extension's meter takes it: the folder's newest
 * session, the core's choice over it, the figure its follower reads, the item rendered (S3's marks).
 */
async function statusItem(root: string, home: string) {
  const opts = { claudeHome: home };
  const newest = (await findSessions(root, opts))[0] ?? null;
  const { ref, live } = await followedSession(root, newest, opts);
  assert.ok(ref, 'a session is followed');
  const usage = await new ContextFollower(ref, { root, claudeHome: home }).read();
  const profile = thresholdProfile(['S3']);
  const view = usage ? statusView(t, usage, profile, levelOf(usage.percent, profile)) : noFigureView(t, ref, profile);
  return { session: ref.sessionId, live: live.live.map((s) => s.sessionId).sort(), view };
}

/** The session a bare checkpoint of the folder takes (the core's own decision, nothing written checked here). */
async function checkpointSession(root: string, home: string): Promise<string | null> {
  const r = await checkpoint(root, { confirmed: CONFIRMED, claudeHome: home, codexHome: home, env: {} });
  return r.sessionId;
}

test('after /clear in the same agent process, the status bar follows the new session, not the replaced one’s 80 %, and the checkpoint takes the same one', async () => {
  const { root, home } = await clearedWorkspace(true);
  // A's last answer filled 80 % of its window (past S3's urgent mark); A's transcript wrote last.
  answered(home, root, A, 80);
  const item = await statusItem(root, home);
  assert.equal(item.session, B);
  assert.deepEqual(item.live, [B]);
  // B has no answer yet: no figure, no colour, nothing of A's.
  assert.equal(item.view.text, '$(pulse) --');
  assert.equal(item.view.background, undefined);
  assert.ok(item.view.tooltip.includes(`\`${B}\``), item.view.tooltip);
  assert.doesNotMatch(`${item.view.label}\n${item.view.tooltip}`, new RegExp(`80|${A}`));
  // One decision: a bare checkpoint is for the session the item shows.
  assert.equal(await checkpointSession(root, home), B);
  // B's first answer: its own figure.
  answered(home, root, B, 5);
  const next = await statusItem(root, home);
  assert.equal(next.session, B);
  assert.equal(next.view.text, '$(pulse) 5%');

  // A /clear recorded in another agent process proves nothing: the folder's newest session (A) as before.
  const other = await clearedWorkspace(false);
  answered(other.home, other.root, A, 80);
  const kept = await statusItem(other.root, other.home);
  assert.equal(kept.session, A);
  assert.deepEqual(kept.live, [A, B].sort());
  assert.equal(kept.view.text, '$(error) 80%');
  assert.equal(kept.view.background, 'statusBarItem.errorBackground');
});

test('right after /clear, before the new session wrote anything, the status bar shows it with no figure yet (--), not the replaced session’s figure', async () => {
  const { root, home } = await clearedBeforeTyping(true);
  answered(home, root, A, 80);
  const item = await statusItem(root, home);
  assert.equal(item.session, B, 'the session the hook recorded /clear starting');
  assert.deepEqual(item.live, [B]);
  assert.equal(item.view.text, '$(pulse) --');
  assert.equal(item.view.background, undefined);
  assert.match(
    item.view.label,
    /^Session Ledger: context not known yet: the agent has reported no figure in this session\.$/,
  );
  assert.equal(await checkpointSession(root, home), B);

  // Without the hook's records nothing changes: the newest transcript's session and its figure.
  rmSync(path.join(root, '.claude', 'session-ledger'), { recursive: true, force: true });
  transcript(home, root, B);
  answered(home, root, A, 80);
  const plain = await statusItem(root, home);
  assert.equal(plain.session, A);
  assert.equal(plain.view.text, '$(error) 80%');
});
