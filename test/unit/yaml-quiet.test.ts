/**
 * A repository's YAML never makes the tool print Node warnings: the YAML library reports what it
 * would lose (a key that is a collection, `[ a ]: x`) through process warnings, which go to stderr
 * and so into what a hook shows the user. The readers keep its log level at errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';

test('YAML with a collection as a key (.agents.yml, context-manifest.yaml, STATE.md front matter) emits no process warning', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sl-yaml-quiet-'));
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const files: Record<string, string> = {
      '.agents.yml': 'session:\n  ledger: true\n[ a ]: x\n',
      '.agents/session_ledger.md':
        '# Session Ledger\n\n## Goal\nship the renewal\n\n## Now\n- write test/renewal.test.ts\n',
      'context-manifest.yaml': 'version: 1\n[ b ]: y\nstores:\n  - path: docs/notes.md\n',
      '.agents/STATE.md': '---\n{ c: 1 }: z\n---\n# Agent State\n\n## Progress Tracker\n- [ ] step\n',
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    const report = await evaluate(root, { noGit: true });
    assert.ok(
      report.systems.some((s) => s.id === 'S0') && report.systems.some((s) => s.id === 'S4'),
      `S0 and S4 read: ${report.systems.map((s) => s.id).join(', ')}`,
    );
    // process warnings are emitted on the next tick
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings, []);
  } finally {
    process.off('warning', onWarning);
    rmSync(root, { recursive: true, force: true });
  }
});
