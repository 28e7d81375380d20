/**
 * The first line the user typed in a Codex CLI thread, read from the records each of its ways of running
 * writes: real rollouts of Codex CLI 0.171.0 driven through its app server (what editors drive), `codex
 * exec` and its terminal screen (test/fixtures/transcripts/codex-*.jsonl), none of which writes an
 * `event_msg` `user_message`; and the records of older versions, which do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { firstUserLineOf, recentSessions } from '../../src/core/context/sessions';
import { CORPUS_SESSIONS, workspace } from './helpers';
import { CODEX_COMPACTIONS_FIXTURE, CONFIRM_ALL, emptyClaudeHome, run, s3Workspace } from './checkpoint-fixtures';

const FIXTURES = path.dirname(CODEX_COMPACTIONS_FIXTURE);

/**
 * Real rollouts of Codex CLI 0.171.0 against the Responses stand-in, in a workspace with an AGENTS.md
 * and Session Ledger's hooks installed and trusted; long texts trimmed, the workspace written as
 * /WORKSPACE and the user's home as /HOME. Each holds, before the user's first words, the user-role
 * message of the AGENTS.md instructions and the environment, and the SessionStart hook's context (a
 * developer message).
 */
const ROLLOUTS = {
  /**
   * `codex app-server` (session_meta `source: vscode`): `thread/shellCommand` (`git status --short`,
   * written as a user-role `<user_shell_command>`) before the first turn, whose text is wrapped as
   * Codex's editor extension sends it (the open files, then `## My request for Codex:`), then a second turn.
   */
  appServer: {
    file: path.join(FIXTURES, 'codex-app-server.jsonl'),
    first: 'Add a --json flag to the report command',
  },
  /** `codex exec '<prompt>'` (`source: exec`). */
  exec: {
    file: path.join(FIXTURES, 'codex-exec.jsonl'),
    first: 'Fix the flaky login test in test/login.spec.ts',
  },
  /** The terminal screen, `codex` in a pseudo-terminal, the message typed there (`source: cli`). */
  tui: {
    file: path.join(FIXTURES, 'codex-tui.jsonl'),
    first: "Rename the CSV export's header row to match the API",
  },
};

/** The records of a rollout. */
const records = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const jsonl = (rs: readonly unknown[]) => rs.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** A rollout where Codex keeps it for `root` (`sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`), its folder written as `root`. */
function place(home: string, root: string, file: string): { id: string; file: string } {
  const meta = records(file)[0].payload as { id: string; timestamp: string };
  const day = path.join(home, 'sessions', ...meta.timestamp.slice(0, 10).split('-'));
  mkdirSync(day, { recursive: true });
  const stamp = meta.timestamp.slice(0, 19).replaceAll(':', '-');
  const placed = path.join(day, `rollout-${stamp}-${meta.id}.jsonl`);
  writeFileSync(placed, readFileSync(file, 'utf8').replaceAll('/WORKSPACE', root));
  return { id: meta.id, file: placed };
}

test("Codex CLI 0.171.0 writes no user_message event in any of its ways of running: the user's words are its user-role response_item marked as the user's (provenance user), and the user-role context it adds is marked otherwise", () => {
  for (const [how, { file }] of Object.entries(ROLLOUTS)) {
    const rs = records(file);
    assert.equal((rs[0].payload as { cli_version: string }).cli_version, '0.171.0', how);
    assert.ok(
      !rs.some((r) => r.type === 'event_msg' && (r.payload as { type: string }).type === 'user_message'),
      `${how}: no user_message event`,
    );
    const from = rs
      .filter((r) => r.type === 'response_item' && (r.payload as { role?: string }).role === 'user')
      .flatMap((r) => {
        const p = r.payload as {
          content: Array<{ text: string }>;
          internal_chat_message_metadata_passthrough: {
            content_item_metadata: Array<{ provenance: { type: string } }>;
          };
        };
        return p.content.map((c, i) => [
          p.internal_chat_message_metadata_passthrough.content_item_metadata[i].provenance.type,
          c.text.slice(0, 40),
        ]);
      });
    assert.deepEqual(
      from.filter(([, t]) => /^(# AGENTS\.md|<environment_context>|<user_shell_command>)/.test(t)).map(([p]) => p),
      how === 'appServer' ? ['harness', 'agents_md', 'harness'] : ['agents_md', 'harness'],
      `${how}: the context Codex adds is not marked as the user's`,
    );
  }
});

test("the first line the user typed in a real Codex CLI 0.171.0 thread, from the app server, codex exec and the terminal screen: the user's words, not the AGENTS.md instructions, the environment, a shell command or the hook's context; the request inside the editor extension's wrapper", () => {
  for (const [how, { file, first }] of Object.entries(ROLLOUTS))
    assert.equal(firstUserLineOf(readFileSync(file, 'utf8'), 'codex'), first, how);
  // The rollout of the compaction tests, also the app server's.
  assert.equal(firstUserLineOf(readFileSync(CODEX_COMPACTIONS_FIXTURE, 'utf8'), 'codex'), 'step turn');
});

test('Codex CLI records that mark nothing (older versions): the user_message event, else the first user-role text that does not open as context Codex adds', () => {
  // The same records without their provenance.
  const unmarked = (file: string) =>
    records(file).map((r) => {
      const p = r.payload as Record<string, unknown>;
      if (r.type !== 'response_item' || !p.internal_chat_message_metadata_passthrough) return r;
      const { internal_chat_message_metadata_passthrough: _, ...rest } = p;
      return { ...r, payload: rest };
    });
  for (const [how, { file, first }] of Object.entries(ROLLOUTS))
    assert.equal(firstUserLineOf(jsonl(unmarked(file)), 'codex'), first, how);
  // An unmarked user-role text read before the user_message event (an AGENTS.md of another heading) is not taken.
  const own = CORPUS_SESSIONS[0].codex;
  const text = readFileSync(own.file, 'utf8').replace('# AGENTS.md instructions', 'Project rules');
  assert.equal(firstUserLineOf(text, 'codex'), 'add a --json flag to the report command');
  // The event's text in the editor's wrapper: its request.
  const wrapped = {
    type: 'event_msg',
    payload: {
      type: 'user_message',
      message:
        '# Context from my IDE setup:\n\n## Active file: a.ts\n\n## My request for Codex:\n\n  wire the export button',
    },
  };
  assert.equal(firstUserLineOf(jsonl([wrapped]), 'codex'), 'wire the export button');
  // Each opening of context Codex adds, unmarked, is not the user's.
  const said = (text: string) => ({
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
  });
  for (const text of [
    '<user_instructions>\n\nRun npm test.\n\n</user_instructions>',
    '# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\nRun npm test.\n</INSTRUCTIONS>',
    '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>',
    '<user_shell_command>\n<command>\ngit status\n</command>\n</user_shell_command>',
    '<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>',
    '<skill>\n<name>deploy</name>\n</skill>',
    '<subagent_notification>\n{"agent_id":"a"}\n</subagent_notification>',
    '<hook_prompt hook_run_id="stop:0:/w/.codex/hooks.json">keep going</hook_prompt>',
  ])
    assert.equal(firstUserLineOf(jsonl([said(text), said('the user')]), 'codex'), 'the user', text);
  // Only context: nothing typed yet.
  const context = records(ROLLOUTS.exec.file).filter(
    (r) => !(r.type === 'response_item' && JSON.stringify(r).includes('"provenance":{"type":"user"}')),
  );
  assert.equal(firstUserLineOf(jsonl(context), 'codex'), null);
  assert.equal(
    firstUserLineOf(
      jsonl(unmarked(ROLLOUTS.appServer.file).filter((r) => !JSON.stringify(r).includes('My request for Codex'))),
      'codex',
    ),
    'Now document the flag in the README',
  );
});

test('two live Codex CLI threads of the folder, one from the app server and one from the terminal screen: checkpoint without --session lists each with the first line its user typed', async () => {
  const dir = s3Workspace();
  const codexHome = workspace({}, 'sl-codex-');
  const a = place(codexHome, dir, ROLLOUTS.appServer.file);
  const b = place(codexHome, dir, ROLLOUTS.tui.file);
  const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome(), CODEX_HOME: codexHome };
  const r = run(['checkpoint', '--root', dir, ...CONFIRM_ALL], { env });
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /2 agent sessions of this folder wrote within the last 30 minutes/);
  assert.match(r.stderr, new RegExp(`${a.id} {2}Codex CLI, last write just now: "${ROLLOUTS.appServer.first}"`));
  assert.match(r.stderr, new RegExp(`${b.id} {2}Codex CLI, last write just now: "${ROLLOUTS.tui.first}"`));
  assert.ok(!r.stderr.includes('(no user message yet)'), r.stderr);
  const listed = await recentSessions(dir, { codexHome, claudeHome: emptyClaudeHome() });
  assert.deepEqual(listed.map((s) => [s.sessionId, s.firstUserLine]).sort(), [
    [a.id, ROLLOUTS.appServer.first],
    [b.id, ROLLOUTS.tui.first],
  ]);
});

test("a line no Codex record marks as the user's is not kept: once the user_message event is written, the session list shows its words", async () => {
  const dir = workspace();
  const codexHome = workspace({}, 'sl-codex-');
  const own = CORPUS_SESSIONS[0].codex;
  // An older version's thread before the user typed: its AGENTS.md text, opening with a heading not known as Codex's.
  const lines = readFileSync(own.file, 'utf8').replace('# AGENTS.md instructions', 'Project rules').split('\n');
  const at = lines.findIndex((l) => l.includes('"task_started"'));
  const file = path.join(codexHome, 'sessions', '2026', '03', '06', path.basename(own.file).replace(/^.*__/, ''));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.slice(0, at).join('\n').replaceAll(own.cwd, dir) + '\n');
  const line = async () => (await recentSessions(dir, { codexHome, claudeHome: emptyClaudeHome() }))[0]?.firstUserLine;
  assert.equal(await line(), 'Project rules');
  writeFileSync(file, lines.join('\n').replaceAll(own.cwd, dir));
  assert.equal(await line(), 'add a --json flag to the report command');
  // A marked line is kept: the same path read again gives it without the head being read.
  writeFileSync(file, lines.slice(0, at).join('\n').replaceAll(own.cwd, dir) + '\n');
  assert.equal(await line(), 'add a --json flag to the report command');
});
