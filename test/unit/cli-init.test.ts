import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { STARTER_SYSTEMS, starterFor } from '../../src/core/systems/starter';
import { systemName } from '../../src/core/systems/facts';
import { cli, fixtureCopy, workspace, write } from './helpers';

const read = (dir: string, rel: string) => readFileSync(path.join(dir, rel), 'utf8');

test('init <system> writes the same starter files as the extension\'s "Create starter file", then status finds that system', () => {
  for (const id of STARTER_SYSTEMS) {
    const dir = workspace();
    const r = cli(['init', id.toLowerCase(), '--root', dir]);
    assert.equal(r.code, 0, `${id}: ${r.stderr}`);
    for (const f of starterFor(id).files) assert.equal(read(dir, f.path), f.content, `${id} ${f.path}`);
    assert.match(r.stdout, new RegExp(`^Wrote ${starterFor(id).home.replace(/[.]/g, '\\.')}`));
    assert.match(r.stdout, /session-ledger check/);
    const status = JSON.parse(cli(['status', '--root', dir, '--json']).stdout) as { systems: Array<{ id: string }> };
    assert.deepEqual(
      status.systems.map((s) => s.id),
      [id],
    );
  }
});

test('init refuses to overwrite a home file that exists: exit 1, the file byte for byte, no companion written', () => {
  const dir = workspace({ '.agents/session_ledger.md': '# mine\n' });
  const r = cli(['init', 'S0', '--root', dir]);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /\.agents\/session_ledger\.md already exists; the starter never overwrites, nothing was written/,
  );
  assert.equal(read(dir, '.agents/session_ledger.md'), '# mine\n');
  assert.equal(existsSync(path.join(dir, '.agents.yml')), false);
  assert.equal(r.stdout, '');
});

test('init leaves an optional companion that exists as it is and says so', () => {
  const dir = workspace();
  write(dir, 'PROGRESS.md', '# my progress\n');
  const r = cli(['init', 'S4', '--root', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(read(dir, 'PROGRESS.md'), '# my progress\n');
  assert.match(r.stdout, /PROGRESS\.md exists and was left as it is/);
  assert.equal(read(dir, '.agents/STATE.md'), starterFor('S4').files[0].content);
});

test('init without a system lists the five starters and writes nothing; --dry-run writes nothing; a bad system is a usage error', () => {
  const dir = workspace();
  const list = cli(['init', '--root', dir]);
  assert.equal(list.code, 0);
  for (const id of STARTER_SYSTEMS)
    assert.match(
      list.stdout,
      new RegExp(`^  ${systemName(id)}  ${starterFor(id).files[0].path.replace(/[.]/g, '\\.')}`, 'm'),
    );
  const dry = cli(['init', 'S3', '--dry-run', '--root', dir]);
  assert.equal(dry.code, 0);
  assert.match(dry.stdout, /^Would write docs\/state\/STATE\.md \(the S3 starter\); nothing was written\./);
  assert.deepEqual(readdirSync(dir), []);
  for (const args of [
    ['init', 'S9'],
    ['init', 'S1', 'S2'],
    ['init', '--bogus'],
  ]) {
    const bad = cli([...args, '--root', dir]);
    assert.equal(bad.code, 2, args.join(' '));
    assert.match(bad.stderr, /^session-ledger init: .*\(usage: session-ledger init/);
  }
  assert.deepEqual(readdirSync(dir), []);
});

test("a starter's placeholders are judged by no check as if they were the session's: S1's snapshot and S0's UNCONFIRMED placeholder", () => {
  const s1 = workspace({});
  assert.equal(cli(['init', 'S1', '--root', s1]).code, 0);
  const checks = JSON.parse(cli(['check', '--root', s1, '--json']).stdout).systems[0].checks as Array<{
    id: string;
    status: string;
  }>;
  for (const id of ['snapshot-next', 'compression'])
    assert.equal(checks.find((c) => c.id === id)?.status, 'skipped', `S1 ${id} on the starter's template`);
  // Beside the handoff, S1's Phase 3 stores (its missing_data recovery writes them empty): nothing is missing.
  assert.equal(checks.find((c) => c.id === 'missing-data')?.status, 'pass');
  const s0 = workspace({});
  assert.equal(cli(['init', 'S0', '--root', s0]).code, 0);
  const status = cli(['status', '--root', s0]).stdout;
  assert.match(status, /<question> `UNCONFIRMED`/);
  assert.doesNotMatch(status, /\{unconfirmed\}/, 'the placeholder item is tagged as an item to validate');
  assert.match(status, /ok +unconfirmed +No UNCONFIRMED items\./);
});

test("S1's compression is measured on a snapshot block that is not the template (one that does not parse, or is no mapping)", () => {
  for (const rel of ['s1/snapshot-bad-yaml', 's1/snapshot-list']) {
    const dir = fixtureCopy(rel);
    const c = (
      JSON.parse(cli(['check', '--root', dir, '--json']).stdout).systems[0].checks as Array<{
        id: string;
        message: string;
      }>
    ).find((x) => x.id === 'compression');
    assert.doesNotMatch(c?.message ?? '', /still template text/, `${rel}: ${c?.message}`);
  }
});

test("S1's compression skips a snapshot block that holds nothing of the session (the template's ctx, no next item), and measures one that holds a real ctx", () => {
  for (const [ctx, next, status] of [
    ['"<this session summary, max 20 words>"', '[]', 'skipped'],
    ['"<this session summary, max 20 words>"', '"<task (urgency: H)>"', 'skipped'],
    ['"export CSV for invoices; quoting fixed, Excel test left"', '[]', 'pass'],
  ]) {
    const dir = fixtureCopy('s1/good');
    const p = path.join(dir, 'memory/session-handoff-LATEST.md');
    const text = readFileSync(p, 'utf8');
    const a = text.indexOf('```yaml\n') + 8;
    const b = text.indexOf('```', a);
    writeFileSync(
      p,
      `${text.slice(0, a)}ts: 2026-12-01\nctx: ${ctx}\nnext: ${next}\ndiff: []\nblocked: []\n${text.slice(b)}`,
    );
    const c = (
      JSON.parse(cli(['check', '--root', dir, '--json']).stdout).systems[0].checks as Array<{
        id: string;
        status: string;
        message: string;
      }>
    ).find((x) => x.id === 'compression');
    assert.equal(c?.status, status, `ctx ${ctx}, next ${next}: ${c?.message}`);
  }
});

test("init S0 writes the ledger where .agents.yml's ledger_path puts it, and its dry run names that path; a path out of the folder is refused", () => {
  const dir = workspace({ '.agents.yml': 'session:\n  ledger: true\n  ledger_path: notes/ledger.md\n' });
  const dry = cli(['init', 'S0', '--dry-run', '--root', dir]);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^Would write notes\/ledger\.md \(the S0 starter\); nothing was written\./);
  assert.match(dry.stdout, /\.agents\.yml exists and was left as it is\./);
  const r = cli(['init', 'S0', '--root', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Wrote notes\/ledger\.md \(the S0 starter\)\./);
  assert.equal(read(dir, 'notes/ledger.md'), starterFor('S0').files[1].content);
  assert.equal(existsSync(path.join(dir, '.agents/session_ledger.md')), false);
  // S0's reader finds the ledger it wrote: the system is detected at that path.
  const status = JSON.parse(cli(['status', '--root', dir, '--json']).stdout) as {
    systems: Array<{ id: string; docs: Array<{ path: string; role: string }> }>;
  };
  assert.deepEqual(
    status.systems.map((s) => [s.id, s.docs.find((d) => d.role === 'ledger')?.path]),
    [['S0', 'notes/ledger.md']],
  );
  // Again: the ledger at the configured path exists, so the starter refuses.
  assert.match(cli(['init', 'S0', '--root', dir]).stderr, /notes\/ledger\.md already exists/);

  const out = workspace({ '.agents.yml': 'session:\n  ledger: true\n  ledger_path: ../outside.md\n' });
  for (const args of [['--dry-run'], []]) {
    const o = cli(['init', 'S0', ...args, '--root', out]);
    assert.equal(o.code, 1, args.join(' '));
    assert.match(
      o.stderr,
      /^session-ledger init( --dry-run)?: \.\.\/outside\.md, the configured path, is outside the workspace folder: nothing was written\.\n?$/,
    );
    assert.equal(o.stdout, '');
  }
  assert.equal(existsSync(path.join(out, '..', 'outside.md')), false);
  assert.equal(existsSync(path.join(out, '.agents/session_ledger.md')), false);
});
