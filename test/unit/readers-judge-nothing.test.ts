import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import { parseAgentsYml } from '../../src/core/systems/s0/reader';
import { parseLedger, parseManifest } from '../../src/core/systems/s2/reader-ledger';
import { parseCheckpoint } from '../../src/core/systems/s4/reader-state';
import { configFindings } from '../../src/core/systems/s0/rules';
import { s2Findings } from '../../src/core/systems/s2/rules';
import { s4Findings } from '../../src/core/systems/s4/rules';
import { notReadOf } from '../../src/core/rules/not-read';
import type { StateDoc } from '../../src/core/model/model';
import { FACTS } from '../../src/core/systems/facts';

/** A document carrying what a reader recorded, as the checks receive it. */
function docOf(meta: Record<string, unknown> | undefined, relPath?: string): StateDoc {
  return { meta: meta ?? {}, findings: [], relPath } as unknown as StateDoc;
}

/** What the checks say of a `[` left open at the end of a YAML file: the tool's words, at its line and column (the end of its last line). */
const OPEN_BRACKET = (where: string, line: number, column: number) =>
  `The YAML of ${where} does not parse at line ${line}, column ${column}: the indentation there does not fit, or a \`[\` or \`{\` above is not closed (the items of one list or mapping start at the same column; the lines inside brackets are indented deeper than their key, up to the closing bracket).`;

test('S0 reader records what is wrong in .agents.yml as data; the check says it with the same id, severity, line and text', () => {
  const broken = parseAgentsYml('session:\n  ledger: [true\n');
  assert.equal('findings' in broken, false);
  const issue = (broken.meta?.issues as Array<{ kind: string; line: number; column: number; code: string }>)[0];
  assert.deepEqual([issue.kind, issue.code, issue.line, issue.column], ['yaml-error', 'BAD_INDENT', 2, 16]);
  const [f] = configFindings(docOf(broken.meta));
  assert.deepEqual([f.id, f.severity, f.line], ['config', 'block', issue.line]);
  assert.equal(f.message, OPEN_BRACKET('.agents.yml', 2, 16));
  const odd = parseAgentsYml('x: 1\nsession:\n  ledger: true\n  ledger_path: 5\n');
  assert.deepEqual(odd.meta?.issues, [{ kind: 'ledger-path-not-path', line: 2 }]);
  assert.deepEqual(
    configFindings(docOf(odd.meta)).map((x) => [x.severity, x.line, x.message]),
    [['warn', 2, '`session.ledger_path` is not a path; the default .agents/session_ledger.md is used.']],
  );
  assert.deepEqual(parseAgentsYml('- a\n').meta?.issues, [{ kind: 'not-mapping' }]);
  assert.deepEqual(parseAgentsYml('session: on\n').meta?.issues, [{ kind: 'session-not-mapping', line: 1 }]);
});

test('S2 reader records repeated and non-canonical sections and a manifest parse error; the check makes the findings', () => {
  const text = '# L\n## TASK\n- a\n## NEXT\n- b\n## Notes\n- c\n## TASK\n- d\n';
  const p = parseLedger(text, parseMarkdown(text));
  assert.equal('findings' in p, false);
  assert.deepEqual(p.meta?.duplicates, [{ title: 'TASK', line: 8, firstTitle: 'TASK', firstLine: 2 }]);
  assert.deepEqual(p.meta?.nonCanonical, [{ title: 'Notes', line: 6 }]);
  assert.deepEqual(
    s2Findings(docOf(p.meta)).map((f) => [f.id, f.severity, f.line, f.message]),
    [
      ['duplicate-section', 'info', 8, '"## TASK" (line 8) repeats "## TASK" (line 2); merged in file order.'],
      ['non-canonical', 'info', 6, '"## Notes" is not one of TASK NEXT OPEN DECIDED VERIFIED DROPPED PLAN.'],
    ],
  );
  const m = parseManifest('ledger:\n  budget_chars: [1\n');
  assert.equal('findings' in m, false);
  assert.ok(m.info.error && m.info.error.line);
  const [f] = s2Findings(docOf(m.meta));
  assert.deepEqual([f.id, f.severity, f.line], ['manifest-yaml', 'warn', m.info.error.line]);
  assert.equal(f.message, OPEN_BRACKET('context-manifest.yaml', 2, 19));
});

test('S4 reader records a checkpoint front matter that does not parse; the check makes the finding', () => {
  const text = '---\ntitle: [x\n---\n# Checkpoint\n';
  const p = parseCheckpoint(text, parseMarkdown(text));
  assert.equal('findings' in p, false);
  // The error's own line in the file (the front matter's text starts on line 2) and its column.
  const e = p.meta?.frontMatterError as { line: number; code: string; column: number };
  assert.deepEqual([e.line, e.code, e.column], [2, 'BAD_INDENT', 10]);
  assert.deepEqual(
    s4Findings(docOf(p.meta, '.agents/checkpoints/a.md')).map((f) => [f.id, f.severity, f.line, f.message]),
    [['front-matter', 'warn', 2, OPEN_BRACKET('.agents/checkpoints/a.md', 2, 10)]],
  );
});

test('a file not read is recorded with why; its reason is put in words by the checks', () => {
  assert.deepEqual(notReadOf({ path: 'docs/state/STATE.md', system: 'S3', why: 'S3-no-handoff' }), {
    path: 'docs/state/STATE.md',
    system: 'S3',
    reason: 'docs/state/STATE.md has no `## Handoff`, `## Log` or `Now ▶` line: not read as S3.',
    reasonId: '{0} has no `## Handoff`, `## Log` or `Now ▶` line: not read as S3.',
    args: ['docs/state/STATE.md'],
  });
});

test("S0's older-place minimum is the facts table's, in the reason as an argument", () => {
  const min = FACTS.S0.homeAlternativesMinSections;
  assert.equal(min, 3);
  const n = notReadOf({ path: 'CONTINUITY.md', system: 'S0', why: 'S0-few-sections' });
  assert.deepEqual(n.args, ['CONTINUITY.md', String(min)]);
  assert.match(
    n.reason,
    new RegExp(`^CONTINUITY\\.md has fewer than ${min} of the ledger sections \\(Goal, .*\\): not read as S0\\.$`),
  );
});
