/**
 * The real files of corpus F3 (S2), F4 (S3) and F5 (S4), laid out at their real repository paths
 * in temp workspaces, read as a careful human reads them. Expected values were taken from the
 * files by hand; the corpus itself is read in place and never copied into the repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, SystemReport } from '../../src/core/model/model';
import { parseManifest } from '../../src/core/systems/s2/reader-ledger';
import type { S3Structure } from '../../src/core/systems/s3/reader-state';
import type { ProgressEntry, S4Structure } from '../../src/core/systems/s4/reader-state';
import { CORPUS, CORPUS_SKIP, oneCheck, systemIn, workspace, write } from './helpers';

const skip = CORPUS_SKIP;

/** INDEX.tsv: saved file name → its path in its repository. */
function realPaths(): Map<string, string> {
  const [head, ...rows] = readFileSync(path.join(CORPUS, 'INDEX.tsv'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'));
  const saved = head.indexOf('saved_as');
  const p = head.indexOf('path');
  return new Map(rows.map((r) => [r[saved], r[p]]));
}

/** A workspace holding these corpus files (by saved name) at their real paths; `transform` may rewrite their text. */
function layOut(saved: string[], transform?: (s: string) => string): string {
  const paths = realPaths();
  const dir = workspace();
  for (const s of saved) {
    const rel = paths.get(s);
    assert.ok(rel, `${s} not in INDEX.tsv`);
    const dest = path.join(dir, rel);
    mkdirSync(path.dirname(dest), { recursive: true });
    if (!transform) copyFileSync(path.join(CORPUS, s), dest);
    else writeFileSync(dest, transform(readFileSync(path.join(CORPUS, s), 'utf8')));
  }
  return dir;
}

const system = (dir: string, id: string): Promise<SystemReport> => systemIn(dir, id, { noGit: true });

const one = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);

const F3_PS = 'F3/josharsh__agenticons__.claude__project-state.md';
const F3_MANIFEST = 'F3/kaposty__context-kit__context-manifest.example.yaml';
const GW = 'F4/Tradebaas__Groundwork__docs__state__';
const MASALAI = 'F4/tolgakaya__masalai__docs__state__STATE.md';
const FEMPY = 'F5/sasaco__fempy__.agents__STATE.md';
const FEMPY_PROGRESS = 'F5/sasaco__fempy__PROGRESS.md';
const TICK = 'F5/UNKNOWN__tickreplay-project__.agents__STATE.md';

test(
  "each F3–F5 file alone at its real path: which system it is (someone else's files are nobody's)",
  { skip },
  async () => {
    const expected: Record<string, string[]> = {
      [F3_PS]: [],
      [F3_MANIFEST]: [],
      [`${GW}STATE.md`]: ['S3'],
      [`${GW}STATE.md@0e22a75`]: ['S3'],
      [`${GW}DEBT.md`]: [],
      [`${GW}TEMPLATE-DEBT.md`]: [],
      [`${GW}INTAKE.md`]: [],
      [MASALAI]: [],
      [FEMPY]: ['S4'],
      [FEMPY_PROGRESS]: [],
      [TICK]: ['S4'],
    };
    for (const [saved, ids] of Object.entries(expected)) {
      const r = await evaluate(layOut([saved]), { noGit: true });
      assert.deepEqual(
        r.systems.map((s) => s.id),
        ids,
        saved,
      );
    }
  },
);

test('F3 josharsh project-state.md: read with meaning-based keys once S2 is present', { skip }, async () => {
  const dir = layOut([F3_PS]);
  write(
    dir,
    '.claude/session-ledger.md',
    '## TASK\nv0.3.0 review\n\n## NEXT\nBump to 0.3.0 and npm publish once Harsh approves the redline\n',
  );
  const s = await system(dir, 'S2');
  const ps = s.docs.find((d) => d.role === 'projectState')!;
  assert.equal(ps.relPath, '.claude/project-state.md');
  assert.deepEqual(
    ps.sections.map((x) => [x.key, x.title, x.line, x.items.map((i) => i.line)]),
    [
      ['preamble', '', 2, [2]],
      ['done', 'Latest', 4, [5, 6, 7]],
      ['now', 'Now', 9, [10, 11]],
      ['next', 'Next', 13, [14, 15, 16, 17]],
      ['open', 'Blockers / Open questions', 19, [20]],
      ['decisions', 'Decisions', 22, [23, 24, 25, 26, 27, 28]],
    ],
  );
  assert.equal(ps.sections[4].items[0].text, 'None. npm + gh auth both work from this machine.');
  assert.match(ps.sections[2].items[0].text, /^\*\*v0\.3\.0 semantic redesign staged, unpublished\*\*/);
});

test('F3 kaposty manifest: the durable stores and budgets; as the live manifest it detects S2', { skip }, async () => {
  const text = readFileSync(path.join(CORPUS, F3_MANIFEST), 'utf8');
  const { info } = parseManifest(text);
  assert.equal(info.error, undefined);
  assert.equal(info.ok, true);
  assert.equal(info.kit, true);
  // memory.dir is null, knowledge_docs and curated_ssot are empty lists (their examples are comments).
  assert.deepEqual(info.stores, [{ kind: 'project_state', path: '.claude/project-state.md', line: 122 }]);
  assert.equal(info.projectState, '.claude/project-state.md');
  assert.equal(info.maxAgeMin, 480);
  assert.deepEqual(info.ledgerBudget, { chars: 5200, lines: 150 });

  // Laid out as a project's live manifest next to josharsh's project state: S2, ledger still missing.
  const dir = layOut([F3_PS]);
  write(dir, 'context-manifest.yaml', text);
  const s = await system(dir, 'S2');
  assert.deepEqual(
    s.docs.map((d) => d.role),
    ['manifest', 'projectState'],
  );
  assert.deepEqual([one(s, 'exists').status, one(s, 'exists').path], ['fail', '.claude/session-ledger.md']);
  assert.match(one(s, 'stale-paths').message, /1 PLAN pointers and manifest stores checked — all exist/);
  const gone = workspace({ 'context-manifest.yaml': text });
  const st = (await system(gone, 'S2')).checks.filter((c) => c.id === 'stale-paths');
  assert.deepEqual(
    st.map((c) => [c.status, c.path, c.line]),
    [['warn', 'context-manifest.yaml', 122]],
  );
});

test('F4 Groundwork template STATE (HEAD): S3, the untouched template', { skip }, async () => {
  const dir = layOut([`${GW}STATE.md`, `${GW}DEBT.md`, `${GW}TEMPLATE-DEBT.md`, `${GW}INTAKE.md`]);
  const s = await system(dir, 'S3');
  const st = s.docs[0].meta.s3 as S3Structure;
  assert.deepEqual(st.handoff, { title: 'Handoff: read this first', line: 6, endLine: 14 });
  assert.deepEqual(
    st.fields.map((f) => [f.name, f.line, f.value]),
    [
      ['status', 8, 'NOT STARTED. Fresh copy of Groundwork. Load the `begin` skill.'],
      ['phase', 9, 'TBD'],
      ['branchHead', 10, 'TBD'],
      ['gates', 11, 'TBD'],
      ['now', 12, 'run `begin`'],
      ['blocked', 13, 'TBD'],
    ],
  );
  assert.deepEqual(st.log, { title: 'Log', line: 15, endLine: 21 });
  assert.deepEqual(st.entries, []);
  assert.equal(s.next, 'run `begin`');
  assert.equal(s.resumePrompt, 'Read docs/state/STATE.md and continue from the Now ▶ action.');
  assert.deepEqual([one(s, 'not-skeleton').status, one(s, 'not-skeleton').line], ['fail', 6]);
  assert.equal(one(s, 'handoff-block').status, 'pass');
  assert.equal(one(s, 'budget').message, 'docs/state/STATE.md within budget (21/150 lines).');
  assert.deepEqual(s.docs[0].meta.companions, ['docs/state/DEBT.md', 'docs/state/INTAKE.md']);
  assert.equal(s.label, 'BROKEN');
});

test('F4 Groundwork dogfood STATE (@0e22a75): two dated Log entries, TBD handoff fields', { skip }, async () => {
  const s = await system(layOut([`${GW}STATE.md@0e22a75`]), 'S3');
  const st = s.docs[0].meta.s3 as S3Structure;
  assert.deepEqual(
    st.entries.map((e) => [e.date, e.line, e.endLine, e.title]),
    [
      ['2026-07-08', 21, 29, '2026-07-08 - hard cap: any AGENTS.md/CLAUDE.md never past 200 lines'],
      ['2026-07-08', 30, 40, '2026-07-08 - token-saving: checkpoint skill + context-usage nudge'],
    ],
  );
  assert.equal(one(s, 'not-skeleton').status, 'pass');
  assert.equal(one(s, 'log-order').status, 'pass');
  assert.equal(one(s, 'budget').message, 'docs/state/STATE.md within budget (40/150 lines).');
  assert.deepEqual([one(s, 'gates').status, one(s, 'gates').line], ['warn', 11]);
  assert.deepEqual(
    [one(s, 'branch-head').status, one(s, 'branch-head').message],
    ['warn', 'Branch / HEAD not recorded in the handoff.'],
  );
  assert.deepEqual([one(s, 'pending-recorded').status, one(s, 'pending-recorded').line], ['warn', 13]);
  assert.equal(one(s, 'stale-paths').status, 'skipped'); // no "Docs touched" in these entries
  // TBD handoff fields and Log entries without the seed's four parts are a template, not a finished state.
  assert.deepEqual(
    s.checks.filter((c) => c.id === 'template' && c.status === 'fail').map((c) => c.line),
    [9, 10, 11, 13, 21, 21, 21, 21],
  );
  assert.equal(s.label, 'BROKEN');
});

test(
  "F4 masalai multi-stream STATE is someone else's file: nothing detected, even beside Groundwork's DEBT",
  { skip },
  async () => {
    const r = await evaluate(layOut([MASALAI, `${GW}DEBT.md`]), { noGit: true });
    assert.deepEqual(r.systems, []);
  },
);

test(
  'F5 fempy STATE + PROGRESS: 2x Current Bug Fix + 1 Current Feature; the newest block is the one PROGRESS names',
  { skip },
  async () => {
    const s = await system(layOut([FEMPY, FEMPY_PROGRESS]), 'S4');
    const st = s.docs[0].meta.s4 as S4Structure;
    assert.deepEqual(st.agentState, [1]);
    assert.deepEqual(st.progressTracker, [19]);
    assert.deepEqual(
      st.blocks.map((b) => [b.kind, b.line, b.endLine, b.blockId, b.newestOfKind]),
      [
        ['bugfix', 27, 63, 'framewebforjs-calculation-communication-error', false],
        ['bugfix', 64, 102, 'framewebforjs-results-not-displayed', true],
        ['feature', 103, 135, 'c-frameweb-desktop-client-step-2', true],
      ],
    );
    assert.equal(st.blocks[2].name, 'C# FrameWeb Desktop Client Step 2');
    assert.equal(s.next, '次セッションはlegacy-cases-v1の選択方法を確定し、contract testから開始する。');
    assert.deepEqual([one(s, 'next-action').status, one(s, 'next-action').line], ['pass', 98]);
    assert.equal(
      s.resumePrompt,
      'Read .agents/STATE.md and continue from the newest Current block (Current Bug Fix: framewebforjs-results-not-displayed).',
    );
    assert.equal(one(s, 'structure').status, 'pass');
    const c = one(s, 'compaction');
    assert.deepEqual(
      [c.status, c.line, c.message],
      ['warn', 27, '2 "## Current Bug Fix" blocks (lines 27, 64): compaction keeps only the newest (line 64).'],
    );
    assert.deepEqual([one(s, 'pending-recorded').status, one(s, 'pending-recorded').line], ['pass', 86]);
    assert.equal(one(s, 'progress-entries').message, 'PROGRESS.md holds 1 entry (at most 5).');
    const es = s.docs[1].meta.entries as ProgressEntry[];
    assert.deepEqual(es, [
      {
        title: '[2026-09-18-055240](.agents/checkpoints/2026-09-18-055240.md)',
        timestamp: '2026-09-18-055240',
        link: '.agents/checkpoints/2026-09-18-055240.md',
        line: 6,
        endLine: 45,
      },
    ]);
    assert.deepEqual(
      s.docs[1].sections.map((x) => [x.key, x.line]),
      [
        ['title', 1],
        ['entry', 6],
        ['done', 8],
        ['interactions', 16],
        ['how', 22],
        ['issues', 30],
        ['next', 38],
      ],
    );
    // Japanese text and the block-id comments survive as written.
    const ctx = s.docs[0].sections.find((x) => x.line === 30)!;
    assert.equal(ctx.key, 'context');
    assert.match(ctx.items[0].text, /^Error: Ct桁プリセットの計算で汎用通信エラー/);
    // Laid out without .agents/checkpoints/: the seed's newest checkpoint (and its five-part summary) is missing.
    assert.deepEqual(
      s.checks.filter((c) => c.status === 'fail').map((c) => [c.id, c.message]),
      [['template', ".agents/checkpoints has no checkpoint in .agents/checkpoints/: the seed's format requires it."]],
    );
    assert.equal(s.label, 'BROKEN');
  },
);

test('F5 fempy STATE alone: without PROGRESS the newest block is the last in the file', { skip }, async () => {
  const s = await system(layOut([FEMPY]), 'S4');
  assert.equal(s.next, 'The next implementation step is Step 3 desktop shell/docking lifecycle.');
  assert.equal(one(s, 'next-action').line, 134);
  assert.equal(one(s, 'progress-entries').status, 'skipped');
});

test('F5 fempy in CRLF with a BOM reads exactly as in LF', { skip }, async () => {
  const lf = await system(layOut([FEMPY, FEMPY_PROGRESS]), 'S4');
  const crlf = await system(
    layOut([FEMPY, FEMPY_PROGRESS], (t) => `\uFEFF${t.replace(/\n/g, '\r\n')}`),
    'S4',
  );
  assert.deepEqual(
    crlf.docs.map((d) => [d.sections, d.meta]),
    lf.docs.map((d) => [d.sections, d.meta]),
  );
  assert.equal(crlf.next, lf.next);
  assert.deepEqual(
    crlf.checks.map((c) => [c.id, c.status, c.line]),
    lf.checks.map((c) => [c.id, c.status, c.line]),
  );
});

test('F5 tickreplay STATE: one Current Feature with no written next step', { skip }, async () => {
  const s = await system(layOut([TICK]), 'S4');
  const st = s.docs[0].meta.s4 as S4Structure;
  assert.deepEqual(st.agentState, [1]);
  assert.deepEqual(st.progressTracker, [15]);
  assert.deepEqual(st.blocks, [
    {
      kind: 'feature',
      title: 'Current Feature: Minute chart interaction and historical loading',
      name: 'Minute chart interaction and historical loading',
      blockId: 'minute-chart-interaction-and-historical-loading',
      line: 23,
      endLine: 61,
      newestOfKind: true,
    },
  ]);
  assert.equal(s.next, null);
  assert.equal(one(s, 'next-action').status, 'fail');
  assert.equal(one(s, 'not-skeleton').status, 'pass');
  assert.deepEqual([one(s, 'pending-recorded').status, one(s, 'pending-recorded').line], ['pass', 56]);
  assert.equal(one(s, 'compaction').status, 'pass');
  assert.equal(s.label, 'BROKEN');
});

test('hostile input: 60,000-character lines of unclosed brackets in every S2–S4 field read in linear time; a bad %-escape does not throw', async () => {
  const n = 20_000;
  const big = '['.repeat(n) + '('.repeat(n) + '<!--'.repeat(n / 10) + ' a'.repeat(n);
  const dir = workspace({
    '.claude/session-ledger.md': `## NEXT\n${big}\n\n## VERIFIED\n- ${big}\n\n## DROPPED\n- ${big}\n\n## PLAN\n- [plan](docs/%25E0.md) ${big}\n`,
    'docs/state/STATE.md': `## ${big}\n\n## Handoff\n- **Branch / HEAD:** ${big}\n- **Now ▶** ${big}\n\n## Log\n### 2026-01-01 ${big}\n- Docs touched: [x](%E0%A4%A.md) ${big}\n`,
    '.agents/STATE.md': `# Agent State\n\n## Current Feature: ${big}\n<!-- orchestra:block-id: ${big} -->\n\n### Decisions\n- next step ${big}\n`,
  });
  // How long it takes is for `npm run bench` to say (a timed assertion fails on a busy machine).
  const r = await evaluate(dir, { noGit: true });
  assert.deepEqual(
    r.systems.map((s) => s.id),
    ['S2', 'S3', 'S4'],
  );
  assert.ok(r.systems.every((s) => !s.checks.some((c) => c.id === 'internal')));
  const s2 = r.systems[0];
  assert.deepEqual(
    s2.checks.filter((c) => c.id === 'stale-paths').map((c) => c.message),
    ['STALE PATH: docs/%E0.md does not exist.'],
  );
});
