/**
 * Which session a checkpoint speaks for, attacked with files a hostile repository commits into the
 * workspace (a checkout gives each a fresh file time): SessionStart records under
 * `.claude/session-ledger/` that no hook of this machine wrote, and folders at marker paths no guard
 * reads. Each test starts from the planted files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { recentSessions } from '../../src/core/context/sessions';
import { SESSION_RECORD_REL, SESSION_RECORDS_DIR_REL, writeSessionRecord } from '../../src/core/hooks/session-record';
import { cli, cliProcess, git, gitInit, workspace } from './helpers';
import { CONFIRM_ALL, markers, S3_STATE, SID } from './checkpoint-fixtures';

/** Write `text` at `file`, its folders made. */
function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const PLANTED = 'aaaaaaaa-1111-4111-8111-111111111111';
const PLANTED_2 = 'bbbbbbbb-2222-4222-8222-222222222222';

/** A record as the SessionStart hook writes it, naming `cwd`. */
const recordText = (id: string, cwd: string) =>
  `${JSON.stringify({ session_id: id, transcript_path: null, source: 'startup', cwd, at: new Date().toISOString(), pids: [], agent: 'claude' }, null, 2)}\n`;

/** An S3 workspace committed with `planted` (relative path → text), and empty Claude Code and Codex homes. */
function hostile(planted: (dir: string) => void): { dir: string; env: Record<string, string> } {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  planted(dir);
  gitInit(dir);
  const home = workspace({}, 'sl-home-');
  return { dir, env: { CLAUDE_CONFIG_DIR: home, CODEX_HOME: home } };
}

test('checkpoint takes no session id from a SessionStart record the repository ships: cwd /proc/self/cwd, cwd the folder itself in a record git tracks, a record reached through a link', () => {
  const record = (dir: string) => path.join(dir, SESSION_RECORD_REL);
  const cases: Array<[string, (dir: string) => void, (dir: string) => void]> = [
    // Resolved, /proc/self/cwd is the folder of whatever process reads it: the CLI run from the workspace.
    // Not committed (an archive of the repository holds no git): only its cwd can tell.
    ['cwd /proc/self/cwd', () => undefined, (dir) => write(record(dir), recordText(PLANTED, '/proc/self/cwd'))],
    // The folder's own path (guessed: CI and dev containers use fixed ones), committed.
    ['cwd the folder, committed', (dir) => write(record(dir), recordText(PLANTED, dir)), () => undefined],
    // A link (not committed here: an archive of the repository holds one too): the hook writes through no
    // link, so it could not replace the record either.
    [
      'a link to a file of the repository, cwd the folder',
      (dir) => write(path.join(dir, 'docs/rec.json'), recordText(PLANTED, dir)),
      (dir) => {
        mkdirSync(path.dirname(record(dir)), { recursive: true });
        symlinkSync('../../docs/rec.json', record(dir));
      },
    ],
  ];
  for (const [what, committed, after] of cases) {
    const { dir, env } = hostile(committed);
    after(dir);
    const r = cliProcess(['checkpoint', ...CONFIRM_ALL], { cwd: dir, env });
    assert.equal(r.code, 0, `${what}: ${r.stdout}${r.stderr}`);
    assert.deepEqual(markers(dir), ['.checkpoint-ready'], `${what}: ${r.stdout}`);
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(PLANTED), what);
    assert.match(r.stdout, /the shared marker, because no session id is known/, what);
  }
});

test("the SessionStart hook's own record still names the session: cwd the folder's real path, or a folder inside it", async () => {
  for (const sub of ['', 'docs']) {
    const { dir, env } = hostile(() => undefined);
    await writeSessionRecord(dir, {
      session_id: SID,
      transcript_path: null,
      source: 'startup',
      cwd: path.join(dir, sub),
      at: new Date().toISOString(),
      pids: [],
    });
    const r = cliProcess(['checkpoint', ...CONFIRM_ALL], { cwd: dir, env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(markers(dir), [`.checkpoint-ready.${SID}`], sub);
    assert.match(r.stdout, /recorded by the SessionStart hook/);
  }
});

test('records the repository ships under sessions/ are no live sessions: none is listed, none makes the checkpoint ambiguous', async () => {
  const THIRD = 'cccccccc-3333-4333-8333-333333333333';
  const FOURTH = 'dddddddd-4444-4444-8444-444444444444';
  const { dir, env } = hostile((d) => {
    const sessions = path.join(d, SESSION_RECORDS_DIR_REL);
    mkdirSync(sessions, { recursive: true });
    // Committed: one naming the folder's own path (guessed: CI and dev containers use fixed ones), one another folder.
    writeFileSync(path.join(sessions, `${PLANTED}.json`), recordText(PLANTED, d));
    writeFileSync(path.join(sessions, `${PLANTED_2}.json`), recordText(PLANTED_2, '/somewhere/else'));
    writeFileSync(path.join(d, 'docs/rec.json'), recordText(THIRD, d));
  });
  // Not committed (an archive of the repository holds no git): a link to a file of the repository naming
  // the folder, and a record whose cwd is /proc/self/cwd.
  const sessions = path.join(dir, SESSION_RECORDS_DIR_REL);
  symlinkSync('../../../docs/rec.json', path.join(sessions, `${THIRD}.json`));
  writeFileSync(path.join(sessions, `${FOURTH}.json`), recordText(FOURTH, '/proc/self/cwd'));
  assert.equal(git(dir, 'ls-files', SESSION_RECORDS_DIR_REL).trim().split('\n').length, 2);
  const home = env.CLAUDE_CONFIG_DIR;
  assert.deepEqual(await recentSessions(dir, { claudeHome: home, codexHome: home }), []);
  const r = cliProcess(['checkpoint', ...CONFIRM_ALL], { cwd: dir, env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(markers(dir), ['.checkpoint-ready']);
  // The hook's own record beside them is the session.
  await writeSessionRecord(dir, {
    session_id: SID,
    transcript_path: null,
    source: 'startup',
    cwd: dir,
    at: new Date().toISOString(),
    pids: [],
  });
  assert.deepEqual(
    (await recentSessions(dir, { claudeHome: home, codexHome: home })).map((s) => s.sessionId),
    [SID],
  );
});

test('a folder at a marker path no guard reads (its name no session id) does not stop the shared marker, and no command is shown with its name', () => {
  const odd = ['.checkpoint-ready.x;touch PWNED;#', '.checkpoint-ready.\u001b[2Jz', '.checkpoint-ready.a b'];
  const { dir, env } = hostile((d) => {
    for (const n of odd) {
      mkdirSync(path.join(d, '.claude', n), { recursive: true });
      writeFileSync(path.join(d, '.claude', n, 'keep'), '');
    }
  });
  const r = cli(['checkpoint', ...CONFIRM_ALL], { cwd: dir, env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(path.join(dir, '.claude/.checkpoint-ready')), r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /PWNED|rm -r/);
  const shared = cli(['checkpoint', '--shared', ...CONFIRM_ALL], { cwd: dir, env });
  assert.equal(shared.code, 0, shared.stdout + shared.stderr);
  // A folder at a path a guard does read (a session id's) still stops it, and says how to remove it.
  mkdirSync(path.join(dir, `.claude/.checkpoint-ready.${PLANTED}`));
  const planted = cli(['checkpoint', '--shared', ...CONFIRM_ALL], { cwd: dir, env });
  assert.equal(planted.code, 1, planted.stdout);
  assert.match(planted.stderr, new RegExp(`Remove it \\(rm -r \\.claude/\\.checkpoint-ready\\.${PLANTED}\\)`));
});
