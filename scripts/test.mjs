// `npm test`: the type check (tsc), the linter (ESLint), and the build
// (scripts/build.mjs --tests) followed by the unit tests (node:test over out/), run side by side because they
// are independent; exits non-zero when any of them fails. Prettier's check of the layout (`npm run format:check`,
// about 11 s of CPU over the sources) runs in CI (.ci/run). It is CPU-bound: a fresh clone's first run took 169 s
// of CPU and 88 s of wall on a 2-CPU machine at load 1.3, over the minute the project promises; once the type
// check's and ESLint's caches exist (node_modules/.cache) about 144 s and 75-80 s (docs/benchmark.md, rounds 37-38).
// The test files run four processes at a time, in the order below (node --test would sort
// them by name); its report is printed as it ends, and the totals over all files follow. The type
// check's and the linter's output follows, each with its verdict.
// Arguments after `--` replace the list of test files: `npm test -- out/test/unit/s0.test.js`.
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(repo, 'node_modules', '.bin', name);
const unitDir = path.join(repo, 'out', 'test', 'unit');
// The files that take longest run first, each in its own process, so none of them is left running alone
// at the end. Measured one file at a time (wall and CPU): write-lock.test.js mostly waits (10 s of a
// second run waiting for the first's lock), so it starts at once and overlaps the rest; then the ones
// with the most CPU.
const LONGEST = [
  'write-lock.test.js',
  // The guard's cases through the CLI, the hook script and the extension's report: about 14 s of CPU.
  'guard-changed-since.test.js',
  'fuzz.test.js',
  'true-words.test.js',
  's3-debt-checks.test.js',
  'settle.test.js',
  'linear-yaml.test.js',
  'checkpoint-gosignal.test.js',
  'hooks-install.test.js',
  'hooks-codex.test.js',
  'hot-paths.test.js',
  // The guard's attack cases on copies of the demo, with the CLI and git it starts (2.3 s of CPU with them).
  'attack-guard.test.js',
  // The hook processes it starts, 300 rounds at the log's limit (2.8 s of CPU with them).
  'hook-log-rotation.test.js',
];
// Files whose tests need a process of their own: compactions asserts what a fresh process has not loaded
// yet; git-index-link reads 256 MB (a repository's index limit) in its process, and until a collection
// frees them every process a later file of its batch started had those pages to copy (Linux's fork: 8.6
// ms of system time a spawn at 360 MB, 0.4 ms at 50 MB; git-reach after it starts git 540 times);
// linear-readers weighs a heap with 60 full collections, each of which walks the whole heap of its
// process (its file 2.1 s of CPU on its own, about 3.5 s inside a batch of 25).
const ALONE = ['compactions.test.js', 'git-index-link.test.js', 'linear-readers.test.js'];
// The other files run BATCH at a time in one process, one after the other: each process would otherwise
// load and compile the core again (about 90 ms of CPU per file here), and a warm process runs the next
// file's checks faster. Measured on a quiet machine with 2 CPUs (112 such files): batches of 10 cost
// 123 s of CPU for the whole npm test, batches of 25 cost 110 s.
const BATCH = 25;
const unit = (f) => path.join('out', 'test', 'unit', f);
/** Work items: a file, or a batch of files run in one process (read once the build has written out/). */
const workItems = () =>
  process.argv.slice(2).length
    ? process.argv.slice(2).map((f) => [f])
    : (() => {
        const all = readdirSync(unitDir)
          .filter((f) => f.endsWith('.test.js'))
          .sort();
        const rest = all.filter((f) => !LONGEST.includes(f) && !ALONE.includes(f));
        const out = [...LONGEST.filter((f) => all.includes(f)), ...ALONE.filter((f) => all.includes(f))].map((f) => [
          unit(f),
        ]);
        for (let i = 0; i < rest.length; i += BATCH) out.push(rest.slice(i, i + BATCH).map(unit));
        return out;
      })();

// The tests run offline (no TLS anywhere), so they go without the machine's extra CA bundle: Node reads
// and parses NODE_EXTRA_CA_CERTS at every start-up (about 45 ms of CPU here), and a run starts about
// 180 Node processes.
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
// In the C locale, whatever the machine's: the CLI prints `check`, `status` and `checkpoint` in the
// language the first non-empty of LC_ALL, LC_MESSAGES and LANG names, and the tests that assert its
// English words would otherwise fail under LANG=ja_JP.UTF-8 (test/unit/cli-language.test.ts sets the
// locale itself where the language is under test).
delete env.LC_ALL;
delete env.LC_MESSAGES;
env.LANG = 'C';

/**
 * A folder of this run's own in RAM (Linux's /dev/shm, a tmpfs) for the tests' workspaces, or null:
 * the tests copy fixtures and make git repositories by the thousand, and a disk's journal took half
 * their system time (2 CPUs: 31 s of system time on /tmp's ext4, 15 s on /dev/shm; every test passes
 * on both). Only when TMPDIR is not set, the tmpfs may run programs (the tests run scripts and a
 * stand-in `git` from their workspaces) and has 2 GB free; removed when the run ends.
 */
function ramTmp() {
  if (process.platform !== 'linux' || process.env.TMPDIR) return null;
  try {
    const shm = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '))
      .find((f) => f[1] === '/dev/shm');
    if (!shm || shm[2] !== 'tmpfs' || shm[3].split(',').includes('noexec')) return null;
    const st = statfsSync('/dev/shm');
    if (st.bavail * st.bsize < 2 * 1024 ** 3) return null;
    const dir = mkdtempSync('/dev/shm/session-ledger-test-');
    // As /tmp is (sticky, open to all): some tests read their files as another user.
    chmodSync(dir, 0o1777);
    return dir;
  } catch {
    return null;
  }
}
const tmp = ramTmp();
if (tmp) {
  env.TMPDIR = tmp;
  const remove = () => rmSync(tmp, { recursive: true, force: true });
  process.on('exit', remove);
  // Interrupted (the tests get the signal too): the folder goes all the same, it holds RAM until a reboot.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(sig, () => {
      remove();
      process.exit(128 + os.constants.signals[sig]);
    });
}

// The agents' own folders are empty ones of this run's, whatever the machine holds: a developer's
// ~/.claude (their status line, their sessions) or ~/.codex must not change what a test sees. A test that
// needs a client's home makes its own and names it.
const agentHomes = mkdtempSync(path.join(tmp ?? os.tmpdir(), 'session-ledger-homes-'));
process.on('exit', () => rmSync(agentHomes, { recursive: true, force: true }));
env.CLAUDE_CONFIG_DIR = path.join(agentHomes, 'claude');
env.CODEX_HOME = path.join(agentHomes, 'codex');

/** Run a command to its end: { name, code, out (stdout and stderr), s }. */
function run(name, cmd, args, { background = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // The checks run at a lower priority: the unit tests are the longest path, and the checks take the CPU
    // they leave (2 CPUs: npm test 64 s with all at one priority, 53-55 s so).
    if (background && child.pid) {
      try {
        os.setPriority(child.pid, 10);
      } catch {
        /* the checks run at the normal priority */
      }
    }
    let out = '';
    for (const s of [child.stdout, child.stderr]) s.on('data', (d) => (out += d));
    child.on('error', (e) => resolve({ name, code: 1, out: String(e), s: 0 }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, out, s: (Date.now() - started) / 1000 }));
  });
}

const SUMMARY = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/;

/** The work items (a file or a batch), `concurrency` at a time in the given order; each one's report printed when it ends, then the totals. */
async function unitTests(list, concurrency) {
  const started = Date.now();
  const totals = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const broken = [];
  const queue = [...list];
  // A batch is one process that requires its files in turn; their tests run in that order.
  const batchRunner = path.join(repo, 'scripts', 'lib', 'test-batch.cjs');
  const one = (batch) =>
    run(batch.join(', '), process.execPath, [
      '--test-reporter=spec',
      ...(batch.length === 1 ? batch : [batchRunner, ...batch]),
    ]);
  const worker = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      const file = batch.join(', ');
      const { code, out } = await one(batch);
      const kept = [];
      let counted = false;
      for (const line of out.split('\n')) {
        const m = SUMMARY.exec(line);
        if (!m) kept.push(line);
        else if (m[1] !== 'duration_ms') {
          totals[m[1]] += Number(m[2]);
          counted = true;
        }
      }
      process.stdout.write(`${kept.join('\n').trimEnd()}\n`);
      // A file that ended badly without a failing test (it crashed, or never reported) fails the run too.
      if (code !== 0 || !counted) {
        broken.push(file);
        process.stdout.write(`✖ ${file} ended with exit code ${code}${counted ? '' : ' and no test report'}\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  for (const [k, v] of Object.entries(totals)) console.log(`ℹ ${k} ${v}`);
  console.log(`ℹ duration_ms ${Date.now() - started}`);
  if (broken.length) console.log(`ℹ files that failed: ${broken.join(', ')}`);
  return {
    name: 'unit tests',
    code: broken.length || totals.fail || totals.cancelled ? 1 : 0,
    out: '',
    s: (Date.now() - started) / 1000,
  };
}

// The type check and the linter keep what they found per file between runs, under node_modules/.cache (a
// fresh install starts them anew): tsc's build info holds each file's hash and its diagnostics, so a file
// is checked again when it or anything it depends on changed; ESLint keeps each file's messages by its
// content and the configuration that applied (its rules read one file at a time, no type information), so
// an error stays reported until the file is fixed. On 2 CPUs, with nothing changed since the last run:
// tsc 9.2 -> 3.0 s of CPU, ESLint 9.9 -> 1.0 s.
// The type check is TypeScript 7's compiler (the `tsgo` dependency, `npm:typescript@7`, native code): the
// same diagnostics as TypeScript 5's in a sixth of the CPU. TypeScript 5 stays for typescript-eslint's
// parser, which needs its JavaScript API.
const cacheDir = path.join(repo, 'node_modules', '.cache', 'session-ledger');
const tsc = path.join(repo, 'node_modules', 'tsgo', 'bin', 'tsc');
const tscArgs = [tsc, '-p', 'tsconfig.json', '--noEmit', '--incremental'];
tscArgs.push('--tsBuildInfoFile', path.join(cacheDir, 'tsc.tsbuildinfo'));
const eslintArgs = ['--cache', '--cache-strategy', 'content', '--cache-location', path.join(cacheDir, 'eslint'), '.'];

// The build (dist/ and out/, esbuild) runs beside the checks, which read neither; the tests wait for it.
// A fresh clone installs its dependencies first: the type check and the linter start beside the build.
ensureDeps();
mkdirSync(cacheDir, { recursive: true });
const build = run('build', process.execPath, [path.join(repo, 'scripts', 'build.mjs'), '--tests']);
const results = await Promise.all([
  build.then((b) =>
    b.code === 0
      ? unitTests(workItems(), 4)
      : { name: 'unit tests', code: 1, out: `the build failed, so no test ran:\n${b.out}`, s: 0 },
  ),
  run('type check (tsc)', process.execPath, tscArgs, { background: true }),
  run('lint (eslint)', bin('eslint'), eslintArgs, { background: true }),
]);
for (const r of results) if (r.out.trim()) process.stdout.write(`\n── ${r.name}\n${r.out.trimEnd()}\n`);
console.log('');
for (const r of results) console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name} (${r.s.toFixed(1)} s)`);
// The corpus tests run on the in-repo corpus (test/corpus) always; the external corpus of real files adds its own.
const external = process.env.SESSION_LEDGER_CORPUS ?? path.resolve(repo, '..', 'shared', 'corpus');
console.log(
  existsSync(external)
    ? `corpus: in-repo (test/corpus) and external (${external})`
    : `corpus: in-repo (test/corpus); the external corpus's extra tests were not run (no ${external})`,
);
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
