/**
 * `status` and `check` say whether /compact is guarded, for the session a checkpoint run now would take:
 * the guard not installed, Claude Code's own settings stopping it, the guard's verdict on a manual
 * /compact (the same decision the hook makes), several sessions running. On real files: a git workspace,
 * a Claude Code config folder with the session's transcript, the hooks installed by `hooks install`, a
 * marker written by `checkpoint`, the hook run as Claude Code runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { filesUnder, hookScript, HOOK_SCRIPT, jaT, koT, locale, rewrite, workspace, write } from './helpers';
import { age, CONFIRM_ALL, OTHER_SID, run, s3Workspace, SID, transcript } from './checkpoint-fixtures';

const NOT_INSTALLED = '/compact is not guarded: the guard hook is not installed in this folder (run {0}).';
const STOPPED = '/compact would be stopped by the guard: {0}.';
const PASSES = '/compact would pass the guard: {0}.';

/** S3's workspace with one live Claude Code session (SID) in its own config folder; no Codex home, no managed settings. */
function oneSession() {
  const root = s3Workspace();
  const home = workspace({}, 'sl-claude-');
  transcript(home, root, SID);
  const env: NodeJS.ProcessEnv = {
    CLAUDE_CONFIG_DIR: home,
    CODEX_HOME: workspace({}, 'sl-codex-'),
    HOME: workspace({}, 'sl-home-'),
    SESSION_LEDGER_CLAUDE_MANAGED_DIR: workspace({}, 'sl-managed-'),
  };
  return { root, home, env };
}

function install(root: string, env: NodeJS.ProcessEnv): void {
  const r = run(['hooks', 'install', '--root', root, '--cli-bundle', HOOK_SCRIPT], { env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
}

/** The last line of `status` and of `check` (which prints it right after its overall line), and `status --json`'s `guard`. */
function guardSaid(root: string, env: NodeJS.ProcessEnv) {
  const s = run(['status', '--root', root], { env });
  assert.equal(s.code, 0, s.stderr);
  const c = run(['check', '--root', root], { env });
  const lines = c.stdout.trimEnd().split('\n');
  assert.match(lines[lines.length - 2], /^Overall: /, c.stdout);
  const status = s.stdout.trimEnd().split('\n').pop();
  assert.equal(lines[lines.length - 1], status, 'check says what status says');
  const j = run(['status', '--root', root, '--json'], { env });
  assert.equal(j.code, 0, j.stderr);
  const guard = (JSON.parse(j.stdout) as { guard: Record<string, unknown> }).guard;
  const cj = JSON.parse(run(['check', '--root', root, '--json'], { env }).stdout) as { guard: unknown };
  assert.deepEqual(cj.guard, guard, "check --json's guard is status --json's");
  assert.equal(guard.message, status, 'the JSON carries the same sentence');
  return { line: status as string, guard };
}

test('status and check: the guard not installed says /compact is not guarded and the command that installs it', () => {
  const { root, env } = oneSession();
  const { line, guard } = guardSaid(root, env);
  assert.equal(line, NOT_INSTALLED.replace('{0}', 'session-ledger hooks install'));
  assert.equal(guard.installed, false);
  assert.deepEqual(guard.installedFor, { claude: false, codex: false });
  assert.equal(guard.sessionId, SID);
  assert.equal(guard.agent, 'claude');
});

test('status and check: installed and no checkpoint, the guard would stop /compact, as the hook itself does', () => {
  const { root, env } = oneSession();
  install(root, env);
  const { line, guard } = guardSaid(root, env);
  assert.equal(line, STOPPED.replace('{0}', 'no checkpoint in this session'));
  assert.deepEqual([guard.installed, guard.stopped, guard.allow, guard.rule], [true, null, false, 'no-marker']);
  // The hook, run as Claude Code runs it for that session, blocks.
  const input = JSON.stringify({ session_id: SID, cwd: root, hook_event_name: 'PreCompact', trigger: 'manual' });
  const h = hookScript('.claude/hooks/session-ledger.cjs', ['hook', 'pre-compact'], { cwd: root, input, env });
  assert.equal(h.code, 2, h.stderr);
});

test("status and check: after a real checkpoint the guard would let /compact through on the session's marker; status reads, writes nothing", () => {
  const { root, env } = oneSession();
  install(root, env);
  const c = run(['checkpoint', '--root', root, ...CONFIRM_ALL], { env });
  assert.equal(c.code, 0, c.stdout + c.stderr);
  // Every file of the workspace but git's own (git refreshes its index when status runs it), with its time.
  const files = () =>
    new Map(
      filesUnder(root)
        .filter((f) => !f.includes(`${path.sep}.git${path.sep}`))
        .map((f) => [f, statSync(f).mtimeMs]),
    );
  const before = files();
  const { line, guard } = guardSaid(root, env);
  assert.match(
    line,
    new RegExp(
      `^${PASSES.replace('{0}', '(a fresh checkpoint marker|no work since the checkpoint)')}$`.replace(/[/]/g, '\\/'),
    ),
  );
  assert.equal(guard.allow, true);
  assert.equal(guard.marker, `.claude/.checkpoint-ready.${SID}`);
  // Read-only: no file written, no hook log line.
  assert.deepEqual(files(), before);
  // The installed hook script's `status` runs the same code and says the same.
  const h = hookScript('.claude/hooks/session-ledger.cjs', ['status'], { cwd: root, env });
  assert.equal(h.code, 0, h.stderr);
  assert.equal(h.stdout.trimEnd().split('\n').pop(), line);
});

test("status and check: disableAllHooks true in Claude Code's settings stops the installed guard, and they say which file", () => {
  const { root, env } = oneSession();
  install(root, env);
  write(root, '.claude/settings.local.json', '{ "disableAllHooks": true }\n');
  const { line, guard } = guardSaid(root, env);
  assert.equal(
    line,
    '/compact is not guarded: disableAllHooks is true in .claude/settings.local.json, so Claude Code runs no hooks; remove it to let the guard run.',
  );
  assert.deepEqual(guard.stopped, { file: '.claude/settings.local.json', setting: 'disableAllHooks', managed: false });
  assert.equal(guard.installed, true);
});

test('status and check: a comment in the settings file that holds the guard makes Claude Code skip it: not guarded', () => {
  const { root, env } = oneSession();
  install(root, env);
  rewrite(root, '.claude/settings.json', (t) => `// the project's hooks\n${t}`);
  const { line, guard } = guardSaid(root, env);
  assert.match(
    line,
    /^\/compact is not guarded: Claude Code skips \.claude\/settings\.json, which holds the guard, because it is not strict JSON/,
  );
  assert.deepEqual(guard.stopped, { file: '.claude/settings.json', setting: 'notJson', managed: false });
});

test("status and check: with several sessions running none is meant, so they give each one's verdict under its id, as the hook decides it", () => {
  const { root, home, env } = oneSession();
  age(path.join(home, 'projects', root.replace(/[^a-zA-Z0-9]/g, '-'), `${SID}.jsonl`), 60_000);
  transcript(home, root, OTHER_SID);
  install(root, env);
  // One of them checkpointed, named as the refusal asks; the other not.
  const c = run(['checkpoint', '--root', root, '--session', SID, ...CONFIRM_ALL], { env });
  assert.equal(c.code, 0, c.stdout + c.stderr);
  const SEVERAL =
    '/compact is guarded: 2 sessions run in this folder now, and the guard decides for each by its own checkpoint:';
  const pass = new RegExp(
    `^  ${SID}  ${PASSES.replace('{0}', '(a fresh checkpoint marker|no work since the checkpoint)')}$`.replace(
      /[/]/g,
      '\\/',
    ),
  );
  const stop = `  ${OTHER_SID}  ${STOPPED.replace('{0}', 'no checkpoint in this session')}`;
  const s = run(['status', '--root', root], { env });
  const tail = s.stdout.trimEnd().split('\n').slice(-3);
  assert.equal(tail[0], SEVERAL, s.stdout);
  // Newest first, as checkpoint's own refusal names them: the same sessions, in the same order.
  assert.equal(tail[1], stop);
  assert.match(tail[2], pass);
  const refused = run(['checkpoint', '--root', root], { env });
  assert.notEqual(refused.code, 0);
  assert.deepEqual(
    [...(refused.stdout + refused.stderr).matchAll(/^ {2}([0-9a-f-]{36}) {2}/gm)].map((m) => m[1]),
    [OTHER_SID, SID],
    refused.stdout + refused.stderr,
  );
  const k = run(['check', '--root', root], { env });
  assert.deepEqual(k.stdout.trimEnd().split('\n').slice(-3), tail, 'check says what status says');
  // --json: the sentence, and each session's verdict (English, with its id and arguments).
  for (const cmd of ['status', 'check']) {
    const guard = (
      JSON.parse(run([cmd, '--root', root, '--json'], { env }).stdout) as { guard: Record<string, unknown> }
    ).guard;
    assert.deepEqual(
      [guard.several, guard.allow, guard.rule, guard.sessionId, guard.message],
      [2, null, null, null, SEVERAL],
    );
    const each = guard.sessions as Array<Record<string, unknown>>;
    assert.deepEqual(
      each.map((x) => [x.agent, x.sessionId, x.allow, x.rule, x.marker, x.messageId]),
      [
        ['claude', OTHER_SID, false, 'no-marker', null, STOPPED],
        ['claude', SID, true, each[1].rule, `.claude/.checkpoint-ready.${SID}`, PASSES],
      ],
    );
    assert.equal(`  ${OTHER_SID}  ${String(each[0].message)}`, stop);
  }
  // The hook, run as Claude Code runs it for each session, decides the same.
  for (const [sid, code] of [
    [OTHER_SID, 2],
    [SID, 0],
  ] as const) {
    const input = JSON.stringify({ session_id: sid, cwd: root, hook_event_name: 'PreCompact', trigger: 'manual' });
    const h = hookScript('.claude/hooks/session-ledger.cjs', ['hook', 'pre-compact'], { cwd: root, input, env });
    assert.equal(h.code, code, `${sid}: ${h.stderr}`);
  }
  // In Japanese and Korean, in the words of the single verdict.
  for (const [lang, tr] of [
    ['ja_JP.UTF-8', jaT],
    ['ko_KR.UTF-8', koT],
  ] as const) {
    const said = run(['status', '--root', root], { env: { ...env, ...locale(lang) } })
      .stdout.trimEnd()
      .split('\n');
    assert.equal(said[said.length - 3], tr(SEVERAL.replace('2', '{0}'), 2));
    assert.notEqual(said[said.length - 3], SEVERAL, `${lang} has its words`);
    assert.equal(said[said.length - 2], `  ${OTHER_SID}  ${tr(STOPPED, tr('no checkpoint in this session'))}`);
  }
  // A guard not installed for their client: not guarded, and no verdicts.
  const other = oneSession();
  transcript(other.home, other.root, OTHER_SID);
  const g = guardSaid(other.root, other.env);
  assert.equal(g.line, NOT_INSTALLED.replace('{0}', 'session-ledger hooks install'));
  assert.equal(g.guard.sessions, null);
});

test('status and check say it in Japanese and Korean, in the words of the status item', () => {
  const { root, env } = oneSession();
  for (const [lang, tr] of [
    ['ja_JP.UTF-8', jaT],
    ['ko_KR.UTF-8', koT],
  ] as const) {
    const l = { ...env, ...locale(lang) };
    const not = tr(NOT_INSTALLED, 'session-ledger hooks install');
    assert.notEqual(not, NOT_INSTALLED.replace('{0}', 'session-ledger hooks install'), `${lang} has its words`);
    assert.equal(run(['status', '--root', root], { env: l }).stdout.trimEnd().split('\n').pop(), not);
  }
  install(root, env);
  for (const [lang, tr] of [
    ['ja_JP.UTF-8', jaT],
    ['ko_KR.UTF-8', koT],
  ] as const) {
    const l = { ...env, ...locale(lang) };
    const want = tr(STOPPED, tr('no checkpoint in this session'));
    assert.notEqual(want, STOPPED.replace('{0}', 'no checkpoint in this session'), `${lang} has its words`);
    assert.equal(run(['status', '--root', root], { env: l }).stdout.trimEnd().split('\n').pop(), want);
    assert.equal(run(['check', '--root', root], { env: l }).stdout.trimEnd().split('\n').pop(), want);
    // The JSON stays English.
    const j = JSON.parse(run(['status', '--root', root, '--json'], { env: l }).stdout) as {
      guard: { message: string };
    };
    assert.equal(j.guard.message, STOPPED.replace('{0}', 'no checkpoint in this session'));
  }
  assert.ok(readFileSync(path.join(root, '.claude/settings.json'), 'utf8').includes('hook pre-compact'));
});

test('status and check: a state file changed since the checkpoint, still whole: the guard line says the marker lets /compact through, what changed, and why a checkpoint is asked again', () => {
  const { root, env } = oneSession();
  install(root, env);
  const c = run(['checkpoint', '--root', root, ...CONFIRM_ALL], { env });
  assert.equal(c.code, 0, c.stdout + c.stderr);
  age(path.join(root, `.claude/.checkpoint-ready.${SID}`), 600_000);
  rewrite(root, 'docs/state/STATE.md', (t) => `${t}- one more line of the newest work\n`);
  const { line, guard } = guardSaid(root, env);
  assert.equal(
    line,
    '/compact would pass the guard: a fresh checkpoint marker; docs/state/STATE.md changed since, and its blocking checks still pass. The checkpoint does not cover that change: checkpoint again to vouch for the newest work.',
  );
  assert.deepEqual([guard.allow, guard.rule], [true, 'fresh']);
  // The hook, run as Claude Code runs it, lets /compact through as the line says.
  const input = JSON.stringify({ session_id: SID, cwd: root, hook_event_name: 'PreCompact', trigger: 'manual' });
  const h = hookScript('.claude/hooks/session-ledger.cjs', ['hook', 'pre-compact'], { cwd: root, input, env });
  assert.equal(h.code, 0, h.stderr);
  // In Japanese and Korean, in words of their own.
  for (const [lang, said] of [
    [
      'ja',
      /^\/compact はガードを通過します: .*。その後 docs\/state\/STATE\.md が変更されましたが、ブロックするチェックには今も合格しています。/,
    ],
    [
      'ko',
      /^\/compact가 가드를 통과합니다: .*\. 그 뒤 docs\/state\/STATE\.md이\(가\) 바뀌었지만 차단 검사는 아직 통과합니다\./,
    ],
  ] as const) {
    const s = run(['status', '--root', root], { env: { ...env, ...locale(lang) } });
    assert.match(s.stdout.trimEnd().split('\n').pop() ?? '', said, s.stdout);
  }
});
