#!/usr/bin/env node
// Extension benchmark (npm run bench runs every scripts/bench-*.mjs; reported, never asserted):
//   - the .vsix that `npm run package` builds: its size and the size of each bundle in it;
//   - in a real VS Code (code-server 4.100.3 + Debian Chromium, from scripts/setup-e2e.sh), with the
//     .vsix installed and the e2e fixture workspace (all five systems) open: the activation time and
//     the first results' and the first scan's times that the extension logs in its "Session Ledger" output channel, and the
//     wall time from opening the page to the status bar item showing.
// Environment: BENCH_EXT_RUNS=N windows (3); BENCH_EXT_LOG=1 prints the extension's log of each window. Without code-server installed only the size is reported.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  REPO,
  startCodeServer,
  makeRunDir,
  launchBrowser,
  workbenchUrl,
  installExtension,
  codeServerEntry,
  removeRunDir,
} from './lib/code-server.mjs';
import { prepareWorkspace, writeClaudeHome } from './lib/workspace.mjs';

const runs = Number(process.env.BENCH_EXT_RUNS || 3);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

execFileSync('npm', ['run', '--silent', 'package'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
const vsix = join(REPO, 'dist', 'session-ledger.vsix');
console.log(`vsix: dist/session-ledger.vsix ${kb(statSync(vsix).size)} (${statSync(vsix).size} bytes)`);
for (const f of ['extension.js', 'webview.js', 'cli.js']) {
  const p = join(REPO, 'dist', f);
  if (existsSync(p)) console.log(`  dist/${f} ${kb(statSync(p).size)} (production build, unpacked)`);
}

try {
  codeServerEntry();
} catch (e) {
  console.log(`activation: not measured (${e.message})`);
  process.exit(0);
}

/** Find the extension's output channel log under the user-data dir and read its numbers. */
function readChannel(userData, print = false) {
  const logs = join(userData, 'logs');
  const found = [];
  const walk = (d) => {
    for (const n of existsSync(d) ? readdirSync(d) : []) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n === 'Session Ledger.log') found.push(p);
    }
  };
  walk(logs);
  const text = found.map((p) => readFileSync(p, 'utf8')).join('\n');
  if (print) console.log(text.trimEnd());
  const act =
    /activated in ([\d.]+) ms .*; its modules loaded in ([\d.]+) ms, activate\(\) was called ([\d.]+) ms after loading began/.exec(
      text,
    );
  const scan = /First scan finished (\d+) ms after loading began: (\d+) system/.exec(text);
  const shown = /First results shown (\d+) ms after loading began/.exec(text);
  return {
    activateMs: act ? Number(act[1]) : null,
    modulesMs: act ? Number(act[2]) : null,
    loadMs: act ? Number(act[3]) : null,
    scanMs: scan ? Number(scan[1]) : null,
    shownMs: shown ? Number(shown[1]) : null,
    systems: scan ? Number(scan[2]) : null,
  };
}

/** Each number the log gave, per name, over the windows; and the page-open times. */
const samples = {};
const wall = [];
for (let i = 0; i < runs; i++) {
  const run = makeRunDir('bench');
  installExtension(vsix, join(run, 'extensions'), run);
  const ws = prepareWorkspace(join(REPO, 'test', 'fixtures', 'e2e-workspace'), join(run, 'shelf'));
  const claude = writeClaudeHome(join(run, 'claude'), ws, { percent: 10 });
  const server = await startCodeServer({
    runDir: run,
    workspace: ws,
    env: { CLAUDE_CONFIG_DIR: claude.home, CODEX_HOME: join(run, 'codex') },
  });
  const ctx = await launchBrowser(run);
  try {
    const page = ctx.pages()[0] || (await ctx.newPage());
    const t0 = Date.now();
    await page.goto(workbenchUrl(server, { folder: ws }));
    await page
      .locator('[id="session-ledger.session-ledger.sessionLedger.context"]')
      .waitFor({ state: 'visible', timeout: 120_000 });
    const w = Date.now() - t0;
    let r = readChannel(server.dirs.userData);
    for (let k = 0; k < 50 && (r.activateMs === null || r.scanMs === null); k++) {
      await new Promise((res) => setTimeout(res, 200));
      r = readChannel(server.dirs.userData);
    }
    if (process.env.BENCH_EXT_LOG) readChannel(server.dirs.userData, true);
    console.log(
      `run ${i + 1}: modules loaded ${r.modulesMs ?? '?'} ms, activate() called ${r.loadMs ?? '?'} ms after loading began and took ${r.activateMs ?? '?'} ms; first results (before git's facts) ${r.shownMs ?? '?'} ms and first scan ${r.scanMs ?? '?'} ms after loading began (${r.systems ?? '?'} systems); page open → status bar item ${w} ms`,
    );
    for (const [k, v] of Object.entries(r)) if (v !== null) (samples[k] ??= []).push(v);
    wall.push(w);
  } finally {
    await ctx.close().catch(() => {});
    await server.stop();
    removeRunDir(run);
  }
}
const med = (k, digits = 0) => (samples[k] ? median(samples[k]).toFixed(digits) : '?');
if (samples.activateMs)
  console.log(
    `activation (extension's own log, median of ${samples.activateMs.length}): modules loaded ${med('modulesMs', 1)} ms, activate() called ${med('loadMs', 1)} ms after loading began (VS Code's own wait in between) and took ${med('activateMs', 1)} ms; first results of the five systems (every check that needs no git) ${med('shownMs')} ms, first scan (git's facts in) ${med('scanMs')} ms after loading began`,
  );
console.log(
  `page open → context status bar item visible (median of ${wall.length}): ${median(wall)} ms (includes loading the workbench and starting the extension host)`,
);
