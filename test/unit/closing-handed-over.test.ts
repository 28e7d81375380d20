/**
 * S3's and S0's closing step after a checkpoint: where the SessionStart hook runs for the session's client,
 * it hands the agent the resume block after /clear, so the step says so and asks no paste (S3) or reload
 * (S0) of the user; where it does not run, the step keeps the paste and the reload. S3's prompt stays in
 * its code block either way. Real files: a temp HOME, Claude Code's folder and the managed folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardRuns } from '../../src/core/hooks/guard-runs';
import { outcomeMessage } from '../../src/extension/pure/checkpoint-text';
import { quoted } from '../../src/extension/pure/findings';
import { cli, enT, HOOK_SCRIPT, jaT, koT, write } from './helpers';
import { demoWorld, writtenIn } from './checkpoint-fixtures';

const PASTE =
  'S3: Handoff docs/state/STATE.md checked. Start a fresh session with /clear, then paste the resume prompt.';
const HANDED =
  'S3: Handoff docs/state/STATE.md checked. Start a fresh session with /clear: the SessionStart hook hands the agent the resume prompt, no need to paste it.';
const RELOAD = 'Run /clear, then reload the ledger: /clear + ledger reload is preferred over repeated /compact.';
const RELOADED =
  'Run /clear: the SessionStart hook has the agent reload the ledger. /clear + ledger reload is preferred over repeated /compact.';

test('no SessionStart hook: S3 says to paste the resume prompt and S0 to reload the ledger', async () => {
  const w = demoWorld();
  assert.equal(await guardRuns(w.dir, { env: w.env, claudeHome: w.claudeHome, event: 'SessionStart' }), false);
  const o = await writtenIn(w);
  const full = quoted(outcomeMessage(o, enT).full);
  assert.ok(full.includes(PASTE), full);
  assert.ok(full.includes(RELOAD), full);
  assert.ok(!full.includes('SessionStart'), full);
});

test("the SessionStart hook installed: S3 says it hands the prompt over, S0 that it has the ledger reloaded; the CLI keeps S3's prompt in its code block; Claude Code told to run no hooks: the paste again", async () => {
  const w = demoWorld();
  const r = cli(['hooks', 'install', '--root', w.dir, '--cli-bundle', HOOK_SCRIPT], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    await guardRuns(w.dir, { agent: 'claude', env: w.env, claudeHome: w.claudeHome, event: 'SessionStart' }),
    true,
  );
  const o = await writtenIn(w);
  const full = quoted(outcomeMessage(o, enT).full);
  assert.ok(full.includes(HANDED), full);
  assert.ok(full.includes(RELOADED), full);
  assert.ok(!full.includes('paste the resume prompt'), full);
  // The CLI: S3's block still ends with its prompt in a code block (for a client that does not hand it over).
  const lines = o.lines.join('\n');
  assert.ok(lines.includes(HANDED.slice('S3: '.length)), lines);
  assert.match(lines, /\n {2}```\n {2}Read docs\/state\/STATE\.md and continue from the Now ▶ action\.\n {2}```/);
  assert.match(
    lines,
    /Run \/clear: the SessionStart hook has the agent reload the ledger \(\.agents\/session_ledger\.md\)\./,
  );
  // In Japanese and Korean, in words of their own.
  assert.match(
    quoted(outcomeMessage(o, jaT).full),
    /SessionStart フックが再開プロンプトをエージェントに渡すので、貼り付けは不要です/,
  );
  assert.match(
    quoted(outcomeMessage(o, koT).full),
    /SessionStart 훅이 재개 프롬프트를 에이전트에게 넘겨주므로 붙여 넣을 필요가 없습니다/,
  );
  // disableAllHooks: Claude Code runs neither hook, so the paste is the user's again.
  write(w.dir, '.claude/settings.local.json', '{ "disableAllHooks": true }\n');
  const off = quoted(outcomeMessage(await writtenIn(w), enT).full);
  assert.ok(off.includes(PASTE), off);
  assert.ok(off.includes(RELOAD), off);
});
