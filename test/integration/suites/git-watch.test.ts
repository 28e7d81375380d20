import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionLedgerApi } from '../../../src/extension/api';
import { GIT_MAX_WAIT_MS, WORK_MAX_WAIT_MS, WORK_QUIET_MS } from '../../../src/extension/pure/git-events';
import { getApi, sleep, waitFor, workspaceRoot } from '../helpers';

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const IDENTITY = ['-c', 'user.name=Ada Librarian', '-c', 'user.email=ada@shelf.invalid', '-c', 'commit.gpgsign=false'];

/** Real git in the workspace, as an agent runs it: no global or system config of the machine. */
function git(...args: string[]): string {
  return execFileSync('git', [...IDENTITY, ...args], {
    cwd: workspaceRoot(),
    encoding: 'utf8',
    env: GIT_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A shell script in the workspace, in a process of its own: the extension host goes on while it runs (as an agent's git does). */
function shell(script: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('sh', ['-c', script], { cwd: workspaceRoot(), env: GIT_ENV }, (err, _out, stderr) =>
      err ? reject(new Error(`${err.message}: ${stderr}`)) : resolve(),
    ),
  );
}

/**
 * Until the folder's report has stayed the same object for `ms`: no read of an earlier step is still
 * due, so whatever reads the folder next was caused by what the test does after this. Once a change
 * was read, it also shows that nothing keeps reading the folder (no read of the extension's own
 * starts another).
 */
async function quiet(api: SessionLedgerApi, ms = 3000): Promise<void> {
  let last = api.report();
  let since = Date.now();
  await waitFor(`${ms} ms without a new report`, () => {
    const now = api.report();
    if (now !== last) [last, since] = [now, Date.now()];
    return Date.now() - since >= ms;
  });
}

const checksOf = (api: SessionLedgerApi, id: string) =>
  (api.report()?.systems ?? []).flatMap((s) => s.checks.filter((c) => c.id === id));
const said = (api: SessionLedgerApi, id: string) =>
  checksOf(api, id)
    .map((c) => `${c.system} ${c.status}: ${c.message}`)
    .join(' | ');
/** Every system's fresh and S3's Branch / HEAD pass (the fixture as made: state files written after the last code commit). */
const allPass = (api: SessionLedgerApi) => {
  const checks = [...checksOf(api, 'fresh'), ...checksOf(api, 'branch-head')];
  return checks.length === 6 && checks.every((c) => c.status === 'pass');
};

/** Put the fixture's commit back, `rel` as it was (clean against HEAD again). */
function resetTo(commit: string, rel: string, text: string): void {
  writeFileSync(join(workspaceRoot(), rel), text);
  git('reset', '-q', '--soft', commit);
  git('reset', '-q', '--', rel);
}

describe('watching git', () => {
  const SOURCE = 'src/overdue.ts';

  it('a commit made with git shows without a Refresh: every fresh and S3 Branch / HEAD find the state files behind it, in the model and the Problems panel; a reset back clears them', async function () {
    this.timeout(120_000);
    const api = await getApi();
    const file = join(workspaceRoot(), SOURCE);
    const text = readFileSync(file, 'utf8');
    const before = git('rev-parse', 'HEAD');
    await waitFor(`every fresh and Branch / HEAD pass before the commit (${said(api, 'fresh')})`, () => allPass(api));
    await quiet(api);
    const reads = api.scans();
    appendFileSync(file, '// one more line\n');
    git('commit', '-q', '-m', 'overdue: one more line', '--', SOURCE);
    const head = git('rev-parse', '--short=7', 'HEAD');
    try {
      // No Refresh: the watchers alone must bring the commit into the model.
      await waitFor(
        'Branch / HEAD out of date in the model',
        () =>
          checksOf(api, 'branch-head').some(
            (c) => c.status === 'warn' && c.message.includes(`HEAD is ${head}, the handoff says`),
          ),
        15_000,
      ).catch((e) => {
        throw new Error(`${(e as Error).message}; S3 branch-head says: ${said(api, 'branch-head')}`);
      });
      await waitFor(
        'every system fresh: older than the last commit',
        () => {
          const fresh = checksOf(api, 'fresh');
          return (
            fresh.length === 5 &&
            fresh.every((c) => c.status === 'warn' && /older than the last commit/.test(c.message))
          );
        },
        15_000,
      ).catch((e) => {
        throw new Error(`${(e as Error).message}; fresh says: ${said(api, 'fresh')}`);
      });
      const problems = await waitFor('the findings in the Problems panel', () => {
        const d = api.diagnostics();
        const fresh = d.filter((x) => x.code === 'fresh' && /older than the last commit/.test(x.message));
        const bh = d.filter((x) => x.code === 'branch-head' && x.message.includes(`HEAD is ${head}`));
        return fresh.length === 5 && bh.length === 1 ? { fresh, bh } : undefined;
      });
      assert.ok(problems.bh[0].path.endsWith('docs/state/STATE.md'), problems.bh[0].path);
      // The file's save and the commit (its index, its ref) are one read; nothing reads the folder after it.
      await quiet(api);
      console.log(`    one edit and its commit: ${api.scans() - reads} read(s) of the folder`);
      assert.ok(api.scans() - reads <= 2, `${api.scans() - reads} reads for one edit and its commit`);
    } finally {
      resetTo(before, SOURCE, text);
    }
    await waitFor(
      'every fresh and Branch / HEAD pass again after the reset, without a Refresh',
      () => allPass(api),
      15_000,
    ).catch((e) => {
      throw new Error(
        `${(e as Error).message}; fresh: ${said(api, 'fresh')}; branch-head: ${said(api, 'branch-head')}`,
      );
    });
  });

  it('forty commits in a row, 0.1 s apart (as a rebase writes them), are read a few times, not forty: the folder is read once the burst is quiet, and at the latest every 1.5 s while it goes on', async function () {
    this.timeout(120_000);
    const api = await getApi();
    const rel = 'README.md';
    const file = join(workspaceRoot(), rel);
    const text = readFileSync(file, 'utf8');
    const before = git('rev-parse', 'HEAD');
    await waitFor('every fresh and Branch / HEAD pass before the burst', () => allPass(api));
    await quiet(api);
    const reads = api.scans();
    const t0 = Date.now();
    try {
      await shell(
        `i=0; while [ $i -lt 40 ]; do i=$((i+1)); echo $i >> ${rel}; git ${IDENTITY.map((a) => `'${a}'`).join(' ')} commit -q -m "burst $i" -- ${rel} || exit 1; sleep 0.1; done`,
      );
      const ms = Date.now() - t0;
      const head = git('rev-parse', '--short=7', 'HEAD');
      await waitFor(
        'the last commit in the model',
        () => checksOf(api, 'branch-head').some((c) => c.message.includes(`HEAD is ${head}, the handoff says`)),
        15_000,
      ).catch((e) => {
        throw new Error(`${(e as Error).message}; S3 branch-head says: ${said(api, 'branch-head')}`);
      });
      await quiet(api);
      // One read per GIT_MAX_WAIT_MS of the burst, one once it is quiet, and one for the saves of the
      // file that came after the last of those reads began; while the burst goes on, the views follow it.
      const bound = Math.ceil(ms / GIT_MAX_WAIT_MS) + 2;
      const n = api.scans() - reads;
      console.log(`    40 commits in ${ms} ms: ${n} read(s) of the folder`);
      assert.ok(n <= bound, `${n} reads for 40 commits in ${ms} ms (at most ${bound})`);
      assert.ok(n >= (ms > 2 * GIT_MAX_WAIT_MS ? 2 : 1), `${n} read(s) during and after a burst of ${ms} ms`);
    } finally {
      resetTo(before, rel, text);
    }
    await waitFor('back to the fixture', () => allPass(api), 15_000);
  });

  it('a source file saved on disk again and again (no commit) is read once the saves stop, without a Refresh: S3 work-explained counts it and fresh finds the state files older than the uncommitted change', async function () {
    this.timeout(120_000);
    const api = await getApi();
    const file = join(workspaceRoot(), SOURCE);
    const text = readFileSync(file, 'utf8');
    const s3 = () => api.report()?.systems.find((s) => s.id === 'S3');
    const explained = () => s3()?.checks.find((c) => c.id === 'work-explained')?.message ?? '';
    const changes = () =>
      Number(/(\d+) uncommitted change/.exec(explained())?.[1] ?? (/No uncommitted/.test(explained()) ? 0 : NaN));
    const { before } = await waitFor('S3 work-explained counted', () =>
      Number.isNaN(changes()) ? undefined : { before: changes() },
    );
    await quiet(api);
    const reads = api.scans();
    try {
      // An editor's auto save while typing: twenty saves, 100 ms apart.
      for (let i = 0; i < 20; i++) {
        writeFileSync(file, `${text}// half done ${i}\n`);
        await sleep(100);
      }
      await waitFor('S3 work-explained counts the edited file', () => changes() === before + 1, 15_000).catch((e) => {
        throw new Error(`${(e as Error).message}; S3 work-explained says: ${explained()} (before: ${before})`);
      });
      await waitFor(
        'S3 fresh: older than uncommitted changes',
        () => /older than uncommitted changes/.test(s3()?.checks.find((c) => c.id === 'fresh')?.message ?? ''),
        15_000,
      );
      await quiet(api);
      console.log(`    20 saves in 2 s: ${api.scans() - reads} read(s) of the folder`);
      assert.ok(api.scans() - reads <= 2, `${api.scans() - reads} reads for 20 saves in 2 s`);
    } finally {
      writeFileSync(file, text);
    }
    await waitFor('the edit undone: no longer counted, without a Refresh', () => changes() === before, 15_000);
    await waitFor('S3 fresh passes again', () => s3()?.checks.find((c) => c.id === 'fresh')?.status === 'pass');
  });

  it("files git ignores (a build's output, a log) written again and again are not read for: git status says what it said; a file it does not ignore still is", async function () {
    this.timeout(120_000);
    const api = await getApi();
    const root = workspaceRoot();
    const ignore = join(root, '.gitignore');
    const hadIgnore = existsSync(ignore);
    const before = hadIgnore ? readFileSync(ignore, 'utf8') : null;
    try {
      // The new ignore file is read for (a work file, and what git ignores changed): at the earliest
      // WORK_MAX_WAIT_MS after the previous test's read.
      const first = api.scans();
      appendFileSync(ignore, '\nbuild/\n*.log\n');
      mkdirSync(join(root, 'build', 'js'), { recursive: true });
      await waitFor('the new .gitignore is read for', () => api.scans() > first, 15_000);
      await quiet(api);
      const reads = api.scans();
      // A watch task and a logger: forty writes over four seconds, in a folder and a file git ignores.
      for (let i = 0; i < 40; i++) {
        writeFileSync(join(root, 'build', 'js', `chunk-${i % 5}.js`), `// ${i}\n`);
        appendFileSync(join(root, 'server.log'), `request ${i}\n`);
        await sleep(100);
      }
      // Longer than a burst of work events may wait to be read (its quiet time after the longest wait).
      await quiet(api, WORK_MAX_WAIT_MS + WORK_QUIET_MS + 1000);
      console.log(`    40 writes to ignored files: ${api.scans() - reads} read(s) of the folder`);
      assert.equal(api.scans() - reads, 0, 'the folder was read for files git ignores');
      // A file git does not ignore, beside them: read as before.
      writeFileSync(join(root, 'notes.txt'), 'not ignored\n');
      await waitFor('a file git does not ignore is read for', () => api.scans() > reads, 15_000);
    } finally {
      rmSync(join(root, 'build'), { recursive: true, force: true });
      rmSync(join(root, 'server.log'), { force: true });
      rmSync(join(root, 'notes.txt'), { force: true });
      if (before === null) rmSync(ignore, { force: true });
      else writeFileSync(ignore, before);
    }
    await quiet(api);
  });
});
