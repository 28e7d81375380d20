#!/usr/bin/env node
// npm start: the extension on the demo workspace (examples/demo-workspace: all five systems, a real git
// history and a Claude Code transcript), in the user's own VS Code when there is one, else in a browser.
//   node scripts/start.mjs [--vscode PATH] [--code-server] [--port N] [--fresh] [--prepare]
// - VS Code installed (`code` on PATH, or --vscode PATH to its `code` command): builds dist/ and opens
//   a new window as an Extension Development Host (--extensionDevelopmentPath=<this repo>) on the demo,
//   its Claude Code home (CLAUDE_CONFIG_DIR) in the environment. Seconds, no download. The demo lives
//   in .run/demo/ and is kept between starts.
// - Otherwise (or with --code-server): packages the .vsix, installs it into code-server 4.100.3
//   (scripts/setup-e2e.sh --no-browser installs code-server the first time) and serves the demo on 127.0.0.1:PORT
//   until Ctrl-C. Its demo lives in the tools folder's demo/ folder.
// --fresh lays the demo out anew; --prepare only lays out .run/demo/ (the "Run Extension" launch
// configuration runs it first).
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { buildBundles } from './lib/build.mjs';
import {
  REPO,
  TOOLS,
  CODE_SERVER_VERSION,
  startCodeServer,
  installExtension,
  codeServerEntry,
} from './lib/code-server.mjs';
import { prepareDemo } from './lib/workspace.mjs';

const argv = process.argv.slice(2);
const arg = (n) => {
  const i = argv.indexOf(n);
  return i >= 0 ? argv[i + 1] : undefined;
};
const port = Number(arg('--port') || process.env.PORT || 8080);
const fresh = argv.includes('--fresh');
const t0 = Date.now();
const say = (m) => console.log(`[start ${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

/** An executable file named `name` on PATH, or null. */
function onPath(name) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    const p = join(dir || '.', name);
    try {
      if (statSync(p).isFile()) {
        accessSync(p, constants.X_OK);
        return p;
      }
    } catch {
      /* not here */
    }
  }
  return null;
}

const localDemo = join(REPO, '.run', 'demo');
if (argv.includes('--prepare')) {
  const { ws, claude } = prepareDemo(localDemo, { fresh });
  console.log(`demo workspace ${ws} (Claude Code home ${claude.home})`);
  process.exit(0);
}

const vscodeArg = arg('--vscode');
const code = argv.includes('--code-server') ? null : vscodeArg ? resolve(vscodeArg) : onPath('code');
if (vscodeArg && !existsSync(code)) {
  console.error(`start: --vscode ${vscodeArg}: no such file (give the path of VS Code's \`code\` command)`);
  process.exit(2);
}
if (code) {
  say('building dist/ (scripts/build.mjs)');
  await buildBundles();
  const { ws, claude } = prepareDemo(localDemo, { fresh });
  const env = { ...process.env, CLAUDE_CONFIG_DIR: claude.home, CODEX_HOME: join(localDemo, 'codex') };
  const args = ['--new-window', `--extensionDevelopmentPath=${REPO}`, ws];
  say(`opening VS Code (${code}) as an Extension Development Host on ${ws}`);
  const r = spawnSync(code, args, { env, stdio: 'inherit', timeout: 60_000 });
  if (r.status !== 0) {
    console.error(
      `start: ${code} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}); use --code-server for the browser version`,
    );
    process.exit(1);
  }
  console.log(
    `\n  VS Code shows the demo workspace with this repository's extension (window title: [Extension Development Host]).\n  Claude Code home: ${claude.home}. After a change: npm run build (or npm run watch), then "Developer: Reload Window".\n`,
  );
  process.exit(0);
}

try {
  codeServerEntry();
} catch (e) {
  // Serving needs no Chromium: the user opens the URL in their own browser.
  say(
    `${e.message.split(':')[0]}: no VS Code on PATH (--vscode PATH names one), so the browser version: running scripts/setup-e2e.sh --no-browser`,
  );
  try {
    execFileSync('bash', [join(REPO, 'scripts', 'setup-e2e.sh'), '--no-browser'], { stdio: 'inherit' });
  } catch {
    // setup-e2e.sh has said what went wrong and what to do (its log, or the packages to install)
    process.exit(1);
  }
}

say('building and packaging (npm run package)');
execFileSync('npm', ['run', '--silent', 'package'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
const vsix = join(REPO, 'dist', 'session-ledger.vsix');

// A short path: code-server keeps Unix sockets under the run folder.
const run = join(TOOLS, 'demo');
const { ws, claude } = prepareDemo(run, { fresh });

say('installing the .vsix into code-server');
installExtension(vsix, join(run, 'extensions'), run);

const server = await startCodeServer({
  runDir: run,
  port,
  workspace: ws,
  env: { CLAUDE_CONFIG_DIR: claude.home, CODEX_HOME: join(run, 'codex') },
});
const url = `${server.url}/?folder=${encodeURIComponent(ws)}`;
say(`code-server ${CODE_SERVER_VERSION} is serving the demo workspace ${ws}`);
console.log(`\n  Open ${url}\n\n  (Claude Code home: ${claude.home}; logs: ${server.logPath}; Ctrl-C stops)\n`);

let stopping = false;
const stop = async (sig) => {
  if (stopping) return;
  stopping = true;
  say(`${sig}: stopping code-server`);
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
// stay up while code-server runs
const timer = setInterval(() => {
  const e = server.exited();
  if (e && !stopping) {
    clearInterval(timer);
    console.error(`code-server exited (${JSON.stringify(e)}); see ${server.logPath}`);
    process.exit(1);
  }
}, 1000);
