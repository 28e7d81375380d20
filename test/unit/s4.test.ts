import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, SystemReport } from '../../src/core/model/model';
import { FACTS } from '../../src/core/systems/facts';
import type { ProgressEntry, S4Structure } from '../../src/core/systems/s4/reader-state';
import { cli, fixtureCopy, FIXTURES, gitInit, oneCheck, systemIn, workspace } from './helpers';

const fixture = (name: string): string => fixtureCopy(`s4/${name}`);
const s4 = (dir: string, confirmed: string[] = []): Promise<SystemReport> => systemIn(dir, 'S4', { confirmed });
const one = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);

const STATE = '.agents/STATE.md';

test('S4 good workspace: every check passes; blocks, progress entries, checkpoint front matter', async () => {
  const dir = fixture('good');
  gitInit(dir);
  const s = await s4(dir, ['feedback-stored', 'last-request']);
  for (const c of s.checks) assert.ok(['pass', 'manual-done'].includes(c.status), `${c.id}: ${c.status} ${c.message}`);
  assert.equal(s.label, 'WORKING');
  assert.equal(
    s.next,
    'Add `BalanceByCurrency` to `internal/ledger/balance.go` and make `go test ./internal/ledger/...` pass.',
  );
  assert.equal(one(s, 'next-action').line, 37);
  assert.equal(
    s.resumePrompt,
    'Read .agents/STATE.md and continue from the newest Current block (Current Feature: multi-currency balances).',
  );
  assert.deepEqual(
    s.docs.map((d) => [d.relPath, d.role]),
    [
      [STATE, 'state'],
      ['PROGRESS.md', 'progress'],
      ['.agents/checkpoints/2026-03-05-171200.md', 'checkpoint'],
    ],
  );
  const st = s.docs[0].meta.s4 as S4Structure;
  assert.deepEqual(st.agentState, [1]);
  assert.deepEqual(st.progressTracker, [11]);
  assert.deepEqual(st.blocks, [
    {
      kind: 'feature',
      title: 'Current Feature: multi-currency balances',
      name: 'multi-currency balances',
      blockId: 'multi-currency-balances',
      line: 19,
      endLine: 38,
      newestOfKind: true,
    },
  ]);
  const es = s.docs[1].meta.entries as ProgressEntry[];
  assert.deepEqual(
    es.map((e) => [e.timestamp, e.link, e.line]),
    [
      ['2026-03-05-171200', '.agents/checkpoints/2026-03-05-171200.md', 5],
      ['2026-03-01-090000', '.agents/checkpoints/2026-03-01-090000.md', 27],
    ],
  );
  assert.deepEqual(s.docs[2].meta.frontMatter, {
    timestamp: '2026-03-05T17:12:00+01:00',
    since: '2026-03-01T09:00:00+01:00',
    commits: 4,
    files_changed: 7,
  });
  assert.equal(one(s, 'pending-recorded').line, 31);
  assert.deepEqual(FACTS.S4.thresholds, { propose: 50, urgent: 80 });
  assert.equal(FACTS.S4.checkpointTrigger, '/checkpointing');

  const j = JSON.parse(
    cli(['status', '--root', dir, '--json', '--confirm', 'feedback-stored', '--confirm', 'last-request']).stdout,
  );
  assert.equal(j.label, 'WORKING');
  assert.equal(j.systems[0].id, 'S4');
  assert.equal(j.systems[0].next, s.next);
  assert.deepEqual(
    j.systems[0].docs[0].sections.map((x: { key: string; line: number }) => [x.key, x.line]),
    [
      ['title', 1],
      ['agent', 3],
      ['identity', 7],
      ['tracker', 11],
      ['current', 19],
      ['context', 22],
      ['decisions', 27],
      ['open', 31],
      ['next', 35],
    ],
  );
});

test('S4 template (after /init, no working block): not-skeleton and next-action block', async () => {
  const s = await s4(fixture('template'));
  assert.equal(s.label, 'BROKEN');
  assert.deepEqual([one(s, 'not-skeleton').status, one(s, 'not-skeleton').line], ['fail', 1]);
  assert.equal(one(s, 'next-action').status, 'fail');
  assert.equal(one(s, 'structure').status, 'pass');
  assert.equal(one(s, 'progress-entries').status, 'skipped');
  assert.equal(s.resumePrompt, 'Read .agents/STATE.md and continue from the newest Current block.');
});

test('S4 broken workspace: structure, compaction, progress-entries, front matter, next action', async () => {
  const dir = fixture('broken');
  const s = await s4(dir);
  assert.equal(s.label, 'BROKEN');
  // Each broken heading is a finding of its own (each message its own translatable template).
  assert.deepEqual(
    s.checks.filter((c) => c.id === 'structure').map((c) => [c.status, c.line, c.message]),
    [
      ['fail', 7, '2 "# Agent State" headings in .agents/STATE.md (lines 1, 7); exactly one of each is required.'],
      ['fail', 7, 'No "## Progress Tracker" heading in .agents/STATE.md; exactly one of each is required.'],
    ],
  );
  const cp = one(s, 'compaction');
  assert.deepEqual([cp.status, cp.line], ['warn', 9]);
  assert.equal(cp.message, '2 "## Current Feature" blocks (lines 9, 26): compaction keeps only the newest (line 26).');
  const pe = one(s, 'progress-entries');
  assert.deepEqual([pe.status, pe.path, pe.line], ['warn', 'PROGRESS.md', 33]);
  const fm = one(s, 'front-matter');
  // Where the front matter's error is: the line after `timestamp: [2026-03-06`, whose `[` is never closed.
  assert.deepEqual([fm.status, fm.path, fm.line], ['warn', '.agents/checkpoints/2026-03-06-120000.md', 3]);
  assert.equal(one(s, 'next-action').status, 'fail');
  const blocks = (s.docs[0].meta.s4 as S4Structure).blocks;
  assert.deepEqual(
    blocks.map((b) => [b.kind, b.line, b.endLine, b.blockId, b.newestOfKind]),
    [
      ['feature', 9, 17, 'search', false],
      ['bugfix', 18, 25, null, true],
      ['feature', 26, 33, 'export', true],
    ],
  );
  const r = cli(['check', '--root', dir, '--json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).systems[0].checks.find((c: { id: string }) => c.id === 'compaction').line, 9);
});

test("S4 detection: someone else's .agents/STATE.md is not S4; a directory there is S4, damaged; checkpoints alone detect", async () => {
  assert.deepEqual((await evaluate(fixture('foreign'))).systems, []);
  const dirWs = workspace({ 'PROGRESS.md': '# PROGRESS\n' });
  mkdirSync(path.join(dirWs, STATE), { recursive: true });
  const d = await s4(dirWs);
  assert.equal(d.label, 'BROKEN');
  assert.equal(one(d, 'exists').status, 'fail');
  assert.match(one(d, 'readable').message, /directory/);
  assert.equal(one(d, 'structure').status, 'skipped');
  const cps = await s4(
    workspace({ '.agents/checkpoints/2026-01-01-000000.md': '---\ntimestamp: 2026-01-01\n---\n# Checkpoint\n' }),
  );
  assert.equal(cps.home, STATE);
  assert.equal(one(cps, 'exists').status, 'fail');
  // PROGRESS.md alone is a generic file name: nothing detected.
  assert.deepEqual((await evaluate(workspace({ 'PROGRESS.md': '# PROGRESS\n\n## 2026-01-01\n- x\n' }))).systems, []);
});

const TWO_BLOCKS = `# Agent State

## Progress Tracker

[PROGRESS.md](../PROGRESS.md)

## Current Feature: billing export
<!-- orchestra:block-id: billing-export -->

### Decisions

- The next step is wiring the exporter into \`cmd/export\`.

## Current Bug Fix: flaky-login
<!-- orchestra:block-id: flaky-login -->

### Context

- Symptom: login test flakes under load.
`;

test('S4 newest Current block: the one the newest PROGRESS entry names, else the last one', async () => {
  const progress =
    '# PROGRESS\n\n## [2026-03-02-100000](.agents/checkpoints/2026-03-02-100000.md)\n\n### What was done\n\n- Worked on billing-export.\n\n### Next actions\n\n- Wire the exporter.\n';
  const named = await s4(workspace({ [STATE]: TWO_BLOCKS, 'PROGRESS.md': progress }));
  assert.equal(named.next, 'The next step is wiring the exporter into `cmd/export`.');
  assert.equal(one(named, 'next-action').line, 12);
  assert.match(named.resumePrompt, /\(Current Feature: billing export\)\.$/);
  // Without a mention the last block in the file is the newest; it has no next step, so PROGRESS's next action stands in.
  const unnamed = await s4(
    workspace({ [STATE]: TWO_BLOCKS, 'PROGRESS.md': progress.replace('billing-export', 'billing') }),
  );
  assert.match(unnamed.resumePrompt, /\(Current Bug Fix: flaky-login\)\.$/);
  assert.equal(unnamed.next, 'Wire the exporter.');
  assert.deepEqual([one(unnamed, 'next-action').path, one(unnamed, 'next-action').line], ['PROGRESS.md', 11]);
  const none = await s4(workspace({ [STATE]: TWO_BLOCKS }));
  assert.equal(none.next, null);
  assert.equal(one(none, 'next-action').status, 'fail');
});

test('S4 CRLF and BOM read the same; secrets in PROGRESS.md block', async () => {
  const lf = readFileSync(path.join(FIXTURES, 's4', 'good', '.agents', 'STATE.md'), 'utf8');
  const a = await s4(workspace({ [STATE]: lf }));
  const b = await s4(workspace({ [STATE]: `\uFEFF${lf.replace(/\n/g, '\r\n')}` }));
  assert.deepEqual(b.docs[0].sections, a.docs[0].sections);
  assert.deepEqual(b.docs[0].meta.s4, a.docs[0].meta.s4);
  assert.equal(b.next, a.next);
  const token = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
  const leak = await s4(
    workspace({ [STATE]: lf, 'PROGRESS.md': `# PROGRESS\n\n## [2026-03-05](x.md)\n\n- pushed with ${token}\n` }),
  );
  const c = one(leak, 'no-secrets');
  assert.deepEqual([c.status, c.path, c.line], ['fail', 'PROGRESS.md', 5]);
});
