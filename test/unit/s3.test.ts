import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, SystemReport } from '../../src/core/model/model';
import { FACTS } from '../../src/core/systems/facts';
import { parseBranchHead, parseField, type S3Structure } from '../../src/core/systems/s3/reader-state';
import { checksWith, cli, fixtureCopy, git, gitInit, oneCheck, systemIn, workspace, write } from './helpers';

const fixture = (name: string): string => fixtureCopy(`s3/${name}`);
const s3 = (dir: string, confirmed: string[] = []): Promise<SystemReport> => systemIn(dir, 'S3', { confirmed });
const only = (s: SystemReport, id: string): Check[] => checksWith(s.checks, id);
const one = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);

const PROMPT = 'Read docs/state/STATE.md and continue from the Now ▶ action.';
const STATE = 'docs/state/STATE.md';

/** The good fixture in git, with the real HEAD written into its handoff (uncommitted, as after a checkpoint). */
function goodRepo(full = false): string {
  const dir = fixture('good');
  gitInit(dir);
  const head = git(dir, 'rev-parse', full ? 'HEAD' : '--short', ...(full ? [] : ['HEAD'])).trim();
  const p = path.join(dir, STATE);
  writeFileSync(p, readFileSync(p, 'utf8').replace('(no hash recorded)', head));
  return dir;
}

test('S3 good STATE in git: every check passes; fields, entries and resume prompt as written', async () => {
  const dir = goodRepo();
  const s = await s3(dir, ['feedback-stored', 'last-request']);
  for (const c of s.checks) assert.ok(['pass', 'manual-done'].includes(c.status), `${c.id}: ${c.status} ${c.message}`);
  assert.equal(s.label, 'WORKING');
  assert.equal(
    s.next,
    'wire `RedisStore.take()` into `src/limiter/middleware.ts` per the plan in the 2026-03-04 Log entry below',
  );
  assert.equal(s.resumePrompt, PROMPT);
  const st = s.docs[0].meta.s3 as S3Structure;
  assert.deepEqual(st.handoff, { title: 'Handoff: read this first', line: 5, endLine: 13 });
  assert.deepEqual(
    st.fields.map((f) => [f.name, f.line]),
    [
      ['status', 7],
      ['phase', 8],
      ['branchHead', 9],
      ['gates', 10],
      ['now', 11],
      ['blocked', 12],
    ],
  );
  assert.equal(st.fields[1].value, 'build');
  assert.deepEqual(st.log, { title: 'Log', line: 14, endLine: 30 });
  assert.deepEqual(
    st.entries.map((e) => [e.date, e.line, e.endLine, e.docsTouched.map((d) => d.line)]),
    [
      ['2026-03-04', 16, 22, [19]],
      ['2026-03-01', 23, 30, [26, 27, 28]],
    ],
  );
  assert.deepEqual(s.docs[0].meta.companions, ['docs/state/DEBT.md', 'docs/state/log', 'docs/decisions']);
  assert.match(one(s, 'stale-paths').message, /3 "Docs touched" links checked/);
  assert.match(one(s, 'branch-head').message, /^Branch main and HEAD [0-9a-f]{7} match git\.$/);
  assert.deepEqual(
    s.docs[0].sections.map((x) => x.key),
    ['title', 'handoff', 'log', 'log-entry', 'log-entry'],
  );
  assert.ok(s.docs[0].sections[1].items.every((i) => i.flags.some((f) => f.startsWith('field:'))));
  assert.deepEqual(FACTS.S3.thresholds, { propose: 15, urgent: 40 });

  const j = JSON.parse(cli(['status', '--root', dir, '--json']).stdout);
  assert.deepEqual(
    j.systems.map((x: { id: string }) => x.id),
    ['S3'],
  );
  assert.equal(j.systems[0].next, s.next);
  // The session's manual items are open without --confirm: the overall label says so, S3's own says its file.
  assert.equal(j.systems[0].label, 'WORKING');
  assert.equal(j.label, 'PARTIAL');
  assert.deepEqual(
    j.systems[0].checks.find((c: { id: string }) => c.id === 'handoff-block'),
    {
      id: 'handoff-block',
      severity: 'block',
      status: 'pass',
      message: '"## Handoff: read this first" with Now ▶ present.',
      path: STATE,
      line: 5,
      messageId: '"## {0}" with Now ▶ present.',
      args: ['Handoff: read this first'],
    },
  );
});

test('S3 branch-head: full hash, moved HEAD, state-only commits, other branch, outside git', async () => {
  assert.equal(one(await s3(goodRepo(true)), 'branch-head').status, 'pass');

  // Committing the handoff itself moves HEAD past the recorded hash: still current.
  const dir = goodRepo();
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'checkpoint');
  const c = one(await s3(dir), 'branch-head');
  assert.equal(c.status, 'pass', c.message);
  assert.match(c.message, /moved past [0-9a-f]{7} only by commits to docs\/state\//);

  // A code commit after it: the recorded HEAD is out of date.
  write(dir, 'src/limiter.ts', 'export {};\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'code');
  const c2 = one(await s3(dir), 'branch-head');
  assert.deepEqual([c2.status, c2.line], ['warn', 9]);
  assert.match(c2.message, /HEAD is [0-9a-f]{7}, the handoff says [0-9a-f]{7}/);

  // Each out-of-date field is a finding of its own.
  git(dir, 'checkout', '-q', '-b', 'feat/other');
  assert.deepEqual(
    (await s3(dir)).checks
      .filter((c) => c.id === 'branch-head')
      .map((c) => [c.status, c.line, c.message.replace(/[0-9a-f]{7}/g, 'HASH')]),
    [
      ['warn', 9, 'Branch out of date: the branch is feat/other, the handoff says main.'],
      ['warn', 9, 'HEAD out of date: HEAD is HASH, the handoff says HASH.'],
    ],
  );

  const nogit = fixture('good');
  assert.equal(one(await s3(nogit), 'branch-head').status, 'skipped');
  assert.equal(one(await s3(nogit), 'fresh').status, 'skipped');
});

test('S3 template (untouched): not-skeleton and next-action block; TBD fields warn', async () => {
  const s = await s3(fixture('template'));
  assert.equal(s.label, 'BROKEN');
  assert.deepEqual([one(s, 'not-skeleton').status, one(s, 'not-skeleton').line], ['fail', 5]);
  assert.deepEqual([one(s, 'next-action').status, one(s, 'next-action').line], ['fail', 11]);
  assert.equal(s.next, 'TBD');
  assert.deepEqual([one(s, 'pending-recorded').status, one(s, 'pending-recorded').line], ['warn', 12]);
  assert.deepEqual([one(s, 'gates').status, one(s, 'gates').line], ['warn', 10]);
  assert.equal(one(s, 'branch-head').status, 'warn');
  assert.equal(one(s, 'handoff-block').status, 'pass');
  assert.equal(one(s, 'log-order').status, 'skipped');
});

test('S3 broken STATE: every rule reports with its line', async () => {
  const dir = fixture('broken');
  gitInit(dir);
  const s = await s3(dir);
  assert.deepEqual([one(s, 'next-action').status, one(s, 'next-action').line], ['fail', 10]);
  assert.equal(s.next, 'continue work');
  // No Blocked on field: the template's blocking finding says it, with pending-recorded's fix; pending-recorded
  // does not say it again.
  const blocked = only(s, 'template').filter((c) => /Blocked on/.test(c.message));
  assert.deepEqual(
    blocked.map((c) => [c.status, c.line, c.message, c.hint]),
    [
      [
        'fail',
        3,
        "No Blocked on in docs/state/STATE.md: S3's format requires it.",
        'Add "Blocked on:" with what waits on the user or an outside party, or clear it when nothing does.',
      ],
    ],
  );
  assert.deepEqual(
    [one(s, 'pending-recorded').status, one(s, 'pending-recorded').message],
    ['skipped', 'Covered by the blocking template finding on line 3.'],
  );
  assert.deepEqual([one(s, 'gates').status, one(s, 'gates').line], ['warn', 9]);
  assert.match(one(s, 'gates').message, /no numbers: "all green"/);
  const bh = s.checks.filter((c) => c.id === 'branch-head');
  assert.deepEqual(
    bh.map((c) => [c.status, c.line]),
    [
      ['warn', 7],
      ['warn', 7],
    ],
  );
  assert.match(bh[0].message, /the branch is main, the handoff says feature\/search-index\.$/);
  assert.match(bh[1].message, /HEAD is [0-9a-f]{7}, the handoff says deadbee\.$/);
  assert.deepEqual(
    only(s, 'log-order').map((c) => [c.status, c.line]),
    [['warn', 19]],
  );
  assert.deepEqual(
    only(s, 'stale-paths').map((c) => [c.status, c.line, c.message]),
    [
      ['warn', 17, 'STALE PATH: ../decisions/0007-icu.md does not exist.'],
      ['warn', 22, 'STALE PATH: ../search/mapping.md does not exist.'],
    ],
  );
  const r = cli(['check', '--root', dir]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /warn log-order/);
});

test('S3 without ## Handoff: handoff-block blocks; Now ▶ elsewhere is still the next action; list-item Log entries', async () => {
  const s = await s3(fixture('no-handoff'));
  assert.deepEqual(
    [one(s, 'handoff-block').status, one(s, 'handoff-block').message],
    ['fail', 'No "## Handoff" block in docs/state/STATE.md.'],
  );
  assert.equal(s.next, 'finish the migration script in `scripts/migrate.ts` and run it against staging');
  assert.equal(one(s, 'next-action').line, 3);
  const st = s.docs[0].meta.s3 as S3Structure;
  assert.deepEqual(
    st.entries.map((e) => [e.date, e.line, e.level]),
    [
      ['2026-03-03', 7, 0],
      ['2026-02-27', 8, 0],
    ],
  );
  assert.equal(one(s, 'log-order').status, 'pass');
});

test("S3 detection: someone else's STATE.md (multi-stream, status in the H1) is not S3; binary is S3, damaged", async () => {
  assert.deepEqual((await evaluate(fixture('foreign'))).systems, []);
  assert.equal(cli(['check', '--root', fixture('foreign')]).code, 0);
  const bin = await s3(workspace({ [STATE]: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a, 0x0a]) }));
  assert.equal(bin.label, 'BROKEN');
  assert.deepEqual(
    [one(bin, 'exists').status, one(bin, 'readable').severity, one(bin, 'readable').status],
    ['fail', 'block', 'fail'],
  );
  assert.equal(one(bin, 'handoff-block').status, 'skipped');
  assert.equal(bin.next, null);
  const latin1 = await s3(workspace({ [STATE]: Buffer.from('## Handoff\n- **Now \u25b6** caf\xe9\n', 'latin1') }));
  assert.match(one(latin1, 'readable').message, /UTF-8/);
  const r = cli(['status', '--root', workspace({ [STATE]: Buffer.from([0, 1, 2, 3]) }), '--json']);
  assert.equal(r.code, 0);
  assert.equal(JSON.parse(r.stdout).systems[0].label, 'BROKEN');
});

test("S3 budget counts lines as S3's checker does (split on newline), honouring checks/config.json", async () => {
  const head = '# STATE\n\n## Handoff\n- **Now ▶** trim the Log into docs/state/log/2026-03.md\n\n## Log\n';
  const body = (n: number) => head + Array.from({ length: n - 7 }, (_, i) => `- line ${i}`).join('\n') + '\n';
  const at150 = body(150);
  assert.equal(at150.split('\n').length, 150);
  assert.equal(one(await s3(workspace({ [STATE]: at150 })), 'budget').status, 'pass');
  const at151 = body(151);
  const c = one(await s3(workspace({ [STATE]: at151 })), 'budget');
  assert.deepEqual([c.status, c.message], ['warn', 'Over budget: docs/state/STATE.md has 151 lines > 150.']);
  assert.match(c.hint ?? '', /docs\/state\/log\/YYYY-MM\.md/);
  const cfg = workspace({ [STATE]: at151, 'checks/config.json': JSON.stringify({ budgets: { stateMdLines: 200 } }) });
  assert.equal(one(await s3(cfg), 'budget').status, 'pass');
});

test('S3 Blocked on: cleared is explicit none; secrets block; CRLF and BOM read the same', async () => {
  const text =
    '# STATE\n\n## Handoff\n\n- **Gates:** tests 12/12\n- **Now ▶** ship the release notes in `CHANGELOG.md`\n- **Blocked on:**\n\n## Log\n';
  const s = await s3(workspace({ [STATE]: text }));
  assert.deepEqual(
    [one(s, 'pending-recorded').status, one(s, 'pending-recorded').message],
    ['pass', 'Blocked on: nothing (cleared).'],
  );
  const crlf = await s3(workspace({ [STATE]: `\uFEFF${text.replace(/\n/g, '\r\n')}` }));
  assert.deepEqual(crlf.docs[0].meta.s3, s.docs[0].meta.s3);
  assert.deepEqual(crlf.docs[0].sections, s.docs[0].sections);
  assert.equal(crlf.next, 'ship the release notes in `CHANGELOG.md`');
  const leaked = await s3(
    workspace({ [STATE]: `${text}- 2026-03-01: deploy via https://deploy:hunter2secret@ci.internal.net/hook\n` }),
  );
  const sec = one(leaked, 'no-secrets');
  assert.deepEqual([sec.status, sec.line], ['fail', 10]);
});

test('S3 field and Branch / HEAD parsing', () => {
  assert.deepEqual(parseBranchHead('`main` @ `4f3e2d1`'), { branch: 'main', head: '4f3e2d1' });
  assert.deepEqual(parseBranchHead('feat/x @ abc1234 (pushed)'), { branch: 'feat/x', head: 'abc1234' });
  assert.deepEqual(parseBranchHead('main / 0123456789abcdef0123456789abcdef01234567'), {
    branch: 'main',
    head: '0123456789abcdef0123456789abcdef01234567',
  });
  assert.deepEqual(parseBranchHead('release-2.1'), { branch: 'release-2.1', head: null });
  assert.deepEqual(parseField('**Now ▶** run `begin`', 4), {
    name: 'now',
    label: 'Now ▶',
    value: 'run `begin`',
    line: 4,
  });
  assert.deepEqual(parseField('**Phase:** TBD <!-- prepare | design -->', 2), {
    name: 'phase',
    label: 'Phase',
    value: 'TBD',
    line: 2,
  });
  assert.equal(parseField('Status update from the team was good', 1), null);
  assert.equal(parseField('Headline: x', 1), null);
});

test('S3 Blocked on cleared with a word for none ("N/A", "-", "—", "N/A (nothing waits)") passes the template, as pending-recorded says it is cleared; the template\'s TBD, with an aside or not, still fails it', async () => {
  const src = readFileSync(path.join(fixtureCopy('s3/good'), STATE), 'utf8');
  const cases: Array<[string, 'pass' | 'fail', string]> = [
    ['N/A', 'pass', 'Blocked on: nothing (cleared).'],
    ['-', 'pass', 'Blocked on: nothing (cleared).'],
    ['—', 'pass', 'Blocked on: nothing (cleared).'],
    ['n/a (nothing waits on the user)', 'pass', 'Blocked on: n/a (nothing waits on the user)'],
    // A placeholder is said once, by the template (it blocks), quoted as pending-recorded quoted it.
    ['TBD', 'fail', 'Blocked on is still template text in docs/state/STATE.md: "TBD".'],
    ['TBD (owner: alice)', 'fail', 'Blocked on is still template text in docs/state/STATE.md: "TBD (owner: alice)".'],
  ];
  for (const [value, template, said] of cases) {
    const dir = workspace({ [STATE]: src.replace(/^- \*\*Blocked on:\*\* .*$/m, `- **Blocked on:** ${value}`) });
    const s = await s3(dir);
    const blocked = only(s, 'template').filter((c) => c.status === 'fail' && /Blocked on/.test(String(c.message)));
    assert.equal(blocked.length ? 'fail' : 'pass', template, `${value}: ${blocked.map((c) => c.message).join('; ')}`);
    const pending = one(s, 'pending-recorded');
    if (template === 'pass') assert.equal(String(pending.message), said, value);
    else {
      assert.deepEqual([blocked[0].message, blocked[0].hint], [said, NAME_WHAT_WAITS], value);
      assert.equal(pending.status, 'skipped', value);
    }
  }
});

const NAME_WHAT_WAITS = 'Name what waits on the user or an external thing, else clear the field.';

test('S3 Branch / HEAD still the template\'s "<branch> @ <sha>" (plain or in code spans) is template text: its blocking template finding names it and branch-head leaves it to that finding', async () => {
  for (const value of ['<branch> @ <sha>', '`<branch>` @ `<sha>`']) {
    const dir = goodRepo();
    const p = path.join(dir, STATE);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/^(- \*\*Branch \/ HEAD:\*\*).*$/m, `$1 ${value}`));
    const s = await s3(dir);
    const template = only(s, 'template').filter((c) => /Branch \/ HEAD/.test(String(c.message)));
    assert.ok(
      template.some((c) => c.status === 'fail' && c.line === 9),
      `${value}: ${JSON.stringify(only(s, 'template').map((c) => [c.status, c.message]))}`,
    );
    assert.deepEqual(
      only(s, 'branch-head').map((c) => [c.status, c.message]),
      [['skipped', 'Covered by the blocking template finding on line 9.']],
      value,
    );
  }
});
