import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, SystemReport } from '../../src/core/model/model';
import { FACTS } from '../../src/core/systems/facts';
import {
  hasCommand,
  hasReason,
  parseManifest,
  s2Word,
  type ManifestInfo,
} from '../../src/core/systems/s2/reader-ledger';
import { checksWith, cli, fixtureCopy, FIXTURES, gitInit, oneCheck, systemIn, workspace, write } from './helpers';

const fixture = (name: string): string => fixtureCopy(`s2/${name}`);
const s2 = (dir: string, confirmed: string[] = []): Promise<SystemReport> => systemIn(dir, 'S2', { confirmed });
const only = (s: SystemReport, id: string): Check[] => checksWith(s.checks, id);
const one = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);

test('S2 good workspace: every check passes, sections and flags as written', async () => {
  const dir = fixture('good');
  gitInit(dir);
  const s = await s2(dir, ['feedback-stored', 'last-request']);
  assert.equal(
    s.label,
    'WORKING',
    JSON.stringify(
      s.checks.filter((c) => c.status !== 'pass'),
      null,
      1,
    ),
  );
  for (const c of s.checks) assert.ok(['pass', 'manual-done'].includes(c.status), `${c.id}: ${c.status} ${c.message}`);
  assert.equal(s.home, '.claude/session-ledger.md');
  assert.equal(
    s.next,
    'Stream rows from `InvoiceRepo.cursor()` into `csvWriter` in src/export/csv.ts and run `npm test -- export`.',
  );
  assert.equal(s.resumePrompt, 'Read .claude/session-ledger.md and continue from its NEXT action.');
  assert.deepEqual(
    s.docs.map((d) => [d.relPath, d.role]),
    [
      ['.claude/session-ledger.md', 'ledger'],
      ['context-manifest.yaml', 'manifest'],
      ['.claude/project-state.md', 'projectState'],
      ['docs/plan.md', 'plan'],
    ],
  );
  const ledger = s.docs[0];
  assert.deepEqual(
    ledger.sections.map((x) => [x.key, x.title, x.line]),
    [
      ['preamble', '', 2],
      ['goal', 'TASK', 5],
      ['next', 'NEXT', 8],
      ['open', 'OPEN', 11],
      ['decisions', 'DECIDED', 14],
      ['verified', 'VERIFIED', 18],
      ['dropped', 'DROPPED', 23],
      ['plan', 'PLAN', 27],
    ],
  );
  assert.equal(ledger.meta.sessionId, '7f3c2a90-1111-4e2b-9c1d-5a6b7c8d9e0f');
  const verified = ledger.sections.find((x) => x.key === 'verified')!;
  assert.deepEqual(
    verified.items.map((i) => [i.line, i.flags]),
    [
      [19, ['hasCommand']],
      [20, ['hasCommand']],
      [21, ['hasCommand']],
    ],
  );
  const dropped = ledger.sections.find((x) => x.key === 'dropped')!;
  assert.deepEqual(
    dropped.items.map((i) => [i.line, i.flags]),
    [
      [24, ['hasReason']],
      [25, ['hasReason']],
    ],
  );
  const info = s.docs[1].meta.manifest as ManifestInfo;
  assert.deepEqual(info.stores, [
    { kind: 'project_state', path: '.claude/project-state.md', line: 13 },
    { kind: 'knowledge_docs', path: 'docs/notes/*.md', line: 15 },
  ]);
  assert.equal(info.maxAgeMin, 480);
  assert.match(one(s, 'plan-size').message, /docs\/plan\.md spine is \d+ chars, within the 20,000 chars/);
  assert.match(one(s, 'stale-paths').message, /3 PLAN pointers and manifest stores checked/);
  assert.deepEqual(FACTS.S2.thresholds, { propose: 50, urgent: null });
  assert.equal(FACTS.S2.checkpointTrigger, '/checkpoint');

  // The same through the built CLI.
  const r = cli(['status', '--root', dir, '--json', '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.label, 'WORKING');
  assert.deepEqual(
    j.systems.map((x: { id: string }) => x.id),
    ['S2'],
  );
  assert.equal(j.systems[0].next, s.next);
  assert.deepEqual(j.systems[0].docs[0].sections[5].items[0], {
    text: verified.items[0].text,
    line: 19,
    flags: ['hasCommand'],
  });
});

test('S2 skeleton written by the prime hook: not-skeleton and next-action block', async () => {
  const s = await s2(fixture('skeleton'));
  assert.equal(s.label, 'BROKEN');
  assert.deepEqual([one(s, 'not-skeleton').status, one(s, 'not-skeleton').line], ['fail', 1]);
  assert.equal(one(s, 'next-action').status, 'fail');
  assert.equal(one(s, 'next-one-line').status, 'skipped');
  assert.equal(one(s, 'pending-recorded').status, 'warn');
  assert.equal(s.next, null);
  const r = cli(['check', '--root', fixture('skeleton')]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /FAIL not-skeleton/);
});

test("S2 untouched template (the skill's placeholders) counts as a skeleton", async () => {
  const s = await s2(fixture('template'));
  assert.equal(one(s, 'not-skeleton').status, 'fail');
  assert.equal(one(s, 'next-action').status, 'fail');
  assert.equal(one(s, 'verified-command').status, 'skipped');
  assert.equal(one(s, 'dropped-reason').status, 'skipped');
});

test('S2 broken ledger: each rule reports with its line', async () => {
  const dir = fixture('broken');
  const s = await s2(dir);
  assert.equal(s.label, 'BROKEN');
  assert.deepEqual([one(s, 'next-action').status, one(s, 'next-action').line], ['fail', 8]);
  assert.match(one(s, 'next-action').message, /vague: "Continue work\."/);
  assert.deepEqual([one(s, 'next-one-line').status, one(s, 'next-one-line').line], ['warn', 7]);
  assert.match(one(s, 'next-one-line').message, /2 lines/);
  assert.deepEqual([one(s, 'pending-recorded').status, one(s, 'pending-recorded').line], ['warn', 11]);
  assert.deepEqual(
    only(s, 'verified-command').map((c) => [c.status, c.line]),
    [
      ['warn', 17],
      ['warn', 19],
    ],
  );
  assert.deepEqual(
    only(s, 'dropped-reason').map((c) => [c.status, c.line]),
    [['warn', 22]],
  );
  const stale = only(s, 'stale-paths')
    .map((c) => `${c.path}:${c.line} ${c.message}`)
    .sort();
  assert.deepEqual(stale, [
    '.claude/session-ledger.md:26 STALE PATH: docs/queue-plan.md does not exist.',
    'context-manifest.yaml:11 STALE PATH: PROJECT_STATUS.md does not exist.',
    'context-manifest.yaml:7 STALE PATH: .claude/project-state.md does not exist.',
    'context-manifest.yaml:9 STALE PATH: docs/queue/ (for docs/queue/*.md) does not exist.',
  ]);
  assert.equal(one(s, 'plan-size').status, 'skipped');
  const j = JSON.parse(cli(['check', '--root', dir, '--json']).stdout);
  const ids = j.systems[0].checks
    .filter((c: { status: string }) => c.status === 'warn' || c.status === 'fail')
    .map((c: { id: string }) => c.id);
  for (const id of [
    'next-action',
    'next-one-line',
    'pending-recorded',
    'verified-command',
    'dropped-reason',
    'stale-paths',
  ])
    assert.ok(ids.includes(id), id);
});

test('S2 messy headings: first word, case, emoji and :*_- ignored; duplicates merged; fenced ## is content', async () => {
  const s = await s2(fixture('messy'));
  const d = s.docs[0];
  assert.deepEqual(
    d.sections.map((x) => [x.key, x.title, x.line]),
    [
      ['preamble', '', 1],
      ['goal', '**Task** (current)', 8],
      ['verified', '✅ verified:', 11],
      ['next', 'next_', 14],
      ['other', 'Scratchpad', 20],
    ],
  );
  const v = d.sections[2];
  assert.deepEqual(
    v.items.map((i) => i.line),
    [12, 18],
  );
  assert.equal(v.endLine, 19);
  assert.deepEqual(
    v.items.map((i) => i.flags),
    [['hasCommand'], []],
  );
  assert.equal(s.next, 'Pin the clock in test/upload.test.ts with `vi.useFakeTimers()`.');
  const dup = one(s, 'duplicate-section');
  assert.deepEqual([dup.severity, dup.line], ['info', 17]);
  assert.deepEqual([one(s, 'non-canonical').severity, one(s, 'non-canonical').line], ['info', 20]);
  assert.equal(s.label, 'PARTIAL');
  assert.deepEqual(['TASK', '🔴 NEXT:', '**DROPPED**', 'OPEN (resume point)', '1. PLAN', 'next-action'].map(s2Word), [
    'task',
    'next',
    'dropped',
    'open',
    'plan',
    'nextaction',
  ]);
});

test("S2 detection: someone else's project-state.md alone is not S2; one in S2's words is", async () => {
  assert.deepEqual((await evaluate(fixture('foreign'))).systems, []);
  const mine = workspace({
    '.claude/project-state.md':
      '# Project State\n\n## DECIDED\n- Cursor streaming: beat in-memory.\n\n## NEXT\n- XLSX export.\n',
  });
  const s = await s2(mine);
  assert.equal(s.home, '.claude/session-ledger.md');
  assert.equal(one(s, 'exists').status, 'fail');
  // An unrelated tool's context-manifest.yaml is not the kit's.
  assert.deepEqual(
    (await evaluate(workspace({ 'context-manifest.yaml': 'apiVersion: v2\nkind: ContextManifest\nentries: []\n' })))
      .systems,
    [],
  );
  // The foreign project state is still read (with meaning-based keys) once S2 is there.
  const dir = fixture('foreign');
  write(
    dir,
    '.claude/session-ledger.md',
    '# Session Ledger\n\n## NEXT\nWrite the launch post draft in docs/launch.md\n',
  );
  const ps = (await s2(dir)).docs.find((d) => d.role === 'projectState')!;
  assert.deepEqual(
    ps.sections.map((x) => [x.key, x.title]),
    [
      ['preamble', ''],
      ['done', 'Latest'],
      ['now', 'Now'],
      ['next', 'Next'],
      ['decisions', 'Decisions'],
    ],
  );
});

test('S2 per-session ledgers: the newest is home and named in the resume prompt', async () => {
  const dir = workspace({
    '.claude/session-ledger.md': '## NEXT\nOld shared ledger next step here\n',
    '.claude/session-ledger.abc-123.md': '## TASK\nPer session\n\n## NEXT\nRun the per-session migration dry run\n',
  });
  const old = new Date(Date.now() - 3600_000);
  utimesSync(path.join(dir, '.claude/session-ledger.md'), old, old);
  const s = await s2(dir);
  assert.equal(s.home, '.claude/session-ledger.abc-123.md');
  assert.equal(s.next, 'Run the per-session migration dry run');
  assert.equal(s.resumePrompt, 'Read .claude/session-ledger.abc-123.md and continue from its NEXT action.');
  // Same mtime: the shared ledger wins.
  utimesSync(path.join(dir, '.claude/session-ledger.abc-123.md'), old, old);
  assert.equal((await s2(dir)).home, '.claude/session-ledger.md');
  // No ledger at the kit's path: an extra path configured for S2 is read as the ledger.
  const extra = workspace({ 'notes/ledger.md': '## NEXT\nMove this ledger to .claude/session-ledger.md\n' });
  const e = await systemIn(extra, 'S2', { extraPaths: { S2: ['notes/ledger.md'] } });
  assert.deepEqual([e.home, e.next], ['notes/ledger.md', 'Move this ledger to .claude/session-ledger.md']);
});

test('S2 budget: 150 lines / 5,200 chars', async () => {
  const base = '## TASK\nBudget test\n\n## NEXT\nTrim the ledger below budget now\n';
  const long = workspace({
    '.claude/session-ledger.md': `${base}## OPEN\n${Array.from({ length: 150 }, (_, i) => `- q${i}`).join('\n')}\n`,
  });
  const b1 = one(await s2(long), 'budget');
  assert.equal(b1.status, 'warn');
  assert.match(b1.message, /lines > 150/);
  const wide = workspace({ '.claude/session-ledger.md': `${base}## DECIDED\n- ${'x'.repeat(5300)}: because\n` });
  const b2 = one(await s2(wide), 'budget');
  assert.equal(b2.status, 'warn');
  assert.match(b2.message, /chars > 5200/);
  assert.equal(one(await s2(workspace({ '.claude/session-ledger.md': base })), 'budget').status, 'pass');
});

test('S2 plan-size: the spine (above Evidence/Archive) against 20,000 chars', async () => {
  const ledger =
    '## TASK\nPlan test\n\n## NEXT\nSync the plan spine with the decisions\n\n## PLAN\n- docs/big-plan.md\n';
  const big = `# Plan\n\n## Endpoints\n${'- endpoint with a long description that keeps going\n'.repeat(500)}`;
  const dir = workspace({ '.claude/session-ledger.md': ledger, 'docs/big-plan.md': big });
  const c = one(await s2(dir), 'plan-size');
  assert.equal(c.status, 'warn');
  assert.match(c.message, /over the 20,000 chars, about 5,000 tokens budget/);
  const split = workspace({
    '.claude/session-ledger.md': ledger,
    'docs/big-plan.md': `# Plan\n\n## Endpoints\n- one\n\n## Evidence\n${big}`,
  });
  const c2 = one(await s2(split), 'plan-size');
  assert.equal(c2.status, 'pass');
  assert.match(c2.message, /spine ends at line 5/);
});

test('S2 no-secrets: a key in the ledger blocks, masked, with its line', async () => {
  const key = ['AKIA', 'IOSFODNN7', 'REALKEY'].join('');
  const s = await s2(
    workspace({
      '.claude/session-ledger.md': `## TASK\nDeploy\n\n## NEXT\nRotate the deploy key in the vault today\n\n## VERIFIED\n- key works ${key} [aws sts get-caller-identity]\n`,
    }),
  );
  const c = one(s, 'no-secrets');
  assert.deepEqual([c.status, c.line], ['fail', 8]);
  assert.doesNotMatch(c.message, new RegExp(key));
  assert.equal(s.label, 'BROKEN');
});

test('S2 bad input: YAML that does not parse, binary ledger, CRLF and BOM', async () => {
  const dir = workspace({
    '.claude/session-ledger.md': '## NEXT\nFix the manifest indentation in context-manifest.yaml\n',
    'context-manifest.yaml': 'ledger:\n  budget_chars: 5200\n compaction: [\n',
  });
  const s = await s2(dir);
  const f = one(s, 'manifest-yaml');
  assert.equal(f.status, 'warn');
  assert.equal(f.path, 'context-manifest.yaml');
  assert.ok(f.line && f.line >= 2, JSON.stringify(f));
  // The kit's manifest alone, broken, is still the kit's (it names the ledger).
  assert.ok(
    (
      await evaluate(workspace({ 'context-manifest.yaml': 'ledger:\n  path: .claude/session-ledger.md\n  x: [\n' }))
    ).systems.some((x) => x.id === 'S2'),
  );

  const bin = await s2(workspace({ '.claude/session-ledger.md': Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]) }));
  assert.equal(bin.label, 'BROKEN');
  assert.equal(one(bin, 'exists').status, 'fail');
  assert.equal(one(bin, 'readable').severity, 'block');

  const lf = readFileSync(path.join(FIXTURES, 's2', 'good', '.claude', 'session-ledger.md'), 'utf8');
  const crlf = await s2(workspace({ '.claude/session-ledger.md': `\uFEFF${lf.replace(/\n/g, '\r\n')}` }));
  const plain = await s2(workspace({ '.claude/session-ledger.md': lf }));
  assert.deepEqual(crlf.docs[0].sections, plain.docs[0].sections);
  assert.equal(crlf.next, plain.next);
});

test('S2 item flags: commands and reasons as people write them', () => {
  for (const t of [
    'tests pass [npm test]',
    'ok via `curl -I /health`',
    '$ make check is green',
    'schema valid — via jsonschema CLI',
    'ran pytest -k export',
  ])
    assert.ok(hasCommand(t), t);
  for (const t of ['tests pass', 'the ledger is small', 'CI is green on main (run #4411)'])
    assert.equal(hasCommand(t), false, t);
  for (const t of [
    'Kafka: too heavy for one queue',
    'Lua retries — hard to test',
    'dropped X because Y',
    'redis cluster (no budget)',
    'A → replaced by B',
  ])
    assert.ok(hasReason(t), t);
  for (const t of ['Kafka', 'a second parser', 'the old approach']) assert.equal(hasReason(t), false, t);
});

test('S2 manifest: stores with their lines; null and empty lists name nothing', () => {
  const { info } = parseManifest(
    'memory:\n  dir: .claude/memory\ncompaction:\n  checkpoint:\n    durable_context:\n      project_state: null\n      knowledge_docs: [docs/a.md, docs/b.md]\n      curated_ssot: []\n',
  );
  assert.equal(info.kit, true);
  assert.equal(info.projectState, null);
  assert.deepEqual(info.stores, [
    { kind: 'memory', path: '.claude/memory', line: 2 },
    { kind: 'knowledge_docs', path: 'docs/a.md', line: 7 },
    { kind: 'knowledge_docs', path: 'docs/b.md', line: 7 },
  ]);
});
