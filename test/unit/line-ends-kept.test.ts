// A write action that edits a user's file keeps its bytes: its BOM, every line's own ending (CRLF or
// LF), the ending most of its lines have for the lines it adds, and no final line break where the file
// had none unless the edit adds lines at its end. Each case starts from the file as a user has it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../../src/core/files/fsread';
import { dominantEol, withLineEndsOf } from '../../src/core/files/line-ends';
import {
  applyHooksPlan,
  GITIGNORE_HEADER,
  GITIGNORE_LINES,
  planHooksInstall,
  planHooksUninstall,
} from '../../src/core/hooks/install';
import { enableLedger } from '../../src/core/systems/s0/enable';
import { applyRotateLog } from '../../src/core/systems/s3/rotate-log';
import { HOOK_SCRIPT, workspace } from './helpers';

const BOM = '\uFEFF';
const crlf = (t: string) => t.replace(/\n/g, '\r\n');
const read = (dir: string, rel: string) => readFileSync(path.join(dir, rel), 'utf8');

// An S3 STATE.md over its 150 lines: the 2026-07-02 entry (the oldest, at the end) moves to docs/state/log/2026-07.md.
const HANDOFF =
  '# STATE\n\n## Handoff\n\n- **Status:** building\n- **Branch / HEAD:** main\n- **Gates:** tests 42/42\n- **Now ▶** write the lock test in test/unit/write-lock.test.ts\n- **Blocked on:** nothing\n\n## Log\n';
const entry = (date: string, title: string, n: number) =>
  `\n### ${date} - ${title}\n\n${Array.from({ length: n }, (_, i) => `- ${title}: step ${i + 1}`).join('\n')}\n`;
const KEPT = [entry('2026-08-03', 'stop hook', 60), entry('2026-08-01', 'checkpoint skill', 60)];
const MOVED = entry('2026-07-02', 'budgets', 30);
const STATE = HANDOFF + KEPT.join('') + MOVED;

test('rotate-log appends to a Log archive with a BOM and CRLF: the BOM stays, the lines appended get CRLF', async () => {
  const archive = `${BOM}# Log 2026-07\r\n\r\nold entry kept\r\n`;
  const dir = workspace({ 'docs/state/STATE.md': STATE, 'docs/state/log/2026-07.md': archive });
  await applyRotateLog(dir, sha256(Buffer.from(STATE)));
  assert.equal(read(dir, 'docs/state/STATE.md'), HANDOFF + KEPT.join(''));
  assert.equal(read(dir, 'docs/state/log/2026-07.md'), `${archive}\r\n${crlf(MOVED.trim())}\r\n`);
});

test('rotate-log: a CRLF STATE.md with a BOM and no final line break, and an LF archive with a BOM', async () => {
  const state = BOM + crlf(STATE).replace(/\r\n$/, '');
  const archive = `${BOM}# Log 2026-07\n\nold entry kept\n`;
  const dir = workspace({ 'docs/state/STATE.md': state, 'docs/state/log/2026-07.md': archive });
  await applyRotateLog(dir, sha256(Buffer.from(state)));
  assert.equal(read(dir, 'docs/state/STATE.md'), BOM + crlf(HANDOFF + KEPT.join('')).replace(/\r\n$/, ''));
  assert.equal(read(dir, 'docs/state/log/2026-07.md'), `${archive}\n${MOVED.trim()}\n`);
});

test('rotate-log: an archive of mixed line ends keeps each line its own; the lines appended get the ending most of them have', async () => {
  // Three lines end in CRLF, the last one in LF.
  const archive = '# Log 2026-07\r\n\r\nold\r\nkept\n';
  const dir = workspace({ 'docs/state/STATE.md': STATE, 'docs/state/log/2026-07.md': archive });
  await applyRotateLog(dir, sha256(Buffer.from(STATE)));
  assert.equal(read(dir, 'docs/state/log/2026-07.md'), `${archive}\r\n${crlf(MOVED.trim())}\r\n`);

  // No final line break: the last line gets the archive's ending, as the lines appended after it.
  const bare = `${BOM}# Log 2026-07\r\n\r\nold entry kept`;
  const dir2 = workspace({ 'docs/state/STATE.md': STATE, 'docs/state/log/2026-07.md': bare });
  await applyRotateLog(dir2, sha256(Buffer.from(STATE)));
  assert.equal(read(dir2, 'docs/state/log/2026-07.md'), `${bare}\r\n\r\n${crlf(MOVED.trim())}\r\n`);
});

test('rotate-log stopped before STATE.md is written puts a BOM archive back byte for byte', async () => {
  const archive = `${BOM}# Log 2026-07\r\n\r\nold entry kept\r\n`;
  const dir = workspace({ 'docs/state/STATE.md': STATE, 'docs/state/log/2026-07.md': archive });
  await assert.rejects(
    applyRotateLog(dir, sha256(Buffer.from(STATE)), {
      beforeStateRename: () => {
        throw new Error('stopped');
      },
    }),
    /stopped/,
  );
  assert.equal(read(dir, 'docs/state/STATE.md'), STATE);
  assert.equal(read(dir, 'docs/state/log/2026-07.md'), archive);
});

test('enable-ledger on a CRLF .agents.yml with a BOM keeps both', async () => {
  const before = `${BOM}# mine\r\nproject: x\r\nsession:\r\n  ledger: false # off for now\r\n  other: 1\r\n`;
  const dir = workspace({ '.agents.yml': before });
  await enableLedger(dir);
  assert.equal(read(dir, '.agents.yml'), before.replace('ledger: false', 'ledger: true'));
});

test('enable-ledger: no final line break added by an edit in place; lines added at the end end as the others', async () => {
  const inPlace = 'project: x\r\nsession:\r\n  ledger: false\r\n  other: 1';
  const dir = workspace({ '.agents.yml': inPlace });
  await enableLedger(dir);
  assert.equal(read(dir, '.agents.yml'), inPlace.replace('ledger: false', 'ledger: true'));

  const dir2 = workspace({ '.agents.yml': 'project: x\r\nother: 1' });
  await enableLedger(dir2);
  assert.equal(read(dir2, '.agents.yml'), 'project: x\r\nother: 1\r\nsession:\r\n  ledger: true\r\n');
});

test('enable-ledger on mixed line ends: each line keeps its own, the lines added get the ending most of them have', async () => {
  const before = 'a: 1\nb: 2\r\nc: 3\r\nd: 4\r\n';
  const dir = workspace({ '.agents.yml': before });
  await enableLedger(dir);
  assert.equal(read(dir, '.agents.yml'), `${before}session:\r\n  ledger: true\r\n`);

  const edited = 'a: 1\nb: 2\nc: 3\r\nsession:\n  ledger: no\n';
  const dir2 = workspace({ '.agents.yml': edited });
  await enableLedger(dir2);
  assert.equal(read(dir2, '.agents.yml'), edited.replace('ledger: no', 'ledger: true'));
});

test('hooks install on mixed line ends: the lines added to .gitignore and settings.json get the ending most lines have; uninstall gives the bytes back', async () => {
  const gitignore = 'node_modules/\ndist/\r\nout/\n';
  const settings = `${BOM}{\n  "model": "x",\r\n  "env": {}\n}\n`;
  const dir = workspace({ '.gitignore': gitignore, '.claude/settings.json': settings });
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  assert.equal(read(dir, '.gitignore'), `${gitignore}${[GITIGNORE_HEADER, ...GITIGNORE_LINES].join('\n')}\n`);
  const installed = read(dir, '.claude/settings.json');
  assert.ok(installed.startsWith(`${BOM}{\n  "model": "x",\r\n  "env": {}`), installed);
  assert.equal(installed.split('\r').length - 1, 1, 'only the line that had CRLF has it');
  await applyHooksPlan(await planHooksUninstall(dir));
  assert.equal(read(dir, '.gitignore'), gitignore);
  assert.equal(read(dir, '.claude/settings.json'), settings);
});

test('dominantEol and withLineEndsOf', () => {
  assert.equal(dominantEol('a\r\nb\r\nc\n'), '\r\n');
  assert.equal(dominantEol('a\r\nb\n'), '\n', 'a tie is LF');
  assert.equal(dominantEol('no break'), '\n');
  assert.equal(dominantEol('no break', '\r\n'), '\r\n');
  assert.equal(withLineEndsOf('a\r\nb\nc\r\n', 'a\nb\nc\n'), 'a\r\nb\nc\r\n', 'unchanged: the same bytes');
  assert.equal(withLineEndsOf('a\r\nb\r\nc', 'a\nB\nc\n'), 'a\r\nB\r\nc');
  assert.equal(withLineEndsOf('a\r\nb', 'a\nb\nc\n'), 'a\r\nb\r\nc\r\n');
  assert.equal(withLineEndsOf('', 'a\nb\n'), 'a\nb\n');
});
