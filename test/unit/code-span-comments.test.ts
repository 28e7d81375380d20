/**
 * A comment written inside a code span is text the message shows, not a comment: S1's warning
 * "No `<!-- state-snapshot v1 -->` block: …" keeps the marker it names on every surface that renders
 * no Markdown (the Problems panel, the tree's rows and their accessible names, the checklist), as the
 * CLI prints it. A comment outside a code span is still dropped, backticks inside it too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shownLine, withoutMarkup } from '../../src/core/markdown/shown-line';
import { systemFindings } from '../../src/extension/pure/findings';
import { diagnosticMessage, findingName, plainText } from '../../src/extension/pure/tree-text';
import { enT, fixtureCopy, systemIn } from './helpers';

const SAID = 'No ‘<!-- state-snapshot v1 -->’ block: the next session cannot recover from one compact block.';

test('a handoff without a snapshot block: the Problems panel and the tree name the block S1 asks for', async () => {
  const dir = fixtureCopy('s1/done-marker');
  const s = await systemIn(dir, 'S1', { noGit: true });
  const f = systemFindings(s, () => true).find((x) => x.check.id === 'snapshot');
  assert.ok(f, 'the snapshot warning is a finding');
  assert.equal(diagnosticMessage(enT, f).split('\n')[0], SAID);
  assert.match(
    findingName(enT, f.check, f.path, f.line),
    /^Warning: S1 snapshot: No <!-- state-snapshot v1 --> block: /,
  );
});

test('comments: dropped outside code spans, kept as text inside them; the first to start wins', () => {
  assert.equal(plainText('No `<!-- state-snapshot v1 -->` block'), 'No <!-- state-snapshot v1 --> block');
  assert.equal(shownLine('No `<!-- state-snapshot v1 -->` block'), 'No `<!-- state-snapshot v1 -->` block');
  assert.equal(withoutMarkup('add `x` <!-- note --> here', true), 'add `x` here');
  // a comment that holds backticks is a comment whole, its code span with it
  assert.equal(withoutMarkup('keep <!-- not `this` one --> this', false), 'keep this');
  // a comment left open runs to the end, as before
  assert.equal(withoutMarkup('keep <!-- open `x` to the end', true), 'keep');
  // a code span after a comment is still a code span
  assert.equal(withoutMarkup('<!-- a --> run `npm test` <!-- b --> now', true), 'run `npm test` now');
  assert.equal(withoutMarkup('`a` <!-- `b` --> `<!-- c -->`', false), 'a <!-- c -->');
});
