/**
 * S3's method, step 6: run `node checks/check.mjs` so a repository that is already red is never
 * handed off. It is the repository's own code, so it runs only when the user asks: the checklist's
 * button in a trusted workspace, or `session-ledger check --run-checks`. Never in Restricted Mode,
 * never by a scan.
 *
 * How it runs: Node itself (no shell) on the script inside the root, in its own process group, with
 * a time limit after which the whole group is killed, and its output capped (the tail is kept: a
 * checker prints its verdict last). The result becomes S3's `repo-checks` check.
 */
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { PROGRAM, t } from '../../model/messages';
import { labelOf, overallLabel, type Check, type WorkspaceReport } from '../../model/model';
import { maskSecrets } from '../../secrets/secrets';
import { mk } from '../../rules/common';

import { REPO_CHECKS } from './facts';

// The script's path and the one check the user can run stand with S3's facts, which the extension loads
// at activation; this module (running it) is loaded on the user's click.
export { REPO_CHECKS, runnableCheck } from './facts';
/** How long the script may run, by default. */
export const REPO_CHECKS_TIMEOUT_MS = 120_000;
/** How much of its output is kept (the tail), by default. */
export const REPO_CHECKS_MAX_OUTPUT = 16 * 1024;

export interface RepoChecksResult {
  /** The command as the user would type it. */
  command: string;
  /** Exit code, or null when killed. */
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The process could not be started (the error's message). */
  error?: string;
  /** The last `maxOutput` bytes of stdout and stderr together, secrets masked. */
  output: string;
  truncated: boolean;
  ms: number;
  /** How long it was allowed to run (ms): a run stopped at it is said to have taken that long, whatever the kill took after. */
  limitMs: number;
}

export interface RunRepoChecksOptions {
  timeoutMs?: number;
  maxOutput?: number;
  /** The Node binary (default: this process's, run as Node inside Electron too). */
  node?: string;
  env?: NodeJS.ProcessEnv;
}

/** Run `node checks/check.mjs` in `root` (see the header for how). Never throws. */
export function runRepoChecks(root: string, opts: RunRepoChecksOptions = {}): Promise<RepoChecksResult> {
  const abs = path.resolve(root);
  const timeoutMs = opts.timeoutMs ?? REPO_CHECKS_TIMEOUT_MS;
  const max = opts.maxOutput ?? REPO_CHECKS_MAX_OUTPUT;
  const started = Date.now();
  const command = `node ${REPO_CHECKS}`;
  return new Promise((resolve) => {
    let out = Buffer.alloc(0);
    let dropped = false;
    let timedOut = false;
    const keep = (b: Buffer) => {
      out = Buffer.concat([out, b]);
      if (out.length > max * 2) {
        out = out.subarray(out.length - max);
        dropped = true;
      }
    };
    const done = (r: Omit<RepoChecksResult, 'command' | 'output' | 'truncated' | 'ms' | 'limitMs'>) => {
      const truncated = dropped || out.length > max;
      const tail = out.length > max ? out.subarray(out.length - max) : out;
      resolve({
        command,
        ...r,
        output: maskSecrets(tail.toString('utf8')).text,
        truncated,
        ms: Date.now() - started,
        limitMs: timeoutMs,
      });
    };
    let child: ChildProcess;
    try {
      // Loaded here: S3's rules take `repoChecksNotRun` from this module, and a hook never runs the checks.
      const { spawn } = require('node:child_process') as typeof import('node:child_process');
      child = spawn(opts.node ?? process.execPath, [REPO_CHECKS], {
        cwd: abs,
        shell: false,
        detached: true,
        windowsHide: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...(opts.env ?? process.env), ELECTRON_RUN_AS_NODE: '1' },
      });
    } catch (err) {
      done({ code: null, signal: null, timedOut: false, error: (err as Error)?.message ?? String(err) });
      return;
    }
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        try {
          child.kill('SIGKILL');
        } catch {
          /* already gone */
        }
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    let errored: string | undefined;
    child.on('error', (err) => {
      errored = err.message;
    });
    // The script is done: whatever it left running in its group goes with it (and lets the pipes close).
    child.on('exit', killGroup);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, timedOut, ...(errored ? { error: errored } : {}) });
    });
  });
}

/** The result as S3's `repo-checks` check: a red (or unfinished) run blocks, as the seed never hands off a red repository. */
export function repoChecksCheck(r: RepoChecksResult): Check {
  const ok = r.code === 0 && !r.timedOut && !r.error;
  const secs = Math.round(r.ms / 100) / 10;
  const msg = r.error
    ? t('`{0}` could not be started: {1}', r.command, r.error)
    : r.timedOut
      ? t('`{0}` did not finish within {1} s and was stopped.', r.command, Math.round(r.limitMs / 100) / 10)
      : ok
        ? t('`{0}` passed (exit 0, {1} s).', r.command, secs)
        : t('`{0}` failed (exit {1}, {2} s): the repository is red.', r.command, r.code ?? r.signal ?? '?', secs);
  return mk(
    'S3',
    'repo-checks',
    'block',
    ok,
    msg,
    { path: REPO_CHECKS },
    ok ? undefined : t('Fix what it reports before the handoff: a fresh session must not start from a red repository.'),
  );
}

/** Before anything ran: the script is there, and is run only when asked. */
export function repoChecksNotRun(): Check {
  return mk(
    'S3',
    'repo-checks',
    'block',
    'skip',
    t("{0} is not run unless you ask: `{1} check --run-checks`, or the checklist's button.", REPO_CHECKS, PROGRAM),
    { path: REPO_CHECKS },
  );
}

/** The report with S3's `repo-checks` check replaced by the run's result, and the labels it changes. */
export function withRepoChecks(report: WorkspaceReport, r: RepoChecksResult): WorkspaceReport {
  const systems = report.systems.map((s) => {
    if (s.id !== 'S3') return s;
    const checks = [...s.checks.filter((c) => c.id !== 'repo-checks'), repoChecksCheck(r)];
    return { ...s, checks, label: labelOf(checks) };
  });
  return { ...report, systems, label: overallLabel(systems) };
}
