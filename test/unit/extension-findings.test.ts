/** Findings (Problems panel, tree rows, CodeLens counts) from a real evaluated workspace and from hand-made reports. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Check, StateDoc, SystemReport, WorkspaceReport } from '../../src/core/model/model';
import {
  checkMessage,
  countsOf,
  countsText,
  isFinding,
  levelOf,
  lineRange,
  reportFindings,
  systemDocs,
  filesIn,
  findingPlace,
  systemFindings,
  systemLabel,
} from '../../src/extension/pure/findings';
import { diagnosticMessage } from '../../src/extension/pure/tree-text';

const t = (m: string, ...args: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));

function doc(system: SystemReport['id'], relPath: string): StateDoc {
  return {
    system,
    path: `/w/${relPath}`,
    relPath,
    role: 'state',
    sections: [],
    meta: {},
    mtime: 1,
    hash: 'h',
    size: 1,
    lineCount: 1,
    text: 'x',
    findings: [],
  };
}
const chk = (id: string, severity: Check['severity'], status: Check['status'], extra: Partial<Check> = {}): Check => ({
  id,
  system: 'S3',
  severity,
  status,
  message: `${id} says`,
  messageId: `${id} says`,
  args: [],
  ...extra,
});
function sys(
  id: SystemReport['id'],
  name: string,
  home: string,
  checks: Check[],
  docs: StateDoc[] = [doc(id, home)],
): SystemReport {
  return { id, name, label: 'PARTIAL', next: null, home, docs, checks, resumePrompt: '', unconfirmed: [] };
}

test('findings: fail and warn are findings, with block → error, warn → warning, info → information', () => {
  assert.ok(isFinding(chk('a', 'block', 'fail')));
  assert.ok(isFinding(chk('a', 'info', 'warn')));
  for (const st of ['pass', 'skipped', 'manual-open', 'manual-done'] as const)
    assert.ok(!isFinding(chk('a', 'warn', st)), st);
  assert.equal(levelOf(chk('a', 'block', 'fail')), 'error');
  assert.equal(levelOf(chk('a', 'warn', 'warn')), 'warning');
  assert.equal(levelOf(chk('a', 'info', 'warn')), 'information');
});

test('findings: errors first, then by file and line; a check without a place goes to the home file, line 1', () => {
  const s = sys('S3', 'Groundwork', 'docs/state/STATE.md', [
    chk('budget', 'warn', 'warn', { path: 'docs/state/STATE.md', line: 9 }),
    chk('exists', 'block', 'pass'),
    chk('gates', 'warn', 'warn', { path: 'docs/state/STATE.md', line: 4 }),
    chk('no-secrets', 'block', 'fail'),
    chk('feedback-stored', 'manual', 'manual-open'),
    chk('state-reviewed', 'manual', 'manual-open'),
  ]);
  const f = systemFindings(s, () => false);
  assert.deepEqual(
    f.map((x) => [x.check.id, x.path, x.line, x.level]),
    [
      ['no-secrets', 'docs/state/STATE.md', 1, 'error'],
      ['gates', 'docs/state/STATE.md', 4, 'warning'],
      ['budget', 'docs/state/STATE.md', 9, 'warning'],
    ],
  );
  // The system's own manual item counts; the session's (feedback-stored) is the folder's, counted once apart.
  assert.deepEqual(countsOf(s), { block: 1, warn: 2, info: 0, manual: 1 });
  assert.equal(countsText(t, countsOf(s)), '1 blocking · 2 warnings · 1 manual to tick');
  assert.equal(countsText(t, { block: 0, warn: 0, info: 0, manual: 0 }), '');
});

test("findings: a check with a message id is rendered through t (the user's language), else as written", () => {
  const ja = (m: string, ...a: Array<string | number | boolean>) =>
    m === 'No next action found ({0}).' ? `次の行動が見つかりません（${a[0]}）。` : m;
  const c = {
    ...chk('next-action', 'block', 'fail'),
    message: 'No next action found (## Now).',
    messageId: 'No next action found ({0}).',
    args: ['## Now'],
  } as Check;
  assert.equal(checkMessage(ja, c), '次の行動が見つかりません（## Now）。');
  assert.equal(checkMessage(ja, chk('x', 'warn', 'warn')), 'x says');
});

test("tree text: a root's label is the system's name and its label", () => {
  assert.equal(systemLabel({ id: 'S3', label: 'PARTIAL' }), 'S3 Groundwork — PARTIAL');
  assert.equal(systemLabel({ id: 'S0', label: 'BROKEN' }), 'S0 majestic ledger — BROKEN');
});

test("tree: a document appears once — a companion that is another system's home stays with that system", () => {
  const s3 = sys('S3', 'Groundwork', 'docs/state/STATE.md', []);
  const s2 = sys(
    'S2',
    'Checkpoint (context-kit)',
    '.claude/session-ledger.md',
    [],
    [
      doc('S2', '.claude/session-ledger.md'),
      doc('S2', 'docs/state/STATE.md'),
      doc('S2', 'docs/plan.md'),
      doc('S2', 'docs/plan.md'),
    ],
  );
  const s4 = sys(
    'S4',
    'Agent State (checkpointing skill)',
    '.agents/STATE.md',
    [],
    [doc('S4', '.agents/STATE.md'), doc('S4', 'docs/plan.md')],
  );
  const r: WorkspaceReport = { root: '/w', label: 'PARTIAL', systems: [s2, s3, s4] };
  assert.deepEqual(
    systemDocs(r, s2).map((d) => d.relPath),
    ['.claude/session-ledger.md', 'docs/plan.md'],
  );
  assert.deepEqual(
    systemDocs(r, s3).map((d) => d.relPath),
    ['docs/state/STATE.md'],
  );
  assert.deepEqual(
    systemDocs(r, s4).map((d) => d.relPath),
    ['.agents/STATE.md'],
  );
  const missing = sys('S1', 'Handoff (session-checkpoint)', 'memory/session-handoff-LATEST.md', [], []);
  assert.deepEqual(systemDocs({ ...r, systems: [missing] }, missing), [
    { relPath: 'memory/session-handoff-LATEST.md', doc: null },
  ]);
});

test('findings: the range of a line is its text without leading blanks; lines past the end clamp', () => {
  const text = '# T\n\n  - **Branch / HEAD:** main @ abc\r\nlast';
  assert.deepEqual(lineRange(text, 3), { line: 2, start: 2, end: 33 });
  assert.deepEqual(lineRange(text, 2), { line: 1, start: 0, end: 0 });
  assert.deepEqual(lineRange(text, 99), { line: 3, start: 0, end: 4 });
  assert.deepEqual(lineRange('', 5), { line: 0, start: 0, end: 0 });
});

test('findings: the real e2e fixture workspace (all five systems) yields warnings with files and lines', async () => {
  const { evaluate } = await import('../../src/core/report/evaluate');
  const path = await import('node:path');
  const { REPO } = await import('./helpers');
  const dir = path.join(REPO, 'test/fixtures/e2e-workspace');
  const r = await evaluate(dir);
  const f = reportFindings(r, filesIn(dir));
  const compaction = f.find((x) => x.check.id === 'compaction');
  assert.ok(compaction, f.map((x) => x.check.id).join(','));
  assert.equal(compaction.path, '.agents/STATE.md');
  assert.equal(compaction.level, 'warning');
  assert.ok(compaction.line > 1);
  assert.ok(f.every((x) => x.line >= 1 && x.path.length > 0));
});

test("findings: a finding about a file that is not there (S1's missing sidecar) stands on the home file and names the file as the CLI does", () => {
  const s = sys('S1', 'Handoff (session-checkpoint)', 'memory/session-handoff-LATEST.md', [
    { ...chk('attestation', 'info', 'warn'), system: 'S1', path: 'memory/.session-handoff.sha256' },
    { ...chk('budget', 'warn', 'warn'), system: 'S1', path: 'memory/session-handoff-LATEST.md', line: 7 },
  ]);
  const f = systemFindings(s, () => false);
  assert.deepEqual(
    f.map((x) => [x.check.id, x.path, x.line, x.named]),
    [
      ['budget', 'memory/session-handoff-LATEST.md', 7, undefined],
      ['attestation', 'memory/session-handoff-LATEST.md', 1, { path: 'memory/.session-handoff.sha256' }],
    ],
  );
  assert.deepEqual(findingPlace(f[1]), { path: 'memory/.session-handoff.sha256' });
  assert.equal(diagnosticMessage(t, f[1]), 'attestation says (memory/.session-handoff.sha256)');
  assert.deepEqual(findingPlace(f[0]), { path: 'memory/session-handoff-LATEST.md', line: 7 });
  assert.equal(diagnosticMessage(t, f[0]), 'budget says');
  const missing = sys(
    'S3',
    'Groundwork',
    'docs/state/STATE.md',
    [chk('exists', 'block', 'fail', { path: 'docs/state/STATE.md' })],
    [],
  );
  assert.deepEqual(
    systemFindings(missing, () => false).map((f) => [f.path, f.line, f.named]),
    [['docs/state/STATE.md', 1, undefined]],
  );
});
