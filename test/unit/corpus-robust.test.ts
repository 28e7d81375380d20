/**
 * Every corpus file (F1–F5), laid out at its real path, alone and together with the rest of its
 * repository's files: evaluate never throws, the report serialises, every line number is real.
 * What each reader extracts from each file is asserted in the per-system corpus tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { toJsonStatus } from '../../src/core/report/report';
import { CORPUS, CORPUS_SKIP, workspace } from './helpers';

interface Row {
  format: string;
  repo: string;
  path: string;
  saved_as: string;
}

function rows(): Row[] {
  const lines = readFileSync(path.join(CORPUS, 'INDEX.tsv'), 'utf8').split('\n').filter(Boolean);
  const head = lines.shift()!.split('\t');
  return lines
    .map((l) => Object.fromEntries(l.split('\t').map((v, i) => [head[i], v])) as unknown as Row)
    .filter((r) => /^F[1-5]$/.test(r.format));
}

function layOut(dir: string, rs: Row[]): void {
  for (const r of rs) {
    const dest = path.join(dir, r.path);
    mkdirSync(path.dirname(dest), { recursive: true });
    copyFileSync(path.join(CORPUS, r.saved_as), dest);
  }
}

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

test('every corpus file, alone at its real path, is read without throwing', { skip: CORPUS_SKIP }, async () => {
  for (const r of rows()) {
    const dir = workspace();
    layOut(dir, [r]);
    await assertSound(dir, r.saved_as);
  }
});

test("every corpus repository's files together are read without throwing", { skip: CORPUS_SKIP }, async () => {
  const byRepo = new Map<string, Row[]>();
  for (const r of rows()) {
    const list = byRepo.get(r.repo) ?? [];
    // One version of a path per workspace.
    if (!list.some((x) => x.path === r.path)) list.push(r);
    byRepo.set(r.repo, list);
  }
  for (const [repo, rs] of byRepo) {
    const dir = workspace();
    layOut(dir, rs);
    await assertSound(dir, repo);
  }
});
