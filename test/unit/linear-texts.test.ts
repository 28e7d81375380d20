/**
 * Whole texts a repository hands the tool besides its state files (git's config, a settings file)
 * are read in time linear in their size, whatever long run of blank lines or blanks they hold: a
 * pattern whose `\s*` crosses line breaks, or two `\s*` side by side, retries from every position of
 * such a run. Each reader is timed on a text with a run of n and of 4n (CPU time, `assertLinear`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitTracks, saysSha256 } from '../../src/core/git/tracked';
import { holdsNoSetting, planHooksInstall } from '../../src/core/hooks/install';
import { sessionStartHook } from '../../src/core/hooks/session-start';
import { sessionStart } from './checkpoint-fixtures';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import { readSnapshot } from '../../src/core/systems/s1/reader-snapshot';
import { parseLedger } from '../../src/core/systems/s2/reader-ledger';
import { Workspace } from '../../src/core/model/workspace';
import { assertLinear, assertLinearAsync, gitInit, HOOK_SCRIPT, systemIn, workspace } from './helpers';

test("whether git tracks a file is known in time linear in the blank lines of the repository's config (n vs 4n)", async () => {
  // `^\s*objectformat…$` (multiline) scanned a run of blank lines again from each of its lines.
  const repo = (blankLines: number) => {
    const dir = workspace({ 'a.md': 'x\n' });
    gitInit(dir);
    const config = path.join(dir, '.git', 'config');
    writeFileSync(config, `${'\n'.repeat(blankLines)}${readFileSync(config, 'utf8')}`);
    return path.join(dir, 'a.md');
  };
  const [small, big] = [repo(25_000), repo(100_000)];
  assert.equal(await gitTracks(small), true);
  await assertLinearAsync(
    'gitTracks',
    gitTracks,
    small,
    big,
    (f) => readFileSync(path.join(path.dirname(f), '.git', 'config')).length,
  );
  // The rule itself: the key at a line's start (blanks before it allowed), its value, a comment after.
  assert.equal(saysSha256('[extensions]\n\tobjectformat = sha256\n'), true);
  assert.equal(saysSha256(`${'\n'.repeat(5)}  objectFormat = "SHA256" ; set by git init\r\n`), true);
  assert.equal(saysSha256('[extensions]\n\tobjectformat = sha1\n'), false);
  assert.equal(saysSha256('[x]\n\tname = objectformat = sha256\n'), false);
});

test('hooks install reads a settings file in time linear in the blanks before its object (n vs 4n)', async () => {
  // /^\s*(?:\{\s*\})?\s*$/ (a file that holds no setting) split leading blanks between its first and last \s*.
  const settings = (blanks: string) => workspace({ '.claude/settings.json': `${blanks}{"permissions": {}}\n` });
  const [small, big] = [settings(' '.repeat(25_000)), settings(' '.repeat(100_000))];
  const plan = (dir: string) => planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.equal((await plan(small)).error, undefined);
  await assertLinearAsync(
    'planHooksInstall',
    plan,
    small,
    big,
    (d) => readFileSync(path.join(d, '.claude/settings.json')).length,
  );
  // Blank, or an empty object however it is spaced, holds no setting; anything else does.
  for (const t of ['', ' \n', '{}', ' {\n\t}\r\n', '\ufeff{ }\u2028'])
    assert.equal(holdsNoSetting(t), true, JSON.stringify(t));
  for (const t of ['{"a": 1}', '[]', '{} {}', 'x']) assert.equal(holdsNoSetting(t), false, JSON.stringify(t));
});

test('SessionStart hands over a next action in time linear in the HTML comments it opens and never closes (n vs 4n)', async () => {
  // /<!--(?:[^-]|-[^-]|--[^>])*-->/ scanned to the end again from each `<!--` that no `-->` closes.
  const ledger = (next: string) =>
    workspace({
      '.claude/session-ledger.md': `# Session Ledger\n\n## TASK\nShip the export.\n\n## NEXT\n${next}\n\n## OPEN\n- None\n`,
    });
  const hook = async (dir: string) =>
    (await sessionStartHook(sessionStart(dir, 'compact'), { root: dir })).stdout ?? '';
  for (const unit of ['<!--', '<!--- ', '`<!--` ']) {
    const next = (k: number) => `Stream rows ${unit.repeat(k / unit.length)} into src/export/csv.ts`;
    const [small, big] = [ledger(next(20_000)), ledger(next(80_000))];
    assert.match(await hook(small), /Stream rows/);
    await assertLinearAsync(`sessionStartHook ${JSON.stringify(unit)}`, hook, small, big, (d) =>
      d === small ? 20_000 : 80_000,
    );
  }
  // A comment closes at the first `>` after a run of 3k+2 dashes (`-->`, `----->`), as markdown-it reads it.
  const said = async (next: string) => {
    const out = JSON.parse(await hook(ledger(next))) as { hookSpecificOutput: { additionalContext: string } };
    return out.hookSpecificOutput.additionalContext.split('\n').find((l) => l.includes('Next action')) ?? '';
  };
  assert.match(await said('run <!-- a --> npm test <!-- b -----> now'), /Next action: run\s+npm test\s+now$/);
  assert.match(await said('run <!-- a ---> npm test'), /Next action: run <!-- a ---> npm test$/);
});

test("S1's snapshot block is found in time linear in marker openings no comment closes, and in blanks on its marker line (n vs 4n)", () => {
  // `<!--\s*state-snapshot\s+v1\b[^>]*-->` scanned to the first `>` again from each opening; `v1\b.*\s*$`
  // scanned the blanks `.*` gave back once more for each, when a U+2028 stopped `.*` short of the end.
  const handoffs: Array<[string, number, (k: number) => string]> = [
    ['openings in an HTML block', 40_000, (k) => `# Handoff\n\n${'<!-- state-snapshot v1 '.repeat(k / 23)}\n`],
    [
      'openings, then a late >',
      40_000,
      (k) => `# Handoff\n\n<div>\n${'<!-- state-snapshot v1 x'.repeat(k / 24)} -- >\n</div>\n`,
    ],
    [
      'blanks on the marker line',
      8_000,
      (k) => `# Handoff\n\n\`\`\`yaml\n# state-snapshot v1${' '.repeat(k)}\u2028x\nts: 1\n\`\`\`\n`,
    ],
  ];
  const read = (text: string) => readSnapshot(parseMarkdown(text));
  for (const [name, n, text] of handoffs) assertLinear(name, read, text(n), text(4 * n));
  assert.equal(read('# H\n\n<!-- state-snapshot v1 x -- y -->\n\n```yaml\nts: 1\n```\n')?.info.shape, 'mapping');
  assert.equal(read('# H\n\n```yaml\n# state-snapshot v1   \u2028  \nts: 1\n```\n')?.info.shape, 'mapping');
  assert.equal(read('# H\n\n```yaml\n# state-snapshot v1 \u2028x\nts: 1\n```\n'), null);
});

test("S2's manifest stores are checked in time linear in the depth of their paths (n vs 4n)", async () => {
  // The folder before a glob kept each segment by testing every segment up to it, and whether a path
  // stays inside the workspace went up one folder at a time, realpath and dirname on each.
  const manifest = (store: string) =>
    workspace({
      '.claude/session-ledger.md':
        '# Session Ledger\n\n## TASK\nShip it.\n\n## NEXT\nRun `npm test` in src/.\n\n## OPEN\n- None\n',
      'context-manifest.yaml': `version: 1\nledger:\n  path: .claude/session-ledger.md\ncompaction:\n  checkpoint:\n    durable_context:\n      project_state: ${store}\n      knowledge_docs:\n        - ${store}/*.md\n`,
    });
  const store = (k: number) => `${'a/'.repeat(k / 2)}b.md`;
  const [small, big] = [manifest(store(8_000)), manifest(store(32_000))];
  const checks = async (dir: string) => (await systemIn(dir, 'S2')).checks;
  assert.ok((await checks(small)).some((c) => c.id === 'stale-paths' && c.status === 'warn'));
  await assertLinearAsync('S2 check', checks, small, big, (d) => store(d === small ? 8_000 : 32_000).length);
});

test('a path a state file names is placed inside or outside the workspace in time linear in its depth (n vs 4n)', async () => {
  // The nearest folder that exists was looked for one folder up at a time, each a realpath of the whole
  // path so far: a Working Set or Docs touched path of 100,000 folders held check 5.6-10.5 s.
  const dir = workspace({ 'a/a/b.md': 'x\n' });
  const ws = new Workspace(dir);
  const deep = (k: number) => `${'a/'.repeat(k / 2)}b.md`;
  assert.equal(await ws.inside(deep(40_000)), true);
  await assertLinearAsync(
    'Workspace.inside',
    (rel: string) => ws.inside(rel),
    deep(50_000),
    deep(200_000),
    (r) => r.length,
  );
  symlinkSync(os.tmpdir(), path.join(dir, 'a', 'out'));
  assert.equal(await ws.inside(`a/out/${deep(40_000)}`), false);
  assert.equal(await ws.inside('a/a/b.md/c'), true);
});

test("S3's debt check compares defer: markers with DEBT.md's ids and paths in time linear in both (n vs 4n)", async () => {
  // Each marker compiled /\bDEBT-n\b/ for every line of DEBT.md: markers × lines.
  const state = (k: number) =>
    workspace({
      'docs/state/STATE.md': `# STATE\n\n## Handoff: read this first\n\n- **Now ▶** run \`npm test\`\n\n${Array.from({ length: k }, (_, i) => `- defer: DEBT-${i}`).join('\n')}\n\n## Log\n`,
      'docs/state/DEBT.md': `# DEBT\n\n| ID | what |\n|---|---|\n${Array.from({ length: k }, (_, i) => `| DEBT-${i + 1_000_000} | a line |`).join('\n')}\n`,
    });
  const [small, big] = [state(1_000), state(4_000)];
  const debt = async (dir: string) => (await systemIn(dir, 'S3')).checks.filter((c) => c.id === 'debt');
  assert.match((await debt(small)).at(-1)?.message ?? '', /995 more/);
  const size = (d: string) =>
    ['docs/state/STATE.md', 'docs/state/DEBT.md'].reduce((n, f) => n + readFileSync(path.join(d, f)).length, 0);
  await assertLinearAsync('S3 check', debt, small, big, size);
});

test("S3's debt check matches defer: markers with DEBT.md's lines by their words in time linear in both (n vs 4n)", async () => {
  // Each marker's words were looked for in every line of DEBT.md: markers × lines, however few lines
  // share a word with it. Here every line shares one word (`later`) with every marker, and none holds
  // enough of a marker's words to be its line.
  const state = (k: number) =>
    workspace({
      'docs/state/STATE.md': `# STATE\n\n## Handoff: read this first\n\n- **Now ▶** run \`npm test\`\n\n${Array.from({ length: k }, (_, i) => `- defer: retry uploads later m${i}aa n${i}bb`).join('\n')}\n\n## Log\n`,
      'docs/state/DEBT.md': `# DEBT\n\n| ID | what |\n|---|---|\n${Array.from({ length: k }, (_, i) => `| DEBT-${i} | later: row${i}xx |`).join('\n')}\n`,
    });
  const [small, big] = [state(1_500), state(6_000)];
  const debt = async (dir: string) => (await systemIn(dir, 'S3')).checks.filter((c) => c.id === 'debt');
  assert.match((await debt(small)).at(-1)?.message ?? '', /^1495 more `defer:` markers without a line/);
  const size = (d: string) =>
    ['docs/state/STATE.md', 'docs/state/DEBT.md'].reduce((n, f) => n + readFileSync(path.join(d, f)).length, 0);
  await assertLinearAsync('S3 check, words', debt, small, big, size);
});

test("S2's ledger is read in time linear in its NEXT sections (n vs 4n)", () => {
  // The lines of the HTML blocks were gathered again for each NEXT section.
  const ledger = (k: number) => `# Session Ledger\n\n${'## NEXT\n<!-- c -->\n'.repeat(k / 19)}`;
  const read = (text: string) => parseLedger(text, parseMarkdown(text));
  assertLinear('parseLedger', read, ledger(20_000), ledger(80_000));
  assert.equal(read('# L\n\n## NEXT\n<!-- a\nb -->\nrun it\n\n## NEXT\n\nand this\n').meta?.nextLineCount, 2);
});
