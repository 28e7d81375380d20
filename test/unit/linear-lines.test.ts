/**
 * A line is repository content: each text helper the readers and rules run on a line takes time
 * linear in its length, whatever long run of one character it holds (a pattern such as `[.!]+$`,
 * `(.*?)[_*]*\s*$` or `\s*\(…\)\s*$` retries from every start of such a run: quadratic). Each is
 * timed on a line with a run of n and of 4n (CPU time, `assertLinear`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clip,
  extractPaths,
  isConcreteAction,
  isExplicitNone,
  isPlaceholder,
  isTemplateValue,
  isVagueAction,
  opensWithNone,
  plainText,
  timestampValue,
} from '../../src/core/markdown/text';
import { itemFlags } from '../../src/core/systems/s1/reader';
import { contextEntryFlags, parseLessons } from '../../src/core/systems/s1/reader-memory';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import { isCompletedItem, isVerbObject, snapshotCommand } from '../../src/core/systems/s1/rules';
import { deferMarkers } from '../../src/core/systems/s3/debt';
import { parseBranchHead, parseField } from '../../src/core/systems/s3/reader-state';
import { timestampFix } from '../../src/core/systems/s0/fixes';
import { parseS0Ledger } from '../../src/core/systems/s0/reader';
import { workingSetRefs } from '../../src/core/systems/s0/rules';
import { planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { readProgressEntries } from '../../src/core/systems/s4/reader-state';
import { lineLabel, plainText as spokenText } from '../../src/extension/pure/tree-text';
import type { StateDoc } from '../../src/core/model/model';
import { assertLinear, assertLinearAsync, systemIn, workspace } from './helpers';

const HELPERS: Record<string, (line: string) => unknown> = {
  plainText,
  isPlaceholder,
  isTemplateValue,
  isVagueAction,
  isConcreteAction,
  isExplicitNone,
  opensWithNone,
  extractPaths,
  clip,
  timestampValue,
  snapshotCommand,
  isVerbObject,
  parseBranchHead,
  'deferMarkers (S3)': (line) => deferMarkers('x.ts', `defer: ${line}`),
  'timestampFix (S0)': (line) => timestampFix(`_Last updated: ${line}_`, 1, '2026-12-05T00:00:00Z'),
};

// The characters the patterns repeat, and a run of each in the three places a pattern looks.
const RUNS = [' ', '\t', '\u3000', '.', '!', '。', ':', '_', '*', '`', '"', '(', '<!--'];
const SHAPES = [
  (run: string) => `${run}x`,
  (run: string) => `a ${run}x (urgency: H)`,
  (run: string) => `Label: ${run}x.`,
  (run: string) => `a x (urgency: ${run})`,
  (run: string) => `a x (urgency: H)${run}`,
];

test('every text helper a line goes through is linear in a run of one character (n vs 4n)', () => {
  const n = 8_000;
  for (const [name, f] of Object.entries(HELPERS))
    for (const run of RUNS)
      for (const shape of SHAPES)
        assertLinear(
          `${name} on ${JSON.stringify(shape(run))}`,
          f,
          shape(run.repeat(Math.ceil(n / run.length))),
          shape(run.repeat(Math.ceil((4 * n) / run.length))),
        );
});

test("S3's next action is linear in a long run of a name and a dot, or of any unit its patterns repeat (n vs 4n)", () => {
  // A dotted chain (`a.a.a.…`) was scanned again from each of its names looking for a call's `()`.
  const n = 10_000;
  for (const unit of [
    'a.',
    'Ab.',
    'a$',
    '$a.',
    'a.$',
    'aB ',
    'AbC ',
    ' --a',
    '--a-',
    '$ ',
    'run ',
    'make ',
    'None (a) ',
    'ab.com ',
    'ab.com.',
    'a-b.',
    'Node.js ',
    'alice_smith ',
    'a_b_',
    'just test ',
    'IsNaN ',
    'ab.ab@',
    'ab.com:',
  ])
    for (const shape of [
      (r: string) => `fix the parser for ${r}`,
      (r: string) => `fix ${r}x()`,
      (r: string) => `${r}!`,
    ])
      assertLinear(
        `isConcreteAction on ${JSON.stringify(shape(unit))}`,
        isConcreteAction,
        shape(unit.repeat(Math.ceil(n / unit.length))),
        shape(unit.repeat(Math.ceil((4 * n) / unit.length))),
      );
});

test('an urgency or risk tag is taken off whatever its length and the blanks after it', () => {
  assert.equal(snapshotCommand(`npm test (urgency: H)${' '.repeat(300)}`), 'npm test');
  assert.equal(snapshotCommand(`npm test  (Risk : ${'high '.repeat(60)})`), 'npm test');
  assert.equal(snapshotCommand('npm test (see notes) (urgency: H)'), 'npm test (see notes)');
  assert.equal(snapshotCommand('npm test (see (urgency: H)'), 'npm test (see');
  assert.equal(snapshotCommand('npm test (urgency H)'), 'npm test (urgency H)');
  assert.equal(isVerbObject(`fix the bug (urgency: ${'H'.repeat(300)})`), true);
  assert.equal(isVerbObject(`(urgency: H)${' '.repeat(300)}`), false);
});

test("S1's urgency and risk tags are read in time linear in the blanks and `*` around their value (n vs 4n)", () => {
  // `\s*\**\s*` split a long run of blanks after `urgency:` between its two `\s*` in every way.
  const n = 8_000;
  const lines: Record<string, (k: number) => string> = {
    'blanks after urgency:': (k) => `wire the button urgency:${' '.repeat(k)}N`,
    'blanks around risk :': (k) => `CI times out · risk${' '.repeat(k)}:${' '.repeat(k)}**${' '.repeat(k)}N`,
    'blanks and stars after urgency:': (k) => `wire it urgency:${' '.repeat(k)}${'*'.repeat(k)}${' '.repeat(k)}*H`,
  };
  for (const [name, line] of Object.entries(lines)) assertLinear(name, itemFlags, line(n), line(4 * n));
  assert.deepEqual(itemFlags('wire it · urgency: **H** · risk :  M'), ['urgency:H', 'risk:M']);
  assert.deepEqual(itemFlags(`urgency:${' '.repeat(50)}\tL`), ['urgency:L']);
  assert.deepEqual(itemFlags('urgency: * * H'), []);
});

test("S0's _Last updated:_ line is read in time linear in the blanks after its colon, whatever line break follows (n vs 4n)", async () => {
  // `\s*(.*)$`: a U+2028 or a lone CR after the value stops `.*`, which scanned the rest again for every blank given back.
  const n = 8_000;
  const line = (k: number, end: string) => `_Last updated: ${' '.repeat(k)}2026-05-04${end}x${end}_`;
  for (const end of ['\u2028', '\u2029', '\r']) {
    assertLinear(
      `timestampFix ${JSON.stringify(end)}`,
      (l) => timestampFix(l, 1, 'NOW'),
      line(n, end),
      line(4 * n, end),
    );
    const ledger = (k: number) =>
      workspace({
        '.agents/session_ledger.md': `# Session Ledger\n\n${line(k, end)}\n\n## Now\nWire \`exportCsv()\` into src/a.ts.\n`,
      });
    const [small, big] = [ledger(n), ledger(4 * n)];
    const timestamp = async (dir: string) => (await systemIn(dir, 'S0')).checks.find((c) => c.id === 'timestamp');
    assert.equal((await timestamp(small))?.status, 'warn');
    await assertLinearAsync(
      `S0 check ${JSON.stringify(end)}`,
      timestamp,
      small,
      big,
      (d) => line(d === small ? n : 4 * n, end).length,
    );
  }
  assert.deepEqual(timestampFix('_Last updated:  \u2028 2026-05-04_', 1, 'NOW').lines, ['_Last updated:  \u2028 NOW_']);
});

test("S1's lesson meta (conf, seen, obs) is read in time linear in the blanks around its colon (n vs 4n)", () => {
  // `\s*[:：=]?\s*` split a long run of blanks after `conf` between its two `\s*` in every way.
  const n = 8_000;
  const flags = (text: string) =>
    parseLessons(parseMarkdown(text)).sections.flatMap((s) => s.items.flatMap((i) => i.flags));
  const lessons = (line: string) => `# Lessons\n\n## Synthesis\n\n> ${line}\n`;
  const lines: Record<string, (k: number) => string> = {
    'blanks after conf': (k) => `conf${' '.repeat(k)}x`,
    'blanks around seen:': (k) => `conf: 0.8 seen${' '.repeat(k)}:${' '.repeat(k)}x`,
    'blanks around obs=': (k) => `conf: 0.8 obs${' '.repeat(k)}=${' '.repeat(k)}x`,
  };
  for (const [name, line] of Object.entries(lines)) assertLinear(name, flags, lessons(line(n)), lessons(line(4 * n)));
  assert.deepEqual(flags(lessons(`conf ${' '.repeat(40)}: 0.8 · seen:2026-01-02 · obs = 3`)), [
    'conf:0.8',
    'seen:2026-01-02',
    'obs:3',
  ]);
});

test("S1's context-log tags are read in time linear in a run of tag heads no tag closes (n vs 4n)", () => {
  // The value `[^\]`\s]+` ran over every later head (`[ttl:K[ttl:K…`), and was scanned again from each.
  const n = 8_000;
  const lines: Record<string, (k: number) => string> = {
    'unclosed [ttl:': (k) => `[2026-05-04] ${'[ttl:K'.repeat(k / 6)}`,
    'unclosed `risk:': (k) => `[2026-05-04] ${'`risk:H'.repeat(k / 7)}`,
    'heads, then blanks': (k) => `[2026-05-04] ${'[ref:1'.repeat(k / 12)}${' '.repeat(k / 2)}x`,
  };
  for (const [name, line] of Object.entries(lines)) assertLinear(name, contextEntryFlags, line(n), line(4 * n));
  assert.deepEqual(contextEntryFlags('[2026-05-04] [DECISION] x [ttl:[30d]  `risk : h `  [ref: 2 ] [ttl: 9d]'), [
    'date:2026-05-04',
    'type:DECISION',
    'ttl:[30d',
    'risk:H',
    'ref:2',
  ]);
});

test("S4's PROGRESS.md entry links are read in time linear in a heading of `](` no target ends (n vs 4n)", () => {
  // `\]\(([^)\s]+)\)` scanned the rest of the heading again from each `](`.
  const n = 8_000;
  const entries = (heading: string) => readProgressEntries(parseMarkdown(`# Progress\n\n## ${heading}\n\n- did it\n`));
  for (const unit of ['](', '](a', '](a]('])
    assertLinear(
      JSON.stringify(unit),
      entries,
      `2026-05-04 ${unit.repeat(n / unit.length)} x`,
      `2026-05-04 ${unit.repeat((4 * n) / unit.length)} x`,
    );
  assert.equal(entries('2026-05-04 [a](b c) ](](x.md) [d](e.md)')[0].link, '](x.md');
});

test("the extension's tree labels are made in time linear in links and emphasis no bracket or marker closes (n vs 4n)", () => {
  // `!?\[([^\]]*)\]\([^)]*\)` scanned to the first `]` and `)` again from each `[`, and
  // `(\*\*|__)(?=\S)([\s\S]*?\S)\1` to the end again from each `**` that nothing closes.
  const n = 8_000;
  for (const unit of ['[', '[a](', '![a](b', '**a ', '__x '])
    for (const [name, f] of Object.entries({ lineLabel, spokenText }))
      assertLinear(
        `${name} ${JSON.stringify(unit)}`,
        f,
        `wire ${unit.repeat(n / unit.length)} x`,
        `wire ${unit.repeat((4 * n) / unit.length)} x`,
      );
  assert.equal(
    lineLabel('see [[the plan](a.md) and ![img](b.png) **now** __ x__ **a `**b**` c**'),
    'see [the plan and img now __ x__ **a ‘**b**’ c**',
  );
});

test("S1's handoff items are judged in time linear in the blanks after 완료 (n vs 4n)", async () => {
  // `완료…\s*(?:\*\*)?\s*[:：]` split a long run of blanks that no colon follows between its two `\s*`.
  const handoff = (item: string) =>
    workspace({
      'memory/session-handoff-LATEST.md': `# Session Handoff\n\n## What to do now\n1. Run \`npm test\` in src/\n\n## Outstanding issues\n- ${item}\n`,
    });
  const item = (k: number) => `완료${' '.repeat(k)}x`;
  const [small, big] = [handoff(item(8_000)), handoff(item(32_000))];
  const checks = async (dir: string) => (await systemIn(dir, 'S1')).checks;
  assert.ok((await checks(small)).some((c) => c.id === 'future-oriented'));
  await assertLinearAsync('S1 check', checks, small, big, (d) => item(d === small ? 8_000 : 32_000).length);
  const flagged = async (it: string) =>
    (await checks(handoff(it))).some((c) => c.id === 'future-oriented' && c.status === 'warn');
  assert.equal(await flagged(`완료 작업 ${' '.repeat(30)}** :  the export`), true);
  assert.equal(await flagged(`완료 ${' '.repeat(30)}* : the export`), false);
});

test("S1's next-command check reads item 1 in time linear in its lines of blanks (n vs 4n)", async () => {
  // /^\s*(?:>\s*)?(?:`{3,}|~{3,})/m let `\s*` cross line breaks: a run of blank lines was scanned again from each.
  const handoff = (k: number) =>
    workspace({
      'memory/session-handoff-LATEST.md': `# Session Handoff\n\n## What to do now\n1. Wire the export button\n${'   \n'.repeat(k / 4)}   in src/invoices.ts\n`,
    });
  const [small, big] = [handoff(8_000), handoff(32_000)];
  const command = async (dir: string) => (await systemIn(dir, 'S1')).checks.find((c) => c.id === 'next-command');
  assert.equal((await command(small))?.status, 'warn');
  await assertLinearAsync('S1 check', command, small, big, (d) => (d === small ? 8_000 : 32_000));
  const withFence = workspace({
    'memory/session-handoff-LATEST.md':
      '# Session Handoff\n\n## What to do now\n1. Wire the export button\n\n   >   ```sh\n   > npm test\n   > ```\n',
  });
  assert.match((await command(withFence))?.message ?? '', /code block/);
});

test("S3's handoff fields are read in time linear in the blanks around their label, `**` and colons (n vs 4n)", () => {
  // The pattern's adjacent `\s*` split each run of blanks in every way, and each way scanned the value
  // again when a U+2028 after its text kept it from reaching the line's end: cubic in the run.
  const field = (line: string) => parseField(line, 1);
  const lines: Record<string, (k: number) => string> = {
    'after **Status:**': (k) => `**Status:**${' '.repeat(k)}x\u2028y`,
    'around every part': (k) => {
      const b = ' '.repeat(k / 6);
      return `${b}**${b}Gates${b}:${b}**${b}:${b}green\u2028y`;
    },
  };
  for (const [name, line] of Object.entries(lines)) assertLinear(name, field, line(600), line(2_400));
  assert.deepEqual(field(`**Status:**${' '.repeat(30)}building <!-- c --> it`), {
    name: 'status',
    label: 'Status',
    value: 'building it',
    line: 1,
  });
  assert.equal(field(`Status ${' '.repeat(30)}x`), null);
  assert.equal(field(`**Status:**${' '.repeat(30)}x\u2028y`), null);
});

test("S1's completed items are told in time linear in `(done in` asides no parenthesis closes (n vs 4n)", () => {
  // `[(（]\s*done(?:\s+in\b[^)）]*)?[)）]` scanned to the end again from each such `(`.
  const done = (text: string) => isCompletedItem({ text, line: 1, flags: [], depth: 0 });
  for (const unit of ['(done in ', '（完了 at '])
    assertLinear(
      unit,
      done,
      `wire it ${unit.repeat(40_000 / unit.length)}`,
      `wire it ${unit.repeat(160_000 / unit.length)}`,
    );
  assert.equal(done('wire it (done in (abc) x'), true);
  assert.equal(done('wire it (done in abc'), false);
  assert.equal(done('wire it ) (done in abc'), false);
});

test("S0's labels (Goal:, Files: …) are read in time linear in the blanks after their colon (n vs 4n)", () => {
  // `[:：]\s*(?:\*\*)?\s*(.*)$` split those blanks every way, each way scanning the value again when a
  // U+2028 after its text kept `.*` from the line's end (cubic); `Files:\s*(.*)$` scanned it once per blank.
  const read = (text: string) => {
    const outline = parseMarkdown(text);
    const sections = parseS0Ledger(text, outline).sections;
    return workingSetRefs({ relPath: 'x.md', text, sections } as unknown as StateDoc);
  };
  const ledgers: Array<[string, number, (k: number) => string]> = [
    ['Goal: blanks', 300, (k) => `# Ledger\n\nGoal:${' '.repeat(k)}x\u2028y\n`],
    [
      '**Goal:** blanks ** blanks',
      300,
      (k) => `# Ledger\n\n- **Goal:**${' '.repeat(k / 2)}**${' '.repeat(k / 2)}x\u2028y\n`,
    ],
    ['Files: blanks', 8_000, (k) => `# Ledger\n\n## Working Set\n- Files:${' '.repeat(k)}src/a.ts\u2028y\n`],
  ];
  for (const [name, n, ledger] of ledgers) assertLinear(name, read, ledger(n), ledger(4 * n));
  const text = `# Ledger\n\n## Working Set\n- **Files** :${' '.repeat(40)}src/a.ts, docs/b.md\n`;
  assert.deepEqual(
    read(text).map((r) => r.target),
    ['src/a.ts', 'docs/b.md'],
  );
});

/** CPU milliseconds of an async call (this process only). */
async function cpuOf(f: () => Promise<unknown>): Promise<number> {
  const a = process.cpuUsage();
  await f();
  const b = process.cpuUsage(a);
  return (b.user + b.system) / 1000;
}

test("rotate-log's plan is linear in a long run of blanks or blank lines inside a Log entry (n vs 4n)", async () => {
  const head = '# STATE\n\n## Handoff: read this first\n\n- **Now ▶** wire the hook\n\n## Log\n\n';
  const entries = (date: string) => `### ${date} - step\n\n${'- done: a line\n'.repeat(60)}`;
  const shapes: Record<string, (k: number) => string> = {
    'blanks in a line': (k) => `${' '.repeat(k)}x\n`,
    'blank lines': (k) => `${'\n'.repeat(k)}- after the gap\n`,
  };
  for (const [name, gap] of Object.entries(shapes)) {
    const ws = (k: number) =>
      workspace({
        'docs/state/STATE.md': `${head}${entries('2026-08-03')}\n${entries('2026-07-02')}\n${entries('2026-06-01')}${gap(k)}`,
      });
    const [small, big] = [ws(8_000), ws(32_000)];
    assert.ok((await planRotateLog(small))?.changed, `${name}: the oldest entry moves`);
    let seen = '';
    for (let attempt = 0; ; attempt++) {
      const a = Math.max(10, await cpuOf(() => planRotateLog(small)));
      const b = await cpuOf(() => planRotateLog(big));
      seen += ` ${a.toFixed(1)}/${b.toFixed(1)} ms`;
      if (b / a < 10) break;
      assert.ok(attempt < 2, `${name}: 8000 vs 32000 took${seen} (ratio over 10 on every attempt)`);
    }
  }
});
