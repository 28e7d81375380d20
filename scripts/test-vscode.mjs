#!/usr/bin/env node
// npm run test:vscode: the integration suites (test/integration, a mocha run() in the extension host)
// in VS Code stable itself, downloaded and started by @vscode/test-electron, the ecosystem's standard
// path. Where VS Code's update server cannot be reached it says so in one line and exits 1: the same
// suites then run in code-server with `npm run test:e2e` (what CI does).
//   node scripts/test-vscode.mjs [--only integration,untrusted] [--prepare]
// --prepare only builds and lays out .run/vscode-test/ (the fixture workspace and its Claude Code
// home), for the "Extension Tests" launch configuration (.vscode/launch.json).
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildBundles, buildIntegration, INTEGRATION_OUT, REPO } from './lib/build.mjs';
import { readJson } from './lib/code-server.mjs';
import { integrationFixture } from './lib/workspace.mjs';

const argv = process.argv.slice(2);
const arg = (n) => {
  const i = argv.indexOf(n);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = arg('--only')?.split(',') ?? ['integration', 'untrusted'];
const RUN = join(REPO, '.run', 'vscode-test');

/** A fresh fixture (workspace + Claude Code home) in .run/vscode-test/<name>. */
function prepare(name) {
  const run = join(RUN, name);
  rmSync(run, { recursive: true, force: true });
  mkdirSync(run, { recursive: true });
  return { run, ...integrationFixture(run) };
}

if (argv.includes('--prepare')) {
  await Promise.all([buildBundles(), buildIntegration()]);
  const { ws, claude } = prepare('f5');
  console.log(`prepared ${ws} (Claude Code home ${claude.home})`);
  process.exit(0);
}

const { downloadAndUnzipVSCode, runTests } = await import('@vscode/test-electron');
let vscode;
try {
  // Quiet: on failure the one line below says what happened.
  vscode = await downloadAndUnzipVSCode({
    version: 'stable',
    cachePath: join(REPO, '.vscode-test'),
    reporter: { report() {}, error() {} },
    timeout: 30_000,
  });
} catch (e) {
  const why = String(e?.message ?? e).split('\n')[0];
  console.error(
    `test:vscode: cannot download VS Code stable (${why}); offline or blocked here, so run the same suites in code-server: npm run test:e2e`,
  );
  process.exit(1);
}
await Promise.all([buildBundles(), buildIntegration()]);
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  console.error(
    'test:vscode: no display (DISPLAY is not set); on a headless machine run: xvfb-run -a npm run test:vscode',
  );
}

let failed = 0;
for (const phase of only) {
  const { run, ws, claude } = prepare(phase);
  const results = join(run, 'results.json');
  const trusted = phase !== 'untrusted';
  console.log(`== ${phase}: ${ws}`);
  try {
    await runTests({
      vscodeExecutablePath: vscode,
      extensionDevelopmentPath: REPO,
      extensionTestsPath: join(INTEGRATION_OUT, trusted ? 'trusted.js' : 'untrusted.js'),
      launchArgs: [
        ws,
        '--user-data-dir',
        join(run, 'user-data'),
        '--extensions-dir',
        join(run, 'extensions'),
        '--disable-extensions',
        ...(trusted ? ['--disable-workspace-trust'] : []),
      ],
      extensionTestsEnv: {
        CLAUDE_CONFIG_DIR: claude.home,
        CODEX_HOME: join(run, 'codex'),
        SESSION_LEDGER_E2E_RESULTS: results,
        SESSION_LEDGER_E2E_SESSION_ID: claude.sessionId,
        SESSION_LEDGER_E2E_TRANSCRIPT: claude.transcript,
      },
    });
  } catch (e) {
    failed++;
    console.error(`${phase}: ${e?.message ?? e}`);
  }
  const r = readJson(results, null);
  if (!r) {
    failed++;
    console.error(
      `${phase}: the suites wrote no results (${existsSync(results) ? 'unreadable' : 'missing'} ${results})`,
    );
  }
}
process.exit(failed ? 1 : 0);
