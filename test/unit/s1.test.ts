import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, SystemReport } from '../../src/core/model/model';
import { FACTS } from '../../src/core/systems/facts';
import {
  checksWith,
  cli,
  fixtureCopy,
  FIXTURES,
  gitInit,
  lineOf,
  oneCheck,
  workspace,
  write,
  YAML_ALIAS_BOMB,
} from './helpers';

const NOW = Date.UTC(2026, 4, 5);
const HANDOFF = 'memory/session-handoff-LATEST.md';
const SIDECAR = 'memory/.session-handoff.sha256';

async function s1(
  dir: string,
  opts: { noGit?: boolean; confirmed?: string[]; now?: number } = {},
): Promise<SystemReport> {
  const r = await evaluate(dir, { now: opts.now ?? NOW, noGit: opts.noGit ?? true, confirmed: opts.confirmed });
  const s = r.systems.find((x) => x.id === 'S1');
  assert.ok(s, `S1 not detected in ${dir}`);
  return s;
}

const only = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);
const all = (s: SystemReport, id: string): Check[] => checksWith(s.checks, id);
const fixture = (name: string): string => fixtureCopy(`s1/${name}`);

const hex = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

test('S1 good handoff: sections by meaning, snapshot, attestation MATCH, every check passes in a real git repo', async () => {
  const dir = fixture('good');
  gitInit(dir);
  const file = path.join(dir, HANDOFF);
  const s = await s1(dir, { noGit: false, confirmed: ['feedback-stored', 'last-request'] });
  assert.equal(s.home, HANDOFF);
  const h = s.docs.find((d) => d.relPath === HANDOFF);
  assert.ok(h);
  assert.deepEqual(
    h.sections.map((x) => [x.key, x.title, x.line]),
    [
      ['snapshot', 'state-snapshot v1', 5],
      ['title', 'Session Handoff (2026-05-04 — CSV export)', lineOf(file, '# Session Handoff')],
      ['next', 'What to do now (priority order)', lineOf(file, '## What to do now')],
      ['status', 'Current work status', lineOf(file, '## Current work status')],
      ['pending', 'Pending decisions', lineOf(file, '## Pending decisions')],
      ['issues', 'Outstanding issues', lineOf(file, '## Outstanding issues')],
      ['understanding', 'System understanding (context needed next session)', lineOf(file, '## System understanding')],
      ['interests', "User's current interests", lineOf(file, "## User's current interests")],
    ],
  );
  const flagsOf = (key: string) => h.sections.find((x) => x.key === key)?.items.map((i) => i.flags);
  assert.deepEqual(flagsOf('pending'), [['urgency:H'], ['urgency:L']]);
  assert.deepEqual(flagsOf('issues'), [['risk:M']]);
  assert.deepEqual(flagsOf('snapshot'), [[], ['urgency:H'], ['urgency:M'], ['op:add'], ['op:decide'], ['risk:M']]);
  assert.equal(
    s.next,
    '**Wire the Export button** — call `exportCsv(rows, filter)` from `src/invoices.ts` `onExport()`; run `npm test -- invoices` to confirm.',
  );
  assert.equal(s.resumePrompt, `Read ${HANDOFF} and start with item 1 of "What to do now (priority order)".`);
  const pass = [
    'exists',
    'single-handoff',
    'not-skeleton',
    'next-action',
    'pending-recorded',
    'fresh',
    'work-explained',
    'budget',
    'future-oriented',
    'snapshot',
    'compression',
    'stale-paths',
    'attestation',
    'lessons',
    'context-log',
    'no-secrets',
  ];
  for (const id of pass) assert.equal(only(s, id).status, 'pass', `${id}: ${only(s, id).message}`);
  assert.match(only(s, 'attestation').message, /^MATCH: /);
  assert.equal(only(s, 'attestation').severity, 'block');
  assert.match(
    only(s, 'compression').message,
    /^\[Memento\] prose: \d+ bytes → compact block: \d+ bytes \(\d+\.\dx reduction\)/,
  );
  assert.equal(only(s, 'next-action').line, lineOf(file, '1. **Wire the Export button**'));
  assert.equal(s.label, 'WORKING');
  // The companions are read with their own roles and flags.
  const roles = Object.fromEntries(s.docs.map((d) => [d.relPath, d.role]));
  assert.deepEqual(roles, {
    [HANDOFF]: 'handoff',
    'memory/MEMORY.md': 'memory',
    'memory/context-log.md': 'contextLog',
    'tasks/lessons.md': 'lessons',
  });
  const log = s.docs.find((d) => d.role === 'contextLog');
  assert.deepEqual(
    log?.sections.flatMap((x) => x.items.map((i) => i.flags)),
    [
      ['date:2026-04-20', 'type:DECISION', 'ttl:permanent', 'ref:1'],
      ['date:2026-04-28', 'type:COMPLETION', 'ttl:90d', 'ref:0'],
      ['date:2026-05-03', 'type:PLAN', 'ttl:30d', 'risk:M', 'ref:2'],
    ],
  );
  const lessons = s.docs.find((d) => d.role === 'lessons');
  assert.deepEqual(
    lessons?.sections.filter((x) => x.key === 'lesson').map((x) => x.items[0].flags),
    [
      ['conf:0.6', 'seen:2026-04-28', 'obs:3'],
      ['conf:0.5', 'seen:2026-05-02', 'obs:1'],
    ],
  );
});

test('S1 module facts: /session-checkpoint, thresholds 50/80, watch globs', () => {
  assert.equal(FACTS.S1.checkpointTrigger, '/session-checkpoint');
  assert.deepEqual(FACTS.S1.thresholds, { propose: 50, urgent: 80 });
  assert.ok(FACTS.S1.presence.includes(HANDOFF) && FACTS.S1.presence.includes(SIDECAR));
});

test('S1 through the CLI: status --json and check exit codes', () => {
  const dir = fixture('good');
  const r = cli(['status', '--root', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const s = JSON.parse(r.stdout).systems.find((x: { id: string }) => x.id === 'S1');
  assert.match(s.next, /^\*\*Wire the Export button\*\*/);
  const h = s.docs.find((d: { path: string }) => d.path === HANDOFF);
  assert.deepEqual(
    h.sections.map((x: { key: string }) => x.key),
    ['snapshot', 'title', 'next', 'status', 'pending', 'issues', 'understanding', 'interests'],
  );
  const att = s.checks.find((c: { id: string }) => c.id === 'attestation');
  assert.deepEqual([att.status, att.severity, att.path], ['pass', 'block', HANDOFF]);
  assert.equal(cli(['check', '--root', dir, '--confirm', 'feedback-stored,last-request']).code, 0);
  const t = cli(['check', '--root', fixture('tampered'), '--json']);
  assert.equal(t.code, 1);
  const tc = JSON.parse(t.stdout).systems[0].checks.find((c: { id: string }) => c.id === 'attestation');
  assert.match(tc.message, /^TAMPERED: /);
});

test('S1 untouched seed template: skeleton, template item 1, template snapshot values, no pending recorded', async () => {
  const dir = fixture('template');
  const file = path.join(dir, HANDOFF);
  const s = await s1(dir);
  assert.equal(only(s, 'not-skeleton').status, 'fail');
  assert.deepEqual(
    [only(s, 'next-action').status, only(s, 'next-action').line],
    ['fail', lineOf(file, '1. [Most urgent]')],
  );
  assert.match(only(s, 'next-action').message, /^Template text in item 1 of /);
  assert.equal(only(s, 'pending-recorded').status, 'warn');
  assert.deepEqual(
    all(s, 'snapshot').map((c) => [c.status, c.line]),
    [
      ['warn', lineOf(file, '  - op: add|del|mod|decide')],
      ['warn', lineOf(file, '  - item: "issue"')],
    ],
  );
  assert.match(only(s, 'attestation').message, /^NO_SIDECAR: /);
  assert.deepEqual([only(s, 'attestation').severity, only(s, 'attestation').status], ['info', 'warn']);
  assert.equal(s.label, 'BROKEN');
});

test('S1 single-handoff: a versioned sibling blocks; a plain session-handoff.md beside LATEST does too', async () => {
  let s = await s1(fixture('versioned'));
  assert.deepEqual(
    all(s, 'single-handoff').map((c) => [c.status, c.path]),
    [['fail', 'memory/session-handoff-v2.md']],
  );
  assert.ok(s.docs.some((d) => d.relPath === 'memory/session-handoff-v2.md' && d.role === 'handoff'));
  assert.equal(s.label, 'BROKEN');
  const dir = fixture('good');
  write(dir, 'memory/session-handoff.md', '# Session Handoff\n\n## Next Actions\n1. Deploy\n');
  s = await s1(dir);
  assert.deepEqual(
    all(s, 'single-handoff').map((c) => [c.status, c.path]),
    [['fail', 'memory/session-handoff.md']],
  );
  // Only a stray: detected, the LATEST file is missing.
  s = await s1(workspace({ 'memory/session-handoff-v3.md': '# Handoff\n' }));
  assert.deepEqual([only(s, 'exists').status, only(s, 'exists').path], ['fail', HANDOFF]);
});

test("S1 future-oriented: the seed's BAD example warns, its GOOD example passes", async () => {
  let s = await s1(fixture('seed-bad-example'));
  assert.deepEqual(
    all(s, 'future-oriented').map((c) => [c.status, c.line]),
    [['warn', 1]],
  );
  assert.match(only(s, 'future-oriented').message, /Today's accomplishments/);
  assert.equal(only(s, 'next-action').status, 'fail');
  s = await s1(fixture('seed-good-example'));
  assert.equal(only(s, 'future-oriented').status, 'pass');
  assert.equal(s.next, '**MEMORY.md diet** — trim Key Files section. `wc -c` target: under 24KB');
  assert.equal(only(s, 'pending-recorded').status, 'pass');
  assert.deepEqual([only(s, 'snapshot').status, only(s, 'compression').status], ['warn', 'skipped']);
});

test('S1 snapshot rules: caps, a list instead of a mapping, YAML that does not parse, marker inside the fence', async () => {
  let dir = fixture('snapshot-caps');
  let file = path.join(dir, HANDOFF);
  let s = await s1(dir);
  assert.deepEqual(
    all(s, 'snapshot').map((c) => [c.line, c.message.replace(/^Snapshot: /, '')]),
    [
      [lineOf(file, 'ctx: "one two'), 'ctx has 21 words (cap 20).'],
      [lineOf(file, '- "f"'), 'next has 6 items (cap 5).'],
      [lineOf(file, '- op: change'), 'diff item 1 has op "change" (allowed: add|del|mod|decide).'],
      [lineOf(file, '- op: change'), 'diff item 1: why has 11 words (cap 10).'],
      [lineOf(file, '- item: "i2"'), 'blocked item 2 has risk "X" (allowed: H|M|L).'],
      [lineOf(file, '- item: "i4"'), 'blocked has 4 items (cap 3).'],
    ],
  );
  s = await s1(fixture('snapshot-list'));
  assert.deepEqual([only(s, 'snapshot').status, only(s, 'snapshot').line], ['warn', 5]);
  assert.match(only(s, 'snapshot').message, /not a YAML mapping/);
  dir = fixture('snapshot-bad-yaml');
  file = path.join(dir, HANDOFF);
  s = await s1(dir);
  assert.deepEqual([only(s, 'snapshot').status, only(s, 'snapshot').line], ['warn', lineOf(file, 'blocked:')]);
  assert.match(only(s, 'snapshot').message, /does not parse/);
  dir = fixture('good');
  write(
    dir,
    HANDOFF,
    `<!-- state-snapshot v1 -->\n\`\`\`yaml\n${YAML_ALIAS_BOMB}\`\`\`\n\n## What to do now\n1. Wire the export button into onExport.\n`,
  );
  s = await s1(dir);
  assert.match(
    only(s, 'snapshot').message,
    /YAML aliases \(`\*name`\) repeat more than is read in one (file|block) \(over 99 uses or 1 MB of its text/,
  );
  assert.equal(s.next, 'Wire the export button into onExport.');
  s = await s1(fixture('snapshot-marker-inside'));
  assert.equal(only(s, 'snapshot').status, 'pass');
  assert.equal(s.docs[0].sections[0].key, 'snapshot');
});

test("S1 compression under 2x warns with the seed's Memento line", async () => {
  const s = await s1(fixture('compression-low'));
  const c = only(s, 'compression');
  assert.equal(c.status, 'warn');
  assert.match(c.message, /^\[Memento\] prose: \d+ bytes → compact block: \d+ bytes \(0\.\dx reduction\): under 2x\.$/);
});

test('S1 attestation: TAMPERED blocks, a sidecar with a trailing newline or sha256sum form still matches, a garbage sidecar is TAMPERED', async () => {
  let s = await s1(fixture('tampered'));
  assert.deepEqual([only(s, 'attestation').status, only(s, 'attestation').severity], ['fail', 'block']);
  assert.match(only(s, 'attestation').message, /^TAMPERED: /);
  assert.equal(s.label, 'BROKEN');
  const dir = fixture('good');
  const bytes = readFileSync(path.join(dir, HANDOFF));
  write(dir, SIDECAR, `${hex(bytes)}\n`);
  s = await s1(dir);
  assert.equal(only(s, 'attestation').status, 'pass');
  assert.match(only(s, 'attestation').message, /trailing newline|ends with a newline/);
  write(dir, SIDECAR, `${hex(bytes)}  ${HANDOFF}\n`);
  assert.equal(only(await s1(dir), 'attestation').status, 'pass');
  write(dir, SIDECAR, 'not a hash');
  assert.equal(only(await s1(dir), 'attestation').status, 'fail');
});

test('S1 each rule broken: vague item 1, no pending decisions, stale Key Files, over budget', async () => {
  let dir = fixture('vague-next');
  let s = await s1(dir);
  assert.deepEqual(
    [only(s, 'next-action').status, only(s, 'next-action').line],
    ['fail', lineOf(path.join(dir, HANDOFF), '1. continue work')],
  );
  // No Pending decisions section: one finding, the template's (it blocks), with pending-recorded's fix.
  s = await s1(fixture('no-pending'));
  assert.deepEqual(
    all(s, 'template').map((c) => [c.status, c.message, c.hint]),
    [
      [
        'fail',
        `No ## Pending decisions in ${HANDOFF}: S1's format requires it.`,
        'Add a Pending decisions section, or write "none" in it when nothing is pending.',
      ],
    ],
  );
  assert.equal(only(s, 'pending-recorded').status, 'skipped');
  dir = fixture('stale-key-files');
  s = await s1(dir);
  assert.deepEqual(
    all(s, 'stale-paths').map((c) => [c.status, c.path, c.line, c.message]),
    [
      [
        'warn',
        'memory/MEMORY.md',
        lineOf(path.join(dir, 'memory/MEMORY.md'), 'csv_old.ts'),
        'STALE PATH: src/legacy/csv_old.ts does not exist.',
      ],
    ],
  );
  dir = fixture('good');
  const text = readFileSync(path.join(dir, HANDOFF), 'utf8');
  write(dir, HANDOFF, text + Array.from({ length: 200 }, (_, i) => `- filler ${i}`).join('\n'));
  s = await s1(dir);
  assert.equal(only(s, 'budget').status, 'warn');
  assert.match(only(s, 'budget').message, /^Over budget: memory\/session-handoff-LATEST\.md has \d+ lines > 200\./);
});

test('S1 "N/A" under Pending decisions or Outstanding issues says nothing is pending or open: no template text, and said as none', async () => {
  const good = readFileSync(path.join(FIXTURES, 's1/good', HANDOFF), 'utf8');
  const cases: Array<[string, 'pass' | 'fail', string]> = [
    ['N/A', 'pass', 'Pending decisions: none, stated explicitly.'],
    ['N/A (all settled with the user)', 'pass', 'Pending decisions: none, stated explicitly.'],
    ['No pending decisions.', 'pass', 'Pending decisions: none, stated explicitly.'],
    ['なし', 'pass', 'Pending decisions: none, stated explicitly.'],
    ['Nothing blocks the release, but pick X or Y · urgency: M', 'pass', 'Pending decisions: 1 item.'],
    // Template text is still template text: said once, by the template (it blocks), with pending-recorded's fix.
    ['TBD (owner: alice)', 'fail', 'Covered by the blocking template finding on line 33.'],
    [
      '[Topic]: [Options] — opinion: [if any] · urgency: H/M/L',
      'fail',
      'Covered by the blocking template finding on line 33.',
    ],
  ];
  for (const [item, template, pending] of cases) {
    const dir = fixture('good');
    write(dir, HANDOFF, good.replace(/(## Pending decisions\n)(?:- .*\n)+/, `$1- ${item}\n`));
    const s = await s1(dir);
    assert.deepEqual([only(s, 'template').status, only(s, 'pending-recorded').message], [template, pending], item);
    if (template === 'fail')
      assert.deepEqual(
        [only(s, 'template').message, only(s, 'template').hint],
        [
          `## Pending decisions is empty or still template text in ${HANDOFF}.`,
          'List what is pending, or write "none" explicitly.',
        ],
        item,
      );
  }
  const dir = fixture('good');
  write(dir, HANDOFF, good.replace(/(## Outstanding issues\n)(?:- .*\n)+/, '$1- N/A (none open)\n'));
  assert.equal(only(await s1(dir), 'template').status, 'pass');
});

test('S1 lessons: meta lines parsed, archive candidates are conf < 0.4 and seen > 90 days before now', async () => {
  const dir = fixture('lessons-archive');
  let s = await s1(dir);
  const c = only(s, 'lessons');
  assert.deepEqual(
    [c.severity, c.status, c.path, c.line],
    ['info', 'warn', 'tasks/lessons.md', lineOf(path.join(dir, 'tasks/lessons.md'), 'Prefer tabs')],
  );
  assert.match(c.message, /^Archive candidate "[^"]*Prefer tabs[^"]*": conf < 0.4 and seen > 90 days ago/);
  const flags = s.docs
    .find((d) => d.role === 'lessons')
    ?.sections.filter((x) => x.key === 'lesson')
    .map((x) => x.items[0].flags);
  assert.deepEqual(flags, [
    ['conf:0.3', 'seen:2025-11-02', 'obs:1', 'archive'],
    ['conf:0.6', 'seen:2026-04-28', 'obs:3'],
  ]);
  // Ninety days after the last sighting it is not yet a candidate.
  s = await s1(dir, { now: Date.UTC(2026, 0, 31) });
  assert.equal(only(s, 'lessons').status, 'pass');
});

test('S1 context log: past-TTL entries relative to now, promotion candidates ref ≥ 3, missing ttl', async () => {
  const dir = fixture('context-log');
  const file = path.join(dir, 'memory/context-log.md');
  const s = await s1(dir);
  const cs = all(s, 'context-log');
  assert.deepEqual(
    cs.map((c) => [c.status, c.line]),
    [
      ['warn', lineOf(file, 'Export quoting verified')],
      ['warn', lineOf(file, 'Exports stream rows')],
      ['warn', lineOf(file, 'Talked about delimiters')],
    ],
  );
  assert.match(cs[0].message, /1 of 4 entries is past its TTL/);
  assert.match(cs[1].message, /2 promotion candidate/);
  const items = s.docs.find((d) => d.role === 'contextLog')?.sections.flatMap((x) => x.items) ?? [];
  assert.deepEqual(
    items.map((i) => i.flags),
    [
      ['date:2026-03-01', 'type:VERIFICATION', 'ttl:30d', 'ref:0', 'expired'],
      ['date:2026-03-02', 'type:DECISION', 'ttl:permanent', 'ref:4', 'promote'],
      ['date:2026-05-01', 'type:PLAN', 'ttl:90d', 'risk:H', 'ref:3', 'promote'],
      ['date:2026-05-02', 'type:NOTE'],
    ],
  );
  // Before the 30 days ran out the entry was not expired.
  const early = await s1(dir, { now: Date.UTC(2026, 2, 20) });
  assert.doesNotMatch(
    all(early, 'context-log')
      .map((c) => c.message)
      .join('\n'),
    /past their TTL/,
  );
});

test('S1 at the older place .claude/memory/: home, sidecar and resume prompt follow it', async () => {
  const s = await s1(fixture('claude-memory'));
  assert.equal(s.home, '.claude/memory/session-handoff-LATEST.md');
  assert.equal(only(s, 'attestation').status, 'pass');
  assert.match(s.resumePrompt, /^Read \.claude\/memory\/session-handoff-LATEST\.md and start with item 1/);
});

test('S1 bad input: binary handoff, CRLF + BOM handoff, a directory at the sidecar path, a huge handoff', async () => {
  let s = await s1(workspace({ [HANDOFF]: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a]) }));
  assert.equal(only(s, 'exists').status, 'fail');
  assert.equal(only(s, 'readable').severity, 'block');
  assert.equal(s.label, 'BROKEN');

  const good = readFileSync(path.join(FIXTURES, 's1', 'good', HANDOFF), 'utf8');
  const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good.replace(/\n/g, '\r\n'))]);
  let dir = workspace({ [HANDOFF]: crlf, [SIDECAR]: hex(crlf) });
  s = await s1(dir);
  const lf = await s1(fixture('good'));
  const shape = (r: SystemReport) =>
    r.docs
      .find((d) => d.relPath === HANDOFF)
      ?.sections.map((x) => [x.key, x.line, x.items.map((i) => [i.text, i.line, i.flags])]);
  assert.deepEqual(shape(s), shape(lf));
  assert.equal(s.next, lf.next);
  assert.equal(only(s, 'snapshot').status, 'pass');
  assert.equal(only(s, 'attestation').status, 'pass', only(s, 'attestation').message);

  dir = fixture('good');
  rmSync(path.join(dir, SIDECAR));
  write(dir, `${SIDECAR}/x`, 'dir');
  assert.equal(only(await s1(dir), 'attestation').status, 'fail');

  // Larger than the read limit: parsed from its start, attested over the whole file.
  const big = `${good}\n${'- filler line for size\n'.repeat(200_000)}`;
  dir = workspace({ [HANDOFF]: big, [SIDECAR]: hex(big) });
  const r = await evaluate(dir, { now: NOW, noGit: true, maxBytes: 64 * 1024 });
  const sb = r.systems.find((x) => x.id === 'S1');
  assert.ok(sb);
  assert.equal(only(sb, 'attestation').status, 'pass');
  assert.equal(only(sb, 'size').severity, 'warn');
});

test('S1 is not detected without a handoff (MEMORY.md or tasks/lessons.md alone belong to others)', async () => {
  const r = await evaluate(
    workspace({
      'MEMORY.md': '# Memory\n',
      'tasks/lessons.md': '# Lessons\n',
      'memory/context-log.md': '[2026-01-01] [NOTE] [ttl:30d] x\n',
    }),
    { noGit: true },
  );
  assert.equal(
    r.systems.find((x) => x.id === 'S1'),
    undefined,
  );
});
