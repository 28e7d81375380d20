/**
 * The readers' work grows linearly with the document: counted in reads of the outline's heading
 * and block lists (no timing), on long files of the shapes that once took quadratic time (a
 * heading list searched again for every heading, every block filtered for every entry).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMarkdown, type MdOutline } from '../../src/core/markdown/markdown';
import { readS3Structure } from '../../src/core/systems/s3/reader-state';
import { readProgressEntries, readS4Structure } from '../../src/core/systems/s4/reader-state';
import type { SystemId } from '../../src/core/model/model';
import type { Loaded } from '../../src/core/model/system';
import type { Workspace } from '../../src/core/model/workspace';
import type { S4Extra } from '../../src/core/systems/s4/reader';
import type { S0Extra } from '../../src/core/systems/s0/reader';

/** The outline with its heading and block lists counting every element read. */
function counted(o: MdOutline): { outline: MdOutline; reads: () => number } {
  let n = 0;
  const wrap = <T extends object>(xs: T[]): T[] =>
    new Proxy(xs, {
      get(target, key, recv) {
        if (typeof key === 'string' && /^\d+$/.test(key)) n++;
        return Reflect.get(target, key, recv);
      },
    });
  return { outline: { ...o, headings: wrap(o.headings), blocks: wrap(o.blocks) }, reads: () => n };
}

function doc(head: string, entry: (i: number) => string[], n: number): MdOutline {
  const parts = [head];
  for (let i = 0; i < n; i++) parts.push(...entry(i));
  return parseMarkdown(parts.join('\n'));
}

/** Reads per element of the outline, at n and at 4n entries: about the same when the work is linear. */
function perElement(make: (n: number) => MdOutline, read: (o: MdOutline) => unknown): [number, number] {
  const at = (n: number) => {
    const o = make(n);
    const c = counted(o);
    read(c.outline);
    return c.reads() / (o.headings.length + o.blocks.length);
  };
  return [at(500), at(2000)];
}

test('S4: PROGRESS entries and the STATE blocks are found in one pass over the headings', () => {
  const progress = (n: number) =>
    doc('# Progress', (i) => [`## 2026-01-01 Session ${i}`, `### What we did`, `- did ${i}`, ''], n);
  const [a, b] = perElement(progress, readProgressEntries);
  assert.ok(b <= a * 1.5 && b < 20, `reads per element ${a.toFixed(1)} at 500 entries, ${b.toFixed(1)} at 2000`);
  const state = (n: number) =>
    doc(
      '# Agent State\n\n## Progress Tracker\n- [ ] step',
      (i) => [`## Current Feature: f${i}`, `### Notes`, `- note ${i}`, ''],
      n,
    );
  const [c, d] = perElement(state, readS4Structure);
  assert.ok(d <= c * 1.5 && d < 20, `reads per element ${c.toFixed(1)} at 500 blocks, ${d.toFixed(1)} at 2000`);
  assert.equal(readS4Structure(state(50)).blocks.length, 50);
  assert.equal(readProgressEntries(progress(50))[49].endLine, progress(50).lines.length);
});

test("S3: the Log's dated items and entry headings are read in one pass", () => {
  const items = (n: number) =>
    doc(
      '# STATE\n\n## Handoff\nNow ▶ write the renewal test\n\n## Log',
      (i) => [`- 2026-01-01 entry ${i}: renewal checked`, `  - Docs touched: docs/x${i}.md`],
      n,
    );
  const [a, b] = perElement(items, readS3Structure);
  assert.ok(b <= a * 1.5 && b < 20, `reads per element ${a.toFixed(1)} at 500 items, ${b.toFixed(1)} at 2000`);
  const heads = (n: number) =>
    doc(
      '# STATE\n\n## Handoff\nNow ▶ go\n\n## Log',
      (i) => [`### 2026-01-01 entry ${i}`, `- Docs touched: docs/y${i}.md`, ''],
      n,
    );
  const [c, d] = perElement(heads, readS3Structure);
  assert.ok(d <= c * 1.5 && d < 20, `reads per element ${c.toFixed(1)} at 500 entries, ${d.toFixed(1)} at 2000`);
  const s = readS3Structure(items(20));
  assert.equal(s.entries.length, 20);
  assert.deepEqual(
    s.entries[3].docsTouched.map((x) => x.text),
    ['Docs touched: docs/x3.md'],
  );
});

test('S4 checks: asking for the sections of every Current block stays linear (no blocks × sections filter)', async () => {
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const { Workspace } = await import('../../src/core/model/workspace');
  const { readerById } = await import('../../src/core/systems/readers');
  const { analyseS4 } = await import('../../src/core/systems/s4/rules');
  const perSection = async (n: number): Promise<number> => {
    const root = mkdtempSync(path.join(tmpdir(), 'sl-lin4-'));
    try {
      mkdirSync(path.join(root, '.agents'));
      const parts = ['# Agent State', '', '## Progress Tracker', '- [PROGRESS.md](../PROGRESS.md)', ''];
      for (let i = 0; i < n; i++) parts.push(`## Current Feature: f${i}`, '### Notes', '- TBD', '');
      writeFileSync(path.join(root, '.agents/STATE.md'), parts.join('\n'));
      const ws = new Workspace(root, { noGit: true });
      const loaded = await readerById('S4').load(ws);
      assert.ok(loaded?.home, 'S4 detected');
      const home = loaded.home;
      let reads = 0;
      const sections = home.sections;
      home.sections = new Proxy(sections, {
        get(target, key, recv) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, recv);
        },
      });
      await analyseS4(ws, loaded);
      return reads / sections.length;
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  const a = await perSection(300);
  const b = await perSection(1200);
  assert.ok(b <= a * 1.5 && b < 40, `section reads per section ${a.toFixed(1)} at 300 blocks, ${b.toFixed(1)} at 1200`);
});

test("each state file is parsed once per evaluation: a reader's format test and its loadDoc share the outline", async () => {
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  // markdown-it's block parses are counted: every outline of a file makes one block state of its text
  type StateClass = new (src: string, ...rest: unknown[]) => object;
  // The readers' block parser (src/core/markdown/markdown.ts runs markdown-it's on its own).
  const ParserBlock = (await import('markdown-it/lib/parser_block.mjs')).default as unknown as {
    prototype: { State: StateClass };
  };
  const { evaluate } = await import('../../src/core/report/evaluate');
  const root = mkdtempSync(path.join(tmpdir(), 'sl-outline-'));
  const files: Record<string, string> = {
    // S3 and S4 test their headings before reading; S2's project-state test reads its words first
    'docs/state/STATE.md':
      '# STATE\n\n## Handoff\nNow ▶ run `npm test` in test/unit/outline.test.ts\n\n## Log\n- 2026-01-01 entry\n',
    '.agents/STATE.md':
      '# Agent State\n\n## Progress Tracker\n- [ ] step\n\n## Current Feature: f\n### Notes\n- note\n',
    '.claude/project-state.md':
      '# Project state\n\n## Verified\n- `npm test` passes\n\n## Dropped\n- nothing, because it held\n\n## Next\n- write the guard test\n',
  };
  const parsed = new Map<string, number>();
  const proto = ParserBlock.prototype;
  const original = proto.State;
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    proto.State = class extends original {
      constructor(src: string, ...rest: unknown[]) {
        super(src, ...rest);
        parsed.set(src, (parsed.get(src) ?? 0) + 1);
      }
    };
    const report = await evaluate(root, { noGit: true });
    const seen = report.systems.flatMap((s) => s.docs.map((d) => d.relPath));
    for (const [rel, text] of Object.entries(files)) {
      if (!seen.includes(rel)) continue;
      assert.equal(parsed.get(text), 1, `${rel} parsed ${parsed.get(text)} times`);
    }
    assert.ok(
      seen.includes('docs/state/STATE.md') && seen.includes('.agents/STATE.md'),
      `S3 and S4 read: ${seen.join(', ')}`,
    );
  } finally {
    proto.State = original;
    rmSync(root, { recursive: true, force: true });
  }
});

/** The long state files of `npm run bench`'s linearity rows: a workspace holding one, at `n` lines. */
async function benchWorkspace(shape: 'S4 STATE.md' | 'S4 PROGRESS.md' | 'S0 ledger', n: number): Promise<string> {
  const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const [rel, head, entry] = {
    'S4 STATE.md': [
      '.agents/STATE.md',
      '# Agent State\n\n## Progress Tracker\n- [ ] step',
      (i: number) => [`### Note ${i}`, `- checked ${i}`, ''],
    ],
    'S4 PROGRESS.md': ['PROGRESS.md', '# Progress', (i: number) => [`## 2026-01-01 Session ${i}`, `- did ${i}`, '']],
    'S0 ledger': [
      '.agents/session_ledger.md',
      '# Session Ledger\n\n## Goal\nship',
      (i: number) => [`## Note ${i}`, `- item ${i}`],
    ],
  }[shape] as [string, string, (i: number) => string[]];
  const root = mkdtempSync(path.join(tmpdir(), 'sl-long-'));
  const parts = [head];
  for (let i = 0; parts.length < n; i++) parts.push(...entry(i));
  mkdirSync(path.join(root, '.agents'), { recursive: true });
  writeFileSync(path.join(root, rel), parts.join('\n') + '\n');
  if (rel === 'PROGRESS.md')
    writeFileSync(path.join(root, '.agents/STATE.md'), '# Agent State\n\n## Progress Tracker\n- [ ] step\n');
  return root;
}

const LONG_FILES = [
  ['S4 STATE.md', '.agents/STATE.md'],
  ['S4 PROGRESS.md', 'PROGRESS.md'],
  ['S0 ledger', '.agents/session_ledger.md'],
] as const;

/**
 * `use` on a bench workspace of `shape` at `n` lines whose system `id` is read (no git), the workspace
 * removed after it.
 */
async function withBenchSystem<E>(
  shape: Parameters<typeof benchWorkspace>[0],
  n: number,
  id: SystemId,
  use: (root: string, ws: Workspace, loaded: Loaded<E>) => Promise<void>,
): Promise<void> {
  const { rmSync } = await import('node:fs');
  const { Workspace } = await import('../../src/core/model/workspace');
  const { readerById } = await import('../../src/core/systems/readers');
  const root = await benchWorkspace(shape, n);
  try {
    const ws = new Workspace(root, { noGit: true });
    const loaded = await readerById(id).load(ws);
    assert.ok(loaded, `${id} detected`);
    await use(root, ws, loaded as Loaded<E>);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test("a long state file's line table is made a chunk at a time: no block state of markdown-it spans the whole file", async () => {
  // Counted, not timed: a table of where each of 100k lines begins, made at once, outlived V8's young
  // generation, and the collector then copied it (npm run bench's linearity rows: 10× the lines took 13× the time).
  const { rmSync } = await import('node:fs');
  const { CHUNK_LINES } = await import('../../src/core/markdown/markdown');
  const { evaluate } = await import('../../src/core/report/evaluate');
  type StateClass = new (src: string, ...rest: unknown[]) => { lineMax: number };
  const ParserBlock = (await import('markdown-it/lib/parser_block.mjs')).default as unknown as {
    prototype: { State: StateClass };
  };
  const proto = ParserBlock.prototype;
  const original = proto.State;
  // Four chunks' lines: a table made at once would span all of them, twice the most one chunk's may.
  const n = 4 * CHUNK_LINES;
  for (const [shape, rel] of LONG_FILES) {
    const root = await benchWorkspace(shape, n);
    let widest = 0;
    let lines = 0;
    try {
      proto.State = class extends original {
        constructor(src: string, ...rest: unknown[]) {
          super(src, ...rest);
          widest = Math.max(widest, this.lineMax);
          lines += this.lineMax;
        }
      };
      const report = await evaluate(root, { noGit: true });
      assert.ok(
        report.systems.some((s) => s.docs.some((d) => d.relPath === rel && d.sections.length > 0)),
        shape,
      );
    } finally {
      proto.State = original;
      rmSync(root, { recursive: true, force: true });
    }
    assert.ok(widest > 0 && widest <= 2 * CHUNK_LINES, `${shape}: a block state of ${widest} lines`);
    // Each line in one chunk's table: the file is not parsed twice.
    assert.ok(lines >= n && lines < n + 1_000, `${shape}: ${lines} lines in block states`);
  }
});

test("a long state file's lines are made at most twice in a status: the outline's and the secret scan's", async () => {
  // Counted, not timed: each split of the whole text made 100k strings at once, alive while a check
  // walked them, which the collector then copied (the line count, the budget's, S0's timestamp and next action).
  const { readFileSync, rmSync } = await import('node:fs');
  const path = await import('node:path');
  const { evaluate } = await import('../../src/core/report/evaluate');
  const split = String.prototype.split;
  for (const [shape, rel] of LONG_FILES) {
    // Counted: a third split of 8,000 lines is 8,000 lines over the bound.
    const root = await benchWorkspace(shape, 8_000);
    const text = readFileSync(path.join(root, rel), 'utf8');
    const lines = text.split('\n').length;
    let made = 0;
    try {
      // Every line made of the file's whole text (a split with a limit makes only the lines it keeps).
      String.prototype.split = function (this: string, ...args: Parameters<string['split']>) {
        const out = split.apply(this, args);
        if (this.length === text.length && String(this) === text) made += out.length;
        return out;
      } as typeof split;
      const report = await evaluate(root, { noGit: true });
      String.prototype.split = split;
      assert.ok(
        report.systems.some((s) => s.docs.some((d) => d.relPath === rel && d.lineCount === lines)),
        `${shape} read`,
      );
    } finally {
      String.prototype.split = split;
      rmSync(root, { recursive: true, force: true });
    }
    // Twice, and the few lines a check takes from the top (PROGRESS.md's newest entry).
    assert.ok(made <= 2 * lines + 100, `${shape}: ${made} lines made of a text of ${lines}`);
  }
});

test("S0's checks of a long ledger copy none of its items that hold no UNCONFIRMED marker", async () => {
  // A copy of every section and item for the template rules outlived V8's young generation on a long ledger.
  const { analyseS0 } = await import('../../src/core/systems/s0/rules');
  await withBenchSystem<S0Extra>('S0 ledger', 2_000, 'S0', async (_root, ws, loaded) => {
    assert.ok(loaded.home, 'S0 detected');
    let copied = 0;
    let items = 0;
    for (const s of loaded.home.sections)
      s.items = s.items.map((it) => {
        items++;
        return new Proxy(it, {
          ownKeys(target) {
            copied++;
            return Reflect.ownKeys(target);
          },
        });
      });
    const analysis = await analyseS0(ws, loaded);
    assert.ok(items >= 1_000, `${items} items`);
    assert.equal(copied, 0, `${copied} copies of ${items} items`);
    // The template rules still read the items: the ledger holds real content.
    assert.ok(analysis.checks.some((c) => c.id === 'not-skeleton' && c.status === 'pass'));
  });
});

test("a long document's sections hold item lists the size of their items", async () => {
  // Each section of a 100k-line file was alive while the file was read, and a pushed-to list keeps
  // room for 17 items: the collector copied that room with every section.
  const { getHeapSpaceStatistics, setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  const { sectionize } = await import('../../src/core/markdown/markdown');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const parts = ['# Agent State', '', '## Progress Tracker', '- [ ] step'];
  for (let i = 0; i < 5_000; i++) parts.push(`### Note ${i}`, `- checked ${i}`, '');
  const outline = parseMarkdown(parts.join('\n'));
  const used = (): number => {
    for (let k = 0; k < 3; k++) gc();
    return getHeapSpaceStatistics().reduce((n, s) => n + s.space_used_size, 0);
  };
  const held = <T>(make: () => T): [T, number] => {
    const before = used();
    const kept = make();
    return [kept, used() - before];
  };
  // The heap the sections hold, against the same sections built again with lists of their exact
  // size (map makes one): a ratio, so the size of an object on this machine does not matter.
  const ratios: number[] = [];
  for (let k = 0; k < 5; k++) {
    const [sections, read] = held(() => sectionize(outline, () => 'other'));
    assert.equal(sections.length, 5_002);
    const [, exact] = held(() =>
      sections.map((s) => ({ ...s, items: s.items.map((i) => ({ ...i, flags: [...i.flags] })) })),
    );
    ratios.push(read / exact);
  }
  ratios.sort((a, b) => a - b);
  assert.ok(ratios[2] <= 1.25, `sections hold ${ratios.map((r) => r.toFixed(2)).join(' ')} times their exact size`);
});

test('a long text without secrets, of one-line list items, makes no list for each of its lines', async () => {
  // The secret scan made and sorted a list of spans for every line, and each one-line list item was
  // split into lines and joined again: garbage in proportion to the lines, which at 100k lines the
  // collector ran over ten times a status (npm run bench's linearity rows).
  const { maskSecrets } = await import('../../src/core/secrets/secrets');
  const text = Array.from({ length: 20_000 }, (_, i) => `- checked item ${i} of the renewal path`).join('\n');
  const { sort } = Array.prototype;
  const { split } = String.prototype;
  let sorts = 0;
  let splits = 0;
  try {
    Array.prototype.sort = function <T>(this: T[], ...args: Parameters<T[]['sort']>) {
      sorts++;
      return sort.apply(this, args);
    } as typeof sort;
    String.prototype.split = function (this: string, ...args: Parameters<string['split']>) {
      if (this.length < 100) splits++;
      return split.apply(this, args);
    } as typeof split;
    assert.equal(maskSecrets(text).hits.length, 0);
    assert.equal(sorts, 0, `${sorts} lists sorted by the secret scan of ${20_000} lines`);
    const outline = parseMarkdown(text);
    assert.equal(outline.blocks.length, 20_000);
  } finally {
    Array.prototype.sort = sort;
    String.prototype.split = split;
  }
  // The outline's own sort of its blocks is one; a line's split is one per item.
  assert.ok(sorts <= 1, `${sorts} sorts in all`);
  assert.equal(splits, 0, `${splits} list items split into lines`);
});

test("S4's order check reads each PROGRESS.md entry's timestamp a fixed number of times, not once per comparison", async () => {
  // Each comparison took the digits out of both timestamps again (a new string each time), four an
  // entry: the most garbage a status of a long PROGRESS.md made outside the parse.
  const { Workspace } = await import('../../src/core/model/workspace');
  const { analyseS4 } = await import('../../src/core/systems/s4/rules');
  await withBenchSystem<S4Extra>('S4 PROGRESS.md', 3_000, 'S4', async (root, _ws, loaded) => {
    const progress = loaded.extra?.progress;
    assert.ok(progress, 'PROGRESS.md read');
    let reads = 0;
    const meta = progress.meta as { entries: object[] };
    meta.entries = meta.entries.map(
      (e) =>
        new Proxy(e, {
          get(target, key, recv) {
            if (key === 'timestamp') reads++;
            return Reflect.get(target, key, recv);
          },
        }),
    );
    const analysis = await analyseS4(new Workspace(root, { noGit: true }), loaded);
    const order = analysis.checks.find((c) => c.id === 'progress-order');
    assert.equal(order?.status, 'pass', order?.message);
    assert.ok(reads <= 3 * meta.entries.length, `${reads} reads of ${meta.entries.length} timestamps`);
  });
});
