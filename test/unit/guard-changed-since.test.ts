// A state file written after the checkpoint is taken as it is now only while it is still whole: the
// PreCompact guard runs its system's blocking checks on it, through the CLI's core, through the
// installed hook script's hooks part (which takes every rule from the core part of the same file) and
// with the extension's own report, and stops /compact when one fails. Real files and git; the built CLI and
// the installed script run in this process (the script also as its own process, as Claude Code starts it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  cpSync,
  linkSync,
  lstatSync,
  statSync,
  lutimesSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { markerRel } from '../../src/core/checkpoint/marker';
import { sha256 } from '../../src/core/files/fsread';
import { evaluate } from '../../src/core/report/evaluate';
import { SYSTEMS } from '../../src/core/systems';
import { guardSentence } from '../../src/extension/pure/status-text';
import {
  cli,
  copyDemo,
  fillHeadVariable,
  filesUnder,
  fixtureCopy,
  gitInit,
  hookScript,
  REPO,
  workspace,
} from './helpers';
import { blockArgs, preCompact, S3_STATE, SID } from './checkpoint-fixtures';
import { checkpointedDemo, installHook, madeOnce } from './guard-fixtures';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';

const STATE = 'docs/state/STATE.md';

/** The demo workspace (five systems), checkpointed for SID five minutes ago, its hook script installed. */
function checkpointed(): string {
  const dir = checkpointedDemo();
  const t = (Date.now() - 5 * 60_000) / 1000;
  utimesSync(path.join(dir, markerRel(SID)), t, t);
  installHook(dir);
  return dir;
}

/**
 * The guard's answer three ways: the CLI's core, the installed hook script (its own entry, run in this
 * process; with `spawn`, as its own Node process, which is what Claude Code starts), and with the
 * caller's report.
 */
async function answers(dir: string, o: { spawn?: boolean } = {}): Promise<Array<[string, number, string]>> {
  const viaCli = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
  const installed = '.claude/hooks/session-ledger.cjs';
  const script = o.spawn
    ? (() => {
        const r = spawnSync(process.execPath, [installed, 'hook', 'pre-compact'], {
          cwd: dir,
          input: preCompact(dir),
          encoding: 'utf8',
        });
        return { code: r.status ?? -1, stderr: r.stderr };
      })()
    : hookScript(installed, ['hook', 'pre-compact'], { cwd: dir, input: preCompact(dir) });
  const known = await preCompactGuard(preCompact(dir), {
    root: dir,
    log: false,
    report: await evaluate(dir, { noGit: true }),
  });
  return [
    ['the CLI', viaCli.code, viaCli.stderr],
    [o.spawn ? 'the hook script (its own process)' : 'the hook script', script.code, script.stderr],
    ["the extension's report", known.exitCode, known.reason],
  ];
}

test('a state file edited after the checkpoint and still whole: /compact goes through (the checkpoint is fresh)', async () => {
  const dir = checkpointed();
  appendFileSync(path.join(dir, STATE), '\n- Also checked: the pier gauge reports every 10 minutes.\n');
  for (const [how, code, said] of await answers(dir, { spawn: true })) assert.equal(code, 0, `${how}: ${said}`);
});

test('a state file broken after the checkpoint (a section the seed requires removed): /compact is stopped, saying which check and what to do', async () => {
  const dir = checkpointed();
  const p = path.join(dir, STATE);
  writeFileSync(p, readFileSync(p, 'utf8').replace(/^.*Blocked on.*$/m, ''));
  assert.match(cli(['check', '--root', dir]).stdout, /FAIL template/);
  for (const [how, code, said] of await answers(dir, { spawn: true })) {
    assert.equal(code, 2, `${how}: ${said}`);
    assert.match(
      said,
      /since the last checkpoint docs\/state\/STATE\.md changed, and the state now fails a blocking check \(S3 template: /,
      how,
    );
    assert.match(said, /check` shows each with its fix/, how);
  }
});

/** The marker dated after every file's change time (the draft made before it), as a checkpoint made after the draft has it. */
function markerAfterEverything(dir: string): void {
  const later = new Date(Date.now() + 2000);
  utimesSync(path.join(dir, markerRel(SID)), later, later);
}

test('a state file replaced after the checkpoint so that its times tell nothing (moved over it, its time set back as cp -p and tar do, its folder swapped, a link at it pointed at a draft, the marker touched since): /compact is stopped', async () => {
  for (const how of ['moved', 'time set back', 'folder swapped', 'link pointed elsewhere', 'marker touched']) {
    const dir = checkpointed();
    const p = path.join(dir, STATE);
    const broken = readFileSync(p, 'utf8').replace(/^.*Blocked on.*$/m, '');
    const tenMinAgo = (Date.now() - 10 * 60_000) / 1000;
    if (how === 'moved') {
      // A draft written before the checkpoint, moved over the state file after it.
      const draft = path.join(dir, 'docs/state/draft.md');
      writeFileSync(draft, broken);
      utimesSync(draft, tenMinAgo, tenMinAgo);
      renameSync(draft, p);
    } else if (how === 'time set back') {
      writeFileSync(p, broken);
      utimesSync(p, tenMinAgo, tenMinAgo);
    } else if (how === 'folder swapped') {
      // A whole docs/state/ written before the checkpoint, swapped in after it: renaming a folder sets no time of the files in it.
      const draft = path.join(dir, 'docs/state.draft');
      cpSync(path.join(dir, 'docs/state'), draft, { recursive: true });
      writeFileSync(path.join(draft, 'STATE.md'), broken);
      utimesSync(path.join(draft, 'STATE.md'), tenMinAgo, tenMinAgo);
      markerAfterEverything(dir);
      renameSync(path.join(dir, 'docs/state'), path.join(dir, 'docs/state.old'));
      renameSync(draft, path.join(dir, 'docs/state'));
    } else if (how === 'link pointed elsewhere') {
      // An older draft, and the state file made a link to it: the times read through the link are the draft's.
      const draft = path.join(dir, 'docs/state/draft.md');
      writeFileSync(draft, broken);
      utimesSync(draft, tenMinAgo, tenMinAgo);
      markerAfterEverything(dir);
      unlinkSync(p);
      symlinkSync('draft.md', p);
    } else {
      writeFileSync(p, broken);
      const now = new Date();
      utimesSync(path.join(dir, markerRel(SID)), now, now);
    }
    if (how !== 'marker touched')
      assert.ok(
        statSync(p).mtimeMs < statSync(path.join(dir, markerRel(SID))).mtimeMs,
        `${how}: older than the marker`,
      );
    for (const [via, code, said] of await answers(dir)) {
      assert.equal(code, 2, `${how}, ${via}: ${said}`);
      assert.match(said, /docs\/state\/STATE\.md changed, and the state now fails a blocking check/, `${how}, ${via}`);
    }
  }
});

test("the status bar's preview says the 'broken' rule in words", () => {
  const t = (m: string, ...a: Array<string | number | boolean>) =>
    m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[+i]));
  const s = guardSentence(t, { allow: false, rule: 'broken', marker: 'm', maxAgeMin: 480, installed: true });
  assert.equal(
    s,
    '/compact would be stopped by the guard: a state file changed since the checkpoint fails a blocking check.',
  );
});

test('the status bar\'s preview names one changed state file as "it", more as "them", in the guard\'s verdict where it runs, on its own where it does not', () => {
  const t = (m: string, ...a: Array<string | number | boolean>) =>
    m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[+i]));
  const view = { allow: true, rule: 'fresh', marker: 'm', markerMtime: Date.now(), maxAgeMin: 480, installed: true };
  // The guard runs: one story, the marker still lets /compact through, and why a checkpoint is asked again.
  assert.equal(
    guardSentence(t, { ...view, changed: [STATE] }),
    '/compact would pass the guard: a fresh checkpoint marker; docs/state/STATE.md changed since, and its blocking checks still pass. The checkpoint does not cover that change: checkpoint again to vouch for the newest work.',
  );
  assert.equal(
    guardSentence(t, { ...view, changed: [STATE, 'PROGRESS.md'] }),
    '/compact would pass the guard: a fresh checkpoint marker; docs/state/STATE.md, PROGRESS.md changed since, and their blocking checks still pass. The checkpoint does not cover those changes: checkpoint again to vouch for the newest work.',
  );
  assert.match(
    guardSentence(t, { ...view, changed: [STATE, 'a.md', 'b.md', 'c.md'] }),
    /; docs\/state\/STATE\.md, a\.md, b\.md and 1 more changed since, and their blocking checks still pass\./,
  );
  // Not installed: nothing passes or stops /compact, and what changed is said after that.
  assert.equal(
    guardSentence(t, { ...view, installed: false, changed: [STATE] }),
    '/compact is not guarded: the guard hook is not installed in this folder (run "Install guard hooks"). docs/state/STATE.md changed after the last checkpoint, which does not cover it: checkpoint again.',
  );
  assert.match(
    guardSentence(t, { ...view, installed: false, changed: [STATE, 'PROGRESS.md'] }),
    /docs\/state\/STATE\.md, PROGRESS\.md changed after the last checkpoint, which does not cover them: checkpoint again\.$/,
  );
});

/** `src` copied and checkpointed for SID: every file dated ten minutes ago, the marker five. */
/** A change to a workspace's files, marked by `same` when it makes the same files whatever the folder's path. */
type Arrange = ((dir: string) => void) & { same?: string };

/** `arrange`, which makes the same files every time whatever the folder's path, under a name of its own. */
function same(name: string, arrange: (dir: string) => void): Arrange {
  return Object.assign(arrange, { same: name });
}

/**
 * A workspace of `srcs` copied over each other (a function among them changes the folder then),
 * committed and checkpointed, its files 10 min old and the marker 5 min.
 */
function checkpointedAt(...srcs: Array<string | Arrange>): { dir: string; markerMs: number } {
  const make = () => {
    const dir = workspace({});
    for (const src of srcs)
      if (typeof src === 'string') cpSync(src, dir, { recursive: true });
      else src(dir);
    // The demo as `npm start` serves it: its handoff's fill-in variable filled.
    fillHeadVariable(dir);
    gitInit(dir);
    checkpointFor(dir);
    return dir;
  };
  // Made of fixed folders and changes marked `same` alone, it is the same workspace every time: made once,
  // copied after.
  const key = srcs.map((src) => (typeof src === 'string' ? src : src.same));
  const dir = key.every((k) => k !== undefined) ? madeOnce(key.join('\n'), make) : make();
  return { dir, markerMs: age(dir) };
}

/** The checkpoint run on `root` for SID, as the workspace is opened; it succeeds. */
function checkpointFor(root: string): void {
  const r = cli(['checkpoint', '--root', root, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
}

/**
 * Run the checkpoint on `root` (as the workspace is opened), then date every file of the workspace
 * (found at `files`) 10 minutes back and the marker 5: the state as it was before the checkpoint. The
 * marker's time (ms).
 */
function checkpointAndAge(root: string, files = root): number {
  checkpointFor(root);
  return age(files);
}

/**
 * Every file of the checkpointed workspace `files` (not .git) dated 10 minutes back and the marker 5: the
 * state as it was before the checkpoint. The marker's time (ms).
 */
function age(files: string): number {
  const old = (Date.now() - 10 * 60_000) / 1000;
  for (const f of filesUnder(files)) if (!f.includes(`${path.sep}.git${path.sep}`)) utimesSync(f, old, old);
  const m = (Date.now() - 5 * 60_000) / 1000;
  utimesSync(path.join(files, markerRel(SID)), m, m);
  return m * 1000;
}

test('a state file broken 20 s after the checkpoint (inside the grace the idle rule gives): /compact is stopped; touched only, it goes through', () => {
  const { dir, markerMs } = checkpointedAt(path.join(REPO, 'test/fixtures/s3/good'));
  const p = path.join(dir, STATE);
  const t = (markerMs + 20_000) / 1000;
  utimesSync(p, t, t);
  assert.equal(
    cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) }).code,
    0,
    'its bytes are the vouched ones',
  );
  writeFileSync(p, readFileSync(p, 'utf8').replace(/^.*Blocked on.*$/m, ''));
  utimesSync(p, t, t);
  const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
  assert.equal(r.code, 2, `allowed: ${r.stderr}`);
  assert.match(
    r.stderr,
    /since the last checkpoint docs\/state\/STATE\.md changed, and the state now fails a blocking check \(S3 template/,
  );
});

test("S4's PROGRESS.md put out of order after the checkpoint, STATE.md untouched: /compact is stopped", () => {
  const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s4/good'));
  const p = path.join(dir, 'PROGRESS.md');
  const s = readFileSync(p, 'utf8');
  const i = s.indexOf('## [2026-03-05');
  const j = s.indexOf('## [2026-03-01');
  writeFileSync(p, s.slice(0, i) + s.slice(j).replace(/\n*$/, '\n\n') + s.slice(i, j));
  assert.match(cli(['check', '--root', dir]).stdout, /FAIL progress-order/);
  const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
  assert.equal(r.code, 2, `allowed: ${r.stderr}`);
  assert.match(r.stderr, /since the last checkpoint PROGRESS\.md changed/);
});

test("S4's PROGRESS.md, vouched for and not a home, made unreadable with its time set back (binary bytes, a hard link to a draft): /compact is stopped", () => {
  for (const how of ['binary', 'hard link']) {
    const { dir, markerMs } = checkpointedAt(path.join(REPO, 'test/fixtures/s4/good'));
    const p = path.join(dir, 'PROGRESS.md');
    if (how === 'binary') writeFileSync(p, Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x00]));
    else {
      const draft = path.join(dir, 'draft.md');
      writeFileSync(draft, '# Progress\n');
      rmSync(p);
      linkSync(draft, p);
    }
    const old = (markerMs - 60_000) / 1000;
    utimesSync(p, old, old);
    assert.match(cli(['check', '--root', dir]).stdout, /FAIL readable/, how);
    const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
    assert.equal(r.code, 2, `${how}: allowed: ${r.stderr}`);
    assert.match(r.stderr, /PROGRESS\.md changed/, how);
  }
});

const TOKEN = '\n- token: ghp_abcdefghijklmnopqrstuvwxyz0123456789AB\n';

for (const rel of ['memory/MEMORY.md', 'tasks/lessons.md', '.claude/project-state.md'])
  test(`${rel}, which the marker vouches for and the hook's own reading leaves out, changed to fail a blocking check: the hook stops /compact, as check and the extension's preview say`, async () => {
    const { dir } = checkpointedAt(path.join(REPO, 'examples/demo-workspace'));
    appendFileSync(path.join(dir, rel), TOKEN);
    assert.match(cli(['check', '--root', dir]).stdout, /FAIL no-secrets/);
    const ext = await preCompactGuard(preCompact(dir), {
      root: dir,
      log: false,
      report: await evaluate(dir, { noGit: true }),
    });
    assert.equal(ext.rule, 'broken', ext.log);
    const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
    assert.equal(r.code, 2, `allowed: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`since the last checkpoint ${rel.replace(/\./g, '\\.')} changed`));
  });

const NEW_CHECKPOINT = `---
created_at: 2026-12-05T08:00:00Z
---

# Checkpoint 2026-12-05-080000

## 何をしたのか
アラートのグループ化を実装した。

## どういうやり取りをユーザーと行ったのか
確認した。

## どうやったのか
まとめた。

## 途中でどういう課題が起こったのか
なし。

## 将来のアクション
通知先を設定する。
`;

test('S4: a new checkpoint file after the checkpoint, PROGRESS.md not rebuilt: /compact is stopped, naming the files that changed, not the one the failing check points at', () => {
  const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s4/good'));
  writeFileSync(path.join(dir, '.agents/checkpoints/2026-12-05-080000.md'), NEW_CHECKPOINT);
  appendFileSync(path.join(dir, '.agents/STATE.md'), '\n- note\n');
  assert.match(cli(['check', '--root', dir]).stdout, /FAIL progress-order/);
  const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
  assert.equal(r.code, 2, `allowed: ${r.stderr}`);
  assert.match(r.stderr, /since the last checkpoint [^(]*\.agents\/checkpoints\/2026-12-05-080000\.md[^(]* changed/);
  assert.doesNotMatch(r.stderr, /since the last checkpoint [^(]*PROGRESS\.md[^(]* changed/);
});

test('S4: a new checkpoint file the marker does not vouch for, brought in so that its times tell nothing (its folder swapped in, the marker touched after it): /compact is stopped', () => {
  for (const how of ['folder swapped', 'marker touched']) {
    const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s4/good'));
    const folder = path.join(dir, '.agents/checkpoints');
    if (how === 'folder swapped') {
      // The folder, with the new file in it, made before the marker's time and swapped in after it:
      // renaming a folder sets no time of the files in it.
      const draft = path.join(dir, '.agents/checkpoints.draft');
      cpSync(folder, draft, { recursive: true });
      writeFileSync(path.join(draft, '2026-12-05-080000.md'), NEW_CHECKPOINT);
      markerAfterEverything(dir);
      renameSync(folder, `${folder}.old`);
      renameSync(draft, folder);
    } else {
      writeFileSync(path.join(folder, '2026-12-05-080000.md'), NEW_CHECKPOINT);
      markerAfterEverything(dir);
    }
    assert.match(cli(['check', '--root', dir]).stdout, /FAIL progress-order/, how);
    const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
    assert.equal(r.code, 2, `${how}: allowed: ${r.stderr}`);
    assert.match(
      r.stderr,
      /since the last checkpoint [^(]*\.agents\/checkpoints\/2026-12-05-080000\.md[^(]* changed/,
      how,
    );
  }
});

test("a vouched file changed within the grace and still whole: /compact goes through, and the log says what changed was checked, not 'state files untouched'", () => {
  const { dir, markerMs } = checkpointedAt(path.join(REPO, 'test/fixtures/s4/good'));
  const p = path.join(dir, 'PROGRESS.md');
  appendFileSync(p, '\n');
  utimesSync(p, (markerMs + 10_000) / 1000, (markerMs + 10_000) / 1000);
  const log = path.join(dir, '.claude/log/session-ledger-hook.log');
  const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
  assert.equal(r.code, 0, r.stderr);
  const last = readFileSync(log, 'utf8').trim().split('\n').pop() ?? '';
  assert.match(last, /changed and checked: PROGRESS\.md/);
  assert.doesNotMatch(last, /state files untouched/);
});

test('a marker written by hand (it vouches for no bytes): a state file only touched since goes through, as before this check', () => {
  const dir = workspace({});
  cpSync(path.join(REPO, 'test/fixtures/s4/good'), dir, { recursive: true });
  gitInit(dir);
  const p = path.join(dir, 'PROGRESS.md');
  const s = readFileSync(p, 'utf8');
  const i = s.indexOf('## [2026-03-05');
  const j = s.indexOf('## [2026-03-01');
  writeFileSync(p, s.slice(0, i) + s.slice(j).replace(/\n*$/, '\n\n') + s.slice(i, j));
  mkdirSync(path.join(dir, '.claude'), { recursive: true });
  writeFileSync(path.join(dir, markerRel(SID)), 'done\n');
  const old = (Date.now() - 10 * 60_000) / 1000;
  for (const f of filesUnder(dir)) if (!f.includes(`${path.sep}.git${path.sep}`)) utimesSync(f, old, old);
  const m = (Date.now() - 5 * 60_000) / 1000;
  utimesSync(path.join(dir, markerRel(SID)), m, m);
  const t = Date.now() / 1000;
  utimesSync(p, t, t);
  const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
  assert.equal(r.code, 0, `blocked: ${r.stderr}`);
});

test('a marker line naming a file behind a linked folder: the file the link leads to is not read (its bytes decide nothing: the same answer and log line whatever they are)', () => {
  const outside = workspace({ secret: 'outside secret\n' });
  const hash = sha256('outside secret\n');
  const logs: string[] = [];
  for (const h of [hash, '0'.repeat(64)]) {
    const { dir } = checkpointedAt(path.join(REPO, 'examples/demo-workspace'));
    appendFileSync(path.join(dir, markerRel(SID)), `${h}  ext/secret\n`);
    const m = (Date.now() - 5 * 60_000) / 1000;
    utimesSync(path.join(dir, markerRel(SID)), m, m);
    symlinkSync(outside, path.join(dir, 'ext'));
    const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
    assert.equal(r.code, 0, r.stderr);
    logs.push(
      readFileSync(path.join(dir, '.claude/log/session-ledger-hook.log'), 'utf8').trim().split('\n').pop() ?? '',
    );
  }
  assert.equal(logs[0].replace(/^\S+ /, ''), logs[1].replace(/^\S+ /, ''));
});

test("S2's project state the checkpoint vouched for, made a link out of the workspace since (same bytes): /compact is stopped, as check fails its readable", () => {
  const outside = workspace({});
  const { dir } = checkpointedAt(path.join(REPO, 'examples/demo-workspace'));
  const ps = path.join(dir, '.claude/project-state.md');
  assert.match(readFileSync(path.join(dir, markerRel(SID)), 'utf8'), / {2}\.claude\/project-state\.md$/m);
  cpSync(ps, path.join(outside, 'project-state.md'));
  unlinkSync(ps);
  symlinkSync(path.join(outside, 'project-state.md'), ps);
  assert.match(cli(['check', '--root', dir]).stdout, /FAIL readable/);
  const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
  assert.equal(r.code, 2, `allowed: ${r.stderr}`);
  assert.match(r.stderr, /\.claude\/project-state\.md changed, and the state now fails a blocking check \(S2 readable/);
});

/** The demo with `arrange` applied before git and the checkpoint; files ten minutes old, the marker five. */
function demoArranged(arrange: (dir: string) => void): string {
  const dir = workspace({});
  copyDemo(dir);
  arrange(dir);
  gitInit(dir);
  const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(readFileSync(path.join(dir, markerRel(SID)), 'utf8'), / {2}memory\/MEMORY\.md$/m);
  const old = (Date.now() - 10 * 60_000) / 1000;
  for (const f of filesUnder(dir)) if (!f.includes(`${path.sep}.git${path.sep}`)) utimesSync(f, old, old);
  const link = path.join(dir, 'memory/MEMORY.md');
  if (lstatSync(link).isSymbolicLink()) lutimesSync(link, old, old);
  const m = (Date.now() - 5 * 60_000) / 1000;
  utimesSync(path.join(dir, markerRel(SID)), m, m);
  return dir;
}

test('a vouched file reached through links that stay inside the root (a linked memory/ folder, a MEMORY.md that is a link older than the marker): a secret added since is stopped, as check stops it', () => {
  const arrangements: Array<[string, (dir: string) => void, string]> = [
    [
      'memory/ a link to notes/memory',
      (dir) => {
        mkdirSync(path.join(dir, 'notes'));
        renameSync(path.join(dir, 'memory'), path.join(dir, 'notes/memory'));
        symlinkSync('notes/memory', path.join(dir, 'memory'));
      },
      'memory/MEMORY.md',
    ],
    [
      'memory/MEMORY.md a link to real.md',
      (dir) => {
        renameSync(path.join(dir, 'memory/MEMORY.md'), path.join(dir, 'memory/real.md'));
        symlinkSync('real.md', path.join(dir, 'memory/MEMORY.md'));
      },
      'memory/real.md',
    ],
  ];
  for (const [what, arrange, target] of arrangements) {
    const dir = demoArranged(arrange);
    appendFileSync(path.join(dir, target), TOKEN);
    assert.match(cli(['check', '--root', dir]).stdout, /FAIL no-secrets/, what);
    const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
    assert.equal(r.code, 2, `${what}: allowed: ${r.stderr}`);
  }
});

test('a vouched MEMORY.md link that now resolves to nothing (dangling, a loop) is gone, whether the root is spelled by its real path or through a link', async () => {
  const breakages: Array<[string, (dir: string) => void]> = [
    ['dangling', (d) => unlinkSync(path.join(d, 'memory/real.md'))],
    [
      'a loop',
      (d) => {
        unlinkSync(path.join(d, 'memory/real.md'));
        symlinkSync('MEMORY.md', path.join(d, 'memory/real.md'));
      },
    ],
  ];
  for (const [what, breakIt] of breakages) {
    const dir = demoArranged((d) => {
      renameSync(path.join(d, 'memory/MEMORY.md'), path.join(d, 'memory/real.md'));
      symlinkSync('real.md', path.join(d, 'memory/MEMORY.md'));
      // gitInit reuses a repository made for the same files: a file of its own keeps this one apart.
      writeFileSync(path.join(d, 'nonce.txt'), `${what} ${path.basename(d)}`);
    });
    breakIt(dir);
    const viaLink = path.join(workspace({}), 'root-link');
    symlinkSync(dir, viaLink);
    // A vouched file that leads nowhere is gone, as a removed one is.
    for (const root of [dir, viaLink]) {
      const d = await preCompactGuard(preCompact(root), { root, log: false });
      assert.deepEqual([d.allow, d.rule], [false, 'gone'], `${what}, root ${root}: ${d.log}`);
      assert.match(
        d.reason,
        /memory\/MEMORY\.md is gone, empty, no longer a state file or a link that leads nowhere since/,
        what,
      );
    }
  }
});

test('a home file the checkpoint vouched for that cannot be read now, its time set back (binary bytes, a folder in its place): /compact is stopped, naming why', async () => {
  for (const spoil of ['binary', 'folder'] as const) {
    const dir = checkpointed();
    const p = path.join(dir, STATE);
    // Dated before the marker, as if untouched since the checkpoint.
    const was = new Date(statSync(path.join(dir, markerRel(SID))).mtimeMs - 60_000);
    if (spoil === 'binary') writeFileSync(p, Buffer.from([0x23, 0x20, 0x00, 0x01, 0x0a]));
    else {
      unlinkSync(p);
      mkdirSync(p);
    }
    utimesSync(p, was, was);
    for (const [how, code, said] of await answers(dir)) {
      assert.equal(code, 2, `${spoil}, ${how}: ${said}`);
      assert.match(
        said,
        /^Compaction stopped: docs\/state\/STATE\.md cannot be read now \(S3 readable: Cannot read the document: /,
        how,
      );
    }
  }
});

/** The demo workspace checkpointed for SID, every file dated before the marker (the idle path), its hook script installed. */
function idleDemo(): string {
  const { dir } = checkpointedAt(path.join(REPO, 'examples/demo-workspace'));
  installHook(dir);
  return dir;
}

test('untouched since the checkpoint by its time, a vouched home that cannot be read now (binary, a second hard link, a link out) is stopped, said as what it is; one that leads nowhere is gone', async () => {
  const spoils: Record<string, (p: string, dir: string) => void> = {
    binary: (p) => writeFileSync(p, Buffer.from([0x23, 0x20, 0x00, 0x01, 0x0a])),
    'hard link': (p) => linkSync(p, path.join(workspace({}), 'elsewhere.md')),
    'link out': (p) => {
      const out = path.join(workspace({}), 'STATE.md');
      cpSync(p, out);
      unlinkSync(p);
      symlinkSync(out, p);
    },
    dangling: (p) => {
      unlinkSync(p);
      symlinkSync('nowhere.md', p);
    },
  };
  for (const [spoil, apply] of Object.entries(spoils)) {
    const dir = idleDemo();
    const p = path.join(dir, STATE);
    const was = new Date(statSync(path.join(dir, markerRel(SID))).mtimeMs - 60_000);
    apply(p, dir);
    lutimesSync(p, was, was);
    const rule = (await preCompactGuard(preCompact(dir), { root: dir, log: false })).rule;
    assert.equal(rule, spoil === 'dangling' ? 'gone' : 'unreadable', spoil);
    for (const [how, code, said] of await answers(dir)) {
      assert.equal(code, 2, `${spoil}, ${how}: ${said}`);
      if (spoil === 'dangling') {
        assert.match(
          said,
          /^Compaction stopped: a checkpoint ran, but docs\/state\/STATE\.md is gone, empty, no longer a state file or a link that leads nowhere since/,
          how,
        );
        continue;
      }
      assert.match(
        said,
        /^Compaction stopped: docs\/state\/STATE\.md cannot be read now \(S3 readable: Cannot read the document: [^\n]+\), so what the checkpoint vouched for would not come back after the summary\.\n1\. Fix it first: /,
        `${spoil}, ${how}`,
      );
      assert.equal(said.split('S3 readable').length, 2, `${spoil}, ${how}: the check once`);
    }
  }
});

test('a vouched home made binary and written since: the check that fails is said once, with what changed', async () => {
  const dir = idleDemo();
  writeFileSync(path.join(dir, STATE), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x0a]));
  for (const [how, code, said] of await answers(dir)) {
    assert.equal(code, 2, `${how}: ${said}`);
    assert.match(
      said,
      /^Compaction stopped: since the last checkpoint docs\/state\/STATE\.md changed, and the state now fails /,
      how,
    );
    assert.equal(said.split('S3 readable').length, 2, `${how}: the check once`);
  }
});

test("a vouched home rewritten as someone else's file (its system's headings gone, so it is detected no more): /compact is stopped, as the state is gone", async () => {
  // Overwritten; moved over it from a file older than the marker (a move keeps its time); overwritten, then the marker touched.
  const ways: Array<[string, (dir: string) => void]> = [
    ['overwritten', (dir) => writeFileSync(path.join(dir, STATE), 'hello\n')],
    ['moved over it', (dir) => renameSync(path.join(dir, 'notes.md'), path.join(dir, STATE))],
    [
      'the marker touched since',
      (dir) => {
        writeFileSync(path.join(dir, STATE), 'hello\n');
        const now = Date.now() / 1000;
        utimesSync(path.join(dir, markerRel(SID)), now, now);
      },
    ],
  ];
  const notes = same('notes.md', (d) => writeFileSync(path.join(d, 'notes.md'), 'plain notes\n'));
  for (const src of ['test/fixtures/s3/good', 'examples/demo-workspace'])
    for (const [way, spoil] of ways) {
      const { dir } = checkpointedAt(path.join(REPO, src), notes);
      installHook(dir);
      spoil(dir);
      for (const [how, code, said] of await answers(dir)) {
        assert.equal(code, 2, `${src}, ${way}, ${how}: ${said}`);
        assert.match(
          said,
          /docs\/state\/STATE\.md is gone, empty, no longer a state file or a link that leads nowhere since/,
          `${src}, ${way}, ${how}`,
        );
      }
    }
});

test("S2's project state kept at another system's home path (CONTINUITY.md, S0's): no block after a checkpoint, nor once it is edited", async () => {
  let spelling = 'CONTINUITY.md';
  const move = (dir: string) => {
    renameSync(path.join(dir, '.claude/project-state.md'), path.join(dir, 'CONTINUITY.md'));
    for (const rel of ['context-manifest.yaml', '.claude/session-ledger.md']) {
      const f = path.join(dir, rel);
      writeFileSync(f, readFileSync(f, 'utf8').replaceAll('.claude/project-state.md', spelling));
    }
  };
  for (const [src, named] of [
    ['test/fixtures/s2/good', 'CONTINUITY.md'],
    ['test/fixtures/s2/good', './CONTINUITY.md'],
    ['examples/demo-workspace', 'CONTINUITY.md'],
  ]) {
    spelling = named;
    const { dir } = checkpointedAt(path.join(REPO, src), move);
    installHook(dir);
    for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${src}, ${how}: ${said}`);
    appendFileSync(path.join(dir, 'CONTINUITY.md'), '\n- Also: the pier gauge reports every 10 minutes.\n');
    for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${src} edited, ${how}: ${said}`);
  }
});

test('a vouched home that cannot be read now blocks nothing when its system is switched off since, nor under a marker written by hand (it vouches for no file); a vouched file gone blocks whoever read it', async () => {
  // S0 switched off after the checkpoint: never checkpointed from then on, its unreadable ledger blocks
  // nothing. Removed or a link that leads nowhere, it is a vouched file gone: the marker does not say which
  // system read it (S0's ledger_path may be another system's home), so that is said, and a new checkpoint
  // (which vouches for no switched-off system) lets /compact through.
  for (const spoil of ['binary', 'removed', 'dangling'] as const) {
    const off = idleDemo();
    const yml = path.join(off, '.agents.yml');
    const ymlTime = statSync(yml).mtime;
    writeFileSync(yml, readFileSync(yml, 'utf8').replace(/^ {2}ledger: true/m, '  ledger: false'));
    utimesSync(yml, ymlTime, ymlTime);
    const ledger = path.join(off, '.agents/session_ledger.md');
    const was = statSync(ledger).mtime;
    if (spoil === 'binary') {
      writeFileSync(ledger, Buffer.from([0x23, 0x00]));
      utimesSync(ledger, was, was);
    } else {
      unlinkSync(ledger);
      if (spoil === 'dangling') symlinkSync('nowhere.md', ledger);
    }
    for (const [how, code, said] of await answers(off)) {
      assert.equal(code, spoil === 'binary' ? 0 : 2, `${spoil}, ${how}: ${said}`);
      if (spoil !== 'binary')
        assert.match(
          said,
          /\.agents\/session_ledger\.md is gone, empty, no longer a state file or a link that leads nowhere since/,
        );
    }
    if (spoil === 'binary') continue;
    const again = cli(['checkpoint', '--root', off, '--session', SID, '--confirm', 'feedback-stored,last-request']);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    for (const [how, code, said] of await answers(off))
      assert.equal(code, 0, `${spoil} after a new checkpoint, ${how}: ${said}`);
  }
  // S0 switched off with its ledger_path on S3's STATE.md: that file removed is S3's state gone.
  const shared = idleDemo();
  const yml = path.join(shared, '.agents.yml');
  const ymlTime = statSync(yml).mtime;
  writeFileSync(yml, 'config_version: 1\nsession:\n  ledger: false\n  ledger_path: docs/state/STATE.md\n');
  utimesSync(yml, ymlTime, ymlTime);
  unlinkSync(path.join(shared, STATE));
  for (const [how, code, said] of await answers(shared)) {
    assert.equal(code, 2, `${how}: ${said}`);
    assert.match(
      said,
      /docs\/state\/STATE\.md is gone, empty, no longer a state file or a link that leads nowhere since/,
      how,
    );
  }
  // A marker written by hand over a binary STATE.md: as before, the guard keeps to the marker's word.
  const hand = idleDemo();
  const marker = path.join(hand, markerRel(SID));
  const mt = statSync(marker).mtime;
  writeFileSync(marker, `${SID}\n`);
  utimesSync(marker, mt, mt);
  const p = path.join(hand, STATE);
  const pt = statSync(p).mtime;
  writeFileSync(p, Buffer.from([0x23, 0x00]));
  utimesSync(p, pt, pt);
  const d = await preCompactGuard(preCompact(hand), { root: hand, log: false });
  assert.equal(d.allow, true, d.reason);
});

test("a vouched file another system reads under a name of S0's (CONTINUITY.md, S3's extra path), removed while S0 is switched off: /compact is stopped, as it is gone", async () => {
  const dir = workspace({ '.agents.yml': 'config_version: 1\n', 'CONTINUITY.md': S3_STATE });
  gitInit(dir);
  const confirmed = ['feedback-stored', 'last-request'];
  const report = await evaluate(dir, { noGit: true, extraPaths: { S3: ['CONTINUITY.md'] }, confirmed });
  assert.equal(report.systems.find((s) => s.id === 'S0')?.skipped !== undefined, true, 'S0 switched off');
  const o = await checkpoint(dir, { report, sessionId: SID, confirmed });
  assert.equal(o.ok, true, o.lines.join('\n'));
  const marker = path.join(dir, markerRel(SID));
  assert.match(readFileSync(marker, 'utf8'), / {2}CONTINUITY\.md$/m);
  const t = (Date.now() - 10 * 60_000) / 1000;
  utimesSync(marker, t, t);
  unlinkSync(path.join(dir, 'CONTINUITY.md'));
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.deepEqual([d.allow, d.rule], [false, 'gone'], d.log);
  assert.match(d.reason, /CONTINUITY\.md is gone, empty, no longer a state file or a link that leads nowhere since/);
});

test('S0 alone, switched off after a checkpoint and its ledger removed: /compact goes through (no system is on, and a checkpoint would write no marker)', async () => {
  const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s0/good'));
  installHook(dir);
  const yml = path.join(dir, '.agents.yml');
  const t = statSync(yml).mtime;
  writeFileSync(yml, readFileSync(yml, 'utf8').replace(/^ {2}ledger: true/m, '  ledger: false'));
  utimesSync(yml, t, t);
  unlinkSync(path.join(dir, '.agents/session_ledger.md'));
  for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${how}: ${said}`);
});

test('S0 alone, its .agents.yml and its ledger both removed after a checkpoint: /compact is stopped (S0 was not switched off, its files are gone), and the block asks for them back or the opt-out', async () => {
  const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s0/good'));
  installHook(dir);
  unlinkSync(path.join(dir, '.agents.yml'));
  unlinkSync(path.join(dir, '.agents/session_ledger.md'));
  for (const [how, code, said] of await answers(dir)) {
    assert.equal(code, 2, `${how}: ${said}`);
    // .agents.yml is S0's switch, no state: the ledger is what is gone.
    assert.match(
      said,
      /but \.agents\/session_ledger\.md is gone, empty, no longer a state file or a link that leads nowhere since/,
      how,
    );
    assert.match(said, /No system is switched on now, so a new checkpoint can vouch for nothing\./, how);
  }
  const o = cli(['checkpoint', '--root', dir, '--session', SID, '--nothing-to-preserve']);
  assert.equal(o.code, 0, o.stdout + o.stderr);
  for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${how}: ${said}`);
});

test("S0 switched off with its ledger_path on S3's STATE.md, S3's STATE.md removed after a checkpoint: /compact is stopped, as it is S3's state gone (the path is S3's home, not only S0's)", async () => {
  for (const lp of ['notes/l.md', 'docs/state/STATE.md']) {
    const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s3/good'));
    installHook(dir);
    writeFileSync(path.join(dir, '.agents.yml'), `config_version: 1\nsession:\n  ledger_path: ${lp}\n`);
    unlinkSync(path.join(dir, STATE));
    for (const [how, code, said] of await answers(dir)) {
      assert.equal(code, 2, `${lp}, ${how}: ${said}`);
      assert.match(
        said,
        /docs\/state\/STATE\.md is gone, empty, no longer a state file or a link that leads nowhere since/,
        `${lp}, ${how}`,
      );
    }
  }
});

test("S2's project state kept at S0's ledger path while S0 was switched off, removed or emptied after the checkpoint: /compact is stopped (S0 never vouched for that file; S2 did)", async () => {
  const atS0sPath = same("S2's project state at S0's ledger path, S0 off", (d) => {
    mkdirSync(path.join(d, '.agents'), { recursive: true });
    renameSync(path.join(d, '.claude/project-state.md'), path.join(d, '.agents/session_ledger.md'));
    const manifest = path.join(d, 'context-manifest.yaml');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace('.claude/project-state.md', '.agents/session_ledger.md'),
    );
    writeFileSync(path.join(d, '.agents.yml'), 'config_version: 1\n');
  });
  for (const spoil of ['removed', 'emptied'] as const) {
    const { dir } = checkpointedAt(
      path.join(REPO, 'test/fixtures/s2/good'),
      path.join(REPO, 'test/fixtures/s3/good'),
      atS0sPath,
    );
    assert.match(readFileSync(path.join(dir, markerRel(SID)), 'utf8'), / {2}\.agents\/session_ledger\.md$/m);
    installHook(dir);
    const ledger = path.join(dir, '.agents/session_ledger.md');
    if (spoil === 'removed') unlinkSync(ledger);
    else writeFileSync(ledger, '');
    for (const [how, code, said] of await answers(dir)) assert.equal(code, 2, `${spoil}, ${how}: ${said}`);
  }
});

/** S0's ledger moved to notes/ledger.md, and .agents.yml's ledger_path with it. */
function ledgerToNotes(d: string): void {
  mkdirSync(path.join(d, 'notes'));
  renameSync(path.join(d, '.agents/session_ledger.md'), path.join(d, 'notes/ledger.md'));
  const y = path.join(d, '.agents.yml');
  writeFileSync(y, readFileSync(y, 'utf8').replace('.agents/session_ledger.md', 'notes/ledger.md'));
}

test("S0 on at the checkpoint with its ledger elsewhere, S2's project state at S0's default ledger path; S0 switched off and that file removed, emptied or a link to nowhere: /compact is stopped everywhere", async () => {
  const atS0sPath = same("S2's project state at S0's ledger path, S0's ledger elsewhere", (d) => {
    ledgerToNotes(d);
    renameSync(path.join(d, '.claude/project-state.md'), path.join(d, '.agents/session_ledger.md'));
    const m = path.join(d, 'context-manifest.yaml');
    writeFileSync(m, readFileSync(m, 'utf8').replace('.claude/project-state.md', '.agents/session_ledger.md'));
  });
  for (const spoil of ['removed', 'emptied', 'dangling'] as const) {
    const { dir } = checkpointedAt(
      path.join(REPO, 'test/fixtures/s2/good'),
      path.join(REPO, 'test/fixtures/s0/good'),
      atS0sPath,
    );
    assert.match(readFileSync(path.join(dir, markerRel(SID)), 'utf8'), / {2}\.agents\.yml$/m);
    installHook(dir);
    writeFileSync(path.join(dir, '.agents.yml'), 'config_version: 1\n');
    const f = path.join(dir, '.agents/session_ledger.md');
    if (spoil === 'emptied') writeFileSync(f, '');
    else unlinkSync(f);
    if (spoil === 'dangling') symlinkSync('nowhere.md', f);
    for (const [how, code, said] of await answers(dir)) assert.equal(code, 2, `${spoil}, ${how}: ${said}`);
  }
});

test("no system on, S3's STATE.md and the switched-off S0's ledger both gone: the block names both and asks for them back; both back, /compact goes through, as it said; only S3's back, the next block asks for a checkpoint, which lets it through", async () => {
  for (const restore of ['both', 'S3 only'] as const) {
    const { dir } = checkpointedAt(
      ...['test/fixtures/s3/good', 'test/fixtures/s0/good'].map((src) => path.join(REPO, src)),
    );
    const old = (Date.now() - 10 * 60_000) / 1000;
    installHook(dir);
    writeFileSync(path.join(dir, '.agents.yml'), 'config_version: 1\n');
    utimesSync(path.join(dir, '.agents.yml'), old, old);
    unlinkSync(path.join(dir, STATE));
    unlinkSync(path.join(dir, '.agents/session_ledger.md'));
    for (const [how, code, said] of await answers(dir)) {
      assert.equal(code, 2, `${how}: ${said}`);
      assert.match(
        said,
        /but (?=.*\.agents\/session_ledger\.md)(?=.*docs\/state\/STATE\.md).* are gone, empty, no longer a state file or a link/,
        how,
      );
      assert.match(
        said,
        /bring them back \(git checkout -- <file>, for a file git tracks\), then run \/compact again/,
        how,
      );
    }
    const back = [STATE, ...(restore === 'both' ? ['.agents/session_ledger.md'] : [])];
    const r = spawnSync('git', ['-C', dir, 'checkout', '--', ...back], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    for (const f of back) utimesSync(path.join(dir, f), old, old);
    if (restore === 'both') {
      for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${restore}, ${how}: ${said}`);
      continue;
    }
    for (const [how, code, said] of await answers(dir)) {
      assert.equal(code, 2, `${restore}, ${how}: ${said}`);
      assert.match(said, /Run:\n(?:.* \\\n)+ +checkpoint --session /, how);
    }
    const again = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    for (const [how, code, said] of await answers(dir))
      assert.equal(code, 0, `${restore}, after a checkpoint, ${how}: ${said}`);
  }
});

test('no system switched on after a state file the checkpoint vouched for is gone (S0 switched off, S3 removed): the block asks for the file back or the opt-out, not a checkpoint that can vouch for nothing', async () => {
  const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s3/good'));
  installHook(dir);
  writeFileSync(path.join(dir, '.agents.yml'), 'config_version: 1\n');
  unlinkSync(path.join(dir, STATE));
  for (const [how, code, said] of await answers(dir)) {
    assert.equal(code, 2, `${how}: ${said}`);
    assert.match(
      said,
      /No system is switched on now, so a new checkpoint can vouch for nothing\.\n1\. If it held state to keep, bring it back /,
      how,
    );
    assert.doesNotMatch(said, /Run:\n(?:.* \\\n)+ +checkpoint --session /, how);
  }
  // As it says: a checkpoint writes no marker, the opt-out lets /compact through.
  cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal((await preCompactGuard(preCompact(dir), { root: dir, log: false })).allow, false);
  const o = cli(['checkpoint', '--root', dir, '--session', SID, '--nothing-to-preserve']);
  assert.equal(o.code, 0, o.stdout + o.stderr);
  for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${how}: ${said}`);
});

test('no system switched on, the checkpoint past its window and nothing gone: /compact goes through (nothing a checkpoint vouches for is watched, and a checkpoint would write no marker)', async () => {
  const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s0/good'));
  installHook(dir);
  const yml = path.join(dir, '.agents.yml');
  const t = statSync(yml).mtime;
  writeFileSync(yml, 'config_version: 1\n');
  utimesSync(yml, t, t);
  const nine = (Date.now() - 9 * 3600_000) / 1000;
  utimesSync(path.join(dir, markerRel(SID)), nine, nine);
  for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${how}: ${said}`);
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.deepEqual([d.rule, d.log], ['idle', d.log]);
  assert.match(d.log, /no system is switched on/);
});

test('no system switched on and no checkpoint: the block says so and its first step switches S0 on (or starts a system), so following the steps lets /compact through', async () => {
  const dir = workspace({});
  cpSync(path.join(REPO, 'test/fixtures/s0/good'), dir, { recursive: true });
  writeFileSync(path.join(dir, '.agents.yml'), 'config_version: 1\n');
  gitInit(dir);
  installHook(dir);
  for (const [how, code, said] of await answers(dir)) {
    assert.equal(code, 2, `${how}: ${said}`);
    assert.match(
      said,
      /^1\. No system is switched on here \(S0: Checkpoint skipped - session\.ledger not enabled in \.agents\.yml\), so a checkpoint writes no marker\. To keep \.agents\/session_ledger\.md, switch S0 on: .*enable-ledger$/m,
      how,
    );
    assert.doesNotMatch(said, /bring your state file up to date/, how);
  }
  // As the steps say, as written: switch it on, the checkpoint command (with the manual items S0's checkpoint
  // asks for), /compact.
  const d0 = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.match(d0.reason, /^2\. Make sure these are true \(--confirm says so\):$/m);
  const command = blockArgs(d0.reason, '3. Run:').join(' ');
  assert.equal(command, `checkpoint --session ${SID} --confirm feedback-stored,last-request`);
  assert.equal(cli(['enable-ledger', '--root', dir]).code, 0);
  const r = cli([...command.split(' '), '--root', dir]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${how}: ${said}`);
  // No system at all: the step starts one.
  const none = workspace({});
  gitInit(none);
  const d = await preCompactGuard(preCompact(none), { root: none, log: false });
  assert.match(
    d.reason,
    /^1\. No system's state file is here, so a checkpoint writes no marker\. .*init lists them\.$/m,
  );
});

test('a block naming several files says each as what it is, in the plural where there are several', async () => {
  const dir = idleDemo();
  const yml = path.join(dir, '.agents.yml');
  const t = statSync(yml).mtime;
  writeFileSync(yml, readFileSync(yml, 'utf8').replace(/^ {2}ledger: true/m, '  ledger: false'));
  utimesSync(yml, t, t);
  unlinkSync(path.join(dir, '.agents/session_ledger.md'));
  unlinkSync(path.join(dir, '.agents/STATE.md'));
  for (const [how, code, said] of await answers(dir)) {
    assert.equal(code, 2, `${how}: ${said}`);
    assert.match(
      said,
      /but \.agents\/session_ledger\.md, \.agents\/STATE\.md are gone, empty, no longer a state file or a link that leads nowhere since \(the checkpoint vouched for them\)/,
      how,
    );
    // What a new checkpoint makes of the state without them: S4, found by its checkpoints, has no STATE.md.
    assert.match(
      said,
      /^ {3}As it is now the state fails S4 exists, so a checkpoint refuses until that is fixed/m,
      how,
    );
  }
});

test('Claude Code sent no session id while a session of the folder is known: the steps name the shared marker the guard reads (checkpoint --shared), and following them, or the opt-out, lets /compact through', async () => {
  for (const way of ['checkpoint', 'opt-out'] as const) {
    const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
    gitInit(dir);
    // A Claude Code transcript of this folder: `checkpoint` without --session or --shared writes that session's marker.
    const env = claudeHomeWith(dir, SID);
    const d = await preCompactGuard(preCompact(dir, { sessionId: null }), { root: dir, log: false, env });
    assert.equal(d.allow, false);
    const command =
      way === 'checkpoint'
        ? blockArgs(d.reason).join(' ')
        : blockArgs(d.reason, 'Nothing worth preserving? Run:').join(' ');
    assert.match(command ?? '', /--shared/, d.reason);
    const r = cli([...(command as string).split(' '), '--root', dir], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const after = await preCompactGuard(preCompact(dir, { sessionId: null }), { root: dir, log: false, env });
    assert.equal(after.allow, true, `${way}: ${after.reason}`);
  }
  // With two sessions writing, --shared asks which, and --shared --session names the signer.
  const dir2 = workspace({ 'docs/state/STATE.md': S3_STATE });
  gitInit(dir2);
  const env2 = claudeHomeWith(dir2, SID, '6c2214d7-b87e-4432-8e41-22ba294ea584');
  const d2 = await preCompactGuard(preCompact(dir2, { sessionId: null }), { root: dir2, log: false, env: env2 });
  const printed = blockArgs(d2.reason).join(' ');
  const asked = cli([...printed.split(' '), '--root', dir2], { env: env2 });
  assert.equal(asked.code, 1, asked.stdout + asked.stderr);
  assert.match(asked.stderr, /which one is this checkpoint for\? Name it with --shared --session ID:/);
  const named = cli([...printed.split(' '), '--session', SID, '--root', dir2], { env: env2 });
  assert.equal(named.code, 0, named.stdout + named.stderr);
  assert.ok(readFileSync(path.join(dir2, '.claude/.checkpoint-ready'), 'utf8').startsWith(`${SID} `));
  const json = cli(
    ['checkpoint', '--shared', '--session', SID, '--confirm', 'feedback-stored,last-request', '--json', '--root', dir2],
    {
      env: env2,
    },
  );
  assert.deepEqual((({ shared, signedBy, marker }) => ({ shared, signedBy, marker }))(JSON.parse(json.stdout)), {
    shared: true,
    signedBy: SID,
    marker: '.claude/.checkpoint-ready',
  });
  // Nothing to preserve, shared: no session is asked for (every session's guard takes it).
  const ntp = cli(['checkpoint', '--shared', '--nothing-to-preserve', '--root', dir2], { env: env2 });
  assert.equal(ntp.code, 0, ntp.stdout + ntp.stderr);
  assert.equal(
    (await preCompactGuard(preCompact(dir2, { sessionId: null }), { root: dir2, log: false, env: env2 })).allow,
    true,
  );
});

test("a vouched state file at a path set in configuration, removed with that configuration (S0's ledger_path; S2's per-session ledger with its manifest): /compact is stopped, as it is gone", async () => {
  // S0 on with its ledger at notes/ledger.md, S3 beside it; .agents.yml and the ledger removed.
  const { dir: s0 } = checkpointedAt(
    path.join(REPO, 'test/fixtures/s0/good'),
    path.join(REPO, 'test/fixtures/s3/good'),
    ledgerToNotes,
  );
  assert.match(readFileSync(path.join(s0, markerRel(SID)), 'utf8'), / {2}notes\/ledger\.md$/m);
  installHook(s0);
  unlinkSync(path.join(s0, '.agents.yml'));
  unlinkSync(path.join(s0, 'notes/ledger.md'));
  for (const [how, code, said] of await answers(s0)) {
    assert.equal(code, 2, `${how}: ${said}`);
    assert.match(said, /but notes\/ledger\.md is gone/, how);
  }
  // S2 with a per-session ledger, S3 beside it: the ledger, the manifest and the project state removed.
  const { dir: s2 } = checkpointedAt(
    path.join(REPO, 'test/fixtures/s2/good'),
    path.join(REPO, 'test/fixtures/s3/good'),
    (d) => renameSync(path.join(d, '.claude/session-ledger.md'), path.join(d, `.claude/session-ledger.${SID}.md`)),
  );
  installHook(s2);
  for (const f of [`.claude/session-ledger.${SID}.md`, 'context-manifest.yaml', '.claude/project-state.md'])
    unlinkSync(path.join(s2, f));
  for (const [how, code, said] of await answers(s2)) {
    assert.equal(code, 2, `${how}: ${said}`);
    assert.match(said, new RegExp(`\\.claude/session-ledger\\.${SID}\\.md`), how);
  }
});

test('S0 alone, switched off by removing its .agents.yml after a checkpoint, its ledger kept: /compact goes through (no system is on, and that is a way to switch S0 off)', async () => {
  const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s0/good'));
  installHook(dir);
  unlinkSync(path.join(dir, '.agents.yml'));
  for (const [how, code, said] of await answers(dir)) assert.equal(code, 0, `${how}: ${said}`);
});

test('S0 switched off by removing .agents.yml after a checkpoint, its ledger kept at a ledger_path or at its default place beside S3: /compact goes through (.agents.yml is a switch, no state)', async () => {
  const { dir: custom } = checkpointedAt(path.join(REPO, 'test/fixtures/s0/good'), ledgerToNotes);
  installHook(custom);
  unlinkSync(path.join(custom, '.agents.yml'));
  for (const [how, code, said] of await answers(custom)) assert.equal(code, 0, `custom path, ${how}: ${said}`);
  const { dir: beside } = checkpointedAt(
    ...['test/fixtures/s0/good', 'test/fixtures/s3/good'].map((src) => path.join(REPO, src)),
  );
  installHook(beside);
  unlinkSync(path.join(beside, '.agents.yml'));
  for (const [how, code, said] of await answers(beside)) assert.equal(code, 0, `beside S3, ${how}: ${said}`);
});

/** A Claude Code home whose projects folder holds a transcript of `dir` for each session id given. */
function claudeHomeWith(dir: string, ...sids: string[]): NodeJS.ProcessEnv {
  const home = workspace({}, 'sl-claude-');
  const projects = path.join(home, 'projects', dir.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(projects, { recursive: true });
  for (const sid of sids)
    writeFileSync(
      path.join(projects, `${sid}.jsonl`),
      `${JSON.stringify({ type: 'user', sessionId: sid, cwd: dir })}\n`,
    );
  return { CLAUDE_CONFIG_DIR: home };
}

test('checkpoint --shared signs the shared marker with the session found here: a guard without an id and that session take it, another session does not; with two sessions writing it asks which, as checkpoint does', async () => {
  const OTHER = '6c2214d7-b87e-4432-8e41-22ba294ea584';
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  gitInit(dir);
  const two = cli(['checkpoint', '--shared', '--confirm', 'feedback-stored,last-request', '--root', dir], {
    env: claudeHomeWith(dir, SID, OTHER),
  });
  assert.equal(two.code, 1, two.stdout + two.stderr);
  assert.match(two.stderr, /which one is this checkpoint for\?/);
  const env = claudeHomeWith(dir, SID);
  const r = cli(['checkpoint', '--shared', '--confirm', 'feedback-stored,last-request', '--root', dir], { env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`the shared marker \\(--shared\\).*signed by Claude Code session ${SID}`));
  assert.ok(readFileSync(path.join(dir, '.claude/.checkpoint-ready'), 'utf8').startsWith(`${SID} `));
  const guard = async (sessionId: string | null) =>
    (await preCompactGuard(preCompact(dir, { sessionId }), { root: dir, log: false, env })).allow;
  assert.deepEqual([await guard(null), await guard(SID), await guard(OTHER)], [true, true, false]);
  // Nothing to preserve, shared: every session's guard takes it, and the words say so.
  const none = cli(['checkpoint', '--shared', '--nothing-to-preserve', '--root', dir], { env });
  assert.equal(none.code, 0, none.stdout + none.stderr);
  assert.match(none.stdout, /its nothing-to-preserve lets \/compact through for every session of this folder/);
  assert.doesNotMatch(none.stdout, /does not take it/);
  assert.equal(await guard(OTHER), true);
});

test('S0 switched off with no ledger yet and no session id: the steps, followed as printed (switch S0 on, write the ledger, the checkpoint command with its --confirm), let /compact through', async () => {
  const dir = workspace({ '.agents.yml': 'session:\n  ledger: false\n' });
  gitInit(dir);
  const d = await preCompactGuard(preCompact(dir, { sessionId: null }), { root: dir, log: false });
  assert.equal(d.allow, false);
  const command = blockArgs(d.reason).join(' ');
  assert.equal(command, 'checkpoint --shared --confirm feedback-stored,last-request', d.reason);
  assert.equal(cli(['enable-ledger', '--root', dir]).code, 0);
  cpSync(
    path.join(REPO, 'test/fixtures/s0/good/.agents/session_ledger.md'),
    path.join(dir, '.agents/session_ledger.md'),
  );
  const r = cli([...command.split(' '), '--root', dir], { env: claudeHomeWith(dir) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal((await preCompactGuard(preCompact(dir, { sessionId: null }), { root: dir, log: false })).allow, true);
});

test('a shared marker git tracks and no session id: the block says it is tracked, not missing, and its steps (stop tracking it, then the checkpoint) let /compact through', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE, '.claude/.checkpoint-ready': '' });
  gitInit(dir);
  const d = await preCompactGuard(preCompact(dir, { sessionId: null }), { root: dir, log: false });
  assert.equal(d.allow, false);
  assert.match(d.reason, /\(\.claude\/\.checkpoint-ready is tracked by git\)/);
  assert.match(
    d.reason,
    /^1\. Stop tracking it \(it came with the repository\): git rm --cached \.claude\/\.checkpoint-ready$/m,
  );
  const untrack = spawnSync('git', ['-C', dir, 'rm', '-q', '--cached', '.claude/.checkpoint-ready'], {
    encoding: 'utf8',
  });
  assert.equal(untrack.status, 0, untrack.stderr);
  const command = blockArgs(d.reason).join(' ');
  const r = cli([...command.split(' '), '--root', dir], { env: claudeHomeWith(dir) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal((await preCompactGuard(preCompact(dir, { sessionId: null }), { root: dir, log: false })).allow, true);
});

test('a link git tracks at the shared marker and no session id: the block untracks it as it removes it, removing it alone is said as tracked, and checkpoint --shared names git rm, not a session', async () => {
  const planted = () => {
    const ws = workspace({ 'docs/state/STATE.md': S3_STATE });
    mkdirSync(path.join(ws, '.claude'));
    symlinkSync('../docs/state/STATE.md', path.join(ws, '.claude/.checkpoint-ready'));
    gitInit(ws);
    return ws;
  };
  const shared = (ws: string) =>
    cli(['checkpoint', '--shared', '--session', SID, '--root', ws, '--confirm', 'feedback-stored,last-request']);
  // The first step as printed (run in the workspace), then checkpoint --shared: /compact goes through.
  const first = planted();
  const d1 = await preCompactGuard(preCompact(first, { sessionId: null }), { root: first, log: false });
  const run = spawnSync('sh', ['-c', /^1\. [^:]*: (.*)$/m.exec(d1.reason)?.[1] ?? 'false'], {
    cwd: first,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(shared(first).code, 0);
  assert.equal(
    (await preCompactGuard(preCompact(first, { sessionId: null }), { root: first, log: false })).allow,
    true,
  );
  const dir = planted();
  const guard = () => preCompactGuard(preCompact(dir, { sessionId: null }), { root: dir, log: false });
  const d = await guard();
  assert.equal(d.allow, false);
  assert.match(
    d.reason,
    /^1\. Remove it and stop tracking it \(it came with the repository\): git rm -r --cached \.claude\/\.checkpoint-ready && rm -r \.claude\/\.checkpoint-ready$/m,
    d.reason,
  );
  // Removed from the folder only: git still tracks it, and the block says so (not "missing").
  rmSync(path.join(dir, '.claude/.checkpoint-ready'));
  const again = await guard();
  assert.match(again.reason, /\(\.claude\/\.checkpoint-ready is tracked by git\)/, again.reason);
  assert.match(again.reason, /^1\. Stop tracking it \(it came with the repository\): git rm --cached/m);
  // checkpoint --shared with the session named: refused for what is true (git tracks it), with the way out.
  const r = shared(dir);
  assert.equal(r.code === 0, false, r.stdout);
  assert.match(r.stdout + r.stderr, /git tracks the shared marker \.claude\/\.checkpoint-ready/);
  assert.match(r.stdout + r.stderr, /git rm -r --cached \.claude\/\.checkpoint-ready/);
  assert.doesNotMatch(r.stdout + r.stderr, /no session id is known|Name the session with --session/);
  // Following the refusal's command as printed, the checkpoint then writes the marker and /compact goes through.
  const step = /\((git rm -r --cached [^)]*)\)/.exec(r.stdout + r.stderr)?.[1] ?? 'false';
  const follow = spawnSync('sh', ['-c', step], { cwd: dir, encoding: 'utf8' });
  assert.equal(follow.status, 0, follow.stderr);
  const ok = shared(dir);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.equal((await guard()).allow, true);
});

/** The demo checkpointed for SID (files ten minutes old, the marker five), its hook script installed. */
function demoCheckpointed(arrange?: Arrange): string {
  const { dir } = checkpointedAt(path.join(REPO, 'examples/demo-workspace'), ...(arrange ? [arrange] : []));
  installHook(dir);
  return dir;
}

/** S2's ledger with a PLAN pointer to docs/plan.md, a plan not written yet (a stale path: a warning). */
const planPointer = same('a PLAN pointer to docs/plan.md', (d) =>
  appendFileSync(path.join(d, '.claude/session-ledger.md'), '- Plan: docs/plan.md\n'),
);

test("a state file only the rules read that came after the checkpoint (a second handoff, a memory store, a project state or S2's plan that cannot be read): /compact is stopped, as check fails it", async () => {
  const cases: Array<[string, Arrange | undefined, (d: string) => void, RegExp]> = [
    [
      'a second handoff',
      undefined,
      (d) => cpSync(path.join(d, 'memory/session-handoff-LATEST.md'), path.join(d, 'memory/session-handoff.md')),
      /FAIL single-handoff/,
    ],
    [
      'a memory store that is binary',
      (d) => rmSync(path.join(d, 'memory/MEMORY.md')),
      (d) => writeFileSync(path.join(d, 'memory/MEMORY.md'), 'a\0b'),
      /FAIL readable/,
    ],
    [
      'a project state that is binary',
      (d) => rmSync(path.join(d, '.claude/project-state.md')),
      (d) => writeFileSync(path.join(d, '.claude/project-state.md'), 'a\0b'),
      /FAIL readable/,
    ],
    [
      "the plan S2's PLAN pointer names, binary",
      planPointer,
      (d) => writeFileSync(path.join(d, 'docs/plan.md'), 'a\0b'),
      /FAIL readable/,
    ],
    [
      "the plan S2's PLAN pointer names, a second hard link to a file outside the workspace",
      planPointer,
      (d) => {
        const outside = path.join(workspace({}), 'plan.md');
        writeFileSync(outside, "# Plan\n\n- [ ] someone else's plan\n");
        linkSync(outside, path.join(d, 'docs/plan.md'));
      },
      /FAIL readable/,
    ],
  ];
  for (const [how, before, after, fails] of cases) {
    const dir = demoCheckpointed(before);
    after(dir);
    assert.match(cli(['check', '--root', dir]).stdout, fails, how);
    for (const [via, code, said] of await answers(dir)) assert.equal(code, 2, `${how}, ${via}: ${said}`);
  }
});

test("S2's ledger is the newest of several: an empty template the checkpoint vouched for as its plan, the newest since (no byte changed): /compact is stopped, as it is an empty skeleton", async () => {
  const plan = '.claude/session-ledger.plan.md';
  const { dir } = checkpointedAt(path.join(REPO, 'test/fixtures/s2/good'), (d) => {
    const ledger = path.join(d, '.claude/session-ledger.md');
    writeFileSync(ledger, readFileSync(ledger, 'utf8').replace('- Plan: docs/plan.md', `- Plan: ${plan}`));
    cpSync(path.join(REPO, 'test/fixtures/s2/template/.claude/session-ledger.md'), path.join(d, plan));
    const older = (Date.now() - 60_000) / 1000;
    utimesSync(path.join(d, plan), older, older);
  });
  assert.match(readFileSync(path.join(dir, markerRel(SID)), 'utf8'), /session-ledger\.plan\.md$/m);
  installHook(dir);
  // The ledger the checkpoint checked, dated before its plan: the plan is the ledger now.
  const older = (Date.now() - 20 * 60_000) / 1000;
  utimesSync(path.join(dir, '.claude/session-ledger.md'), older, older);
  assert.match(cli(['check', '--root', dir]).stdout, /FAIL not-skeleton/);
  for (const [via, code, said] of await answers(dir, { spawn: true })) {
    assert.equal(code, 2, `${via}: ${said}`);
    assert.match(said, /\.claude\/session-ledger\.plan\.md is an empty skeleton/, via);
  }
});

test("S1's attestation sidecar rewritten after the checkpoint: /compact is stopped (TAMPERED blocks); removed, it goes through (NO_SIDECAR is information) and the log says it was checked", async () => {
  const dir = demoCheckpointed();
  const sidecar = path.join(dir, 'memory/.session-handoff.sha256');
  assert.match(readFileSync(path.join(dir, markerRel(SID)), 'utf8'), / {2}memory\/\.session-handoff\.sha256$/m);
  writeFileSync(sidecar, '0'.repeat(64));
  assert.match(cli(['check', '--root', dir]).stdout, /FAIL attestation/);
  for (const [via, code, said] of await answers(dir)) {
    assert.equal(code, 2, `${via}: ${said}`);
    assert.match(said, /S1 attestation/, via);
  }
  rmSync(sidecar);
  for (const [via, code, said] of await answers(dir)) assert.equal(code, 0, `removed, ${via}: ${said}`);
  const last = readFileSync(path.join(dir, '.claude/log/session-ledger-hook.log'), 'utf8').trim().split('\n').pop();
  assert.match(last ?? '', /changed and checked: memory\/\.session-handoff\.sha256/);
});

test('a vouched file whose name holds a backslash (S0 ledger_path notes\\ledger.md): untouched, /compact goes through, nothing said gone', async () => {
  const dir = demoCheckpointed((d) => {
    renameSync(path.join(d, '.agents/session_ledger.md'), path.join(d, 'notes\\ledger.md'));
    const y = path.join(d, '.agents.yml');
    writeFileSync(
      y,
      readFileSync(y, 'utf8').replace('  ledger: true\n', "  ledger: true\n  ledger_path: 'notes\\ledger.md'\n"),
    );
  });
  assert.match(readFileSync(path.join(dir, markerRel(SID)), 'utf8'), /notes\\\\ledger\.md$/m);
  for (const [via, code, said] of await answers(dir)) assert.equal(code, 0, `${via}: ${said}`);
});

test("S2's project_state given as an absolute path: untouched, /compact goes through saying nothing changed; one outside the workspace that appears after the checkpoint stops it, as check fails it", async () => {
  const manifest = (d: string, ps: string) => {
    const m = path.join(d, 'context-manifest.yaml');
    writeFileSync(m, readFileSync(m, 'utf8').replace(/project_state: .*/, `project_state: ${ps}`));
  };
  const inside = demoCheckpointed((d) => manifest(d, path.join(d, '.claude/project-state.md')));
  for (const [via, code, said] of await answers(inside)) assert.equal(code, 0, `inside, ${via}: ${said}`);
  const last = readFileSync(path.join(inside, '.claude/log/session-ledger-hook.log'), 'utf8').trim().split('\n').pop();
  assert.match(last ?? '', /state files untouched/);

  const outsideDir = workspace({});
  const outside = path.join(outsideDir, 'project-state.md');
  const dir = demoCheckpointed((d) => manifest(d, outside));
  cpSync(path.join(dir, '.claude/project-state.md'), outside);
  assert.match(cli(['check', '--root', dir]).stdout, /FAIL readable/);
  for (const [via, code, said] of await answers(dir)) assert.equal(code, 2, `outside, ${via}: ${said}`);
});

test("S1's attestation sidecar made a link that leads nowhere after the checkpoint: /compact goes through, as when it is removed (check: NO_SIDECAR, information)", async () => {
  const dir = demoCheckpointed();
  const sidecar = path.join(dir, 'memory/.session-handoff.sha256');
  rmSync(sidecar);
  symlinkSync('nowhere', sidecar);
  assert.doesNotMatch(cli(['check', '--root', dir]).stdout, /FAIL/);
  for (const [via, code, said] of await answers(dir)) assert.equal(code, 0, `${via}: ${said}`);
});

test("a system whose reader fails (a fault of the tool, made here by a reader that throws): check says so for that system, blocking, not that its file is missing; the guard's allow says the state was not all checked, so no surface says the checkpoint is done", async () => {
  const dir = demoCheckpointed();
  const failing = SYSTEMS.map((m) =>
    m.id === 'S2'
      ? {
          ...m,
          load: async () => {
            throw new Error('the reader broke');
          },
        }
      : m,
  );
  const report = await evaluate(dir, { noGit: true }, failing);
  const s2 = report.systems.find((s) => s.id === 'S2');
  assert.deepEqual(
    s2?.checks.map((c) => [c.id, c.severity, c.status, String(c.message)]),
    [['internal', 'block', 'fail', 'Internal error while checking S2: the reader broke']],
  );
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false, report });
  assert.deepEqual([d.allow, d.rule], [true, 'idle'], d.log);
  assert.match(d.unchecked ?? '', /Internal error while checking S2: the reader broke/);
  assert.match(d.log, /not every state file could be checked: Internal error while checking S2: the reader broke\)$/);
});

test("S2's PLAN pointer as an absolute path inside the workspace, or a path that leads out of it: a plan made binary, given a secret or come since stops /compact, as check fails it; untouched, it goes through", async () => {
  const outside = workspace({});
  const ledger = (d: string) => path.join(d, '.claude/session-ledger.md');
  const plan = '# Plan\n\n- [ ] step one\n';
  const cases: Array<[string, (d: string) => string, boolean, (file: string) => void, RegExp]> = [
    [
      'absolute, vouched, then binary',
      (d) => path.join(d, 'docs/plan.md'),
      true,
      (f) => writeFileSync(f, 'a\0b'),
      /FAIL readable/,
    ],
    [
      'absolute, vouched, then a token written in it',
      (d) => path.join(d, 'docs/plan.md'),
      true,
      (f) => appendFileSync(f, `- [ ] ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}\n`),
      /FAIL no-secrets/,
    ],
    [
      'absolute, come since, a second hard link',
      (d) => path.join(d, 'docs/plan.md'),
      false,
      (f) => {
        writeFileSync(path.join(outside, 'linked.md'), plan);
        linkSync(path.join(outside, 'linked.md'), f);
      },
      /FAIL readable/,
    ],
    [
      'out of the workspace, come since',
      (d) => path.join(outside, `${path.basename(d)}-plan.md`),
      false,
      (f) => writeFileSync(f, plan),
      /FAIL readable/,
    ],
  ];
  for (const [how, where, vouched, after, fails] of cases) {
    let file = '';
    const dir = demoCheckpointed((d) => {
      file = where(d);
      const pointer = how.startsWith('absolute') ? file : path.relative(d, file);
      appendFileSync(ledger(d), `- Plan: \`${pointer}\`\n`);
      if (vouched) writeFileSync(file, plan);
    });
    if (vouched) {
      for (const [via, code, said] of await answers(dir)) assert.equal(code, 0, `${how}, untouched, ${via}: ${said}`);
      const last = readFileSync(path.join(dir, '.claude/log/session-ledger-hook.log'), 'utf8').trim().split('\n').pop();
      assert.match(last ?? '', /state files untouched/, how);
    }
    after(file);
    assert.match(cli(['check', '--root', dir]).stdout, fails, how);
    for (const [via, code, said] of await answers(dir)) assert.equal(code, 2, `${how}, ${via}: ${said}`);
  }
});

test("S2's plan deleted after the checkpoint stops /compact whether the PLAN pointer is relative or an absolute path into the workspace: the checkpoint vouches for it by its relative path either way", async () => {
  for (const absolute of [false, true]) {
    const dir = demoCheckpointed((d) => {
      writeFileSync(path.join(d, 'docs/plan.md'), '# Plan\n\n- [ ] step one\n');
      const pointer = absolute ? path.join(d, 'docs/plan.md') : 'docs/plan.md';
      appendFileSync(path.join(d, '.claude/session-ledger.md'), `- Plan: \`${pointer}\`\n`);
    });
    const how = absolute ? 'absolute' : 'relative';
    const marker = readFileSync(path.join(dir, markerRel(SID)), 'utf8');
    assert.match(marker, /^[0-9a-f]{64} {2}docs\/plan\.md$/m, how);
    for (const [via, code, said] of await answers(dir)) assert.equal(code, 0, `${how}, untouched, ${via}: ${said}`);
    rmSync(path.join(dir, 'docs/plan.md'));
    // check warns of the stale pointer; the guard stops /compact: the checkpoint's plan is gone.
    assert.match(cli(['check', '--root', dir]).stdout, /warn stale-paths/, how);
    for (const [via, code, said] of await answers(dir)) {
      assert.equal(code, 2, `${how}, ${via}: ${said}`);
      assert.match(said, /docs\/plan\.md is gone/, `${how}, ${via}`);
    }
  }
});

test("S2's plan the checkpoint vouched for, replaced since by a folder or a pipe, or emptied: /compact is stopped (as for a plan deleted), and check says the plan cannot be read or is empty", async () => {
  const cases: Array<[string, (file: string) => void, RegExp, RegExp]> = [
    ['a folder', (f) => mkdirSync(f), /FAIL readable +Cannot read the document: a directory/, /fails S2 readable/],
    [
      'a pipe',
      (f) => execFileSync('mkfifo', [f]),
      /FAIL readable +Cannot read the document: not a regular file/,
      /fails S2 readable/,
    ],
    [
      'emptied',
      (f) => writeFileSync(f, ''),
      /skip plan-size +The plan file docs\/plan\.md is empty/,
      /docs\/plan\.md is gone, empty/,
    ],
  ];
  const withPlan = same('a plan at docs/plan.md', (d) => {
    writeFileSync(path.join(d, 'docs/plan.md'), '# Plan\n\n- [ ] step one\n');
    appendFileSync(path.join(d, '.claude/session-ledger.md'), '- Plan: `docs/plan.md`\n');
  });
  for (const [how, after, said, logged] of cases) {
    const dir = demoCheckpointed(withPlan);
    for (const [via, code, why] of await answers(dir)) assert.equal(code, 0, `${how}, untouched, ${via}: ${why}`);
    const file = path.join(dir, 'docs/plan.md');
    rmSync(file);
    after(file);
    assert.match(cli(['check', '--root', dir]).stdout, said, how);
    for (const [via, code, why] of await answers(dir)) assert.equal(code, 2, `${how}, ${via}: ${why}`);
    const last = readFileSync(path.join(dir, '.claude/log/session-ledger-hook.log'), 'utf8').trim().split('\n').pop();
    assert.match(last ?? '', logged, how);
  }
});

test('a PLAN pointer that leads out of the workspace to a pipe fails S2 readable, as one to a regular file there does', () => {
  const outside = workspace({});
  const fifo = path.join(outside, 'plan.md');
  execFileSync('mkfifo', [fifo]);
  // No checkpoint first: it refuses a plan that cannot be read before any marker is written.
  const dir = fixtureCopy('s2/good');
  const ledger = path.join(dir, '.claude/session-ledger.md');
  writeFileSync(ledger, readFileSync(ledger, 'utf8').replace('- Plan: docs/plan.md', `- Plan: \`${fifo}\``));
  assert.match(
    cli(['check', '--root', dir]).stdout,
    /FAIL readable +Cannot read the document: .*leads outside the workspace folder/,
  );
});

test("a memory store of S1's or S2's project state the checkpoint vouched for, replaced since by a folder or a pipe, stops /compact, and check fails its readable (it took the next place, or none)", async () => {
  const cases: Array<[string, 'a folder' | 'a pipe']> = [
    ['memory/MEMORY.md', 'a folder'],
    ['tasks/lessons.md', 'a pipe'],
    ['.claude/project-state.md', 'a folder'],
    ['memory/context-log.md', 'a pipe'],
  ];
  for (const [rel, how] of cases) {
    const dir = demoCheckpointed();
    const file = path.join(dir, rel);
    rmSync(file);
    if (how === 'a folder') mkdirSync(file);
    else execFileSync('mkfifo', [file]);
    assert.match(
      cli(['check', '--root', dir]).stdout,
      new RegExp(`FAIL readable .*\\(${rel.replace(/\./g, '\\.')}\\)`),
      `${rel}, ${how}`,
    );
    for (const [via, code, why] of await answers(dir)) assert.equal(code, 2, `${rel}, ${how}, ${via}: ${why}`);
  }
});

test("S2's plan named by a bare absolute path into the workspace (no backticks) is the plan: the checkpoint vouches for it, and its deletion stops /compact", async () => {
  const dir = demoCheckpointed((d) => {
    writeFileSync(path.join(d, 'docs/plan.md'), '# Plan\n\n- [ ] step one\n');
    appendFileSync(path.join(d, '.claude/session-ledger.md'), `- Plan: ${path.join(d, 'docs/plan.md')}\n`);
  });
  const marker = readFileSync(path.join(dir, markerRel(SID)), 'utf8');
  assert.match(marker, /^[0-9a-f]{64} {2}docs\/plan\.md$/m);
  for (const [via, code, said] of await answers(dir)) assert.equal(code, 0, `untouched, ${via}: ${said}`);
  rmSync(path.join(dir, 'docs/plan.md'));
  for (const [via, code, said] of await answers(dir)) {
    assert.equal(code, 2, `${via}: ${said}`);
    assert.match(said, /docs\/plan\.md is gone/, via);
  }
});

test("S2's PLAN pointer naming the plan by the workspace's real path while the workspace is opened through a link (macOS's /tmp is /private/tmp): the checkpoint vouches for docs/plan.md, and the plan deleted since stops /compact", async () => {
  for (const bare of [false, true]) {
    const real = workspace({});
    copyDemo(real);
    writeFileSync(path.join(real, 'docs/plan.md'), '# Plan\n\n- [ ] step one\n');
    const pointer = path.join(real, 'docs/plan.md');
    appendFileSync(path.join(real, '.claude/session-ledger.md'), `- Plan: ${bare ? pointer : `\`${pointer}\``}\n`);
    gitInit(real);
    const dir = path.join(workspace({}), 'opened-through-a-link');
    symlinkSync(real, dir);
    checkpointAndAge(dir, real);
    const how = bare ? 'bare' : 'in backticks';
    assert.match(readFileSync(path.join(real, markerRel(SID)), 'utf8'), /^[0-9a-f]{64} {2}docs\/plan\.md$/m, how);
    installHook(real);
    rmSync(path.join(real, 'docs/plan.md'));
    for (const [via, code, said] of await answers(dir)) assert.equal(code, 2, `${how}, ${via}: ${said}`);
  }
});

// The tests with a file over the 4 MB read limit come last: each grows this process by 80 MB or more (the
// strings read, checked and hashed in both threads stay in their heaps), and every git or Node process a
// later test starts is a fork of it, whose system time grows with its size (here about 0.05 ms per MB a
// spawn: 16 ms at 350 MB against 2 ms at 50 MB).
test('a MEMORY.md over the 4 MB read limit, untouched since the checkpoint: /compact goes through without every system checked again (it is vouched by what was read of it)', () => {
  const { dir } = checkpointedAt(path.join(REPO, 'examples/demo-workspace'), (d) =>
    appendFileSync(path.join(d, 'memory/MEMORY.md'), `${'- an old note about the pier gauge\n'.repeat(160_000)}`),
  );
  assert.ok(statSync(path.join(dir, 'memory/MEMORY.md')).size > 4 * 1024 * 1024);
  const r = cli(['hook', 'pre-compact', '--root', dir], { input: preCompact(dir) });
  assert.equal(r.code, 0, r.stderr);
  const log = readFileSync(path.join(dir, '.claude/log/session-ledger-hook.log'), 'utf8');
  assert.doesNotMatch(log, /MEMORY\.md/, log);
});

test('a vouched home over the read limit (a warning, read from its first bytes) blocks nothing by itself', async () => {
  const dir = workspace({});
  cpSync(path.join(REPO, 'test/fixtures/s3/good'), dir, { recursive: true });
  appendFileSync(path.join(dir, STATE), `\n<!-- ${'x'.repeat(4 * 1024 * 1024)} -->\n`);
  gitInit(dir);
  const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(d.allow, true, d.reason);
});

test('a vouched file only the rules read, with the same bytes but refused by its reader now (a second hard link; cut inside a character at the read limit): /compact is stopped, as check fails it', async () => {
  for (const how of ['project state hard-linked', 'MEMORY.md hard-linked', 'MEMORY.md cut at 4 MB']) {
    const outside = workspace({});
    const big = 'x'.repeat(4 * 1024 * 1024 - 1);
    const dir = demoCheckpointed(
      how === 'MEMORY.md cut at 4 MB'
        ? (d) =>
            appendFileSync(
              path.join(d, 'memory/MEMORY.md'),
              `\n${big.slice(readFileSync(path.join(d, 'memory/MEMORY.md')).length + 1)}\u00e9 and more\n`,
            )
        : undefined,
    );
    if (how === 'MEMORY.md cut at 4 MB') {
      const p = path.join(dir, 'memory/MEMORY.md');
      const bytes = readFileSync(p);
      assert.equal(bytes[4 * 1024 * 1024 - 1], 0xc3, 'a two-byte character starts at the last byte read');
      writeFileSync(p, bytes.subarray(0, 4 * 1024 * 1024));
    } else {
      const rel = how === 'project state hard-linked' ? '.claude/project-state.md' : 'memory/MEMORY.md';
      linkSync(path.join(dir, rel), path.join(outside, 'copy.md'));
    }
    const file = how === 'project state hard-linked' ? '.claude/project-state.md' : 'memory/MEMORY.md';
    assert.match(cli(['check', '--root', dir]).stdout, /FAIL readable/, how);
    for (const [via, code, said] of await answers(dir)) {
      assert.equal(code, 2, `${how}, ${via}: ${said}`);
      assert.match(
        said,
        new RegExp(`${file.replace(/\./g, '\\.')} changed, and the state now fails a blocking check`),
        `${how}, ${via}`,
      );
    }
  }
});
