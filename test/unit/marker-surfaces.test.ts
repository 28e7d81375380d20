// Every surface that says whether a checkpoint covers the session (the PreCompact guard, the reminder's
// checkpointCovers, `checkpoint`'s "Safe", the walkthrough's "checkpoint made") takes the same marker: what a
// checkpoint could have written, through no link. Real files, the real CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { checkpointDone, preCompactGuard } from '../../src/core/hooks/guard';
import { markerRel, SHARED_MARKER_REL } from '../../src/core/checkpoint/marker';
import { checkpointCovers } from '../../src/core/hooks/remind';
import { walkthroughFacts } from '../../src/extension/pure/walkthrough-facts';
import { cli, copyDemo, demoRepo, gitInit, workspace } from './helpers';
import { preCompact, SID } from './checkpoint-fixtures';

/** The reminder's answer: whether the session's checkpoint covers it, as the guard decides it. */
const reminderCovers = (root: string) =>
  checkpointCovers(root, { sessionId: SID, transcript: null, env: {}, figureAt: '' }, checkpointDone);

const checkpoint = (root: string) =>
  cli(['checkpoint', '--root', root, '--session', SID, '--confirm', 'feedback-stored,last-request']);

test("something no checkpoint wrote at this session's marker (a link, a hard link, a folder), a checkpoint's shared marker beside it: the reminder blocks as the guard does", async () => {
  const plant: Array<[string, (other: string, p: string) => void]> = [
    ['a symbolic link', (o, p) => symlinkSync(o, p)],
    ['a hard link', (o, p) => linkSync(o, p)],
    ['a folder', (_o, p) => mkdirSync(p)],
  ];
  for (const [what, make] of plant) {
    const dir = demoRepo();
    const r = checkpoint(dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    renameSync(path.join(dir, markerRel(SID)), path.join(dir, SHARED_MARKER_REL));
    const other = path.join(workspace({}), 'x');
    writeFileSync(other, 'hello\n');
    make(other, path.join(dir, markerRel(SID)));
    const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
    assert.deepEqual([d.allow, d.rule], [false, 'no-marker'], `${what}: ${d.log}`);
    assert.equal(await reminderCovers(dir), false, what);
  }
});

test('a .claude that is a symbolic link, no marker yet: the first block says so and what works, not a remedy the next block refuses', async () => {
  const dir = demoRepo();
  renameSync(path.join(dir, '.claude'), path.join(dir, 'cfg'));
  symlinkSync('cfg', path.join(dir, '.claude'));
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.deepEqual([d.allow, d.rule], [false, 'no-marker'], d.log);
  assert.match(d.reason, /^Compaction stopped: \.claude is a symbolic link\./);
  assert.match(d.reason, /Make \.claude a folder of its own/);
  assert.match(d.reason, /--confirm feedback-stored,last-request/);
  assert.doesNotMatch(d.reason, /echo nothing-to-preserve/);
});

test('a shared marker dated in the future: the reminder takes it no more than the guard does', async () => {
  const dir = demoRepo();
  const p = path.join(dir, SHARED_MARKER_REL);
  writeFileSync(p, 'nothing-to-preserve\n');
  const t = Date.UTC(2030, 0, 1) / 1000;
  utimesSync(p, t, t);
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.deepEqual([d.allow, d.rule], [false, 'no-marker'], d.log);
  assert.equal(await reminderCovers(dir), false);
});

test('the walkthrough does not tick "checkpoint made" for a marker through a linked .claude', async () => {
  const dir = demoRepo();
  const elsewhere = path.join(workspace({}), 'claude');
  mkdirSync(elsewhere, { recursive: true });
  writeFileSync(path.join(elsewhere, '.checkpoint-ready'), 'nothing-to-preserve\n');
  rmSync(path.join(dir, '.claude'), { recursive: true, force: true });
  symlinkSync(elsewhere, path.join(dir, '.claude'));
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(d.allow, false, d.log);
  assert.equal((await walkthroughFacts(dir)).hasCheckpoint, false);
  // The same marker in a .claude of its own is a checkpoint made.
  rmSync(path.join(dir, '.claude'));
  cpSync(elsewhere, path.join(dir, '.claude'), { recursive: true });
  assert.equal((await walkthroughFacts(dir)).hasCheckpoint, true);
});

test('a workspace reached through a symbolic link (links above the root): checkpoint says Safe, the guard and the reminder agree', async () => {
  const real = demoRepo();
  const linkRoot = path.join(workspace({}), 'root-link');
  symlinkSync(real, linkRoot);
  const r = checkpoint(linkRoot);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /Safe to run \/compact/);
  for (const root of [linkRoot, real]) {
    const d = await preCompactGuard(preCompact(root), { root, log: false });
    assert.equal(d.allow, true, `${root}: ${d.log}`);
    assert.equal(await reminderCovers(root), true, root);
  }
});

test("checkpoint that can tell no session refuses the shared marker while a session's marker path holds something no checkpoint wrote (it would say Safe and the guard would block), but not the shared nothing-to-preserve", async () => {
  const dir = demoRepo();
  const nobody = workspace({});
  const env = {
    HOME: nobody,
    CLAUDE_CONFIG_DIR: path.join(nobody, '.claude'),
    CODEX_HOME: path.join(nobody, '.codex'),
  };
  const other = path.join(workspace({}), 'x');
  writeFileSync(other, 'hello\n');
  symlinkSync(other, path.join(dir, markerRel(SID)));
  const r = cli(['checkpoint', '--root', dir, '--confirm', 'feedback-stored,last-request'], { env });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /Safe to/);
  assert.match(r.stdout + r.stderr, /Not written: no session id is known/);
  assert.match(r.stdout + r.stderr, new RegExp(`${markerRel(SID).replace(/\./g, '\\.')} is a symbolic link`));
  assert.equal(existsSync(path.join(dir, SHARED_MARKER_REL)), false);
  // The shared nothing-to-preserve counts before any session's marker, that one included: it is written
  // and the guard takes it, as it takes the same line written by hand.
  const optOut = cli(['checkpoint', '--root', dir, '--nothing-to-preserve'], { env });
  assert.equal(optOut.code, 0, optOut.stdout + optOut.stderr);
  const allowed = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(allowed.allow, true, allowed.log);
  rmSync(path.join(dir, SHARED_MARKER_REL));
  // Without it, the same checkpoint writes the shared marker, says Safe, and the guard lets /compact through.
  rmSync(path.join(dir, markerRel(SID)));
  const ok = cli(['checkpoint', '--root', dir, '--confirm', 'feedback-stored,last-request'], { env });
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /Safe to run \/compact/);
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(d.allow, true, d.log);
});

test('checkpoint that can tell no session writes no shared marker git tracks (the guard takes none that came with the repository), the opt-out neither', async () => {
  const dir = workspace({});
  copyDemo(dir);
  writeFileSync(path.join(dir, SHARED_MARKER_REL), 'nothing-to-preserve\n');
  gitInit(dir);
  const nobody = workspace({});
  const env = {
    HOME: nobody,
    CLAUDE_CONFIG_DIR: path.join(nobody, '.claude'),
    CODEX_HOME: path.join(nobody, '.codex'),
  };
  for (const args of [['--nothing-to-preserve'], ['--confirm', 'feedback-stored,last-request']]) {
    const r = cli(['checkpoint', '--root', dir, ...args], { env });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /Safe to|lets \/compact through/);
    assert.match(r.stdout + r.stderr, /git tracks that file/);
  }
  // And the guard indeed takes no such marker.
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(d.allow, false, d.log);
});
