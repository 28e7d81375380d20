/**
 * What a user whose VS Code speaks Japanese or Korean reads: one word for one thing across the status
 * item, the guard and the checks, and no English phrase left inside a translated sentence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO } from './helpers';

const bundle = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8')) as Record<string, string>;

test("Japanese: the context's compaction (/compact) is 圧縮 everywhere, as the guard says it; コンパクト化 is only the S4 state file's own compaction", () => {
  const ja = bundle('ja');
  // The strings about the agent's context being compacted: the status item's tooltip shows two of them on one line.
  const context = Object.keys(ja).filter(
    (k) =>
      /^Compaction stopped\b/.test(k) ||
      [
        'after compaction',
        'Compactions in this session',
        'Have the agent update the state file from this session before compacting.',
        'checkpoint complete. Run /compact to compress context. Handoff: {0}',
      ].includes(k),
  );
  assert.ok(context.length > 10, `${context.length} strings`);
  for (const k of context) {
    assert.match(ja[k], /圧縮/, `ja "${k}": ${ja[k]}`);
    assert.doesNotMatch(ja[k], /コンパクト/, `ja "${k}": ${ja[k]}`);
  }
});

test("Create starter file's picker: each system's line under its name is said in the user's language (ja, ko)", async () => {
  const { starterFor } = await import('../../src/core/systems/starter');
  const { SYSTEM_IDS } = await import('../../src/core/model/model');
  for (const lang of ['ja', 'ko']) {
    const table = bundle(lang);
    for (const id of SYSTEM_IDS) {
      const { description } = starterFor(id);
      assert.equal(typeof description.id, 'string', `${id}: the description is a message template`);
      assert.ok(table[description.id], `${lang} ${id}: no entry for "${description.id}"`);
    }
  }
});
