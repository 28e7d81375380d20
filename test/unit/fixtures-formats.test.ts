/**
 * Formats the corpus showed, held by the project's own fixtures so a clone without ../shared/corpus
 * still tests them: an older S0 ledger at the root (CONTINUITY.md, Done/Now/Next as H2 siblings of
 * State) and an S1 handoff whose next-step list marks its first item done ("→ 완료").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { fixtureCopy, lineOf } from './helpers';

test('S0 CONTINUITY.md at the root: Done/Now/Next as H2 siblings, checked State items, UNCONFIRMED items, Now is next', async () => {
  const dir = fixtureCopy('s0/continuity-siblings');
  const file = path.join(dir, 'CONTINUITY.md');
  const r = await evaluate(dir, { noGit: true });
  assert.deepEqual(
    r.systems.map((s) => s.id),
    ['S0'],
  );
  const s = r.systems[0];
  assert.equal(s.home, 'CONTINUITY.md');
  const d = s.docs[0];
  assert.deepEqual(
    d.sections.map((x) => [x.key, x.title]),
    [
      ['title', 'Continuity Ledger'],
      ['goal', 'Goal'],
      ['constraints', 'Constraints/Assumptions'],
      ['decisions', 'Key Decisions'],
      ['state', 'State'],
      ['done', 'Done'],
      ['now', 'Now'],
      ['next', 'Next'],
      ['open', 'Open Questions'],
      ['working-set', 'Working Set'],
    ],
  );
  assert.ok(
    d.sections.find((x) => x.key === 'state')?.items.every((i) => i.flags.includes('done')),
    'the checked State items are done',
  );
  assert.deepEqual(
    s.unconfirmed.map((i) => i.line),
    [lineOf(file, 'Upstream B filters'), lineOf(file, 'Does upstream B need')],
  );
  assert.equal(
    s.next,
    'Bring up the session to upstream A and compare the announced prefixes with `birdc show route export upstream_a`.',
  );
  assert.equal(s.checks.find((c) => c.id === 'next-action')?.status, 'pass');
  assert.equal(
    s.resumePrompt,
    'Read CONTINUITY.md, validate its UNCONFIRMED items with me first, then continue from the Now section.',
  );
});

test('S1 "Active Task" whose item 1 is marked → 완료: item 2 is the next action, and the resume prompt says so', async () => {
  const dir = fixtureCopy('s1/done-marker');
  const rel = 'memory/session-handoff-LATEST.md';
  const file = path.join(dir, rel);
  const r = await evaluate(dir, { noGit: true });
  const s = r.systems.find((x) => x.id === 'S1');
  assert.ok(s, 'S1 detected');
  const task = s.docs[0].sections.find((x) => x.key === 'next');
  assert.equal(task?.title, 'Active Task');
  assert.deepEqual(
    task?.items.map((i) => i.flags.includes('done')),
    [true, false, false],
  );
  assert.equal(s.next, '**2-2**: 그리퍼 드라이버를 새 프로토콜로 교체');
  const next = s.checks.find((c) => c.id === 'next-action');
  assert.deepEqual([next?.status, next?.path, next?.line], ['pass', rel, lineOf(file, '**2-2**')]);
  assert.equal(s.resumePrompt, `Read ${rel} and start with item 2 of "Active Task".`);
});
