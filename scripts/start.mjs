#!/usr/bin/env node
// npm start: build, package and install the extension into code-server 4.100.3, then serve the demo
// workspace (examples/demo-workspace: all five systems, a real git history and a Claude Code
// transcript) on 127.0.0.1 and print the URL. Ctrl-C stops it.
//   node scripts/start.mjs [--port N] [--fresh]
// Installs code-server and Chromium first (scripts/setup-e2e.sh) when they are missing. The demo's
// state (workspace copy, Claude Code home, user data) lives in the tools folder's demo/ folder and is
// kept between starts; --fresh lays it out anew.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, TOOLS, CODE_SERVER_VERSION, startCodeServer, installExtension, codeServerEntry } from './lib/code-server.mjs';
import { prepareWorkspace, claudeHomeFromTranscript } from './lib/workspace.mjs';

const argv = process.argv.slice(2);
const arg = (n) => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : undefined; };
const port = Number(arg('--port') || process.env.PORT || 8080);
const fresh = argv.includes('--fresh');
const t0 = Date.now();
const say = (m) => console.log(`[start ${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

try {
  codeServerEntry();
} catch {
  say(`code-server ${CODE_SERVER_VERSION} is not installed in ${TOOLS}: running scripts/setup-e2e.sh`);
  execFileSync('bash', [join(REPO, 'scripts', 'setup-e2e.sh')], { stdio: 'inherit' });
}

say('building and packaging (npm run package)');
execFileSync('npm', ['run', '--silent', 'package'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
const vsix = join(REPO, 'dist', 'session-ledger.vsix');

// A short path: code-server keeps Unix sockets under the run folder.
const run = join(TOOLS, 'demo');
if (fresh) rmSync(run, { recursive: true, force: true });
mkdirSync(run, { recursive: true });
const wsDir = join(run, 'tidewatch');
const ws = existsSync(join(wsDir, '.git')) ? wsDir : prepareWorkspace(join(REPO, 'examples', 'demo-workspace'), wsDir);
const claude = claudeHomeFromTranscript(join(run, 'claude'), ws, join(REPO, 'examples', 'demo-transcript.jsonl'));

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
