import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, SystemReport } from '../../src/core/model/model';
import { FACTS } from '../../src/core/systems/facts';
import { S0_SKIPPED } from '../../src/core/systems/s0/reader';
import {
  checksWith,
  cli,
  fixtureCopy,
  FIXTURES,
  gitInit,
  lineOf,
  oneCheck,
  workspace,
  write,
  YAML_ALIAS_BOMB,
} from './helpers';

const NOW = Date.UTC(2026, 4, 5);

async function s0(dir: string, opts: { noGit?: boolean; confirmed?: string[] } = {}): Promise<SystemReport> {
  const r = await evaluate(dir, { now: NOW, noGit: opts.noGit ?? true, confirmed: opts.confirmed });
  const s = r.systems.find((x) => x.id === 'S0');
  assert.ok(s, `S0 not detected in ${dir}: ${JSON.stringify(r.systems.map((x) => x.id))}`);
  return s;
}

const only = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);
const all = (s: SystemReport, id: string): Check[] => checksWith(s.checks, id);
const fixture = (name: string): string => fixtureCopy(`s0/${name}`);

const LEDGER = '.agents/session_ledger.md';

test('S0 good ledger: sections, UNCONFIRMED items, next action, every check passes in a real git repo', async () => {
  const dir = fixture('good');
  gitInit(dir);
  const file = path.join(dir, LEDGER);
  const s = await s0(dir, { noGit: false, confirmed: ['feedback-stored', 'last-request'] });
  assert.equal(s.home, LEDGER);
  const ledger = s.docs.find((d) => d.role === 'ledger');
  assert.ok(ledger);
  assert.deepEqual(
    ledger.sections.map((x) => [x.key, x.title]),
    [
      ['title', 'Session Ledger'],
      ['goal', 'Goal'],
      ['constraints', 'Constraints/Assumptions'],
      ['decisions', 'Key Decisions'],
      ['state', 'State'],
      ['done', 'Done'],
      ['now', 'Now'],
      ['next', 'Next'],
      ['open', 'Open Questions'],
      ['working-set', 'Working Set'],
    ],
  );
  assert.ok(ledger.sections.find((x) => x.key === 'done')?.items.every((i) => i.flags.includes('done')));
  assert.deepEqual(
    s.unconfirmed.map((i) => i.line),
    [lineOf(file, 'Dates are exported in UTC'), lineOf(file, 'Should totals include tax?')],
  );
  assert.equal(s.next, 'Wire `exportCsv()` into the Export button in src/invoices.ts and pass the current filter.');
  assert.equal(
    s.resumePrompt,
    `Read ${LEDGER}, validate its UNCONFIRMED items with me first, then continue from the Now section.`,
  );
  for (const id of [
    'exists',
    'not-skeleton',
    'next-action',
    'pending-recorded',
    'fresh',
    'work-explained',
    'stale-paths',
    'timestamp',
    'no-secrets',
  ]) {
    assert.equal(only(s, id).status, 'pass', `${id}: ${only(s, id).message}`);
  }
  assert.equal(only(s, 'next-action').line, lineOf(file, 'Wire `exportCsv()`'));
  assert.equal(only(s, 'timestamp').line, 3);
  const unc = all(s, 'unconfirmed');
  assert.deepEqual(
    unc.map((c) => [c.severity, c.status, c.line]),
    [
      ['info', 'warn', lineOf(file, 'Dates are exported in UTC')],
      ['info', 'warn', lineOf(file, 'Should totals include tax?')],
    ],
  );
  assert.ok(
    // The row leads with what it is, as every finding row does (the item's text follows).
    unc.every((c) => c.message.startsWith('Unconfirmed: ')),
    unc[0].message,
  );
  assert.equal(s.label, 'WORKING');
  // The config is read too: its session block, with lines.
  const cfg = s.docs.find((d) => d.role === 'config');
  assert.deepEqual(
    cfg?.sections[0].items.map((i) => [i.text, i.line]),
    [
      ['ledger: true', 7],
      ['ledger_path: ".agents/session_ledger.md"', 8],
    ],
  );
});

test('S0 module facts: thresholds 70/85 from the seed, the skill as trigger, watch globs', () => {
  assert.deepEqual(FACTS.S0.thresholds, { propose: 70, urgent: 85 });
  assert.match(FACTS.S0.checkpointTrigger, /session-checkpoint/);
  assert.ok(FACTS.S0.presence.includes('.agents.yml') && FACTS.S0.presence.includes(LEDGER));
});

test('S0 through the CLI: status --json carries sections, next and checks; check exits 0/1', () => {
  const dir = fixture('good');
  const r = cli(['status', '--root', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const s = j.systems.find((x: { id: string }) => x.id === 'S0');
  assert.equal(s.next, 'Wire `exportCsv()` into the Export button in src/invoices.ts and pass the current filter.');
  const ledger = s.docs.find((d: { path: string }) => d.path === LEDGER);
  assert.deepEqual(
    ledger.sections.map((x: { key: string }) => x.key),
    ['title', 'goal', 'constraints', 'decisions', 'state', 'done', 'now', 'next', 'open', 'working-set'],
  );
  const open = ledger.sections.find((x: { key: string }) => x.key === 'open');
  assert.deepEqual(
    open.items.map((i: { flags: string[] }) => i.flags),
    [['unconfirmed'], []],
  );
  const ids = s.checks.map((c: { id: string }) => c.id);
  for (const id of [
    'exists',
    'not-skeleton',
    'next-action',
    'pending-recorded',
    'timestamp',
    'unconfirmed',
    'stale-paths',
    'no-secrets',
  ])
    assert.ok(ids.includes(id), id);
  // The session's manual items once, beside the systems: no system's checks repeat them.
  assert.deepEqual(
    j.sessionChecks.map((c: { id: string; status: string }) => [c.id, c.status]),
    [
      ['feedback-stored', 'manual-open'],
      ['last-request', 'manual-open'],
    ],
  );
  assert.ok(!ids.includes('feedback-stored') && !ids.includes('last-request'));
  assert.equal(cli(['check', '--root', dir, '--confirm', 'feedback-stored,last-request']).code, 0);
  assert.equal(cli(['check', '--root', fixture('missing-ledger')]).code, 1);
});

test('S0 untouched seed template: skeleton, placeholder next action and timestamp; the template UNCONFIRMED is not an item to validate', async () => {
  const dir = fixture('template');
  const file = path.join(dir, LEDGER);
  const s = await s0(dir);
  assert.equal(only(s, 'not-skeleton').status, 'fail');
  assert.equal(only(s, 'next-action').status, 'fail');
  assert.equal(only(s, 'next-action').line, lineOf(file, '<planned next step>'));
  assert.equal(only(s, 'timestamp').status, 'warn');
  assert.match(only(s, 'timestamp').message, /placeholder/);
  assert.equal(only(s, 'pending-recorded').status, 'warn');
  assert.equal(only(s, 'unconfirmed').status, 'pass');
  assert.deepEqual(s.unconfirmed, []);
  assert.equal(only(s, 'stale-paths').status, 'skipped');
  assert.equal(s.label, 'BROKEN');
  assert.equal(s.resumePrompt, `Read ${LEDGER} and continue from the Next section.`);
});

test('S0 switched off: session.ledger false, or the session block commented out → skipped with the seed text', async () => {
  for (const name of ['disabled', 'commented']) {
    const s = await s0(fixture(name));
    assert.deepEqual(
      s.checks.map((c) => [c.id, c.status, c.message]),
      [['exists', 'skipped', S0_SKIPPED]],
      name,
    );
    assert.equal(S0_SKIPPED, 'Checkpoint skipped - session.ledger not enabled in .agents.yml');
    assert.equal(s.label, 'WORKING');
  }
});

test('S0 enabled but never written: exists fails at the configured path', async () => {
  const s = await s0(fixture('missing-ledger'));
  assert.deepEqual([only(s, 'exists').status, only(s, 'exists').path], ['fail', LEDGER]);
  assert.equal(s.label, 'BROKEN');
});

test('S0 .agents.yml that does not parse: a blocking config finding with its line, nothing throws', async () => {
  const s = await s0(fixture('bad-yaml'));
  const c = only(s, 'config');
  assert.deepEqual([c.severity, c.status, c.path], ['block', 'fail', '.agents.yml']);
  assert.equal(c.line, 5);
  assert.match(c.message, /^The YAML of \.agents\.yml does not parse at line 5, column 1: /);
  assert.equal(s.label, 'BROKEN');
});

test('S0 session.ledger_path is honoured', async () => {
  const s = await s0(fixture('custom-path'));
  assert.equal(s.home, 'notes/ledger.md');
  assert.ok(s.docs.some((d) => d.relPath === 'notes/ledger.md' && d.role === 'ledger'));
  assert.equal(only(s, 'exists').status, 'pass');
  assert.match(s.resumePrompt, /^Read notes\/ledger\.md, validate its UNCONFIRMED items/);
});

test('S0 ledger present while session.ledger is off: checked anyway, with an info note', async () => {
  const s = await s0(fixture('off-with-ledger'));
  // not a failure: skipped with the seed's skip line
  assert.deepEqual([only(s, 'exists').status, only(s, 'exists').message], ['skipped', S0_SKIPPED]);
  assert.deepEqual([only(s, 'config').severity, only(s, 'config').status], ['info', 'warn']);
  assert.equal(only(s, 'next-action').status, 'pass');
});

test('S0 each rule broken: vague Now, no Open Questions, no timestamp, stale Working Set files', async () => {
  let dir = fixture('vague-now');
  let s = await s0(dir);
  assert.deepEqual(
    [only(s, 'next-action').status, only(s, 'next-action').line],
    ['fail', lineOf(path.join(dir, LEDGER), 'continue work')],
  );
  assert.equal(s.next, 'continue work');

  s = await s0(fixture('no-open'));
  assert.equal(only(s, 'pending-recorded').status, 'warn');
  assert.match(only(s, 'pending-recorded').message, /Open Questions/);

  s = await s0(fixture('no-timestamp'));
  assert.deepEqual([only(s, 'timestamp').status, only(s, 'timestamp').line], ['warn', 1]);

  dir = fixture('stale-files');
  s = await s0(dir);
  const stale = all(s, 'stale-paths');
  assert.deepEqual(
    stale.map((c) => [c.status, c.line, c.message]),
    [
      ['warn', lineOf(path.join(dir, LEDGER), '- Files:'), 'STALE PATH: src/invoices.ts does not exist.'],
      ['warn', lineOf(path.join(dir, LEDGER), '- Files:'), 'STALE PATH: docs/export.md does not exist.'],
    ],
  );
});

test('S0 a secret in the ledger blocks, masked, with its line', async () => {
  const dir = fixture('good');
  const file = path.join(dir, LEDGER);
  const token = ['ghp', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('_');
  write(dir, LEDGER, readFileSync(file, 'utf8').replace('- IDs: issue #142', `- IDs: issue #142, token ${token}`));
  const s = await s0(dir);
  const c = only(s, 'no-secrets');
  assert.deepEqual([c.status, c.line], ['fail', lineOf(file, 'token ghp_')]);
  assert.doesNotMatch(c.message, new RegExp(token));
});

test('S0 with git: uncommitted work the ledger does not name, ledger older than the work', async () => {
  const dir = fixture('good');
  gitInit(dir);
  const old = new Date(Date.now() - 3600_000);
  utimesSync(path.join(dir, LEDGER), old, old);
  write(dir, 'src/unrelated.ts', 'export const x = 1;\n');
  const s = await s0(dir, { noGit: false });
  assert.equal(only(s, 'fresh').status, 'warn');
  assert.equal(only(s, 'work-explained').status, 'warn');
  assert.match(only(s, 'work-explained').message, /src\/unrelated\.ts/);
});

test('S0 bad input: binary ledger, CRLF + BOM ledger, a directory at the ledger path', async () => {
  let dir = workspace({
    '.agents.yml': 'session:\n  ledger: true\n',
    [LEDGER]: Buffer.from([0x23, 0x20, 0x00, 0xff, 0x00, 0x01]),
  });
  let s = await s0(dir);
  assert.equal(only(s, 'exists').status, 'fail');
  assert.equal(only(s, 'readable').severity, 'block');

  const good = readFileSync(path.join(FIXTURES, 's0', 'good', LEDGER), 'utf8');
  dir = workspace({
    [LEDGER]: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good.replace(/\n/g, '\r\n'))]),
  });
  s = await s0(dir);
  const lf = await s0(fixture('good'));
  assert.deepEqual(
    s.docs[0].sections.map((x) => [x.key, x.line, x.items.map((i) => [i.text, i.line, i.flags])]),
    lf.docs
      .find((d) => d.role === 'ledger')
      ?.sections.map((x) => [x.key, x.line, x.items.map((i) => [i.text, i.line, i.flags])]),
  );
  assert.equal(s.next, lf.next);

  // An .agents.yml that is not text: the system is there, its config damaged.
  s = await s0(workspace({ '.agents.yml': Buffer.from([0x00, 0x01, 0x02]) }));
  assert.deepEqual([only(s, 'readable').status, only(s, 'readable').path], ['fail', '.agents.yml']);
  assert.equal(only(s, 'exists').path, LEDGER);

  dir = workspace({ '.agents.yml': 'session:\n  ledger: true\n', [`${LEDGER}/x`]: 'not a file' });
  s = await s0(dir);
  assert.equal(only(s, 'exists').status, 'fail');
});

test("S0 older places: a CONTINUITY.md with the S0 sections is read; one without them is someone else's", async () => {
  const good = readFileSync(path.join(FIXTURES, 's0', 'good', LEDGER), 'utf8');
  const s = await s0(workspace({ 'CONTINUITY.md': good }));
  assert.equal(s.home, 'CONTINUITY.md');
  assert.deepEqual([only(s, 'location').severity, only(s, 'location').status], ['info', 'warn']);
  const r = await evaluate(
    workspace({ 'CONTINUITY.md': '# Continuity\n\nWe keep the lights on.\n\n## Contacts\n- ops@example.invalid\n' }),
    { noGit: true },
  );
  assert.equal(
    r.systems.find((x) => x.id === 'S0'),
    undefined,
  );
  const bin = await evaluate(workspace({ 'CONTINUITY.md': Buffer.from([0, 1, 2, 3]) }), { noGit: true });
  assert.equal(
    bin.systems.find((x) => x.id === 'S0'),
    undefined,
  );
});

test('S0 .agents.yml that is not a mapping, or whose session is a scalar: findings, no throw', async () => {
  let s = await s0(workspace({ '.agents.yml': '- just\n- a list\n' }));
  assert.equal(only(s, 'config').severity, 'warn');
  s = await s0(workspace({ '.agents.yml': 'session: yes please\n' }));
  assert.deepEqual(
    s.checks.map((c) => c.status),
    ['skipped'],
  );
  // A YAML alias bomb is refused as a finding, not expanded and not thrown.
  s = await s0(workspace({ '.agents.yml': YAML_ALIAS_BOMB }));
  assert.deepEqual([only(s, 'config').severity, only(s, 'config').status], ['block', 'fail']);
  assert.match(
    only(s, 'config').message,
    /YAML aliases \(`\*name`\) repeat more than is read in one (file|block) \(over 99 uses or 1 MB of its text/,
  );
  s = await s0(
    workspace({
      '.agents.yml': 'session:\n  ledger: true\n  ledger_path: 42\n',
      [LEDGER]: '# Session Ledger\n\n## Now\nShip it today please.\n',
    }),
  );
  assert.equal(s.home, LEDGER);
  assert.equal(only(s, 'config').severity, 'warn');
});
