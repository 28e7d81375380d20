/**
 * "Seed" is this project's word for a system's source document, and a user does not know it: a message
 * names the system and its rule instead ("S1's handoff format requires …"). No text a user reads says it:
 * the message templates of the core and the extension and their Japanese and Korean translations, the
 * manifest's strings, every string of the sources (the CLI's and the hooks' words among them), what the
 * CLI prints (each --help, init's list, status and check), what the hooks print (SessionStart, the
 * reminder), every check of every fixture, the README, the reference and the walkthrough. Comments and
 * the documents for developers keep the word.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { literals, translationTables } from './source-literals';
import { SYSTEM_IDS } from '../../src/core/model/model';
import { evaluate } from '../../src/core/report/evaluate';
import { suggestionLine } from '../../src/core/hooks/remind';
import { MANUALS } from '../../src/cli/help';
import { cli, demoRepo, FIXTURES, HOOK_SCRIPT, hookScript, REPO } from './helpers';
import { sessionStart } from './checkpoint-fixtures';

/** The word in English, Japanese (シード) and Korean (시드). */
const SEED = /\bseeds?\b|シード|시드/i;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

const said = (where: string, text: string): string[] =>
  text
    .split('\n')
    .filter((l) => SEED.test(l))
    .map((l) => `${where}: ${l.trim().slice(0, 160)}`);

test('no message template, translation, manifest string or source string says "seed"', async () => {
  const { coreTemplates } = (await import(path.join(REPO, 'scripts', 'messages.mjs'))) as {
    coreTemplates: () => string[];
  };
  const bad = coreTemplates().flatMap((m) => said('core template', m));
  for (const { file: f, table } of translationTables()) {
    for (const [k, v] of Object.entries(table)) bad.push(...said(`${f} ${k.slice(0, 40)}`, `${k}\n${v}`));
  }
  const sources = [...walk(path.join(REPO, 'src')), ...walk(path.join(REPO, 'webview'))].filter((f) =>
    f.endsWith('.ts'),
  );
  assert.ok(sources.length > 100);
  for (const f of sources) for (const s of literals(f)) bad.push(...said(path.relative(REPO, f), s));
  for (const f of [
    'README.md',
    'docs/reference.md',
    ...readdirSync(path.join(REPO, 'media/walkthrough')).map((n) => `media/walkthrough/${n}`),
  ])
    bad.push(...said(f, readFileSync(path.join(REPO, f), 'utf8')));
  assert.deepEqual(bad, []);
});

test('what the CLI and the hooks print, and every check of every fixture, never says "seed"', async () => {
  const bad: string[] = [];
  const dir = demoRepo();
  const env = { CLAUDE_PROJECT_DIR: dir };
  for (const args of [
    ['--help'],
    ['status'],
    ['check'],
    ['init'],
    ...Object.entries(MANUALS).flatMap(([c, m]) => [
      [c, '--help'],
      ...Object.keys(m.sub ?? {}).map((s) => [c, s, '--help']),
    ]),
  ]) {
    const r = cli([...args, '--root', dir], { env });
    bad.push(...said(`session-ledger ${args.join(' ')}`, r.stdout + r.stderr));
  }
  for (const source of ['startup', 'clear', 'compact']) {
    const r = hookScript(HOOK_SCRIPT, ['hook', 'session-start'], { cwd: dir, input: sessionStart(dir, source), env });
    bad.push(...said(`hook session-start ${source}`, r.stdout + r.stderr));
  }
  for (const id of SYSTEM_IDS)
    for (const band of [1, 2] as const) bad.push(...said('hook remind', suggestionLine(id, band, 95)));
  let checks = 0;
  for (const sys of ['s0', 's1', 's2', 's3', 's4']) {
    for (const n of readdirSync(path.join(FIXTURES, sys))) {
      const root = path.join(FIXTURES, sys, n);
      if (!statSync(root).isDirectory()) continue;
      for (const s of (await evaluate(root, { noGit: true })).systems)
        for (const c of [...s.checks, ...s.docs.flatMap((d) => d.findings)]) {
          checks++;
          bad.push(...said(`${sys}/${n} ${s.id} ${c.id}`, `${c.message}\n${c.hint ?? ''}`));
        }
    }
  }
  assert.ok(checks > 200, `${checks} checks seen`);
  assert.deepEqual(bad, []);
});
