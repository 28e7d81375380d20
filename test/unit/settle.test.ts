/**
 * A state file read while an agent rewrites it in pieces: the unparsed read is retried, then held at
 * the last good report (marked updating); a file that stays unreadable is reported. And a change
 * re-reads only the systems whose files changed.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { evaluate, evaluateChanged } from '../../src/core/report/evaluate';
import { SETTLE_MS, settledRead, systemsOfChange, unsettled } from '../../src/core/report/settle';
import type { WorkspaceReport } from '../../src/core/model/model';
import { fixtureCopy, gitInit } from './helpers';

const REL = 'docs/state/STATE.md';
const opts = { noGit: true };

function s3Readable(r: WorkspaceReport): boolean {
  const s3 = r.systems.find((s) => s.id === 'S3');
  return (
    !!s3 &&
    !(r.notRead ?? []).some((n) => n.path === REL) &&
    !s3.docs.some((d) => d.findings.some((f) => f.id === 'readable' || f.id === 'parse'))
  );
}

function halves(root: string): { file: string; whole: string; head: string } {
  const file = path.join(root, ...REL.split('/'));
  const whole = readFileSync(file, 'utf8');
  return { file, whole, head: whole.slice(0, whole.indexOf('## Handoff')) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a state file rewritten in pieces by another process: the plain read shows it half-written, the settled read never does', async (t) => {
  const root = fixtureCopy('e2e-workspace');
  const { file, whole, head } = halves(root);
  assert.ok(head.length > 0 && head.length < whole.length);
  const first = await evaluate(root, opts);
  assert.ok(s3Readable(first), 'the fixture reads as S3');
  // The writer: truncate, the head, a pause, the rest; again and again until stopped.
  const code = `
    const fs = require('node:fs');
    const [file, whole, cut] = [process.argv[1], require('node:fs').readFileSync(process.argv[1], 'utf8'), Number(process.argv[2])];
    const wait = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    fs.writeSync(1, 'writing\\n');
    for (;;) {
      const fd = fs.openSync(file, 'w');
      fs.writeSync(fd, whole.slice(0, cut));
      wait(120);
      fs.writeSync(fd, whole.slice(cut));
      fs.closeSync(fd);
      wait(60);
    }`;
  const writer = spawn(process.execPath, ['-e', code, file, String(head.length)], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const done = new Promise((r) => writer.on('exit', r));
  t.after(() => writer.kill());
  // The reads start once the writer writes: on a loaded machine its start-up can outlast them all.
  await Promise.race([new Promise((r) => writer.stdout.once('data', r)), done]);
  // Counted reads, not a time window: a loaded machine reads slower, not fewer times.
  const READS = 15;
  let plainBad = 0;
  for (let i = 0; i < READS; i++) {
    if (!s3Readable(await evaluate(root, opts))) plainBad++;
    await sleep(5);
  }
  let settledBad = 0;
  let held = 0;
  let prev = first;
  for (let i = 0; i < READS; i++) {
    const r = await settledRead(root, prev, () => evaluate(root, opts), 100);
    if (!s3Readable(r.report)) settledBad++;
    if (r.report.systems.find((s) => s.id === 'S3')?.updating) held++;
    prev = r.report;
    await sleep(5);
  }
  writer.kill();
  await done;
  writeFileSync(file, whole);
  assert.ok(
    plainBad > 0,
    `the plain read saw the half-written file (${plainBad} of ${READS} reads): the conditions can fail`,
  );
  assert.equal(
    settledBad,
    0,
    `${settledBad} of ${READS} settled reads showed the half-written file (${held} held as updating)`,
  );
});

test('a half-written file still being written: the last good report stays, marked updating, with no "not read" entry; read again once quiet', async () => {
  const root = fixtureCopy('e2e-workspace');
  const { file, head } = halves(root);
  const good = await evaluate(root, opts);
  writeFileSync(file, head);
  const before = Date.now();
  // The clock of the reads: just after the write, however long a read takes on a loaded machine.
  const written = statSync(file).mtimeMs;
  const r = await settledRead(
    root,
    good,
    () => evaluate(root, opts),
    20,
    () => written + 10,
  );
  const s3 = r.report.systems.find((s) => s.id === 'S3');
  assert.ok(s3?.updating, 'S3 is shown as last read, marked updating');
  assert.deepEqual(s3.checks, good.systems.find((s) => s.id === 'S3')!.checks, 'no finding from the half-written read');
  assert.ok(!(r.report.notRead ?? []).some((n) => n.path === REL), 'no "not read as S3"');
  assert.ok(
    r.recheckAt !== undefined && r.recheckAt > before && r.recheckAt <= Date.now() + SETTLE_MS,
    `read again within ${SETTLE_MS} ms (at ${r.recheckAt})`,
  );
  // Once quiet and still half-written, it is what it is.
  const old = (Date.now() - 5000) / 1000;
  utimesSync(file, old, old);
  const later = await settledRead(root, r.report, () => evaluate(root, opts), 20);
  assert.equal(later.recheckAt, undefined);
  assert.ok(!later.report.systems.some((s) => s.id === 'S3'), 'S3 no longer shown as last read');
  assert.ok(
    (later.report.notRead ?? []).some((n) => n.path === REL && n.system === 'S3'),
    'the file that stays half-written is reported as not read as S3',
  );
});

test('a file that was already unreadable long ago is reported at once, not held', async () => {
  const root = fixtureCopy('e2e-workspace');
  const { file, head } = halves(root);
  const good = await evaluate(root, opts);
  writeFileSync(file, head);
  const old = (Date.now() - 60_000) / 1000;
  utimesSync(file, old, old);
  const next = await evaluate(root, opts);
  assert.equal(unsettled(root, good, next), null);
  // Binary content written just now is held; the same content an hour old is a finding.
  writeFileSync(file, Buffer.from([0x23, 0x20, 0, 0, 0]));
  const bin = await evaluate(root, opts);
  assert.deepEqual([...(unsettled(root, good, bin)?.systems ?? [])], ['S3']);
});

test('a change re-reads only the systems whose files changed; a path no system claims re-reads all', async () => {
  const root = fixtureCopy('e2e-workspace');
  const prev = await evaluate(root, opts);
  assert.deepEqual([...systemsOfChange(prev, [REL])!], ['S3']);
  assert.deepEqual([...systemsOfChange(prev, ['.claude/session-ledger.md', 'PROGRESS.md'])!].sort(), ['S2', 'S4']);
  assert.deepEqual([...systemsOfChange(prev, ['notes/mine.md'], { S3: ['notes/mine.md'] })!], ['S3']);
  assert.equal(systemsOfChange(prev, ['.claude/.checkpoint-ready.abc']), undefined);
  const { file, whole } = halves(root);
  writeFileSync(
    file,
    whole.replace(
      /\*\*Now ▶\*\* [^\n]*/,
      '**Now ▶** write `renew()` in `src/loans.ts` with its test in `test/loans.test.ts`',
    ),
  );
  const next = await evaluateChanged(root, opts, prev, [REL]);
  assert.match(next.systems.find((s) => s.id === 'S3')!.next ?? '', /write `renew\(\)`/);
  for (const s of next.systems.filter((x) => x.id !== 'S3'))
    assert.equal(
      s,
      prev.systems.find((x) => x.id === s.id),
      `${s.id} kept as it was, not read again`,
    );
  assert.deepEqual(
    next.systems.map((s) => s.id),
    prev.systems.map((s) => s.id),
  );
  const all = await evaluateChanged(root, opts, prev, ['.claude/.checkpoint-ready.abc']);
  for (const s of all.systems)
    assert.notEqual(
      s,
      prev.systems.find((x) => x.id === s.id),
      `${s.id} read again`,
    );
  // A system that appears (or goes) changes which files are state files for every system: all are read.
  writeFileSync(file, 'not a state file yet\n');
  const without = await evaluate(root, opts);
  assert.ok(!without.systems.some((s) => s.id === 'S3'));
  writeFileSync(file, whole);
  const back = await evaluateChanged(root, opts, without, [REL]);
  assert.ok(back.systems.some((s) => s.id === 'S3'));
  for (const s of back.systems)
    assert.notEqual(
      s,
      without.systems.find((x) => x.id === s.id),
      `${s.id} read again`,
    );
});

test("a re-read of some systems counts the other systems' files as state, not work, as a whole read does (git)", async () => {
  const root = fixtureCopy('e2e-workspace');
  gitInit(root);
  const { file, whole } = halves(root);
  writeFileSync(file, whole.replace('winter release half done', 'winter release two thirds done'));
  const whole1 = await evaluate(root, {});
  const part = await evaluateChanged(root, {}, whole1, ['.agents/STATE.md']);
  const work = (r: WorkspaceReport) =>
    r.systems
      .find((s) => s.id === 'S4')!
      .checks.filter((c) => c.id === 'work-explained' || c.id === 'fresh')
      .map((c) => `${c.id}:${c.status}`);
  assert.deepEqual(work(part), work(whole1));
  assert.notEqual(
    part.systems.find((s) => s.id === 'S4'),
    whole1.systems.find((s) => s.id === 'S4'),
    'S4 was read again',
  );
});

test('a file cut short that still parses (its Now ▶ gone) while being written: the last good report stays; once quiet, the read is shown', async () => {
  const root = fixtureCopy('e2e-workspace');
  const file = path.join(root, ...REL.split('/'));
  const whole = readFileSync(file, 'utf8');
  const good = await evaluate(root, opts);
  const failing = (r: WorkspaceReport) =>
    r.systems
      .find((s) => s.id === 'S3')
      ?.checks.filter((c) => c.status === 'fail')
      .map((c) => c.id) ?? [];
  assert.deepEqual(failing(good), [], 'the fixture passes');
  writeFileSync(file, whole.slice(0, whole.indexOf('Now ▶') + 3));
  // The clock of the reads: just after the write, however long a read takes on a loaded machine.
  const written = statSync(file).mtimeMs;
  const justAfter = () => written + 10;
  const plain = await evaluate(root, opts);
  assert.ok(s3Readable(plain), 'the cut file parses as S3');
  assert.ok(failing(plain).length > 0, 'and the plain read shows checks failing');
  const r = await settledRead(root, good, () => evaluate(root, opts), 20, justAfter);
  const s3 = r.report.systems.find((s) => s.id === 'S3');
  assert.ok(s3?.updating, 'held as updating while the file is still being written');
  assert.deepEqual(failing(r.report), [], 'nothing failing from the cut read');
  assert.ok(r.recheckAt !== undefined, 'read again once quiet');
  // Quiet: what the file says is what is shown.
  const old = (Date.now() - 5000) / 1000;
  utimesSync(file, old, old);
  const later = await settledRead(root, r.report, () => evaluate(root, opts), 20);
  assert.equal(later.recheckAt, undefined);
  assert.ok(failing(later.report).length > 0, 'a file that stays cut short is shown as it is');
  // A check that already failed before is not a reason to hold.
  writeFileSync(file, whole.slice(0, whole.indexOf('Now ▶') + 3));
  const again = statSync(file).mtimeMs + 10;
  assert.equal(unsettled(root, later.report, await evaluate(root, opts), again), null);
});

test('a read that overlapped a write is not believed, however long after it the host looks (a busy host)', async () => {
  const root = fixtureCopy('e2e-workspace');
  const { file, whole, head } = halves(root);
  const good = await evaluate(root, opts);
  let reads = 0;
  const torn: WorkspaceReport[] = [];
  // The first read lands between two pieces of a write; the write ends before the read is judged.
  const read = async () => {
    if (++reads > 1) return evaluate(root, opts);
    writeFileSync(file, head);
    torn.push(await evaluate(root, opts));
    writeFileSync(file, whole);
    return torn[0];
  };
  // Judged 5 s after the write: by the file's time alone it has long been quiet.
  const late = () => Date.now() + 5 * SETTLE_MS;
  const r = await settledRead(root, good, read, 20, late);
  assert.ok(!s3Readable(torn[0]), 'the read between the pieces saw half the file');
  assert.ok(s3Readable(r.report), 'S3 is shown read, not from the read that overlapped the write');
  assert.equal(reads, 2, 'the read was taken again');
  assert.ok(!r.report.systems.find((s) => s.id === 'S3')?.updating, 'and the second read is believed');
});
