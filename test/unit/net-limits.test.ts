/**
 * Every numeric limit, budget, cap, threshold and time window the product enforces, tested at the
 * value, one below and one above. The limits are written here as numbers, not read from the facts
 * table: a changed literal in the table, a `<` for a `<=` or a `>` for a `>=` makes one of these fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { preCompactGuard, maxAgeMinutes } from '../../src/core/hooks/guard';
import { levelOf, thresholdProfile } from '../../src/core/context/thresholds';
import { adviseClear } from '../../src/core/context/compactions';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import { readSnapshot } from '../../src/core/systems/s1/reader-snapshot';
import { isArchiveCandidate, isExpired, isPromotionCandidate, snapshotProblems } from '../../src/core/systems/s1/rules';
import { countLines } from '../../src/core/rules/common';
import { planRotateLog } from '../../src/core/systems/s3/rotate-log';
import type { Check, Item, SystemReport } from '../../src/core/model/model';
import { checksWith, fixtureCopy, oneCheck, systemIn, workspace, write } from './helpers';
import { preCompact, S3_STATE, SID } from './checkpoint-fixtures';

const one = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);

// ---------------------------------------------------------------------------------------------
// Budgets of the home files

/** A text of exactly `n` lines as `how` counts them, starting with `head`, padded with list items. */
function linesText(head: string, n: number, how: 'lines' | 'split'): string {
  const have = countLines(head, 'lines');
  const pad = Array.from({ length: n - have - (how === 'split' ? 1 : 0) }, (_, i) => `- filler ${i}\n`).join('');
  const text = head + pad;
  assert.equal(countLines(text, how), n);
  return text;
}

test('S1 budget: 200 lines (a final newline ends the last line): 199 and 200 pass, 201 warns', async () => {
  const dir = fixtureCopy('s1/good');
  const file = path.join(dir, 'memory/session-handoff-LATEST.md');
  const head = readFileSync(file, 'utf8');
  const at = async (n: number) => {
    writeFileSync(file, linesText(head, n, 'lines'));
    return one(await systemIn(dir, 'S1'), 'budget');
  };
  for (const n of [199, 200]) {
    const c = await at(n);
    assert.deepEqual(
      [c.status, c.message],
      ['pass', `memory/session-handoff-LATEST.md within budget (${n}/200 lines).`],
    );
  }
  const over = await at(201);
  assert.deepEqual(
    [over.status, over.message],
    ['warn', 'Over budget: memory/session-handoff-LATEST.md has 201 lines > 200.'],
  );
});

const S2_BASE = '## TASK\nBudget test\n\n## NEXT\nTrim the ledger below budget now\n\n## OPEN\n';
const S2_LEDGER = '.claude/session-ledger.md';

test('S2 budget: 150 lines: 149 and 150 pass, 151 warns', async () => {
  for (const [n, status] of [
    [149, 'pass'],
    [150, 'pass'],
    [151, 'warn'],
  ] as const) {
    const c = one(await systemIn(workspace({ [S2_LEDGER]: linesText(S2_BASE, n, 'lines') }), 'S2'), 'budget');
    assert.equal(c.status, status, `${n} lines: ${c.message}`);
    assert.match(c.message, status === 'pass' ? new RegExp(`\\(${n}/150 lines, `) : /151 lines > 150\./);
  }
});

test('S2 budget: 5,200 characters (code points): 5,199 and 5,200 pass, 5,201 warns', async () => {
  const head = `${S2_BASE}- `;
  for (const [n, status] of [
    [5199, 'pass'],
    [5200, 'pass'],
    [5201, 'warn'],
  ] as const) {
    // Astral characters count once each (code points, not UTF-16 units).
    const text = `${head}${'😀'.repeat(10)}${'x'.repeat(n - [...head].length - 10 - 1)}\n`;
    assert.equal([...text].length, n);
    const c = one(await systemIn(workspace({ [S2_LEDGER]: text }), 'S2'), 'budget');
    assert.equal(c.status, status, `${n} chars: ${c.message}`);
    assert.match(c.message, status === 'pass' ? new RegExp(`, ${n}/5200 chars\\)`) : /5201 chars > 5200\./);
  }
});

test('S2 plan-size: a spine of 20,000 characters passes, 20,001 warns', async () => {
  const ledger = '## TASK\nPlan test\n\n## NEXT\nSync the plan spine with the decisions\n\n## PLAN\n- docs/plan.md\n';
  const plan = (pad: number) => `# Plan\n\n## Endpoints\n- ${'y'.repeat(pad)}\n`;
  const measure = async (pad: number) => {
    const c = one(await systemIn(workspace({ [S2_LEDGER]: ledger, 'docs/plan.md': plan(pad) }), 'S2'), 'plan-size');
    const m = /spine is ([\d,]+) chars/.exec(c.message);
    assert.ok(m, c.message);
    return { c, chars: Number(m[1].replace(/,/g, '')) };
  };
  const first = await measure(19_000);
  const base = 19_000 - first.chars;
  for (const [n, status] of [
    [19_999, 'pass'],
    [20_000, 'pass'],
    [20_001, 'warn'],
  ] as const) {
    const { c, chars } = await measure(n + base);
    assert.equal(chars, n);
    assert.equal(c.status, status, c.message);
  }
});

test('S2 next-one-line: one line passes, two warn', async () => {
  const make = (next: string) => workspace({ [S2_LEDGER]: `## TASK\nt\n\n## NEXT\n${next}\n\n## OPEN\n- q\n` });
  assert.equal(
    one(await systemIn(make('Wire the Export button in src/invoices.ts'), 'S2'), 'next-one-line').status,
    'pass',
  );
  const two = one(
    await systemIn(make('Wire the Export button in src/invoices.ts\nthen run npm test'), 'S2'),
    'next-one-line',
  );
  assert.deepEqual(
    [two.status, two.message],
    ['warn', 'NEXT holds 2 lines; it should be the single next action on one line.'],
  );
});

test("S3 budget: 150 lines counted as S3's checker does (split on newline): 149 and 150 pass, 151 warns", async () => {
  const head = '# STATE\n\n## Handoff\n- **Now ▶** trim the Log into docs/state/log/2026-03.md\n\n## Log\n';
  for (const [n, status] of [
    [149, 'pass'],
    [150, 'pass'],
    [151, 'warn'],
  ] as const) {
    const c = one(await systemIn(workspace({ 'docs/state/STATE.md': linesText(head, n, 'split') }), 'S3'), 'budget');
    assert.equal(c.status, status, `${n}: ${c.message}`);
  }
  // checks/config.json's budget is honoured at its value too.
  const cfg = (max: number) =>
    workspace({
      'docs/state/STATE.md': linesText(head, 160, 'split'),
      'checks/config.json': JSON.stringify({ budgets: { stateMdLines: max } }),
    });
  assert.equal(one(await systemIn(cfg(160), 'S3'), 'budget').status, 'pass');
  assert.equal(one(await systemIn(cfg(159), 'S3'), 'budget').status, 'warn');
  // A budget that is not a positive number keeps the default.
  assert.match(one(await systemIn(cfg(0), 'S3'), 'budget').message, /160 lines > 150/);
});

test('S4 progress-entries: at most 5 PROGRESS.md entries: 4 and 5 pass, 6 warns at the sixth', async () => {
  const dir = fixtureCopy('s4/good');
  const entry = (i: number) =>
    `## [2026-03-${String(20 - i).padStart(2, '0')}-120000](.agents/checkpoints/2026-03-${String(20 - i).padStart(2, '0')}-120000.md)\n\n### What was done\n\n- step ${i}\n\n`;
  const at = async (n: number) => {
    writeFileSync(
      path.join(dir, 'PROGRESS.md'),
      `# PROGRESS\n\n${Array.from({ length: n }, (_, i) => entry(i)).join('')}`,
    );
    return one(await systemIn(dir, 'S4'), 'progress-entries');
  };
  assert.deepEqual([(await at(1)).status, (await at(1)).message], ['pass', 'PROGRESS.md holds 1 entry (at most 5).']);
  for (const n of [4, 5]) {
    const c = await at(n);
    assert.deepEqual([c.status, c.message], ['pass', `PROGRESS.md holds ${n} entries (at most 5).`]);
  }
  const six = await at(6);
  assert.deepEqual(
    [six.status, six.message],
    ['warn', 'Too many entries: PROGRESS.md holds 6; at most 5 (the latest checkpoints) belong there.'],
  );
  assert.equal(six.line, 3 + 5 * 6, 'the line of the sixth entry');
});

// ---------------------------------------------------------------------------------------------
// S1's snapshot caps and curation thresholds

function snapshot(o: { ctx?: number; next?: number; diff?: number; blocked?: number; why?: number }): string[] {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  const lines = ['<!-- state-snapshot v1 -->', '```yaml', 'ts: 2026-05-04', `ctx: "${words(o.ctx ?? 3)}"`, 'next:'];
  for (let i = 0; i < (o.next ?? 1); i++) lines.push(`  - "n${i}"`);
  lines.push('diff:');
  for (let i = 0; i < (o.diff ?? 1); i++)
    lines.push('  - op: add', `    item: "d${i}"`, `    why: "${words(o.why ?? 2)}"`);
  lines.push('blocked:');
  for (let i = 0; i < (o.blocked ?? 1); i++) lines.push(`  - item: "b${i}"`, '    risk: H');
  lines.push('```');
  const snap = readSnapshot(parseMarkdown(lines.join('\n')));
  assert.ok(snap);
  return snapshotProblems(snap.info).map((p) => p.message.text);
}

test('S1 snapshot caps: ctx 20 words, next 5, diff 5, blocked 3, why 10 words: at the cap and below pass, one above fails', () => {
  assert.deepEqual(snapshot({}), []);
  const cases: Array<[keyof Parameters<typeof snapshot>[0], number, string]> = [
    ['ctx', 20, 'ctx has 21 words (cap 20).'],
    ['next', 5, 'next has 6 items (cap 5).'],
    ['diff', 5, 'diff has 6 items (cap 5).'],
    ['blocked', 3, 'blocked has 4 items (cap 3).'],
    ['why', 10, 'diff item 1: why has 11 words (cap 10).'],
  ];
  for (const [key, cap, msg] of cases) {
    assert.deepEqual(snapshot({ [key]: cap - 1 }), [], `${key} ${cap - 1}`);
    assert.deepEqual(snapshot({ [key]: cap }), [], `${key} ${cap}`);
    assert.deepEqual(snapshot({ [key]: cap + 1 }), [`Snapshot: ${msg}`], `${key} ${cap + 1}`);
  }
});

const item = (flags: string[]): Item => ({ text: '', line: 1, flags }) as unknown as Item;
const DAY = 86_400_000;

test('S1 lesson archive: conf below 0.4 and seen more than 90 days ago', () => {
  const now = Date.UTC(2026, 5, 1);
  const seen = (days: number) => new Date(now - days * DAY).toISOString().slice(0, 10);
  const cand = (conf: string, days: number) =>
    isArchiveCandidate(item([`conf:${conf}`, `seen:${seen(days)}`, 'obs:1']), now);
  assert.deepEqual([cand('0.39', 91), cand('0.4', 91), cand('0.41', 91)], [true, false, false]);
  assert.deepEqual([cand('0.3', 89), cand('0.3', 90), cand('0.3', 91)], [false, false, true]);
  assert.equal(isArchiveCandidate(item(['conf:0.3']), now), false, 'no seen: no verdict');
  assert.equal(isArchiveCandidate(item([`seen:${seen(200)}`]), now), false, 'no conf: no verdict');
});

test('S1 context log: promote at ref ≥ 3; expired past ttl days', () => {
  assert.deepEqual(
    [2, 3, 4].map((r) => isPromotionCandidate(item([`ref:${r}`]))),
    [false, true, true],
  );
  assert.equal(isPromotionCandidate(item([])), false);
  const now = Date.UTC(2026, 5, 1);
  const date = (days: number) => new Date(now - days * DAY).toISOString().slice(0, 10);
  assert.deepEqual(
    [29, 30, 31].map((d) => isExpired(item([`date:${date(d)}`, 'ttl:30d']), now)),
    [false, false, true],
  );
  assert.equal(isExpired(item([`date:${date(400)}`, 'ttl:permanent']), now), false);
});

test('S1 hook promotion: conf ≥ 0.9 and obs ≥ 3', async () => {
  const dir = fixtureCopy('s1/good');
  const lessons = (conf: string, obs: number) =>
    `# Lessons\n\n### Stream the rows\n> conf: ${conf} · seen: 2026-04-28 · obs: ${obs}\n`;
  const cands = async (conf: string, obs: number) => {
    write(dir, 'tasks/lessons.md', lessons(conf, obs));
    return checksWith((await systemIn(dir, 'S1')).checks, 'hook-promotion').filter((c) =>
      /^Hook-promotion candidate/.test(c.message),
    ).length;
  };
  assert.deepEqual([await cands('0.89', 3), await cands('0.9', 3), await cands('0.91', 3)], [0, 1, 1]);
  assert.deepEqual([await cands('0.95', 2), await cands('0.95', 3), await cands('0.95', 4)], [0, 1, 1]);
});

// ---------------------------------------------------------------------------------------------
// Context thresholds and the compactions advice

test('context thresholds per system: ok one below propose, propose at it, urgent at urgent (S2: one cue at 50 %)', () => {
  const table: Array<[string[], number, number | null]> = [
    [['S0'], 70, 85],
    [['S1'], 50, 80],
    [['S2'], 50, null],
    [['S3'], 15, 40],
    [['S4'], 50, 80],
    [[], 60, 80],
  ];
  for (const [ids, propose, urgent] of table) {
    const p = thresholdProfile(ids);
    assert.deepEqual([p.propose, p.urgent], [propose, urgent], ids.join());
    assert.equal(levelOf(propose - 1, p), 'ok', `${ids} ${propose - 1}`);
    assert.equal(levelOf(propose, p), 'propose', `${ids} ${propose}`);
    assert.equal(levelOf(propose + 1, p), 'propose', `${ids} ${propose + 1}`);
    if (urgent === null) {
      assert.equal(levelOf(100, p), 'propose');
      continue;
    }
    assert.equal(levelOf(urgent - 1, p), 'propose', `${ids} ${urgent - 1}`);
    assert.equal(levelOf(urgent, p), 'urgent', `${ids} ${urgent}`);
    assert.equal(levelOf(urgent + 1, p), 'urgent', `${ids} ${urgent + 1}`);
  }
  // Several systems: the earliest cue wins (S3 proposes at 15 %).
  assert.deepEqual(thresholdProfile(['S0', 'S3', 'S1']), { profile: 'S3', propose: 15, urgent: 40 });
  // Settings: valid percents 0..100 override; anything else is ignored.
  assert.deepEqual(thresholdProfile(['S1'], { propose: 0, urgent: 100 }), {
    profile: 'custom',
    propose: 0,
    urgent: 100,
  });
  assert.deepEqual(thresholdProfile(['S1'], { propose: -1, urgent: 101 }), { profile: 'S1', propose: 50, urgent: 80 });
  assert.equal(levelOf(null, thresholdProfile([])), 'ok');
});

test('S0 compactions advice: from the 2nd compaction of a session on', () => {
  assert.deepEqual([1, 2, 3].map(adviseClear), [false, true, true]);
});

// ---------------------------------------------------------------------------------------------
// S0's older ledger places: read only with 3 of the ledger's sections

test("S0 older ledger place (CONTINUITY.md): 2 sections is someone else's file, 3 and 4 are the ledger", async () => {
  const sections = [
    '## Goal\nShip it',
    '## Decisions\n- chose X over Y',
    '## Now\nwire the button in src/a.ts',
    '## Next\n- run the tests',
  ];
  for (const [n, found] of [
    [2, false],
    [3, true],
    [4, true],
  ] as const) {
    const s = await systemIn(
      workspace({ 'CONTINUITY.md': `# Continuity Ledger\n\n${sections.slice(0, n).join('\n\n')}\n` }),
      'S0',
    ).catch(() => null);
    assert.equal(s?.home === 'CONTINUITY.md', found, `${n} sections`);
  }
});

// ---------------------------------------------------------------------------------------------
// The PreCompact guard's time windows

/** A workspace with a checkpoint marker written at `t0` (whole seconds) and the state file at `t0 + stateAfterMs`. */
function guardCase(stateAfterMs: number): { dir: string; t0: number } {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const marker = write(dir, `.claude/.checkpoint-ready.${SID}`, `${SID}\n`);
  const t0 = Math.floor(Date.now() / 1000) * 1000 - 30 * 24 * 3_600_000;
  utimesSync(marker, t0 / 1000, t0 / 1000);
  const st = (t0 + stateAfterMs) / 1000;
  utimesSync(path.join(dir, 'docs/state/STATE.md'), st, st);
  return { dir, t0 };
}

async function guard(dir: string, now: number, env: NodeJS.ProcessEnv = {}) {
  return preCompactGuard(preCompact(dir), { cwd: dir, root: dir, now, env, log: false });
}

test('guard idle grace: state written up to 30 s after the marker is idle (allowed at any age); 31 s is work', async () => {
  for (const [after, rule] of [
    [29_000, 'idle'],
    [30_000, 'idle'],
    [31_000, 'stale'],
  ] as const) {
    const { dir, t0 } = guardCase(after);
    const d = await guard(dir, t0 + 30 * 24 * 3_600_000);
    assert.equal(d.rule, rule, `state ${after} ms after the marker: ${d.log}`);
    assert.equal(d.allow, rule === 'idle');
  }
});

test('guard max age: with work after it, a marker up to 480 min old allows; older blocks; the env sets the window', async () => {
  const { dir, t0 } = guardCase(3_600_000);
  const MIN = 60_000;
  const at = async (ms: number, env: NodeJS.ProcessEnv = {}) => (await guard(dir, t0 + ms, env)).rule;
  assert.deepEqual(
    [await at(479 * MIN), await at(480 * MIN), await at(480 * MIN + 1), await at(481 * MIN)],
    ['fresh', 'fresh', 'stale', 'stale'],
  );
  const env = { SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: '90' };
  assert.deepEqual(
    [await at(89 * MIN, env), await at(90 * MIN, env), await at(90 * MIN + 1, env)],
    ['fresh', 'fresh', 'stale'],
  );
  assert.deepEqual(
    ['0', '90', ' 7.5 ', '-5', 'soon', '', '1e3'].map((v) =>
      maxAgeMinutes({ SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: v }),
    ),
    [0, 90, 7.5, 480, 480, 480, 480],
  );
  assert.equal(maxAgeMinutes({}), 480);
});

// ---------------------------------------------------------------------------------------------
// S3's log rotation: moves the oldest entries only while STATE.md is over its budget

test('S3 rotate-log: at the budget nothing moves; one line over moves the oldest; it stops as soon as the file fits', async () => {
  const entry = (d: string) => `### ${d} - work of ${d}\n- Done: step\n`;
  const head = '# STATE\n\n## Handoff\n- **Now ▶** run `npm test`\n\n## Log\n\n';
  const entries = ['2026-03-05', '2026-03-04', '2026-03-03', '2026-03-02'].map(entry).join('\n');
  const text = `${head}${entries}`;
  const lines = text.split('\n').length;
  const dir = workspace({ 'docs/state/STATE.md': text });
  const plan = async (budget: number) => {
    const p = await planRotateLog(dir, { budget });
    assert.ok(p);
    return p;
  };
  const at = await plan(lines);
  assert.deepEqual([at.changed, at.moves.length, at.withinBudget], [false, 0, true]);
  // Each entry is 3 lines (heading, item, blank line): one over moves the oldest, and so does 3 over.
  for (const over of [1, 3]) {
    const p = await plan(lines - over);
    assert.deepEqual(
      p.moves.map((m) => m.date),
      ['2026-03-02'],
      `${over} over`,
    );
    assert.equal(p.linesAfter, lines - 3);
    assert.equal(p.withinBudget, true, 'exactly at the budget after the move');
  }
  const two = await plan(lines - 4);
  assert.deepEqual(
    two.moves.map((m) => m.date),
    ['2026-03-02', '2026-03-03'],
  );
  // Every line of a moved entry leaves (its blank line too); what stays is byte for byte the rest.
  assert.equal(two.after, `${head}${entry('2026-03-05')}\n${entry('2026-03-04')}`);
  assert.equal(two.linesAfter, lines - 6);
  assert.equal(two.archives[0].after, `# Log 2026-03\n\n${entry('2026-03-03')}\n${entry('2026-03-02')}`);
  // The newest entry never moves, even when the file still does not fit.
  const tight = await plan(5);
  assert.deepEqual(
    tight.moves.map((m) => m.date),
    ['2026-03-02', '2026-03-03', '2026-03-04'],
  );
  assert.equal(tight.withinBudget, false);
  // An entry in the middle of a Log out of order leaves with its blank line: no gap is left behind.
  const mixedText = `${head}${['2026-03-05', '2026-03-02', '2026-03-04'].map(entry).join('\n')}`;
  const mixed = workspace({ 'docs/state/STATE.md': mixedText });
  const mid = await planRotateLog(mixed, { budget: mixedText.split('\n').length - 1 });
  assert.deepEqual(
    mid?.moves.map((m) => m.date),
    ['2026-03-02'],
  );
  assert.equal(mid?.after, `${head}${entry('2026-03-05')}\n${entry('2026-03-04')}`);
  // An archive that already ends with an entry (no final newline) is not given it twice.
  write(dir, 'docs/state/log/2026-03.md', '# Log 2026-03\n\n### 2026-03-02 - work of 2026-03-02\n- Done: step');
  const again = await plan(lines - 1);
  assert.deepEqual(
    again.moves.map((m) => m.date),
    ['2026-03-02'],
  );
  assert.deepEqual(again.archives, []);
});
