/**
 * "Enable the ledger" (`session-ledger enable-ledger`, the extension's quick fix) on the `.agents.yml` a user
 * wrote: what it shows of the file (the dry run, `--json`'s `after`, the preview's two sides) holds no raw
 * secret, personal data or `!!binary` value, masked as the readers mask them; and the write changes or adds
 * only the line of `session: ledger: true`, every other byte of the file as it was (the YAML library wrote
 * the whole document again: a `!!binary` value re-flowed, quotes, spaces before comments and folded lines
 * changed). A shape no such edit sets is refused with what to add by hand, and nothing is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { enableLedger, planEnableLedger, withLedgerOn } from '../../src/core/systems/s0/enable';
import { maskedYamlText } from '../../src/core/markdown/yaml-tree';
import { s0ConfigOfText } from '../../src/core/systems/s0/reader';
import { assertLinear, fixtureCopy, FIXTURES, jaT, koT, workspace } from './helpers';
import { runIn } from './hostile-helpers';

const read = (dir: string) => readFileSync(path.join(dir, '.agents.yml'), 'utf8');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const KEY = 'sk-ant-api03-Qz7wR4xk9Lm2pAb8vT5yj0Np3qBSc9uU6zi1Oq4rC';
const GITHUB = 'ghp_R8sV2mXq7LzK4pT9wN3bY6cJ1hF5dG0aE8uQ';
const PASSWORD = 'Qz7#wR4$xk9!Lm2pA';
const PEM_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const MAIL = 'jane.doe@acme-corp.de';
const PHONE = '+49 30 1234 5678';
/** The API key with some letters written as YAML escapes (`\x73`): the library decodes it back. */
const ESCAPED = KEY.replace(/[a-z]/g, (c, i: number) => (i % 3 ? c : `\\x${c.charCodeAt(0).toString(16)}`));

const SECRET_YML = `# settings; ask ${MAIL} or ${PHONE}
project: demo
api_key: ${KEY}
github_token: ${GITHUB}
db_password: "${PASSWORD}"
escaped: "${ESCAPED}"
next_line_key: !!str
  ${KEY}
deploy_key: |
  -----BEGIN OPENSSH PRIVATE KEY-----
  ${PEM_BODY}
  -----END OPENSSH PRIVATE KEY-----
blob: !!binary ${b64(KEY)}
block: !!binary |
  ${b64(KEY).slice(0, 40)}
  ${b64(KEY).slice(40)}
? !!binary ${b64('a key as a key')}
: value
session:
  ledger: false
`;

/** What must show nowhere: each secret (or its tail, past what a mask keeps), the personal data, each base64. */
const RAW = [
  KEY.slice(8),
  'Qz7wR4xk9Lm2pA',
  GITHUB.slice(6),
  PASSWORD,
  PEM_BODY.slice(0, 24),
  MAIL,
  PHONE,
  b64(KEY).slice(0, 24),
  b64(KEY).slice(40, 64),
  b64('a key as a key'),
];

function assertNothingRaw(out: string, where: string): void {
  for (const s of RAW) assert.ok(!out.includes(s), `${where} shows ${s}:\n${out}`);
}

test('enable-ledger --dry-run, --json and the plan show .agents.yml with its secrets, personal data and !!binary values masked; the write writes the real bytes', async () => {
  const dir = workspace({ '.agents.yml': SECRET_YML });
  const dry = await runIn(['enable-ledger', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assertNothingRaw(dry.stdout + dry.stderr, 'the dry run');
  // What it shows is the file as it would be: the setting on, the masked values in their places.
  assert.match(dry.stdout, /^ {2}ledger: true$/m);
  assert.match(dry.stdout, /^blob: !!binary … \(72 chars\)$/m);
  assert.match(dry.stdout, /^api_key: sk-a… \(54 chars\)$/m);
  assert.match(dry.stdout, /as it would be \(nothing written\)/);

  const dryJson = await runIn(['enable-ledger', '--root', dir, '--dry-run', '--json']);
  assert.equal(dryJson.code, 0, dryJson.stderr);
  assertNothingRaw(dryJson.stdout, 'the dry run as JSON');
  const j = JSON.parse(dryJson.stdout) as { after: string; written: boolean };
  assert.equal(j.written, false);
  assertNothingRaw(j.after, "the JSON's after (decoded)");
  assert.match(j.after, /^ {2}ledger: true$/m);
  assert.equal(read(dir), SECRET_YML, 'a dry run writes nothing');

  // The preview the extension shows (both sides of its diff) comes from the plan's `shown`.
  const o = await planEnableLedger(dir);
  assert.ok(o.ok);
  assertNothingRaw(o.plan.shown.before, 'the preview before');
  assertNothingRaw(o.plan.shown.after, 'the preview after');
  assert.equal(o.plan.after, SECRET_YML.replace('  ledger: false', '  ledger: true'));

  const written = await runIn(['enable-ledger', '--root', dir, '--json']);
  assert.equal(written.code, 0, written.stderr);
  assertNothingRaw(written.stdout, 'the write as JSON');
  assert.equal((JSON.parse(written.stdout) as { written: boolean }).written, true);
  // The file itself holds its own bytes, the setting on.
  assert.equal(read(dir), SECRET_YML.replace('  ledger: false', '  ledger: true'));
});

test('the preview masks as the readers do: what a shown line holds is the masked value the tree holds', () => {
  const shown = maskedYamlText(SECRET_YML);
  assertNothingRaw(shown, 'maskedYamlText');
  // Lines that hold nothing to mask are shown as written; a block scalar keeps the line break after it.
  assert.ok(shown.startsWith('# settings; ask '));
  assert.match(shown, /^project: demo$/m);
  assert.match(
    shown,
    /^block: !!binary … \(72 chars\)\n\? !!binary … \(20 chars\)\n: value\nsession:\n {2}ledger: false\n$/m,
  );
  assert.match(shown, /^escaped: "sk-a… \(54 chars\)"$/m);
  // A text the library does not read gets the line masker.
  assert.ok(!maskedYamlText(`api_key: ${KEY}\nbroken: [\n`).includes(KEY.slice(8)));
  assert.equal(maskedYamlText(''), '');
});

/**
 * A file written by hand: comments (one after extra spaces), blank lines, quoted strings of both kinds, a
 * flow list with spaces inside, a long folded scalar, a `!!binary` block with lines of 60, four-space
 * indentation, trailing blanks, a value with a tag. Every one of these the library writes otherwise.
 */
const LAYOUT = `# Project settings, edited by hand

project:   "demo"        # quoted, with spaces before the comment
owners: [ alice,  bob ]
motto: 'it''s fine'


description: >-
  A long folded scalar that goes on and on over several lines, so that a serializer writing it again would
  fold it at a width of its own, and joins these lines differently.
icon: !!binary |
  R0lGODlhDAAMAIQAAP//9/X17unp5WZmZgAAAOfn515eXvPz7Y6OjuDg4J+fn5
  OTk6enp56enmleECcgggoBADs=
count: !!int "3"
session:    # the checkpoint's switch
    # where the ledger lives
    ledger_path: ".agents/session_ledger.md"   
    ledger: off   # off for now
    keep:    3
tail: ~
`;

test('enable-ledger writes only the line of the setting: every other byte of a hand-written .agents.yml stays', async () => {
  // An existing value, replaced in place.
  const dir = workspace({ '.agents.yml': LAYOUT });
  await enableLedger(dir);
  assert.equal(read(dir), LAYOUT.replace('    ledger: off   #', '    ledger: true   #'));

  // No `ledger` under `session`: one line below `session:`, at the mapping's indentation.
  const noLedger = LAYOUT.replace('    ledger: off   # off for now\n', '');
  const dir2 = workspace({ '.agents.yml': noLedger });
  const w = await runIn(['enable-ledger', '--root', dir2]);
  assert.equal(w.code, 0, w.stderr);
  assert.equal(
    read(dir2),
    noLedger.replace("# the checkpoint's switch\n", "# the checkpoint's switch\n    ledger: true\n"),
  );

  // No `session`: a block after the last line, indented by the file's own step (four spaces).
  const noSession = LAYOUT.replace(/session:[^]*?tail/, 'tail').replace('tail: ~', 'tail: ~\nnested:\n    a: 1');
  const dir3 = workspace({ '.agents.yml': noSession });
  await enableLedger(dir3);
  assert.equal(read(dir3), `${noSession}session:\n    ledger: true\n`);

  // CRLF line ends and a BOM: each kept, the added line ends as the others.
  const crlf = `\uFEFF${noLedger.replace(/\n/g, '\r\n')}`;
  const dir4 = workspace({ '.agents.yml': crlf });
  await enableLedger(dir4);
  assert.equal(
    read(dir4),
    crlf.replace("# the checkpoint's switch\r\n", "# the checkpoint's switch\r\n    ledger: true\r\n"),
  );
});

test('enable-ledger on the shapes of session: each edited in place, or refused with what to add by hand', async () => {
  const edits: Array<[string, string]> = [
    ['', 'session:\n  ledger: true\n'],
    ['a: 1', 'a: 1\nsession:\n  ledger: true\n'],
    ['# only a comment\n', '# only a comment\nsession:\n  ledger: true\n'],
    ['session:\n', 'session:\n  ledger: true\n'],
    ['session: ~ # later\nz: 1\n', 'session: # later\n  ledger: true\nz: 1\n'],
    ['session: null\r\nz: 1\r\n', 'session:\r\n  ledger: true\r\nz: 1\r\n'],
    ['session:\n  ledger:\n', 'session:\n  ledger: true\n'],
    ['session:\n  ledger: # later\n', 'session:\n  ledger: true # later\n'],
    ['session:\n  ledger: "false"\n', 'session:\n  ledger: true\n'],
    ["session:\n  ledger: 'no'\n", 'session:\n  ledger: true\n'],
    ['session:\n  ledger: !!str off\n', 'session:\n  ledger: true\n'],
    ['session:\n  ledger: &x no\n', 'session:\n  ledger: &x true\n'],
    ['session:\n  ledger:\n    false\n', 'session:\n  ledger:\n    true\n'],
    ['session:\n  ledger: |+\n    no\n\n\nz: 1\n', 'session:\n  ledger: true\n\n\nz: 1\n'],
    ['session: {}\n', 'session: {ledger: true}\n'],
    ['session: { ledger_path: x.md }\n', 'session: { ledger: true, ledger_path: x.md }\n'],
    ['session: {ledger: off}\n', 'session: {ledger: true}\n'],
    ['{project: x}\n', '{session: {ledger: true}, project: x}\n'],
    ['session: &s\n  a: 1\n', 'session: &s\n  ledger: true\n  a: 1\n'],
    ['b: &b\n  ledger: false\nsession:\n  <<: *b\n', 'b: &b\n  ledger: false\nsession:\n  ledger: true\n  <<: *b\n'],
    ['%YAML 1.1\n---\nsession:\n  ledger: off\n', '%YAML 1.1\n---\nsession:\n  ledger: true\n'],
    ['    a: 1\n    b: 2\n', '    a: 1\n    b: 2\n    session:\n      ledger: true\n'],
    // Before the end marker `...`, which ends the document: a line after it would start another.
    ['a: 1\n...\n', 'a: 1\nsession:\n  ledger: true\n...\n'],
    ['a: 1\n# c\n... # end\n# after\n', 'a: 1\n# c\nsession:\n  ledger: true\n... # end\n# after\n'],
    // A document that holds no node: an empty config, as an empty file is.
    ['---\n', '---\nsession:\n  ledger: true\n'],
    ['--- # c', '--- # c\nsession:\n  ledger: true\n'],
    ['...\n', 'session:\n  ledger: true\n...\n'],
    // A first key with an anchor or a tag before it: the mapping's indentation is its line's.
    ['&k a: 1\n', '&k a: 1\nsession:\n  ledger: true\n'],
    ['a: 1\n&s session: ~\n', 'a: 1\n&s session:\n  ledger: true\n'],
    ['session:\n  !!str a: 1\n', 'session:\n  ledger: true\n  !!str a: 1\n'],
    // A null alone on the line below `session:` becomes the setting where it stands.
    ['session:\n  ~\n', 'session:\n  ledger: true\n'],
  ];
  for (const [before, after] of edits) {
    const r = withLedgerOn(before);
    assert.ok(r.ok && !r.already, `${JSON.stringify(before)}: ${r.ok ? 'already' : r.why.text}`);
    assert.equal(r.after, after, JSON.stringify(before));
  }
  const byHand =
    '`session: ledger: true` cannot be set in .agents.yml without changing more of the file than that setting; add it by hand.';
  for (const before of [
    'session:\n  ledger:\n    on: true\n',
    '? session\n: a: 1\n',
    'session: !!null\n  ~\n',
    '%YAML 1.1\n---\n<<: {session: {a: 1}}\n',
  ]) {
    const r = withLedgerOn(before);
    assert.ok(!r.ok, JSON.stringify(before));
    assert.equal(r.why.id, byHand, JSON.stringify(before));
    const dir = workspace({ '.agents.yml': before });
    const cli = await runIn(['enable-ledger', '--root', dir]);
    assert.equal(cli.code, 1);
    assert.equal(cli.stderr, `session-ledger enable-ledger: ${byHand} Nothing was written.\n`);
    assert.equal(read(dir), before);
  }
  assert.notEqual(jaT(byHand), byHand);
  assert.notEqual(koT(byHand), byHand);
  // Data the library cannot make, as check says it.
  const r = withLedgerOn('x: *nowhere\nsession:\n  ledger: false\n');
  assert.ok(!r.ok && r.why.id === '.agents.yml cannot be read: {0}.', r.ok ? 'edited' : r.why.text);
});

test('enable-ledger refuses a session that an alias repeats: the ledger would be set under the alias too', async () => {
  const byHand =
    '`session: ledger: true` cannot be set in .agents.yml without changing more of the file than that setting; add it by hand.';
  for (const before of [
    'session: &s\n  a: 1\nother: *s\n',
    'session: &s\n  ledger: false\nother: *s\n',
    'session: &s {a: 1}\nlist:\n  - *s\n',
  ]) {
    const r = withLedgerOn(before);
    assert.ok(!r.ok, `${JSON.stringify(before)} edited to ${r.ok ? JSON.stringify(r.after) : ''}`);
    assert.equal(r.why.id, byHand, JSON.stringify(before));
    const dir = workspace({ '.agents.yml': before });
    const cli = await runIn(['enable-ledger', '--root', dir]);
    assert.equal(cli.code, 1);
    assert.equal(read(dir), before);
  }
  // An anchor no alias names is edited as before.
  const r = withLedgerOn('session: &s\n  a: 1\nother: 2\n');
  assert.ok(r.ok && r.after === 'session: &s\n  ledger: true\n  a: 1\nother: 2\n');
});

test('an .agents.yml that holds no node (`---`, `...`, comments) is an empty config to check and to enable-ledger, which adds the setting and keeps every byte; a value other than null is no mapping to either', async () => {
  // A BOM, CRLF line ends, a comment on the `---` line, the end marker and a comment after it.
  const before = '\uFEFF--- # settings\r\n# kept\r\n...\r\n# tail\r\n';
  const dir = fixtureCopy('s0/good');
  writeFileSync(path.join(dir, '.agents.yml'), before);
  const checkBefore = await runIn(['check', '--root', dir]);
  assert.match(checkBefore.stdout, /skip +exists +Checkpoint skipped - session\.ledger not enabled in \.agents\.yml/);
  assert.doesNotMatch(checkBefore.stdout, /not a mapping/);
  const w = await runIn(['enable-ledger', '--root', dir]);
  assert.equal(w.code, 0, w.stderr);
  assert.equal(
    readFileSync(path.join(dir, '.agents.yml'), 'utf8'),
    '\uFEFF--- # settings\r\n# kept\r\nsession:\r\n  ledger: true\r\n...\r\n# tail\r\n',
  );
  const checkAfter = await runIn(['check', '--root', dir]);
  assert.match(checkAfter.stdout, /ok +exists +\.agents\/session_ledger\.md exists/);
  assert.doesNotMatch(checkAfter.stdout, / config /);

  // A value that is not null (an empty string, a quoted `~`, a tag that makes a word no null) is not a
  // mapping: check warns, enable-ledger says so. An explicit null is an empty config: agents-yml-null.test.ts.
  const notMapping = '.agents.yml is not a mapping of settings; add `session: ledger: true` by hand.';
  for (const text of ["--- ''\n", '"~"\n', '--- !!null foo\n', '--- |\n']) {
    assert.equal(s0ConfigOfText(text), 'broken', JSON.stringify(text));
    const r = withLedgerOn(text);
    assert.ok(!r.ok && r.why.id === notMapping, `${JSON.stringify(text)}: ${r.ok ? r.after : r.why.text}`);
  }
});

/** Every `.agents.yml` of the fixtures and corpora (../shared/corpus when it is there). */
function agentsFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n === '.agents.yml' || n.endsWith('__.agents.yml')) out.push(p);
    }
  };
  for (const root of [
    FIXTURES,
    path.join(FIXTURES, '..', 'corpus'),
    path.join(FIXTURES, '..', '..', '..', 'shared', 'corpus'),
  ])
    if (existsSync(root)) walk(root);
  return out;
}

/** `after` reads (by the YAML library itself) as `before` with `session.ledger: true`, and only one stretch of bytes changed, no line break of `before` among them. */
function assertOnlyTheSetting(before: string, after: string, where: string): void {
  const data = (parse(before, { maxAliasCount: -1 }) ?? {}) as Record<string, unknown>;
  if (data.session === null || data.session === undefined) data.session = { ledger: true };
  else (data.session as Record<string, unknown>).ledger = true;
  assert.ok(isDeepStrictEqual(parse(after, { maxAliasCount: -1 }), data), `${where}: data differs\n${after}`);
  let p = 0;
  while (p < before.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s])
    s++;
  assert.ok(!/[\r\n]/.test(before.slice(p, before.length - s)), `${where}: a line of the file changed\n${after}`);
}

test('enable-ledger on every .agents.yml of the fixtures and corpora, and on generated shapes: the same data with the ledger on, no other line touched', () => {
  const files = agentsFiles();
  assert.ok(files.length >= 11, `${files.length} files`);
  let edited = 0;
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const r = withLedgerOn(text);
    if (!r.ok) {
      assert.match(r.why.id, /does not parse|^\{0\} Fix the YAML/, `${f}: ${r.why.text}`);
      continue;
    }
    if (r.already) continue;
    assertOnlyTheSetting(text, r.after, f);
    edited++;
  }
  assert.ok(edited >= 4, `${edited} edited`);

  const sessions = [
    'session:\n  ledger: false\n',
    'session:\n  ledger: no # off\n',
    'session:\n  ledger: !!str false\n',
    'session:\n    a: 1\n',
    'session: # c\n  # d\n  a: 1\n',
    'session: { a: 1 }\n',
    'session: ~ # c\n',
    'session:\n',
    'session:\n  x: >-\n    long folded\n    text\n',
    'session:\n  ledger:   false   # c\n',
    'z: 0\n',
    'session:\n  &a a: 1\n',
    'session:\n  ? a\n  : 1\n',
  ];
  const around: Array<(s: string) => string> = [
    (s) => s,
    (s) => `# top\n\n${s}\n# end\n`,
    (s) => `---\n${s}`,
    (s) => s.replace(/\n/g, '\r\n'),
    (s) => `a: 1\r\n${s}`,
    (s) => s.replace(/^/gm, '  ').trimEnd(),
    (s) => `blob: !!binary |\n  aGVsbG8gd29ybGQ=\n${s}`,
    (s) => `t: |+\n  keep\n\n${s}`,
    (s) => `q: "a\n  b"   # folded\n${s}`,
    (s) => s.replace(/\n$/, ''),
    (s) => `${s}...\n# after the end marker\n`,
    (s) => `&k ${s}`,
  ];
  let shapes = 0;
  for (const s of sessions)
    for (const w of around) {
      const text = w(s);
      const r = withLedgerOn(text);
      assert.ok(r.ok, `${JSON.stringify(text)}: ${r.ok ? '' : r.why.text}`);
      if (r.already) continue;
      assertOnlyTheSetting(text, r.after, JSON.stringify(text));
      shapes++;
    }
  assert.equal(shapes, sessions.length * around.length);

  // Documents that hold no node (blanks, comments, directives, `---`, `...`): S0's reader reads each as an
  // empty config (not enabled), and enable-ledger adds the setting, every other byte kept.
  const empties = [
    '',
    '\n',
    '   \n',
    '# only a comment\n',
    '---',
    '---\n',
    '--- \n',
    '--- # c\n',
    '---\n# c\n',
    '# c\n---\n# d\n',
    '...',
    '...\n',
    '... # c\n',
    '---\n...\n',
    '---\n# c\n...\n# after\n',
    '%YAML 1.2\n---\n',
    '%YAML 1.1\n--- # c\n...\n',
  ];
  const emptyAround: Array<(s: string) => string> = [
    (s) => s,
    (s) => s.replace(/\n/g, '\r\n'),
    (s) => `# top\n\n${s}`,
    (s) => `${s}${s.endsWith('\n') || s === '' ? '' : '\n'}# end\n`,
  ];
  let empty = 0;
  for (const s of empties)
    for (const w of emptyAround) {
      const text = w(s);
      assert.equal(s0ConfigOfText(text), 'off', JSON.stringify(text));
      const r = withLedgerOn(text);
      assert.ok(r.ok && !r.already, `${JSON.stringify(text)}: ${r.ok ? 'already' : r.why.text}`);
      assertOnlyTheSetting(text, r.after, JSON.stringify(text));
      assert.equal(s0ConfigOfText(r.after), 'on', JSON.stringify(r.after));
      empty++;
    }
  assert.equal(empty, empties.length * emptyAround.length);
});

test('enable-ledger and its preview take time linear in the file', () => {
  const file = (n: number) =>
    `${Array.from({ length: n }, (_, i) => `k${i}: "v ${i}"   # c\nb${i}: !!binary ${b64(`bytes ${i}`)}\n`).join('')}session:\n  ledger: false\n`;
  assertLinear('withLedgerOn', (t) => withLedgerOn(t), file(600), file(2400));
  assertLinear('maskedYamlText', (t) => maskedYamlText(t), file(600), file(2400));
  // A quoted value with long runs of blanks inside: its end is found without going over each run again.
  const blanks = (n: number) => `api_key: "sk-ant-api03-${'a '.repeat(4) + ' '.repeat(n)}x"\n`;
  assertLinear('maskedYamlText, blanks', (t) => maskedYamlText(t), blanks(20000), blanks(80000));
  const ledgerBlanks = (n: number) => `session:\n  ledger: "${'a '.repeat(4) + ' '.repeat(n)}x"\n`;
  assertLinear('withLedgerOn, blanks', (t) => withLedgerOn(t), ledgerBlanks(20000), ledgerBlanks(80000));
});
