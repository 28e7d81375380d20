/** `session-ledger context` as a real process. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { encodeClaudeProjectDir } from '../../src/core/context';
import { FACTS } from '../../src/core/systems/facts';
import { cli, copyDemo, CORPUS_SESSIONS, LOCALE_LANGS, locale, workspace, write } from './helpers';
import { asst, codexCount, codexMeta, codexTurn, lines, ofFolder } from './context-records';

const SID = '258c7280-ae70-4798-800f-63464d01a85d';
const XID = '019c8a70-dda7-7f33-98ea-f30553347322';

function homes(root: string, claude: string | null, codex: string | null) {
  const ch = workspace({}, 'sl-claude-');
  const xh = workspace({}, 'sl-codex-');
  if (claude !== null)
    write(path.join(ch, 'projects', encodeClaudeProjectDir(root)), `${SID}.jsonl`, ofFolder(claude, root));
  if (codex !== null) write(xh, `sessions/2026/02/23/rollout-2026-02-23T13-19-38-${XID}.jsonl`, codex);
  return { CLAUDE_CONFIG_DIR: ch, CODEX_HOME: xh, HOME: workspace({}, 'sl-home-') };
}

test('context --json: the figure, thresholds and level of the one session found', () => {
  const root = workspace();
  const env = homes(
    root,
    lines(asst({ input: 10, create: 90, read: 99900, model: 'claude-opus-4-6', session: SID })),
    null,
  );
  const r = cli(['context', '--json', '--root', root], { env });
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(Array.isArray(j), false);
  assert.equal(j.agent, 'claude');
  assert.equal(j.sessionId, SID);
  assert.equal(j.usedTokens, 100000);
  assert.equal(j.windowTokens, 200000);
  assert.equal(j.percent, 50);
  assert.equal(j.source, 'transcript');
  assert.equal(j.afterCompaction, false);
  assert.equal(
    j.transcriptPath,
    path.join(env.CLAUDE_CONFIG_DIR, 'projects', encodeClaudeProjectDir(root), `${SID}.jsonl`),
  );
  assert.deepEqual(j.thresholds, { profile: 'default', propose: 60, urgent: 80 });
  assert.equal(j.level, 'ok');
  // Text output: one line.
  const t = cli(['context', '--root', root], { env });
  assert.equal(t.code, 0);
  assert.match(t.stdout, /^Claude Code 50% · 100k of 200k tokens · ok \(default: 60%\/80%, no system here\) · /);
  // cwd is the default root.
  assert.equal(JSON.parse(cli(['context', '--json'], { env, cwd: root }).stdout).usedTokens, 100000);
});

test('context --json: an array when both agents have a session; --agent picks one', () => {
  const root = workspace();
  const env = homes(
    root,
    lines(asst({ read: 1000, input: 0 })),
    lines(codexMeta(XID, root), codexTurn('gpt-5.3-codex'), codexCount(34900)),
  );
  const r = cli(['context', '--json', '--root', root], { env });
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.ok(Array.isArray(j));
  assert.deepEqual(j.map((u: { agent: string }) => u.agent).sort(), ['claude', 'codex']);
  const x = j.find((u: { agent: string }) => u.agent === 'codex');
  assert.equal(x.usedTokens, 34900);
  assert.equal(x.percent, 13.51);
  assert.equal(x.sessionId, XID);
  assert.equal(x.level, 'ok');
  const only = JSON.parse(cli(['context', '--json', '--root', root, '--agent', 'codex'], { env }).stdout);
  assert.equal(only.agent, 'codex');
});

test('the level follows the detected system', () => {
  const s3 = FACTS.S3;
  const root = workspace({ 'docs/state/STATE.md': '# STATE\n\n## Handoff\n\nNow ▶ write the parser tests\n' });
  // 45 % of the window: past S3's urgent cue when S3 is 15/40.
  const env = homes(root, lines(asst({ read: 90000, input: 0 })), null);
  const j = JSON.parse(cli(['context', '--json', '--root', root], { env }).stdout);
  assert.equal(j.thresholds.profile, 'S3');
  assert.equal(j.thresholds.propose, s3.thresholds.propose);
  assert.equal(
    j.level,
    s3.thresholds.urgent !== null && 45 >= s3.thresholds.urgent
      ? 'urgent'
      : 45 >= s3.thresholds.propose
        ? 'propose'
        : 'ok',
  );
});

test('context says whose marks it reads the level against and why, in one line, as the status line takes them: the one system here, the earliest of several; its level and those words in ja and ko', () => {
  const marks = (root: string, env: NodeJS.ProcessEnv = {}) => {
    const r = cli(['context', '--root', root], {
      env: { ...homes(root, lines(asst({ read: 20000, input: 0 })), null), ...env },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trimEnd().split('\n').length, 1, r.stdout);
    return r.stdout.split(' · ')[2];
  };
  // 10 % of the window, under every mark.
  const s3 = workspace({ 'docs/state/STATE.md': '# STATE\n\n## Handoff\n\nNow ▶ write the parser tests\n' });
  assert.equal(marks(s3), 'ok (S3: 15%/40%, the one system here)');
  // All five systems: S3's marks come first of theirs.
  const demo = workspace({});
  copyDemo(demo);
  assert.equal(marks(demo), 'ok (S3: 15%/40%, the earliest of the 5 systems here)');
  const none = workspace({});
  assert.equal(marks(none), 'ok (default: 60%/80%, no system here)');
  for (const [lang, tr, script] of LOCALE_LANGS) {
    assert.equal(
      marks(demo, locale(lang)),
      `${tr('ok')} (${tr('{0}: {1}, the earliest of the {2} systems here', 'S3', '15%/40%', '5')})`,
    );
    assert.equal(marks(s3, locale(lang)), `${tr('ok')} (${tr('{0}: {1}, the one system here', 'S3', '15%/40%')})`);
    const said = marks(none, locale(lang)) ?? '';
    assert.equal(said, `${tr('ok')} (${tr('default: {0}, no system here', '60%/80%')})`);
    // In the language's own script, the level word too (an entry missing from the bundle would say it in English).
    assert.match(tr('ok'), script, lang);
    assert.match(said.replace(tr('ok'), ''), script, lang);
  }
});

test('exit 3 with the reason, where it looked and what to do when no session (or no usage) is found; 2 for bad usage', () => {
  const root = workspace();
  const env = homes(root, null, null);
  let r = cli(['context', '--root', root], { env });
  assert.equal(r.code, 3);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /^session-ledger context: no Claude Code or Codex CLI session found for .+\nLooked in .+projects\/.+ and .+sessions\/\. Name a transcript with --transcript FILE, or set CLAUDE_CONFIG_DIR \(Claude Code\) or CODEX_HOME \(Codex CLI\) when the agent keeps its sessions elsewhere\.\n$/,
  );
  r = cli(['context', '--json', '--root', root, '--agent', 'codex'], { env });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /no Codex CLI session found/);
  const env2 = homes(root, '', null);
  r = cli(['context', '--root', root], { env: env2 });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /no usage found yet in .+\.jsonl/);
  assert.equal(cli(['context', '--agent', 'gemini', '--root', root], { env }).code, 2);
  assert.equal(cli(['context', '--bogus'], { env }).code, 2);
  assert.equal(cli(['context', '--root', path.join(root, 'missing')], { env }).code, 2);
  r = cli(['context', '--transcript', path.join(root, 'nope.jsonl'), '--root', root], { env });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /transcript not found/);
});

for (const { corpus, claude, codex } of CORPUS_SESSIONS)
  test(`${corpus}: context --transcript recognises the agent from the content`, () => {
    const root = workspace();
    const env = homes(root, null, null);
    let j = JSON.parse(cli(['context', '--json', '--root', root, '--transcript', codex.file], { env }).stdout);
    assert.deepEqual([j.agent, j.usedTokens, j.windowTokens], ['codex', codex.used, 258400]);
    j = JSON.parse(cli(['context', '--json', '--root', root, '--transcript', claude.file], { env }).stdout);
    assert.deepEqual([j.agent, j.usedTokens, j.sessionId], ['claude', claude.used, claude.id]);
    const sub = cli(['context', '--root', root, '--transcript', claude.subagent], { env });
    assert.equal(sub.code, 3, 'a subagent transcript has only sidechain records');
  });
