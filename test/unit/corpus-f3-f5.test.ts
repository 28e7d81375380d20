/**
 * The files of corpus F3 (S2), F4 (S3) and F5 (S4), laid out at their real repository paths in temp
 * workspaces, read as a careful human reads them: the external corpus's real files (read in place,
 * never copied into the repository; an extra that runs when ../shared is there) and the in-repo
 * corpus's files of the same shapes. Expected values were taken from the files by hand.
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
import { corpusRows, EXTERNAL_CORPUS, oneCheck, OWN_CORPUS, systemIn, workspace, write } from './helpers';

/** A workspace holding these files of a corpus (by saved name) at their real paths; `transform` may rewrite their text. */
function layOutFrom(corpus: string, saved: string[], transform?: (s: string) => string): string {
  const paths = new Map(corpusRows(corpus).map((r) => [r.savedAs, r.path]));
  const dir = workspace();
  for (const s of saved) {
    const rel = paths.get(s);
    assert.ok(rel, `${s} not in INDEX.tsv`);
    const dest = path.join(dir, rel);
    mkdirSync(path.dirname(dest), { recursive: true });
    if (!transform) copyFileSync(path.join(corpus, s), dest);
    else writeFileSync(dest, transform(readFileSync(path.join(corpus, s), 'utf8')));
  }
  return dir;
}

const system = (dir: string, id: string): Promise<SystemReport> => systemIn(dir, id, { noGit: true });

const one = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);

/**
 * One test per shape, run on the in-repo corpus's file of that shape and, when the external corpus is
 * here, on the real file it was modelled on. A case names its files by saved name and holds what a
 * careful reading of them gives; `layOut` puts them at their real paths in a temp workspace.
 */
interface Case {
  name: string;
  // (A block or log that runs to the end of a file ends on the empty line after its last newline: a
  // file of 18 newline-ended lines has 19; the budget counts them the same way.)
  layOut: (saved: string[], transform?: (s: string) => string) => string;
}
function cases<T>(own: T, real: T): T[] {
  return [own, ...(EXTERNAL_CORPUS ? [real] : [])];
}
const OWN: Pick<Case, 'layOut'> = { layOut: (saved, transform) => layOutFrom(OWN_CORPUS, saved, transform) };
const REAL: Pick<Case, 'layOut'> = { layOut: (saved, transform) => layOutFrom(EXTERNAL_CORPUS!, saved, transform) };

for (const c of cases<Case & { expected: Record<string, string[]> }>(
  {
    name: 'in-repo corpus',
    ...OWN,
    expected: {
      'F3/own__icon-kit__.claude__project-state.md': [],
      'F3/own__context-kit__context-manifest.example.yaml': [],
      'F4/own__groundwork-copy__docs__state__STATE.md': ['S3'],
      'F4/own__groundwork-copy__docs__state__STATE.md@dogfood': ['S3'],
      'F4/own__groundwork-copy__docs__state__DEBT.md': [],
      'F4/own__groundwork-copy__docs__state__INTAKE.md': [],
      'F4/own__multi-stream__docs__state__STATE.md': [],
      'F5/own__frame-app__.agents__STATE.md': ['S4'],
      'F5/own__frame-app__PROGRESS.md': [],
      'F5/own__chart-replay__.agents__STATE.md': ['S4'],
    },
  },
  {
    name: 'external corpus',
    ...REAL,
    expected: {
      'F3/josharsh__agenticons__.claude__project-state.md': [],
      'F3/kaposty__context-kit__context-manifest.example.yaml': [],
      'F4/Tradebaas__Groundwork__docs__state__STATE.md': ['S3'],
      'F4/Tradebaas__Groundwork__docs__state__STATE.md@0e22a75': ['S3'],
      'F4/Tradebaas__Groundwork__docs__state__DEBT.md': [],
      'F4/Tradebaas__Groundwork__docs__state__TEMPLATE-DEBT.md': [],
      'F4/Tradebaas__Groundwork__docs__state__INTAKE.md': [],
      'F4/tolgakaya__masalai__docs__state__STATE.md': [],
      'F5/sasaco__fempy__.agents__STATE.md': ['S4'],
      'F5/sasaco__fempy__PROGRESS.md': [],
      'F5/UNKNOWN__tickreplay-project__.agents__STATE.md': ['S4'],
    },
  },
))
  test(`${c.name}: each F3–F5 file alone at its real path: which system it is (someone else's files are nobody's)`, async () => {
    for (const [saved, ids] of Object.entries(c.expected)) {
      const r = await evaluate(c.layOut([saved]), { noGit: true });
      assert.deepEqual(
        r.systems.map((x) => x.id),
        ids,
        saved,
      );
    }
  });

type Sections = Array<[string, string, number, number[]]>;
for (const c of cases<Case & { file: string; task: string; sections: Sections; open: string; now: RegExp }>(
  {
    name: 'in-repo icon-kit',
    ...OWN,
    file: 'F3/own__icon-kit__.claude__project-state.md',
    task: '## TASK\nv1.2.0 review\n\n## NEXT\nPublish 1.2.0 once the redrawn icons are approved\n',
    sections: [
      ['preamble', '', 2, [2]],
      ['done', 'Latest', 4, [5, 6]],
      ['now', 'Now', 8, [9, 10]],
      ['next', 'Next', 12, [13, 14]],
      ['open', 'Blockers / Open questions', 16, [17]],
      ['decisions', 'Decisions', 19, [20, 21]],
    ],
    open: 'None. npm and gh both work from this machine.',
    now: /^\*\*v1\.2\.0 redesign staged, unpublished\*\*/,
  },
  {
    name: 'external josharsh',
    ...REAL,
    file: 'F3/josharsh__agenticons__.claude__project-state.md',
    task: '## TASK\nv0.3.0 review\n\n## NEXT\nBump to 0.3.0 and npm publish once Harsh approves the redline\n',
    sections: [
      ['preamble', '', 2, [2]],
      ['done', 'Latest', 4, [5, 6, 7]],
      ['now', 'Now', 9, [10, 11]],
      ['next', 'Next', 13, [14, 15, 16, 17]],
      ['open', 'Blockers / Open questions', 19, [20]],
      ['decisions', 'Decisions', 22, [23, 24, 25, 26, 27, 28]],
    ],
    open: 'None. npm + gh auth both work from this machine.',
    now: /^\*\*v0\.3\.0 semantic redesign staged, unpublished\*\*/,
  },
))
  test(`F3 ${c.name} project-state.md: read with meaning-based keys once S2 is present`, async () => {
    const dir = c.layOut([c.file]);
    write(dir, '.claude/session-ledger.md', c.task);
    const ps = (await system(dir, 'S2')).docs.find((d) => d.role === 'projectState')!;
    assert.equal(ps.relPath, '.claude/project-state.md');
    assert.deepEqual(
      ps.sections.map((x) => [x.key, x.title, x.line, x.items.map((i) => i.line)]),
      c.sections,
    );
    assert.equal(ps.sections[4].items[0].text, c.open);
    assert.match(ps.sections[2].items[0].text, c.now);
  });

for (const c of cases<
  Case & {
    manifest: string;
    ps: string;
    storeLine: number;
    maxAgeMin: number;
    budget: { chars: number; lines: number };
  }
>(
  {
    name: 'in-repo context-kit',
    ...OWN,
    manifest: 'F3/own__context-kit__context-manifest.example.yaml',
    ps: 'F3/own__icon-kit__.claude__project-state.md',
    storeLine: 26,
    maxAgeMin: 240,
    budget: { chars: 4000, lines: 120 },
  },
  {
    name: 'external kaposty',
    ...REAL,
    manifest: 'F3/kaposty__context-kit__context-manifest.example.yaml',
    ps: 'F3/josharsh__agenticons__.claude__project-state.md',
    storeLine: 122,
    maxAgeMin: 480,
    budget: { chars: 5200, lines: 150 },
  },
))
  test(`F3 ${c.name} manifest: the durable stores and budgets; as the live manifest it detects S2`, async () => {
    const text = readFileSync(path.join(c.layOut([c.manifest]), 'context-manifest.example.yaml'), 'utf8');
    const { info } = parseManifest(text);
    assert.equal(info.error, undefined);
    assert.equal(info.ok, true);
    assert.equal(info.kit, true);
    // memory.dir is null, knowledge_docs and curated_ssot are empty lists (their examples are comments).
    assert.deepEqual(info.stores, [{ kind: 'project_state', path: '.claude/project-state.md', line: c.storeLine }]);
    assert.equal(info.projectState, '.claude/project-state.md');
    assert.equal(info.maxAgeMin, c.maxAgeMin);
    assert.deepEqual(info.ledgerBudget, c.budget);

    // Laid out as a project's live manifest next to a project state: S2, ledger still missing.
    const dir = c.layOut([c.ps]);
    write(dir, 'context-manifest.yaml', text);
    const s = await system(dir, 'S2');
    assert.deepEqual(
      s.docs.map((d) => d.role),
      ['manifest', 'projectState'],
    );
    assert.deepEqual([one(s, 'exists').status, one(s, 'exists').path], ['fail', '.claude/session-ledger.md']);
    assert.match(one(s, 'stale-paths').message, /1 PLAN pointers and manifest stores checked — all exist/);
    const gone = workspace({ 'context-manifest.yaml': text });
    const st = (await system(gone, 'S2')).checks.filter((x) => x.id === 'stale-paths');
    assert.deepEqual(
      st.map((x) => [x.status, x.path, x.line]),
      [['warn', 'context-manifest.yaml', c.storeLine]],
    );
  });

for (const c of cases<Case & { files: string[]; status: string; lines: number }>(
  {
    name: 'in-repo groundwork-copy',
    ...OWN,
    files: ['STATE.md', 'DEBT.md', 'INTAKE.md'].map((f) => `F4/own__groundwork-copy__docs__state__${f}`),
    status: 'NOT STARTED. A fresh copy of the framework. Load the `begin` skill.',
    lines: 19,
  },
  {
    name: 'external Groundwork (HEAD)',
    ...REAL,
    files: ['STATE.md', 'DEBT.md', 'TEMPLATE-DEBT.md', 'INTAKE.md'].map(
      (f) => `F4/Tradebaas__Groundwork__docs__state__${f}`,
    ),
    status: 'NOT STARTED. Fresh copy of Groundwork. Load the `begin` skill.',
    lines: 21,
  },
))
  test(`F4 ${c.name} template STATE: S3, the untouched template`, async () => {
    const s = await system(c.layOut(c.files), 'S3');
    const st = s.docs[0].meta.s3 as S3Structure;
    assert.deepEqual(st.handoff, { title: 'Handoff: read this first', line: 6, endLine: 14 });
    assert.deepEqual(
      st.fields.map((f) => [f.name, f.line, f.value]),
      [
        ['status', 8, c.status],
        ['phase', 9, 'TBD'],
        ['branchHead', 10, 'TBD'],
        ['gates', 11, 'TBD'],
        ['now', 12, 'run `begin`'],
        ['blocked', 13, 'TBD'],
      ],
    );
    assert.deepEqual(st.log, { title: 'Log', line: 15, endLine: c.lines });
    assert.deepEqual(st.entries, []);
    assert.equal(s.next, 'run `begin`');
    assert.equal(s.resumePrompt, 'Read docs/state/STATE.md and continue from the Now ▶ action.');
    assert.deepEqual([one(s, 'not-skeleton').status, one(s, 'not-skeleton').line], ['fail', 6]);
    assert.equal(one(s, 'handoff-block').status, 'pass');
    assert.equal(one(s, 'budget').message, `docs/state/STATE.md within budget (${c.lines}/150 lines).`);
    assert.deepEqual(s.docs[0].meta.companions, ['docs/state/DEBT.md', 'docs/state/INTAKE.md']);
    assert.equal(s.label, 'BROKEN');
  });

for (const c of cases<Case & { file: string; entries: Array<[string, number, number, string]>; lines: number }>(
  {
    name: 'in-repo groundwork-copy (dogfood)',
    ...OWN,
    file: 'F4/own__groundwork-copy__docs__state__STATE.md@dogfood',
    entries: [
      ['2026-07-10', 20, 24, '2026-07-10 - cap on instruction files'],
      ['2026-07-09', 25, 29, '2026-07-09 - checkpoint skill'],
    ],
    lines: 29,
  },
  {
    name: 'external Groundwork dogfood (@0e22a75)',
    ...REAL,
    file: 'F4/Tradebaas__Groundwork__docs__state__STATE.md@0e22a75',
    entries: [
      ['2026-07-08', 21, 29, '2026-07-08 - hard cap: any AGENTS.md/CLAUDE.md never past 200 lines'],
      ['2026-07-08', 30, 40, '2026-07-08 - token-saving: checkpoint skill + context-usage nudge'],
    ],
    lines: 40,
  },
))
  test(`F4 ${c.name} STATE: two dated Log entries, TBD handoff fields`, async () => {
    const s = await system(c.layOut([c.file]), 'S3');
    const st = s.docs[0].meta.s3 as S3Structure;
    assert.deepEqual(
      st.entries.map((e) => [e.date, e.line, e.endLine, e.title]),
      c.entries,
    );
    assert.equal(one(s, 'not-skeleton').status, 'pass');
    assert.equal(one(s, 'log-order').status, 'pass');
    assert.equal(one(s, 'budget').message, `docs/state/STATE.md within budget (${c.lines}/150 lines).`);
    assert.equal(one(s, 'stale-paths').status, 'skipped'); // no "Docs touched" in these entries
    // TBD handoff fields and Log entries without the seed's four parts are a template, not a finished state.
    const first = c.entries[0][1];
    const template = s.checks.filter((x) => x.id === 'template' && x.status === 'fail');
    assert.deepEqual(
      template.map((x) => [x.line, x.message]),
      [
        [9, 'Phase is still template text in docs/state/STATE.md: "TBD".'],
        [10, 'Branch / HEAD is still template text in docs/state/STATE.md: "TBD".'],
        [11, 'Gates is still template text in docs/state/STATE.md: "TBD".'],
        [13, 'Blocked on is still template text in docs/state/STATE.md: "TBD".'],
        ...['Done', 'Docs touched', 'Lessons / gotchas', 'Stopped at'].map((part) => [
          first,
          `No ${part} in the Log entry of ${c.entries[0][0]} in docs/state/STATE.md: S3's format requires it.`,
        ]),
      ],
    );
    // Each of those gaps is one finding, the blocking one, with the fix the warning on it gave: Gates,
    // Branch / HEAD, Blocked on and the entry's parts are not said again as warnings.
    assert.deepEqual(
      s.checks.filter((x) => x.status === 'fail' || x.status === 'warn').map((x) => [x.id, x.severity]),
      Array.from({ length: 8 }, () => ['template', 'block']),
    );
    assert.deepEqual(
      ['gates', 'branch-head', 'pending-recorded', 'log-entry'].map((id) => [
        id,
        one(s, id).status,
        one(s, id).message,
      ]),
      [
        ['gates', 'skipped', 'Covered by the blocking template finding on line 11.'],
        ['branch-head', 'skipped', 'Covered by the blocking template finding on line 10.'],
        ['pending-recorded', 'skipped', 'Covered by the blocking template finding on line 13.'],
        ['log-entry', 'skipped', `Covered by the blocking template finding on line ${first}.`],
      ],
    );
    assert.deepEqual(
      template.map((x) => x.hint),
      [
        'Write Phase from the session; a placeholder does not count.',
        'Update Branch / HEAD from `git branch --show-current` and `git rev-parse --short HEAD`.',
        'Write the real state with its numbers: "checks green, tests 42/42, CI green @ <sha>".',
        'Name what waits on the user or an external thing, else clear the field.',
        ...Array.from(
          { length: 4 },
          () =>
            'Give the entry its four parts: Done (what changed), Docs touched (links), Lessons / gotchas (what a fresh session would rediscover), Stopped at (mirroring Now ▶).',
        ),
      ],
    );
    assert.equal(s.label, 'BROKEN');
  });

for (const c of cases<Case & { files: string[] }>(
  {
    name: 'in-repo multi-stream',
    ...OWN,
    files: ['F4/own__multi-stream__docs__state__STATE.md', 'F4/own__groundwork-copy__docs__state__DEBT.md'],
  },
  {
    name: 'external masalai',
    ...REAL,
    files: ['F4/tolgakaya__masalai__docs__state__STATE.md', 'F4/Tradebaas__Groundwork__docs__state__DEBT.md'],
  },
))
  test(`F4 ${c.name} multi-stream STATE is someone else's file: nothing detected, even beside a DEBT.md`, async () => {
    assert.deepEqual((await evaluate(c.layOut(c.files), { noGit: true })).systems, []);
  });

interface TwoBugFixes extends Case {
  files: [string, string];
  tracker: number;
  blocks: Array<[string, number, number, string, boolean]>;
  feature: string;
  next: string;
  nextLine: number;
  resume: string;
  pendingLine: number;
  entry: ProgressEntry;
  progress: Array<[string, number]>;
  context: [number, RegExp];
  alone: [string, number];
}
for (const c of cases<TwoBugFixes>(
  {
    name: 'in-repo frame-app',
    ...OWN,
    files: ['F5/own__frame-app__.agents__STATE.md', 'F5/own__frame-app__PROGRESS.md'],
    tracker: 14,
    blocks: [
      ['bugfix', 22, 36, 'web-upload-timeout', false],
      ['bugfix', 37, 55, 'web-results-not-shown', true],
      ['feature', 56, 67, 'desktop-client-step-2', true],
    ],
    feature: 'Desktop Client Step 2',
    next: '次セッションは応答バージョンの指定方法を確定し、contract test から開始する。',
    nextLine: 52,
    resume: 'Current Bug Fix: web-results-not-shown',
    pendingLine: 47,
    entry: {
      title: '[2026-09-20-101500](.agents/checkpoints/2026-09-20-101500.md)',
      timestamp: '2026-09-20-101500',
      link: '.agents/checkpoints/2026-09-20-101500.md',
      line: 6,
      endLine: 27,
    },
    progress: [
      ['title', 1],
      ['entry', 6],
      ['done', 8],
      ['interactions', 12],
      ['how', 16],
      ['issues', 20],
      ['next', 24],
    ],
    context: [25, /^Error: 大きい入力ファイル/],
    alone: ['The next implementation step is Step 3 window docking.', 66],
  },
  {
    name: 'external fempy',
    ...REAL,
    files: ['F5/sasaco__fempy__.agents__STATE.md', 'F5/sasaco__fempy__PROGRESS.md'],
    tracker: 19,
    blocks: [
      ['bugfix', 27, 63, 'framewebforjs-calculation-communication-error', false],
      ['bugfix', 64, 102, 'framewebforjs-results-not-displayed', true],
      ['feature', 103, 135, 'c-frameweb-desktop-client-step-2', true],
    ],
    feature: 'C# FrameWeb Desktop Client Step 2',
    next: '次セッションはlegacy-cases-v1の選択方法を確定し、contract testから開始する。',
    nextLine: 98,
    resume: 'Current Bug Fix: framewebforjs-results-not-displayed',
    pendingLine: 86,
    entry: {
      title: '[2026-09-18-055240](.agents/checkpoints/2026-09-18-055240.md)',
      timestamp: '2026-09-18-055240',
      link: '.agents/checkpoints/2026-09-18-055240.md',
      line: 6,
      endLine: 45,
    },
    progress: [
      ['title', 1],
      ['entry', 6],
      ['done', 8],
      ['interactions', 16],
      ['how', 22],
      ['issues', 30],
      ['next', 38],
    ],
    context: [30, /^Error: Ct桁プリセットの計算で汎用通信エラー/],
    alone: ['The next implementation step is Step 3 desktop shell/docking lifecycle.', 134],
  },
))
  test(`F5 ${c.name} STATE + PROGRESS: 2x Current Bug Fix + 1 Current Feature; the newest block is the one PROGRESS names; alone, the last; CRLF with a BOM reads the same`, async () => {
    const s = await system(c.layOut(c.files), 'S4');
    const st = s.docs[0].meta.s4 as S4Structure;
    assert.deepEqual([st.agentState, st.progressTracker], [[1], [c.tracker]]);
    const bug1 = c.blocks[0][1];
    const bug2 = c.blocks[1][1];
    assert.deepEqual(
      st.blocks.map((b) => [b.kind, b.line, b.endLine, b.blockId, b.newestOfKind]),
      c.blocks,
    );
    assert.equal(st.blocks[2].name, c.feature);
    assert.equal(s.next, c.next);
    assert.deepEqual([one(s, 'next-action').status, one(s, 'next-action').line], ['pass', c.nextLine]);
    assert.equal(s.resumePrompt, `Read .agents/STATE.md and continue from the newest Current block (${c.resume}).`);
    assert.equal(one(s, 'structure').status, 'pass');
    assert.deepEqual(
      [one(s, 'compaction').status, one(s, 'compaction').line, one(s, 'compaction').message],
      [
        'warn',
        bug1,
        `2 "## Current Bug Fix" blocks (lines ${bug1}, ${bug2}): compaction keeps only the newest (line ${bug2}).`,
      ],
    );
    assert.deepEqual([one(s, 'pending-recorded').status, one(s, 'pending-recorded').line], ['pass', c.pendingLine]);
    assert.equal(one(s, 'progress-entries').message, 'PROGRESS.md holds 1 entry (at most 5).');
    assert.deepEqual(s.docs[1].meta.entries as ProgressEntry[], [c.entry]);
    assert.deepEqual(
      s.docs[1].sections.map((x) => [x.key, x.line]),
      c.progress,
    );
    // Japanese text and the block-id comments survive as written.
    const ctx = s.docs[0].sections.find((x) => x.line === c.context[0])!;
    assert.equal(ctx.key, 'context');
    assert.match(ctx.items[0].text, c.context[1]);
    // Laid out without .agents/checkpoints/: the seed's newest checkpoint (and its five-part summary) is missing.
    assert.deepEqual(
      s.checks.filter((x) => x.status === 'fail').map((x) => [x.id, x.message]),
      [['template', "No checkpoint in .agents/checkpoints/: S4's format requires it."]],
    );
    assert.equal(s.label, 'BROKEN');

    const crlf = await system(
      c.layOut(c.files, (t) => `\uFEFF${t.replace(/\n/g, '\r\n')}`),
      'S4',
    );
    assert.deepEqual(
      crlf.docs.map((d) => [d.sections, d.meta]),
      s.docs.map((d) => [d.sections, d.meta]),
    );
    assert.equal(crlf.next, s.next);
    assert.deepEqual(
      crlf.checks.map((x) => [x.id, x.status, x.line]),
      s.checks.map((x) => [x.id, x.status, x.line]),
    );

    // Without PROGRESS the newest block is the last in the file.
    const alone = await system(c.layOut([c.files[0]]), 'S4');
    assert.equal(alone.next, c.alone[0]);
    assert.equal(one(alone, 'next-action').line, c.alone[1]);
    assert.equal(one(alone, 'progress-entries').status, 'skipped');
  });

for (const c of cases<
  Case & {
    file: string;
    tracker: number;
    block: Omit<S4Structure['blocks'][number], 'kind' | 'newestOfKind'>;
    pendingLine: number;
  }
>(
  {
    name: 'in-repo chart-replay',
    ...OWN,
    file: 'F5/own__chart-replay__.agents__STATE.md',
    tracker: 11,
    block: {
      title: 'Current Feature: Minute chart history loading',
      name: 'Minute chart history loading',
      blockId: 'minute-chart-history-loading',
      line: 17,
      endLine: 32,
    },
    pendingLine: 30,
  },
  {
    name: 'external tickreplay',
    ...REAL,
    file: 'F5/UNKNOWN__tickreplay-project__.agents__STATE.md',
    tracker: 15,
    block: {
      title: 'Current Feature: Minute chart interaction and historical loading',
      name: 'Minute chart interaction and historical loading',
      blockId: 'minute-chart-interaction-and-historical-loading',
      line: 23,
      endLine: 61,
    },
    pendingLine: 56,
  },
))
  test(`F5 ${c.name} STATE: one Current Feature with no written next step`, async () => {
    const s = await system(c.layOut([c.file]), 'S4');
    const st = s.docs[0].meta.s4 as S4Structure;
    assert.deepEqual(st.agentState, [1]);
    assert.deepEqual(st.progressTracker, [c.tracker]);
    assert.deepEqual(st.blocks, [{ kind: 'feature', ...c.block, newestOfKind: true }]);
    assert.equal(s.next, null);
    assert.equal(one(s, 'next-action').status, 'fail');
    assert.equal(one(s, 'not-skeleton').status, 'pass');
    assert.deepEqual([one(s, 'pending-recorded').status, one(s, 'pending-recorded').line], ['pass', c.pendingLine]);
    assert.equal(one(s, 'compaction').status, 'pass');
    assert.equal(s.label, 'BROKEN');
  });

test('hostile input: 15,000-character lines of unclosed brackets in every S2–S4 field are read; a bad %-escape does not throw', async () => {
  const n = 5_000;
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
