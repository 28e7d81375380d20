/**
 * scripts/setup-e2e.sh, the code-server install behind `npm start` and the real VS Code tests: what it
 * asks of the system when a program is missing, and the pins that keep its cold install fast.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from './helpers';

const SCRIPT = path.join(REPO, 'scripts', 'setup-e2e.sh');
const PINS = path.join(REPO, 'scripts', 'code-server');
const posix = process.platform !== 'win32';

/** A PATH holding only node and the few coreutils the script runs before its check, so rg, the compilers, Chromium and apt-get are all missing. */
function barePath(): string {
  const bin = mkdtempSync(path.join(tmpdir(), 'sl-bin-'));
  symlinkSync(process.execPath, path.join(bin, 'node'));
  for (const tool of ['dirname', 'date', 'id']) {
    const found = ['/usr/bin', '/bin'].map((d) => path.join(d, tool)).find((p) => existsSync(p));
    if (found) symlinkSync(found, path.join(bin, tool));
  }
  return bin;
}

/** Runs the script on that PATH with a tools folder of its own; returns whether that folder came to exist. */
function runSetup(args: string[]): { code: number; stderr: string; wroteTools: boolean } {
  const parent = mkdtempSync(path.join(tmpdir(), 'sl-tools-'));
  const tools = path.join(parent, 'tools');
  const bin = barePath();
  try {
    const r = spawnSync('/bin/bash', [SCRIPT, ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: bin, HOME: parent, SESSION_LEDGER_TOOLS: tools },
    });
    return { code: r.status ?? -1, stderr: r.stderr, wroteTools: existsSync(tools) };
  } finally {
    rmSync(parent, { recursive: true, force: true });
    rmSync(bin, { recursive: true, force: true });
  }
}

test(
  'without rg, the compilers, Chromium, apt-get and fonts: setup-e2e.sh names the packages to install (a font for Japanese and one for Korean text), exits 1 and writes nothing',
  { skip: !posix && 'bash script' },
  () => {
    const r = runSetup([]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /this system has no apt-get/);
    assert.ok(
      r.stderr.includes(
        'sudo apt-get update && sudo apt-get install -y ripgrep python3 make g++ chromium fonts-ipafont-gothic fonts-nanum',
      ),
      r.stderr,
    );
    assert.equal(r.wroteTools, false, 'no tools folder is created before the check passes');
  },
);

test(
  'setup-e2e.sh --no-browser (npm start) does not ask for Chromium; an unknown option is a usage error',
  { skip: !posix && 'bash script' },
  () => {
    const r = runSetup(['--no-browser']);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stderr.includes('sudo apt-get install -y ripgrep python3 make g++\n'), r.stderr);
    assert.doesNotMatch(r.stderr, /chromium|fonts-/);
    const bad = runSetup(['--browserless']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown option --browserless/);
  },
);

test('scripts/code-server pins code-server with every tarball address (npm ci fetches no metadata) and argon2 at its prebuilt version', () => {
  const pkg = JSON.parse(readFileSync(path.join(PINS, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(path.join(PINS, 'package-lock.json'), 'utf8'));
  const version = pkg.dependencies['code-server'];
  assert.match(version, /^\d+\.\d+\.\d+$/, 'an exact version');
  assert.deepEqual(lock.packages[''].dependencies, pkg.dependencies, 'the lockfile is of this package.json');
  assert.equal(lock.packages['node_modules/code-server'].version, version);
  // argon2 0.41 ships prebuilds/ in its registry tarball; code-server's own ^0.31 would compile.
  assert.equal(lock.packages['node_modules/argon2'].version, pkg.overrides.argon2);
  const entries = Object.entries(
    lock.packages as Record<string, { resolved?: string; integrity?: string; link?: boolean }>,
  ).filter(([k]) => k !== '');
  assert.ok(entries.length > 100, `${entries.length} packages`);
  for (const [name, e] of entries) {
    assert.match(e.resolved ?? '', /^https:\/\/registry\.npmjs\.org\/.+\.tgz$/, `${name}: resolved`);
    assert.match(e.integrity ?? '', /^sha512-/, `${name}: integrity`);
  }
  // The scripts that start code-server find the install by the same version (an ES module: read in its own process).
  const url = pathToFileURL(path.join(REPO, 'scripts', 'lib', 'code-server.mjs')).href;
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { CODE_SERVER_VERSION } from ${JSON.stringify(url)}; console.log(CODE_SERVER_VERSION);`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.stdout.trim(), version, r.stderr);
});
