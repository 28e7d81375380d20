/**
 * A refusal that asks for ticks leads to the boxes of the session it refused: with the checklist
 * showing session B's ticks (the session the status bar follows) and session A picked in Checkpoint
 * now, the refusal's "tick them in the checklist" is made true by switching the checklist to A's ticks
 * (said in the refusal and at the top of the page); a tick there is saved for A and A's checkpoint then
 * goes through. Opening the checklist again from the tree follows the status bar's session.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import type { WorkspaceReport } from '../../src/core/model/model';
import { evaluate } from '../../src/core/report/evaluate';
import { checklistState } from '../../src/extension/pure/checklist-model';
import {
  pinnedName,
  switchedSentence,
  ticksAfter,
  ticksNote,
  ticksSession,
  type PinnedTicks,
} from '../../src/extension/pure/checklist-ticks';
import { checkpointFlow, type CheckpointPorts } from '../../src/extension/pure/checkpoint-flow';
import { outcomeMessage } from '../../src/extension/pure/checkpoint-text';
import { applyTicks, homeHash, tickKey } from '../../src/extension/pure/ticks';
import type { ChecklistStrings } from '../../src/protocol/checklist';
import { emptyClaudeHome, twoSessions } from './checkpoint-fixtures';
import { enT } from './helpers';

const t = enT;

/** The extension's tick store: ticks per session and per version of each system's home file. */
function tickStore() {
  const table = new Map<string, Set<string>>();
  return {
    set(sessionId: string | null, report: WorkspaceReport, system: string, checkId: string) {
      const s = report.systems.find((x) => x.id === system);
      assert.ok(s);
      const key = tickKey(sessionId, s.id, homeHash(s));
      table.set(key, new Set([...(table.get(key) ?? []), checkId]));
    },
    withTicksOf: (report: WorkspaceReport, sessionId: string | null) =>
      applyTicks(report, (s) => table.get(tickKey(sessionId, s.id, homeHash(s))) ?? new Set()),
  };
}

const strings = { status: {} } as unknown as ChecklistStrings;

test("the checklist shows B's ticks and A is picked in Checkpoint now: the refusal switches the checklist to A's boxes and says so; ticked there, A's checkpoint goes through", async () => {
  const { root, home, A, B } = twoSessions();
  const raw = await evaluate(root);
  const ticks = tickStore();
  // Every manual item ticked in the checklist for B, the session the status bar follows.
  for (const id of ['feedback-stored', 'last-request']) ticks.set(B, raw, 'S3', id);
  const followed = B;
  const decide: CheckpointPorts['decide'] = (report, sessionId, reportFor) =>
    checkpoint(root, { report, reportFor, sessionId, claudeHome: home, codexHome: emptyClaudeHome(), env: {} });
  const flow = await checkpointFlow({
    scan: async () => raw,
    ticked: ticks.withTicksOf,
    decide,
    pickSession: async () => A,
    rescan: () => undefined,
  });
  assert.equal(flow.kind, 'decided');
  const o = flow.kind === 'decided' ? flow.outcome : undefined;
  assert.ok(o);
  assert.deepEqual(
    o.refusals.map((r) => r.code),
    ['manual-unconfirmed'],
  );
  assert.match(outcomeMessage(o, t).text, /Tick them in the checklist when they are true\./);
  // The refusal is about A's ticks: the checklist is switched to them, and the refusal says it.
  assert.equal(o.ticksFor, A);
  const after = ticksAfter(o, followed);
  assert.deepEqual(after, { kind: 'pin', sessionId: A });
  const name = pinnedName(t, A, [], flow.kind === 'decided' ? flow.session?.agent : undefined);
  assert.equal(name, 'Claude Code session 0b5c4a7e…');
  assert.equal(switchedSentence(t, after, name), 'The checklist now shows the ticks of Claude Code session 0b5c4a7e….');
  const pinned: PinnedTicks = { sessionId: A, name };
  // The page: A's boxes, open; the note says whose they are; a tick is saved for A.
  const shownFor = ticksSession(pinned, followed);
  assert.equal(shownFor, A);
  const page = checklistState(
    ticks.withTicksOf(raw, shownFor),
    { name: 'w', uri: 'file:///w' },
    strings,
    {
      busy: false,
      trusted: true,
      ticksFor: shownFor,
      session: ticksNote(t, pinned, followed, null),
    },
    t,
  );
  assert.equal(page.ticksFor, A);
  assert.equal(page.manualOpen, 2, "A's two items are open on the page");
  assert.match(
    page.session ?? '',
    /^These boxes are the ticks of Claude Code session 0b5c4a7e…, the session Checkpoint now/,
  );
  for (const id of ['feedback-stored', 'last-request']) ticks.set(page.ticksFor, raw, 'S3', id);
  // The write button checkpoints the session the boxes are for.
  const again = await decide(raw, A, (id) => ticks.withTicksOf(raw, id));
  assert.equal(again.kind, 'written', again.lines.join('\n'));
  assert.equal(again.sessionId, A);
  // Opened again from the tree: the status bar's session, no note.
  assert.equal(ticksSession(undefined, followed), B);
  assert.equal(ticksNote(t, undefined, followed, null), null);
});

test("which boxes a checkpoint outcome leaves: refused on manual items for the followed session, follow it; for none known, the shared marker's; refused on something else or written, as they were", () => {
  const manual = { code: 'manual-unconfirmed' } as never;
  const blocking = { code: 'blocking-checks' } as never;
  assert.deepEqual(ticksAfter({ refusals: [manual], ticksFor: 'b' }, 'b'), { kind: 'follow' });
  assert.deepEqual(ticksAfter({ refusals: [blocking, manual], ticksFor: 'a' }, 'b'), { kind: 'pin', sessionId: 'a' });
  assert.deepEqual(ticksAfter({ refusals: [manual], ticksFor: null }, 'b'), { kind: 'pin', sessionId: null });
  assert.deepEqual(ticksAfter({ refusals: [blocking], ticksFor: 'a' }, 'b'), { kind: 'keep' });
  // Ambiguous, no session picked: the core decided no session's items.
  assert.deepEqual(ticksAfter({ refusals: [manual] }, 'b'), { kind: 'keep' });
  assert.deepEqual(ticksAfter({ refusals: [], ticksFor: 'a' }, 'b'), { kind: 'keep' });
  assert.equal(pinnedName(t, null, []), 'no known agent session (the shared marker)');
  assert.equal(
    pinnedName(t, 'abcdef0123', [{ agent: 'codex', sessionId: 'abcdef0123' }]),
    'Codex CLI session abcdef01…',
  );
  assert.equal(pinnedName(t, 'abcdef0123', []), 'agent session abcdef01…');
  // Pinned to the session the status bar now follows itself: no note of another session.
  assert.equal(ticksNote(t, { sessionId: 'b', name: 'B' }, 'b', 'live line'), 'live line');
});
