/**
 * S3's step 3 and step 6: a `defer:` marker needs its line in docs/state/DEBT.md; `node
 * checks/check.mjs` runs only when asked (the checklist's button in a trusted workspace, `check
 * --run-checks`), with a time limit that kills its process group, capped output and no shell.
 * Real files, real git, real child processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, SystemReport } from '../../src/core/model/model';
import { debtLineOf, debtLines, deferMarkers, hasDebtLine } from '../../src/core/systems/s3/debt';
import { Comparisons } from '../../src/core/systems/s3/debt-words';
import { repoChecksCheck, runnableCheck, runRepoChecks, withRepoChecks } from '../../src/core/systems/s3/repo-checks';
import { checklistState } from '../../src/extension/pure/checklist-model';
import type { ChecklistStrings } from '../../src/protocol/checklist';
import { S3_STATE, s3Workspace } from './checkpoint-fixtures';
import { cli, corpusFile, externalTest, fixtureCopy, gitInit, OWN_CORPUS, whileOpening, write } from './helpers';

/** A process that still runs (a zombie waiting for its parent's reaper counts as gone). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function s3(dir: string, noGit = false): Promise<SystemReport> {
  const r = await evaluate(dir, { noGit });
  const s = r.systems.find((x) => x.id === 'S3');
  assert.ok(s, 'S3 detected');
  return s;
}
const debt = (s: SystemReport): Check[] => s.checks.filter((c) => c.id === 'debt');

const DEBT_MD = `# DEBT: technical debt ledger

| ID | Where (file:line or area) | What / ceiling | Upgrade when | Status |
|---|---|---|---|---|
| DEBT-001 | \`src/limiter/store.ts\` | In-memory store only. Ceiling: one process. | A second instance is deployed | open |
| <!-- DEBT-002 --> | | | | |
`;

test('S3 defer: a marker in STATE.md without a DEBT.md line warns, with its line; one whose DEBT id or words are there passes', async () => {
  const marked = S3_STATE.replace(
    '- Done: marker format',
    '- Done: marker format\n- defer: Redis cluster support until staging has a cluster',
  );
  let dir = s3Workspace({ 'docs/state/STATE.md': marked });
  let d = debt(await s3(dir));
  assert.equal(d.length, 1);
  assert.equal(d[0].status, 'warn');
  assert.equal(d[0].severity, 'warn');
  assert.match(
    d[0].message,
    /`defer:` marker without a line in docs\/state\/DEBT\.md: docs\/state\/STATE\.md:\d+ "Redis cluster support/,
  );
  assert.equal(d[0].line, marked.split('\n').findIndex((l) => l.includes('defer:')) + 1);
  assert.match(d[0].hint ?? '', /Create docs\/state\/DEBT\.md/);

  // DEBT.md exists, but no row for it: still flagged (the hint says to add the row)
  dir = s3Workspace({ 'docs/state/STATE.md': marked, 'docs/state/DEBT.md': DEBT_MD });
  d = debt(await s3(dir));
  assert.equal(d[0].status, 'warn');
  assert.match(d[0].hint ?? '', /Add its row to docs\/state\/DEBT\.md/);

  // a row holding its words, or the marker naming an existing DEBT id: passes
  const withRow = DEBT_MD.replace(
    '| <!-- DEBT-002 -->',
    '| DEBT-002 | limiter store | Redis cluster support missing | staging has a cluster | open |\n| <!-- DEBT-003 -->',
  );
  dir = s3Workspace({ 'docs/state/STATE.md': marked, 'docs/state/DEBT.md': withRow });
  assert.deepEqual(
    debt(await s3(dir)).map((c) => c.status),
    ['pass'],
  );
  const byId = S3_STATE.replace(
    '- Done: marker format',
    '- Done: marker format\n- defer: DEBT-001 keep the in-memory store',
  );
  dir = s3Workspace({ 'docs/state/STATE.md': byId, 'docs/state/DEBT.md': DEBT_MD });
  assert.deepEqual(
    debt(await s3(dir)).map((c) => c.status),
    ['pass'],
  );
  // a DEBT id only inside a comment (the template's placeholder row) is no line
  const byCommentedId = S3_STATE.replace('- Done: marker format', '- Done: marker format\n- defer: DEBT-002 later');
  dir = s3Workspace({ 'docs/state/STATE.md': byCommentedId, 'docs/state/DEBT.md': DEBT_MD });
  assert.equal(debt(await s3(dir))[0].status, 'warn');
});

test('S3 defer: markers in the files the session changed count (git), at their site; a DEBT row naming the file covers them', async () => {
  const dir = s3Workspace({ 'docs/state/DEBT.md': DEBT_MD });
  write(dir, 'src/limiter/store.ts', 'export const store = new Map(); // defer: in-memory only\n');
  write(dir, 'src/limiter/burst.ts', 'const BURST = 10;\n/* defer: fixed burst size, configurable later */\n');
  const d = debt(await s3(dir));
  assert.deepEqual(
    d.map((c) => [c.status, c.path, c.line]),
    [['warn', 'src/limiter/burst.ts', 2]],
  );
  assert.match(d[0].message, /src\/limiter\/burst\.ts:2 "fixed burst size, configurable later"/);
  // without git, only STATE.md is read
  assert.deepEqual(
    debt(await s3(dir, true)).map((c) => c.status),
    ['pass'],
  );
});

test('S3 defer: a changed file over 512 KB is skipped without being opened (a marker in it counts as before: not at all); a smaller one is read', async () => {
  const dir = s3Workspace({ 'docs/state/DEBT.md': DEBT_MD });
  // A changed lock file or build output: never read for markers, however often the extension scans.
  write(dir, 'dist/bundle.js', `// defer: a marker in a large file\n${'x'.repeat(600 * 1024)}\n`);
  write(dir, 'src/small.ts', '// defer: a marker in a small file\n');
  const opened: string[] = [];
  const d = await whileOpening(
    (f) => opened.push(f),
    async () => debt(await s3(dir)),
  );
  assert.ok(
    opened.some((f) => f.endsWith('src/small.ts')),
    'the small changed file is read',
  );
  assert.deepEqual(
    opened.filter((f) => f.endsWith('bundle.js')),
    [],
    'the large changed file is not opened',
  );
  assert.deepEqual(
    d.map((c) => [c.status, c.path, c.line]),
    [['warn', 'src/small.ts', 1]],
  );
});

test('S3 defer: template comments and words that only contain "defer:" are no markers; the good states pass', async () => {
  assert.deepEqual(
    deferMarkers('a.md', '<!-- defer: sample row -->\nundefer: x\nno-defer: y\nuse a `defer:` marker\n'),
    [],
  );
  assert.deepEqual(
    deferMarkers('a.ts', '// defer: one\nx(); // defer: two */\n').map((m) => [m.line, m.text]),
    [
      [1, 'one'],
      [2, 'two'],
    ],
  );
  assert.equal(hasDebtLine({ path: 'STATE.md', line: 1, text: 'x' }, debtLines(DEBT_MD), 'STATE.md'), false);
  const good = fixtureCopy('s3/good');
  gitInit(good);
  assert.deepEqual(
    debt(await s3(good)).map((c) => c.status),
    ['pass'],
  );
});

/** The words rule as it reads, marker by line: at least two of the marker's words, and half of them. */
function holdsMostWords(text: string, lines: readonly string[]): boolean {
  const w = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}_]{4,}/gu) ?? []).filter((x) => x !== 'debt'))];
  return lines.some((l) => {
    const hit = w.filter((x) => l.toLowerCase().includes(x)).length;
    return hit >= 2 && hit * 2 >= w.length;
  });
}

test("S3 defer: a STATE.md marker's line is the DEBT.md line holding most of its words, parts of words and other cases too", async () => {
  const markers = [
    'Redis cluster support until staging has a cluster', // 4 of its 5 words in DEBT-002's row
    'retry uploads on flaky networks', // uploads, flaky, networks (the row's "Retries" is not "retry")
    'store shard later', // inside "datastore" and "sharding"
    'DEBT cleanup', // one word: `debt` is none
    'cache invalidation after deploy', // one of four
    'Größe Maße prüfen', // the row says GRÖSSE and MASSE: lower case is no folding
    'limiter window: sliding window counter', // limiter and window, in two rows: no row holds two
  ];
  const debtMd = `${DEBT_MD}| DEBT-002 | limiter store | Redis cluster support missing | staging has a cluster | open |
| DEBT-003 | src/net/upload.ts | Retries: UPLOADS fail on a flaky link | networks we test on | open |
| DEBT-004 | datastore | sharding comes later | | open |
| DEBT-005 | cleanup debt | cache | | open |
| DEBT-006 | GRÖSSE und MASSE prüfen | | | open |
| DEBT-007 | rate window | | | open |
`;
  const state = S3_STATE.replace(
    '- Done: marker format',
    `- Done: marker format\n${markers.map((m) => `- defer: ${m}`).join('\n')}`,
  );
  const dir = s3Workspace({ 'docs/state/STATE.md': state, 'docs/state/DEBT.md': debtMd });
  const without = debt(await s3(dir)).map((c) => /"(.*)"\.$/.exec(c.message)?.[1]);
  assert.deepEqual(without, [markers[3], markers[4], markers[5], markers[6]]);
  // The same verdicts as the rule read marker by line.
  const lines = debtLines(debtMd);
  assert.deepEqual(
    markers.map((m) => holdsMostWords(m, lines)),
    [true, true, true, false, false, false, false],
  );
  // Markers and rows of a small vocabulary (words inside words, other cases, `debt`): every verdict the rule's.
  let seed = 7;
  const pick = <T>(xs: readonly T[]): T => xs[(seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % xs.length];
  const vocab = ['store', 'datastore', 'STORE', 'cache', 'caches', 'later', 'debt', 'ΣΟΦΙΑ', 'σοφια', '𝒜𝒷𝒸𝒹', 'ab12'];
  const phrase = () => Array.from({ length: 1 + (seed % 6) }, () => pick(vocab) + pick([' ', ' | ', '', '-'])).join('');
  let compared = 0;
  for (let i = 0; i < 300; i++) {
    const rows = debtLines(Array.from({ length: 1 + (i % 9) }, () => `| ${phrase()} |`).join('\n'));
    for (let j = 0; j < 10; j++) {
      const text = phrase();
      const m = { path: 'docs/state/STATE.md', line: 1, text };
      assert.equal(hasDebtLine(m, rows, m.path), holdsMostWords(text, rows), `${text} in ${rows.join(' / ')}`);
      compared++;
    }
  }
  assert.equal(compared, 3000);
});

test('S3 defer: markers whose words take more comparisons than a check makes are said to be unmatched, not taken as missing', async () => {
  // Every marker pairs two words that DEBT.md's lines hold, never together: each marker is compared
  // with half the lines, and 3,600 markers with 4,000 lines pass the bound.
  const v = 60;
  const alphas = Array.from({ length: v }, (_, x) => `alpha${x}q`);
  const betas = Array.from({ length: v }, (_, y) => `beta${y}q`);
  const marked = alphas.flatMap((a) => betas.map((b) => `- defer: ${a} ${b}`));
  const state = S3_STATE.replace(
    '- Done: marker format',
    `- Done: marker format\n- defer: DEBT-001 keep it\n${marked.join('\n')}`,
  );
  const rows = Array.from({ length: 4_000 }, (_, i) => `| ${(i % 2 ? alphas : betas).join(' ')} |`);
  const dir = s3Workspace({ 'docs/state/STATE.md': state, 'docs/state/DEBT.md': `${DEBT_MD}${rows.join('\n')}\n` });
  const d = debt(await s3(dir));
  const last = d.at(-1);
  assert.equal(last?.status, 'warn');
  const said =
    /^`defer:` markers not matched with the lines of docs\/state\/DEBT\.md by their words: (\d+) \(the first at docs\/state\/STATE\.md:(\d+)\); matching them takes over the 5,000,000 comparisons one check makes\.$/.exec(
      last?.message ?? '',
    );
  assert.ok(said, last?.message);
  assert.match(last?.hint ?? '', /Name the DEBT id in each marker/);
  // The markers compared before the bound are missing (named, then counted); the rest are not.
  const missing = Number(/^(\d+) more `defer:` markers without a line/.exec(d.at(-2)?.message ?? '')?.[1]) + 5;
  assert.equal(missing + Number(said[1]), marked.length);
  assert.equal(Number(said[2]), state.split('\n').indexOf(marked[missing]) + 1);
  // One marker alone: its verdict once the comparisons are spent, its DEBT id found all the same.
  const lines = debtLines(`${DEBT_MD}${rows.slice(0, 100).join('\n')}`);
  const spent = new Comparisons(10);
  assert.equal(
    debtLineOf({ path: 'STATE.md', line: 1, text: 'alpha1q beta1q' }, lines, 'STATE.md', spent),
    'unsettled',
  );
  assert.equal(
    debtLineOf({ path: 'STATE.md', line: 2, text: 'DEBT-001 alpha1q beta1q' }, lines, 'STATE.md', spent),
    'line',
  );
  assert.equal(debtLineOf({ path: 'STATE.md', line: 3, text: 'alpha1q' }, lines, 'STATE.md', spent), 'none');
  assert.equal(debtLineOf({ path: 'STATE.md', line: 1, text: 'alpha1q beta1q' }, lines, 'STATE.md'), 'none');
});

test("S3 defer: a Groundwork-shaped DEBT.md's rows are lines; its commented placeholder row is not (in-repo corpus)", () => {
  const lines = debtLines(readFileSync(path.join(OWN_CORPUS, 'F4/own__groundwork-copy__docs__state__DEBT.md'), 'utf8'));
  assert.ok(lines.some((l) => l.startsWith('| DEBT-001')));
  assert.ok(!lines.some((l) => l.includes('DEBT-002')));
  assert.ok(hasDebtLine({ path: 'checks/board.mjs', line: 3, text: 'colours copied' }, lines, 'docs/state/STATE.md'));
  assert.ok(
    !hasDebtLine({ path: 'docs/state/STATE.md', line: 3, text: 'DEBT-002 later' }, lines, 'docs/state/STATE.md'),
  );
});

externalTest("S3 defer: Groundwork's own DEBT.md rows are lines; its commented placeholder row is not", () => {
  const lines = debtLines(readFileSync(corpusFile('F4/Tradebaas__Groundwork__docs__state__DEBT.md'), 'utf8'));
  assert.ok(lines.some((l) => l.startsWith('| DEBT-001')));
  assert.ok(!lines.some((l) => l.includes('DEBT-003')));
  assert.ok(
    hasDebtLine({ path: 'checks/cockpit-page.mjs', line: 3, text: 'colours copied' }, lines, 'docs/state/STATE.md'),
  );
  assert.ok(
    hasDebtLine({ path: 'docs/state/STATE.md', line: 3, text: 'DEBT-002 ignore lookup' }, lines, 'docs/state/STATE.md'),
  );
  assert.ok(
    !hasDebtLine({ path: 'docs/state/STATE.md', line: 3, text: 'DEBT-003 later' }, lines, 'docs/state/STATE.md'),
  );
});

const CHECK_OK = `import { writeFileSync } from 'node:fs';\nwriteFileSync('ran.txt', 'yes');\nconsole.log('checks green, tests 42/42');\n`;

test('S3 checks/check.mjs: said, never run by a scan or a plain check; --run-checks runs it and adds its result', async () => {
  const dir = s3Workspace({ 'checks/check.mjs': CHECK_OK });
  const s = await s3(dir);
  const rc = s.checks.filter((c) => c.id === 'repo-checks');
  assert.deepEqual(
    rc.map((c) => [c.status, c.severity]),
    [['skipped', 'block']],
  );
  assert.match(rc[0].message, /checks\/check\.mjs is not run unless you ask: `session-ledger check --run-checks`/);
  const plain = cli(['check', '--root', dir]);
  assert.ok(!existsSync(path.join(dir, 'ran.txt')), 'a plain check ran nothing of the repository');
  assert.match(plain.stdout, /skip repo-checks/);

  const run = cli(['check', '--root', dir, '--run-checks', '--confirm', 'feedback-stored,last-request']);
  assert.equal(readFileSync(path.join(dir, 'ran.txt'), 'utf8'), 'yes');
  assert.match(run.stdout, /node checks\/check\.mjs:\nchecks green, tests 42\/42/);
  assert.match(run.stdout, /ok {3}repo-checks +`node checks\/check\.mjs` passed \(exit 0/);
  assert.equal(run.code, 0, run.stdout + run.stderr);

  const red = s3Workspace({ 'checks/check.mjs': "console.error('2 checks failed'); process.exit(3);\n" });
  const r = cli(['check', '--root', red, '--run-checks', '--json']);
  assert.equal(r.code, 1);
  const j = JSON.parse(r.stdout);
  const c = j.systems
    .find((x: { id: string }) => x.id === 'S3')
    .checks.find((x: { id: string }) => x.id === 'repo-checks');
  assert.equal(c.status, 'fail');
  assert.match(c.message, /failed \(exit 3, .* the repository is red/);
  // no checks/check.mjs: nothing to run, no row
  const none = s3Workspace();
  assert.equal(
    (await s3(none)).checks.some((x) => x.id === 'repo-checks'),
    false,
  );
});

test('S3 checks/check.mjs runs under a time limit: the process group is killed (a child it left too), output capped, no shell', async () => {
  const dir = s3Workspace({
    'checks/check.mjs': [
      "import { spawn } from 'node:child_process';",
      "import { writeFileSync } from 'node:fs';",
      "const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      "writeFileSync('child.pid', String(c.pid));",
      "process.stdout.write('x'.repeat(200000) + 'END');",
      'setInterval(() => {}, 1000);',
    ].join('\n'),
  });
  const r = await runRepoChecks(dir, { timeoutMs: 1500, maxOutput: 1000 });
  assert.equal(r.timedOut, true);
  assert.equal(r.code, null);
  assert.ok(r.output.length <= 1000 && r.output.endsWith('END'), `${r.output.length} chars`);
  assert.equal(r.truncated, true);
  const pid = Number(readFileSync(path.join(dir, 'child.pid'), 'utf8'));
  await new Promise((res) => setTimeout(res, 200));
  assert.equal(running(pid), false, 'the child the script left is gone with its group');
  assert.equal(repoChecksCheck(r).status, 'fail');
  // The limit, not the time the kill took after it (more on a busy machine).
  assert.match(repoChecksCheck(r).message, /did not finish within 1\.5 s and was stopped/);
  assert.match(repoChecksCheck({ ...r, ms: 2_600 }).message, /within 1\.5 s/);

  // The script's own exit leaves nothing running either; secrets in its output are masked.
  const leaves = s3Workspace({
    'checks/check.mjs': [
      "import { spawn } from 'node:child_process';",
      "import { writeFileSync } from 'node:fs';",
      "const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });",
      "writeFileSync('child.pid', String(c.pid));",
      "console.log('GITHUB_TOKEN=ghp_' + 'a'.repeat(36));",
      'process.exit(0);',
    ].join('\n'),
  });
  const ok = await runRepoChecks(leaves, { timeoutMs: 20_000 });
  assert.equal(ok.code, 0);
  assert.doesNotMatch(ok.output, /ghp_a{36}/);
  const left = Number(readFileSync(path.join(leaves, 'child.pid'), 'utf8'));
  await new Promise((res) => setTimeout(res, 200));
  assert.equal(running(left), false);
  assert.ok(ok.ms < 15_000, 'not held by the child that kept stdout open');
});

test('the checklist offers the run only in a trusted workspace; its result replaces the row', async () => {
  const dir = s3Workspace({ 'checks/check.mjs': CHECK_OK });
  const report = await evaluate(dir);
  const strings = new Proxy(
    {},
    { get: (_, k) => (k === 'status' || k === 'severity' ? {} : String(k)) },
  ) as ChecklistStrings;
  const view = runnableCheck(report);
  assert.deepEqual(view, { system: 'S3', checkId: 'repo-checks', command: 'node checks/check.mjs' });
  const rc = {
    system: 'S3' as const,
    checkId: 'repo-checks',
    button: 'Run',
    running: false,
    runningText: '',
    output: null,
  };
  assert.equal(
    checklistState(report, { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: false, runChecks: rc })
      .runChecks,
    null,
  );
  assert.deepEqual(
    checklistState(report, { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true, runChecks: rc })
      .runChecks,
    rc,
  );
  const after = withRepoChecks(report, await runRepoChecks(dir));
  const s = after.systems.find((x) => x.id === 'S3')!;
  assert.deepEqual(
    s.checks.filter((c) => c.id === 'repo-checks').map((c) => c.status),
    ['pass'],
  );
  assert.equal(runnableCheck({ ...report, systems: [] }), null);
});
