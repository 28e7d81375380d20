/**
 * Go-signals an attack round found given where they were not true, each from the hostile state:
 * an emptied (0-byte) state file after a checkpoint, a checkpoint over an empty S4 STATE.md, a
 * marker the repository ships (a link, a folder, a file dated in the future), a state file the
 * checkpoint vouched for deleted later (its system is then no longer detected, so its file was no
 * longer watched), and S1's handoff deleted while its attestation sidecar stays.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpointDone, preCompactGuard } from '../../src/core/hooks/guard';
import { markerRel, SHARED_MARKER_REL } from '../../src/core/checkpoint/marker';
import { localTime } from '../../src/core/model/time';
import { checkpointCovers } from '../../src/core/hooks/remind';
import { cli, demoRepo, git, REPO, workspace } from './helpers';
import { OTHER_SID, preCompact, SID } from './checkpoint-fixtures';
import { checkpointedDemo, madeOnce } from './guard-fixtures';

/** The reminder's answer: whether the session's checkpoint covers it, as the guard decides it. */
const reminderCovers = (root: string) =>
  checkpointCovers(root, { sessionId: SID, transcript: null, env: {}, figureAt: '' }, checkpointDone);

/**
 * A git copy of the demo workspace (all five systems), checkpointed for SID when `checkpointed`. Each is
 * made once in this process and copied after (the same files, .git and times); the checkpointed one's
 * marker is dated now, as a checkpoint run now dates it (the demo's files are older, as in a copy of a
 * committed demo they are).
 */
function demo(checkpointed: boolean): string {
  if (!checkpointed) return madeOnce('committed demo', demoRepo);
  const dir = checkpointedDemo();
  const now = new Date();
  utimesSync(path.join(dir, markerRel(SID)), now, now);
  return dir;
}

const HOMES = [
  '.agents/session_ledger.md',
  'memory/session-handoff-LATEST.md',
  '.claude/session-ledger.md',
  'docs/state/STATE.md',
  '.agents/STATE.md',
];

test('a state file emptied to 0 bytes after a checkpoint blocks /compact, in every system', async () => {
  for (const rel of HOMES) {
    const dir = demo(true);
    writeFileSync(path.join(dir, rel), '');
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    assert.deepEqual([d.allow, d.rule], [false, 'skeleton'], rel);
    assert.match(d.reason, new RegExp(rel.replace(/[.]/g, '\\.')), rel);
  }
});

test('checkpoint refuses an empty S4 STATE.md (S4 found by its checkpoints folder): no marker, no "safe"', () => {
  const dir = demo(false);
  writeFileSync(path.join(dir, '.agents/STATE.md'), '');
  const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 1, r.stdout);
  assert.doesNotMatch(r.stdout + r.stderr, /Safe to/);
  assert.match(r.stderr, /S4 FAIL not-skeleton +Empty file: \.agents\/STATE\.md holds no state to resume from\./);
});

test('a marker the repository ships (a link to the state file or to /dev/null, a folder, a file dated in the future) lets no /compact through', async () => {
  const plant: Array<[string, (p: string) => void]> = [
    ['a link to the state file', (p) => symlinkSync('../docs/state/STATE.md', p)],
    ['a link to /dev/null', (p) => symlinkSync('/dev/null', p)],
    ['a folder', (p) => mkdirSync(p)],
    [
      'a file dated in the future',
      (p) => {
        writeFileSync(p, '');
        const t = Date.UTC(2030, 0, 1) / 1000;
        utimesSync(p, t, t);
      },
    ],
  ];
  for (const [what, make] of plant) {
    const dir = demo(false);
    make(path.join(dir, SHARED_MARKER_REL));
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    assert.deepEqual([d.allow, d.rule], [false, 'no-marker'], what);
  }
});

test('a state file the checkpoint vouched for, deleted since, blocks /compact a day later (its system is no longer detected)', async () => {
  for (const rel of ['docs/state/STATE.md', 'memory/session-handoff-LATEST.md']) {
    const dir = demo(true);
    rmSync(path.join(dir, rel));
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false, now: Date.now() + 24 * 3600_000 });
    assert.deepEqual([d.allow, d.rule], [false, 'gone'], rel);
    assert.match(d.reason, /is gone, empty, no longer a state file or a link that leads nowhere since/, rel);
  }
});

test("S1's handoff deleted while its sidecar stays: S1 is still there, its handoff missing, and checkpoint refuses", () => {
  const dir = demo(false);
  rmSync(path.join(dir, 'memory/session-handoff-LATEST.md'));
  const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /S1 FAIL exists +memory\/session-handoff-LATEST\.md does not exist/);
});

test('S0 switched off: its template ledger blocks no /compact after a checkpoint (it is never checkpointed); switched on after the checkpoint, its ledger was never vouched for and blocks', async () => {
  const dir = demo(false);
  cpSync(
    path.join(REPO, 'test/fixtures/s0/template/.agents/session_ledger.md'),
    path.join(dir, '.agents/session_ledger.md'),
  );
  const yml = path.join(dir, '.agents.yml');
  writeFileSync(yml, readFileSync(yml, 'utf8').replace(/^ {2}ledger: true/m, '  ledger: false'));
  const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const off = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.deepEqual([off.allow, off.rule], [true, 'idle'], off.reason);
  writeFileSync(yml, readFileSync(yml, 'utf8').replace(/^ {2}ledger: false/m, '  ledger: true'));
  const on = await preCompactGuard(preCompact(dir), { root: dir, log: false, now: Date.now() + 3 * 24 * 3600_000 });
  assert.equal(on.allow, false);
  assert.match(on.reason, /\.agents\/session_ledger\.md was not part of the last checkpoint/);
});

test('checkpoint without --session takes no id from a session record of another folder (one committed from elsewhere)', () => {
  const dir = demo(false);
  const other = 'c9d8e7f6-a5b4-4c3d-8e2f-1a0b9c8d7e6f';
  mkdirSync(path.join(dir, '.claude/session-ledger'), { recursive: true });
  writeFileSync(
    path.join(dir, '.claude/session-ledger/session.json'),
    JSON.stringify({
      session_id: other,
      transcript_path: null,
      source: 'startup',
      cwd: '/home/someone/elsewhere',
      at: '2024-01-01T00:00:00Z',
      pids: [],
    }),
  );
  const r = cli(['checkpoint', '--root', dir, '--confirm', 'feedback-stored,last-request'], {
    env: { CLAUDE_CONFIG_DIR: workspace({}) },
  });
  assert.ok(!existsSync(path.join(dir, `.claude/.checkpoint-ready.${other}`)), r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, new RegExp(other));
});

test('a session id that holds nothing-to-preserve is no session id: checkpoint --session refuses it, so no marker of it reads as the opt-out', () => {
  const dir = demo(false);
  const r = cli([
    'checkpoint',
    '--root',
    dir,
    '--session',
    's1.nothing-to-preserve',
    '--confirm',
    'feedback-stored,last-request',
  ]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.ok(!existsSync(path.join(dir, '.claude/.checkpoint-ready.s1.nothing-to-preserve')));
});

test("this session's marker file signed by another session (a copy of that session's checkpoint) lets no /compact through", async () => {
  const other = OTHER_SID;
  const dir = demo(false);
  // Another session's real checkpoint, copied to this session's marker name.
  const r = cli(['checkpoint', '--root', dir, '--session', other, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const own = path.join(dir, `.claude/.checkpoint-ready.${SID}`);
  cpSync(path.join(dir, `.claude/.checkpoint-ready.${other}`), own);
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.deepEqual([d.allow, d.rule], [false, 'foreign-marker']);
  assert.match(d.reason, new RegExp(`\\.checkpoint-ready\\.${SID} is another session's\\)`));
  assert.match(d.reason, new RegExp(`names session ${other}, not this one`));
  // This session's own checkpoint goes through; an unsigned marker (`touch`) still counts as the session's.
  assert.equal(
    cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']).code,
    0,
  );
  assert.equal((await preCompactGuard(preCompact(dir), { root: dir, log: false })).allow, true);
  writeFileSync(own, '');
  assert.equal((await preCompactGuard(preCompact(dir), { root: dir, log: false })).allow, true);
});

test('a line a person writes by hand (`date >`, a sentence) signs nothing: the marker counts for this session', async () => {
  const texts = [
    'Sat Dec  5 01:50:37 UTC 2026\n',
    'checkpoint nothing-to-preserve\n',
    'done for today\n',
    'done\n',
    'ok',
    '1796432400\n',
    'done 2026-12-05T02:50:50.685Z\n',
  ];
  for (const text of texts) {
    for (const rel of [`.claude/.checkpoint-ready.${SID}`, SHARED_MARKER_REL]) {
      const dir = demo(false);
      writeFileSync(path.join(dir, rel), text);
      const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
      assert.equal(d.allow, true, `${rel}: ${JSON.stringify(text)} → ${d.rule} ${d.reason}`);
    }
  }
});

test("another session's id signs its marker however the marker is written: it never counts for this session", async () => {
  const other = OTHER_SID;
  const lines = [
    `${other} 2026-12-05 01:50:37`,
    `${other} Sat Dec  5 01:50:37 UTC 2026`,
    `${other} 1796432400`,
    `${other} done`,
    `${other} WORKING 2026-12-05T01:50:37.000Z`,
    `${other} 2026-12-05t01:50:37.000z WORKING`,
    `\n${other} 2026-12-05T01:50:37.000Z WORKING`,
    other.toUpperCase(),
    `{"session_id":"${other}"}`,
    `${other},2026-12-05T01:50:37.000Z`,
    `${other}: ready`,
    `"${other}" 2026-12-05T01:50:37.000Z WORKING`,
    `- ${other} 2026-12-05T01:50:37.000Z`,
    'sess.A_1 2026-12-05T01:50:37.000Z WORKING',
    `session-${other}`,
    `${other}-ready`,
    `{"resumed_from":"${SID}","session_id":"${other}"}`,
    `{"session_id":"${other}","resumed_from":"${SID}"}`,
  ];
  for (const line of lines) {
    for (const rel of [`.claude/.checkpoint-ready.${SID}`, SHARED_MARKER_REL]) {
      const dir = demo(false);
      writeFileSync(path.join(dir, rel), `${line}\n`);
      const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
      assert.deepEqual([d.allow, d.rule], [false, 'foreign-marker'], `${rel}: ${JSON.stringify(line)}`);
    }
  }
});

test("another session's marker written as UTF-16 (a Windows shell's echo >), with or without a byte order mark, or over 64 KB of no UTF-8, is read for the session it names", async () => {
  const line = `${OTHER_SID} 2026-12-05T01:50:37.000Z WORKING\r\n`;
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(line, 'utf16le')]);
  const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(line, 'utf16le').swap16()]);
  const bare = Buffer.from(line, 'utf16le');
  const big = Buffer.concat([Buffer.from(`${OTHER_SID}\n`, 'latin1'), Buffer.alloc(70 * 1024, 0xe9)]);
  for (const bytes of [le, be, bare, bare.swap16(), big]) {
    const dir = demo(false);
    writeFileSync(path.join(dir, SHARED_MARKER_REL), bytes);
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    // Over 64 KB it is no marker the tool wrote: refused as such.
    assert.deepEqual([d.allow, d.rule], [false, bytes === big ? 'no-marker' : 'foreign-marker']);
  }
});

test("the checkpoint's own marker counts for its session whatever the id: one holding a UUID, one in upper case", async () => {
  for (const sid of [`run_${SID}`, `${SID}.2`, SID.toUpperCase()]) {
    const dir = demo(false);
    const r = cli(['checkpoint', '--root', dir, '--session', sid, '--confirm', 'feedback-stored,last-request']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const d = await preCompactGuard(preCompact(dir, { sessionId: sid }), { root: dir, log: false });
    assert.equal(d.allow, true, `${sid}: ${d.rule} ${d.reason}`);
  }
});

test('a marker names every session its lines name, past a first line of no session and past its first 64 KB', async () => {
  const cases: Array<[string, string]> = [
    [SHARED_MARKER_REL, `- 2026-12-05T02:50:50.685Z WORKING\n${OTHER_SID}\n`],
    [SHARED_MARKER_REL, `- 2026-12-05T02:50:50.685Z WORKING\n{"session_id":"${OTHER_SID}"}\n`],
    [`.claude/.checkpoint-ready.${SID}`, `${SID} 2026-12-05T02:50:50.685Z WORKING\n${OTHER_SID}\n`],
    [SHARED_MARKER_REL, `{"summary":"${'x'.repeat(70_000)}","session_id":"${OTHER_SID}"}\n`],
    [`.claude/.checkpoint-ready.${SID}`, `${' '.repeat(70_000)}${OTHER_SID}\n`],
  ];
  for (const [rel, text] of cases) {
    const dir = demo(false);
    writeFileSync(path.join(dir, rel), text);
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    assert.equal(d.allow, false, `${rel}: ${JSON.stringify(text.slice(0, 80))}`);
  }
  // The checkpoint's own marker, a state file named with a line separator and a UUID in it: still its session's.
  const dir = demo(false);
  const hash = 'a'.repeat(64);
  writeFileSync(
    path.join(dir, `.claude/.checkpoint-ready.${SID}`),
    `${SID} ${new Date().toISOString()} WORKING\n${hash}  notes/x\u2028${OTHER_SID}.md\n`,
  );
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.notEqual(d.rule, 'foreign-marker', d.reason);
});

test('a marker of exactly 64 KB that is no UTF-8 (UTF-16 without a byte order mark naming another session) lets no /compact through', async () => {
  const head = Buffer.from(`${OTHER_SID} 2026-12-05T01:50:37.000Z WORKING\n`, 'utf16le').swap16();
  const bytes = Buffer.concat([head, Buffer.alloc(64 * 1024 - head.length, 0x20)]);
  for (const rel of [SHARED_MARKER_REL, `.claude/.checkpoint-ready.${SID}`]) {
    const dir = demo(false);
    writeFileSync(path.join(dir, rel), bytes);
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    assert.deepEqual([d.allow, d.rule], [false, 'foreign-marker'], `${rel}: ${d.log}`);
  }
});

test("the checkpoint's own first line names its session by its first word: another session named after it makes it another session's", async () => {
  for (const line of [
    `${SID} 2026-12-05T01:50:37.000Z WORKING ${OTHER_SID}`,
    `${SID} 2026-12-05T01:50:37.000Z${OTHER_SID} WORKING`,
  ]) {
    const dir = demo(false);
    writeFileSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`), `${line}\n`);
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    assert.deepEqual([d.allow, d.rule], [false, 'foreign-marker'], line);
  }
});

test('a checkpoint that writes the shared marker (it could not tell the session) is the one that counts over an older marker of the session', async () => {
  const dir = demo(true);
  const old = (Date.now() - 10 * 3600_000) / 1000;
  utimesSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`), old, old);
  const r = cli(['checkpoint', '--root', dir, '--confirm', 'feedback-stored,last-request'], {
    env: { CLAUDE_CONFIG_DIR: workspace({}), CODEX_HOME: workspace({}) },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /Safe to run \/compact now/);
  assert.ok(existsSync(path.join(dir, SHARED_MARKER_REL)));
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(d.allow, true, `${d.rule}: ${d.reason}`);
});

/** A transcript for SID whose first record is dated `began` (what Claude Code writes first). */
function transcriptFrom(began: number): string {
  const file = path.join(workspace({}), `${SID}.jsonl`);
  writeFileSync(
    file,
    `${JSON.stringify({ type: 'user', sessionId: SID, timestamp: new Date(began).toISOString(), message: { role: 'user', content: 'hi' } })}\n`,
  );
  return file;
}

test('a shared marker written before the session began (committed with the repository, or left by an earlier session) proves no checkpoint in it; one written since counts', async () => {
  const began = Date.now() - 60_000;
  const before = (began - 3600_000) / 1000;
  for (const text of ['', 'nothing-to-preserve\n', `- ${new Date(before * 1000).toISOString()} WORKING\n`]) {
    const dir = demo(false);
    const marker = path.join(dir, SHARED_MARKER_REL);
    writeFileSync(marker, text);
    utimesSync(marker, before, before);
    const payload = JSON.parse(preCompact(dir));
    payload.transcript_path = transcriptFrom(began);
    const d = await preCompactGuard(JSON.stringify(payload), { root: dir, log: false });
    assert.deepEqual([d.allow, d.rule], [false, 'no-marker'], `${JSON.stringify(text)}: ${d.log}`);
    assert.match(d.reason, /was written before this session began/);
    // When, as the user's clock says it: never an ISO time in UTC.
    assert.ok(d.reason.includes(`began (at ${localTime(before * 1000)};`), d.reason);
    // Written (touched) in this session: it counts, as a marker written by hand does.
    const now = Date.now() / 1000;
    utimesSync(marker, now, now);
    const again = await preCompactGuard(JSON.stringify(payload), { root: dir, log: false });
    assert.equal(again.allow, true, `${JSON.stringify(text)}: ${again.rule} ${again.reason}`);
  }
});

test('a shared marker git tracks (a branch checked out during the session brings it, with a fresh file time) proves no checkpoint', async () => {
  for (const text of ['', 'nothing-to-preserve\n']) {
    const dir = demo(false);
    const payload = JSON.parse(preCompact(dir));
    payload.transcript_path = transcriptFrom(Date.now() - 600_000);
    git(dir, 'checkout', '-q', '-b', 'planted');
    writeFileSync(path.join(dir, SHARED_MARKER_REL), text);
    git(dir, 'add', '-f', SHARED_MARKER_REL);
    git(dir, 'commit', '-qm', 'a marker');
    git(dir, 'checkout', '-q', '-');
    git(dir, 'checkout', '-q', 'planted');
    const d = await preCompactGuard(JSON.stringify(payload), { root: dir, log: false });
    assert.deepEqual([d.allow, d.rule], [false, 'no-marker'], `${JSON.stringify(text)}: ${d.log}`);
    assert.match(d.reason, /is tracked by git: it came with the repository/);
    // Once this session writes its own checkpoint, that one counts.
    const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const after = await preCompactGuard(JSON.stringify(payload), { root: dir, log: false });
    assert.equal(after.allow, true, `${after.rule}: ${after.reason}`);
  }
});

test('a marker reached through a .claude that is a symbolic link (whoever can write where it leads can place one) lets no /compact through', async () => {
  for (const [which, rel] of [
    ["this session's marker", `.claude/.checkpoint-ready.${SID}`],
    ['the shared marker', SHARED_MARKER_REL],
  ]) {
    const dir = demo(which !== 'the shared marker');
    const payload = JSON.parse(preCompact(dir));
    payload.transcript_path = transcriptFrom(Date.now() - 60_000);
    if (which === 'the shared marker') writeFileSync(path.join(dir, rel), 'nothing-to-preserve\n');
    const direct = await preCompactGuard(JSON.stringify(payload), { root: dir, log: false });
    assert.equal(direct.allow, true, `${which}, in .claude itself: ${direct.rule} ${direct.reason}`);
    assert.equal(await reminderCovers(dir), true, which);
    // The same .claude elsewhere, the workspace's a link to it.
    const elsewhere = path.join(workspace({}), 'claude');
    cpSync(path.join(dir, '.claude'), elsewhere, { recursive: true });
    rmSync(path.join(dir, '.claude'), { recursive: true });
    symlinkSync(elsewhere, path.join(dir, '.claude'));
    const d = await preCompactGuard(JSON.stringify(payload), { root: dir, log: false });
    assert.deepEqual([d.allow, d.rule], [false, 'no-marker'], `${which}: ${d.log}`);
    assert.match(d.reason, /^Compaction stopped: \.claude is a symbolic link\./);
    assert.match(d.reason, /Make \.claude a folder of its own/);
    // The reminder takes no marker there either: it does not say the session is covered.
    assert.equal(await reminderCovers(dir), false, which);
  }
});
