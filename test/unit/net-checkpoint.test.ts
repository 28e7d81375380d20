/**
 * The checkpoint decision in process (checkpoint.test.ts also runs the built CLI): the resume prompt
 * it hands over, what a nothing-to-preserve checkpoint lists, the markers it finds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpoint, resumePromptFor } from '../../src/core/checkpoint/checkpoint';
import { listMarkers } from '../../src/core/checkpoint/marker';
import type { SystemReport, WorkspaceReport } from '../../src/core/model/model';
import { emptyClaudeHome, S2_SKELETON, S3_STATE, SID } from './checkpoint-fixtures';
import { workspace, write } from './helpers';

const sys = (o: Partial<SystemReport>): SystemReport =>
  ({ id: 'S3', home: 'docs/state/STATE.md', unconfirmed: [], resumePrompt: '', ...o }) as unknown as SystemReport;

test("resumePromptFor: each switched-on system's own prompt, once; a blank one falls back to the facts' prompt for its home", () => {
  const report = (systems: SystemReport[]) => ({ systems }) as unknown as WorkspaceReport;
  assert.equal(resumePromptFor(report([sys({ resumePrompt: 'Read X and go.' })])), 'Read X and go.');
  assert.equal(
    resumePromptFor(report([sys({ resumePrompt: '  \n' })])),
    'Read docs/state/STATE.md and continue from the Now ▶ action.',
  );
  assert.equal(
    resumePromptFor(report([sys({ id: 'S2', home: '.claude/session-ledger.md', resumePrompt: '' })])),
    'Read .claude/session-ledger.md and continue from its NEXT action.',
  );
  assert.equal(
    resumePromptFor(
      report([sys({ resumePrompt: 'A' }), sys({ id: 'S4', resumePrompt: 'A' }), sys({ id: 'S1', resumePrompt: 'B' })]),
    ),
    'A\nB',
  );
  assert.equal(
    resumePromptFor(
      report([
        sys({ resumePrompt: 'A', skipped: { line: 'off' } } as unknown as Partial<SystemReport>),
        sys({ id: 'S1', resumePrompt: 'B' }),
      ]),
    ),
    'B',
  );
});

test('checkpoint --nothing-to-preserve lists the warnings and the failures it overrides, never the passes', async () => {
  const dir = workspace({ '.claude/session-ledger.md': S2_SKELETON });
  const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome(), CLAUDE_PROJECT_DIR: '' };
  const r = await checkpoint(dir, { nothingToPreserve: true, sessionId: SID, env, claudeHome: env.CLAUDE_CONFIG_DIR });
  assert.equal(r.kind, 'nothing-to-preserve');
  const listed = r.lines.filter((l) => /^ {2}S2 /.test(l));
  assert.ok(
    listed.some((l) => /not-skeleton/.test(l)),
    r.lines.join('\n'),
  );
  const passes = r.report.systems.flatMap((s) => s.checks.filter((c) => c.status === 'pass').map((c) => c.id));
  assert.ok(passes.length > 0);
  for (const id of passes)
    assert.ok(!listed.some((l) => new RegExp(`\\b${id}\\b`).test(l)), `pass ${id} listed: ${listed.join(' | ')}`);
  // A checkpoint that is not nothing-to-preserve refuses on the failure instead of listing it.
  const refused = await checkpoint(dir, { sessionId: SID, env, claudeHome: env.CLAUDE_CONFIG_DIR });
  assert.equal(refused.kind, 'refused');
});

test('listMarkers: the shared marker and every per-session one, nothing else', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  assert.deepEqual(await listMarkers(dir), []);
  write(dir, '.claude/.checkpoint-ready', '');
  write(dir, `.claude/.checkpoint-ready.${SID}`, '');
  write(dir, '.claude/settings.json', '{}');
  write(dir, '.claude/checkpoint-ready', '');
  assert.deepEqual((await listMarkers(dir)).sort(), ['.claude/.checkpoint-ready', `.claude/.checkpoint-ready.${SID}`]);
});
