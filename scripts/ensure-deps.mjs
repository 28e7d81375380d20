// Runs `npm ci` when node_modules is missing or older than package-lock.json, so that on a fresh
// clone `npm test` and `npm start` are each one command. Does nothing (two stat calls) when the
// install is current. Imported by scripts/build.mjs --tests; `node scripts/ensure-deps.mjs` runs it alone.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function ensureDeps() {
  const marker = path.join(repo, 'node_modules', '.package-lock.json');
  const lock = path.join(repo, 'package-lock.json');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
    console.log('session-ledger: installing dependencies (npm ci)…');
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repo, stdio: 'inherit' });
    } catch (err) {
      // npm has said why above; one line says what failed and what to do, without this script's stack.
      const how =
        err.code === 'ENOENT' ? 'npm was not found on PATH' : `npm ci exited with ${err.status ?? err.signal}`;
      console.error(
        `session-ledger: the dependencies could not be installed (${how}). npm says why above: fix that (often the network or the registry), then run \`npm ci\` in ${repo} and the command again.`,
      );
      process.exit(1);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureDeps();
