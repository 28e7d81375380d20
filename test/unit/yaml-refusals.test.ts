/**
 * YAML the readers refuse in the tool's words, each in time linear in the text: lists and mappings
 * nested past MAX_YAML_DEPTH (the library's recursion exhausted the call stack), a list or mapping
 * as a key holding another (the library wrote the key out again at every level: a key holding keys
 * 60 deep took 7 s, then failed), keys that are not plain values past their limits (the library copied every anchor
 * for each: 8,000 anchored list keys took 3.6 s), an ordered map's key twice and a merge key whose
 * value is not a mapping (the library's English); and a large `!!omap`, read (the library compared
 * each of its keys with every key before it). Work is CPU time at n and 4n (`assertLinear`), or, where the
 * library's quadratic steps were cheap builtin calls, those calls counted (`builtinWork`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import { parseAgentsYml } from '../../src/core/systems/s0/reader';
import { configFindings } from '../../src/core/systems/s0/rules';
import { withLedgerOn } from '../../src/core/systems/s0/enable';
import { parseManifest } from '../../src/core/systems/s2/reader-ledger';
import { s2Findings } from '../../src/core/systems/s2/rules';
import { parseCheckpoint } from '../../src/core/systems/s4/reader-state';
import { s4Findings } from '../../src/core/systems/s4/rules';
import { readSnapshot } from '../../src/core/systems/s1/reader-snapshot';
import { snapshotProblems } from '../../src/core/systems/s1/rules';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import {
  MAX_ANCHORS_WITH_OBJECT_KEYS,
  MAX_OBJECT_KEYS,
  MAX_YAML_DEPTH,
  parseYamlDocument,
} from '../../src/core/markdown/yaml';
import { evaluate } from '../../src/core/report/evaluate';
import type { StateDoc } from '../../src/core/model/model';
import type { Msg } from '../../src/core/model/messages';
import { assertLinear, jaT, workOf, workspace, type Counted } from './helpers';

const ON = 'session:\n  ledger: true\n';
const snapshot = (yaml: string) =>
  `# Handoff\n\n<!-- state-snapshot v1 -->\n\`\`\`yaml\n${yaml}\`\`\`\n\n## What to do now\n1. Ship it.\n`;
const frontMatter = (yaml: string) => `---\n${yaml}---\n# Checkpoint\n`;

/**
 * What each reader makes of `yaml`: the first finding of `.agents.yml` (S0), of the manifest (S2) and of S4's
 * checkpoint (its front matter), and the S1 block's snapshot.
 */
function readAll(yaml: string) {
  const fm = frontMatter(yaml);
  return {
    s0: configFindings({ meta: parseAgentsYml(yaml).meta } as unknown as StateDoc)[0],
    s2: s2Findings({ meta: parseManifest(yaml).meta } as unknown as StateDoc)[0],
    s1: readSnapshot(parseMarkdown(snapshot(yaml)))?.info,
    s4: s4Findings({
      meta: parseCheckpoint(fm, parseMarkdown(fm)).meta,
      relPath: 'docs/checkpoints/c.md',
    } as unknown as StateDoc)[0],
  };
}

/** What each reader says of `yaml` (`.agents.yml`, enabling the ledger, the manifest, the S1 block, S4's front matter). */
function said(yaml: string): Record<string, Msg | string | undefined> {
  const { s0, s2, s1, s4 } = readAll(yaml);
  const enable = withLedgerOn(yaml);
  const msg = (x: { messageId: string; args: string[]; message: string } | undefined) =>
    x && { id: x.messageId, args: x.args, text: x.message };
  return {
    s0: msg(s0),
    enable: enable.ok ? 'enabled' : enable.why,
    s2: msg(s2),
    s1: s1 ? snapshotProblems(s1)[0]?.message : undefined,
    s4: msg(s4),
  };
}

/**
 * Every reader refuses `yaml` with `id` (naming what it read), said in Japanese too, never in the library's or
 * the engine's words; but those in `skip` (the manifest's reader never makes data, so what the library refuses
 * only while making data it reads; front matter holds no `%YAML` directive and its `---`).
 */
function assertRefused(yaml: string, id: string, skip: readonly string[] = []): void {
  const out = said(yaml);
  for (const reader of skip) delete out[reader];
  const names = { s0: '.agents.yml', enable: '.agents.yml', s2: 'context-manifest.yaml', s1: 'state-snapshot v1' };
  for (const [reader, m] of Object.entries(out)) {
    assert.ok(m && typeof m === 'object', `${reader}: ${JSON.stringify(m)}`);
    assert.equal(m.id, id, `${reader}: ${m.text}`);
    const where = names[reader as keyof typeof names] ?? 'docs/checkpoints/c.md';
    assert.equal(m.args[0], where, reader);
    assert.doesNotMatch(m.text, /Maximum call stack|Ordered maps|Merge sources|must be|Excessive/, reader);
    const ja = jaT(m.id, ...m.args);
    assert.notEqual(ja, m.text, `${reader}: no Japanese for ${m.id}`);
  }
}

/**
 * The library's work where it was quadratic (`workOf`): the elements `Array.prototype.includes`
 * scans (its ordered-map check scanned every key before each) and the calls of `Set.prototype.add` (for each
 * key that is not a plain value it copied every anchor name into a set).
 */
const BUILTIN_WORK: readonly Counted[] = [
  [Array.prototype, 'includes', (self: unknown[]) => self.length],
  [Set.prototype, 'add', () => 1],
];
const builtinWork = (f: () => unknown): number => workOf(BUILTIN_WORK, f);

/** `builtinWork` per entry at n and 4n entries: about the same (linear), where quadratic work is 4 times as much. */
function assertLinearWork(name: string, read: (text: string) => unknown, make: (n: number) => string, n: number): void {
  const a = builtinWork(() => read(make(n))) / n;
  const b = builtinWork(() => read(make(4 * n))) / (4 * n);
  assert.ok(b <= a * 1.25 + 1 && b < 50, `${name}: ${a.toFixed(1)} and ${b.toFixed(1)} units of work per entry`);
}

test('lists and mappings nested past the limit (flow, block, dashes): refused in the tool\'s words, never "Maximum call stack size exceeded"', () => {
  const deep = (n: number) => `${ON}x: ${'['.repeat(n)}${']'.repeat(n)}\n`;
  const id = 'The YAML of {0} is not read: its lists and mappings are nested more than {1} deep.';
  // The top mapping and x's lists: MAX_YAML_DEPTH in all is read, one more is not.
  assert.deepEqual(parseAgentsYml(deep(MAX_YAML_DEPTH - 1)).meta?.issues, []);
  for (const n of [MAX_YAML_DEPTH, 900]) assertRefused(deep(n), id);
  assert.deepEqual(parseAgentsYml(deep(900)).meta?.issues, [{ kind: 'refused', refusal: 'too-deep', line: 3 }]);
  // Mappings in flow and in blocks, and lists of dashes, too.
  assertRefused(`${ON}x: ${'{a: '.repeat(300)}1${'}'.repeat(300)}\n`, id);
  assertRefused(`${ON}x:\n${Array.from({ length: 150 }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} 1\n`, id);
  assertRefused(`${ON}x:\n${'- '.repeat(300)}1\n`, id);
  // The work is linear: the library's recursion stops at its first overflow, refused before its data is made.
  assertLinear('deep lists', (t) => parseAgentsYml(t), deep(1_000), deep(4_000));
});

test('explicit keys nested a few thousand deep (`? ? ? …`), whose parsing ran out of call stack: refused as nested too deep by every reader, never thrown', () => {
  // The library's parser pops these levels by recursion when a line at the left margin follows them, and threw the
  // engine's RangeError: the S1 block and enable-ledger threw it, S0 read the ledger as not enabled.
  const keys = (n: number) => `${'? '.repeat(n)}a\n${ON}`;
  const id = 'The YAML of {0} is not read: its lists and mappings are nested more than {1} deep.';
  for (const n of [5_000, 20_000]) assertRefused(keys(n), id);
  assert.deepEqual(parseAgentsYml(keys(20_000)).meta?.issues, [{ kind: 'refused', refusal: 'too-deep', line: 1 }]);
  assertLinear('nested explicit keys', (t) => parseAgentsYml(t), keys(5_000), keys(20_000));
});

test("a list or mapping as a key holding another (`{[[…]]: x}`, `? {a: {b: …}}`): refused in the tool's words, linear (the library's key text was cubic)", () => {
  const id = 'The YAML of {0} is not read: a list or mapping used as a key holds another list or mapping.';
  const flowKey = (n: number) => `${ON}x: {${'['.repeat(n)}${']'.repeat(n)}: x}\n`;
  const explicitKey = (n: number) => `${ON}? ${'{a: '.repeat(n)}1${'}'.repeat(n)}\n: x\n`;
  const keysInKeys = (n: number) => `${ON}? ${'{'.repeat(n)}x${': 1}'.repeat(n)}\n: x\n`;
  for (const make of [flowKey, explicitKey, keysInKeys]) {
    assertRefused(make(2), id);
    assertRefused(make(60), id);
  }
  assert.deepEqual(parseAgentsYml(explicitKey(60)).meta?.issues, [
    { kind: 'refused', refusal: 'key-holds-collection', line: 3 },
  ]);
  // The library wrote a key out again at each level of it: a key holding keys 60 deep (250 bytes) took 7 s to read
  // and then failed (a string longer than the engine allows); a key of mappings or lists 400 deep, 0.2 to 0.3 s.
  assertLinear('keys in keys', (t) => parseAgentsYml(t), keysInKeys(60), keysInKeys(240));
  assertLinear('a key of nested mappings', (t) => parseAgentsYml(t), explicitKey(100), explicitKey(400));
  assertLinear('a key of nested lists', (t) => parseAgentsYml(t), flowKey(100), flowKey(400));
  // A list or mapping of plain values as a key is read, as the library reads it.
  const flat = `${ON}? [a, b]\n: 1\n{c: d}: 2\n`;
  assert.deepEqual(parseAgentsYml(flat).meta?.issues, []);
  assert.deepEqual(said(flat).enable, 'enabled');
});

test('keys that are not plain values beside many anchors (`&a1 [k1]: v` …, dates under YAML 1.1): refused past the limits, linear', () => {
  const id =
    'The YAML of {0} is not read: over {1} of its keys are lists, mappings, aliases or dates, or such keys stand beside over {2} anchors (`&name`).';
  // n anchors, then n keys that are lists: the library copied every anchor name for each such key (n² in all).
  const anchoredListKeys = (n: number) =>
    `${ON}a: [${Array.from({ length: n }, (_, i) => `&x${i} 1`).join(', ')}]\n${Array.from({ length: n }, (_, i) => `[k${i}]: v`).join('\n')}\n`;
  // Counted, so the smallest n past MAX_OBJECT_KEYS separates them: 100 copies per key at 100 keys, 400 at 400.
  assertLinearWork('.agents.yml', (t) => parseAgentsYml(t), anchoredListKeys, MAX_OBJECT_KEYS + 1);
  assertLinearWork(
    'S1 snapshot block',
    (t) => readSnapshot(parseMarkdown(snapshot(t))),
    anchoredListKeys,
    MAX_OBJECT_KEYS + 1,
  );
  assertRefused(anchoredListKeys(MAX_OBJECT_KEYS + 1), id);
  // An anchor on each key that is a list: the 100th such key is refused, at its line.
  const anchoredKeys = (n: number) => `${ON}${Array.from({ length: n }, (_, i) => `&a${i} [k${i}]: v`).join('\n')}\n`;
  assertRefused(anchoredKeys(MAX_OBJECT_KEYS + 1), id);
  assert.deepEqual(parseAgentsYml(anchoredKeys(MAX_OBJECT_KEYS + 1)).meta?.issues, [
    { kind: 'refused', refusal: 'object-keys', line: MAX_OBJECT_KEYS + 3 },
  ]);
  assert.deepEqual(parseAgentsYml(anchoredKeys(MAX_OBJECT_KEYS)).meta?.issues, []);
  // Dates as keys (YAML 1.1) are such keys too; one beside more anchors than the limit is refused, beside as many read.
  const dates = (anchors: number) =>
    `%YAML 1.1\n---\n${ON}2026-05-04: &d0 x\na: [${Array(anchors - 1)
      .fill('&y 1')
      .join(', ')}]\n`;
  assertRefused(dates(MAX_ANCHORS_WITH_OBJECT_KEYS + 1), id, ['s4']);
  assert.deepEqual(parseAgentsYml(dates(MAX_ANCHORS_WITH_OBJECT_KEYS)).meta?.issues, []);
  // Anchors on plain keys, any number of them, are read (the library costs nothing more for them).
  const plainAnchored = `${ON}${Array.from({ length: 1_000 }, (_, i) => `&a${i} k${i}: v`).join('\n')}\n`;
  assert.deepEqual(parseAgentsYml(plainAnchored).meta?.issues, []);
});

test("a large `!!omap` is read in linear time, with the same data and errors as the library; a key twice refused in the tool's words", () => {
  const omap = (n: number) => `${ON}o: !!omap\n${Array.from({ length: n }, (_, i) => `  - k${i}: ${i}`).join('\n')}\n`;
  for (const [name, read] of [
    ['.agents.yml', (t: string) => parseAgentsYml(t)],
    ['S1 snapshot block', (t: string) => readSnapshot(parseMarkdown(snapshot(t)))],
  ] as const) {
    // The library scanned n²/2 keys (2 million at 2,000 entries; 50 per entry at 100, 200 at 400): here a few per
    // entry, the same at n and 4n.
    assertLinearWork(name, read, omap, 100);
  }
  // Read as the library reads it: the same data, the same errors (none, or the repeated key at the tag).
  assert.deepEqual(parseAgentsYml(omap(3)).meta?.session, { ledger: true });
  for (const text of [
    omap(3),
    'o: !!omap [a: 1, b: 2]\n',
    '%YAML 1.1\n---\no: !!omap\n  - a: 1\n  - b: [2]\n',
    'o: !!omap\n  - a: 1\n  - a: 2\n  - b: 3\n  - b: 4\n',
    'o: !!omap\n  - .nan: 1\n  - .nan: 2\n',
    'o: !!omap [a, b: 1]\n',
  ]) {
    const theirs = parseDocument(text, { prettyErrors: false, logLevel: 'silent' });
    const ours = parseYamlDocument(text, { logLevel: 'silent' });
    const errors = (d: { errors: typeof theirs.errors }) => d.errors.map((e) => [e.code, e.message, e.pos]);
    assert.deepEqual(errors(ours), errors(theirs), text);
    if (!theirs.errors.length) assert.deepEqual(ours.toJS(), theirs.toJS(), text);
  }
  const id = 'The YAML of {0} is not read: an ordered map (`!!omap`) has the same key twice.';
  // Repeated as written (the library's parse error), and repeated through an alias (its error while making the data).
  assertRefused(`${ON}o: !!omap\n  - a: 1\n  - b: 2\n  - a: 3\n`, id);
  assertRefused(`${ON}o: !!omap\n  - &k a: 1\n  - *k : 2\n`, id, ['s2']);
  assert.equal(parseManifest(`${ON}o: !!omap\n  - &k a: 1\n  - *k : 2\n`).info.ok, true);
  assert.deepEqual(parseAgentsYml(`${ON}o: !!omap\n  - a: 1\n  - a: 3\n`).meta?.issues, [
    { kind: 'refused', refusal: 'omap-key-twice', line: 3 },
  ]);
});

test('a merge key (`<<`, YAML 1.1) whose value is not a mapping: refused in the tool\'s words, not the library\'s "Merge sources must be maps"', () => {
  const id = 'The YAML of {0} is not read: a merge key (`<<`) takes something other than a mapping.';
  for (const text of [
    `%YAML 1.1\n---\n${ON}x: {<<: 1}\n`,
    `%YAML 1.1\n---\n${ON}x:\n  <<: [a, b]\n`,
    `%YAML 1.1\n---\n${ON}l: &l [1]\nx:\n  <<: *l\n`,
  ])
    assertRefused(text, id, ['s2', 's4']);
  // A merge of mappings is read; YAML 1.2 has no merge keys (`<<` is a key like another).
  assert.deepEqual(parseAgentsYml(`%YAML 1.1\n---\nd: &d {ledger: true}\nsession:\n  <<: *d\n`).meta?.session, {
    ledger: true,
  });
  assert.deepEqual(parseAgentsYml(`${ON}x:\n  <<: [a, b]\n`).meta?.issues, []);
});

test("check on an .agents.yml nested 900 deep: a blocking finding in the tool's words, with the line and what to do", async () => {
  const dir = workspace({
    '.agents.yml': `${ON}x: ${'['.repeat(900)}${']'.repeat(900)}\n`,
    '.agents/session_ledger.md': '# Session Ledger\n',
  });
  const s0 = (await evaluate(dir, { noGit: true })).systems.find((s) => s.id === 'S0');
  const config = s0?.checks.find((c) => c.id === 'config');
  assert.deepEqual(
    [config?.severity, config?.line, config?.message, config?.hint],
    [
      'block',
      3,
      'The YAML of .agents.yml is not read: its lists and mappings are nested more than 100 deep.',
      'Write the settings as plain keys, values and lists, each key once; until then the checkpoint cannot read session.ledger.',
    ],
  );
});

/**
 * The line each reader gives a refusal of `yaml`, as a line of the file it read: `.agents.yml` (S0), the
 * manifest (S2), the S1 block's document (its YAML starts on line 5 of `snapshot`), S4's checkpoint (its front
 * matter starts on line 2 of `frontMatter`); undefined where that reader does not refuse it.
 */
function refusalLines(yaml: string): Record<string, number | undefined> {
  const { s0, s2, s1, s4 } = readAll(yaml);
  const refusal = (f: { messageId: string; line?: number } | undefined) =>
    f?.messageId.startsWith('The YAML of {0} is not read') ? f.line : undefined;
  const p = s1 ? snapshotProblems(s1)[0] : undefined;
  return {
    s0: refusal(s0),
    s2: refusal(s2),
    s1: p?.message.id.startsWith('The YAML of {0} is not read') ? p.line : undefined,
    s4: refusal(s4),
  };
}

test('a merge key (`<<`) whose value is not a mapping is refused at the line of that merge key, not at line 1', () => {
  // Lines 1-2 are the directive and `---`; the merge key stands on line 6 or below.
  const head = `%YAML 1.1\n---\n${ON}a: 1\n`;
  const s1 = (line: number) => line + 4;
  for (const [text, line] of [
    [`${head}x: {<<: 1}\n`, 6],
    [`${head}x:\n  <<: [a, b]\n`, 7],
    [`${head}l: &l [1]\nx:\n  k: 1\n  <<: *l\n`, 9],
    // A list of mappings with one item that is not: the merge key's line, past a first merge that is read.
    [`${head}m: &m {k: 1}\nx:\n  <<: *m\ny:\n  <<: [*m, 2]\n`, 10],
    // The value below its key, after a comment: still the key's line.
    [`${head}x:\n  # the base\n  <<:\n    - 3\n`, 8],
  ] as const) {
    const lines = refusalLines(text);
    // The manifest's reader makes no data, and front matter holds no `%YAML` directive.
    assert.deepEqual([lines.s0, lines.s1], [line, s1(line)], text);
    assert.deepEqual(parseAgentsYml(text).meta?.issues, [{ kind: 'refused', refusal: 'merge-not-map', line }], text);
  }
  // Found in time linear in the document: n merges read, then the one refused.
  const merges = (n: number) =>
    `${head}${Array.from({ length: n }, (_, i) => `m${i}: {<<: {a: ${i}}}`).join('\n')}\nx: {<<: 1}\n`;
  assert.equal(refusalLines(merges(250)).s0, 256);
  assertLinear('where a merge key is refused', (t) => parseAgentsYml(t), merges(1_500), merges(6_000));
});

test('an ordered map (`!!omap`) with a key twice is refused at the line of its tag, by every reader, also when an alias repeats the key', () => {
  // The tag on line 5 (6 in S4's checkpoint, whose front matter starts on line 2; 9 in the S1 handoff).
  const omap = `${ON}a: 1\nb: 2\no: !!omap\n  - &k x: 1\n  - y: 2\n  - `;
  for (const text of [`${omap}x: 3\n`, `${omap}*k : 3\n`]) {
    const lines = refusalLines(text);
    const aliased = text.includes('*k :');
    // The manifest's reader makes no data: the key repeated through an alias is read there.
    assert.deepEqual(lines, { s0: 5, s2: aliased ? undefined : 5, s1: 9, s4: 6 }, text);
  }
  // The tag on a line of its own, below its key; and an ordered map as a list item.
  assert.deepEqual(refusalLines(`${ON}a: 1\no:\n  !!omap\n  - &k x: 1\n  - *k : 3\n`).s0, 5);
  assert.deepEqual(refusalLines(`${ON}a: 1\nl:\n  - 1\n  - !!omap [&k x: 1, y: 2, *k : 3]\n`).s0, 6);
  // Ordered maps read (each key once) before the one refused: its own tag's line.
  assert.deepEqual(refusalLines(`${ON}p: !!omap [&k x: 1]\nq: !!omap\n  - *k : 1\n  - y: 2\n  - *k : 3\n`).s0, 4);
  // Found in time linear in the ordered map: n keys, then the first repeated through an alias.
  const long = (n: number) =>
    `${ON}o: !!omap\n  - &k x: 1\n${Array.from({ length: n }, (_, i) => `  - k${i}: ${i}`).join('\n')}\n  - *k : 2\n`;
  assert.equal(refusalLines(long(250)).s0, 3);
  assertLinear('where an ordered map is refused', (t) => parseAgentsYml(t), long(1_500), long(6_000));
  // Where the repeated key is looked for, its keys are kept in a set: a list searched for each key is n²/2 (200 per
  // entry at 400), each search too cheap to show in the time at these sizes.
  assertLinearWork('where an ordered map is refused', (t) => parseAgentsYml(t), long, 100);
});

test("S4's checkpoint names the line of its front matter that is refused, not the front matter's first line", () => {
  // Nested too deep on line 4 of the YAML: line 5 of the checkpoint.
  const deep = `a: 1\nb: 2\nc: 3\nx: ${'['.repeat(MAX_YAML_DEPTH)}${']'.repeat(MAX_YAML_DEPTH)}\n`;
  assert.equal(refusalLines(deep).s4, 5);
});
