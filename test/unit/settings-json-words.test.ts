/**
 * A settings file `hooks install` (and uninstall) cannot edit because it is not valid JSON is said in the
 * tool's words: what is wrong there, told from the JSON parser's error code (its code name, such as
 * `PropertyNameExpected`, is never shown), the line and column, and what to do. The command line prints
 * the sentence the extension shows, in English, Japanese and Korean; Claude Code's .claude/settings.json
 * and Codex's .codex/hooks.json alike. An error the parser places past the file's final line break (a
 * bracket never closed) names the file's last line. Real files through the real CLI and plans.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { planHooksInstall, planHooksUninstall } from '../../src/core/hooks/install';
import { hooksProblemText } from '../../src/extension/pure/error-text';
import { cli, enT, HOOK_SCRIPT, jaT, koT, workspace } from './helpers';

/** jsonc-parser's code names: none of them is ever said. */
const CODE_NAMES =
  /InvalidSymbol|InvalidNumberFormat|PropertyNameExpected|ValueExpected|ColonExpected|CommaExpected|CloseBraceExpected|CloseBracketExpected|EndOfFileExpected|InvalidCommentToken|UnexpectedEndOfComment|UnexpectedEndOfString|UnexpectedEndOfNumber|InvalidUnicode|InvalidEscapeCharacter|InvalidCharacter/;

/** Settings text whose first JSON error is of one kind, where the parser names it, and what the tool says is wrong there. */
const CASES: ReadonlyArray<{ text: string; line: number; column: number; words: string }> = [
  {
    text: '{\n  model: "opus"\n}\n',
    line: 2,
    column: 3,
    words:
      'something stands there that JSON does not know: keys and text go in double quotes, and its only words are true, false and null',
  },
  {
    text: '{\n  "model": "opus",,\n  "hooks": {}\n}\n',
    line: 2,
    column: 19,
    words: 'a key in double quotes is expected there (often a comma too many, or a key without its quotes)',
  },
  {
    text: '{\n  "model": "opus",\n  "hooks": {\n    "Stop": [,]\n  }\n}\n',
    line: 4,
    column: 14,
    words: 'a value is expected there: text in double quotes, a number, true, false, null, an object or a list',
  },
  { text: '{\n  "model" "opus"\n}\n', line: 2, column: 11, words: 'the `:` between a key and its value is missing' },
  {
    text: '{\n  "model": "opus"\n  "hooks": {}\n}\n',
    line: 3,
    column: 3,
    words: 'a `,` between two entries is missing',
  },
  {
    text: '{\n  "hooks": {\n    "Stop": []\n  }\n',
    line: 4,
    column: 4,
    words: 'a `}` is missing: an object opened with `{` is not closed',
  },
  {
    text: '{\n  "model": "opus"\n}\n}\n',
    line: 4,
    column: 1,
    words: "something follows the end of the file's content: one `}` or `]` too many, or a second value",
  },
  {
    text: '{\n  "model": "opus" /* old: "sonnet"\n}\n',
    line: 2,
    column: 19,
    words: 'a `/*` comment is not closed with `*/`',
  },
  {
    text: '{\n  "model": "opus\n}\n',
    line: 2,
    column: 12,
    words: 'text in double quotes is not closed on its line',
  },
  {
    text: '{\n  "budget": 1.\n}\n',
    line: 2,
    column: 13,
    words: 'a number ends too early: a digit is missing after its `.` or `e`',
  },
  {
    text: '{\n  "model": "\\u12"\n}\n',
    line: 2,
    column: 12,
    words: 'a `\\u` escape is not followed by four hexadecimal digits',
  },
  {
    text: '{\n  "model": "C:\\opus"\n}\n',
    line: 2,
    column: 12,
    words: 'text in double quotes holds a backslash escape JSON does not know; write `\\\\` for a backslash',
  },
  {
    text: '{\n  "model": "op\tus"\n}\n',
    line: 2,
    column: 12,
    words: 'text in double quotes holds a control character, such as a tab; write it as an escape (`\\t`)',
  },
];

const said = (rel: string, c: { line: number; column: number; words: string }) =>
  `${rel} is not valid JSON at line ${c.line}, column ${c.column}: ${c.words}. Fix it by hand first; nothing was changed.`;

test("hooks install on settings that are not valid JSON: what is wrong in words, its line and column, what to do; never the parser's code name", () => {
  for (const c of CASES) {
    const dir = workspace({ '.claude/settings.json': c.text });
    for (const args of [['--dry-run'], []]) {
      const r = cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT, ...args]);
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.stderr, `session-ledger hooks install: ${said('.claude/settings.json', c)}\n`, c.text);
      assert.doesNotMatch(r.stderr, CODE_NAMES);
    }
    assert.equal(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'), c.text, 'nothing was changed');
    const u = cli(['hooks', 'uninstall', '--root', dir]);
    assert.equal(u.stderr, `session-ledger hooks uninstall: ${said('.claude/settings.json', c)}\n`, c.text);
  }
});

test("Codex's .codex/hooks.json that is not valid JSON: the same words", () => {
  for (const c of CASES) {
    const dir = workspace({ '.codex/hooks.json': c.text });
    const r = cli(['hooks', 'install', '--codex', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.stderr, `session-ledger hooks install: ${said('.codex/hooks.json', c)}\n`, c.text);
  }
});

test('the extension says the same sentence in English, and in Japanese and Korean with no English words left', async () => {
  const settings = path.join('.claude', 'settings.json');
  for (const c of CASES) {
    const plan = await planHooksInstall(workspace({ '.claude/settings.json': c.text }), { cliBundle: HOOK_SCRIPT });
    assert.equal(plan.error, said('.claude/settings.json', c));
    assert.equal(hooksProblemText(enT, settings, plan.problem, plan.error ?? ''), said(settings, c));
    for (const [lang, tr] of [
      ['ja', jaT],
      ['ko', koT],
    ] as const) {
      const text = hooksProblemText(tr, settings, plan.problem, plan.error ?? '');
      assert.ok(text.includes(settings) && text.includes(String(c.line)) && text.includes(String(c.column)), text);
      // What is left once code (in backticks), JSON's own words and the file's name are taken out holds no English.
      const prose = text
        .replace(settings, '')
        .replace(/`[^`]*`/g, '')
        .replace(/\b(?:JSON|true|false|null)\b/g, '');
      assert.doesNotMatch(prose, /[A-Za-z]{3,}/, `${lang}: ${text}`);
    }
  }
});

test('a bracket left open at the end of the file: the line named is the last line, not the one after the final line break', async () => {
  for (const [text, line, column] of [
    ['{"model": "opus"\n', 1, 17],
    ['{\n  "hooks": {\n', 2, 13],
    ['{\r\n  "hooks": {\r\n', 2, 13],
    ['{"model":\n', 1, 10],
  ] as const) {
    const dir = workspace({ '.claude/settings.json': text });
    const lines = text.split('\n').length - 1;
    for (const plan of [await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }), await planHooksUninstall(dir)]) {
      assert.ok(plan.problem?.kind === 'not-json', JSON.stringify(text));
      assert.deepEqual([plan.problem.line, plan.problem.column], [line, column], JSON.stringify(text));
      assert.ok(plan.problem.line <= lines, 'a line the file has');
      assert.match(plan.error ?? '', new RegExp(`at line ${line}, column ${column}: `));
    }
  }
});
