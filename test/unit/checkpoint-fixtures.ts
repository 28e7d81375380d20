/** State files and Claude Code hook payloads shared by the checkpoint / guard / hook tests. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { cli, demoRepo, gitInit, REPO, workspace, type CliResult } from './helpers';

export const S3_STATE = `# State

## Handoff

- **Status:** building the guard hooks
- **Phase:** 2
- **Branch / HEAD:** main
- **Gates:** checks green, tests 42/42
- **Now ▶** wire the PreCompact hook into .claude/settings.json and run it by hand with a manual payload
- **Blocked on:** nothing

## Log

### 2026-11-30 - guard hooks
- Done: marker format
- Docs touched: none
- Lessons / gotchas: the marker is written last, after the state files
- Stopped at: hook wiring
`;

/** S3_STATE with four 40-line Log entries: over its 150-line budget, so that rotate-log has entries to move. */
export function s3StateOverBudget(): string {
  const logEntry = (date: string, n: number) =>
    `\n### ${date} - step\n\n${Array.from({ length: n }, (_, i) => `- step ${i + 1}`).join('\n')}\n`;
  return `${S3_STATE.replace(/\n## Log\n[\s\S]*/, '\n## Log\n')}${[
    '2026-08-03',
    '2026-08-01',
    '2026-07-20',
    '2026-07-02',
  ]
    .map((d) => logEntry(d, 40))
    .join('')}`;
}

export const S2_SKELETON = `# Session Ledger

## TASK

## NEXT

## OPEN

## DECIDED

## VERIFIED

## DROPPED

## PLAN
`;

export const S0_CONFIG = `session:\n  ledger: true\n`;
export const S0_LEDGER = `# Session Ledger

_Last updated: 2026-05-04T14:20:00Z_

## Goal
Ship CSV export for the invoices page; done when \`npm test\` passes.

## Constraints/Assumptions
- Node 20, no new runtime dependencies
- Dates are exported in UTC \`UNCONFIRMED\`

## Key Decisions
- Stream rows with a generator

## State

### Done
- Added exportCsv()

### Now
Wire exportCsv() into the Export button in src/invoices.ts and pass the current filter.

### Next
Add an end-to-end test that downloads the file.

## Open Questions
- Should totals include tax? \`UNCONFIRMED\`

## Working Set
- Commands: \`npm test -- export\`
`;

/** A git workspace holding S3's STATE.md (committed). */
export function s3Workspace(extra: Record<string, string> = {}): string {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE, ...extra });
  gitInit(dir);
  return dir;
}

/** `--confirm` with every manual item (S1 Phase 4: feedback stored, last request done), as a user says YES to them. */
export const CONFIRM_ALL = ['--confirm', 'feedback-stored,last-request'];
export const CONFIRMED = ['feedback-stored', 'last-request'];

/** S2's go-signal as its seed prints it, verbatim (S4's report ends with it too). */
export const S2_GO_SIGNAL = 'Checkpoint saved. Safe to run /compact now.';

/** The checkpoint markers in `dir`'s .claude folder (`.checkpoint-ready`, `.checkpoint-ready.<session>`), by name. */
export function markers(dir: string): string[] {
  const claude = path.join(dir, '.claude');
  return existsSync(claude) ? readdirSync(claude).filter((n) => n.startsWith('.checkpoint-ready')) : [];
}

export const SID = '0b5c4a7e-2f61-4d3c-9a8e-1f2e3d4c5b6a';
export const OTHER_SID = 'c9d8e7f6-a5b4-4c3d-8e2f-1a0b9c8d7e6f';

/** Claude Code's project folder name for a path. */
export function encoded(abs: string): string {
  return abs.replace(/[^a-zA-Z0-9]/g, '-');
}

/** The PreCompact payload exactly as Claude Code sends it. */
export function preCompact(
  cwd: string,
  o: { sessionId?: string | null; trigger?: string; extra?: Record<string, unknown> } = {},
): string {
  const sid = o.sessionId === undefined ? SID : o.sessionId;
  const p: Record<string, unknown> = {
    ...(sid === null ? {} : { session_id: sid }),
    transcript_path: `/home/u/.claude/projects/${encoded(cwd)}/${sid ?? 'x'}.jsonl`,
    cwd,
    hook_event_name: 'PreCompact',
    trigger: o.trigger ?? 'manual',
    custom_instructions: '',
    ...o.extra,
  };
  return JSON.stringify(p);
}

/** The SessionStart payload exactly as Claude Code sends it. */
export function sessionStart(
  cwd: string,
  source: string,
  o: { sessionId?: string | null; extra?: Record<string, unknown> } = {},
): string {
  const sid = o.sessionId === undefined ? SID : o.sessionId;
  return JSON.stringify({
    ...(sid === null ? {} : { session_id: sid }),
    transcript_path: `/home/u/.claude/projects/${encoded(cwd)}/${sid ?? 'x'}.jsonl`,
    cwd,
    hook_event_name: 'SessionStart',
    source,
    ...o.extra,
  });
}

/** The UserPromptSubmit payload of this session (`hook remind`'s input) for the transcript at `transcript`, with `prompt` when given. */
export function promptSubmit(cwd: string, transcript: string, prompt?: string): string {
  return JSON.stringify({
    session_id: SID,
    transcript_path: transcript,
    cwd,
    hook_event_name: 'UserPromptSubmit',
    ...(prompt === undefined ? {} : { prompt }),
  });
}

/** An empty Claude config folder, so no real transcript of the machine is ever picked up. */
export function emptyClaudeHome(): string {
  return workspace({}, 'sl-claude-');
}

/** A Claude Code transcript whose last assistant record used `pct` % of claude-sonnet-4-5's 200,000 tokens, dated now. */
export function transcriptAt(pct: number): string {
  const file = path.join(workspace({}, 'sl-claude-'), `${SID}.jsonl`);
  const usage = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: pct * 2000 };
  writeFileSync(
    file,
    `${JSON.stringify({ isSidechain: false, type: 'assistant', sessionId: SID, message: { id: 'msg_1', model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage }, timestamp: new Date().toISOString() })}\n`,
  );
  return file;
}

/**
 * A Claude Code transcript of the session whose current turn began (the user's prompt) `msAgo` before now:
 * a checkpoint run now is run in that turn, and the figure of the turn's answer is the checkpoint's own.
 */
export function turnBegan(sessionId = SID, msAgo = 600_000): string {
  const file = path.join(workspace({}, 'sl-claude-'), `${sessionId}.jsonl`);
  const at = new Date(Date.now() - msAgo).toISOString();
  writeFileSync(
    file,
    `${JSON.stringify({ type: 'user', isSidechain: false, sessionId, message: { role: 'user', content: 'checkpoint, please' }, timestamp: at })}\n`,
  );
  return file;
}

/**
 * A shell command in `cwd` as Claude Code runs one in the project `dir` (the hooks' commands, the user's
 * `!` commands), with `input` on stdin.
 */
export function projectShell(command: string, cwd: string, dir: string, input = '') {
  const r = spawnSync('sh', ['-c', command], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir, CLAUDE_CONFIG_DIR: emptyClaudeHome() },
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The environment Claude Code runs a project's hook or status line in, with a home, a temporary folder and a Claude config folder of its own. */
export function projectEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    // A home of its own, as a user's is: a project is never the home folder.
    HOME: workspace({}, 'sl-home-'),
    TMPDIR: workspace({}, 'sl-tmp-'),
    CLAUDE_CONFIG_DIR: emptyClaudeHome(),
    CLAUDE_PROJECT_DIR: dir,
  };
}

/** Run the CLI with a controlled environment (no real ~/.claude, no project dir of an enclosing session). */
export function run(args: string[], o: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  return cli(args, {
    cwd: o.cwd,
    input: o.input,
    env: {
      CLAUDE_CONFIG_DIR: emptyClaudeHome(),
      CLAUDE_PROJECT_DIR: '',
      SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: '',
      ...o.env,
    },
  });
}

/** Set a file's mtime to `msAgo` milliseconds before now. */
export function age(file: string, msAgo: number): void {
  const t = (Date.now() - msAgo) / 1000;
  utimesSync(file, t, t);
}

/** A Claude Code transcript for `root` under `home` (the context meter's discovery reads it). */
export function transcript(home: string, root: string, sessionId: string): string {
  const dir = path.join(home, 'projects', encoded(root));
  mkdirSync(dir, { recursive: true });
  const f = path.join(dir, `${sessionId}.jsonl`);
  writeFileSync(
    f,
    `${JSON.stringify({ type: 'user', sessionId, cwd: root, message: { role: 'user', content: 'hi' }, uuid: 'u1', timestamp: new Date().toISOString() })}\n`,
  );
  return f;
}

/**
 * S3's workspace with two Claude Code sessions: A (SID), which wrote a minute ago, and B (OTHER_SID),
 * the newer one, which the status bar follows.
 */
export function twoSessions(): { root: string; home: string; A: string; B: string } {
  const root = s3Workspace();
  const home = emptyClaudeHome();
  age(transcript(home, root, SID), 60_000);
  transcript(home, root, OTHER_SID);
  return { root, home, A: SID, B: OTHER_SID };
}

export const CODEX_ID = '019a23c0-8c16-7503-a0c2-5d68a9641469';

/**
 * A Codex CLI rollout of `root` under `codexHome` (its first record names the thread and the folder, the
 * next the user's first message, "wire the export button"), begun a minute ago.
 */
export function rollout(codexHome: string, root: string, id = CODEX_ID): string {
  const day = path.join(codexHome, 'sessions', '2026', '12', '03');
  mkdirSync(day, { recursive: true });
  const f = path.join(day, `rollout-2026-12-03T13-03-18-${id}.jsonl`);
  const at = new Date(Date.now() - 60_000).toISOString();
  writeFileSync(
    f,
    [
      { timestamp: at, type: 'session_meta', payload: { id, cwd: root, originator: 'codex_cli_rs' } },
      { timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: 'wire the export button' } },
    ]
      .map((o) => JSON.stringify(o))
      .join('\n') + '\n',
  );
  return f;
}

export const CODEX_THREAD = '01a24d94-8876-79d1-a088-0f594ba04197';
/** The manual `/compact`'s record and the automatic compaction's, as the client dated them. */
export const CODEX_COMPACTIONS = ['2026-12-06T22:58:30.020Z', '2026-12-06T22:58:30.227Z'];
/**
 * A real Codex CLI 0.171.0 rollout (scripts/test-codex.mjs's app server against the stand-in: a turn,
 * `/compact`, a turn, then a turn past `model_auto_compact_token_limit`, which compacts on its own
 * first), its long texts trimmed and its folder written as /WORKSPACE.
 */
export const CODEX_COMPACTIONS_FIXTURE = path.join(
  REPO,
  'test',
  'fixtures',
  'transcripts',
  'codex-two-compactions.jsonl',
);

/**
 * That rollout (or `text`, lines of it) where Codex keeps it for `root`:
 * `sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl` under `home`, its folder written as `root`.
 */
export function placeCodexRollout(root: string, home = workspace({}, 'sl-codex-'), text?: string) {
  const day = path.join(home, 'sessions', '2026', '12', '06');
  mkdirSync(day, { recursive: true });
  const file = path.join(day, `rollout-2026-12-06T22-58-29-${CODEX_THREAD}.jsonl`);
  const placed = (text ?? readFileSync(CODEX_COMPACTIONS_FIXTURE, 'utf8')).replaceAll('/WORKSPACE', root);
  writeFileSync(file, placed);
  return { home, file, text: placed };
}

/**
 * The command a guard's block prints after the line `head` ('Nothing worth preserving? Run:'; by default
 * the numbered step's `N. Run:`),
 * as printed: that line's rest, then each next line while the one before ends in ` \` (one shell command).
 */
export function blockCommand(reason: string, head: string | RegExp = /^\d\. Run:/): string {
  const lines = reason.split('\n');
  const at = lines.findIndex((l) => (typeof head === 'string' ? l.startsWith(head) : head.test(l)));
  if (at < 0) return '';
  const start = typeof head === 'string' ? head.length : (head.exec(lines[at])?.[0].length ?? 0);
  const out = [lines[at].slice(start)].filter((l) => l.trim());
  for (let i = at + 1; i < lines.length && (out.length === 0 || out.at(-1)!.endsWith(' \\')); i++) out.push(lines[i]);
  return out.join('\n').trim();
}

/**
 * The words of that command after its program (its first line; its first two when it goes to its folder first,
 * `cd DIR && \`), as CLI arguments: `['checkpoint', '--session', …]`.
 */
export function blockArgs(reason: string, head?: string | RegExp): string[] {
  const lines = blockCommand(reason, head).split('\n');
  return lines
    .slice(/^cd .+ && \\$/.test(lines[0]) ? 2 : 1)
    .join(' ')
    .split(/\s+/)
    .filter((w) => w && w !== '\\');
}

/**
 * The installed hook script `rel` of the project `dir` (outside the home folder, a path no shell must quote) as
 * the commands it prints name it: by its absolute path when `node <path>` fits a block's line (70 columns, so
 * an 80-column client screen does not break it), else run from the project's folder.
 */
export function scriptProgram(dir: string, rel = '.claude/hooks/session-ledger.cjs'): string {
  const direct = `node ${path.join(dir, rel)}`;
  return direct.length <= 70 ? direct : `cd ${dir} && node ${rel}`;
}

/** A program as a block's command lines show it (`commandLines`): one that goes to its folder first with its `cd` on a line of its own. */
export function shownProgram(program: string): string {
  return program.replace(/^(cd .+ &&) (node \S+)$/, '$1 \\\n     $2');
}

/** The demo (five systems, ending with /clear and /compact) in a user's world with nothing installed: its own HOME, Claude Code, managed and Codex folders. */
export function demoWorld() {
  const home = workspace({}, 'sl-home-');
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    SESSION_LEDGER_CLAUDE_MANAGED_DIR: workspace({}, 'sl-managed-'),
    CODEX_HOME: workspace({}, 'sl-codex-'),
  };
  return { dir: demoRepo(), env, claudeHome: `${home}/.claude` };
}

/** A checkpoint of session SID with the session's items confirmed in `w`: written. */
export async function writtenIn(w: ReturnType<typeof demoWorld>) {
  const o = await checkpoint(w.dir, { sessionId: SID, confirmed: CONFIRMED, env: w.env, claudeHome: w.claudeHome });
  assert.equal(o.kind, 'written', o.lines.join('\n'));
  return o;
}
