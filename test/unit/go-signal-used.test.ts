/**
 * A go-signal that was used says nothing more: once the session its marker is for was compacted or
 * cleared after it was given, what the agent writes next is its next work, and no warning that the
 * go-signal "no longer holds" follows. Told from the session's transcript (a compaction boundary dated
 * after the go-signal) and from the SessionStart hook's records (a `compact` start of that session, or
 * a `clear` start of the next session in the same agent process), never guessed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { goSignalUse, sameAgentProcess } from '../../src/core/checkpoint/used';
import { parentChain, writeSessionRecord } from '../../src/core/hooks/session-record';
import { sessionStartHook } from '../../src/core/hooks/session-start';
import { goSignalOf } from '../../src/extension/pure/go-signal';
import { CORPUS_SESSIONS, workspace } from './helpers';
import {
  CODEX_COMPACTIONS,
  CODEX_THREAD,
  CONFIRMED,
  emptyClaudeHome,
  encoded,
  OTHER_SID,
  placeCodexRollout,
  s3Workspace,
  SID,
  sessionStart,
} from './checkpoint-fixtures';

const MIN = 60_000;

/** The go-signal a checkpoint for `sessionId` gives at `at` (`shared`: the shared marker, signed by it). */
async function given(root: string, home: string, sessionId: string, at: number, shared = false) {
  const o = await checkpoint(root, {
    sessionId,
    shared,
    confirmed: CONFIRMED,
    claudeHome: home,
    codexHome: home,
    env: {},
  });
  assert.equal(o.kind, 'written', o.lines.join('\n'));
  const g = goSignalOf('file:///w', o, null, at);
  assert.ok(g);
  return g;
}

for (const { corpus, claude } of CORPUS_SESSIONS)
  test(`${corpus}: a go-signal is used once its session's transcript holds a compaction boundary dated after it; one dated before it is no use`, async () => {
    const root = s3Workspace();
    const home = emptyClaudeHome();
    const dir = path.join(home, 'projects', encoded(root));
    mkdirSync(dir, { recursive: true });
    // The real transcript, as Claude Code keeps it for this folder: one compaction, at `lastCompaction`.
    writeFileSync(path.join(dir, `${claude.id}.jsonl`), readFileSync(claude.file, 'utf8').replaceAll(claude.cwd, root));
    const boundary = Date.parse(claude.lastCompaction);

    const before = await given(root, home, claude.id, boundary - MIN);
    assert.equal(before.session, claude.id);
    assert.equal(
      await goSignalUse(root, { sessionId: before.session, at: before.at }, { claudeHome: home }),
      'compacted',
    );
    const after = await given(root, home, claude.id, boundary + MIN);
    assert.equal(await goSignalUse(root, { sessionId: after.session, at: after.at }, { claudeHome: home }), null);
    // The shared marker is for the session that signed it.
    const shared = await given(root, home, claude.id, boundary - MIN, true);
    assert.equal(shared.marker, '.claude/.checkpoint-ready');
    assert.equal(shared.session, claude.id);
    assert.equal(
      await goSignalUse(root, { sessionId: shared.session, at: shared.at }, { claudeHome: home }),
      'compacted',
    );
    // Another session's go-signal: this transcript is not its.
    assert.equal(await goSignalUse(root, { sessionId: SID, at: boundary - MIN }, { claudeHome: home }), null);
    // A shared marker that names no session is for none: nothing tells that it was used.
    assert.equal(await goSignalUse(root, { sessionId: null, at: boundary - MIN }, { claudeHome: home }), null);
  });

test("a Codex CLI thread's go-signal is used once its rollout records a compaction (manual or automatic) after it, though the SessionStart hook recorded none", async () => {
  const root = s3Workspace();
  const codexHome = workspace({}, 'sl-codex-');
  // The real rollout of a thread compacted twice: by /compact, then automatically.
  const { file } = placeCodexRollout(root, codexHome);
  const [manual, auto] = CODEX_COMPACTIONS.map((t) => Date.parse(t));
  const opts = { claudeHome: emptyClaudeHome(), codexHome };
  const g = await given(root, emptyClaudeHome(), CODEX_THREAD, manual - MIN);
  assert.equal(g.marker, `.claude/.checkpoint-ready.${CODEX_THREAD}`);
  const use = (at: number, o: { claudeHome?: string; codexHome?: string } = opts) =>
    goSignalUse(root, { sessionId: CODEX_THREAD, at }, o);
  assert.equal(
    await goSignalUse(root, { sessionId: g.session, at: g.at }, opts),
    'compacted',
    'by the /compact after it',
  );
  assert.equal(await use(manual + 1), 'compacted', 'by the automatic compaction after it');
  assert.equal(await use(auto + MIN), null, 'both compactions came before it');
  // Another thread's go-signal: this rollout is not its.
  assert.equal(await goSignalUse(root, { sessionId: OTHER_SID, at: manual - MIN }, opts), null);

  // The thread's start as Codex's SessionStart hook records it (source startup, its rollout): no
  // compact start recorded since (the hook runs it with the next turn, or not at all), yet the rollout tells.
  await sessionStartHook(
    JSON.stringify({
      session_id: CODEX_THREAD,
      transcript_path: file,
      cwd: root,
      hook_event_name: 'SessionStart',
      source: 'startup',
      model: 'gpt-5.1',
    }),
    { root, now: manual - 60 * MIN, log: false, agent: 'codex' },
  );
  assert.equal(await use(manual - MIN), 'compacted');
  // The rollout the record names is read wherever it is (a Codex home the caller was not told of).
  assert.equal(
    await use(manual - MIN, { claudeHome: emptyClaudeHome(), codexHome: workspace({}, 'sl-codex-') }),
    'compacted',
  );
  assert.equal(await use(auto + MIN), null);
});

test("a go-signal is used once the SessionStart hook recorded its session's compaction, or the next session after /clear in the same agent process, after it", async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  const opts = { claudeHome: home };
  const start = (sessionId: string, source: string, now: number) =>
    sessionStartHook(sessionStart(root, source, { sessionId }), { root, now, log: false });
  const at = Date.parse('2026-05-04T10:00:00Z');
  await start(SID, 'startup', at - 60 * MIN);
  const g = await given(root, home, SID, at);
  assert.equal(g.marker, `.claude/.checkpoint-ready.${SID}`);
  const use = () => goSignalUse(root, { sessionId: g.session, at: g.at }, opts);
  assert.equal(await use(), null, 'started before it, nothing since');

  // Resumed after it: the whole context is back, the go-signal not used.
  await start(SID, 'resume', at + MIN);
  assert.equal(await use(), null);
  // Another session started in another terminal (its own agent process) after it: it runs beside it.
  // (Recorded as the hook records it, with the chain of processes of an agent in another terminal.)
  const elsewhere = (source: string, now: number) =>
    writeSessionRecord(root, {
      session_id: OTHER_SID,
      transcript_path: null,
      source,
      cwd: root,
      at: new Date(now).toISOString(),
      pids: [process.pid + 100_001, process.pid + 100_002, process.pid + 100_003],
    });
  await elsewhere('clear', at + 2 * MIN);
  assert.equal(await use(), null);
  // Its compaction is its own.
  await elsewhere('compact', at + 3 * MIN);
  assert.equal(await use(), null);

  // The session compacted after it (SessionStart with source compact, the same id).
  await start(SID, 'compact', at + 4 * MIN);
  assert.equal(await use(), 'compacted');
  // Recorded before it: that compaction came first.
  assert.equal(await goSignalUse(root, { sessionId: g.session, at: at + 5 * MIN }, opts), null);

  // /clear: the next session starts in the same agent process (the same chain of processes: here, this one's).
  assert.ok(parentChain().pids.length >= 2, 'the chain of parent processes is read (Linux: /proc)');
  const root2 = s3Workspace();
  const start2 = (sessionId: string, source: string, now: number) =>
    sessionStartHook(sessionStart(root2, source, { sessionId }), { root: root2, now, log: false });
  await start2(SID, 'startup', at - 60 * MIN);
  const g2 = await given(root2, home, SID, at);
  await start2(OTHER_SID, 'clear', at - MIN);
  assert.equal(await goSignalUse(root2, { sessionId: g2.session, at }, opts), null, 'cleared before it');
  // Another session resumed in the same process (`/resume`) leaves this one as it was.
  await start2('7e1d2c3b-4a59-4687-9a0b-c1d2e3f4a5b6', 'resume', at + MIN);
  assert.equal(await goSignalUse(root2, { sessionId: g2.session, at }, opts), null, 'another session resumed');
  await start2(OTHER_SID, 'clear', at + 2 * MIN);
  assert.equal(await goSignalUse(root2, { sessionId: g2.session, at }, opts), 'cleared');
});

test('two session records come from one agent process when their chains of parent processes agree from the agent on: above the hook’s own shell, or whole when the shell exec’d the hook; never when a record does not say which', () => {
  const sh = (pids: number[]) => ({ pids, hookShell: true });
  const exec = (pids: number[]) => ({ pids, hookShell: false });
  assert.equal(sameAgentProcess(sh([1001, 2002, 3003]), sh([1999, 2002, 3003])), true);
  assert.equal(sameAgentProcess(sh([1001, 2002, 3003]), sh([1001, 2999, 3003])), false);
  assert.equal(sameAgentProcess(sh([1001, 2002, 3003]), sh([1001, 2002])), false);
  // The nearest parent is the agent itself (bash exec'd the hook): two agents of one parent differ there.
  assert.equal(sameAgentProcess(exec([2002, 3003]), exec([2002, 3003])), true);
  assert.equal(sameAgentProcess(exec([2002, 3003]), exec([2999, 3003])), false);
  assert.equal(sameAgentProcess(sh([1001, 2002, 3003]), exec([2002, 3003])), true);
  assert.equal(sameAgentProcess(sh([1001, 2002, 3003]), exec([1001, 2002, 3003])), false);
  // A record that does not say (not Linux, or written before it was kept) compares with none.
  assert.equal(sameAgentProcess({ pids: [1001, 2002, 3003] }, { pids: [1999, 2002, 3003] }), false);
  assert.equal(sameAgentProcess(sh([1001, 2002, 3003]), { pids: [1999, 2002, 3003] }), false);
  // Only the hook's own shell (where no further parent can be read): nothing to compare.
  assert.equal(sameAgentProcess(sh([1001]), sh([1001])), false);
  assert.equal(sameAgentProcess(sh([]), sh([])), false);
  assert.equal(sameAgentProcess(exec([]), exec([])), false);
});
