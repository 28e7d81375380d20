/**
 * Each system's requirement table (src/core/systems/<sN>/REQUIREMENTS.md): every row names a check
 * id that exists in that system's home or the shared rules, and a test that exists under
 * test/unit/ (`file › title`), unless its status says why not ("reqs": being fixed; "not enforced —
 * <reason>"). A table that names a check or a test nobody wrote fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { filesUnder, REPO } from './helpers';

const HOMES = ['s0', 's1', 's2', 's3', 's4'];
const STATUSES = /^(?:check|manual|closing|action|guard|reqs|not enforced — \S.*)$/;

interface Row {
  n: number;
  says: string;
  checks: string[];
  tests: Array<{ file: string; title: string }>;
  status: string;
}

export function parseTable(md: string): Row[] {
  const rows: Row[] = [];
  for (const line of md.split('\n')) {
    const m = /^\|\s*(\d+)\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const cells = m[2].split(' | ').map((c) => c.trim());
    assert.equal(cells.length, 4, `row ${m[1]} has 5 cells: ${line}`);
    const [says, check, tst, status] = cells;
    const checks = check === '—' ? [] : [...check.matchAll(/`([^`]+)`/g)].map((x) => x[1]);
    assert.ok(check === '—' || checks.length > 0, `row ${m[1]}: the check cell names ids in backticks, or —`);
    const tests =
      tst === '—'
        ? []
        : tst.split('<br>').map((x) => {
            const [file, ...title] = x.split(' › ');
            return { file: file.trim(), title: title.join(' › ').trim() };
          });
    rows.push({ n: Number(m[1]), says, checks, tests, status });
  }
  return rows;
}

/** Every quoted literal of a system's home and the shared rules: where a check id is written. */
function idsWritten(home: string): Set<string> {
  const files = [
    ...filesUnder(path.join(REPO, 'src/core/systems', home)),
    ...filesUnder(path.join(REPO, 'src/core/rules')),
  ].filter((f) => f.endsWith('.ts'));
  const out = new Set<string>();
  for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/'([a-z][a-z0-9-]*)'/g)) out.add(m[1]);
  return out;
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

for (const h of HOMES) {
  test(`${h.toUpperCase()}'s requirement table: every row's check id and test exist, or its status says why not`, () => {
    const file = path.join(REPO, 'src/core/systems', h, 'REQUIREMENTS.md');
    assert.ok(existsSync(file), `${h}/REQUIREMENTS.md`);
    const rows = parseTable(readFileSync(file, 'utf8'));
    assert.ok(rows.length >= 15, `${h}: ${rows.length} rows`);
    assert.deepEqual(
      rows.map((r) => r.n),
      rows.map((_, i) => i + 1),
      `${h}: rows numbered 1…n`,
    );
    const ids = idsWritten(h);
    const bad: string[] = [];
    for (const r of rows) {
      if (!STATUSES.test(r.status)) bad.push(`row ${r.n}: status "${r.status}"`);
      for (const id of r.checks)
        if (!ids.has(id))
          bad.push(`row ${r.n}: check id '${id}' is written nowhere in src/core/systems/${h}/ or src/core/rules/`);
      for (const t of r.tests) {
        const p = path.join(REPO, 'test/unit', t.file);
        if (!existsSync(p)) bad.push(`row ${r.n}: no test file test/unit/${t.file}`);
        else if (
          !unescape(readFileSync(p, 'utf8')).includes(`test(${"'"}${unescape(t.title)}${"'"}`) &&
          !unescape(readFileSync(p, 'utf8')).includes(`test("${unescape(t.title)}"`)
        )
          bad.push(`row ${r.n}: no test titled "${t.title}" in ${t.file}`);
      }
      const reasoned = r.status === 'reqs' || r.status.startsWith('not enforced');
      if (!reasoned && r.tests.length === 0) bad.push(`row ${r.n}: status ${r.status} names no test`);
      if ((r.status === 'check' || r.status === 'manual') && r.checks.length === 0)
        bad.push(`row ${r.n}: status ${r.status} names no check id`);
    }
    assert.deepEqual(bad, []);
  });
}

test('the table check fails on a check id or a test nobody wrote', () => {
  const rows = parseTable('| 1 | x | `no-such-check` | s3.test.ts › no such test | check |\n');
  assert.equal(rows.length, 1);
  assert.ok(!idsWritten('s3').has('no-such-check'));
  assert.ok(idsWritten('s3').has('branch-head') && idsWritten('s3').has('no-secrets'));
  assert.ok(!unescape(readFileSync(path.join(REPO, 'test/unit/s3.test.ts'), 'utf8')).includes("test('no such test'"));
});

test("the README's systems section points at the five requirement tables", () => {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  for (const h of HOMES)
    assert.ok(readme.includes(`src/core/systems/${h}/REQUIREMENTS.md`), `README links ${h}/REQUIREMENTS.md`);
});
