/**
 * A fill-in variable a template generator left in a state file (`{{HEAD}}` in `main @ {{HEAD}}`) leaves
 * its part unfilled: the template check refuses it, naming the part and the variable, on whichever
 * part holds it. A code template's own braces (`{{ user.name }}`, `${{ secrets.X }}`, JSX's
 * `{{maxWidth: …}}`) are text, and no real state file of the corpus holds a fill-in variable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { unfilledVariable } from '../../src/core/markdown/text';
import type { SystemReport } from '../../src/core/model/model';
import { CORPORA, DEMO, filesUnder, fixtureCopy, lineOf, rewrite, systemIn, workspace } from './helpers';

const templateFails = (s: SystemReport) =>
  s.checks.filter((c) => c.id === 'template' && c.status === 'fail').map((c) => [c.message, c.line]);

test("the demo workspace as shipped: S3's Branch / HEAD still holds {{HEAD}}, and the template check says so on its line", async () => {
  const dir = workspace({}, 'sl-demo-');
  cpSync(DEMO, dir, { recursive: true });
  const s = await systemIn(dir, 'S3', { noGit: true });
  assert.deepEqual(templateFails(s), [
    [
      'Branch / HEAD still holds the placeholder {{HEAD}} in docs/state/STATE.md: it is not filled in.',
      lineOf(path.join(dir, 'docs/state/STATE.md'), '**Branch / HEAD:**'),
    ],
  ]);
  const c = s.checks.find((x) => x.id === 'template' && x.status === 'fail');
  assert.equal(c?.severity, 'block');
  // The fix branch-head gave for a hash not recorded: that warning is this finding now.
  assert.equal(c?.hint, 'Update Branch / HEAD from `git branch --show-current` and `git rev-parse --short HEAD`.');
  assert.equal(s.label, 'BROKEN');
});

test('a fill-in variable in a Log entry part, an S0 section or an S4 summary part names that part', async () => {
  const s3 = fixtureCopy('s3/good');
  rewrite(s3, 'docs/state/STATE.md', (x) =>
    x.replace(/^- Stopped at:.*$/m, '- Stopped at: middleware wiring, step {{ STEP }}'),
  );
  const [[said3]] = templateFails(await systemIn(s3, 'S3', { noGit: true }));
  assert.equal(
    said3,
    'Stopped at in the Log entry of 2026-03-04 still holds the placeholder {{ STEP }} in docs/state/STATE.md: it is not filled in.',
  );
  const s0 = fixtureCopy('s0/good');
  rewrite(s0, '.agents/session_ledger.md', (x) => x.replace('Ship CSV export', 'Ship {{FEATURE}} export'));
  assert.deepEqual(templateFails(await systemIn(s0, 'S0', { noGit: true })), [
    ['## Goal still holds the placeholder {{FEATURE}} in .agents/session_ledger.md: it is not filled in.', 6],
  ]);
  const s4 = fixtureCopy('s4/good');
  const cp = filesUnder(path.join(s4, '.agents/checkpoints')).sort().pop() ?? '';
  const text = readFileSync(cp, 'utf8');
  const at = text.indexOf('\n', text.indexOf('将来のアクション')) + 1;
  writeFileSync(cp, `${text.slice(0, at)}- {{NEXT_STEP}}\n${text.slice(at)}`);
  const fails = templateFails(await systemIn(s4, 'S4', { noGit: true })).map(([m]) => m);
  assert.ok(
    fails.some((m) =>
      /^将来のアクション still holds the placeholder \{\{NEXT_STEP\}\} in \.agents\/checkpoints\/.+/.test(String(m)),
    ),
    fails.join('\n'),
  );
});

test("a code template's braces are text: no refusal", async () => {
  for (const t of [
    'fix `{{ user.name }}` escaping',
    'set `${{ secrets.TOKEN }}`',
    'style={{maxWidth: "500px"}}',
    '{{#each items}}',
  ])
    assert.equal(unfilledVariable(t), null, t);
  for (const t of ['main @ {{HEAD}}', '`{{ DATE }}`', '{{PROJECT_NAME}} setup'])
    assert.notEqual(unfilledVariable(t), null, t);
  const dir = fixtureCopy('s3/good');
  rewrite(dir, 'docs/state/STATE.md', (x) =>
    x.replace(/^- Done:.*$/m, '- Done: fixed `{{ user.name }}` escaping and `${{ secrets.TOKEN }}` in the workflow'),
  );
  assert.deepEqual(templateFails(await systemIn(dir, 'S3', { noGit: true })), []);
});

test('no real state file of the corpus holds a fill-in variable (no new finding)', () => {
  let files = 0;
  for (const { dir } of CORPORA)
    for (const f of filesUnder(dir).filter((x) => /\.(?:md|ya?ml)$/i.test(x))) {
      files++;
      assert.equal(unfilledVariable(readFileSync(f, 'utf8')), null, f);
    }
  assert.ok(files > 20, `${files} files`);
});
