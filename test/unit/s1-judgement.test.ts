import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { S1_CURATION, S1_SNAPSHOT } from '../../src/core/systems/facts';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import { contextEntryFlags, parseLessons } from '../../src/core/systems/s1/reader-memory';
import { readSnapshot } from '../../src/core/systems/s1/reader-snapshot';
import {
  checkContextLog,
  isArchiveCandidate,
  isExpired,
  isPromotionCandidate,
  snapshotProblems,
} from '../../src/core/systems/s1/rules';
import { evaluate } from '../../src/core/report/evaluate';
import type { Item } from '../../src/core/model/model';
import { fixtureCopy, FIXTURES } from './helpers';

const CAPS_FILE = path.join(FIXTURES, 's1/snapshot-caps/memory/session-handoff-LATEST.md');

test('S1 snapshot reader records what the block holds and judges nothing; the check finds the cap breaches', () => {
  const text = readFileSync(CAPS_FILE, 'utf8');
  const snap = readSnapshot(parseMarkdown(text));
  assert.ok(snap);
  const info = snap.info;
  // Data only: no messages, no judgement.
  assert.equal('problems' in info, false);
  assert.equal(info.shape, 'mapping');
  assert.equal(info.ts, '2026-05-04');
  assert.deepEqual(info.ctx && info.ctx.words, 21);
  assert.deepEqual(
    [info.next?.isList, info.next?.itemLines.length, info.diff?.itemLines.length, info.blocked?.itemLines.length],
    [true, 6, 1, 4],
  );
  assert.deepEqual(
    info.diffEntries.map((e) => [e.mapping, e.op, e.whyWords]),
    [[true, 'change', 11]],
  );
  assert.deepEqual(
    info.blockedEntries.map((e) => e.risk),
    ['H', 'X', 'L', 'M'],
  );
  // The check turns the data into findings, with the lines of what breaks the cap.
  const lines = text.split('\n');
  const at = (s: string) => lines.findIndex((l) => l.includes(s)) + 1;
  assert.deepEqual(
    snapshotProblems(info).map((p) => [p.line, p.message.text.replace(/^Snapshot: /, '')]),
    [
      [at('ctx: "one two'), 'ctx has 21 words (cap 20).'],
      [at('- "f"'), 'next has 6 items (cap 5).'],
      [at('- op: change'), 'diff item 1 has op "change" (allowed: add|del|mod|decide).'],
      [at('- op: change'), 'diff item 1: why has 11 words (cap 10).'],
      [at('- item: "i2"'), 'blocked item 2 has risk "X" (allowed: H|M|L).'],
      [at('- item: "i4"'), 'blocked has 4 items (cap 3).'],
    ],
  );
});

test('S1 snapshot: a YAML error, an empty block and missing fields are recorded as data and judged by the check', () => {
  const bad = readSnapshot(parseMarkdown('<!-- state-snapshot v1 -->\n```yaml\nts: 1\nctx: [unclosed\n```\n'));
  assert.ok(bad);
  assert.equal(bad.info.shape, 'yaml-error');
  assert.equal(typeof bad.info.error, 'string');
  assert.equal(typeof bad.info.errorLine, 'number');
  assert.match(
    snapshotProblems(bad.info)[0].message.text,
    /^The YAML of state-snapshot v1 does not parse at line \d+, column \d+: /,
  );
  const empty = readSnapshot(parseMarkdown('<!-- state-snapshot v1 -->\n```yaml\n```\n'));
  assert.ok(empty);
  assert.equal(empty.info.shape, 'empty');
  assert.deepEqual(
    snapshotProblems(empty.info).map((p) => p.message.text),
    ['Snapshot: the block is empty.'],
  );
  const bare = readSnapshot(parseMarkdown('<!-- state-snapshot v1 -->\n```yaml\nts: 2026-05-04\nnext: []\n```\n'));
  assert.ok(bare);
  assert.deepEqual([bare.info.ctx, bare.info.next?.itemLines], [null, []]);
  assert.deepEqual(
    snapshotProblems(bare.info).map((p) => p.message.text),
    ['Snapshot: `ctx` is missing.', 'Snapshot: `next` is empty.'],
  );
});

test('S1 snapshot caps come from the facts table: the check follows a changed cap', () => {
  const snap = readSnapshot(parseMarkdown(readFileSync(CAPS_FILE, 'utf8')));
  assert.ok(snap);
  const saved = S1_SNAPSHOT.ctxWords;
  try {
    (S1_SNAPSHOT as { ctxWords: number }).ctxWords = 25;
    assert.ok(!snapshotProblems(snap.info).some((p) => /ctx has/.test(p.message.text)));
  } finally {
    (S1_SNAPSHOT as { ctxWords: number }).ctxWords = saved;
  }
  assert.ok(snapshotProblems(snap.info).some((p) => /ctx has 21 words \(cap 20\)/.test(p.message.text)));
});

test("S1 lessons and context log: the reader records conf/seen/obs and date/ttl/ref; archive, expired and promote are the check's verdicts", () => {
  const lessons = parseLessons(
    parseMarkdown(
      '# Lessons\n\n### Prefer tabs\n> conf: 0.3 · seen: 2025-11-02 · obs: 1\n\n### Stream rows\n> conf: 0.95 · seen: 2026-04-28 · obs: 4\n',
    ),
  );
  const metas = lessons.sections.filter((s) => s.key === 'lesson').map((s) => s.items[0]);
  assert.deepEqual(
    metas.map((i) => i.flags),
    [
      ['conf:0.3', 'seen:2025-11-02', 'obs:1'],
      ['conf:0.95', 'seen:2026-04-28', 'obs:4'],
    ],
  );
  const now = Date.UTC(2026, 4, 5);
  assert.deepEqual(
    metas.map((i) => isArchiveCandidate(i, now)),
    [true, false],
  );
  // Ninety days after the last sighting it is not yet a candidate; the threshold is the facts table's.
  assert.equal(isArchiveCandidate(metas[0], Date.UTC(2026, 0, 31)), false);
  assert.deepEqual(S1_CURATION.archive, { conf: 0.4, days: 90 });

  const entry = (text: string): Item => ({ text, line: 1, flags: contextEntryFlags(text) ?? [] });
  const old = entry('[2026-03-01] [VERIFICATION] [ttl:30d] [ref:0] Export quoting verified');
  const ref = entry('[2026-03-02] [DECISION] [ttl:permanent] [ref:4] Exports stream rows');
  assert.deepEqual(old.flags, ['date:2026-03-01', 'type:VERIFICATION', 'ttl:30d', 'ref:0']);
  assert.deepEqual(ref.flags, ['date:2026-03-02', 'type:DECISION', 'ttl:permanent', 'ref:4']);
  assert.deepEqual(
    [isExpired(old, now), isExpired(old, Date.UTC(2026, 2, 20)), isExpired(ref, now)],
    [true, false, false],
  );
  assert.deepEqual([isPromotionCandidate(old), isPromotionCandidate(ref)], [false, true]);
});

test('S1 curation texts name the thresholds of the facts table, as message arguments', async () => {
  const { conf, obs } = S1_CURATION.hookPromotion;
  const r = await evaluate(fixtureCopy('s1/good'), { noGit: true });
  const pass = r.systems.find((x) => x.id === 'S1')?.checks.find((c) => c.id === 'hook-promotion');
  assert.ok(pass);
  assert.equal(pass.status, 'pass');
  assert.equal(pass.messageId, 'No lesson with conf ≥ {0} and obs ≥ {1}: no hook-promotion candidate.');
  assert.deepEqual(pass.args, [String(conf), String(obs)]);
  assert.equal(pass.message, `No lesson with conf ≥ ${conf} and obs ≥ ${obs}: no hook-promotion candidate.`);

  const text = '# Context log\n- [2026-03-02] [DECISION] [ttl:permanent] [ref:4] Exports stream rows\n';
  const doc = {
    relPath: 'memory/context-log.md',
    text,
    sections: [
      {
        key: 'other',
        title: '',
        line: 1,
        endLine: 2,
        level: 0,
        items: [{ text: 'x', line: 2, flags: ['date:2026-03-02', 'type:DECISION', 'ttl:permanent', 'ref:4'] }],
      },
    ],
    findings: [],
    meta: {},
  } as unknown as Parameters<typeof checkContextLog>[0];
  const promote = checkContextLog(doc, Date.UTC(2026, 4, 5)).find((c) => /promotion candidate/.test(c.message));
  assert.ok(promote);
  assert.deepEqual(promote.args, [String(S1_CURATION.promoteRefs), '2']);
  assert.equal(
    promote.message,
    `1 promotion candidate with ref ≥ ${S1_CURATION.promoteRefs} (line 2): review it for MEMORY.md.`,
  );
});
