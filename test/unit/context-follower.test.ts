/** ContextFollower: first read from the tail, then only appended bytes; shrink, replace and rewrite. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  openSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
  statSync,
} from 'node:fs';
import { ContextFollower, type SessionRef } from '../../src/core/context';
import { workspace, write } from './helpers';
import { asst, codexCount, codexMeta, codexTurn, compact, lines, progress, toolResult } from './context-records';

function follow(
  file: string,
  agent: 'claude' | 'codex' = 'claude',
  sessionId: string | null = 'sess-1',
): ContextFollower {
  const ref: SessionRef = { agent, sessionId, path: file, mtime: 0 };
  return new ContextFollower(ref);
}

test('a file appended to while followed: each read sees the new records', async () => {
  const dir = workspace();
  const file = write(dir, 's.jsonl', lines(asst({ read: 1000, input: 0 }), toolResult(20000)));
  const f = follow(file);
  assert.equal((await f.read())?.usedTokens, 1000);
  assert.equal((await f.read())?.usedTokens, 1000, 'unchanged file, same figure');
  appendFileSync(file, lines(asst({ read: 2000, input: 0, id: 'm2' }), progress()));
  assert.equal((await f.read())?.usedTokens, 2000);
  // Appended in two halves: the torn half is skipped, the completed record counts.
  const rec = asst({ read: 3000, input: 0, id: 'm3' });
  appendFileSync(file, rec.slice(0, 200));
  assert.equal((await f.read())?.usedTokens, 2000);
  appendFileSync(file, rec.slice(200) + '\n');
  assert.equal((await f.read())?.usedTokens, 3000);
  // A compaction, then a sidechain record, then the first assistant record after it.
  appendFileSync(file, lines(compact(15000), asst({ read: 99999, sidechain: true, id: 'side' })));
  const c = await f.read();
  assert.equal(c?.usedTokens, 15000);
  assert.equal(c?.afterCompaction, true);
  appendFileSync(file, lines(asst({ read: 16000, input: 0, id: 'm4' })));
  const d = await f.read();
  assert.equal(d?.usedTokens, 16000);
  assert.equal(d?.afterCompaction, false);
  // Junk appended changes nothing.
  appendFileSync(file, 'not json\n[1]\n42\n');
  assert.equal((await f.read())?.usedTokens, 16000);
});

test('later reads read only the appended bytes (an in-place change further back is not seen)', async () => {
  const dir = workspace();
  const a = asst({ read: 11111, input: 0 });
  const b = asst({ read: 99999, input: 0 }); // same length as a
  assert.equal(a.length, b.length);
  const file = write(dir, 's.jsonl', lines(a, toolResult(5000)));
  const f = follow(file);
  assert.equal((await f.read())?.usedTokens, 11111);
  // Rewrite the figure's record in place (same size, far before the end), then append.
  const fd = openSync(file, 'r+');
  writeSync(fd, b, 0, 'utf8');
  closeSync(fd);
  appendFileSync(file, lines(progress()));
  assert.equal((await f.read())?.usedTokens, 11111, 'only the appended bytes were read');
  // A fresh follower reads the tail and sees the rewritten record.
  assert.equal((await follow(file).read())?.usedTokens, 99999);
});

test('a file truncated and rewritten while followed is read again from its tail', async () => {
  const dir = workspace();
  const file = write(
    dir,
    's.jsonl',
    lines(asst({ read: 50000, input: 0 }), toolResult(30000), asst({ read: 60000, input: 0, id: 'm2' })),
  );
  const f = follow(file);
  assert.equal((await f.read())?.usedTokens, 60000);
  // Shrunk: truncated to nothing, then a new short session written.
  truncateSync(file, 0);
  assert.equal(await f.read(), null);
  appendFileSync(file, lines(asst({ read: 700, input: 0, id: 'n1' })));
  assert.equal((await f.read())?.usedTokens, 700);
  // Rewritten in place to a longer file with other content (same inode, larger size): its figure
  // lies before the old offset, so reading on from there would miss it.
  const before = statSync(file).ino;
  writeFileSync(file, lines(asst({ read: 800, input: 0, id: 'n2' }), toolResult(10000)));
  assert.equal(statSync(file).ino, before);
  assert.equal((await f.read())?.usedTokens, 800);
  // Replaced by rename (another inode), even with a size that looks like growth.
  const tmp = write(dir, 'tmp.jsonl', lines(toolResult(40000), asst({ read: 900, input: 0, id: 'n3' })));
  renameSync(tmp, file);
  assert.equal((await f.read())?.usedTokens, 900);
  // Removed: no figure; recreated: read again.
  rmSync(file);
  assert.equal(await f.read(), null);
  write(dir, 's.jsonl', lines(asst({ read: 1000, input: 0, id: 'n4' })));
  assert.equal((await f.read())?.usedTokens, 1000);
});

test('a huge append (more than the scan budget) is answered from the tail', async () => {
  const dir = workspace();
  const file = write(dir, 's.jsonl', lines(asst({ read: 100, input: 0 })));
  const f = new ContextFollower({ agent: 'claude', sessionId: 's', path: file, mtime: 0 }, { maxScanBytes: 64 * 1024 });
  assert.equal((await f.read())?.usedTokens, 100);
  appendFileSync(
    file,
    lines(...Array.from({ length: 10 }, () => toolResult(20000)), asst({ read: 200, input: 0, id: 'm2' })),
  );
  assert.equal((await f.read())?.usedTokens, 200);
  // More than the budget of records without usage: the last figure stays.
  appendFileSync(file, lines(...Array.from({ length: 10 }, () => toolResult(20000))));
  assert.equal((await f.read())?.usedTokens, 200);
});

test('Codex rollout followed: token_count events appended, null info ignored', async () => {
  const dir = workspace();
  const file = write(
    dir,
    'rollout.jsonl',
    lines(codexMeta('id-1', '/p'), codexTurn('gpt-5.3-codex'), codexCount(null)),
  );
  const f = follow(file, 'codex', null);
  assert.equal(await f.read(), null);
  appendFileSync(file, lines(codexCount(12000)));
  const u = await f.read();
  assert.equal(u?.usedTokens, 12000);
  assert.equal(u?.model, 'gpt-5.3-codex');
  assert.equal(u?.sessionId, 'id-1'); // from session_meta, which the tail scan reached
  appendFileSync(file, lines(codexTurn('gpt-5.4'), codexCount(null), codexCount(20000, 400000)));
  const v = await f.read();
  assert.equal(v?.usedTokens, 20000);
  assert.equal(v?.windowTokens, 400000);
  assert.equal(v?.percent, 5);
  assert.equal(v?.model, 'gpt-5.4');
});
