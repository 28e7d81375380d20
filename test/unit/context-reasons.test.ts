/**
 * `session-ledger context` without a figure says why, truly: the other agent's transcript named
 * with `--agent`, a subagent's transcript (whose usage is not the session's context), a tail longer
 * than the backward scan reads with no usage in it. "no usage found yet" only when the whole file
 * was read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CORPUS_SESSIONS, escapeRegExp, workspace } from './helpers';
import { runIn } from './hostile-helpers';
import { asst } from './context-records';

const MB = 1024 * 1024;

/** A workspace and empty agent homes: nothing is found but the transcript named. */
function env(): NodeJS.ProcessEnv {
  return {
    CLAUDE_CONFIG_DIR: workspace({}, 'sl-claude-'),
    CODEX_HOME: workspace({}, 'sl-codex-'),
    HOME: workspace({}, 'sl-home-'),
  };
}

for (const { corpus, claude, codex } of CORPUS_SESSIONS) {
  test(`${corpus}: --agent naming the other agent says whose transcript the file is, not "no usage found yet"`, async () => {
    const root = workspace();
    let r = await runIn(['context', '--root', root, '--agent', 'codex', '--transcript', claude.file], { env: env() });
    assert.equal(r.code, 3);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `session-ledger context: ${claude.file} is a Claude Code transcript, not a Codex CLI rollout: run without --agent codex\n`,
    );
    r = await runIn(['context', '--root', root, '--agent', 'claude', '--transcript', codex.file], { env: env() });
    assert.equal(r.code, 3);
    assert.equal(
      r.stderr,
      `session-ledger context: ${codex.file} is a Codex CLI rollout, not a Claude Code transcript: run without --agent claude\n`,
    );
    // The agent named rightly still gives the figure.
    r = await runIn(['context', '--json', '--root', root, '--agent', 'claude', '--transcript', claude.file], {
      env: env(),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).usedTokens, claude.used);
  });

  test(`${corpus}: a subagent's transcript is named so, with the session's own transcript`, async () => {
    // Claude Code's layout: <project>/<session-id>.jsonl, its subagents in <project>/<session-id>/subagents/.
    const project = workspace({}, 'sl-project-');
    const sub = path.join(project, claude.id, 'subagents', 'agent-a1b2c3d.jsonl');
    mkdirSync(path.dirname(sub), { recursive: true });
    copyFileSync(claude.subagent, sub);
    const main = path.join(project, `${claude.id}.jsonl`);
    const said = `session-ledger context: ${sub} is a subagent's transcript, whose usage is not the session's context:`;
    let r = await runIn(['context', '--root', project, '--transcript', sub], { env: env() });
    assert.equal(r.code, 3);
    assert.equal(r.stderr, `${said} the session's own is ${main}, which is not there\n`);
    copyFileSync(claude.file, main);
    r = await runIn(['context', '--root', project, '--transcript', sub], { env: env() });
    assert.equal(r.code, 3);
    assert.equal(r.stderr, `${said} run with --transcript ${main}\n`);
    r = await runIn(['context', '--json', '--root', project, '--transcript', main], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).usedTokens, claude.used);
    // Named otherwise, outside that layout: its records say it (every one a sidechain's), and the session's
    // own transcript would be beside it.
    r = await runIn(['context', '--root', project, '--transcript', claude.subagent], { env: env() });
    assert.equal(r.code, 3);
    const beside = path.join(path.dirname(claude.subagent), `${claude.id}.jsonl`);
    assert.match(r.stderr, new RegExp(`is a subagent's transcript, .* the session's own is ${escapeRegExp(beside)},`));
  });
}

test('a 1 GB transcript whose last 64 MB hold no usage: the reason names the 64 MB read, not "yet"', async () => {
  const SID = '3b9f6c2e-1d4a-4e8b-9c7f-2a6d5e4f3b1c';
  const file = path.join(workspace({}), `${SID}.jsonl`);
  writeFileSync(file, `${asst({ input: 5, create: 100, read: 90_000, session: SID })}\n`);
  /** A tool result of about `bytes` bytes, its text a hole of the sparse file (nothing written). */
  const filler = (bytes: number) => {
    appendFileSync(file, '{"type":"user","message":{"role":"user","content":"');
    truncateSync(file, statSync(file).size + bytes);
    appendFileSync(file, '"}}\n');
  };
  filler(940 * MB); // one record too large to read (the scan never gets that far)
  for (let i = 0; i < 80; i++) filler(MB); // 80 MB of records after it
  assert.ok(statSync(file).size > 1000 * MB);
  const r = await runIn(['context', '--transcript', file], { env: env() });
  assert.equal(r.code, 3);
  assert.equal(
    r.stderr,
    `session-ledger context: no usage found in the last 64 MB of ${file}, as far back as the meter reads (any usage is older); the agent's next reply will give a figure\n`,
  );
  // --json: the same reason on stderr, and nothing on stdout (exit 3 says there is no figure).
  const j = await runIn(['context', '--json', '--transcript', file], { env: env() });
  assert.equal(j.code, 3);
  assert.equal(j.stdout, '');
  assert.equal(j.stderr, r.stderr);
  // A record too large to read at the end, then the same 64 MB without usage: both are said.
  filler(200 * MB);
  const t = await runIn(['context', '--transcript', file], { env: env() });
  assert.equal(t.code, 3);
  assert.equal(
    t.stderr,
    `session-ledger context: the newest record of ${file} (200 MB) is too large to read, and no usage was found in the 64 MB of records before it, as far back as the meter reads (any usage is older)\n`,
  );
});
