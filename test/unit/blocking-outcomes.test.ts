/**
 * The go-signal of every corpus file and fixture, held: each place's blocking checks (id, status, file
 * and line) and each system's label, as recorded in `test/fixtures/blocking-outcomes.json`. A change to
 * what is said (which warning is reported, a fix's words) must leave them as they are: no blocking
 * finding appears or disappears, so no checkpoint is refused or let through that was not before.
 *
 * The places: every file of each corpus alone at its real path, each corpus repository's files
 * together, every fixture workspace (test/fixtures/sN/*, the e2e workspace, the demo workspace as it is
 * committed) and every section fixture at its system's path. The external corpus's places are compared
 * when it is here. A change that means to move the go-signal records them again, and says why:
 * `SESSION_LEDGER_RECORD_BLOCKING=1 node --test out/test/unit/blocking-outcomes.test.js`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { CORPORA, corpusRows, DEMO, FIXTURES, layOutCorpus, workspace, type CorpusRow } from './helpers';

const RECORD = path.join(FIXTURES, 'blocking-outcomes.json');
const NOW = Date.UTC(2026, 6, 1);

interface Place {
  name: string;
  /** A fresh workspace holding the place's files. */
  dir: () => string;
}

/** Every place, by a name that does not depend on this machine. */
function places(): Place[] {
  const out: Place[] = [];
  for (const { name, dir: corpus } of CORPORA) {
    // The agent sessions (F6) are no state files.
    const rows = corpusRows(corpus).filter((r) => r.format !== 'F6');
    for (const r of rows)
      out.push({
        name: `${name}: ${r.savedAs}`,
        dir: () => {
          const d = workspace({}, 'sl-blocking-');
          layOutCorpus(corpus, d, [r]);
          return d;
        },
      });
    const byRepo = new Map<string, Map<string, CorpusRow>>();
    for (const r of rows) {
      const files = byRepo.get(r.repo) ?? new Map<string, CorpusRow>();
      byRepo.set(r.repo, files);
      // One version of each path: the first row names the file the repository holds now.
      if (!files.has(r.path)) files.set(r.path, r);
    }
    for (const [repo, files] of byRepo)
      if (files.size > 1)
        out.push({
          name: `${name}: ${repo} (every file)`,
          dir: () => {
            const d = workspace({}, 'sl-blocking-');
            layOutCorpus(corpus, d, [...files.values()]);
            return d;
          },
        });
  }
  const copy = (from: string) => () => {
    const d = workspace({}, 'sl-blocking-');
    cpSync(from, d, { recursive: true });
    return d;
  };
  for (const sys of ['s0', 's1', 's2', 's3', 's4'])
    for (const n of readdirSync(path.join(FIXTURES, sys)).sort())
      if (statSync(path.join(FIXTURES, sys, n)).isDirectory())
        out.push({ name: `fixtures/${sys}/${n}`, dir: copy(path.join(FIXTURES, sys, n)) });
  out.push({ name: 'fixtures/e2e-workspace', dir: copy(path.join(FIXTURES, 'e2e-workspace')) });
  out.push({ name: 'examples/demo-workspace', dir: copy(DEMO) });
  const sections = path.join(FIXTURES, 'sections');
  const table = JSON.parse(readFileSync(path.join(sections, 'expected.json'), 'utf8')) as {
    fixtures: Array<{ file: string; at: string; with?: Record<string, string> }>;
  };
  for (const e of table.fixtures)
    out.push({
      name: `fixtures/sections/${e.file}`,
      dir: () => {
        const files: Record<string, string> = { [e.at]: readFileSync(path.join(sections, e.file), 'utf8') };
        for (const [at, f] of Object.entries(e.with ?? {})) files[at] = readFileSync(path.join(sections, f), 'utf8');
        return workspace(files, 'sl-blocking-');
      },
    });
  return out;
}

/** A place's go-signal: per system its label and its blocking checks, each as `id status file:line`. */
type Outcome = Record<string, { label: string; blocking: string[] }>;

async function outcome(dir: string): Promise<Outcome> {
  const r = await evaluate(dir, { noGit: true, now: NOW });
  const out: Outcome = {};
  for (const s of r.systems)
    out[s.id] = {
      label: s.label,
      blocking: s.checks
        .filter((c) => c.severity === 'block')
        .map((c) => `${c.id} ${c.status} ${c.path ?? ''}:${c.line ?? ''}`)
        .sort(),
    };
  return out;
}

test('every corpus file and fixture keeps its blocking checks and labels as recorded (the go-signal does not move)', async () => {
  const all = places();
  if (process.env.SESSION_LEDGER_RECORD_BLOCKING) {
    const recorded: Record<string, Outcome> = {};
    for (const p of all) recorded[p.name] = await outcome(p.dir());
    writeFileSync(RECORD, `${JSON.stringify(recorded, null, 1)}\n`);
    return;
  }
  const recorded = JSON.parse(readFileSync(RECORD, 'utf8')) as Record<string, Outcome>;
  let compared = 0;
  for (const p of all) {
    const was = recorded[p.name];
    // A place added after the record has nothing to keep.
    if (!was) continue;
    assert.deepEqual(await outcome(p.dir()), was, p.name);
    compared++;
  }
  // The in-repo places alone are over a hundred: a record that matched none would prove nothing.
  assert.ok(compared >= 100, `${compared} places compared`);
});
