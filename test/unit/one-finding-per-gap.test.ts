/**
 * One finding per gap. A required part that is missing or still template text was said twice, at two
 * severities: the template check's refusal (block) and the warning that judges the same field (S3's
 * gates, branch-head, Blocked on and log-entry; S1's pending-recorded, next-command and clarity's Q2;
 * S4's summary). Each gap is now one finding, the blocking one, carrying the warning's fix; the warning
 * is skipped and names it. What blocks stays as it was (test/unit/blocking-outcomes.test.ts holds every
 * corpus file's and fixture's blocking checks).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Check, SystemReport } from '../../src/core/model/model';
import { mk, oneFindingPerGap, withGaps } from '../../src/core/rules/common';
import { t } from '../../src/core/model/messages';
import { fixOffers } from '../../src/core/systems/fixes';
import { checksWith, fixtureCopy, FIXTURES, gitInit, lineOf, oneCheck, systemIn, workspace, write } from './helpers';

const STATE = 'docs/state/STATE.md';
const HANDOFF = 'memory/session-handoff-LATEST.md';

const one = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);
const all = (s: SystemReport, id: string): Check[] => checksWith(s.checks, id);
/** What the Problems panel and the tree count: checks that fail or warn. */
const findings = (s: SystemReport): Check[] => s.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
const failing = (s: SystemReport, id: string): Check[] => all(s, id).filter((c) => c.status === 'fail');

const GATES_FIX = 'Write the real state with its numbers: "checks green, tests 42/42, CI green @ <sha>".';
const BRANCH_HEAD_FIX = 'Update Branch / HEAD from `git branch --show-current` and `git rev-parse --short HEAD`.';
const ENTRY_FIX =
  'Give the entry its four parts: Done (what changed), Docs touched (links), Lessons / gotchas (what a fresh session would rediscover), Stopped at (mirroring Now ▶).';
const ITEM1_FIX = 'Write the most urgent concrete action, with its execution command, as item 1.';

test('oneFindingPerGap: a warning whose every gap a failing blocking check of the same file names is skipped, naming it; nothing else changes', () => {
  const block = withGaps(
    mk('S3', 'template', 'block', false, t('{1} is empty or still template text in {0}.', 'a.md', 'Gates'), {
      path: 'a.md',
      line: 4,
    }),
    ['gates', 'blocked'],
  );
  const warn = (gaps: string[], p = 'a.md') =>
    withGaps(mk('S3', 'gates', 'warn', false, t('Gates not recorded: "{0}".', 'TBD'), { path: p, line: 4 }), gaps);
  const out = oneFindingPerGap([block, warn(['gates']), warn(['gates', 'head']), warn(['gates'], 'b.md'), warn([])]);
  assert.deepEqual(
    out.map((c) => [c.id, c.status, c.message]),
    [
      ['template', 'fail', 'Gates is empty or still template text in a.md.'],
      ['gates', 'skipped', 'Covered by the blocking template finding on line 4.'],
      // A gap no blocking finding names (head), another file, no gap: still findings of their own.
      ['gates', 'warn', 'Gates not recorded: "TBD".'],
      ['gates', 'warn', 'Gates not recorded: "TBD".'],
      ['gates', 'warn', 'Gates not recorded: "TBD".'],
    ],
  );
  assert.equal(out[0], block);
  assert.deepEqual([out[1].path, out[1].line, out[1].hint], ['a.md', 4, undefined]);
  // A blocking check is never dropped, even one that names a gap another blocking check names; a
  // blocking check that passes or is skipped covers nothing.
  const twice = withGaps(mk('S1', 'next-action', 'block', false, t('No next action found ({0}).', 'x')), ['n']);
  const passing = withGaps(
    mk('S3', 'template', 'block', true, t('Every required part of the template is filled ({0}).', 'x'), {
      path: 'a.md',
    }),
    ['gates'],
  );
  assert.deepEqual(oneFindingPerGap([twice, twice]), [twice, twice]);
  assert.deepEqual(
    oneFindingPerGap([passing, warn(['gates'])]).map((c) => c.status),
    ['pass', 'warn'],
  );
});

test('S3 without a Handoff block: Status, Gates, Blocked on, Branch / HEAD and the Log entry parts are each one finding, the template refusal', async () => {
  const s = await systemIn(fixtureCopy('s3/no-handoff'), 'S3', { noGit: true });
  assert.deepEqual(
    findings(s).map((c) => [c.id, c.severity]),
    [['handoff-block', 'block'], ...Array.from({ length: 9 }, () => ['template', 'block'])],
  );
  for (const id of ['gates', 'pending-recorded', 'branch-head', 'log-entry'])
    assert.match(one(s, id).message, /^Covered by the blocking template finding on line \d+\.$/, id);
  const fix = (part: string) => failing(s, 'template').find((c) => c.message.startsWith(`No ${part} `))?.hint;
  assert.deepEqual(['Gates', 'Blocked on', 'Branch / HEAD', 'Done in the Log entry'].map(fix), [
    GATES_FIX,
    'Add "Blocked on:" with what waits on the user or an outside party, or clear it when nothing does.',
    BRANCH_HEAD_FIX,
    ENTRY_FIX,
  ]);
});

test("S3 Branch / HEAD with a fill-in variable for the hash: one finding, the template refusal (with the quick fix); a branch that is not git's stays a warning of its own", async () => {
  const good = readFileSync(path.join(FIXTURES, 's3/good', STATE), 'utf8');
  const dir = workspace({
    [STATE]: good.replace(/^- \*\*Branch \/ HEAD:\*\* .*$/m, '- **Branch / HEAD:** `feature/x` @ {{HEAD}}'),
  });
  gitInit(dir);
  const s = await systemIn(dir, 'S3');
  const line = lineOf(path.join(dir, STATE), '**Branch / HEAD:**');
  const refusal = failing(s, 'template');
  assert.deepEqual(
    refusal.map((c) => [c.line, c.message, c.hint]),
    [[line, `Branch / HEAD still holds the placeholder {{HEAD}} in ${STATE}: it is not filled in.`, BRANCH_HEAD_FIX]],
  );
  assert.deepEqual(
    all(s, 'branch-head').map((c) => [c.status, c.message]),
    [
      ['warn', 'Branch out of date: the branch is main, the handoff says feature/x.'],
      ['skipped', `Covered by the blocking template finding on line ${line}.`],
    ],
  );
  // The fix branch-head offered comes with the finding that is reported.
  const place = { path: STATE, onHome: true, onCheckLine: true };
  assert.deepEqual(
    fixOffers('S3', { ...place, check: refusal[0] }).map((o) => o.kind),
    ['branch-head'],
  );
  const phase = failing(
    await systemIn(workspace({ [STATE]: good.replace(/^- \*\*Phase:\*\* .*$/m, '- **Phase:** TBD') }), 'S3', {
      noGit: true,
    }),
    'template',
  );
  assert.deepEqual(
    fixOffers('S3', { ...place, check: phase[0] }).map((o) => o.kind),
    [],
  );
});

test('S3 Branch: and HEAD: on lines of their own, HEAD still TBD: one finding, the template refusal of HEAD', async () => {
  const good = readFileSync(path.join(FIXTURES, 's3/good', STATE), 'utf8');
  const dir = workspace({
    [STATE]: good.replace(/^- \*\*Branch \/ HEAD:\*\* .*$/m, '- **Branch:** `main`\n- **HEAD:** TBD'),
  });
  gitInit(dir);
  const s = await systemIn(dir, 'S3');
  const line = lineOf(path.join(dir, STATE), '**HEAD:**');
  assert.deepEqual(
    failing(s, 'template').map((c) => [c.line, c.message, c.hint]),
    [[line, `HEAD is still template text in ${STATE}: "TBD".`, BRANCH_HEAD_FIX]],
  );
  assert.deepEqual(
    all(s, 'branch-head').map((c) => [c.status, c.message]),
    [['skipped', `Covered by the blocking template finding on line ${line}.`]],
  );
});

test('S3 Gates that carry no numbers are filled in: the gates warning stays, nothing blocks on them', async () => {
  const good = readFileSync(path.join(FIXTURES, 's3/good', STATE), 'utf8');
  const s = await systemIn(
    workspace({ [STATE]: good.replace(/^- \*\*Gates:\*\* .*$/m, '- **Gates:** all green') }),
    'S3',
    { noGit: true },
  );
  assert.deepEqual(failing(s, 'template'), []);
  assert.deepEqual([one(s, 'gates').status, one(s, 'gates').message], ['warn', 'Gates carry no numbers: "all green".']);
});

test('S1 item 1 vague or template text: one finding, next-action, whose fix asks for the command; next-command and clarity Q2 are not said again', async () => {
  for (const fixture of ['s1/vague-next', 's1/template']) {
    const dir = fixtureCopy(fixture);
    const s = await systemIn(dir, 'S1', { noGit: true });
    const n = one(s, 'next-action');
    assert.deepEqual([n.status, n.hint], ['fail', ITEM1_FIX], fixture);
    assert.deepEqual(
      [one(s, 'next-command').status, one(s, 'next-command').message],
      ['skipped', `Covered by the blocking next-action finding on line ${n.line}.`],
      fixture,
    );
    assert.deepEqual(
      all(s, 'clarity').map((c) => [c.status, c.message]),
      [['skipped', `Covered by the blocking next-action finding on line ${n.line}.`]],
      fixture,
    );
  }
  // A concrete item 1 without its command: next-action passes, next-command warns on its own.
  const dir = fixtureCopy('s1/good');
  const file = path.join(dir, HANDOFF);
  write(
    dir,
    HANDOFF,
    readFileSync(file, 'utf8').replace(
      /^1\. .*$/m,
      '1. **Wire the Export button** into `onExport()` in `src/invoices.ts`.',
    ),
  );
  const s = await systemIn(dir, 'S1', { noGit: true });
  assert.equal(one(s, 'next-action').status, 'pass');
  assert.equal(one(s, 'next-command').status, 'warn');
});

test("S1 seed's BAD example: no item 1 is one finding (next-action); Q1 and the missing Pending decisions stay what they were", async () => {
  const s = await systemIn(fixtureCopy('s1/seed-bad-example'), 'S1', { noGit: true });
  assert.deepEqual([one(s, 'next-action').status, one(s, 'next-action').hint], ['fail', ITEM1_FIX]);
  assert.deepEqual(
    all(s, 'clarity').map((c) => [c.status, c.message]),
    [
      [
        'warn',
        'HANDOFF_CLARITY_LOW: Q1 fails: nothing says what was done or where the work stands (no Current work status, System understanding, or snapshot ctx/diff).',
      ],
      ['skipped', 'Covered by the blocking next-action finding.'],
    ],
  );
  assert.deepEqual(
    [one(s, 'pending-recorded').status, one(s, 'pending-recorded').message],
    ['skipped', 'Covered by the blocking template finding on line 1.'],
  );
});

test('S1 untouched template (a skeleton): the template check defers to not-skeleton, so Pending decisions still warns of its own', async () => {
  const s = await systemIn(fixtureCopy('s1/template'), 'S1', { noGit: true });
  assert.equal(one(s, 'not-skeleton').status, 'fail');
  assert.equal(one(s, 'template').status, 'skipped');
  assert.deepEqual(
    [one(s, 'pending-recorded').status, one(s, 'pending-recorded').message],
    ['warn', 'Pending decisions is empty or a placeholder.'],
  );
});

test('S4 checkpoint summary read from the checkpoint itself (PROGRESS.md has no entry): each missing or empty part is one finding, the template refusal, with the summary fix', async () => {
  const dir = fixtureCopy('s4/good');
  const cp = '.agents/checkpoints/2026-03-05-171200.md';
  const text = readFileSync(path.join(dir, cp), 'utf8');
  write(
    dir,
    cp,
    text
      .replace(/## どうやったのか\n\n- [^\n]+\n\n/, '')
      .replace(/(## 途中でどういう課題が起こったのか\n\n)- [^\n]+/, '$1- TBD'),
  );
  write(dir, 'PROGRESS.md', '# Progress\n\nNo checkpoint yet.\n');
  const s = await systemIn(dir, 'S4', { noGit: true });
  const summaryFix =
    'Write the Japanese five-part summary (何をしたのか, どういうやり取りをユーザーと行ったのか, どうやったのか, 途中でどういう課題が起こったのか, 将来のアクション) and let checkpoint.py rebuild PROGRESS.md.';
  assert.deepEqual(
    failing(s, 'template').map((c) => [c.path, c.message, c.hint]),
    [
      [cp, `No どうやったのか in ${cp}: S4's format requires it.`, summaryFix],
      [cp, `途中でどういう課題が起こったのか is empty or still template text in ${cp}.`, summaryFix],
    ],
  );
  assert.deepEqual(
    [one(s, 'summary').status, one(s, 'summary').message],
    ['skipped', 'Covered by the blocking template finding on line 1.'],
  );
  // Read from PROGRESS.md's newest entry, the summary is another file's gap: it stays a warning.
  const broken = await systemIn(fixtureCopy('s4/broken'), 'S4', { noGit: true });
  assert.deepEqual([one(broken, 'summary').status, one(broken, 'summary').path], ['warn', 'PROGRESS.md']);
});
