// A client the tests run for real (Claude Code, Codex CLI), installed from the npm registry at a
// pinned version into its own folder of the tools folder (outside the package and outside the temp
// folder), once: a completion stamp says it is whole, a lock folder keeps two runs from installing
// at once.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `bin --version` prints ('' when it cannot be run). */
export function versionOf(bin, env = process.env) {
  try {
    return execFileSync(bin, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    }).trim();
  } catch {
    return '';
  }
}

/**
 * The binary of `pkg@version` installed in `dir` (npm install, --no-save), installing it when the
 * stamp is missing or `binary(dir)` does not answer `version` to --version (run with `env`).
 * `binary(dir)` finds the binary in the installed tree (or null). Returns the binary's path.
 */
export function ensureNpmTool({ pkg, version, dir, binary, env = process.env, log = console.log }) {
  const stamp = join(dir, '.installed');
  mkdirSync(join(dir, '..'), { recursive: true });
  const ready = () => {
    const bin = binary(dir);
    return existsSync(stamp) && bin && versionOf(bin, env).includes(version) ? bin : null;
  };
  const have = ready();
  if (have) return have;
  // One installer at a time across processes: a lock folder (taken over when older than 15 min).
  const lock = `${dir}.lock`;
  const t0 = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() - t0 > 15 * 60_000) throw new Error(`waited 15 min for ${lock}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
  try {
    const again = ready();
    if (again) return again;
    log(`installing ${pkg}@${version} into ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'session-ledger-test-client', private: true }, null, 2),
    );
    const npmEnv = { ...process.env };
    for (const k of Object.keys(npmEnv)) if (k.startsWith('npm_')) delete npmEnv[k];
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', `${pkg}@${version}`], {
      cwd: dir,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 600_000,
    });
    const bin = binary(dir);
    const v = bin ? versionOf(bin, env) : '';
    if (!v.includes(version)) throw new Error(`${pkg} --version after install: '${v}' (expected ${version})`);
    writeFileSync(stamp, `${v}\n`);
    log(`installed ${v} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return bin;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
