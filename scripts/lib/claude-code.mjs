// The real Claude Code CLI for tests: installed from the npm registry at a pinned version into the
// tools folder (outside the package, cached with a completion stamp), run offline against the
// stand-in (scripts/lib/standin.mjs) with its own HOME and CLAUDE_CONFIG_DIR, each run in its own
// process group with a timeout.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { ensureNpmTool } from './npm-tool.mjs';
import { homedir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLAUDE_CODE_VERSION = '2.1.332';
export const TOOLS = process.env.SESSION_LEDGER_TOOLS || join(homedir(), '.cache', 'session-ledger-tools');
export const CC_DIR = join(TOOLS, `claude-code-${CLAUDE_CODE_VERSION}`);
const HERE = dirname(fileURLToPath(import.meta.url));
export const PTY_BRIDGE = join(HERE, 'pty-bridge.py');

/** The native binary of the installed client (the npm package's postinstall puts it in place). */
function binaryIn(dir) {
  const bin = join(dir, 'node_modules', '.bin', 'claude');
  if (existsSync(bin)) return bin;
  // Install scripts skipped: the platform package carries the binary itself.
  const scoped = join(dir, 'node_modules', '@anthropic-ai');
  const plat = existsSync(scoped)
    ? readdirSync(scoped).find((n) => n.startsWith(`claude-code-${process.platform}-`))
    : undefined;
  return plat ? join(scoped, plat, 'claude') : null;
}

/**
 * The claude binary at CLAUDE_CODE_VERSION, installed into the tools folder when missing (npm
 * install, about 45 s; a lock keeps two runs from installing at once). Returns its path.
 */
export function ensureClaudeCode({ log = console.log } = {}) {
  return ensureNpmTool({
    pkg: '@anthropic-ai/claude-code',
    version: CLAUDE_CODE_VERSION,
    dir: CC_DIR,
    binary: binaryIn,
    env: { ...process.env, DISABLE_AUTOUPDATER: '1' },
    log,
  });
}

/** Variables that would tie the client to a real account, a real API or the caller's own session. */
const DROP = /^(ANTHROPIC_|CLAUDE_|CLAUDECODE$|npm_|NODE_OPTIONS$|VSCODE_|SESSION_LEDGER_|CODEX_HOME$|OPENAI_)/;

/**
 * A user's world for the client: `home` (HOME), `config` (CLAUDE_CONFIG_DIR) with onboarding done,
 * the stand-in's API key approved and each project trusted. Returns { env, config, home, trust(dir) }.
 */
export function claudeWorld(root, { standinUrl, bin, extraEnv = {} }) {
  const home = join(root, 'home');
  const config = join(root, 'claude');
  mkdirSync(home, { recursive: true });
  mkdirSync(config, { recursive: true });
  const key = 'sk-standin-not-a-real-key-0000';
  const state = {
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
    projects: {},
  };
  const save = () => writeFileSync(join(config, '.claude.json'), JSON.stringify(state, null, 2));
  save();
  const base = {};
  for (const [k, v] of Object.entries(process.env)) if (!DROP.test(k)) base[k] = v;
  const env = {
    ...base,
    HOME: home,
    CLAUDE_CONFIG_DIR: config,
    ANTHROPIC_BASE_URL: standinUrl,
    ANTHROPIC_API_KEY: key,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    PATH: `${dirname(bin)}:${base.PATH ?? '/usr/bin:/bin'}`,
    ...extraEnv,
  };
  return {
    env,
    config,
    home,
    /**
     * Accept the trust dialog for a project folder (the interactive screen asks otherwise). The
     * client rewrites this file itself, so its current content is merged, not replaced.
     */
    trust(dir) {
      let now = state;
      try {
        now = JSON.parse(readFileSync(join(config, '.claude.json'), 'utf8'));
      } catch {
        /* keep ours */
      }
      now.projects = {
        ...(now.projects ?? {}),
        [dir]: { ...(now.projects?.[dir] ?? {}), hasTrustDialogAccepted: true },
      };
      writeFileSync(join(config, '.claude.json'), JSON.stringify(now, null, 2));
    },
  };
}

// Process groups started here and still running: killed when this process exits, however it exits
// (also on Ctrl+C or a SIGTERM from CI, which would otherwise skip the exit handlers).
const live = new Set();
const killLive = () => {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
};
process.on('exit', killLive);
for (const [sig, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(sig, () => {
    killLive();
    process.exit(code);
  });
}

/**
 * Run a command in its own process group; resolves { code, signal, stdout, stderr, ms, timedOut }.
 * The whole group is killed on timeout.
 */
export function runGroup(cmd, args, { cwd, env, input = '', timeoutMs = 120_000 } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(child.pid);
    const out = [];
    const err = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, timeoutMs);
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => err.push(Buffer.from(String(e))));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child.pid);
      // anything the client left behind in its group (hooks, status line commands)
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: Date.now() - t0,
        timedOut,
      });
    });
    child.stdin.end(input);
  });
}

/**
 * The interactive screen in a pseudo-terminal (python3's pty module, scripts/lib/pty-bridge.py):
 * returns { write(text), type(text), screen(), waitFor(re|string, ms), exited, kill() }.
 */
export function startTui(argv, { cwd, env, cols = 140, rows = 45 }) {
  const child = spawn('python3', [PTY_BRIDGE, String(cols), String(rows), ...argv], {
    cwd,
    env: { ...env, TERM: 'xterm-256color' },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child.pid);
  let raw = '';
  let code = null;
  child.stdout.on('data', (c) => {
    raw += c.toString('utf8');
  });
  child.stderr.on('data', (c) => {
    raw += c.toString('utf8');
  });
  child.stdin.on('error', () => undefined);
  const exited = new Promise((resolve) =>
    child.on('close', (c) => {
      code = c;
      live.delete(child.pid);
      resolve(c);
    }),
  );
  const ANSI = /\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMc]/g;
  // The screen moves the cursor over blanks instead of writing spaces: count those as one space.
  const screen = () => raw.replace(/\x1b\[\d*C/g, ' ').replace(ANSI, '');
  const squash = (s) => s.replace(/\s+/g, '');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const tui = {
    raw: () => raw,
    screen,
    exited,
    code: () => code,
    write: (s) => child.stdin.write(s),
    /** Type text, let the screen settle (slash-command menus), then press Enter. */
    async type(text, { enter = true } = {}) {
      child.stdin.write(text);
      if (enter) {
        await sleep(700);
        child.stdin.write('\r');
      }
    },
    /** Wait until the client has written nothing for `quietMs` (at most `maxMs`): it is drawn and reading keys. */
    async settle(quietMs = 600, maxMs = 10_000) {
      const t0 = Date.now();
      let last = raw.length;
      let since = Date.now();
      while (Date.now() - t0 < maxMs && code === null) {
        await sleep(100);
        if (raw.length !== last) {
          last = raw.length;
          since = Date.now();
        } else if (Date.now() - since >= quietMs) return;
      }
    },
    /** Wait until the screen (since `from`, a length of screen()) matches. */
    async waitFor(what, ms = 60_000, from = 0) {
      const t0 = Date.now();
      for (;;) {
        const s = screen().slice(from);
        // Strings are compared without white space (the screen's layout decides where it goes).
        if (typeof what === 'string' ? squash(s).includes(squash(what)) : what.test(s)) return true;
        if (code !== null)
          throw new Error(
            `the client exited (${code}) before the screen showed ${what}\n--- screen tail ---\n${s.slice(-2000)}`,
          );
        if (Date.now() - t0 > ms)
          throw new Error(
            `timed out after ${ms} ms waiting for ${what} on the screen\n--- screen tail ---\n${s.slice(-2000)}`,
          );
        await sleep(200);
      }
    },
    async kill() {
      if (code !== null) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      const t = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 3000);
      await exited;
      clearTimeout(t);
    },
  };
  return tui;
}

/** Lines of a JSONL file as objects (unparsable lines skipped). */
export function readJsonl(file) {
  if (!existsSync(file)) return [];
  const out = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      /* a torn line */
    }
  }
  return out;
}
