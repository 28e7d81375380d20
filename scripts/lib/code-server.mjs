// Starts and stops a real VS Code (code-server 4.100.3, installed by scripts/setup-e2e.sh into a
// tools folder outside the package) and a real headless Chromium, each run's state kept in its own
// run folder. Shared by scripts/e2e.mjs (tests) and scripts/start.mjs (demo).
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
  rmSync,
  createWriteStream,
  realpathSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The code-server version scripts/code-server/package.json pins (setup-e2e.sh installs that folder). */
export const CODE_SERVER_VERSION = JSON.parse(
  readFileSync(join(REPO, 'scripts', 'code-server', 'package.json'), 'utf8'),
).dependencies['code-server'];
export const TOOLS = process.env.SESSION_LEDGER_TOOLS || join(homedir(), '.cache', 'session-ledger-tools');
export const CHROMIUM = process.env.SESSION_LEDGER_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The code-server entry script installed by scripts/setup-e2e.sh. */
export function codeServerEntry() {
  const dir = join(TOOLS, `code-server-${CODE_SERVER_VERSION}`);
  const p = join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  // Only a completed install counts: setup-e2e.sh writes the stamp last (a half-finished one is redone).
  if (!existsSync(p) || !existsSync(join(dir, '.installed'))) {
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} is not installed in ${TOOLS}: run "bash scripts/setup-e2e.sh" first`,
    );
  }
  return p;
}

/**
 * A new run folder (under /tmp/slr unless SESSION_LEDGER_RUNS says otherwise), realpath'd. Kept
 * short: Chromium and code-server put Unix sockets in it, and a socket path has 107 bytes at most.
 */
export const RUNS = process.env.SESSION_LEDGER_RUNS || '/tmp/slr';
export function makeRunDir(name) {
  mkdirSync(RUNS, { recursive: true });
  return realpathSync(mkdtempSync(join(RUNS, `${name}-`)));
}

export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.view.alwaysShowHeaderActions': true,
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.autoRepositoryDetection': false,
  'git.openRepositoryInParentFolders': 'never',
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
  'workbench.colorTheme': 'Default Dark Modern',
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'always',
  'files.watcherExclude': { '**/.git/objects/**': true },
};

/**
 * Start code-server on 127.0.0.1. Every piece of state lives in runDir. Returns
 * { url, port, pid, runDir, workspace, stop(), log }.
 * opts: workspace (folder to open), runDir, trust (false: keep workspace trust on, the folder
 * untrusted), env (extra environment for the server and so the extension host), settings (user
 * settings merged over the defaults), extensionsDir, port, locale (display language, e.g. 'ja').
 */
export async function startCodeServer(opts) {
  const entry = codeServerEntry();
  const runDir = opts.runDir;
  const port = opts.port || (await freePort());
  const dirs = {
    userData: join(runDir, 'user-data'),
    extensions: opts.extensionsDir || join(runDir, 'extensions'),
    xdgConfig: join(runDir, 'xdg', 'config'),
    xdgData: join(runDir, 'xdg', 'data'),
    xdgCache: join(runDir, 'xdg', 'cache'),
    tmp: join(runDir, 'tmp'),
    home: join(runDir, 'home'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(
    join(dirs.userData, 'User', 'settings.json'),
    JSON.stringify({ ...DEFAULT_SETTINGS, ...(opts.settings || {}) }, null, 2),
  );
  const config = join(runDir, 'code-server.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);

  const args = [
    entry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--config',
    config,
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
  ];
  if (opts.trust !== false) args.push('--disable-workspace-trust');
  // VS Code's display language (vscode.env.language); without a language pack only the extension's own bundles translate
  if (opts.locale) args.push('--locale', opts.locale);
  if (opts.workspace) args.push(opts.workspace);

  const env = {
    ...cleanEnv(process.env),
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    XDG_CACHE_HOME: dirs.xdgCache,
    TMPDIR: dirs.tmp,
    // git inside the extension host must not read the real home's config either
    GIT_CONFIG_NOSYSTEM: '1',
    ...(opts.env || {}),
  };
  const logPath = join(runDir, 'code-server.log');
  const logStream = createWriteStream(logPath);
  const proc = spawn(process.execPath, args, {
    env,
    cwd: runDir,
    detached: true, // its own process group: stopped by that group, never by name
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc.pid);
  proc.on('exit', () => live.delete(proc.pid));
  let output = '';
  const onData = (b) => {
    logStream.write(b);
    if (output.length < 200_000) output += b.toString();
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);
  let exited = null;
  const exitPromise = new Promise((res) =>
    proc.on('exit', (code, sig) => {
      exited = { code, sig };
      res(exited);
    }),
  );

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited) return;
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    const t = setTimeout(() => {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 5000);
    await exitPromise;
    clearTimeout(t);
    // the group may still hold the extension host or pty host for a moment
    try {
      process.kill(-proc.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    logStream.end();
  };

  const t0 = Date.now();
  for (;;) {
    if (exited)
      throw new Error(`code-server exited (${JSON.stringify(exited)}) before it answered:\n${output.slice(-3000)}`);
    if (Date.now() - t0 > 60_000) {
      await stop();
      throw new Error(`code-server did not answer /healthz in 60 s:\n${output.slice(-3000)}`);
    }
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    pid: proc.pid,
    runDir,
    workspace: opts.workspace,
    dirs,
    stop,
    healthzMs: Date.now() - t0,
    log: () => output,
    logPath,
    exited: () => exited,
  };
}

// Process groups started here and not stopped yet: killed when this process exits, however it exits.
const live = new Set();
process.on('exit', () => {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

/** Drop variables that would make the server or the extension host behave unlike a user's. */
function cleanEnv(env) {
  const out = {};
  for (const [k, v] of Object.entries(env)) {
    if (/^(npm_|NODE_OPTIONS$|VSCODE_|ELECTRON_|CLAUDE_CONFIG_DIR$|CODEX_HOME$|SESSION_LEDGER_)/.test(k)) continue;
    out[k] = v;
  }
  return out;
}

/** code-server --install-extension VSIX into extensionsDir. */
export function installExtension(vsix, extensionsDir, runDir) {
  const entry = codeServerEntry();
  mkdirSync(extensionsDir, { recursive: true });
  const env = {
    ...cleanEnv(process.env),
    HOME: join(runDir, 'home'),
    XDG_CONFIG_HOME: join(runDir, 'xdg', 'config'),
    XDG_DATA_HOME: join(runDir, 'xdg', 'data'),
    XDG_CACHE_HOME: join(runDir, 'xdg', 'cache'),
    TMPDIR: join(runDir, 'tmp'),
  };
  for (const k of ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'TMPDIR'])
    mkdirSync(env[k], { recursive: true });
  return execFileSync(
    process.execPath,
    [
      entry,
      '--install-extension',
      vsix,
      '--force',
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      join(runDir, 'user-data'),
      '--config',
      join(runDir, 'code-server.yaml'),
    ],
    { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
  );
}

/** Launch Debian's Chromium headless through playwright-core with a fresh profile in runDir. */
export async function launchBrowser(runDir, { viewport = { width: 1400, height: 900 } } = {}) {
  const { chromium } = await import('playwright-core');
  const profile = join(runDir, 'chromium-profile');
  mkdirSync(profile, { recursive: true });
  for (const d of [join(runDir, 'xdg', 'config'), join(runDir, 'tmp'), join(runDir, 'home')])
    mkdirSync(d, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    env: {
      ...cleanEnv(process.env),
      HOME: join(runDir, 'home'),
      XDG_CONFIG_HOME: join(runDir, 'xdg', 'config'),
      TMPDIR: join(runDir, 'tmp'),
    },
  });
  return context;
}

/** URL that opens a folder in the workbench, optionally with an extension-test payload. */
export function workbenchUrl(server, { folder, payload } = {}) {
  const q = new URLSearchParams();
  if (folder) q.set('folder', folder);
  if (payload) q.set('payload', JSON.stringify(payload));
  return `${server.url}/?${q.toString()}`;
}

/** The payload code-server reads instead of --extensionDevelopmentPath/--extensionTestsPath. */
/** The workbench's payload for the extension under development; with `extensionTestsPath`, its tests run in it. */
export function testPayload(server, { extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  return [
    ['extensionDevelopmentPath', remote(extensionDevelopmentPath)],
    ...(extensionTestsPath ? [['extensionTestsPath', remote(extensionTestsPath)]] : []),
  ];
}

export function readJson(p, fallback) {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return fallback;
  }
}

export function removeRunDir(dir) {
  if (dir && dir.startsWith(realpathSync(RUNS) + '/')) {
    // A client the run started (Claude Code in a terminal) may still write its config folder while it exits
    // after code-server stopped: a folder that filled again (ENOTEMPTY) is removed again (10 tries, about 5 s in all).
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
