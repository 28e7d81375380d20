/**
 * `.agents.yml` whose document, or whose `session` or `session.ledger`, is an explicit null (`~`, `null`,
 * `Null`, `NULL`, a `!!null` tag, an anchor on nothing): its data is what an empty document's is, so S0 is
 * not enabled there (check, status, SessionStart and the guard answer as for `---`), and `enable-ledger` (its
 * dry run, its `--json` preview and its write) turns it into `session: ledger: true`, every comment kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { withLedgerOn } from '../../src/core/systems/s0/enable';
import { s0ConfigOfText } from '../../src/core/systems/s0/reader';
import { assertLinear, cli, fixtureCopy, gitInit, HOOK_SCRIPT, hookScript } from './helpers';
import { preCompact, sessionStart } from './checkpoint-fixtures';

const CONFIG = '.agents.yml';
const read = (dir: string) => readFileSync(path.join(dir, CONFIG), 'utf8');

/** What each surface says of S0 in `dir` as it is now: check, status --json, SessionStart (startup, clear) and the guard. */
function surfaces(dir: string): Record<string, string> {
  const env = { CLAUDE_PROJECT_DIR: dir, SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: '' };
  const out: Record<string, string> = {};
  const check = cli(['check', '--root', dir], { env });
  out.check = `${check.code}\n${check.stdout}${check.stderr}`;
  const status = cli(['status', '--root', dir, '--json'], { env });
  out.status = `${status.code}\n${status.stdout}${status.stderr}`;
  for (const source of ['startup', 'clear']) {
    const r = hookScript(HOOK_SCRIPT, ['hook', 'session-start'], { cwd: dir, input: sessionStart(dir, source), env });
    out[`session-start ${source}`] = `${r.code}\n${r.stdout}${r.stderr}`;
  }
  const g = hookScript(HOOK_SCRIPT, ['hook', 'pre-compact'], { cwd: dir, input: preCompact(dir), env });
  out.guard = `${g.code}\n${g.stdout}${g.stderr}`;
  return out;
}

/** S0's ledger at its default place, in a git repository, with `config` as `.agents.yml`. */
function s0Workspace(config: string): string {
  const dir = fixtureCopy('s0/good');
  writeFileSync(path.join(dir, CONFIG), config);
  gitInit(dir);
  return dir;
}

test('an .agents.yml that is an explicit null (`~`, `null`, `--- null # comment` …) is S0 not enabled on every surface, as an empty document is', () => {
  const dir = s0Workspace('---\n');
  // Once before: the SessionStart hook records its session, which `status` and `check` then name for /compact.
  surfaces(dir);
  const empty = surfaces(dir);
  assert.match(empty.check, /skip +exists +Checkpoint skipped - session\.ledger not enabled in \.agents\.yml/);
  assert.match(empty.check, /fix: Add `session: ledger: true` to \.agents\.yml .*`session-ledger enable-ledger`/);
  for (const text of [
    '~\n',
    'null\n',
    'Null',
    'NULL\n',
    '--- ~\n',
    '--- null # comment\n',
    '# settings\n~ # none yet\n# more later\n',
    '\uFEFF%YAML 1.2\r\n--- NULL\r\n...\r\n',
    '--- !!null\n',
    '--- &a ~\n',
  ]) {
    writeFileSync(path.join(dir, CONFIG), text);
    const now = surfaces(dir);
    for (const [where, said] of Object.entries(empty))
      assert.equal(now[where], said, `${JSON.stringify(text)}: ${where} differs from an empty document's`);
    assert.doesNotMatch(now.check, /not a mapping/, JSON.stringify(text));
  }
});

test('enable-ledger on an .agents.yml that is an explicit null: the dry run and --json show `session: ledger: true` and write nothing; the write keeps every comment, the BOM and the line ends', () => {
  const before = '\uFEFF# settings\r\n--- null # none yet\r\n# kept\r\n...\r\n# tail\r\n';
  const expected = '\uFEFF# settings\r\n--- # none yet\r\n# kept\r\nsession:\r\n  ledger: true\r\n...\r\n# tail\r\n';
  const dir = s0Workspace(before);
  const dry = cli(['enable-ledger', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^--- # none yet\r?\n# kept\r?\nsession:\r?\n {2}ledger: true\r?\n/m);
  assert.match(dry.stdout, /as it would be \(nothing written\)/);
  const json = cli(['enable-ledger', '--root', dir, '--dry-run', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const j = JSON.parse(json.stdout) as { after: string; written: boolean; already: boolean };
  assert.deepEqual([j.written, j.already], [false, false]);
  assert.equal(j.after, expected.slice(1));
  assert.equal(read(dir), before, 'a dry run writes nothing');
  const w = cli(['enable-ledger', '--root', dir]);
  assert.equal(w.code, 0, w.stderr);
  assert.equal(read(dir), expected);
  assert.match(cli(['check', '--root', dir]).stdout, /ok +exists +\.agents\/session_ledger\.md exists/);

  // Each spelling, edited to the same setting: the null goes (its tag and anchor with it), comments stay.
  const edits: Array<[string, string]> = [
    ['~', 'session:\n  ledger: true\n'],
    ['~\n', 'session:\n  ledger: true\n'],
    ['null\n', 'session:\n  ledger: true\n'],
    ['Null\n', 'session:\n  ledger: true\n'],
    ['NULL\n...\n', 'session:\n  ledger: true\n...\n'],
    ['--- ~\n', '---\nsession:\n  ledger: true\n'],
    ['--- null # comment\n', '--- # comment\nsession:\n  ledger: true\n'],
    ['# a\n~ # b\n# c\n', '# a\n# b\n# c\nsession:\n  ledger: true\n'],
    ['~\r\n# c\r\n', '# c\r\nsession:\r\n  ledger: true\r\n'],
    ['--- !!null\n', '---\nsession:\n  ledger: true\n'],
    ['--- &a ~ # c\n', '--- # c\nsession:\n  ledger: true\n'],
    ['!!null\n~\n', 'session:\n  ledger: true\n'],
    ['%YAML 1.1\n--- ~\n...\n# t\n', '%YAML 1.1\n---\nsession:\n  ledger: true\n...\n# t\n'],
  ];
  for (const [text, after] of edits) {
    const r = withLedgerOn(text);
    assert.ok(r.ok && !r.already, `${JSON.stringify(text)}: ${r.ok ? 'already' : r.why.text}`);
    assert.equal(r.after, after, JSON.stringify(text));
  }

  // Generated: each null word in each place on its line, in each wrapping. Read as not enabled before and
  // enabled after; the data is the setting alone; every line of the file that is not the null's stays, in order.
  const spellings = ['W', '--- W', 'W # c', '--- W # c', '  W  ', '--- !!null W', '--- &x W # c'];
  const around: Array<(s: string) => string> = [
    (s) => `${s}\n`,
    (s) => s,
    (s) => `# top\n\n${s}\n# end\n`,
    (s) => `${s}\n...\n# after the end marker\n`.replace(/\n/g, '\r\n'),
    (s) => `%YAML 1.2\n${s.startsWith('---') ? s : `--- ${s.trimStart()}`}\n`,
  ];
  let n = 0;
  for (const word of ['~', 'null', 'Null', 'NULL'])
    for (const sp of spellings)
      for (const w of around) {
        const text = w(sp.replace('W', word));
        assert.equal(s0ConfigOfText(text), 'off', JSON.stringify(text));
        const r = withLedgerOn(text);
        assert.ok(r.ok && !r.already, `${JSON.stringify(text)}: ${r.ok ? 'already' : r.why.text}`);
        assert.deepEqual(parse(r.after), { session: { ledger: true } }, JSON.stringify(r.after));
        assert.equal(s0ConfigOfText(r.after), 'on', JSON.stringify(r.after));
        const kept = text.split(/\r?\n/).filter((l) => !l.includes(word) && l.trim() !== '');
        let at = 0;
        for (const l of kept) {
          at = r.after.indexOf(l, at);
          assert.ok(at >= 0, `${JSON.stringify(text)}: ${JSON.stringify(l)} lost in ${JSON.stringify(r.after)}`);
        }
        n++;
      }
  assert.equal(n, 4 * spellings.length * around.length);

  // Linear in the file: a null among many comment lines, and one after many blanks on its line.
  const comments = (k: number) => `${'# a comment line\n'.repeat(k)}--- ~ # none\n${'# c\n'.repeat(k)}`;
  assertLinear('withLedgerOn, a null among comments', (t) => withLedgerOn(t), comments(1250), comments(5000));
  const blanks = (k: number) => `${' '.repeat(k)}~${' '.repeat(k)}\n`;
  assertLinear('withLedgerOn, a null among blanks', (t) => withLedgerOn(t), blanks(50000), blanks(200000));

  // A document that is a value other than null stays "not a mapping" to both.
  const notMapping = '.agents.yml is not a mapping of settings; add `session: ledger: true` by hand.';
  for (const text of ["--- ''\n", '"~"\n', '--- !!null foo\n', 'off\n']) {
    assert.equal(s0ConfigOfText(text), 'broken', JSON.stringify(text));
    const r = withLedgerOn(text);
    assert.ok(!r.ok && r.why.id === notMapping, `${JSON.stringify(text)}: ${r.ok ? r.after : r.why.text}`);
  }
});

test('`session` or `session.ledger` that is null: check says the ledger is not enabled and names enable-ledger, which sets it on in place', () => {
  const cases: Array<[string, string]> = [
    ['session: ~\n', 'session:\n  ledger: true\n'],
    ['session: null # later\n', 'session: # later\n  ledger: true\n'],
    ['session:\n  ledger: ~\n', 'session:\n  ledger: true\n'],
    ['session:\n  ledger: NULL # later\n', 'session:\n  ledger: true # later\n'],
    // The null alone on the line below `session:`: it becomes the setting where it stands.
    ['session:\n  ~\n', 'session:\n  ledger: true\n'],
    ['a: 1\nsession:\n    null # later\nb: 2\n', 'a: 1\nsession:\n    ledger: true # later\nb: 2\n'],
    ['session:\r\n  # none yet\r\n  ~\r\n', 'session:\r\n  # none yet\r\n  ledger: true\r\n'],
  ];
  for (const [before, after] of cases) {
    const dir = s0Workspace(before);
    const check = cli(['check', '--root', dir]);
    assert.match(
      check.stdout,
      /skip +exists +Checkpoint skipped - session\.ledger not enabled in \.agents\.yml/,
      before,
    );
    assert.match(
      check.stdout,
      /info config +Never checkpointed: \.agents\/session_ledger\.md is read and checked, but \.agents\.yml does not set `session: ledger: true`\./,
      before,
    );
    assert.match(check.stdout, /fix: .*`session-ledger enable-ledger`/, before);
    const w = cli(['enable-ledger', '--root', dir]);
    assert.equal(w.code, 0, `${JSON.stringify(before)}: ${w.stderr}`);
    assert.equal(read(dir), after, JSON.stringify(before));
    assert.match(cli(['check', '--root', dir]).stdout, /ok +exists +\.agents\/session_ledger\.md exists/, before);
  }
  // A tag on that null (`session: !!null` above it) is not this edit's to move: said, nothing written.
  const byHand =
    '`session: ledger: true` cannot be set in .agents.yml without changing more of the file than that setting; add it by hand.';
  for (const before of ['session: !!null\n  ~\n', 'session:\n  !!null ~\n']) {
    assert.equal(s0ConfigOfText(before), 'off', JSON.stringify(before));
    const dir = s0Workspace(before);
    const w = cli(['enable-ledger', '--root', dir]);
    assert.equal(w.code, 1, JSON.stringify(before));
    assert.equal(w.stderr, `session-ledger enable-ledger: ${byHand} Nothing was written.\n`);
    assert.equal(read(dir), before);
  }
});
