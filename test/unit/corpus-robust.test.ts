/**
 * Every corpus file (F1–F5) of the in-repo corpus and, when present, the external one, laid out at its real path, alone and together with the rest of its
 * repository's files: evaluate never throws, the report serialises, every line number is real.
 * What each reader extracts from each file is asserted in the per-system corpus tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { toJsonStatus } from '../../src/core/report/report';
import { CORPORA, corpusRows, layOutCorpus, workspace, type CorpusRow } from './helpers';

async function assertSound(dir: string, label: string): Promise<void> {
  const report = await evaluate(dir, { noGit: true });
  const json = JSON.parse(JSON.stringify(toJsonStatus(report)));
  for (const s of json.systems) {
    for (const d of s.docs) {
      const lineCount = readFileSync(path.join(dir, d.path), 'utf8').split('\n').length;
      for (const sec of d.sections) {
        assert.ok(sec.line >= 1 && sec.line <= lineCount, `${label}: ${d.path} section line ${sec.line}`);
        for (const it of sec.items)
          assert.ok(it.line >= 1 && it.line <= lineCount, `${label}: ${d.path} item line ${it.line}`);
      }
    }
    for (const c of s.checks) {
      assert.ok(
        ['pass', 'fail', 'warn', 'manual-open', 'manual-done', 'skipped'].includes(c.status),
        `${label}: status ${c.status}`,
      );
      if (c.line !== null) assert.ok(c.line >= 1, `${label}: check ${c.id} line ${c.line}`);
    }
  }
}

const F1_F5 = ['F1', 'F2', 'F3', 'F4', 'F5'];

for (const { name, dir: corpus } of CORPORA) {
  test(`${name}: every file, alone at its real path, is read without throwing`, async () => {
    const rows = corpusRows(corpus, F1_F5);
    assert.ok(rows.length >= 20, `${rows.length} files`);
    for (const r of rows) {
      const dir = workspace();
      layOutCorpus(corpus, dir, [r]);
      await assertSound(dir, r.savedAs);
    }
  });

  test(`${name}: every repository's files together are read without throwing`, async () => {
    const byRepo = new Map<string, CorpusRow[]>();
    for (const r of corpusRows(corpus, F1_F5)) {
      const list = byRepo.get(r.repo) ?? [];
      // One version of a path per workspace.
      if (!list.some((x) => x.path === r.path)) list.push(r);
      byRepo.set(r.repo, list);
    }
    for (const [repo, rs] of byRepo) {
      const dir = workspace();
      layOutCorpus(corpus, dir, rs);
      await assertSound(dir, repo);
    }
  });
}
