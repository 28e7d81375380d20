/**
 * "Checkpoint now"'s core path (src/extension/pure/checkpoint-flow.ts, what the command runs with
 * its store and picker): one click reads the folder once, decides once with the core's
 * `checkpoint` on that very report (no second evaluation inside), writes the marker once and
 * rescans once. Real workspace, real git, real transcripts; the ports only count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpoint, type CheckpointOutcome } from '../../src/core/checkpoint/checkpoint';
import type { RecentSession } from '../../src/core/context/sessions';
import type { WorkspaceReport } from '../../src/core/model/model';
import { evaluate, evaluationCount } from '../../src/core/report/evaluate';
import { checkpointFlow, type CheckpointPorts } from '../../src/extension/pure/checkpoint-flow';
import { applyTicks, homeHash, tickKey } from '../../src/extension/pure/ticks';
import { workspace } from './helpers';
import {
  age,
  CODEX_ID,
  CONFIRMED,
  emptyClaudeHome,
  markers,
  OTHER_SID,
  rollout,
  s3Workspace,
  SID,
  transcript,
  twoSessions,
} from './checkpoint-fixtures';

interface Counts {
  evaluations: number;
  decisions: number;
  writes: number;
  rescans: number;
  picks: number;
  /** Evaluations the core ran inside the decisions (must stay 0: the decision takes the report it is given). */
  inside: number;
  reports: WorkspaceReport[];
  outcomes: CheckpointOutcome[];
}

function ports(
  root: string,
  claudeHome: string,
  pick?: (s: readonly RecentSession[]) => string | undefined,
  codexHome = emptyClaudeHome(),
): { p: CheckpointPorts; n: Counts } {
  const n: Counts = {
    evaluations: 0,
    decisions: 0,
    writes: 0,
    rescans: 0,
    picks: 0,
    inside: 0,
    reports: [],
    outcomes: [],
  };
  const p: CheckpointPorts = {
    async scan() {
      n.evaluations++;
      const r = await evaluate(root, { confirmed: CONFIRMED });
      n.reports.push(r);
      return r;
    },
    // The report's own confirmed items (the CLI's --confirm) hold for every session, unless a test keeps ticks per session.
    ticked: (report) => report,
    async decide(report, sessionId, reportFor) {
      n.decisions++;
      const before = evaluationCount();
      const o = await checkpoint(root, {
        report,
        reportFor,
        sessionId,
        claudeHome,
        codexHome,
        env: {},
      });
      n.inside += evaluationCount() - before;
      if (o.ok) n.writes++;
      n.outcomes.push(o);
      return o;
    },
    async pickSession(sessions) {
      n.picks++;
      return pick?.(sessions);
    },
    rescan() {
      n.rescans++;
    },
  };
  return { p, n };
}

test('one click: one evaluation, one decision on that report, one write, one rescan', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  transcript(home, root, SID);
  const { p, n } = ports(root, home);
  const r = await checkpointFlow(p);
  assert.equal(r.kind, 'decided');
  assert.deepEqual([n.evaluations, n.decisions, n.writes, n.rescans, n.picks, n.inside], [1, 1, 1, 1, 0, 0]);
  // The counter the extension's command reports (its integration test asserts one evaluation per click) counts this one.
  const before = evaluationCount();
  await checkpoint(root, { sessionId: SID, claudeHome: home, codexHome: emptyClaudeHome(), env: {} });
  assert.equal(evaluationCount() - before, 1, 'a decision without a report evaluates, and is counted');
  // The decision used the report the caller held: had it evaluated again, the outcome would carry another object.
  assert.equal(n.outcomes[0].report, n.reports[0]);
  assert.equal(n.outcomes[0].kind, 'written');
  assert.deepEqual(markers(root), [`.checkpoint-ready.${SID}`]);
  assert.equal(r.kind === 'decided' && r.session, undefined, 'one session live: nothing to name');
});

test('refused (manual items open in the report): one evaluation, one decision, nothing written, no rescan', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  const { p, n } = ports(root, home);
  p.scan = async () => {
    n.evaluations++;
    return evaluate(root);
  };
  const r = await checkpointFlow(p);
  assert.equal(r.kind, 'decided');
  assert.equal(r.kind === 'decided' && r.outcome.refusals.map((x) => x.code).join(), 'manual-unconfirmed');
  assert.deepEqual([n.evaluations, n.decisions, n.writes, n.rescans], [1, 1, 0, 0]);
  assert.deepEqual(markers(root), []);
});

test('two sessions wrote recently: the user picks one and the same report is decided for it (still one evaluation, one write)', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  transcript(home, root, SID);
  age(transcript(home, root, OTHER_SID), 60_000);
  const { p, n } = ports(root, home, (s) => s.find((x) => x.sessionId === SID)?.sessionId);
  const r = await checkpointFlow(p);
  assert.equal(r.kind, 'decided');
  assert.deepEqual([n.evaluations, n.decisions, n.writes, n.rescans, n.picks], [1, 2, 1, 1, 1]);
  assert.equal(n.outcomes[0].refusals[0].code, 'ambiguous-session');
  assert.equal(n.outcomes[1].report, n.reports[0], 'the second decision is on the same report');
  assert.deepEqual(markers(root), [`.checkpoint-ready.${SID}`]);
  // The outcome is named for the session picked (client and id), as the notification says it.
  const named = r.kind === 'decided' ? r.session : undefined;
  assert.deepEqual([named?.agent, named?.sessionId], ['claude', SID]);
});

test('a Claude Code session and a newer Codex CLI thread wrote recently: the user is asked which, each with its client, and the marker is the one picked, not the newer', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  const codex = workspace({}, 'sl-codex-');
  age(transcript(home, root, SID), 2 * 60_000);
  rollout(codex, root);
  let asked: Array<[string, string]> = [];
  const pick = (s: readonly RecentSession[]) => {
    asked = s.map((x) => [x.agent, x.sessionId]);
    return SID;
  };
  const { p, n } = ports(root, home, pick, codex);
  const r = await checkpointFlow(p);
  assert.deepEqual(asked, [
    ['codex', CODEX_ID],
    ['claude', SID],
  ]);
  assert.deepEqual([n.evaluations, n.decisions, n.writes, n.rescans, n.picks], [1, 2, 1, 1, 1]);
  assert.equal(n.outcomes[0].refusals[0].code, 'ambiguous-session');
  assert.deepEqual(markers(root), [`.checkpoint-ready.${SID}`], "the Claude Code session's marker, not the thread's");
  const named = r.kind === 'decided' ? r.session : undefined;
  assert.deepEqual([named?.agent, named?.sessionId], ['claude', SID]);
});

test('two sessions, the user cancels the question: nothing written, no rescan', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  transcript(home, root, SID);
  transcript(home, root, OTHER_SID);
  const { p, n } = ports(root, home, () => undefined);
  const r = await checkpointFlow(p);
  assert.equal(r.kind, 'cancelled');
  assert.deepEqual([n.evaluations, n.decisions, n.writes, n.rescans, n.picks], [1, 1, 0, 0, 1]);
  assert.deepEqual(markers(root), []);
});

test('nothing detected: the core refuses with its reason; no starter guessed here', async () => {
  const root = workspace({ 'README.md': '# x\n' });
  const { p, n } = ports(root, emptyClaudeHome());
  const r = await checkpointFlow(p);
  assert.equal(r.kind === 'decided' && r.outcome.refusals[0].code, 'nothing-detected');
  assert.equal(r.kind === 'decided' && r.outcome.refusals[0].said.id, 'No agent state file detected: looked for {0}.');
  assert.deepEqual([n.evaluations, n.decisions, n.writes, n.rescans], [1, 1, 0, 0]);
});

/**
 * Manual ticks kept per agent session and per version of each system's home file, as the extension's
 * tick store keeps them: `tick(session)` ticks every manual item of `report` for that session.
 */
function tickTable(): {
  tick: (report: WorkspaceReport, sessionId: string | null) => void;
  ticked: CheckpointPorts['ticked'];
} {
  const table = new Map<string, Set<string>>();
  return {
    tick(report, sessionId) {
      for (const s of report.systems)
        table.set(
          tickKey(sessionId, s.id, homeHash(s)),
          new Set(s.checks.filter((c) => c.severity === 'manual').map((c) => c.id)),
        );
    },
    ticked: (report, sessionId) =>
      applyTicks(report, (s) => table.get(tickKey(sessionId, s.id, homeHash(s))) ?? new Set()),
  };
}

/**
 * The ports with the manual ticks of `ticks`, the folder read as the views show it: with the ticks given for
 * `shown` (the session the views follow), or, undefined, as read, no session's ticks in it.
 */
function tickedPorts(
  root: string,
  home: string,
  ticks: ReturnType<typeof tickTable>,
  shown: string | undefined,
  pick?: (s: readonly RecentSession[]) => string | undefined,
): { p: CheckpointPorts; n: Counts } {
  const x = ports(root, home, pick);
  x.p.ticked = ticks.ticked;
  x.p.scan = async () => (shown === undefined ? evaluate(root) : ticks.ticked(await evaluate(root), shown));
  return x;
}

test('ticks given for the session the views follow (B) do not vouch for the session the user picks (A): refused for A, nothing written; written for B', async () => {
  const { root, home, A, B } = twoSessions();
  const ticks = tickTable();
  ticks.tick(await evaluate(root), B);
  // The report as the views show it: every manual item ticked, for B (the session the status bar follows).
  const pickA = tickedPorts(root, home, ticks, B, () => A);
  const r = await checkpointFlow(pickA.p);
  assert.equal(r.kind, 'decided');
  const o = pickA.n.outcomes.at(-1)!;
  assert.equal(o.kind, 'refused', 'no go-signal for A: none of its manual items was ticked for it');
  assert.deepEqual(
    o.refusals.map((x) => x.code),
    ['manual-unconfirmed'],
  );
  assert.deepEqual(
    o.refusals[0].checks.map((c) => `${c.system} ${c.id}`),
    ['S3 feedback-stored', 'S3 last-request'],
  );
  assert.deepEqual(markers(root), [], `no .checkpoint-ready.${A}`);
  assert.deepEqual([pickA.n.picks, pickA.n.writes, pickA.n.rescans], [1, 0, 0]);
  assert.equal(r.kind === 'decided' && r.session?.sessionId, A, 'the refusal names the session it speaks about');

  const pickB = tickedPorts(root, home, ticks, B, () => B);
  await checkpointFlow(pickB.p);
  assert.equal(pickB.n.outcomes.at(-1)!.kind, 'written');
  assert.deepEqual(markers(root), [`.checkpoint-ready.${B}`], "B's ticks vouch for B's marker only");
});

test('no session named: the ticks of the session the core takes count, not those of another session the views followed', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  transcript(home, root, SID);
  const ticks = tickTable();
  ticks.tick(await evaluate(root), OTHER_SID);
  const other = tickedPorts(root, home, ticks, OTHER_SID);
  await checkpointFlow(other.p);
  const o = other.n.outcomes[0];
  assert.deepEqual([o.kind, o.refusals.map((x) => x.code).join()], ['refused', 'manual-unconfirmed']);
  assert.deepEqual(markers(root), []);
  ticks.tick(await evaluate(root), SID);
  const own = tickedPorts(root, home, ticks, undefined);
  await checkpointFlow(own.p);
  assert.equal(own.n.outcomes[0].kind, 'written');
  assert.equal(own.n.outcomes[0].sessionId, SID);
  assert.deepEqual(markers(root), [`.checkpoint-ready.${SID}`]);
});

test('two sessions wrote recently and only the picked one has its items ticked: the question comes first, then its ticks decide', async () => {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  transcript(home, root, SID);
  age(transcript(home, root, OTHER_SID), 60_000);
  const ticks = tickTable();
  ticks.tick(await evaluate(root), SID);
  // The report as read, no session's ticks in it.
  const { p, n } = tickedPorts(root, home, ticks, undefined, () => SID);
  await checkpointFlow(p);
  assert.deepEqual(
    n.outcomes.map((o) => o.refusals.map((x) => x.code).join() || o.kind),
    ['ambiguous-session', 'written'],
    'no manual refusal before a session is named: the items are decided for the one picked',
  );
  assert.deepEqual(markers(root), [`.checkpoint-ready.${SID}`]);
});
