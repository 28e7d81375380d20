/**
 * The demo `npm start` opens (scripts/lib/workspace.mjs `prepareDemo`) stands for a session running now:
 * its transcript's records end now (their gaps kept) and the file was written now, so the status bar's
 * figure is current, never "from 6 days ago". The tests' and benches' transcripts keep their fixed clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { figureAge } from '../../src/core/model/time';
import { statusView } from '../../src/extension/pure/status-text';
import { cli, contextUsage, enT, REPO, workspace } from './helpers';

const MIN = 60_000;

/** Runs `body` (an ES module's code, with `lib` the workspace module imported) in a process of its own; its JSON output. */
function inScripts(body: string): unknown {
  const lib = pathToFileURL(path.join(REPO, 'scripts', 'lib', 'workspace.mjs')).href;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import * as lib from '${lib}';\n${body}`], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const times = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => Date.parse((JSON.parse(l) as { timestamp: string }).timestamp));

test("npm start's demo: its transcript ends now, so the status bar's figure is current, not days old", () => {
  const run = workspace({}, 'sl-demo-');
  const before = Date.now();
  const { ws, claude } = inScripts(
    `process.stdout.write(JSON.stringify(lib.prepareDemo(${JSON.stringify(run)})));`,
  ) as { ws: string; claude: { home: string; transcript: string } };
  const after = Date.now();
  const got = times(claude.transcript);
  const template = times(path.join(REPO, 'examples', 'demo-transcript.jsonl'));
  const last = Math.max(...got);
  assert.ok(last >= before - 1000 && last <= after, `last record at ${new Date(last).toISOString()}`);
  // Every record moved by the same amount: the conversation's pace is kept.
  const shift = got[0] - template[0];
  assert.deepEqual(
    got.map((x) => x - shift),
    template,
  );
  const mtime = statSync(claude.transcript).mtimeMs;
  assert.ok(mtime >= before - 1000 && mtime <= after + 1000, `written at ${new Date(mtime).toISOString()}`);

  // The figure the status bar shows, as the CLI's context reads it: taken now, said without an age.
  const ctx = JSON.parse(
    cli(['context', '--json', '--root', ws], { env: { CLAUDE_CONFIG_DIR: claude.home } }).stdout,
  ) as { at: string; percent: number };
  assert.equal(Date.parse(ctx.at), last);
  const now = Date.now();
  assert.equal(figureAge(ctx.at, mtime, now, 30), null);
  const S3 = { profile: 'S3', propose: 15, urgent: 40 };
  const label = statusView(
    enT,
    contextUsage({ at: ctx.at, percent: ctx.percent }),
    S3,
    'propose',
    undefined,
    undefined,
    now,
    true,
    figureAge(ctx.at, mtime, now, 30),
  ).label;
  assert.equal(label, 'Session Ledger: context 34 percent, past the checkpoint mark for S3. Checkpoint proposed.');
  // Still current a few minutes later (the status bar draws it again each minute).
  assert.equal(figureAge(ctx.at, mtime, now + 10 * MIN, 30), null);
});

test("the tests' and benches' transcripts keep their fixed clock", () => {
  const run = workspace({}, 'sl-fixture-');
  const { claude } = inScripts(
    `process.stdout.write(JSON.stringify(lib.integrationFixture(${JSON.stringify(run)})));`,
  ) as { claude: { transcript: string } };
  for (const at of times(claude.transcript)) assert.match(new Date(at).toISOString(), /^2026-12-01T15:0\d:\d\d\.000Z$/);
});
