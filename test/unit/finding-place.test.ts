/**
 * A finding is shown in one place on every surface, the place the core gives it: the CLI prints the
 * check's file and line, and the tree and the Problems panel show it there (src/extension/pure/findings).
 * A folder is no such place: no editor opens it and no diagnostic stands on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Check, SystemReport } from '../../src/core/model/model';
import { checkLine, checkPlace } from '../../src/core/report/report';
import { filesIn, findingPlace, systemFindings } from '../../src/extension/pure/findings';
import { diagnosticMessage, findingName } from '../../src/extension/pure/tree-text';
import { cli, enT, fixtureCopy, lineOf, systemIn, workspace } from './helpers';

test("S4 without a checkpoint: one place, .agents/STATE.md at its Progress Tracker, in the core's check, the CLI, the tree and the Problems panel", async () => {
  const dir = fixtureCopy('s4/good');
  rmSync(path.join(dir, '.agents/checkpoints'), { recursive: true });
  const s = await systemIn(dir, 'S4');
  const c = s.checks.find((x) => x.id === 'template' && x.status === 'fail');
  assert.ok(c, JSON.stringify(s.checks.map((x) => [x.id, x.status, x.message])));
  const tracker = lineOf(path.join(dir, '.agents/STATE.md'), '## Progress Tracker');
  assert.deepEqual([c.path, c.line], ['.agents/STATE.md', tracker]);
  assert.ok(statSync(path.join(dir, c.path ?? '')).isFile(), 'a file the user can open');
  // The message says where the checkpoint belongs, and the fix how one gets there.
  assert.equal(c.message, "No checkpoint in .agents/checkpoints/: S4's format requires it.");
  assert.match(c.hint ?? '', /checkpoint\.py --summary-file .*writes the checkpoint into \.agents\/checkpoints\/\./);
  // The extension shows it where the core put it.
  const f = systemFindings(s, filesIn(dir)).find((x) => x.check === c);
  assert.deepEqual([f?.path, f?.line], [c.path, c.line]);
  // The CLI names the same place.
  const r = cli(['status', '--root', dir]);
  const line = r.stdout.split('\n').find((l) => /FAIL template/.test(l)) ?? '';
  assert.ok(line.endsWith(`(.agents/STATE.md:${tracker})`), line);
});

test("a finding on a file that is there but not one of the system's documents (S0's .agents.yml) stands on that file and line, where the CLI puts it", () => {
  const dir = workspace({
    '.agents.yml': 'session:\n  ledger: true\n\n\n  x: [\n',
    '.agents/session_ledger.md': '# L\n',
  });
  const config: Check = {
    id: 'config',
    system: 'S0',
    severity: 'block',
    status: 'fail',
    message: 'The YAML of .agents.yml does not parse at line 5.',
    messageId: 'The YAML of .agents.yml does not parse at line 5.',
    args: [],
    path: '.agents.yml',
    line: 5,
  };
  // The report names .agents.yml, and its documents hold only the ledger.
  const s: SystemReport = {
    id: 'S0',
    name: 'majestic ledger',
    label: 'BROKEN',
    next: null,
    home: '.agents/session_ledger.md',
    docs: [],
    checks: [config],
    resumePrompt: '',
    unconfirmed: [],
  };
  const [f] = systemFindings(s, filesIn(dir));
  assert.deepEqual([f.path, f.line, f.named], ['.agents.yml', 5, undefined]);
  assert.ok(checkLine(config).endsWith(`(${checkPlace(f)})`), checkLine(config));
  assert.equal(diagnosticMessage(enT, f), 'The YAML of .agents.yml does not parse at line 5.');
  assert.match(findingName(enT, config, findingPlace(f).path, findingPlace(f).line), /\.agents\.yml, line 5$/);
});

test('a finding about a file that is not there (S1 sidecar and MEMORY.md, S0 .agents.yml): the CLI, the Problems panel and the tree say the same file; the diagnostic stands on the home file, which refers to it', async () => {
  for (const [fixture, id, want] of [
    ['s1/compression-low', 'S1', ['memory/.session-handoff.sha256', 'memory/MEMORY.md']],
    ['s0/continuity-siblings', 'S0', ['.agents.yml']],
  ] as const) {
    const dir = fixtureCopy(fixture);
    const s = await systemIn(dir, id);
    const out = cli(['check', '--root', dir]).stdout.split('\n');
    const found = systemFindings(s, filesIn(dir));
    for (const rel of want) {
      const f = found.find((x) => x.check.path === rel);
      assert.ok(f, `${fixture}: no finding names ${rel}: ${found.map((x) => x.check.path).join(', ')}`);
      assert.throws(() => statSync(path.join(dir, rel)), `${rel} is not there`);
      // It stands on the home file, line 1: a diagnostic needs a file that opens.
      assert.deepEqual([f.path, f.line], [s.home, 1]);
      assert.ok(statSync(path.join(dir, f.path)).isFile());
      // The CLI names the file itself; the diagnostic's text and the tree row's place name the same.
      const line = out.find((l) => l.includes(` ${f.check.id} `) && l.includes(f.check.message)) ?? '';
      assert.ok(line.endsWith(`  (${rel})`), `${fixture}: ${line}`);
      assert.deepEqual(findingPlace(f), { path: rel });
      assert.equal(diagnosticMessage(enT, f).split('\n')[0].endsWith(` (${rel})`), true, diagnosticMessage(enT, f));
      assert.match(
        findingName(enT, f.check, findingPlace(f).path, findingPlace(f).line),
        new RegExp(` ${rel.replace(/\./g, '\\.')}(\\.|$)`),
      );
    }
  }
});
