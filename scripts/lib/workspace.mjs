// Lays out a real workspace for the real-VS-Code tests and the demo: a copy of a template folder
// (all five checkpoint systems), a real git repository with its history, and a Claude Code home
// whose projects/<encoded workspace path>/<session-id>.jsonl transcript belongs to that workspace.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
  appendFileSync,
  existsSync,
  utimesSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
/** The fixture workspace of the real-VS-Code tests (all five systems). */
export const FIXTURE = join(REPO, 'test', 'fixtures', 'e2e-workspace');

export const SESSION_ID = '5b0c2f8e-7a41-4d2c-9b3e-1f6a8d2c4e71';
export const OLD_SESSION_ID = '0d9e6c11-3f0a-4b8e-8a55-2c7d41b9e0a3';
export const MODEL = 'claude-sonnet-4-5-20250929';
export const WINDOW = 200_000;

/** Claude Code's project folder name: every non-alphanumeric character of the path becomes '-'. */
export const encodeProjectDir = (absPath) => absPath.replace(/[^a-zA-Z0-9]/g, '-');

function git(cwd, args, { date } = {}) {
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Ada Librarian',
    GIT_AUTHOR_EMAIL: 'ada@shelf.invalid',
    GIT_COMMITTER_NAME: 'Ada Librarian',
    GIT_COMMITTER_EMAIL: 'ada@shelf.invalid',
  };
  if (date) {
    env.GIT_AUTHOR_DATE = date;
    env.GIT_COMMITTER_DATE = date;
  }
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/**
 * Copy `template` to `dest` and make it a git repository whose last code commit is an hour old and
 * whose state files were written after it (as an agent leaves them), so `fresh` passes. The S3
 * handoff's `{{HEAD}}` becomes the code commit, and the handoff commit touches docs/state/ only.
 * The S1 attestation sidecar is recomputed from the handoff's bytes.
 */
export function prepareWorkspace(template, dest) {
  mkdirSync(dest, { recursive: true });
  cpSync(template, dest, { recursive: true });
  const ws = realpathSync(dest);
  attestS1(ws);
  writeFileSync(join(ws, '.gitignore'), 'node_modules/\n.claude/.checkpoint-ready*\n.claude/settings.local.json\n');
  const hour = new Date(Date.now() - 3600_000).toISOString();
  const later = new Date(Date.now() - 3000_000).toISOString();
  git(ws, ['init', '-q']);
  git(ws, ['add', '-A']);
  git(ws, ['commit', '-q', '-m', 'shelf: loans, overdue scan, reminder outbox'], { date: hour });
  const state = join(ws, 'docs', 'state', 'STATE.md');
  if (existsSync(state) && readFileSync(state, 'utf8').includes('{{HEAD}}')) {
    const head = git(ws, ['rev-parse', '--short=7', 'HEAD']);
    writeFileSync(state, readFileSync(state, 'utf8').replaceAll('{{HEAD}}', head));
    git(ws, ['add', 'docs/state/STATE.md']);
    git(ws, ['commit', '-q', '-m', 'state: handoff'], { date: later });
  }
  // everything on disk is newer than the last commit (the agent wrote the state files after it)
  return ws;
}

/** Rewrite memory/.session-handoff.sha256 so it matches the handoff (S1 attestation: MATCH). */
export function attestS1(ws) {
  const handoff = join(ws, 'memory', 'session-handoff-LATEST.md');
  if (!existsSync(handoff)) return;
  const sha = createHash('sha256').update(readFileSync(handoff)).digest('hex');
  writeFileSync(join(ws, 'memory', '.session-handoff.sha256'), sha);
}

let clock = Date.parse('2026-12-01T15:00:00Z');
const tick = () => new Date((clock += 7_000)).toISOString();

function userRecord(ws, sessionId, text, parentUuid) {
  return {
    parentUuid,
    isSidechain: false,
    userType: 'external',
    cwd: ws,
    sessionId,
    version: '2.0.14',
    gitBranch: 'main',
    type: 'user',
    message: { role: 'user', content: text },
    uuid: randomUUID(),
    timestamp: tick(),
  };
}

/** An assistant turn; Claude Code repeats the usage on every content block of one message id. */
function assistantRecords(ws, sessionId, text, used, parentUuid, { sidechain = false, blocks = 2 } = {}) {
  const id = `msg_01${randomUUID().replace(/-/g, '').slice(0, 22)}`;
  const cacheRead = Math.floor(used * 0.8);
  const cacheCreate = Math.floor(used * 0.15);
  const input = used - cacheRead - cacheCreate;
  const usage = {
    input_tokens: input,
    cache_creation_input_tokens: cacheCreate,
    cache_read_input_tokens: cacheRead,
    output_tokens: 240,
    service_tier: 'standard',
  };
  const out = [];
  let parent = parentUuid;
  for (let b = 0; b < blocks; b++) {
    const content =
      b === 0
        ? [{ type: 'text', text }]
        : [
            {
              type: 'tool_use',
              id: `toolu_${randomUUID().slice(0, 8)}`,
              name: 'Read',
              input: { file_path: join(ws, 'README.md') },
            },
          ];
    const rec = {
      parentUuid: parent,
      isSidechain: sidechain,
      userType: 'external',
      cwd: ws,
      sessionId,
      version: '2.0.14',
      gitBranch: 'main',
      message: {
        model: MODEL,
        id,
        type: 'message',
        role: 'assistant',
        content,
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
      requestId: `req_${randomUUID().slice(0, 12)}`,
      type: 'assistant',
      uuid: randomUUID(),
      timestamp: tick(),
    };
    parent = rec.uuid;
    out.push(rec);
  }
  return out;
}

/** The JSONL lines of a conversation whose last main-chain usage is `finalUsed` tokens. */
export function conversation(ws, sessionId, finalUsed, turns = 6, prompts = SHELF_PROMPTS) {
  const lines = [];
  let parent = null;
  for (let i = 0; i < turns; i++) {
    const u = userRecord(ws, sessionId, prompts[i % prompts.length], parent);
    lines.push(u);
    const used = Math.round(finalUsed * ((i + 1) / turns));
    const recs = assistantRecords(ws, sessionId, `Working on it (step ${i + 1}).`, used, u.uuid);
    lines.push(...recs);
    parent = recs[recs.length - 1].uuid;
    if (i === 2) {
      // a subagent's records are in the same file but are not the main chain: never counted
      lines.push(
        ...assistantRecords(ws, sessionId, 'Subagent: searching the code base.', WINDOW - 1000, parent, {
          sidechain: true,
          blocks: 1,
        }),
      );
    }
  }
  return lines;
}

const SHELF_PROMPTS = [
  'Add renewals: a member may renew a loan once unless someone reserved the book.',
  'Run the tests.',
  'Why does the overdue test fail in New York time?',
  'Update the session ledger with what we decided.',
  'Now the reservation queue: FIFO per book.',
  'Checkpoint the session state, I want to compact soon.',
];

/**
 * A Claude Code home with a transcript taken from a file (the demo's examples/demo-transcript.jsonl):
 * the placeholder path and every `cwd` become `ws`, so the transcript belongs to that workspace. With
 * `now` (ms), the session runs now: every record's time moves by one amount so the last is `now` (the
 * gaps between them kept), and the file was last written then; without it, the file's times are kept.
 */
export function claudeHomeFromTranscript(
  home,
  ws,
  transcriptFile,
  { placeholder = '/path/to/demo-workspace', now } = {},
) {
  const text = readFileSync(transcriptFile, 'utf8').replaceAll(placeholder, JSON.stringify(ws).slice(1, -1));
  const records = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => ({ ...JSON.parse(l), cwd: ws }));
  const sessionId = records[0].sessionId;
  const projectDir = join(home, 'projects', encodeProjectDir(ws));
  mkdirSync(projectDir, { recursive: true });
  const transcript = join(projectDir, `${sessionId}.jsonl`);
  const times = records.map((r) => Date.parse(r.timestamp)).filter(Number.isFinite);
  const shift = now === undefined || !times.length ? 0 : now - Math.max(...times);
  const moved = (r) =>
    shift && Number.isFinite(Date.parse(r.timestamp))
      ? { ...r, timestamp: new Date(Date.parse(r.timestamp) + shift).toISOString() }
      : r;
  writeFileSync(transcript, records.map((r) => JSON.stringify(moved(r))).join('\n') + '\n');
  if (now !== undefined) utimesSync(transcript, new Date(now), new Date(now));
  return { home, transcript, sessionId, projectDir };
}

/**
 * A Claude Code home (CLAUDE_CONFIG_DIR) for workspace `ws`: an older session's transcript and the
 * current one (SESSION_ID, newest), whose last main-chain usage is `percent` of a 200k window.
 * Returns { home, transcript, sessionId, projectDir }.
 */
export function writeClaudeHome(home, ws, { percent = 10, sessionId = SESSION_ID } = {}) {
  const projectDir = join(home, 'projects', encodeProjectDir(ws));
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(join(home, 'settings.json'), '{}\n');
  const old = join(projectDir, `${OLD_SESSION_ID}.jsonl`);
  writeFileSync(
    old,
    conversation(ws, OLD_SESSION_ID, Math.round(WINDOW * 0.9), 3)
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  const twoDaysAgo = new Date(Date.now() - 2 * 86400_000);
  utimesSync(old, twoDaysAgo, twoDaysAgo);
  const transcript = join(projectDir, `${sessionId}.jsonl`);
  writeFileSync(
    transcript,
    conversation(ws, sessionId, Math.round((WINDOW * percent) / 100))
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  return { home, transcript, sessionId, projectDir };
}

/** Append one user turn and one assistant turn that brings the session's usage to `percent`. */
export function appendTurn(
  transcript,
  ws,
  percent,
  { sessionId = SESSION_ID, text = 'Continuing with the reservation queue.' } = {},
) {
  const u = userRecord(ws, sessionId, 'Go on.', null);
  const recs = assistantRecords(ws, sessionId, text, Math.round((WINDOW * percent) / 100), u.uuid);
  appendFileSync(transcript, [u, ...recs].map((r) => JSON.stringify(r)).join('\n') + '\n');
}

/** The integration tests' world in `run`: the fixture as a git workspace (`shelf/`) and its Claude Code home (`claude/`). */
export function integrationFixture(run, percent = 10) {
  const ws = prepareWorkspace(FIXTURE, join(run, 'shelf'));
  const claude = writeClaudeHome(join(run, 'claude'), ws, { percent });
  return { ws, claude };
}

/**
 * The demo `npm start` opens, in `run`: examples/demo-workspace as a git workspace (`tidewatch/`, kept
 * between starts unless `fresh`) and a Claude Code home (`claude/`) holding the demo transcript, written
 * anew at each start as a session that runs now (its last record and its file's times: now), so the
 * status bar shows a current figure, never one days old. The tests and benches keep their fixed clock.
 */
export function prepareDemo(run, { fresh = false } = {}) {
  if (fresh) rmSync(run, { recursive: true, force: true });
  mkdirSync(run, { recursive: true });
  const wsDir = join(run, 'tidewatch');
  const ws = existsSync(join(wsDir, '.git'))
    ? realpathSync(wsDir)
    : prepareWorkspace(join(REPO, 'examples', 'demo-workspace'), wsDir);
  const claude = claudeHomeFromTranscript(join(run, 'claude'), ws, join(REPO, 'examples', 'demo-transcript.jsonl'), {
    now: Date.now(),
  });
  return { ws, claude };
}
