/**
 * `hooks install --dry-run`'s diff of the settings file: the alignment a longest-common-subsequence
 * table gives, in time linear in the lines (a settings file of thousands of lines, a change in it),
 * and a change too big to align shown as a block replaced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { diffRows, planDiff, planHooksInstall, type DiffRow } from '../../src/core/hooks/install';
import { cli, HOOK_SCRIPT, rng, workspace } from './helpers';

/** The walk over a full longest-common-subsequence table: the alignment the diff is pinned to (quadratic: small inputs only). */
function tableRows(a: string[], b: string[]): DiffRow[] {
  const n = a.length;
  const m = b.length;
  const dp = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      rows.push({ t: ' ', s: a[i++] });
      j++;
    } else if (j < m && (i >= n || dp[i][j + 1] >= dp[i + 1][j])) rows.push({ t: '+', s: b[j++] });
    else rows.push({ t: '-', s: a[i++] });
  }
  return rows;
}

/** A settings file of `n` allowed commands (n + 7 lines). */
const settings = (n: number) =>
  `{\n  "permissions": {\n    "allow": [\n${Array.from({ length: n }, (_, i) => `      "Bash(tool-${i} --flag)"`).join(',\n')}\n    ]\n  },\n  "model": "opus"\n}\n`;

async function installPlan(n: number) {
  const dir = workspace();
  mkdirSync(path.join(dir, '.claude'));
  writeFileSync(path.join(dir, '.claude', 'settings.json'), settings(n));
  return planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
}

/** CPU time of `f` (ms): time the scheduler gives other processes is not counted. */
function cpuMs(f: () => unknown): number {
  const t0 = process.cpuUsage();
  f();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1e3;
}

/**
 * `f` at n and at 10n: about 10 times the CPU time when linear, 100 when quadratic. Bound: 25 (the
 * small run the best of three and counted as at least 5 ms; up to three tries of the big one, for a
 * busy machine). No absolute timing.
 */
function assertTenfoldLinear(name: string, small: () => unknown, big: () => unknown): void {
  small();
  let seen = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const a = Math.max(5, Math.min(cpuMs(small), cpuMs(small), cpuMs(small)));
    const b = cpuMs(big);
    seen += ` ${a.toFixed(1)}/${b.toFixed(1)} ms`;
    if (b / a < 25) return;
  }
  assert.fail(`${name}: n vs 10n took${seen} (ratio over 25 on every attempt)`);
}

test('the diff is the longest-common-subsequence walk it was, for any lines (seeded random edits, repeated lines among them)', () => {
  const next = rng(7);
  const pick = (k: number) => Math.floor(next() * k);
  for (let c = 0; c < 3000; c++) {
    const letters = 1 + pick(6);
    const line = () => ['{', '}', '  },', '    ]', '"a": 1', '"b": 2'][pick(letters)];
    const a = Array.from({ length: pick(c < 2500 ? 14 : 200) }, line);
    const b = a.slice();
    for (let e = pick(c < 2500 ? 6 : 40); e > 0; e--) {
      const at = pick(b.length + 1);
      const op = next();
      if (op < 0.4) b.splice(at, 0, line());
      else if (op < 0.7) b.splice(at, 1);
      else if (b.length) b[Math.min(at, b.length - 1)] = line();
    }
    assert.deepEqual(diffRows(a, b), tableRows(a, b), JSON.stringify({ a, b }));
  }
});

test('hooks install --dry-run on a settings file of 18,000 lines: only the change is shown, in time linear in the lines (1,800 and 18,000)', async () => {
  const small = await installPlan(1_800);
  const big = await installPlan(18_000);
  // The diffs shown are those the timed runs made (each a whole planDiff at 18,000 lines, about a second).
  let shownSmall: string[] = [];
  let shown: string[] = [];
  assertTenfoldLinear(
    'planDiff',
    () => (shownSmall = planDiff(small)),
    () => (shown = planDiff(big)),
  );
  assert.ok(shown.length < 50, `${shown.length} lines shown`);
  const changed = (lines: string[]) => lines.slice(2).filter((l) => l.startsWith('+') || l.startsWith('-'));
  assert.deepEqual(changed(shown), changed(shownSmall), 'the same change at both sizes');
  assert.deepEqual(shown.slice(0, 3), ['--- .claude/settings.json', '+++ .claude/settings.json', '@@']);
  assert.deepEqual(changed(shown).slice(-1), ['-  "model": "opus"']);
});

test('two changes 20,000 lines apart are each shown; a file rewritten throughout is shown as a block replaced, in linear time', () => {
  const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `  "k${i}": "${tag}${i}",`);
  const a = ['{', ...lines(20_000, 'v'), '}'];
  const b = a.slice();
  b[3] = '  "k2": "changed",';
  b.splice(20_000, 0, '  "new": true,');
  const rows = diffRows(a, b).filter((r) => r.t !== ' ');
  assert.deepEqual(rows, [
    { t: '+', s: '  "k2": "changed",' },
    { t: '-', s: '  "k2": "v2",' },
    { t: '+', s: '  "new": true,' },
  ]);
  // Every line but the first and the last changed: far past the edits the search aligns.
  const rewrite = (n: number) => {
    const x = ['{', ...lines(n, 'old'), '}'];
    const y = ['{', ...lines(n, 'new'), '}'];
    return () => diffRows(x, y);
  };
  const block = rewrite(3_000)();
  assert.deepEqual(
    block.map((r) => r.t).join(''),
    ` ${'-'.repeat(3_000)}${'+'.repeat(3_000)} `,
    'the old lines removed, then the new ones added, between the common first and last lines',
  );
  assertTenfoldLinear('a rewrite', rewrite(3_000), rewrite(30_000));
});

test("the diff ends with the file's last line: the line break that ends a file is no line of its own (no blank context line under a new file, no '@@' for lines left out after the last change)", () => {
  const fresh = workspace();
  const made = cli(['hooks', 'install', '--dry-run', '--root', fresh, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(made.code, 0, made.stderr);
  const newFile = made.stdout.trimEnd().split('\n');
  assert.equal(newFile.at(-1), '+}', made.stdout);
  assert.ok(!newFile.includes(' '), made.stdout);
  // The relay added after the hooks: the last change is two lines from the end of the file.
  assert.equal(cli(['hooks', 'install', '--root', fresh, '--cli-bundle', HOOK_SCRIPT]).code, 0);
  const relay = cli(['hooks', 'install', '--statusline', '--dry-run', '--root', fresh, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(relay.code, 0, relay.stderr);
  const lines = relay.stdout.trimEnd().split('\n');
  assert.deepEqual(
    lines.slice(-3),
    [
      '+    "command": "node \\"$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger-statusline.cjs\\" statusline"',
      '   }',
      ' }',
    ],
    relay.stdout,
  );
  assert.equal(lines.filter((l) => l === '@@').length, 1, 'one run of unchanged lines left out, before the change');
});
