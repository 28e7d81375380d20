// The real Codex CLI for tests: installed from the npm registry at a pinned version into the tools
// folder (scripts/lib/npm-tool.mjs), run offline against the Responses stand-in
// (scripts/lib/responses-standin.mjs) with its own HOME and CODEX_HOME, both outside the temp folder
// (Codex 0.171.0 refuses to create its helper binaries under a temporary CODEX_HOME, and nothing the
// tests run is executed from a temp folder).
//
// The client is driven through its own app server (`codex app-server`, JSON-RPC over stdio, Codex's
// interface for editors): `thread/compact/start` is its `/compact`, `thread/start` with
// `sessionStartSource: "clear"` its `/clear`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TOOLS } from './claude-code.mjs';
import { ensureNpmTool } from './npm-tool.mjs';

export const CODEX_VERSION = '0.171.0';
export const CODEX_DIR = join(TOOLS, `codex-${CODEX_VERSION}`);
/** The model the stand-in answers as (Codex has no metadata for it and uses its fallback window, 258,400). */
export const CODEX_MODEL = 'gpt-5.1';

function binaryIn(dir) {
  const bin = join(dir, 'node_modules', '.bin', 'codex');
  return existsSync(bin) ? bin : null;
}

/** The codex binary at CODEX_VERSION (npm install of @openai/codex, about 40 s the first time). */
export function ensureCodex({ log = console.log } = {}) {
  return ensureNpmTool({
    pkg: '@openai/codex',
    version: CODEX_VERSION,
    dir: CODEX_DIR,
    binary: binaryIn,
    log,
  });
}

/** Variables that would tie the client to a real account, a real API or the caller's own session. */
const DROP = /^(ANTHROPIC_|CLAUDE_|CLAUDECODE$|npm_|NODE_OPTIONS$|VSCODE_|SESSION_LEDGER_|CODEX_|OPENAI_)/;

/** A TOML basic string. */
const tomlString = (s) => JSON.stringify(s);

/**
 * A user's world for the client under `root` (not in the temp folder): HOME, CODEX_HOME with a
 * config.toml that points the client at the stand-in. Returns { env, home, codexHome }.
 */
export function codexWorld(root, { standinUrl, bin }) {
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      `model = ${tomlString(CODEX_MODEL)}`,
      'model_provider = "standin"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.standin]',
      'name = "Session Ledger stand-in"',
      `base_url = ${tomlString(`${standinUrl}/v1`)}`,
      'wire_api = "responses"',
      'supports_websockets = false',
      'requires_openai_auth = false',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  const base = {};
  for (const [k, v] of Object.entries(process.env)) if (!DROP.test(k)) base[k] = v;
  const env = {
    ...base,
    HOME: home,
    CODEX_HOME: codexHome,
    PATH: `${join(bin, '..')}:${base.PATH ?? '/usr/bin:/bin'}`,
  };
  return { env, home, codexHome };
}

// App servers started here and still running: killed when this process exits, however it exits.
const live = new Set();
process.on('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/**
 * `codex app-server` in `cwd`: { call(method, params), notes, waitFor(pred, ms, from), close() }.
 * `notes` is every notification in order; `waitFor` resolves with the first one from index `from`
 * that `pred` accepts. Requests the server sends (approvals) are declined.
 */
export async function startAppServer(bin, { cwd, env, args = [] }) {
  const child = spawn(bin, ['app-server', ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const waits = new Map();
  const notes = [];
  let id = 0;
  let closed = false;
  child.on('close', () => {
    closed = true;
    live.delete(child);
    for (const [, w] of waits) w.reject(new Error(`codex app-server exited\n${stderr.slice(-2000)}`));
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    if (m.id !== undefined && m.method) {
      child.stdin.write(`${JSON.stringify({ id: m.id, error: { code: -32601, message: 'declined by the test' } })}\n`);
      return;
    }
    if (m.id !== undefined && waits.has(m.id)) {
      const w = waits.get(m.id);
      waits.delete(m.id);
      if (m.error) w.reject(new Error(`${w.method}: ${JSON.stringify(m.error)}`));
      else w.resolve(m.result);
      return;
    }
    if (m.method) notes.push(m);
  });
  const call = (method, params) =>
    new Promise((resolve, reject) => {
      if (closed) return reject(new Error('codex app-server is not running'));
      const n = ++id;
      waits.set(n, { resolve, reject, method });
      child.stdin.write(`${JSON.stringify({ id: n, method, params })}\n`);
    });
  const waitFor = (pred, ms = 60_000, from = 0) =>
    new Promise((resolve, reject) => {
      const t0 = Date.now();
      const tick = () => {
        const hit = notes.slice(from).find(pred);
        if (hit) return resolve(hit);
        if (closed) return reject(new Error(`codex app-server exited while waiting\n${stderr.slice(-2000)}`));
        if (Date.now() - t0 > ms) return reject(new Error(`no such notification within ${ms} ms`));
        setTimeout(tick, 50);
      };
      tick();
    });
  await call('initialize', {
    clientInfo: { name: 'session-ledger-test', title: null, version: '0' },
    capabilities: null,
  });
  child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
  return {
    call,
    notes,
    waitFor,
    stderr: () => stderr,
    close: () =>
      new Promise((resolve) => {
        if (closed) return resolve();
        child.once('close', () => resolve());
        child.stdin.end();
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
