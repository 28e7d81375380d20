/**
 * A YAML error is named at a line and column the file has, where the error stands: S1's snapshot block
 * inside a blockquote (`> ```yaml`), in a list item inside one, or in a list nested deeper (its fence
 * indented four spaces or more), is numbered from the line after its opening fence, and the column counts
 * what stands before the block's text on that line (`> `, the item's indentation). An error the YAML
 * library places past the final line break (a quote or bracket never closed) names the last line of the
 * text, at its end, in every reader: `.agents.yml` (check and enable-ledger), S1's snapshot block, S2's
 * context-manifest.yaml, S4's checkpoint front matter. Real files through the real readers and checks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planEnableLedger } from '../../src/core/systems/s0/enable';
import { fixtureCopy, oneCheck, systemIn, workspace, write } from './helpers';

const AT = (where: string, line: number, column: number) =>
  `The YAML of ${where} does not parse at line ${line}, column ${column}: `;
const RESERVED = 'a value starts with a character YAML reserves (such as `@` or a backquote); put the value in quotes.';

/** S1's snapshot checks that say a YAML error: [line, message]. */
async function snapshotErrors(handoff: string): Promise<Array<[number | undefined, string]>> {
  const dir = workspace({ 'memory/session-handoff-LATEST.md': handoff });
  const s = await systemIn(dir, 'S1', { noGit: true });
  return s.checks
    .filter((c) => c.id === 'snapshot' && c.message.startsWith('The YAML of'))
    .map((c) => [c.line, c.message]);
}

const HEAD = '# Session Handoff\n\n## What to do now (priority order)\n1. trim MEMORY.md\n\n';

test("S1's snapshot block in a blockquote: the error's line and column in the handoff", async () => {
  const cases: Array<[string, string, number, number]> = [
    [
      'the marker before a quoted fence',
      '> <!-- state-snapshot v1 -->\n> ```yaml\n> ts: 2026-05-04\n> owner: @alice\n> ```\n',
      9,
      10,
    ],
    [
      'the marker inside a quoted fence',
      '> ```yaml\n> <!-- state-snapshot v1 -->\n> ts: 2026-05-04\n> owner: @alice\n> ```\n',
      9,
      10,
    ],
    [
      'a quote inside a quote',
      '> > <!-- state-snapshot v1 -->\n> > ```yaml\n> > ts: 2026-05-04\n> > owner: @alice\n> > ```\n',
      9,
      12,
    ],
    [
      'a list item inside a quote',
      '> - <!-- state-snapshot v1 -->\n>   ```yaml\n>   ts: 2026-05-04\n>   owner: @alice\n>   ```\n',
      9,
      12,
    ],
    [
      'a quoted blank line between the marker and the fence',
      '> <!-- state-snapshot v1 -->\n>\n> ```yaml\n> ts: 2026-05-04\n> owner: @alice\n> ```\n',
      10,
      10,
    ],
    ['bare YAML after a quoted marker', '> <!-- state-snapshot v1 -->\n> ts: 2026-05-04\n> owner: @alice\n', 8, 10],
    [
      'a list item nested in a list item, its fence indented four spaces',
      '- notes\n  - <!-- state-snapshot v1 -->\n    ```yaml\n    ts: 2026-05-04\n    owner: @alice\n    ```\n',
      10,
      12,
    ],
    [
      'the same, inside a quote',
      '> - notes\n>   - <!-- state-snapshot v1 -->\n>     ```yaml\n>     ts: 2026-05-04\n>     owner: @alice\n>     ```\n',
      10,
      14,
    ],
  ];
  for (const [what, block, line, column] of cases) {
    const handoff = HEAD + block;
    const named = handoff.split('\n')[line - 1];
    assert.equal(named.replace(/^[>\s-]*/, ''), 'owner: @alice', what);
    assert.deepEqual(
      await snapshotErrors(handoff),
      [[line, `${AT('state-snapshot v1', line, column)}${RESERVED}`]],
      what,
    );
  }
});

test("S1's snapshot block not in a quote keeps its line and column (a fence, an indented code block)", async () => {
  assert.deepEqual(
    await snapshotErrors(`${HEAD}<!-- state-snapshot v1 -->\n\`\`\`yaml\nts: 2026-05-04\nowner: @alice\n\`\`\`\n`),
    [[9, `${AT('state-snapshot v1', 9, 8)}${RESERVED}`]],
  );
  // An indented code block has no fence line: its text starts on its first line.
  assert.deepEqual(
    await snapshotErrors(`${HEAD}<!-- state-snapshot v1 -->\n\n    ts: 2026-05-04\n    owner: @alice\n`),
    [[9, `${AT('state-snapshot v1', 9, 12)}${RESERVED}`]],
  );
});

test("S1's snapshot block in a blockquote reads as the same block outside one: its fields, lines and checks", async () => {
  const yaml = ['ts: 2026-05-04', 'ctx: wiring the Stop hook', 'next:', '  - fix the hook', '  - run npm test --watch'];
  /** S1's snapshot checks for the block written line by line through `as`, fenced or bare. */
  const said = async (as: (l: string) => string, fenced: boolean) => {
    const lines = ['<!-- state-snapshot v1 -->', ...(fenced ? ['```yaml', ...yaml, '```'] : yaml)];
    const dir = workspace({ 'memory/session-handoff-LATEST.md': HEAD + lines.map(as).join('\n') + '\n' });
    const s = await systemIn(dir, 'S1', { noGit: true });
    return s.checks.filter((c) => c.id.startsWith('snapshot')).map((c) => [c.id, c.status, c.line, c.message]);
  };
  for (const fenced of [true, false]) {
    const plain = await said((l) => l, fenced);
    // The second next item carries a command: its check names the item's line.
    assert.ok(
      plain.some((c) => c[0] === 'snapshot-next' && c[2] === (fenced ? 12 : 11)),
      JSON.stringify(plain),
    );
    assert.ok(!plain.some((c) => String(c[3]).startsWith('The YAML of')), JSON.stringify(plain));
    assert.deepEqual(await said((l) => `> ${l}`, fenced), plain, fenced ? 'fenced' : 'bare');
  }
});

/** The YAML words for an unclosed quote, and for an unclosed bracket, after "line L, column C: ". */
const MISSING =
  'a character is missing there: a closing quote, the `:` after a key, a `,` between the items in brackets, or a space before a `#` comment or after an anchor or tag.';
const UNCLOSED =
  'the indentation there does not fit, or a `[` or `{` above is not closed (the items of one list or mapping start at the same column; the lines inside brackets are indented deeper than their key, up to the closing bracket).';

test('a quote or bracket left open at the end of .agents.yml: check and enable-ledger name the last line, at its end', async () => {
  const cases: Array<[string, number, number, string]> = [
    ['session:\n  ledger: false\nnote: "abc\n', 3, 11, MISSING],
    ["session:\n  ledger: false\nnote: 'abc\n", 3, 11, MISSING],
    ['session:\n  ledger: false\nowners: [alice, bob\n', 3, 20, UNCLOSED],
    ['session: {ledger: false\r\n', 1, 24, UNCLOSED],
    ['session:\n  ledger: false\nnote: "abc\n\n\n', 5, 1, MISSING],
  ];
  for (const [yaml, line, column, words] of cases) {
    const lines = yaml.split('\n').length - 1;
    assert.ok(line <= lines, 'a line the file has');
    const dir = workspace({ '.agents.yml': yaml });
    const check = oneCheck((await systemIn(dir, 'S0', { noGit: true })).checks, 'config');
    assert.deepEqual(
      [check.line, check.message],
      [line, AT('.agents.yml', line, column) + words],
      JSON.stringify(yaml),
    );
    assert.match(check.hint ?? '', new RegExp(`at line ${line},`));
    const o = await planEnableLedger(dir);
    assert.ok(!o.ok);
    assert.equal(
      o.why.text,
      `${AT('.agents.yml', line, column)}${words} Fix the YAML at that line, then enable the ledger again.`,
    );
  }
});

test("a quote left open at the end of S1's snapshot block: the block's last line is named, not its closing fence", async () => {
  for (const [block, line, column] of [
    ['<!-- state-snapshot v1 -->\n```yaml\nts: 2026-05-04\nnote: "abc\n```\n', 9, 11],
    ['> <!-- state-snapshot v1 -->\n> ```yaml\n> ts: 2026-05-04\n> note: "abc\n> ```\n', 9, 13],
    ['<!-- state-snapshot v1 -->\n```yaml\nts: 2026-05-04\nnext: [a, b\n```\n', 9, 12],
  ] as const) {
    const handoff = HEAD + block;
    assert.match(handoff.split('\n')[line - 1], /(?:note|next): /);
    const words = block.includes('[a, b') ? UNCLOSED : MISSING;
    assert.deepEqual(await snapshotErrors(handoff), [[line, `${AT('state-snapshot v1', line, column)}${words}`]]);
  }
});

test("a bracket left open at the end of S2's context-manifest.yaml: its last line is named", async () => {
  const dir = workspace({
    '.claude/session-ledger.md': '## NEXT\nFix the manifest\n',
    'context-manifest.yaml': 'ledger:\n  budget_chars: [5200, 80\n',
  });
  const f = oneCheck((await systemIn(dir, 'S2', { noGit: true })).checks, 'manifest-yaml');
  assert.deepEqual([f.line, f.message], [2, `${AT('context-manifest.yaml', 2, 26)}${UNCLOSED}`]);
});

test("a quote left open at the end of S4's checkpoint front matter: its last line is named, not the closing ---", async () => {
  const dir = fixtureCopy('s4/good');
  const rel = '.agents/checkpoints/2026-03-09-090000.md';
  write(dir, rel, '---\ntimestamp: "2026-03-09T09:00:00Z\n\n---\n\n# Checkpoint\n');
  const f = oneCheck((await systemIn(dir, 'S4', { noGit: true })).checks, 'front-matter');
  assert.deepEqual([f.path, f.line, f.message], [rel, 2, `${AT(rel, 2, 33)}${MISSING}`]);
});
