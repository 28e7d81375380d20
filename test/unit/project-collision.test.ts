/**
 * Two folders whose Claude Code project folder names collide: `/x/my-app` and `/x/my/app` both
 * become `projects/-x-my-app/`. Each transcript names its own folder in its `cwd`; the meter, the
 * session list (the checkpoint's and the extension's pick) and `context` take only this folder's.
 */
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import {
  claudeProjectDirName,
  claudeTranscriptCwd,
  cwdMember,
  CWD_UNCONFIRMED,
  findClaudeSession,
  findSessions,
} from '../../src/core/context/discovery';
import { measure } from '../../src/core/context/measure';
import { recentSessions } from '../../src/core/context/sessions';
import { assertLinear, workspace } from './helpers';
import { runIn } from './hostile-helpers';

const A_SID = '11111111-2222-4333-8444-555555555555';
const B_SID = '99999999-8888-4777-8666-555555555555';
const OTHER_SID = '77777777-6666-4555-8444-333333333333';

/** A transcript of `cwd` with one assistant record of `used` tokens, written `agoMs` ago. */
function transcriptOf(dir: string, sid: string, cwd: string, used: number, agoMs: number): string {
  const rec = (o: Record<string, unknown>) =>
    JSON.stringify({ sessionId: sid, cwd, timestamp: new Date().toISOString(), ...o });
  const f = path.join(dir, `${sid}.jsonl`);
  writeFileSync(
    f,
    [
      rec({ type: 'user', message: { role: 'user', content: `work in ${cwd}` } }),
      rec({
        type: 'assistant',
        message: {
          model: 'claude-sonnet-4-5-20250929',
          role: 'assistant',
          content: [{ type: 'text', text: 'ok' }],
          usage: { input_tokens: used, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      }),
      '',
    ].join('\n'),
  );
  const t = new Date(Date.now() - agoMs);
  utimesSync(f, t, t);
  return f;
}

/** `<tmp>/my-app` and `<tmp>/my/app`, one shared project folder, each with its own session; the other folder's is newer. */
function collision(): { a: string; b: string; home: string } {
  const base = workspace({});
  const a = path.join(base, 'my-app');
  const b = path.join(base, 'my', 'app');
  mkdirSync(a, { recursive: true });
  mkdirSync(b, { recursive: true });
  const home = path.join(base, 'claude-home');
  assert.equal(claudeProjectDirName(a), claudeProjectDirName(b), 'the two folders share one project folder name');
  const shared = path.join(home, 'projects', claudeProjectDirName(a));
  mkdirSync(shared, { recursive: true });
  transcriptOf(shared, A_SID, a, 40_000, 120_000);
  transcriptOf(shared, B_SID, b, 150_000, 10_000);
  return { a, b, home };
}

test("the meter gives each folder its own session's figure, not the newer one of the other folder", async () => {
  const { a, b, home } = collision();
  const [ua] = await measure(a, { claudeHome: home, agent: 'claude' });
  assert.equal(ua?.sessionId, A_SID);
  assert.equal(ua?.usedTokens, 40_000);
  const [ub] = await measure(b, { claudeHome: home, agent: 'claude' });
  assert.equal(ub?.sessionId, B_SID);
  assert.equal(ub?.usedTokens, 150_000);
  assert.equal((await findClaudeSession(a, { claudeHome: home }))?.sessionId, A_SID);
  // The extension's meter finds sessions with findSessions.
  assert.deepEqual(
    (await findSessions(a, { claudeHome: home })).map((s) => s.sessionId),
    [A_SID],
  );
});

test("the recent sessions (the checkpoint's and the extension's pick) list only this folder's", async () => {
  const { a, b, home } = collision();
  assert.deepEqual(
    (await recentSessions(a, { claudeHome: home, windowMinutes: 30 })).map((s) => s.sessionId),
    [A_SID],
  );
  assert.deepEqual(
    (await recentSessions(b, { claudeHome: home, windowMinutes: 30 })).map((s) => s.sessionId),
    [B_SID],
  );
});

test('context names this folder’s session; with only the other folder’s transcript it finds none', async () => {
  const { a, home } = collision();
  const r = await runIn(['context', '--json', '--root', a, '--agent', 'claude'], { env: { CLAUDE_CONFIG_DIR: home } });
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { sessionId: string; usedTokens: number };
  assert.equal(j.sessionId, A_SID);
  assert.equal(j.usedTokens, 40_000);
  // Only the other folder's session there: none of this folder's.
  const lone = workspace({});
  const c = path.join(lone, 'my-app');
  mkdirSync(path.join(lone, 'my', 'app'), { recursive: true });
  mkdirSync(c);
  const home2 = path.join(lone, 'home');
  const dir = path.join(home2, 'projects', claudeProjectDirName(c));
  mkdirSync(dir, { recursive: true });
  transcriptOf(dir, B_SID, path.join(lone, 'my', 'app'), 150_000, 0);
  const r2 = await runIn(['context', '--json', '--root', c, '--agent', 'claude'], {
    env: { CLAUDE_CONFIG_DIR: home2 },
  });
  assert.equal(r2.code, 3, r2.stdout);
  assert.match(r2.stderr, /no Claude Code session found/);
});

/** A folder `proj` of its own (no other folder shares its project folder), its Claude Code home and project folder. */
function lone(): { a: string; home: string; dir: string } {
  const base = workspace({});
  const a = path.join(base, 'proj');
  mkdirSync(a);
  const home = path.join(base, 'home');
  const dir = path.join(home, 'projects', claudeProjectDirName(a));
  mkdirSync(dir, { recursive: true });
  return { a, home, dir };
}

test('a transcript that records no cwd yet is still taken (a session just started)', async () => {
  const { a, home, dir } = lone();
  const f = path.join(dir, `${A_SID}.jsonl`);
  writeFileSync(f, `${JSON.stringify({ type: 'summary', summary: 'x', leafUuid: 'u' })}\n`);
  assert.equal((await findClaudeSession(a, { claudeHome: home }))?.sessionId, A_SID);
});

/** `f` with `before` in front of its records, its time kept. */
function prepend(f: string, before: string | Buffer, agoMs: number): void {
  const rest = readFileSync(f);
  writeFileSync(f, Buffer.concat([Buffer.from(before), rest]));
  const t = new Date(Date.now() - agoMs);
  utimesSync(f, t, t);
}

/** Claude Code's record of a prompt queued while the agent worked (it names no cwd), holding `text`. */
const queued = (text: string) =>
  `${JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp: new Date().toISOString(), content: text, sessionId: A_SID })}\n`;

test("the other folder's transcript whose first 256 KB name no cwd is told by the cwd after them, not taken", async () => {
  const { a, b, home } = collision();
  const shared = path.join(home, 'projects', claudeProjectDirName(a));
  const f = transcriptOf(shared, B_SID, b, 150_000, 10_000);
  // Summary records (they carry no cwd) fill the head before the other folder's records.
  const summary = JSON.stringify({ type: 'summary', summary: 'x'.repeat(1000), leafUuid: 'u' });
  prepend(f, `${summary}\n`.repeat(300), 10_000);
  const [ua] = await measure(a, { claudeHome: home, agent: 'claude' });
  assert.equal(ua?.sessionId, A_SID);
  assert.equal(ua?.usedTokens, 40_000);
  assert.equal((await findClaudeSession(a, { claudeHome: home }))?.sessionId, A_SID);
  assert.deepEqual(
    (await recentSessions(a, { claudeHome: home, windowMinutes: 30 })).map((s) => s.sessionId),
    [A_SID],
  );
});

test("this folder's own session that begins with a queued prompt of 300 KB (no cwd in the head) is still its session", async () => {
  const { a, home, dir } = lone();
  const f = transcriptOf(dir, A_SID, a, 90_000, 0);
  prepend(f, queued('pasted log line\n'.repeat(20_000)), 0);
  const [u] = await measure(a, { claudeHome: home, agent: 'claude' });
  assert.equal(u?.sessionId, A_SID);
  assert.equal(u?.usedTokens, 90_000);
  assert.deepEqual(
    (await recentSessions(a, { claudeHome: home, windowMinutes: 30 })).map((s) => s.sessionId),
    [A_SID],
  );
});

test("the other folder's transcript whose first 16 MB name no cwd is taken by neither folder", async () => {
  const { a, b, home } = collision();
  const shared = path.join(home, 'projects', claudeProjectDirName(a));
  const f = transcriptOf(shared, B_SID, b, 150_000, 10_000);
  // 17 MB of queued prompts (the file is sparse: its zeros hold no cwd), then the other folder's records.
  const rest = readFileSync(f);
  writeFileSync(f, queued('x'));
  truncateSync(f, 17 * 1024 * 1024);
  appendFileSync(f, Buffer.concat([Buffer.from('\n'), rest]));
  const t = new Date(Date.now() - 10_000);
  utimesSync(f, t, t);
  const [ua] = await measure(a, { claudeHome: home, agent: 'claude' });
  assert.equal(ua?.sessionId, A_SID);
  // Nothing in the first 16 MB says whose it is: not the other folder's session either.
  assert.equal(await findClaudeSession(b, { claudeHome: home }), null);
});

test('a transcript replaced at its path is read anew; a key that only ends in cwd, and members that are no string, say no folder', async () => {
  const { dir } = lone();
  const f = path.join(dir, `${A_SID}.jsonl`);
  // A session whose first 300 KB name no cwd: none yet.
  writeFileSync(f, queued('y'.repeat(300 * 1024)));
  assert.equal(await claudeTranscriptCwd(f), null);
  // The same path, now a short transcript of another folder: its cwd, not the first look's progress.
  rmSync(f);
  writeFileSync(f, `${JSON.stringify({ type: 'user', cwd: '/x/my/app', sessionId: A_SID })}\n`);
  assert.equal(await claudeTranscriptCwd(f), '/x/my/app');
  const g = path.join(dir, `${B_SID}.jsonl`);
  const late = `${JSON.stringify({ type: 'user', cwd: '/x/my-app', sessionId: B_SID })}\n`;
  // Past the head: a key that ends in cwd is no cwd member; the record's own is.
  writeFileSync(g, `${queued('z'.repeat(300 * 1024))}{"type":"system","a\\"cwd":"/x/my/app"}\n${late}`);
  assert.equal(await claudeTranscriptCwd(g), '/x/my-app');
  // 2 MB of members that are no JSON string: the look gives up after a few, not after every one.
  const h = path.join(dir, `${OTHER_SID}.jsonl`);
  writeFileSync(h, `${queued('q'.repeat(300 * 1024))}${'{"x":1,"cwd":"\\q"}\n'.repeat(100_000)}${late}`);
  assert.equal(await claudeTranscriptCwd(h), CWD_UNCONFIRMED);
});

test('a file taken anew at its path, whatever its inode, is read anew: deleted and made again, emptied and grown, replaced by a rename', async () => {
  const { dir } = lone();
  const f = path.join(dir, `${A_SID}.jsonl`);
  const named = (cwd: string, pad = 0) =>
    `${JSON.stringify({ type: 'user', cwd, sessionId: A_SID })}\n${queued('p'.repeat(pad))}`;
  // Deleted and made again (the inode number may be reused), longer than the first look read.
  writeFileSync(f, queued('y'.repeat(600 * 1024)));
  assert.equal(await claudeTranscriptCwd(f), null);
  rmSync(f);
  writeFileSync(f, named('/b', 700 * 1024));
  assert.equal(await claudeTranscriptCwd(f), '/b');
  // Rewritten in place, then emptied and grown again with another folder's records.
  writeFileSync(f, named('/b2'));
  assert.equal(await claudeTranscriptCwd(f), '/b2');
  const g = path.join(dir, `${B_SID}.jsonl`);
  writeFileSync(g, queued('y'.repeat(600 * 1024)));
  assert.equal(await claudeTranscriptCwd(g), null);
  truncateSync(g, 0);
  appendFileSync(g, named('/c', 700 * 1024));
  assert.equal(await claudeTranscriptCwd(g), '/c');
  // A cwd found, then the file replaced by a rename.
  const h = path.join(dir, `${OTHER_SID}.jsonl`);
  writeFileSync(h, named('/d'));
  assert.equal(await claudeTranscriptCwd(h), '/d');
  writeFileSync(`${h}.new`, named('/e'));
  renameSync(`${h}.new`, h);
  assert.equal(await claudeTranscriptCwd(h), '/e');
});

test('the cwd member is found in time linear in the text (runs of spaces, many names that are no member)', () => {
  const text = (n: number) => `{"content":"${' '.repeat(n)}${`${' '.repeat(50)}"cwd"`.repeat(n / 64)}"}`;
  assertLinear('cwdMember', (t) => cwdMember(t), text(64 * 1024), text(256 * 1024));
  assert.equal(cwdMember(`{"a":1,  "cwd" : "/x"}`), '/x');
});

test('a FIFO at a transcript path is read as an empty file: the look for its cwd does not wait for a writer', async () => {
  const { dir } = lone();
  const f = path.join(dir, `${A_SID}.jsonl`);
  execFileSync('mkfifo', [f]);
  assert.equal(await claudeTranscriptCwd(f), null);
});
