/**
 * Rules whose one-line bugs the first mutation runs showed no test would notice: S0's finished Now,
 * S1's forward-only handoff and the snapshot block's place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Check, Finding, StateDoc, SystemReport } from '../../src/core/model/model';
import { addFindings, checkNotSkeleton } from '../../src/core/rules/common';
import { checksWith, fixtureCopy, git, gitInit, systemIn, workspace } from './helpers';

const S0_CONFIG = { '.agents.yml': 'session:\n  ledger: true\n' };
const ledger = (now: string) =>
  `# Session Ledger\n\n## Goal\nShip CSV export.\n\n## Decisions\n- UTC dates\n\n## Now\n${now}\n\n## Next\n- Wire exportCsv() into the Export button in src/invoices.ts\n\n## Open Questions\n- none\n`;

test('S0: a Now that says the work is finished falls to Next, in every spelling; a real Now stays', async () => {
  const next = 'Wire exportCsv() into the Export button in src/invoices.ts';
  for (const now of [
    'Done.',
    'All done',
    'complete',
    'Nothing left to do',
    'Finished!',
    'Готово к публикации.',
    'Задача выполнена.',
    'The export is done.',
    'Tests have been completed',
    '作業完了',
    '작업 완료',
  ]) {
    const s = await systemIn(workspace({ ...S0_CONFIG, '.agents/session_ledger.md': ledger(now) }), 'S0');
    assert.equal(s.next, next, now);
  }
  const real = await systemIn(
    workspace({ ...S0_CONFIG, '.agents/session_ledger.md': ledger('Quote the Excel cells in src/export/csv.ts') }),
    'S0',
  );
  assert.equal(real.next, 'Quote the Excel cells in src/export/csv.ts');
  // "done" inside a longer action is not a finished Now.
  const longer = await systemIn(
    workspace({
      ...S0_CONFIG,
      '.agents/session_ledger.md': ledger('Make `npm run done-check` pass in scripts/done.ts'),
    }),
    'S0',
  );
  assert.equal(longer.next, 'Make `npm run done-check` pass in scripts/done.ts');
});

const HANDOFF = 'memory/session-handoff-LATEST.md';
function s1With(edit: (text: string) => string): Promise<SystemReport> {
  const dir = fixtureCopy('s1/good');
  const file = path.join(dir, HANDOFF);
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return systemIn(dir, 'S1');
}
const only = (s: SystemReport, id: string): Check[] => checksWith(s.checks, id);

test('S1 future-oriented: a Done or history section warns with its line; a finished-work list item too; neither passes', async () => {
  const good = await s1With((t) => t);
  assert.deepEqual(
    only(good, 'future-oriented').map((c) => c.status),
    ['pass'],
  );
  for (const [title, line] of [
    ['## Done this session', 'Done this session'],
    ['## History', 'History'],
  ]) {
    const s = await s1With((t) => `${t.trimEnd()}\n\n${title}\n- exported the CSV\n`);
    const c = only(s, 'future-oriented');
    assert.deepEqual(
      c.map((x) => [x.status, x.message]),
      [
        [
          'warn',
          `"${line}" lists work already done: the handoff must say only what the next session does (Invariant 2).`,
        ],
      ],
    );
    assert.equal(c[0].line, s.docs[0].text.split('\n').indexOf(title) + 1);
  }
  const item = await s1With((t) =>
    t.replace('## Current work status\n', '## Current work status\n- Completed: the CSV writer\n'),
  );
  assert.deepEqual(
    only(item, 'future-oriented').map((c) => [c.status, c.message]),
    [['warn', 'A list of finished work: "Completed: the CSV writer" (Invariant 2).']],
  );
});

test('S1 snapshot place: right after the front matter (blank lines and comments between are fine); below text or the title warns', async () => {
  const fm = (t: string) => t.indexOf('<!-- state-snapshot v1 -->');
  const ok = await s1With((t) => `${t.slice(0, fm(t))}\n<!-- note -->\n\n${t.slice(fm(t))}`);
  assert.deepEqual(
    only(ok, 'snapshot').map((c) => c.status),
    ['pass'],
  );
  const below = await s1With((t) => `${t.slice(0, fm(t))}Some words first.\n\n${t.slice(fm(t))}`);
  const b = only(below, 'snapshot');
  assert.equal(b[0].status, 'warn');
  assert.equal(
    b[0].message,
    "The state-snapshot v1 block sits below other text (line 5): S1's handoff format puts it right after the front matter, before the title.",
  );
  // Without front matter the block belongs at the very top.
  const top = await s1With((t) => t.slice(t.indexOf('---', 3) + 4));
  assert.deepEqual(
    only(top, 'snapshot').map((c) => c.status),
    ['pass'],
  );
  const afterTitle = await s1With((t) => {
    const block = t.slice(fm(t), t.indexOf('```', t.indexOf('```') + 3) + 4);
    const rest = t.replace(block, '');
    const title = rest.indexOf('\n# ') + 1;
    const eol = rest.indexOf('\n', title) + 1;
    return rest.slice(0, eol) + block + rest.slice(eol);
  });
  const a = only(afterTitle, 'snapshot');
  assert.equal(a[0].status, 'warn');
  assert.match(a[0].message, /^The state-snapshot v1 block sits after the title \(line \d+\)/);
});

const one = (s: SystemReport, id: string): Check => {
  const c = only(s, id);
  assert.equal(c.length, 1, `${id}: ${JSON.stringify(c)}`);
  return c[0];
};

test('S1 next-command: a call like `exportCsv(rows, filter)` or a path is no command; `npm test -- invoices` is', async () => {
  const item1 = (s: string) => (t: string) => t.replace(/^1\. .*$/m, `1. **Wire the Export button** — ${s}.`);
  assert.equal(one(await s1With(item1('run `npm test -- invoices` to confirm')), 'next-command').status, 'pass');
  for (const s of [
    'call `exportCsv(rows, filter)` from the handler',
    'edit `src/invoices.ts` and `onExport()`',
    'see `docs/plan.md`',
    'pass `rows, filter` along',
  ]) {
    const c = one(await s1With(item1(s)), 'next-command');
    assert.deepEqual(
      [c.status, c.message],
      ['warn', 'No execution command in item 1 of "What to do now (priority order)".'],
      s,
    );
  }
});

test('S1 clarity Q1: the snapshot\'s ctx answers "where does the work stand" without a status or understanding section', async () => {
  const strip = (t: string) =>
    t
      .replace(/## Current work status[\s\S]*?(?=## Pending decisions)/, '')
      .replace(/## System understanding[\s\S]*?(?=## User)/, '');
  const c = only(await s1With(strip), 'clarity');
  assert.deepEqual(
    c.map((x) => x.status),
    ['pass'],
    JSON.stringify(c),
  );
  const noCtx = only(
    await s1With((t) =>
      strip(t)
        .replace(/^ctx: .*$/m, 'ctx: ""')
        .replace(/^diff:[\s\S]*?(?=^blocked:)/m, ''),
    ),
    'clarity',
  );
  assert.equal(noCtx[0].status, 'warn');
});

test('S1 lessons: the summary counts lessons without seen: and headings without a meta line', async () => {
  const dir = fixtureCopy('s1/good');
  const lessons = (body: string) => {
    writeFileSync(path.join(dir, 'tasks/lessons.md'), `# Lessons\n\n${body}`);
    return systemIn(dir, 'S1');
  };
  const L = (title: string, meta: string) => `### ${title}\n> ${meta}\n\n`;
  const msg = async (body: string) => one(await lessons(body), 'lessons').message;
  assert.equal(
    await msg(L('A', 'conf: 0.8 · seen: 2026-04-28 · obs: 2')),
    'Lessons with conf/seen/obs meta: 1; no archive candidates.',
  );
  assert.equal(
    await msg(L('A', 'conf: 0.8 · obs: 2')),
    'Lessons with conf/seen/obs meta: 1 (1 without seen:); no archive candidates.',
  );
  assert.equal(
    await msg(`${L('A', 'conf: 0.8 · seen: 2026-04-28 · obs: 2')}### B without meta\n- text\n\n`),
    'Lessons with conf/seen/obs meta: 1; headings without a meta line: 1; no archive candidates.',
  );
  assert.equal(
    await msg(`${L('A', 'conf: 0.8 · obs: 2')}### B without meta\n- text\n\n`),
    'Lessons with conf/seen/obs meta: 1 (1 without seen:); headings without a meta line: 1; no archive candidates.',
  );
  // A level-2 section without meta is not a lesson heading.
  assert.equal(
    await msg(`## Notes\n- text\n\n${L('A', 'conf: 0.8 · seen: 2026-04-28 · obs: 2')}`),
    'Lessons with conf/seen/obs meta: 1; no archive candidates.',
  );
});

test('S1 attestation: an upper-case sidecar matches and says so; lower case with a newline says that', async () => {
  const dir = fixtureCopy('s1/good');
  const hash = createHash('sha256')
    .update(readFileSync(path.join(dir, HANDOFF)))
    .digest('hex');
  const side = path.join(dir, 'memory/.session-handoff.sha256');
  const at = async () => one(await systemIn(dir, 'S1'), 'attestation');
  writeFileSync(side, hash.toUpperCase());
  let c = await at();
  assert.deepEqual(
    [c.status, c.message],
    [
      'pass',
      'MATCH: memory/.session-handoff.sha256 matches the SHA-256 of memory/session-handoff-LATEST.md (the sidecar is upper-case hex).',
    ],
  );
  writeFileSync(side, `${hash}\n`);
  c = await at();
  assert.equal(
    c.message,
    'MATCH: memory/.session-handoff.sha256 matches the SHA-256 of memory/session-handoff-LATEST.md (the sidecar ends with a newline).',
  );
  writeFileSync(side, hash);
  c = await at();
  assert.equal(
    c.message,
    'MATCH: memory/.session-handoff.sha256 matches the SHA-256 of memory/session-handoff-LATEST.md.',
  );
});

test('S2 store-fresh: a manifest with stores but no ledger is skipped, not a crash', async () => {
  const manifest =
    'version: 1\ncompaction:\n  checkpoint:\n    durable_context:\n      project_state: .claude/project-state.md\n      curated_ssot:\n        - PROJECT_STATUS.md\n';
  const s = await systemIn(workspace({ 'context-manifest.yaml': manifest, 'PROJECT_STATUS.md': '# Status\n' }), 'S2');
  const c = one(s, 'store-fresh');
  assert.deepEqual(
    [c.status, c.message],
    ['skipped', 'No manifest store besides the project state to compare with the ledger.'],
  );
  assert.ok(!s.checks.some((x) => /internal|error/i.test(x.id)), JSON.stringify(s.checks.map((x) => x.id)));
});

test('S4: a Current block whose items stand right under its heading is filled, not a skeleton', async () => {
  const dir = fixtureCopy('s4/good');
  const state = `# Agent State\n\n## Main Agent\n\nClaude Code\n\n## Current Feature: multi-currency balances\n- Goal: report balances per currency.\n- Next: add \`BalanceByCurrency\` to internal/ledger/balance.go\n`;
  writeFileSync(path.join(dir, '.agents/STATE.md'), state);
  const c = one(await systemIn(dir, 'S4'), 'not-skeleton');
  assert.equal(c.status, 'pass', c.message);
});

test('S4: with no PROGRESS entry, the newest checkpoint names the block the next action comes from', async () => {
  const dir = fixtureCopy('s4/good');
  const block = (kind: string, id: string, next: string) =>
    `## Current ${kind}: ${id} work\n<!-- orchestra:block-id: ${id} -->\n\n### Next Steps\n\n- ${next}\n\n`;
  writeFileSync(
    path.join(dir, '.agents/STATE.md'),
    `# Agent State\n\n## Main Agent\n\nClaude Code\n\n${block('Feature', 'alpha-balances', 'Add `Alpha` to internal/a.go')}${block('Bug Fix', 'beta-rounding', 'Fix `Beta` in internal/b.go')}`,
  );
  writeFileSync(path.join(dir, 'PROGRESS.md'), '# PROGRESS\n');
  const cp = (body: string) =>
    writeFileSync(
      path.join(dir, '.agents/checkpoints/2026-03-09-120000.md'),
      `---\ntimestamp: 2026-03-09T12:00:00+01:00\n---\n\n# Checkpoint 2026-03-09-120000\n\n## What was done\n\n- ${body}\n`,
    );
  cp('Worked on alpha-balances: the first half.');
  assert.equal((await systemIn(dir, 'S4')).next, 'Add `Alpha` to internal/a.go');
  cp('Worked on beta-rounding.');
  assert.equal((await systemIn(dir, 'S4')).next, 'Fix `Beta` in internal/b.go');
});

test('S3 branch-head on a detached HEAD: a branch name is out of date, "detached" is right', async () => {
  const state = (branch: string) =>
    `# STATE\n\n## Handoff\n- **Branch / HEAD:** ${branch} @ {{HEAD}}\n- **Gates:** 1/1\n- **Now ▶** run \`npm test\`\n\n## Log\n`;
  const dir = workspace({ 'docs/state/STATE.md': state('main'), 'a.txt': 'a' });
  gitInit(dir);
  git(dir, 'checkout', '-q', '--detach');
  const head = git(dir, 'rev-parse', '--short', 'HEAD').trim();
  const file = path.join(dir, 'docs/state/STATE.md');
  writeFileSync(file, state('main').replace('{{HEAD}}', head));
  const c = only(await systemIn(dir, 'S3'), 'branch-head');
  assert.deepEqual(
    c.map((x) => [x.status, x.message]),
    [['warn', 'HEAD out of date: HEAD is detached, the handoff says branch main.']],
  );
  writeFileSync(file, state('(detached)').replace('{{HEAD}}', head).replace('(detached)', 'detached'));
  assert.deepEqual(
    only(await systemIn(dir, 'S3'), 'branch-head').map((x) => x.status),
    ['pass'],
  );
});

test('S4 summary: a PROGRESS.md without entries sends the check to the newest checkpoint; a level-3 Risks outside every block is no open section', async () => {
  const dir = fixtureCopy('s4/good');
  writeFileSync(path.join(dir, 'PROGRESS.md'), '# PROGRESS\n');
  const parts = ['What was done', 'Interactions with the user', 'How it was done', 'Issues', 'Future actions'];
  writeFileSync(
    path.join(dir, '.agents/checkpoints/2026-03-09-120000.md'),
    `---\ntimestamp: 2026-03-09T12:00:00+01:00\n---\n\n# Checkpoint\n\n${parts.map((p) => `## ${p}\n\n- something real about ${p.toLowerCase()}\n`).join('\n')}`,
  );
  const s = await systemIn(dir, 'S4');
  assert.equal(one(s, 'summary').status, 'pass', one(s, 'summary').message);
  writeFileSync(
    path.join(dir, '.agents/STATE.md'),
    '# Agent State\n\n## Main Agent\n\nClaude Code\n\n### Risks\n- rates may drift\n\n## Current Feature: multi-currency balances\n<!-- orchestra:block-id: mcb -->\n\n### Next Steps\n\n- Add `BalanceByCurrency` to internal/ledger/balance.go\n',
  );
  const p = one(await systemIn(dir, 'S4'), 'pending-recorded');
  assert.equal(p.status, 'warn', p.message);
});

test('addFindings: a finding is added once, and the same finding on another line or with another message is its own', () => {
  const doc = { findings: [] } as unknown as StateDoc;
  const f = (line: number, text: string) =>
    ({ id: 'S2-yaml', severity: 'warn', line, message: text }) as unknown as Finding;
  addFindings(doc, [f(3, 'a'), f(3, 'a'), f(7, 'a'), f(3, 'b')]);
  addFindings(doc, [f(7, 'a')]);
  assert.deepEqual(
    doc.findings.map((x) => [x.line, x.message]),
    [
      [3, 'a'],
      [7, 'a'],
      [3, 'b'],
    ],
  );
});

test('checkNotSkeleton: an empty or unreadable document is skipped, not called a template', () => {
  const doc = (text: string) => ({ text, relPath: 'x.md', sections: [] }) as unknown as StateDoc;
  assert.equal(checkNotSkeleton('S2', doc('')).status, 'skipped');
  assert.equal(checkNotSkeleton('S2', null).status, 'skipped');
  assert.equal(checkNotSkeleton('S2', doc('# Title\n')).status, 'fail');
});

test('S4 in git has its fresh check (state file newer than the work)', async () => {
  const dir = fixtureCopy('s4/good');
  gitInit(dir);
  const c = one(await systemIn(dir, 'S4'), 'fresh');
  assert.equal(c.status, 'pass', c.message);
});
