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
import { gitTracksEach } from '../../src/core/git/tracked';
import { gitInit, HOOK_SCRIPT, STATUSLINE_SCRIPT, workspace, write } from './helpers';

const DAY = 86_400_000;
const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** `n` files named by `name(i)` under `dir`, file i last written `before` + i days ago. */
function aged(dir: string, n: number, name: (i: number) => string, before = 0): void {
  for (let i = 1; i <= n; i++) {
    const f = write(dir, name(i), '{}\n');
    const t = new Date(Date.now() - (before + i) * DAY);
    utimesSync(f, t, t);
  }
}

/** The status line's script, as the relay runs it, for `sessionId` at 12 % in `root`. */
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
  await keepNewest(dir, path.dirname(dir), (n) => n.endsWith('.json'), gitTracksEach, 2);
  assert.deepEqual(readdirSync(dir).sort(), ['r0.json', 'r1.json', 'r2.json', 'r9.json']);
  assert.ok(existsSync(elsewhere));
  await keepNewest(path.join(dir, 'missing'), path.dirname(dir), () => true, gitTracksEach, 0);
});

// ------------------------------------------------------------------ records a repository commits

/**
 * A workspace whose repository committed 40 records `name(i)` to `rel` (older than any of the machine's
 * own, which follow: 32 of them, untracked). Their paths.
 */
function committedAnd32Own(rel: string, name: (i: number) => string, files: Record<string, string> = {}) {
  const root = workspace(files);
  const dir = path.join(root, rel);
  aged(dir, 40, (i) => name(100 + i), 100);
  const tracked = Array.from({ length: 40 }, (_, i) => `${rel}/${name(101 + i)}`);
  gitInit(root);
  const ls = spawnSync('git', ['ls-files', '--', ...tracked], { cwd: root, encoding: 'utf8' });
  assert.equal(ls.stdout.trim().split('\n').length, 40, 'every one is tracked');
  aged(dir, 32, name);
  return { root, dir, tracked };
}

/** The 40 committed records are all there, git sees none deleted, and 32 of the machine's own: the new session's and the 31 newest. */
function committedKept(c: ReturnType<typeof committedAnd32Own>, name: (i: number) => string): void {
  const names = readdirSync(c.dir);
  for (const rel of c.tracked) assert.ok(names.includes(path.basename(rel)), `${rel}, tracked, stays in the work tree`);
  const st = spawnSync('git', ['status', '--porcelain', '--', ...c.tracked], { cwd: c.root, encoding: 'utf8' });
  assert.equal(st.stdout, '', 'git sees no tracked file deleted');
  const own = names.filter((n) => !c.tracked.some((rel) => path.basename(rel) === n) && !n.startsWith('session.'));
  assert.equal(own.length, SESSION_FILES_KEPT, `the tracked ones are not counted: ${own.length}`);
  assert.ok(own.includes(name(1000)) && own.includes(name(31)) && !own.includes(name(32)));
}

test("a new session's SessionStart record (the hook script, a real process) never prunes a record git tracks, nor counts it among the 32 kept", () => {
  const name = (i: number) => `${id(i)}.json`;
  const c = committedAnd32Own('.claude/session-ledger/sessions', name);
  const r = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'session-start'], {
    cwd: c.root,
    input: JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', session_id: id(1000), cwd: c.root }),
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: workspace({}, 'sl-home-'), CLAUDE_PROJECT_DIR: c.root },
  });
  assert.equal(r.status, 0, r.stderr);
  committedKept(c, name);
});

test("a new session's status line record (its script, a real process) never prunes a record git tracks, nor counts it among the 32 kept", () => {
  const name = (i: number) => `statusline.${id(i)}.json`;
  const c = committedAnd32Own('.claude/session-ledger', name, { '.claude/settings.json': '{}\n' });
  statusLine(c.root, id(1000));
  committedKept(c, name);
});
