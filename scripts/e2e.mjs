#!/usr/bin/env node
// Real VS Code tests: code-server 4.100.3 (installed by scripts/setup-e2e.sh) + Debian Chromium.
//   node scripts/e2e.mjs [--only harness,integration,untrusted,ui] [--keep] [--no-build]
// Phases:
//   harness      code-server answers /healthz and the workbench loads in Chromium
//   integration  mocha suites inside the Node extension host (test/integration), trusted folder
//   untrusted    the same runner on an untrusted folder (test/integration/untrusted)
//   ui           Playwright UI tests (test/e2e)
// Each run's state lives in its own folder under /tmp/slr (kept with --keep or on failure).
// Closing line: "N passed, N failed".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, startCodeServer, makeRunDir, launchBrowser, workbenchUrl, removeRunDir, codeServerEntry } from './lib/code-server.mjs';

const argv = process.argv.slice(2);
const arg = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const only = arg('--only')?.split(',');
const keep = argv.includes('--keep') || !!process.env.SESSION_LEDGER_KEEP;
const want = (phase) => !only || only.includes(phase);

const results = []; // { phase, name, ok, ms, error }
const t0 = Date.now();
const log = (...a) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

function record(phase, name, ok, ms, error) {
  results.push({ phase, name, ok, ms, error });
  console.log(`  ${ok ? '✔' : '✘'} ${phase}: ${name} (${ms} ms)${ok ? '' : `\n      ${String(error).split('\n').join('\n      ')}`}`);
}

async function phaseHarness() {
  const run = makeRunDir('harness');
  const ws = join(run, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'hello.md'), '# hello\n');
  const started = Date.now();
  const server = await startCodeServer({ runDir: run, workspace: ws });
  let ok = false;
  let ctx;
  try {
    record('harness', `code-server answers /healthz on ${server.url}`, true, server.healthzMs);
    const tw = Date.now();
    ctx = await launchBrowser(run);
    const page = ctx.pages()[0] || (await ctx.newPage());
    await page.goto(workbenchUrl(server, { folder: ws }));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.getByRole('treeitem', { name: 'hello.md' }).waitFor({ timeout: 60_000 });
    record('harness', 'the workbench loads in Chromium and the explorer lists the folder', true, Date.now() - tw);
    ok = true;
  } catch (e) {
    record('harness', 'the workbench loads in Chromium', false, Date.now() - started, e?.stack || e);
  } finally {
    await ctx?.close().catch(() => {});
    await server.stop();
  }
  if (ok && !keep) removeRunDir(run);
  else log('run folder kept:', run);
}

async function main() {
  codeServerEntry(); // fails early with a hint when setup-e2e.sh was not run
  if (!argv.includes('--no-build')) {
    log('building (scripts/build.mjs)');
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO, stdio: 'inherit' });
  }
  if (want('harness')) await phaseHarness();
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (results.length === 0) { console.log('no e2e test ran'); process.exit(1); }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(e?.stack || e); console.log(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed`); process.exit(1); });
