/**
 * `.agents.yml`, `context-manifest.yaml` and front matter are parsed in time linear in the number
 * of keys: counted, not timed. The unit of work counted is the `yaml` library's node-type checks
 * (every export of its `nodes/identity.js`: `isScalar`, `isMap`, `isPair` …), which its key
 * comparisons call; its own unique-key check compared every key with every key before it, so a
 * mapping of n keys cost n²/2 of them. Plain YAML is read by a reader of our own without the library
 * (src/core/markdown/yaml-tree.ts); its work is its CPU time at n and 4n keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { parseAgentsYml } from '../../src/core/systems/s0/reader';
import { parseManifest } from '../../src/core/systems/s2/reader-ledger';
import { parseCheckpoint } from '../../src/core/systems/s4/reader-state';
import { aliasUses, MAX_ALIAS_CHARS, MAX_ALIASES, parseYamlDocument } from '../../src/core/markdown/yaml';
import { readSnapshot } from '../../src/core/systems/s1/reader-snapshot';
import { snapshotProblems } from '../../src/core/systems/s1/rules';
import { s4Findings } from '../../src/core/systems/s4/rules';
import type { StateDoc } from '../../src/core/model/model';
import { withLedgerOn } from '../../src/core/systems/s0/enable';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import { evaluate } from '../../src/core/report/evaluate';
import { assertLinear as assertCpuLinear, workspace } from './helpers';

/** The library's node-type checks, each call counted while `f` runs (and its promise settles). */
async function countChecks(f: () => unknown): Promise<number> {
  const file = path.join(path.dirname(require.resolve('yaml')), 'nodes', 'identity.js');
  assert.ok(existsSync(file), `the yaml library's node-type checks are not at ${file}: this test must be adapted`);
  const identity = require(file) as Record<string, unknown>;
  const saved = new Map<string, (...a: unknown[]) => unknown>();
  let n = 0;
  for (const [k, v] of Object.entries(identity)) {
    if (typeof v !== 'function') continue;
    const fn = v as (...a: unknown[]) => unknown;
    saved.set(k, fn);
    identity[k] = (...a: unknown[]) => {
      n++;
      return fn(...a);
    };
  }
  assert.ok(saved.has('isScalar'), 'the yaml library has no isScalar in nodes/identity.js: this test must be adapted');
  try {
    await f();
  } finally {
    for (const [k, fn] of saved) identity[k] = fn;
  }
  return n;
}

/** Node-type checks per key at 500 and at 1,000 keys: about the same when the work is linear (about 4), twice as many when it
 * is quadratic (a comparison of every key with every key before it is 250 per key at 500 keys, over the bound of 100).
 * Counted, not timed, so the count is the same on every run and a small n separates the two. */
async function assertLinear(
  name: string,
  make: (n: number) => string,
  parse: (text: string) => unknown,
): Promise<void> {
  const at = async (k: number) => {
    const text = make(k);
    return (await countChecks(() => parse(text))) / k;
  };
  const a = await at(500);
  const b = await at(1_000);
  assert.ok(
    b <= a * 1.25 && b < 100,
    `${name}: ${a.toFixed(1)} node-type checks per key at 500 keys, ${b.toFixed(1)} at 1,000`,
  );
}

const topKeys = (n: number) => {
  const out = ['session:', '  ledger: true'];
  for (let i = 0; i < n; i++) out.push(`k${i.toString(36)}: 1`);
  return `${out.join('\n')}\n`;
};
const sessionKeys = (n: number) => {
  const out = ['session:', '  ledger: true'];
  for (let i = 0; i < n; i++) out.push(`  k${i}: ${i}`);
  return `${out.join('\n')}\n`;
};
const flowKeys = (n: number) => {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`k${i}: ${i}`);
  return `session: {ledger: true, ${parts.join(', ')}}\n`;
};

test('.agents.yml: keys at the top, under session and in a flow mapping cost the same per key at 500 and 1,000', async () => {
  await assertLinear('top-level keys', topKeys, parseAgentsYml);
  await assertLinear('keys under session', sessionKeys, parseAgentsYml);
  await assertLinear('flow mapping', flowKeys, parseAgentsYml);
  // What it reads is unchanged: the session block is a section with every key.
  const parsed = parseAgentsYml(sessionKeys(50));
  assert.equal(parsed.sections[0].items.length, 51);
  assert.deepEqual(parsed.meta?.issues, []);
});

test('context-manifest.yaml: many keys at the top and under durable_context cost the same per key', async () => {
  await assertLinear(
    'manifest top-level keys',
    (n) => `ledger:\n  budget_chars: 4000\n${Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join('\n')}\n`,
    parseManifest,
  );
  await assertLinear(
    'manifest durable_context keys',
    (n) =>
      `compaction:\n  checkpoint:\n    durable_context:\n      project_state: .claude/project-state.md\n${Array.from({ length: n }, (_, i) => `      k${i}: ${i}`).join('\n')}\n`,
    parseManifest,
  );
  const m = parseManifest(
    `compaction:\n  checkpoint:\n    durable_context:\n      project_state: p.md\n${Array.from({ length: 30 }, (_, i) => `k${i}: ${i}`).join('\n')}\n`,
  );
  assert.equal(m.info.projectState, 'p.md');
});

test('S4 checkpoint front matter (at most 400 lines, so a flow mapping on one line): many keys cost the same per key', async () => {
  const make = (n: number) =>
    `---\nsummary: {${Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join(', ')}}\n---\n# Checkpoint\n`;
  await assertLinear('front matter', make, (text) => parseCheckpoint(text, parseMarkdown(text)));
  const meta = parseCheckpoint(make(300), parseMarkdown(make(300))).meta as { frontMatter: { summary: object } };
  assert.equal(Object.keys(meta.frontMatter.summary).length, 300, 'the front matter is parsed');
});

test('status on an .agents.yml of 1,000 and of 2,000 keys (under the 256 KB cap): the same work per key', async () => {
  const make = (n: number) =>
    workspace({ '.agents.yml': topKeys(n), '.agents/session_ledger.md': '# Session Ledger\n' });
  assert.ok(topKeys(2_000).length < 256 * 1024, 'the file is under the YAML cap, so it is parsed');
  const small = make(1_000);
  const big = make(2_000);
  let report: Awaited<ReturnType<typeof evaluate>> | undefined;
  const perSmall = (await countChecks(async () => (report = await evaluate(small, { noGit: true })))) / 1_000;
  assert.equal(report?.systems.find((s) => s.id === 'S0')?.skipped, undefined, 'S0 is on: the file was parsed');
  const perBig = (await countChecks(async () => (report = await evaluate(big, { noGit: true })))) / 2_000;
  assert.ok(
    perBig <= perSmall * 1.25 && perBig < 100,
    `node-type checks per key: ${perSmall.toFixed(1)} / ${perBig.toFixed(1)}`,
  );
});

test('plain YAML, read without the library, is linear in its keys too (CPU time at 5,000 and 20,000 keys)', async () => {
  const manifestKeys = (n: number) =>
    `compaction:\n  checkpoint:\n    durable_context:\n      project_state: p.md\n${Array.from({ length: n }, (_, i) => `      k${i}: ${i}`).join('\n')}\n`;
  for (const [name, make, parse] of [
    ['.agents.yml top-level keys', topKeys, parseAgentsYml],
    ['.agents.yml keys under session', sessionKeys, parseAgentsYml],
    ['manifest durable_context keys', manifestKeys, parseManifest],
  ] as const) {
    // The plain reader answers for these: the library is not asked (the counted test above sees none of this work).
    assert.equal(await countChecks(() => parse(make(100))), 0, `${name}: read without the library`);
    assertCpuLinear(name, parse, make(5_000), make(20_000));
  }
});

test('a duplicate key is the same error, at the same line, as the library reports', () => {
  for (const text of [
    'session:\n  ledger: true\n  ledger: false\n',
    'a: 1\nb: 2\na: 3\n',
    'x: {a: 1, a: 2}\n',
    '- a: 1\n  a: 2\n',
    'k: 1\n"k": 2\n',
    '1: a\n"1": b\n',
    '.nan: 1\n.nan: 2\n',
    'a: 1\n? [x]\n: 2\n? [x]\n: 3\n',
    '&x a: 1\n*x : 2\n',
  ]) {
    const theirs = parseDocument(text, { prettyErrors: false, logLevel: 'silent' });
    const ours = parseYamlDocument(text, { logLevel: 'silent' });
    assert.deepEqual(
      ours.errors.map((e) => [e.code, e.message]),
      theirs.errors.map((e) => [e.code, e.message]),
      `errors for ${JSON.stringify(text)}`,
    );
  }
  const r = parseAgentsYml('session:\n  ledger: true\n  ledger: false\n');
  assert.deepEqual(r.meta?.issues, [
    { kind: 'yaml-error', line: 3, column: 3, code: 'DUPLICATE_KEY', error: 'Map keys must be unique' },
  ]);
});

/** `n` scalar anchors, each aliased 90 times (under the library's own per-anchor limit of 100): 90·n aliases. */
const aliasedAnchors = (n: number) => {
  const names = Array.from({ length: n }, (_, i) => `a${i.toString(36)}`);
  return `session:\n  ledger: true\nx: [${names.map((a) => `&${a} 1`).join(',')}]\ny: [${names.flatMap((a) => Array(90).fill(`*${a}`)).join(',')}]\n`;
};

test('aliases: every YAML reader is linear in them (CPU time at 60 and 240 anchors, each aliased 90 times), past the limit refused', () => {
  // The library resolves an alias by a scan of every anchor and alias before it: 21,600 aliases cost 16 times 5,400.
  const snapshot = (yaml: string) =>
    `# Handoff\n\n<!-- state-snapshot v1 -->\n\`\`\`yaml\n${yaml}\`\`\`\n\n## What to do now\n1. Ship it.\n`;
  const frontMatter = (yaml: string) => `---\n${yaml}---\n# Checkpoint\n`;
  for (const [name, parse, wrap] of [
    ['.agents.yml', (t: string) => parseAgentsYml(t), (y: string) => y],
    ['context-manifest.yaml', (t: string) => parseManifest(t), (y: string) => y],
    ['S1 snapshot block', (t: string) => readSnapshot(parseMarkdown(t)), snapshot],
    ['S4 front matter', (t: string) => parseCheckpoint(t, parseMarkdown(t)), frontMatter],
    ['enabling the ledger', (t: string) => withLedgerOn(t), (y: string) => y],
  ] as const)
    assertCpuLinear(name, parse, wrap(aliasedAnchors(60)), wrap(aliasedAnchors(240)));
  // Refused in the tool's words (a finding of each reader's own), not resolved, and never thrown; at the limit, read as before.
  const over = aliasedAnchors(2);
  assert.deepEqual(parseAgentsYml(over).meta?.issues, [{ kind: 'too-many-aliases', aliases: 100 }]);
  const snap = readSnapshot(parseMarkdown(snapshot(over)))?.info;
  assert.deepEqual([snap?.shape, snap?.aliases], ['unreadable', 100]);
  assert.match(
    snapshotProblems(snap!)[0].message.id,
    /^Snapshot: the block's YAML aliases \(`\*name`\) repeat more than is read in one block \(over \{0\} uses or \{1\} of its text/,
  );
  const fm = parseMarkdown(frontMatter(over));
  const [front] = s4Findings({ meta: parseCheckpoint(frontMatter(over), fm).meta } as unknown as StateDoc);
  assert.deepEqual(
    [front.messageId, front.args],
    [
      "The checkpoint's YAML front matter has YAML aliases (`*name`) that repeat more than is read (over {0} uses or {1} of its text, counting those inside what they repeat, or a node inside itself); it is not read.",
      ['99', '1 MB'],
    ],
  );
  // As many as are read, all of one anchor (the library's own limit is per anchor): read.
  const at = `session:\n  ledger: &t true\nx: [${Array(MAX_ALIASES).fill('*t').join(',')}]\n`;
  assert.deepEqual(parseAgentsYml(at).meta?.issues, []);
  assert.equal((parseAgentsYml(at).meta?.session as { ledger: unknown }).ledger, true);
});

/** An anchored list of ten aliases of one scalar, aliased `k` times: 10 + 11·k aliases once resolved, 10 + k written. */
const nestedAliases = (k: number) =>
  `session:\n  ledger: true\nx: &a 1\ny: &b [${Array(10).fill('*a').join(', ')}]\nz: [${Array(k).fill('*b').join(', ')}]\n`;

test("aliases inside what an alias repeats count too: under the limit written, over it resolved, refused in the tool's words (never the library's)", () => {
  const snapshot = (yaml: string) =>
    `# Handoff\n\n<!-- state-snapshot v1 -->\n\`\`\`yaml\n${yaml}\`\`\`\n\n## What to do now\n1. Ship it.\n`;
  const over = nestedAliases(12); // 22 written, 142 once resolved: the library refuses it itself ("Excessive alias count …")
  assert.throws(() => parseDocument(over).toJS(), /Excessive alias count/);
  assert.equal(aliasUses(parseDocument(over)), 109, 'counting stops past the limit: 10 + 11·9');
  assert.deepEqual(parseAgentsYml(over).meta?.issues, [{ kind: 'too-many-aliases', aliases: 109 }]);
  const snap = readSnapshot(parseMarkdown(snapshot(over)))?.info;
  assert.deepEqual([snap?.shape, snap?.aliases], ['unreadable', 109]);
  const fm = `---\n${over}---\n# Checkpoint\n`;
  const [front] = s4Findings({ meta: parseCheckpoint(fm, parseMarkdown(fm)).meta } as unknown as StateDoc);
  assert.deepEqual(front.args, ['99', '1 MB']);
  // 8 of them resolve to 98: read.
  assert.equal(aliasUses(parseDocument(nestedAliases(8))), 98);
  assert.deepEqual(parseAgentsYml(nestedAliases(8)).meta?.issues, []);
  // A node that holds an alias of itself repeats it without end: refused in the tool's words (the data would refer to
  // itself, and turning it into text threw in the JavaScript engine's words), by each reader.
  assert.equal(aliasUses(parseDocument('a: &r [1, *r]\n')), MAX_ALIASES + 1);
  const cyclic = 'session: &s {ledger: true, self: *s}\n';
  assert.deepEqual(parseAgentsYml(cyclic).meta?.issues, [{ kind: 'too-many-aliases', aliases: MAX_ALIASES + 1 }]);
  const cyclicSnap = readSnapshot(parseMarkdown(snapshot('ctx: &a [*a]\n')))?.info;
  assert.deepEqual([cyclicSnap?.shape, cyclicSnap?.aliases], ['unreadable', MAX_ALIASES + 1]);
  // Few aliases that repeat much text (a long string; a merge key, which copies its map): refused past
  // MAX_ALIAS_CHARS of repeated text, read under it.
  const long = (n: number, k: number) =>
    `session:\n  ledger: true\npad: &b '${'x'.repeat(n)}'\nctx: [${Array(k).fill('*b').join(', ')}]\n`;
  assert.deepEqual(parseAgentsYml(long(100_000, 11)).meta?.issues, [
    { kind: 'too-many-aliases', aliases: MAX_ALIASES + 1 },
  ]);
  assert.deepEqual(parseAgentsYml(long(100_000, 10)).meta?.issues, []);
  // A map of 310 KB in 4,500 long keys (the text counts, not the keys: fewer nodes to parse).
  const merged = `%YAML 1.1\n---\nbase: &m {${Array.from({ length: 4_500 }, (_, i) => `k${i}${'x'.repeat(60)}: 1`).join(', ')}}\n${Array.from({ length: 5 }, (_, i) => `c${i}: {<<: *m}`).join('\n')}\n`;
  assert.ok(MAX_ALIAS_CHARS < 5 * merged.indexOf('}'), 'the merges repeat more than the limit');
  assert.equal(aliasUses(parseYamlDocument(merged)), MAX_ALIASES + 1);
});

test('a mapping under an explicit key counts its first key too (the library leaves it out of the range): refused', () => {
  // `? &k` with the mapping on the next lines: the library's range for the mapping starts after its first key,
  // and its 1,024-character limit on an implicit key is not applied there, so that key may be 200 KB.
  const big = 'a'.repeat(200_000);
  const text = `? &k\n  ${big}: 1\n: v\nsession:\n  ledger: true\nctx: [${Array(10).fill('*k').join(', ')}]\n`;
  assert.ok(10 * big.length > MAX_ALIAS_CHARS, 'the aliases repeat more than the limit');
  assert.equal(aliasUses(parseDocument(text)), MAX_ALIASES + 1);
  assert.deepEqual(parseAgentsYml(text).meta?.issues, [{ kind: 'too-many-aliases', aliases: MAX_ALIASES + 1 }]);
  // The same in a sequence item, and four aliases of it (800 KB) still read.
  const inSeq = `- ? &k\n    ${big}: 1\n  : v\n- [${Array(10).fill('*k').join(', ')}]\n`;
  assert.equal(aliasUses(parseDocument(inSeq)), MAX_ALIASES + 1);
  assert.equal(aliasUses(parseDocument(text.replace(/ctx: .*\n/, 'ctx: [*k, *k, *k, *k]\n'))), 4);
});

test('enable-ledger refuses an .agents.yml whose aliases repeat more than is read (the checkpoint could not read it once enabled)', () => {
  for (const text of ['session: &s {ledger: false, self: *s}\n', nestedAliases(12)]) {
    const r = withLedgerOn(text);
    assert.equal(r.ok, false, text);
    assert.match(r.ok ? '' : r.why.text, /YAML aliases \(`\*name`\) repeat more than is read in one file/);
  }
});

test('an anchor defined again inside its own node: an alias after the inner one names it, no node repeated inside itself (read)', () => {
  const text = 'matrix: &m\n  os: &m [linux, mac]\n  again: *m\n';
  assert.deepEqual(parseDocument(text).toJS(), { matrix: { os: ['linux', 'mac'], again: ['linux', 'mac'] } });
  assert.equal(aliasUses(parseDocument(text)), 1);
});

test("whatever aliases a document nests, .agents.yml is read or refused in the tool's words, never the library's (random nestings)", () => {
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let round = 0; round < 400; round++) {
    const lines: string[] = [];
    const names: string[] = [];
    for (let i = 0; i < 1 + rnd(6); i++) {
      const items = Array.from({ length: 1 + rnd(12) }, () =>
        names.length && rnd(3) ? `*${names[rnd(names.length)]}` : '1',
      );
      const name = `n${i}`;
      lines.push(`${name}: &${name} [${items.join(', ')}]`);
      names.push(name);
    }
    const text = `${lines.join('\n')}\nend: [${Array.from({ length: rnd(20) }, () => `*${names[rnd(names.length)]}`).join(', ')}]\n`;
    const issues = (parseAgentsYml(`session:\n  ledger: true\n${text}`).meta?.issues ?? []) as Array<{
      kind: string;
      aliases?: number;
    }>;
    assert.doesNotMatch(JSON.stringify(issues), /Excessive|exhaustion/, text);
    if (aliasUses(parseDocument(text)) <= MAX_ALIASES) assert.deepEqual(issues, [], text);
    else {
      assert.deepEqual(
        issues.map((i) => i.kind),
        ['too-many-aliases'],
        text,
      );
      assert.ok((issues[0].aliases ?? 0) > MAX_ALIASES, text);
    }
  }
});

test('status on an .agents.yml with more aliases than are resolved: a blocking finding that says so and what to do', async () => {
  const dir = workspace({ '.agents.yml': aliasedAnchors(2), '.agents/session_ledger.md': '# Session Ledger\n' });
  const s0 = (await evaluate(dir, { noGit: true })).systems.find((s) => s.id === 'S0');
  const config = s0?.checks.find((c) => c.id === 'config');
  assert.deepEqual(
    [config?.severity, config?.message, config?.hint],
    [
      'block',
      ".agents.yml's YAML aliases (`*name`) repeat more than is read in one file (over 99 uses or 1 MB of its text, counting those inside what they repeat, or a node inside itself); the checkpoint cannot read session.ledger.",
      'Write the values out in place of the aliases; keep at most 99.',
    ],
  );
});
