/**
 * A system's own template must be filled: each required part of the seed's format that is missing,
 * empty or still template text (`<…>`, `TBD`, `YYYY-MM-DD`, the seed's sample text) refuses the
 * go-signal as a `template` check with its line, even when the rest of the file is real. The good
 * fixtures pass every part.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { SystemReport } from '../../src/core/model/model';
import { evaluate } from '../../src/core/report/evaluate';
import { fixtureCopy, gitInit, jaT, koT, workspace } from './helpers';
import { S3_STATE } from './checkpoint-fixtures';
import { assertRefuses, goodWith, HOME, report, swap, type Edit } from './probe-helpers';

/** The `template` refusals of a report, by message. */
function templateFails(s: SystemReport): string[] {
  return s.checks.filter((c) => c.id === 'template' && c.status === 'fail').map((c) => c.message);
}

async function probe(system: string, edits: Record<string, Edit | string | null>, expect: RegExp): Promise<void> {
  const s = await report(goodWith(system, edits), system);
  const fails = templateFails(s);
  assert.ok(
    fails.some((m) => expect.test(m)),
    `${system}: expected a template refusal matching ${expect}; got ${JSON.stringify(fails)}`,
  );
}

test('every good fixture fills every part of its template', async () => {
  for (const system of ['S0', 'S1', 'S2', 'S3', 'S4']) {
    const s = await report(goodWith(system), system);
    const c = s.checks.filter((x) => x.id === 'template');
    assert.deepEqual(
      c.map((x) => x.status),
      ['pass'],
      `${system}: ${c.map((x) => x.message).join(' | ')}`,
    );
  }
});

test('S0: Goal, Done, Now, Next and Working Set each missing or a placeholder refuse', async () => {
  const L = HOME.S0;
  await probe('S0', { [L]: swap(/## Goal\n[^\n]+\n/, '') }, /No ## Goal in /);
  await probe(
    'S0',
    { [L]: swap(/## Goal\n[^\n]+/, '## Goal\n<goal and success criteria>') },
    /## Goal is empty or still template text in /,
  );
  await probe(
    'S0',
    { [L]: swap(/### Done\n(?:- [^\n]+\n)+/, '### Done\n- <completed item 1>\n- <completed item 2>\n') },
    /### Done is empty or still template text in /,
  );
  await probe(
    'S0',
    { [L]: swap(/### Now\n[^\n]+/, '### Now\n<current focus>') },
    /### Now is empty or still template text in /,
  );
  await probe('S0', { [L]: swap(/### Next\n[^\n]+/, '### Next\nTBD') }, /### Next is empty or still template text in /);
  await probe(
    'S0',
    {
      [L]: swap(
        /## Working Set\n(?:- [^\n]+\n?)+/,
        '## Working Set\n- Files: <key files>\n- IDs: <relevant IDs>\n- Commands: <useful commands>\n',
      ),
    },
    /## Working Set is empty or still template text in /,
  );
  await probe('S0', { [L]: swap(/## Working Set\n(?:- [^\n]+\n?)+/, '') }, /No ## Working Set in /);
});

test('S1: each required handoff section and each urgency / risk tag refuses when missing or template text', async () => {
  const L = HOME.S1;
  await probe('S1', { [L]: swap(/## Pending decisions\n(?:- [^\n]+\n)+\n/, '') }, /No ## Pending decisions in /);
  await probe('S1', { [L]: swap(/## Outstanding issues\n(?:- [^\n]+\n)+\n/, '') }, /No ## Outstanding issues in /);
  await probe(
    'S1',
    { [L]: swap(/## System understanding[^\n]*\n(?:- [^\n]+\n)+\n/, '') },
    /No ## System understanding in /,
  );
  await probe(
    'S1',
    {
      [L]: swap(
        /## User's current interests\n(?:- [^\n]+\n?)+/,
        "## User's current interests\n- Top priority: [what]\n- Dissatisfied: [what]\n",
      ),
    },
    /## User's current interests is empty or still template text in /,
  );
  await probe(
    'S1',
    {
      [L]: swap(
        /## System understanding[^\n]*\n(?:- [^\n]+\n)+/,
        '## System understanding (context needed next session)\n- [Key causal relationships discovered this session]\n',
      ),
    },
    /## System understanding is empty or still template text in /,
  );
  await probe('S1', { [L]: swap(' · urgency: H', '') }, /No urgency: H\/M\/L on "Totals row/);
  await probe('S1', { [L]: swap(' · risk: M', '') }, /No risk: H\/M\/L on "CI download test/);
  // An explicit "none" needs no tag; Current work status may be omitted (the seed says so).
  const s = await report(
    goodWith('S1', {
      [L]: (t) =>
        t
          .replace(/## Outstanding issues\n(?:- [^\n]+\n)+/, '## Outstanding issues\n- None.\n')
          .replace(/## Current work status\n(?:- [^\n]+\n)+\n/, ''),
    }),
    'S1',
  );
  assert.deepEqual(templateFails(s), []);
});

test('S2: TASK missing or empty refuses; NEXT a placeholder refuses', async () => {
  const L = HOME.S2;
  await probe('S2', { [L]: swap(/## TASK\n[^\n]+\n/, '') }, /No ## TASK in /);
  await probe(
    'S2',
    { [L]: swap(/## TASK\n[^\n]+/, '## TASK\n<what this session is for>') },
    /## TASK is empty or still template text in /,
  );
  await probe('S2', { [L]: swap(/## NEXT\n[^\n]+/, '## NEXT\n') }, /## NEXT is empty or still template text in /);
});

test('S3: Status, Phase, Branch / HEAD, Gates, Blocked on as placeholders or missing refuse; the Log entry needs its date and four parts', async () => {
  const L = HOME.S3;
  await probe(
    'S3',
    { [L]: swap(/- \*\*Status:\*\*[^\n]+/, '- **Status:** <one line>') },
    /Status is still template text in .*: "<one line>"/,
  );
  await probe(
    'S3',
    { [L]: swap(/- \*\*Phase:\*\*[^\n]+/, '- **Phase:** TBD') },
    /Phase is still template text in .*: "TBD"/,
  );
  await probe(
    'S3',
    { [L]: swap(/- \*\*Branch \/ HEAD:\*\*[^\n]+/, '- **Branch / HEAD:** TBD') },
    /Branch \/ HEAD is still template text in .*: "TBD"/,
  );
  await probe('S3', { [L]: swap(/- \*\*Gates:\*\*[^\n]+\n/, '') }, /No Gates in /);
  await probe(
    'S3',
    { [L]: swap(/- \*\*Blocked on:\*\*[^\n]+/, '- **Blocked on:** <who or what>') },
    /Blocked on is still template text in .*: "<who or what>"/,
  );
  await probe('S3', { [L]: swap(/- \*\*Status:\*\*[^\n]+\n/, '') }, /No Status in /);
  await probe('S3', { [L]: swap(/### 2026-03-04[\s\S]*$/, '') }, /No dated Log entry in /);
  await probe(
    'S3',
    { [L]: swap(/- Lessons \/ gotchas:[^\n]+\n/, '') },
    /No Lessons \/ gotchas in the Log entry of 2026-03-04 in /,
  );
  await probe(
    'S3',
    { [L]: swap(/- Stopped at: middleware wiring[^\n]+/, '- Stopped at: <where>') },
    /Stopped at in the Log entry of 2026-03-04 is empty or still template text in /,
  );
  await probe('S3', { [L]: swap(/- Done: token bucket[^\n]+/, '- Done:') }, /Done in the Log entry of 2026-03-04/);
  // Blocked on cleared is a real value, not a placeholder.
  const cleared = await report(goodWith('S3', { [L]: swap(/- \*\*Blocked on:\*\*[^\n]+/, '- **Blocked on:**') }), 'S3');
  assert.deepEqual(templateFails(cleared), []);
});

test('S3: a Now ▶ outside the Handoff block does not count', async () => {
  const s = await report(
    goodWith('S3', {
      [HOME.S3]: (t) =>
        t
          .replace(/- \*\*Now ▶\*\*([^\n]+)\n/, '')
          .replace('## Log\n', '## Log\n\nNow ▶ wire `RedisStore.take()` into `src/limiter/middleware.ts`\n'),
    }),
    'S3',
  );
  const c = assertRefuses(s, 'handoff-block');
  assert.match(c.message, /outside the "## Handoff: read this first" block/);
});

test('S4: the Progress Tracker link, PROGRESS.md and the five-part summary in the newest checkpoint are required; PROGRESS.md is newest first', async () => {
  const CP = '.agents/checkpoints/2026-03-05-171200.md';
  await probe(
    'S4',
    {
      [HOME.S4]: swap(
        'Rolling progress summary (latest 5 checkpoints): [PROGRESS.md](../PROGRESS.md)',
        'Rolling progress summary: see the tracker',
      ),
    },
    /The link to PROGRESS\.md under ## Progress Tracker is empty or still template text in /,
  );
  await probe('S4', { 'PROGRESS.md': null }, /No PROGRESS\.md in /);
  await probe(
    'S4',
    { [CP]: swap(/## どうやったのか\n\n- [^\n]+\n\n/, '') },
    /No どうやったのか in .*2026-03-05-171200\.md/,
  );
  await probe(
    'S4',
    { [CP]: swap(/## 将来のアクション\n\n- [^\n]+/, '## 将来のアクション\n\n- TBD') },
    /将来のアクション is empty or still template text in /,
  );
  // The summary only in PROGRESS.md, the checkpoint without it (what the old fixture had): refused.
  await probe(
    'S4',
    {
      [CP]: '---\ntimestamp: 2026-03-05T17:12:00+01:00\n---\n\n# Checkpoint 2026-03-05-171200\n\n## Notes\n\n- Minor-unit amounts.\n',
    },
    /No 何をしたのか in /,
  );
  // Entries out of date order, and a newest checkpoint PROGRESS.md does not list.
  const swapped = await report(
    goodWith('S4', {
      'PROGRESS.md': (t) => {
        const [head, a, b] = t.split(/(?=^## \[)/m);
        return `${head}${b.trimEnd()}\n\n${a}`;
      },
    }),
    'S4',
  );
  assert.match(
    assertRefuses(swapped, 'progress-order').message,
    /entry 2026-03-05-171200 .* is newer than the entry above it/,
  );
  const unlisted = await report(
    goodWith('S4', {
      '.agents/checkpoints/2026-03-09-080000.md':
        '# Checkpoint\n\n## 何をしたのか\n- a\n## どういうやり取りをユーザーと行ったのか\n- b\n## どうやったのか\n- c\n## 途中でどういう課題が起こったのか\n- d\n## 将来のアクション\n- e\n',
    }),
    'S4',
  );
  assert.match(
    assertRefuses(unlisted, 'progress-order').message,
    /The newest checkpoint .*2026-03-09-080000\.md has no entry in PROGRESS\.md/,
  );
});

test('an untouched template is one refusal (not-skeleton), not one per part', async () => {
  for (const [system, dir] of [
    ['S0', 's0/template'],
    ['S3', 's3/template'],
  ] as const) {
    const s = await report(fixtureCopy(dir), system);
    assert.equal(s.checks.find((c) => c.id === 'not-skeleton')?.status, 'fail');
    assert.deepEqual(
      s.checks.filter((c) => c.id === 'template').map((c) => c.status),
      ['skipped'],
    );
  }
});

test('S3 without a dated Log entry: the fix asks to write "a dated Log entry" (English, Japanese, Korean); S4 without its tracker link: "No link", never "No a"', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE.replace(/\n## Log\n[\s\S]*$/, '\n## Log\n') });
  gitInit(dir);
  const s3 = (await evaluate(dir)).systems.find((s) => s.id === 'S3');
  const log = s3?.checks.find((c) => c.id === 'template' && c.status === 'fail');
  assert.ok(log, JSON.stringify(s3?.checks.map((c) => [c.id, c.status, c.message])));
  assert.equal(log.message, "No dated Log entry in docs/state/STATE.md: S3's format requires it.");
  assert.equal(log.hint, 'Write a dated Log entry from the session; a placeholder does not count.');
  assert.ok(log.hintId);
  const ja = jaT(log.hintId, ...(log.hintArgs ?? []));
  const ko = koT(log.hintId, ...(log.hintArgs ?? []));
  assert.notEqual(ja, log.hint);
  assert.notEqual(ko, log.hint);
  assert.match(ja, /dated Log entry を 1 件/);
  assert.match(ko, /dated Log entry을\(를\) 하나/);

  const s4 = fixtureCopy('s4/good');
  const home = path.join(s4, '.agents/STATE.md');
  writeFileSync(home, readFileSync(home, 'utf8').replace(/## Progress Tracker[\s\S]*?(?=\n## |$)/, ''));
  gitInit(s4);
  const checks = (await evaluate(s4)).systems.find((s) => s.id === 'S4')?.checks ?? [];
  const link = checks.find((c) => c.id === 'template' && /Progress Tracker/.test(c.message));
  assert.ok(link, JSON.stringify(checks.map((c) => [c.id, c.status, c.message])));
  assert.match(link.message, /No link to PROGRESS\.md under ## Progress Tracker in /);
  assert.equal(
    link.hint,
    'Write a link to PROGRESS.md under ## Progress Tracker from the session; a placeholder does not count.',
  );
  for (const c of checks)
    assert.doesNotMatch(`${c.message} ${c.hint ?? ''}`, /\bno a\b|Write (?:dated|checkpoint|link)\b/);
});
