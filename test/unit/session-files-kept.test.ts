/**
 * The tool's per-session files keep only the records of the newest sessions: the status line's
 * records of Claude Code's figure (one per session, rewritten on every refresh) and the SessionStart
 * hook's session records. A project used for months does not gather one file per session ever run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { sessionStartHook } from '../../src/core/hooks/session-start';
import { keepNewest, SESSION_FILES_KEPT } from '../../src/core/files/prune';
import { STATUSLINE_SCRIPT, workspace, write } from './helpers';

const DAY = 86_400_000;
const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** `n` files named by `name(i)` under `dir`, file i last written i days ago. */
function aged(dir: string, n: number, name: (i: number) => string): void {
  for (let i = 1; i <= n; i++) {
    const f = write(dir, name(i), '{}\n');
    const t = new Date(Date.now() - i * DAY);
    utimesSync(f, t, t);
  }
}

function statusLine(root: string, sessionId: string): void {
  const input = {
    session_id: sessionId,
    cwd: root,
    workspace: { project_dir: root, current_dir: root },
    model: { id: 'claude-sonnet-4-5' },
    context_window: { context_window_size: 200_000, used_percentage: 12 },
  };
  const r = spawnSync(process.execPath, [STATUSLINE_SCRIPT, 'statusline'], {
    cwd: root,
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ctx 12%/);
}

test("a session's first status line record keeps the records of the 32 newest sessions and touches nothing else", () => {
  const root = workspace({ '.claude/settings.json': '{}\n' });
  const dir = path.join(root, '.claude/session-ledger');
  aged(dir, 40, (i) => `statusline.${id(i)}.json`);
  write(dir, 'session.json', '{}\n');
  write(dir, 'install.json', '{}\n');
  mkdirSync(path.join(dir, 'statusline.folder.json'));
  statusLine(root, id(1000));
  const names = readdirSync(dir).sort();
  const records = names.filter((n) => n.startsWith('statusline.') && n !== 'statusline.folder.json');
  assert.equal(records.length, SESSION_FILES_KEPT);
  assert.ok(records.includes(`statusline.${id(1000)}.json`), 'the new session keeps its record');
  for (let i = 1; i <= 31; i++)
    assert.ok(records.includes(`statusline.${id(i)}.json`), `session ${i} is among the newest`);
  for (let i = 32; i <= 40; i++) assert.ok(!records.includes(`statusline.${id(i)}.json`), `session ${i} is older`);
  for (const other of ['session.json', 'install.json', 'statusline.folder.json'])
    assert.ok(names.includes(other), `${other} stays`);
  // A refresh of a session already recorded rewrites its record and lists nothing.
  aged(dir, 1, () => `statusline.${id(2000)}.json`);
  statusLine(root, id(1000));
  assert.ok(readdirSync(dir).includes(`statusline.${id(2000)}.json`), 'only a new session prunes');
});

test('SessionStart keeps the records of the 32 newest sessions', async () => {
  const root = workspace({});
  const dir = path.join(root, '.claude/session-ledger/sessions');
  aged(dir, 40, (i) => `${id(i)}.json`);
  write(dir, 'notes.txt', 'not a record\n');
  const r = await sessionStartHook(
    JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', session_id: id(1000), cwd: root }),
    { root, log: false },
  );
  assert.ok(r.recorded, r.log);
  const names = readdirSync(dir);
  assert.equal(names.filter((n) => n.endsWith('.json')).length, SESSION_FILES_KEPT);
  assert.ok(
    names.includes(`${id(1000)}.json`) && names.includes(`${id(31)}.json`) && !names.includes(`${id(32)}.json`),
  );
  assert.ok(names.includes('notes.txt'), 'a name that is no record stays');
});

test('keepNewest removes only matching files past the newest ones, never a folder or a link, and never throws', async () => {
  const dir = workspace({});
  aged(dir, 5, (i) => `r${i}.json`);
  mkdirSync(path.join(dir, 'r0.json'));
  const elsewhere = write(workspace({}), 'kept.json', '{}\n');
  symlinkSync(elsewhere, path.join(dir, 'r9.json'));
  await keepNewest(dir, path.dirname(dir), (n) => n.endsWith('.json'), 2);
  assert.deepEqual(readdirSync(dir).sort(), ['r0.json', 'r1.json', 'r2.json', 'r9.json']);
  assert.ok(existsSync(elsewhere));
  await keepNewest(path.join(dir, 'missing'), path.dirname(dir), () => true, 0);
});
