/**
 * The tree's finding rows can be told apart at the default sidebar width: each leads with what is wrong
 * (the field, the section, the kind of problem), never with the file its system's row already names; the
 * Problems panel and the CLI say the same words (one vocabulary).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { checkLine } from '../../src/core/report/report';
import { filesIn, systemFindings } from '../../src/extension/pure/findings';
import { diagnosticMessage, findingLabel, findingName } from '../../src/extension/pure/tree-text';
import { CORPORA, corpusRows, demoRepo, enT, fixtureCopy, FIXTURES, layOutCorpus, rewrite, workspace } from './helpers';

/** What the default sidebar shows of a finding row's label before it is cut (measured in code-server: about 30). */
const SHOWN = 24;

/**
 * Copies of every fixture folder that holds a system (outside git), the demo workspace committed and then
 * changed (its git checks warn), and each corpus repository laid out as it was.
 */
function workspaces(): string[] {
  // Work after the state files were written: every system's `fresh` warns.
  const demo = demoRepo();
  rewrite(demo, 'README.md', (x) => `${x}\nMore.\n`);
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const f of [
    '.agents/session_ledger.md',
    'memory/session-handoff-LATEST.md',
    '.claude/session-ledger.md',
    'docs/state/STATE.md',
    '.agents/STATE.md',
  ])
    utimesSync(path.join(demo, f), hourAgo, hourAgo);
  const out = [demo, fixtureCopy('e2e-workspace')];
  for (const sys of readdirSync(FIXTURES).filter((d) => /^s\d$/.test(d)))
    for (const c of readdirSync(path.join(FIXTURES, sys)))
      if (statSync(path.join(FIXTURES, sys, c)).isDirectory()) out.push(fixtureCopy(`${sys}/${c}`));
  for (const { dir } of CORPORA) {
    const rows = corpusRows(dir);
    for (const repo of new Set(rows.map((r) => r.repo))) {
      const ws = workspace();
      layOutCorpus(
        dir,
        ws,
        rows.filter((r) => r.repo === repo),
      );
      out.push(ws);
    }
  }
  return out;
}

test('finding rows lead with what is wrong, not the file, and differ within what the sidebar shows of them', async () => {
  const startsWithPath: string[] = [];
  const ids = new Set<string>();
  const alike: string[] = [];
  let rows = 0;
  for (const root of workspaces()) {
    const report = await evaluate(root);
    for (const s of report.systems) {
      const findings = systemFindings(s, filesIn(root));
      const labels = findings.map((f) => findingLabel(enT, f.check));
      rows += labels.length;
      findings.forEach((f, i) => {
        const c = f.check;
        ids.add(c.id);
        // One vocabulary: the Problems panel and the CLI say the row's words (the row and the panel put a code
        // span in quotes, the CLI in backticks); the accessible name says its place.
        assert.ok(diagnosticMessage(enT, f).startsWith(labels[i]), `Problems: ${diagnosticMessage(enT, f)}`);
        assert.ok(
          checkLine(c).includes(c.message) && c.message.replace(/`/g, '') === labels[i].replace(/[‘’]/g, ''),
          `CLI: ${checkLine(c)}`,
        );
        assert.ok(
          findingName(enT, c, f.named?.path ?? f.path, f.named?.line ?? f.line).includes(f.named?.path ?? f.path),
        );
        // A missing or unreadable file is itself what is wrong.
        if (c.id === 'exists') return;
        for (const p of new Set([f.path, c.path, s.home].filter((x): x is string => !!x)))
          if (labels[i].startsWith(p)) startsWithPath.push(`${path.basename(root)} ${s.id} ${c.id}: ${labels[i]}`);
      });
      // A stale path's row names the path that is wrong, and two paths of one folder may share more than the
      // sidebar shows: those rows are told apart by their tooltips.
      const compared = (i: number) => findings[i].check.id !== 'stale-paths';
      for (let i = 0; i < labels.length; i++)
        for (let j = i + 1; j < labels.length; j++)
          if (
            compared(i) &&
            compared(j) &&
            labels[i] !== labels[j] &&
            labels[i].slice(0, SHOWN) === labels[j].slice(0, SHOWN)
          )
            alike.push(`${path.basename(root)} ${s.id}: ${labels[i]} | ${labels[j]}`);
    }
  }
  assert.ok(rows > 100, `${rows} finding rows`);
  for (const id of ['template', 'fresh', 'not-skeleton', 'handoff-block', 'structure', 'branch-head', 'snapshot'])
    assert.ok(ids.has(id), `a ${id} finding among the rows`);
  assert.deepEqual(startsWithPath, [], 'rows that start with a file path');
  assert.deepEqual([...new Set(alike)], [], `rows alike in their first ${SHOWN} characters`);
});

test("the walkthrough's rows: S3's missing fields and S1's missing sections each lead with the field, the file after it", async () => {
  /** The tree labels of a fixture's `template` findings, in the tree's order. */
  const labels = async (rel: string) => {
    const root = fixtureCopy(rel);
    const r = await evaluate(root);
    return r.systems.flatMap((s) =>
      systemFindings(s, filesIn(root))
        .filter((f) => f.check.id === 'template')
        .map((f) => findingLabel(enT, f.check)),
    );
  };
  assert.deepEqual((await labels('s3/no-handoff')).slice(0, 5), [
    "No Status in docs/state/STATE.md: S3's format requires it.",
    "No Phase in docs/state/STATE.md: S3's format requires it.",
    "No Branch / HEAD in docs/state/STATE.md: S3's format requires it.",
    "No Gates in docs/state/STATE.md: S3's format requires it.",
    "No Blocked on in docs/state/STATE.md: S3's format requires it.",
  ]);
  assert.deepEqual(await labels('s1/done-marker'), [
    "No ## Pending decisions in memory/session-handoff-LATEST.md: S1's format requires it.",
    "No ## Outstanding issues in memory/session-handoff-LATEST.md: S1's format requires it.",
    "No ## User's current interests in memory/session-handoff-LATEST.md: S1's format requires it.",
  ]);
});
