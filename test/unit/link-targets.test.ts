/**
 * Where a link a repository commits may lead a write: a write by design (a settings file,
 * `.gitignore`, a Log archive, a starter) follows a link only inside the workspace, and never to
 * git's own files or to a file the tool writes only under its own name; two names of one file take
 * one write lock; the hooks and the status line never write in the home folder or `/`, reached
 * through a link either; pruning never removes through a link. Each case starts from the hostile
 * repository and says what stayed as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { WriteRefused } from '../../src/core/files/atomic';
import { protectedWriteTarget } from '../../src/core/files/protected';
import { lockFor, withWriteLock } from '../../src/core/files/lock';
import { keepNewest, isRecordName } from '../../src/core/files/prune';
import { gitTracksEach } from '../../src/core/git/tracked';
import { sha256 } from '../../src/core/files/fsread';
import { applyRotateLog, planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { applyHooksPlan, INSTALL_RECORD_REL, planHooksInstall } from '../../src/core/hooks/install';
import { HOOK_LOG_REL } from '../../src/core/hooks/io';
import { SESSION_RECORD_REL, SESSION_RECORDS_DIR_REL } from '../../src/core/hooks/session-record';
import { REMIND_DIR_REL } from '../../src/core/hooks/remind';
import { markerRel } from '../../src/core/checkpoint/marker';
import { feedPath } from '../../src/core/context/feed';
import { companionPath } from '../../src/core/systems/facts';
import { S1_SIDECAR } from '../../src/core/systems/s1/reader';
import { previewRel } from '../../src/core/systems/s4/compact-state';
import { cli, cliProcess, gitInit, HOOK_SCRIPT, REPO, STATUSLINE_SCRIPT, whileOpening, workspace } from './helpers';

const REPO_FIXTURES = path.join(REPO, 'test', 'fixtures');
import { spawnSync } from 'node:child_process';

const HANDOFF = `# STATE: live project state

## Handoff: read this first

- **Status:** building
- **Now ▶** wire the Stop hook
- **Blocked on:** nothing

## Log
`;
const entry = (date: string, title: string, n: number) =>
  `\n### ${date} - ${title}\n\n${Array.from({ length: n }, (_, i) => `- ${title}: step ${i + 1}`).join('\n')}\n`;
/** A STATE.md past its 150 lines whose oldest entry, a git config section, goes to docs/state/log/2026-06.md. */
const STATE =
  HANDOFF +
  entry('2026-08-03', 'stop hook', 60) +
  entry('2026-07-20', 'agent file cap', 60) +
  entry('2026-07-02', 'budgets', 40) +
  '\n### 2026-06-30 - old notes\n[core]\n\tfsmonitor = "touch pwned; false"\n';

test("every path a writer of the tool's own files uses is one no write by design lands on through a link; the state files are not", () => {
  const own = [
    HOOK_LOG_REL,
    `${HOOK_LOG_REL}.1`,
    SESSION_RECORD_REL,
    `${SESSION_RECORDS_DIR_REL}/s.json`,
    `${REMIND_DIR_REL}/s.json`,
    INSTALL_RECORD_REL,
    markerRel('s'),
    markerRel(null),
    path.relative('/r', feedPath('/r', 's')),
    '.claude/hooks/session-ledger.cjs',
    '.claude/hooks/session-ledger-statusline.cjs',
    '.codex/hooks/session-ledger.cjs',
    '.claude/.settings.json.session-ledger.lock',
    companionPath('S1', 'sidecar'),
    `.claude/memory/${S1_SIDECAR}`,
    '.agents.yml',
    previewRel(Date.UTC(2026, 11, 4)),
    '.git/config',
    'sub/.Git/hooks/post-checkout',
  ];
  for (const rel of own) assert.ok(protectedWriteTarget(rel), rel);
  for (const rel of [
    'docs/state/STATE.md',
    'docs/state/log/2026-06.md',
    '.claude/settings.json',
    '.gitignore',
    'x.git',
  ])
    assert.equal(protectedWriteTarget(rel), null, rel);
});

test('rotate-log never appends to .git/config through a committed Log archive link: the preview and the apply refuse, nothing changes', async () => {
  const dir = workspace({ 'docs/state/STATE.md': STATE });
  gitInit(dir);
  const config = readFileSync(path.join(dir, '.git/config'), 'utf8');
  mkdirSync(path.join(dir, 'docs/state/log'), { recursive: true });
  symlinkSync('../../../.git/config', path.join(dir, 'docs/state/log/2026-06.md'));
  await assert.rejects(planRotateLog(dir), (e: unknown) => e instanceof WriteRefused && e.detail === 'protected');
  const hash = sha256(readFileSync(path.join(dir, 'docs/state/STATE.md')));
  await assert.rejects(applyRotateLog(dir, hash), (e: unknown) => e instanceof WriteRefused && e.reason === 'link');
  const r = cli(['rotate-log', '--root', dir]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /docs\/state\/log\/2026-06\.md is a link to \.git\/config \(git's own files\)/);
  assert.equal(readFileSync(path.join(dir, '.git/config'), 'utf8'), config, '.git/config is unchanged');
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), STATE, 'STATE.md is unchanged');
});

test('rotate-log never takes entries out of STATE.md into STATE.md itself (a Log archive linked to it): the preview and the apply refuse, every entry stays', async () => {
  const dir = workspace({ 'docs/state/STATE.md': STATE });
  gitInit(dir);
  mkdirSync(path.join(dir, 'docs/state/log'), { recursive: true });
  symlinkSync('../STATE.md', path.join(dir, 'docs/state/log/2026-06.md'));
  await assert.rejects(planRotateLog(dir), (e: unknown) => e instanceof WriteRefused && e.detail === 'same-file');
  const hash = sha256(readFileSync(path.join(dir, 'docs/state/STATE.md')));
  await assert.rejects(
    applyRotateLog(dir, hash),
    (e: unknown) => e instanceof WriteRefused && e.detail === 'same-file',
  );
  for (const args of [[], ['--apply', '--expect-hash', hash]]) {
    const r = cli(['rotate-log', '--root', dir, ...args]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /docs\/state\/log\/2026-06\.md is a link to docs\/state\/STATE\.md, the file its entries would be taken from/,
    );
  }
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), STATE, 'STATE.md is unchanged');
});

test('rotate-log never appends the Log to a file a committed archive link leads to (a source file): the preview and the apply refuse, nothing changes', async () => {
  const app = 'export const x = 1;\n';
  const dir = workspace({ 'docs/state/STATE.md': STATE, 'src/app.js': app });
  gitInit(dir);
  mkdirSync(path.join(dir, 'docs/state/log'), { recursive: true });
  symlinkSync('../../../src/app.js', path.join(dir, 'docs/state/log/2026-06.md'));
  const hash = sha256(readFileSync(path.join(dir, 'docs/state/STATE.md')));
  for (const args of [[], ['--apply', '--expect-hash', hash]]) {
    const r = cli(['rotate-log', '--root', dir, ...args]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /docs\/state\/log\/2026-06\.md is a symbolic link; rotate-log appends only to an archive that is a file of its own; nothing was planned/,
    );
  }
  assert.equal(readFileSync(path.join(dir, 'src/app.js'), 'utf8'), app, 'src/app.js is unchanged');
  assert.equal(readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'), STATE, 'STATE.md is unchanged');
});

test('a link into .git at a path a write action creates (a folder such as .git/index.lock would stop git): checkpoint, init, attest and enable-ledger refuse and create nothing in .git', async () => {
  const cases: Array<[string, string, string, string[]]> = [
    ['checkpoint', '.claude', '.git/index.lock', ['checkpoint', '--shared', '--nothing-to-preserve']],
    ['init s4', '.agents', '.git/index.lock', ['init', 's4']],
    ['attest', 'memory/.session-handoff.sha256', '../.git/index.lock/x', ['attest']],
    ['enable-ledger', '.agents.yml', '.git/index.lock/x', ['enable-ledger']],
  ];
  for (const [what, at, target, args] of cases) {
    const src = what === 'attest' ? 's1' : 's0';
    const dir = workspace({});
    spawnSync('cp', ['-r', `${path.join(REPO_FIXTURES, src, 'good')}/.`, dir]);
    if (at !== '.agents') rmSync(path.join(dir, at), { recursive: true, force: true });
    if (what === 'init s4') rmSync(path.join(dir, '.agents'), { recursive: true, force: true });
    symlinkSync(target, path.join(dir, at));
    gitInit(dir);
    const r = cli([...args, '--root', dir]);
    assert.notEqual(r.code, 0, `${what}: ${r.stdout}`);
    assert.equal(existsSync(path.join(dir, '.git/index.lock')), false, `${what}: ${r.stdout}${r.stderr}`);
    // git works on: it can take its index lock.
    const add = spawnSync('git', ['add', '-A'], { cwd: dir, encoding: 'utf8' });
    assert.equal(add.status, 0, `${what}: ${add.stderr}`);
  }
});

test('init writes through a folder link to a folder that is there, making the folders behind it; a link that leads nowhere is refused and nothing is made', () => {
  const dir = workspace({ 'documentation/README.md': 'docs\n' });
  symlinkSync('documentation', path.join(dir, 'docs'));
  const r = cli(['init', 's3', '--root', dir]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(path.join(dir, 'documentation/state/STATE.md')), 'written behind the link');
  const nowhere = workspace({});
  symlinkSync('gone/docs', path.join(nowhere, 'docs'));
  const refused = cli(['init', 's3', '--root', nowhere]);
  assert.equal(refused.code, 1, refused.stdout);
  assert.match(refused.stderr, /leads through docs, a link that leads nowhere; nothing was written/);
  assert.equal(existsSync(path.join(nowhere, 'gone')), false, 'no folder made where the link points');
});

test('hooks install refuses a committed .gitignore that links to .git/config, to the S1 sidecar or out of the workspace, before it writes anything; so does its dry run', async () => {
  const outside = path.join(workspace({ '.gitignore': 'outside\n' }), '.gitignore');
  for (const [what, target] of [
    ['.git/config', '.git/config'],
    ['the S1 sidecar', 'memory/.session-handoff.sha256'],
    ['a file outside', outside],
  ] as const) {
    const dir = workspace({ 'memory/.session-handoff.sha256': 'a'.repeat(64), 'docs/state/STATE.md': HANDOFF });
    gitInit(dir);
    const before = readFileSync(path.isAbsolute(target) ? target : path.join(dir, target), 'utf8');
    symlinkSync(target, path.join(dir, '.gitignore'));
    const dry = cli(['hooks', 'install', '--root', dir, '--dry-run']);
    assert.notEqual(dry.code, 0, `${what}: the dry run refuses (${dry.stdout})`);
    const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
    assert.ok(plan.error, `${what}: the plan refuses`);
    await assert.rejects(applyHooksPlan(plan));
    const r = cli(['hooks', 'install', '--root', dir]);
    assert.notEqual(r.code, 0, what);
    assert.equal(readFileSync(path.isAbsolute(target) ? target : path.join(dir, target), 'utf8'), before, what);
    assert.ok(!existsSync(path.join(dir, '.claude')), `${what}: no script, settings or record was written`);
  }
});

test('hooks install refuses .claude/settings.json linked to .agents.yml: the switch keeps its bytes', async () => {
  // JSON is YAML too: the switch reads as a settings file.
  const yml = '{"session": {"ledger": true}}\n';
  const dir = workspace({ '.agents.yml': yml });
  gitInit(dir);
  mkdirSync(path.join(dir, '.claude'));
  symlinkSync('../.agents.yml', path.join(dir, '.claude/settings.json'));
  const r = cli(['hooks', 'install', '--root', dir]);
  assert.notEqual(r.code, 0, r.stdout);
  assert.match(r.stdout + r.stderr, /\.agents\.yml/);
  assert.equal(readFileSync(path.join(dir, '.agents.yml'), 'utf8'), yml);
  assert.ok(!existsSync(path.join(dir, '.claude/hooks')));
});

test('init never writes a starter through a link, even one to nothing: a dangling .agents.yml -> the S1 sidecar is left as it is, and no sidecar is created', () => {
  const dir = workspace({ 'memory/session-handoff-LATEST.md': '# Session handoff\n' });
  symlinkSync('memory/.session-handoff.sha256', path.join(dir, '.agents.yml'));
  const r = cli(['init', 'S0', '--root', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\.agents\.yml exists and was left as it is/);
  assert.ok(!existsSync(path.join(dir, 'memory/.session-handoff.sha256')), 'no sidecar was created');
  assert.ok(existsSync(path.join(dir, '.agents/session_ledger.md')), 'the ledger itself was written');
});

test('two names of one file take one write lock: settings.local.json -> settings.json waits for a run that holds settings.json', async () => {
  const dir = workspace({ '.claude/settings.json': '{}\n' });
  symlinkSync('settings.json', path.join(dir, '.claude/settings.local.json'));
  assert.equal(
    lockFor(path.join(dir, '.claude/settings.local.json'), dir),
    lockFor(path.join(dir, '.claude/settings.json'), dir),
  );
  await withWriteLock(path.join(dir, '.claude/settings.json'), dir, async () => {
    await assert.rejects(
      withWriteLock(path.join(dir, '.claude/settings.local.json'), dir, async () => undefined, { waitMs: 200 }),
      (e: unknown) => e instanceof WriteRefused && e.reason === 'busy',
    );
  });
});

test('the hooks and the status line write nothing in the home folder or in / reached through a link', () => {
  const home = workspace({ '.claude/settings.json': '{"mine":1}\n' });
  const linkToHome = path.join(workspace({}), 'home-link');
  symlinkSync(home, linkToHome);
  const env = { HOME: home, CLAUDE_PROJECT_DIR: linkToHome };
  const start = { session_id: 'abc-1', hook_event_name: 'SessionStart', source: 'startup' };
  cliProcess(['hook', 'session-start'], { input: JSON.stringify(start), env, cwd: linkToHome });
  cliProcess(['hook', 'pre-compact'], {
    input: JSON.stringify({ session_id: 'abc-1', hook_event_name: 'PreCompact', trigger: 'manual' }),
    env,
    cwd: linkToHome,
  });
  // The status line in the home folder, $HOME itself a path through a link.
  spawnSync(process.execPath, [STATUSLINE_SCRIPT, 'statusline'], {
    input: JSON.stringify({ session_id: 's1', cwd: home, workspace: { current_dir: home, project_dir: home } }),
    cwd: home,
    env: { ...process.env, HOME: linkToHome },
  });
  assert.deepEqual(readdirSync(path.join(home, '.claude')), ['settings.json'], 'nothing written under ~/.claude');
  const linkToRoot = path.join(workspace({}), 'root-link');
  symlinkSync('/', linkToRoot);
  const r = cliProcess(['hook', 'session-start'], {
    input: JSON.stringify(start),
    env: { CLAUDE_PROJECT_DIR: linkToRoot },
    cwd: linkToRoot,
  });
  assert.ok(!existsSync('/.claude/session-ledger'), `nothing written in / (${r.stderr})`);
});

test('pruning removes nothing through a folder link: 40 files behind a sessions/ link all stay', async () => {
  const root = workspace({});
  const outside = workspace({});
  for (let i = 0; i < 40; i++) {
    const f = path.join(outside, `report-${String(i).padStart(2, '0')}.json`);
    writeFileSync(f, '{}\n');
    utimesSync(f, 1_700_000_000 + i, 1_700_000_000 + i);
  }
  mkdirSync(path.join(root, '.claude/session-ledger'), { recursive: true });
  symlinkSync(outside, path.join(root, SESSION_RECORDS_DIR_REL));
  await keepNewest(path.join(root, SESSION_RECORDS_DIR_REL), root, isRecordName, gitTracksEach);
  assert.equal(readdirSync(outside).length, 40);
});

/**
 * Run `fn` while the first open of a path ending in `name` first swaps `folder` for a link to
 * `outside`: the moment between the tool's link check and its open, which an attacker's swap would
 * have to hit, made certain.
 */
async function swappedAtOpen(name: string, folder: string, outside: string, fn: () => Promise<unknown>): Promise<void> {
  let swapped = false;
  await whileOpening(
    (p) => {
      if (!swapped && p.includes(name)) {
        swapped = true;
        renameSync(folder, `${folder}.orig`);
        symlinkSync(outside, folder);
      }
    },
    () => fn().catch(() => undefined),
  );
  assert.ok(swapped, 'the open was reached');
}

test('a folder swapped for a link between the check and the open gets no hook log line and no record content', async () => {
  const { appendHookLog } = await import('../../src/core/hooks/io');
  const { writeAtomic } = await import('../../src/core/files/atomic');
  const dir = workspace({ '.claude/log/session-ledger-hook.log': '' });
  const outside = workspace({ 'session-ledger-hook.log': 'victim\n' });
  await swappedAtOpen('session-ledger-hook.log', path.join(dir, '.claude/log'), outside, () =>
    appendHookLog(dir, 'pre-compact', 'BLOCK'),
  );
  assert.equal(readFileSync(path.join(outside, 'session-ledger-hook.log'), 'utf8'), 'victim\n');

  const root = workspace({ '.claude/session-ledger/session.json': '{}\n' });
  const elsewhere = workspace({});
  await swappedAtOpen('.session.json.', path.join(root, '.claude/session-ledger'), elsewhere, () =>
    writeAtomic(path.join(root, SESSION_RECORD_REL), '{"session_id":"s"}\n', { root, own: true, durable: false }),
  );
  for (const n of readdirSync(elsewhere))
    assert.equal(readFileSync(path.join(elsewhere, n), 'utf8'), '', `${n}: no content written outside`);
});
