/**
 * A YAML file that does not parse is said in the tool's words: what is wrong, told from the YAML
 * library's error code (its English message is never quoted), the file, the line and the column, and
 * what to do. Real broken YAML through the real readers (`.agents.yml`, S1's snapshot block, S2's
 * context-manifest.yaml, S4's checkpoint front matter, enable-ledger), in English, Japanese and Korean.
 * What is refused or read is unchanged: only the words are the tool's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseAgentsYml } from '../../src/core/systems/s0/reader';
import { planEnableLedger } from '../../src/core/systems/s0/enable';
import { fixtureCopy, jaT, koT, oneCheck, systemIn, workspace, write } from './helpers';

const AT = (where: string, line: number, column: number) =>
  `The YAML of ${where} does not parse at line ${line}, column ${column}: `;

/**
 * For each error code with words of its own: `.agents.yml` text whose first error the library gives
 * that code, where it names it, and what the tool says is wrong there.
 */
const CASES: ReadonlyArray<{ code: string; yaml: string; line: number; column: number; words: string }> = [
  {
    code: 'BAD_INDENT',
    yaml: 'session:\n  ledger: true\n ledger_path: notes/ledger.md\n',
    line: 3,
    column: 1,
    words:
      'the indentation there does not fit, or a `[` or `{` above is not closed (the items of one list or mapping start at the same column; the lines inside brackets are indented deeper than their key, up to the closing bracket).',
  },
  {
    code: 'TAB_AS_INDENT',
    yaml: 'session:\n\tledger: true\n',
    line: 2,
    column: 1,
    words: 'a tab indents the line; YAML indents with spaces only.',
  },
  {
    code: 'MISSING_CHAR',
    yaml: 'session:\n  ledger: true\nnote: "see the wiki"# old\n',
    line: 3,
    column: 21,
    words:
      'a character is missing there: a closing quote, the `:` after a key, a `,` between the items in brackets, or a space before a `#` comment or after an anchor or tag.',
  },
  {
    code: 'DUPLICATE_KEY',
    yaml: 'session:\n  ledger: true\n  ledger: false\n',
    line: 3,
    column: 3,
    words: 'a key stands twice in one mapping; each key may stand there once.',
  },
  {
    code: 'UNEXPECTED_TOKEN',
    yaml: 'session:\n  ledger: true\n]\n',
    line: 3,
    column: 1,
    words:
      'something stands there that YAML does not expect at that place, such as a closing bracket without its opening one, a stray comma, or a `-` on the line of a key.',
  },
  {
    code: 'BLOCK_AS_IMPLICIT_KEY',
    yaml: 'session:\n  ledger: on: true\n',
    line: 2,
    column: 11,
    words:
      'a mapping or list starts on a line where only a plain value may stand (as in `a: b: c`); put it on the lines below its key, indented, or quote the value.',
  },
  {
    code: 'MULTILINE_IMPLICIT_KEY',
    yaml: 'session\n  ledger: true\n',
    line: 1,
    column: 1,
    words:
      'a key runs over more than one line; a key stands on one line and ends with `:` (often a line above lacks its `:`, or a quote above is not closed).',
  },
  {
    code: 'BAD_SCALAR_START',
    yaml: 'session:\n  ledger: true\n  owner: @alice\n',
    line: 3,
    column: 10,
    words: 'a value starts with a character YAML reserves (such as `@` or a backquote); put the value in quotes.',
  },
  {
    code: 'BAD_DQ_ESCAPE',
    yaml: 'session:\n  ledger: true\nnote: "C:\\qa"\n',
    line: 3,
    column: 10,
    words:
      'a double-quoted value holds a backslash escape YAML does not know; write `\\\\` for a backslash, or use single quotes.',
  },
  {
    code: 'BLOCK_IN_FLOW',
    yaml: 'session: {ledger: - true}\n',
    line: 1,
    column: 19,
    words:
      'a list or mapping written line by line (`- item`, `key: value`) stands inside `[…]` or `{…}`; inside brackets, separate the items with commas.',
  },
  {
    code: 'MULTIPLE_DOCS',
    yaml: 'session:\n  ledger: true\n---\nreview: strict\n',
    line: 3,
    column: 1,
    words: 'it holds more than one YAML document (a `---` line between them); keep one.',
  },
  {
    code: 'KEY_OVER_1024_CHARS',
    yaml: `"${'k'.repeat(1100)}": 1\nsession:\n  ledger: true\n`,
    line: 1,
    column: 1,
    words: 'a key is over 1024 characters long; YAML reads no key that long, so write a shorter one.',
  },
  // A code without words of its own (two anchors on one node): the general sentence, its line and column kept.
  {
    code: 'MULTIPLE_ANCHORS',
    yaml: 'session: &a &b\n  ledger: true\n',
    line: 1,
    column: 13,
    words: 'the text there is not valid YAML.',
  },
];

test(".agents.yml that does not parse: check says what is wrong in the tool's words for each error code, with the line and column, and what to do; never the library's English", async () => {
  for (const c of CASES) {
    // The library's own words for this error, as the reader records them (never shown).
    const issue = (parseAgentsYml(c.yaml).meta?.issues as Array<{ code?: string; error?: string }>)[0];
    const dir = workspace({ '.agents.yml': c.yaml });
    const check = oneCheck((await systemIn(dir, 'S0', { noGit: true })).checks, 'config');
    assert.deepEqual([check.status, check.severity, check.path, check.line], ['fail', 'block', '.agents.yml', c.line]);
    assert.equal(check.message, AT('.agents.yml', c.line, c.column) + c.words, c.code);
    assert.ok(issue.error && !check.message.includes(issue.error), `${c.code}: the library's words are not quoted`);
    assert.equal(issue.code, c.code, `${c.code}: the library's code for this text`);
    assert.equal(
      check.hint,
      `Fix the YAML of .agents.yml at line ${c.line}, then run \`session-ledger check\`; until then the checkpoint cannot read session.ledger.`,
    );
    // In Japanese and Korean: the catalogue's sentence, the file, line and column in it, no English left.
    for (const [lang, tr] of [
      ['ja', jaT],
      ['ko', koT],
    ] as const) {
      const said = tr(check.messageId ?? '', ...check.args);
      assert.notEqual(said, check.message, `${lang} ${c.code}: translated`);
      assert.ok(
        said.includes('.agents.yml') && said.includes(String(c.line)) && said.includes(String(c.column)),
        `${lang} ${c.code}: ${said}`,
      );
      assert.notEqual(tr(check.hintId ?? '', ...(check.hintArgs ?? [])), check.hint, `${lang} ${c.code}: the hint`);
    }
  }
});

test('enable-ledger on an .agents.yml that does not parse: the same words, then what to do; nothing is planned', async () => {
  for (const c of CASES) {
    const o = await planEnableLedger(workspace({ '.agents.yml': c.yaml }));
    assert.ok(!o.ok, c.code);
    assert.equal(
      o.why.text,
      `${AT('.agents.yml', c.line, c.column)}${c.words} Fix the YAML at that line, then enable the ledger again.`,
    );
    // The extension renders the sentence inside it in the user's language too.
    const inner = o.why.parts?.[0];
    assert.ok(inner && jaT(inner.id, ...inner.args) !== inner.text, c.code);
    assert.notEqual(jaT(o.why.id, ...o.why.args), o.why.text);
  }
});

test("S1's snapshot block that does not parse: its line and column in the handoff, and what to do", async () => {
  const dir = fixtureCopy('s1/good');
  const file = path.join(dir, 'memory/session-handoff-LATEST.md');
  const good = readFileSync(file, 'utf8');
  write(dir, 'memory/session-handoff-LATEST.md', good.replace('ts: 2026-05-04', 'ts: 2026-05-04\nowner: @alice'));
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((l) => l === 'owner: @alice') + 1;
  const s = await systemIn(dir, 'S1', { noGit: true });
  const snap = s.checks.filter((c) => c.id === 'snapshot');
  assert.deepEqual(
    snap.map((c) => [c.status, c.line, c.message, c.hint]),
    [
      [
        'warn',
        line,
        `${AT('state-snapshot v1', line, 8)}a value starts with a character YAML reserves (such as \`@\` or a backquote); put the value in quotes.`,
        `Fix the YAML of the state-snapshot v1 block at line ${line}, then run \`session-ledger check\`.`,
      ],
    ],
  );
  // A block inside a list item: the column is the document line's, indentation included.
  write(
    dir,
    'memory/session-handoff-LATEST.md',
    '# Session Handoff\n\n- <!-- state-snapshot v1 -->\n  ```yaml\n  ts: 2026-05-04\n  owner: @alice\n  ```\n',
  );
  const nested = (await systemIn(dir, 'S1', { noGit: true })).checks.filter(
    (c) => c.id === 'snapshot' && c.message.startsWith('The YAML of'),
  );
  assert.deepEqual(
    nested.map((c) => [c.line, c.message.slice(0, AT('state-snapshot v1', 6, 10).length)]),
    [[6, AT('state-snapshot v1', 6, 10)]],
  );
});

test("S2's context-manifest.yaml that does not parse: the tool's words, line and column, and what to do", async () => {
  const dir = workspace({
    '.claude/session-ledger.md': '## NEXT\nFix the manifest\n',
    'context-manifest.yaml': 'ledger:\n  budget_chars: 5200\n\tmax_lines: 80\n',
  });
  const f = oneCheck((await systemIn(dir, 'S2', { noGit: true })).checks, 'manifest-yaml');
  assert.deepEqual(
    [f.status, f.line, f.message, f.hint],
    [
      'warn',
      3,
      `${AT('context-manifest.yaml', 3, 1)}a tab indents the line; YAML indents with spaces only.`,
      'Fix the YAML of context-manifest.yaml at line 3, then run `session-ledger check`; until then the checkpoint guesses the durable stores.',
    ],
  );
});

test("S4's checkpoint front matter that does not parse: the file's own line and column of the error", async () => {
  const dir = fixtureCopy('s4/good');
  const rel = '.agents/checkpoints/2026-03-09-090000.md';
  write(dir, rel, '---\ntimestamp: 2026-03-09T09:00:00Z\ntimestamp: 2026-03-09T10:00:00Z\n---\n\n# Checkpoint\n');
  const f = oneCheck((await systemIn(dir, 'S4', { noGit: true })).checks, 'front-matter');
  assert.deepEqual(
    [f.status, f.path, f.line, f.message, f.hint],
    [
      'warn',
      rel,
      3,
      `${AT(rel, 3, 1)}a key stands twice in one mapping; each key may stand there once.`,
      'Let the checkpointing script rewrite it; never edit a checkpoint by hand.',
    ],
  );
});
