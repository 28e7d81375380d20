/**
 * S1's seed, the requirements issue 19 names: completed items in any spelling are flagged (they are
 * deleted, never kept); the snapshot's `next` items are verb + object without commands; lessons
 * carry their meta line with conf within the floor and the ceiling; MEMORY.md and context-log.md
 * without a handoff say what is missing, in the same words in `check` and `checkpoint`. Each probe
 * refuses, and the seed's good states (fixtures and the corpus) still pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, Item, SystemReport } from '../../src/core/model/model';
import { isCompletedItem, isVerbObject, snapshotCommand } from '../../src/core/systems/s1/rules';
import { CONFIRMED, run, SID } from './checkpoint-fixtures';
import { CORPORA, corpusRows, fixtureCopy, gitInit, workspace } from './helpers';

const HANDOFF = 'memory/session-handoff-LATEST.md';

async function s1(dir: string): Promise<SystemReport> {
  const r = await evaluate(dir, { noGit: true, confirmed: CONFIRMED });
  const s = r.systems.find((x) => x.id === 'S1');
  assert.ok(s, 'S1 detected');
  return s;
}
const of = (s: SystemReport, id: string): Check[] => s.checks.filter((c) => c.id === id);
const item = (text: string, flags: string[] = []): Item => ({ text, line: 1, flags });

function withHandoff(edit: (text: string) => string): string {
  const dir = fixtureCopy('s1/good');
  const f = path.join(dir, HANDOFF);
  writeFileSync(f, edit(readFileSync(f, 'utf8')));
  // the sidecar no longer matches: attestation is not what these tests are about
  writeFileSync(path.join(dir, 'memory/.session-handoff.sha256'), '');
  return dir;
}

test('S1 completed items in any spelling are flagged; success criteria and plain items are not', async () => {
  for (const t of [
    'Wire the Export button — DONE',
    'Wire the Export button - done',
    'Wire the Export button (completed in 3f9a2c1)',
    'Wire the Export button (done)',
    'Wire the Export button, completed in 3f9a2c1d',
    '✅ Wire the Export button',
    'Wire the Export button ✅',
    '**DONE:** wire the Export button',
    '~~Wire the Export button~~',
    'Export 버튼 연결 — 완료',
    'エクスポートボタン接続（完了）',
  ])
    assert.ok(isCompletedItem(item(t)), t);
  assert.ok(isCompletedItem(item('Wire the Export button', ['done'])), '[x]');
  for (const t of [
    'Ship CSV export — done when `npm test` passes',
    'Re-done the layout of the export dialog, then run `npm test`',
    'Review the undone migration in `db/0003.sql`',
    'Fix the flaky test (closed PR #12 was wrong)',
    'Wire the Export button — call `exportCsv(rows)`',
  ])
    assert.ok(!isCompletedItem(item(t)), t);

  const dir = withHandoff((t) =>
    t
      .replace('1. **Wire the Export button**', '1. **Wire the Export button** (completed in 3f9a2c1)')
      .replace(
        '- Delimiter for German locale',
        '- ✅ Decided: Excel wants quoted numbers · urgency: L\n- Delimiter for German locale',
      ),
  );
  const c = of(await s1(dir), 'completed-items');
  assert.deepEqual(
    c.map((x) => x.status),
    ['warn', 'warn'],
  );
  assert.match(c[0].message, /completed in 3f9a2c1/);
  assert.deepEqual(
    of(await s1(fixtureCopy('s1/good')), 'completed-items').map((x) => x.status),
    ['pass'],
  );
});

test('S1 snapshot next: verb + object, no commands', async () => {
  for (const t of [
    'wire exportCsv into Export button (urgency: H)',
    'add e2e download test (urgency: M)',
    'Trim the Key Files section',
    '내보내기 버튼 연결',
  ])
    assert.equal(snapshotCommand(t) ?? isVerbObject(t), true, t);
  for (const [t, cmd] of [
    ['run `npm test -- invoices` (urgency: H)', 'npm test -- invoices'],
    ['npm test -- invoices', 'npm test -- invoices'],
    ['git push origin main', 'git push origin main'],
    ['deploy with $ make deploy', 'make deploy'],
    ['rebuild with --production', '--production'],
  ])
    assert.equal(snapshotCommand(t), cmd, t);
  for (const t of ['the login bug', 'MEMORY.md diet', 'Auth: OAuth2 vs API key', 'refactoring', 'TODO export'])
    assert.equal(isVerbObject(t), false, t);

  const dir = withHandoff((t) =>
    t
      .replace('"wire exportCsv into Export button (urgency: H)"', '"run `npm test -- invoices` (urgency: H)"')
      .replace('"add e2e download test (urgency: M)"', '"the flaky download test (urgency: M)"'),
  );
  const snap = of(await s1(dir), 'snapshot-next');
  assert.deepEqual(
    snap.map((x) => x.status),
    ['warn', 'warn'],
  );
  assert.match(snap[0].message, /next item 1 carries a command \(npm test -- invoices\)/);
  assert.match(snap[1].message, /next item 2 is not verb \+ object: "the flaky download test \(urgency: M\)"/);
  assert.deepEqual(
    of(await s1(fixtureCopy('s1/good')), 'snapshot-next').map((x) => x.status),
    ['pass'],
  );
});

/** S1's lesson-meta findings for a tasks/lessons.md beside the good handoff (real files, the real reader). */
async function lessonMeta(text: string | null): Promise<Check[]> {
  const dir = fixtureCopy('s1/good');
  if (text !== null) writeFileSync(path.join(dir, 'tasks/lessons.md'), text);
  return of(await s1(dir), 'lesson-meta');
}

test('S1 lessons: a v2 lesson has its meta line first, with seen and obs; conf stays within 0.3–0.9', async () => {
  assert.deepEqual(
    (await lessonMeta(null)).map((c) => c.status),
    ['pass'],
  );
  const c = await lessonMeta(
    [
      '# Lessons',
      '',
      '### [2026-05-01] No meta line at all',
      'Body.',
      '',
      '### [2026-05-02] Below the floor',
      '> conf: 0.2 · seen: 2026-05-02 · obs: 2',
      '',
      '### [2026-05-03] Over the ceiling',
      '> conf: 1.0 · seen: 2026-05-03 · obs: 9',
      '',
      '### [2026-05-04] Meta lacks seen and obs',
      '> conf: 0.5',
      '',
      '### [2026-04-01] A v1 lesson (before the meta line format)',
      'Body.',
    ].join('\n'),
  );
  assert.deepEqual(
    c.map((x) => [x.status, x.line]),
    [
      ['warn', 3],
      ['warn', 7],
      ['warn', 10],
      ['warn', 13],
    ],
  );
  assert.match(c[0].message, /"\[2026-05-01\] No meta line at all" has no meta line/);
  assert.match(c[1].message, /conf 0\.2 is outside 0\.3–0\.9/);
  assert.match(c[2].message, /conf 1\.0 is outside 0\.3–0\.9/);
  assert.match(c[3].message, /lacks seen:, obs:/);
});

for (const c of CORPORA)
  test(`S1 lessons in the ${c.name}: every lessons file is read without a crash; a meta line without seen: is said`, async () => {
    const rows = corpusRows(c.dir, ['F2']).filter((r) => r.path.endsWith('lessons.md'));
    assert.ok(rows.length >= 1, c.name);
    for (const r of rows) {
      const found = await lessonMeta(readFileSync(path.join(c.dir, r.savedAs), 'utf8'));
      assert.ok(found.length >= 1, r.savedAs);
      for (const x of found) assert.ok(['pass', 'warn'].includes(x.status), `${r.savedAs}: ${x.message}`);
      if (r.savedAs.includes('korean-priority'))
        assert.ok(
          found.some((x) => x.status === 'warn' && /lacks seen:/.test(x.message)),
          r.savedAs,
        );
    }
  });

test('S1 MEMORY.md and context-log.md without a handoff: what is there and what is missing, the same words in check and checkpoint', async () => {
  const dir = workspace({
    'memory/MEMORY.md': '# Memory\n\n## Key Files\n- `src/a.ts`\n',
    'memory/context-log.md': '# Log\n',
  });
  gitInit(dir);
  const r = await evaluate(dir, { noGit: true });
  // S1 is not read without its handoff (never a guessed one): its stores are listed as there, not read, and why
  assert.equal(r.systems.length, 0);
  assert.deepEqual(
    (r.notRead ?? []).map((n) => [n.system, n.path, n.reason]),
    ['memory/MEMORY.md', 'memory/context-log.md'].map((p) => [
      'S1',
      p,
      `${p} is here, but the handoff memory/session-handoff-LATEST.md is missing: S1 is not read without it (the next session starts from the handoff alone).`,
    ]),
  );
  const check = run(['check', '--root', dir]);
  const cp = run(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(cp.code, 1);
  const block = (out: string) => {
    const lines = out.split('\n');
    const at = lines.indexOf('No state file read.');
    return at < 0 ? [] : lines.slice(at, at + 5);
  };
  assert.equal(block(check.stdout).length, 5, check.stdout);
  assert.deepEqual(block(cp.stderr), block(check.stdout), cp.stderr);
  assert.match(
    block(check.stdout).join('\n'),
    /memory\/MEMORY\.md is here, but the handoff memory\/session-handoff-LATEST\.md is missing/,
  );
  const j = JSON.parse(run(['checkpoint', '--root', dir, '--session', SID, '--json']).stdout);
  assert.deepEqual(
    j.refusals[0].notRead.map((n: { path: string }) => n.path),
    ['memory/MEMORY.md', 'memory/context-log.md'],
  );

  // a versioned handoff but no LATEST: S1 is read, and its exists check names what is there and what is missing
  const stray = workspace({ 'memory/session-handoff-v2.md': '# Handoff\n', 'memory/MEMORY.md': '# Memory\n' });
  const e = of(await s1(stray), 'exists');
  assert.equal(
    e[0].message,
    'No handoff: memory/session-handoff-LATEST.md is missing (memory/session-handoff-v2.md, memory/MEMORY.md present). The next session starts from the handoff alone.',
  );

  // only a handoff, no MEMORY.md or context-log.md: missing-data names both
  const only = workspace({ [HANDOFF]: readFileSync(path.join(fixtureCopy('s1/good'), HANDOFF), 'utf8') });
  const md = of(await s1(only), 'missing-data');
  assert.match(md[0].message, /missing_data: MEMORY\.md and context-log\.md not found/);
});
