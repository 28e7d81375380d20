import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import {
  claudeProjectDirName,
  encodeClaudeProjectDir,
  findClaudeSession,
  findCodexSession,
  findSessions,
} from '../../src/core/context';
import { workspace, write } from './helpers';

function touch(file: string, secondsAgo: number): void {
  const t = Date.now() / 1000 - secondsAgo;
  utimesSync(file, t, t);
}

const asst = (sid: string, cwd: string) =>
  JSON.stringify({
    type: 'assistant',
    sessionId: sid,
    cwd,
    message: {
      id: 'm',
      role: 'assistant',
      model: 'claude-opus-4-6',
      usage: { input_tokens: 1, cache_creation_input_tokens: 2, cache_read_input_tokens: 3, output_tokens: 4 },
    },
  }) + '\n';

test('encodeClaudeProjectDir replaces every non-alphanumeric character with -', () => {
  assert.equal(
    encodeClaudeProjectDir('/home/USER/projects/spotter-worktrees/spotter-gqc'),
    '-home-USER-projects-spotter-worktrees-spotter-gqc',
  );
  assert.equal(encodeClaudeProjectDir('/a/b.c_d e/ü'), '-a-b-c-d-e--');
  assert.equal(encodeClaudeProjectDir('C:\\Users\\me\\proj'), 'C--Users-me-proj');
});

test('findClaudeSession: newest <session-id>.jsonl of the encoded folder, never subagents or agent-* files', async () => {
  const home = workspace({}, 'sl-claude-');
  const root = workspace({}, 'sl-root-');
  const dir = path.join(home, 'projects', encodeClaudeProjectDir(root));
  const older = write(dir, 'aaaaaaaa-1111-2222-3333-444444444444.jsonl', asst('a', root));
  const newer = write(dir, 'bbbbbbbb-1111-2222-3333-444444444444.jsonl', asst('b', root));
  const sub = write(dir, 'bbbbbbbb-1111-2222-3333-444444444444/subagents/agent-a1.jsonl', asst('b', root));
  const side = write(dir, 'agent-deadbeef.jsonl', asst('b', root));
  write(
    path.join(home, 'projects', encodeClaudeProjectDir(root + '-other')),
    'cccccccc-1111-2222-3333-444444444444.jsonl',
    asst('c', root),
  );
  touch(older, 100);
  touch(newer, 50);
  touch(sub, 1);
  touch(side, 1);
  const ref = await findClaudeSession(root, { claudeHome: home });
  assert.ok(ref);
  assert.equal(ref.path, newer);
  assert.equal(ref.sessionId, 'bbbbbbbb-1111-2222-3333-444444444444');
  assert.equal(ref.agent, 'claude');
  touch(older, 10);
  assert.equal((await findClaudeSession(root, { claudeHome: home }))?.path, older);
  // CLAUDE_CONFIG_DIR is the default home.
  assert.equal((await findClaudeSession(root, { env: { CLAUDE_CONFIG_DIR: home } }))?.path, older);
  // Nothing for a folder without a project dir.
  assert.equal(await findClaudeSession(workspace(), { claudeHome: home }), null);
  assert.equal(await findClaudeSession(root, { claudeHome: path.join(home, 'missing') }), null);
});

test('findClaudeSession: a cut long name with a hash suffix is matched by the cwd inside the transcript', async () => {
  const home = workspace({}, 'sl-claude-');
  const base = workspace({}, 'sl-root-');
  const root = path.join(base, 'a-very-long-folder-name-'.repeat(10), 'project.with.dots');
  mkdirSync(root, { recursive: true });
  const enc = encodeClaudeProjectDir(root);
  assert.ok(enc.length > 200);
  const cut = `${enc.slice(0, 200)}-1x2y3z`;
  const other = `${enc.slice(0, 200)}-9q8w7e`;
  const rec = (cwd: string) =>
    JSON.stringify({ type: 'file-history-snapshot', snapshot: {} }) +
    '\n' +
    JSON.stringify({ type: 'user', cwd, sessionId: 's', message: { role: 'user', content: 'hi' } }) +
    '\n';
  const mine = write(path.join(home, 'projects', cut), 'mine.jsonl', rec(root));
  const theirs = write(path.join(home, 'projects', other), 'theirs.jsonl', rec(root + '-sibling'));
  touch(mine, 100);
  touch(theirs, 1);
  const ref = await findClaudeSession(root, { claudeHome: home });
  assert.equal(ref?.path, mine);
  assert.equal(ref?.sessionId, 'mine');
});

test('claudeProjectDirName: names over 200 characters are cut to 200 + `-` + the base-36 Java hash of the path, as Claude Code 2.1.332 names them', async () => {
  // Seen with the real client: this 242-character path went to `<first 200>-rwt8zd`.
  const seen = '/tmp/rc-explore/run5/' + 'a-very-long-folder-name-'.repeat(9) + '/proj';
  const enc = encodeClaudeProjectDir(seen);
  assert.equal(claudeProjectDirName(seen), `${enc.slice(0, 200)}-rwt8zd`);
  // Short names are the plain encoding (every non [A-Za-z0-9] UTF-16 unit becomes '-').
  assert.equal(claudeProjectDirName('/tmp/x/ünïcødé-名前'), '-tmp-x--n-c-d----');
  assert.equal(claudeProjectDirName('/tmp/x/at@scope/with space/dots.v1.2'), '-tmp-x-at-scope-with-space-dots-v1-2');
  // The named folder is found without reading any transcript's cwd.
  const home = workspace({}, 'sl-claude-');
  const root = path.join(workspace({}, 'sl-root-'), 'a-very-long-folder-name-'.repeat(10), 'p');
  mkdirSync(root, { recursive: true });
  const f = write(path.join(home, 'projects', claudeProjectDirName(root)), 'abc.jsonl', '{}\n');
  assert.equal((await findClaudeSession(root, { claudeHome: home }))?.path, f);
});

test('findClaudeSession: a symbolic link to the workspace finds the real path folder', async () => {
  const home = workspace({}, 'sl-claude-');
  const real = workspace({}, 'sl-real-');
  const link = path.join(workspace({}, 'sl-link-'), 'ln');
  symlinkSync(real, link);
  const f = write(path.join(home, 'projects', encodeClaudeProjectDir(real)), 's1.jsonl', asst('s1', real));
  assert.equal((await findClaudeSession(link, { claudeHome: home }))?.path, f);
});

function rollout(cwd: string, id: string): string {
  return (
    JSON.stringify({
      timestamp: '2026-02-23T11:40:29.275Z',
      type: 'session_meta',
      payload: { id, cwd, base_instructions: { text: 'x'.repeat(40000) } },
    }) +
    '\n' +
    JSON.stringify({ type: 'event_msg', payload: { type: 'token_count', info: null } }) +
    '\n'
  );
}

test('findCodexSession: newest rollout whose session_meta cwd is this folder, recent days first', async () => {
  const home = workspace({}, 'sl-codex-');
  const root = workspace({}, 'sl-root-');
  const id1 = '019c8a4c-ed82-79a1-aa28-7738fc5ab61a';
  const id2 = '019c8a53-a0dd-7130-bcd7-95445d84846a';
  const id3 = '019c8a70-dda7-7f33-98ea-f30553347322';
  const a = write(home, `sessions/2026/02/23/rollout-2026-02-23T12-40-23-${id1}.jsonl`, rollout(root, id1));
  const b = write(home, `sessions/2026/02/24/rollout-2026-02-24T08-00-00-${id2}.jsonl`, rollout(root, id2));
  const c = write(
    home,
    `sessions/2026/02/24/rollout-2026-02-24T09-00-00-${id3}.jsonl`,
    rollout('/somewhere/else', id3),
  );
  touch(a, 300);
  touch(b, 200);
  touch(c, 1);
  let ref = await findCodexSession(root, { codexHome: home });
  assert.equal(ref?.path, b);
  assert.equal(ref?.sessionId, id2);
  assert.equal(ref?.agent, 'codex');
  // A long session keeps its start day's folder: the newest by modification time wins.
  touch(a, 5);
  ref = await findCodexSession(root, { codexHome: home });
  assert.equal(ref?.path, a);
  // CODEX_HOME is the default.
  assert.equal((await findCodexSession(root, { env: { CODEX_HOME: home } }))?.path, a);
  assert.equal(await findCodexSession(workspace(), { codexHome: home }), null);
});

test('findCodexSession: an old session is still found when no recent day holds this folder, within bounds', async () => {
  const home = workspace({}, 'sl-codex-');
  const root = workspace({}, 'sl-root-');
  const old = write(
    home,
    'sessions/2025/11/02/rollout-2025-11-02T10-00-00-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee.jsonl',
    rollout(root, 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee'),
  );
  for (let d = 1; d <= 20; d++)
    write(home, `sessions/2026/01/${String(d).padStart(2, '0')}/rollout-x-${d}.jsonl`, rollout('/other', `id${d}`));
  assert.equal((await findCodexSession(root, { codexHome: home }))?.path, old);
});

test('findSessions: both agents, newest first', async () => {
  const home = workspace({}, 'sl-home-');
  const root = workspace({}, 'sl-root-');
  const cl = write(path.join(home, '.claude', 'projects', encodeClaudeProjectDir(root)), 'c1.jsonl', asst('c1', root));
  const cx = write(
    home,
    '.codex/sessions/2026/03/01/rollout-2026-03-01T00-00-00-11111111-2222-3333-4444-555555555555.jsonl',
    rollout(root, '11111111-2222-3333-4444-555555555555'),
  );
  touch(cl, 100);
  touch(cx, 10);
  const env = { HOME: home };
  let refs = await findSessions(root, { env });
  assert.deepEqual(
    refs.map((r) => r.agent),
    ['codex', 'claude'],
  );
  touch(cl, 1);
  refs = await findSessions(root, { env });
  assert.deepEqual(
    refs.map((r) => r.agent),
    ['claude', 'codex'],
  );
  assert.deepEqual(await findSessions(workspace(), { env }), []);
});
