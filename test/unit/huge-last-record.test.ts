/**
 * A transcript whose last record is 200 MB (a pasted file): `context` says that record is too
 * large to read and gives the last figure before it, instead of "no usage found yet". The record's
 * bytes are read once (counted reads, not timings) and none of them kept (the memory Buffers hold
 * once it has been passed over, after a full garbage collection, in a process of its own). The files are sparse:
 * 200 MB on the disk's books, nothing written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ContextFollower } from '../../src/core/context/follower';
import { openRead, scanBackward, type Handle } from '../../src/core/context/files';
import { workspace } from './helpers';
import { runIn } from './hostile-helpers';

const SID = '3b9f6c2e-1d4a-4e8b-9c7f-2a6d5e4f3b1c';
const MB = 1024 * 1024;

const assistant = (used: number) =>
  JSON.stringify({
    type: 'assistant',
    sessionId: SID,
    timestamp: '2026-12-03T10:00:00.000Z',
    message: {
      model: 'claude-opus-4-6',
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: used - 105 },
    },
  });

/** Append a user record of about `bytes` bytes (a pasted file; the middle is a hole of the sparse file). */
function appendHugeRecord(file: string, bytes: number): void {
  appendFileSync(file, '{"type":"user","sessionId":"s","message":{"role":"user","content":"');
  truncateSync(file, statSync(file).size + bytes);
  appendFileSync(file, '"}}\n');
}

function transcript(lines: string[], hugeBytes: number): string {
  const file = path.join(workspace({}), `${SID}.jsonl`);
  writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
  appendHugeRecord(file, hugeBytes);
  return file;
}

test('context: a 200 MB last record is named too large to read, and the figure before it is given', async () => {
  const file = transcript([assistant(90_105)], 200 * MB);
  assert.ok(statSync(file).size > 200 * MB);
  const r = await runIn(['context', '--transcript', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /90\.1k of/);
  assert.match(r.stdout, /the newest record \(200 MB\) is too large to read: this figure is the last one before it/);
  const j = await runIn(['context', '--json', '--transcript', file]);
  const u = JSON.parse(j.stdout) as { usedTokens: number; tooLargeRecordBytes: number };
  assert.equal(u.usedTokens, 90_105);
  assert.ok(u.tooLargeRecordBytes > 200 * MB && u.tooLargeRecordBytes < 201 * MB, String(u.tooLargeRecordBytes));
});

test('context: with no figure before the 200 MB record, it says so (not "no usage found yet")', async () => {
  const file = transcript(
    [JSON.stringify({ type: 'user', sessionId: SID, message: { role: 'user', content: 'hi' } })],
    200 * MB,
  );
  const r = await runIn(['context', '--transcript', file]);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /the newest record of .* \(200 MB\) is too large to read, and no usage was found before it/);
});

test('the backward scan reads each byte of the huge record once and keeps none of it', async () => {
  const file = transcript([assistant(90_105)], 200 * MB);
  const size = statSync(file).size;
  const fh = (await openRead(file)) as Handle;
  let bytes = 0;
  let largest = 0;
  const counted = {
    read: (buf: Buffer, off: number, len: number, pos: number) => {
      bytes += len;
      largest = Math.max(largest, len);
      return fh.read(buf, off, len, pos);
    },
  } as unknown as Handle;
  const seen: number[] = [];
  const over: number[] = [];
  try {
    const r = await scanBackward(
      counted,
      size,
      64 * MB,
      (line) => {
        seen.push(line.length);
        return true;
      },
      64 * 1024,
      16 * MB,
      (length) => over.push(length),
    );
    assert.equal(r, 'stopped');
  } finally {
    await fh.close();
  }
  assert.equal(over.length, 1);
  assert.ok(over[0] > 200 * MB, String(over[0]));
  assert.deepEqual(seen, [assistant(90_105).length], 'the line before the record is the one visited');
  assert.ok(bytes <= size, `${bytes} bytes read for a ${size}-byte file`);
  assert.ok(largest <= MB, `the largest read was ${largest} bytes`);

  // What the scan still holds of the record once it has passed over it: the memory Buffers take,
  // after a full collection, in a process of its own (no other test's buffers counted).
  const files = path.join(__dirname, '..', '..', 'src', 'core', 'context', 'files.js');
  const measured = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '-e',
      `const { openRead, scanBackward } = require(${JSON.stringify(files)});
      (async () => {
        const fh = await openRead(process.argv[1]);
        // Twice: the second collection finishes freeing the ArrayBuffers the first one found dead (it
        // leaves that to a concurrent sweep, and once alone it counted 8 to 12 MB that were no longer held).
        gc();
        gc();
        const before = process.memoryUsage().arrayBuffers;
        let held = -1;
        await scanBackward(fh, Number(process.argv[2]), ${64 * MB}, () => true, 65536, ${16 * MB}, () => {
          gc();
          gc();
          held = process.memoryUsage().arrayBuffers - before;
        });
        await fh.close();
        process.stdout.write(String(held));
      })();`,
      file,
      String(size),
    ],
    { encoding: 'utf8' },
  );
  const held = Number(measured.stdout);
  assert.ok(held >= 0, `the record was passed over (${measured.stdout}${measured.stderr})`);
  assert.ok(held < 8 * MB, `${(held / MB).toFixed(1)} MB still held when the 200 MB record had been passed over`);
});

test('a follower: a huge record appended after the figure is named; a figure after it clears that', async () => {
  for (const appended of [20 * MB, 200 * MB]) {
    const file = path.join(workspace({}), `${SID}.jsonl`);
    writeFileSync(file, `${assistant(50_000)}\n`);
    const f = new ContextFollower({ agent: 'claude', sessionId: SID, path: file, mtime: 0 });
    assert.equal((await f.read())?.tooLargeRecordBytes, undefined);
    appendHugeRecord(file, appended);
    const u = await f.read();
    assert.equal(u?.usedTokens, 50_000, `after ${appended} bytes`);
    assert.ok((u?.tooLargeRecordBytes ?? 0) > appended, `after ${appended} bytes: ${u?.tooLargeRecordBytes}`);
    appendFileSync(file, `${assistant(60_000)}\n`);
    const v = await f.read();
    assert.equal(v?.usedTokens, 60_000);
    assert.equal(v?.tooLargeRecordBytes, undefined);
  }
});
