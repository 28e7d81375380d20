/** scripts/ensure-deps.mjs: `npm test` and `npm start` install the dependencies on a fresh clone first. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { REPO, workspace } from './helpers';

test('a fresh clone whose install fails (here: npm offline with an empty cache): npm says why, then one line says what failed and what to do, with no stack trace, and the command stops', () => {
  const clone = workspace({});
  for (const f of ['package.json', 'package-lock.json', 'scripts/ensure-deps.mjs']) {
    mkdirSync(path.dirname(path.join(clone, f)), { recursive: true });
    cpSync(path.join(REPO, f), path.join(clone, f));
  }
  const r = spawnSync(process.execPath, ['scripts/ensure-deps.mjs'], {
    cwd: clone,
    env: { ...process.env, npm_config_offline: 'true', npm_config_cache: workspace({}, 'sl-npm-cache-') },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /installing dependencies \(npm ci\)/);
  assert.match(r.stderr, /ENOTCACHED/, 'npm says why');
  assert.match(
    r.stderr,
    /session-ledger: the dependencies could not be installed \(npm ci exited with 1\)\. npm says why above: .* then run `npm ci` in .* and the command again\.\n$/,
  );
  assert.doesNotMatch(r.stderr, /at execFileSync|node:internal|node:child_process/, 'no stack trace');
  assert.equal(existsSync(path.join(clone, 'node_modules', '.package-lock.json')), false);
});
