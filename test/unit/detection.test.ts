/** Detection: a file at a system's path in another format is present and not read (with the reason); a document shows under one system only. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../../src/core/report/evaluate';
import { cli, workspace } from './helpers';

const FOREIGN_STATE =
  '# Project status\n\nShipping the alerts view this week.\n\n## Streams\n- api: green\n- web: amber\n';

test('a docs/state/STATE.md without S3 headings is present and not read, with the reason; never "No state files detected"', async () => {
  const root = workspace({ 'docs/state/STATE.md': FOREIGN_STATE });
  const r = await evaluate(root, { noGit: true });
  assert.deepEqual(r.systems, []);
  assert.equal(r.notRead?.length, 1);
  const n = r.notRead?.[0];
  assert.equal(n?.path, 'docs/state/STATE.md');
  assert.equal(n?.system, 'S3');
  assert.match(n?.reason ?? '', /^docs\/state\/STATE\.md has no `## Handoff`.*: not read as S3\.$/);
  assert.equal(n?.reasonId, '{0} has no `## Handoff`, `## Log` or `Now ▶` line: not read as S3.');
  assert.deepEqual(n?.args, ['docs/state/STATE.md']);

  for (const cmd of ['status', 'check']) {
    const text = cli([cmd, '--root', root]).stdout;
    assert.doesNotMatch(text, /No state files detected/, cmd);
    assert.match(
      text,
      /Present, not read:\n {2}docs\/state\/STATE\.md — docs\/state\/STATE\.md has no `## Handoff`/,
      cmd,
    );
    const j = JSON.parse(cli([cmd, '--root', root, '--json']).stdout);
    assert.deepEqual(j.systems, []);
    assert.deepEqual(
      j.notRead,
      [
        {
          path: 'docs/state/STATE.md',
          system: 'S3',
          reason: n?.reason,
          reasonId: n?.reasonId,
          args: ['docs/state/STATE.md'],
        },
      ],
      cmd,
    );
  }
});

test("someone else's .agents/STATE.md, CONTINUITY.md and project-state.md are each reported under their system", async () => {
  const root = workspace({
    '.agents/STATE.md': FOREIGN_STATE,
    'CONTINUITY.md': '# Continuity\n\nWe keep the lights on.\n\n## Contacts\n- ops@example.invalid\n',
    '.claude/project-state.md': '# State\n\n## Latest\n- shipped\n\n## Next\n- more\n',
  });
  const r = await evaluate(root, { noGit: true });
  assert.deepEqual(r.systems, []);
  assert.deepEqual(
    r.notRead?.map((n) => [n.system, n.path]),
    [
      ['S0', 'CONTINUITY.md'],
      ['S2', '.claude/project-state.md'],
      ['S4', '.agents/STATE.md'],
    ],
  );
  for (const n of r.notRead ?? []) assert.match(n.reason, new RegExp(`: not read as ${n.system}\\.$`));
});

test('nothing at any path: "No state files detected" names what was looked for, from the facts table', () => {
  const text = cli(['status', '--root', workspace({ 'README.md': '# x\n' })]).stdout;
  assert.match(
    text,
    /No state files detected \(looked for S0 \.agents\/session_ledger\.md, S1 memory\/session-handoff-LATEST\.md, S2 \.claude\/session-ledger\.md, S3 docs\/state\/STATE\.md, S4 \.agents\/STATE\.md\)\./,
  );
});

test("a state file another system's ledger points to is a link on that ledger, read only by its own system", async () => {
  const root = workspace({
    '.claude/session-ledger.md':
      '# Session ledger\n\n## TASK\n- ship the alerts view\n\n## NEXT\n- wire the Stop hook into settings.json\n\n## PLAN\n- plan: docs/state/STATE.md\n',
    'docs/state/STATE.md':
      '# STATE\n\n## Handoff\n\nNow ▶ write the parser tests in test/unit/parser.test.ts\n\n## Log\n',
  });
  const r = await evaluate(root, { noGit: true });
  assert.deepEqual(
    r.systems.map((s) => s.id),
    ['S2', 'S3'],
  );
  const owners = r.systems.flatMap((s) => s.docs.filter((d) => d.relPath === 'docs/state/STATE.md').map(() => s.id));
  assert.deepEqual(owners, ['S3'], 'docs/state/STATE.md appears once, under S3');
  const ledger = r.systems[0].docs.find((d) => d.relPath === '.claude/session-ledger.md');
  assert.deepEqual(ledger?.links, [{ path: 'docs/state/STATE.md', line: 10, system: 'S3' }]);
  assert.equal(r.notRead, undefined);
});
