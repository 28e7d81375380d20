/**
 * Hostile text in state files: secrets (found in every spelling, masked in the model so no surface
 * shows them), pathological lines (linear time for every rule family), terminal escapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { encodeClaudeProjectDir } from '../../src/core/context';
import { findSecrets, maskSecrets } from '../../src/core/secrets/secrets';
import { sessionStartHook } from '../../src/core/hooks/session-start';
import { resumeBlock } from '../../src/core/hooks/session-start';
import { toJsonStatus } from '../../src/core/report/report';
import { assertLinear, cli, gitInit, workspace, write, type CliResult } from './helpers';
import { runIn } from './hostile-helpers';
import { promptContext } from '../../src/cli/commands/hook-remind';
import { terminalSafe } from '../../src/cli/io';
import { CONFIRM_ALL, emptyClaudeHome, preCompact, S0_LEDGER, SID } from './checkpoint-fixtures';

const GH = ['ghp', 'Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0GfEdCbA9Y8'].join('_');
const PW = 'hunter2-Correct-Horse-77';
const OPENAI = ['sk', 'proj', 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0'].join('-');
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq9Tb3kLw2';

const S3_WITH_SECRETS = `# State

## Handoff

- **Status:** deploy pipeline wired; DB_PASSWORD=${PW} is in the CI env
- **Branch / HEAD:** main @ 1234567
- **Now ▶** rotate ${GH} in the vault, then set OPENAI_API_KEY=${OPENAI} on the runner
- **Blocked on:** aws_secret_access_key = ${AWS_SECRET} expires Friday

## Log

### 2026-11-30 - deploy
- Done: pipeline via https://deploy:${PW}@ci.internal.net/hook
`;

const RAW = [GH, PW, OPENAI, AWS_SECRET];

function noRaw(where: string, text: string | null | undefined): void {
  for (const v of RAW) assert.ok(!(text ?? '').includes(v), `${where} shows the raw value ${v.slice(0, 6)}…`);
}

test('secrets after an underscore and in every assignment spelling are found', () => {
  const lines = [
    `DB_PASSWORD=${PW}`,
    `export OPENAI_API_KEY="${OPENAI}"`,
    `aws_secret_access_key = ${AWS_SECRET}`,
    `GITHUB_TOKEN: ${'a1b2c3d4e5f6a7b8c9d0'}`,
    `x_${GH}`,
    `password: ${PW}`,
  ];
  for (const l of lines) assert.equal(findSecrets(l).length, 1, l);
  // Placeholders and prose are not secrets.
  for (const l of [
    'password: <your-password>',
    'OPENAI_API_KEY=${OPENAI_API_KEY}',
    'api_key = xxxxxxxxxxxxxxxx',
    'the token budget is large',
    'password_hash: bcrypt-cost-12-rounds',
  ]) {
    assert.deepEqual(findSecrets(l), [], l);
  }
});

test('a line over 20,000 characters is scanned too', () => {
  const line = `${'lorem ipsum '.repeat(5000)} token ${GH} ${'dolor '.repeat(5000)}`;
  assert.ok(line.length > 20_000);
  const hits = findSecrets(line);
  assert.equal(hits.length, 1);
  assert.equal(hits[0].rule, 'GitHub token');
});

test('masking keeps lines and hides values: prefix and length only', () => {
  const { text, hits } = maskSecrets(
    `a\nkey ${GH}\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234\nabcdEFGH5678\n-----END RSA PRIVATE KEY-----\nafter`,
  );
  assert.equal(text.split('\n').length, 7);
  assert.match(text, /key ghp_… \(\d+ chars\)/);
  assert.doesNotMatch(text, /MIIEpAIBAAKCAQEA1234|abcdEFGH5678/);
  assert.match(text, /-----END RSA PRIVATE KEY-----\nafter$/);
  assert.deepEqual(
    hits.map((h) => [h.rule, h.line]),
    [
      ['GitHub token', 2],
      ['private key', 3],
    ],
  );
});

test('a private key header mentioned in prose masks no following line that is not key material', () => {
  const { text } = maskSecrets(
    '- never paste a -----BEGIN RSA PRIVATE KEY----- block here\n- Now: rotate the deploy key\n- Next: tell the team',
  );
  assert.match(text, /Now: rotate the deploy key\n- Next: tell the team$/);
});

test('masked at the model: no surface shows a raw value (JSON, text, check, next action, SessionStart, checkpoint, resume prompt); the hash is of the raw bytes', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_WITH_SECRETS });
  const raw = readFileSync(path.join(dir, 'docs/state/STATE.md'));
  const r = await evaluate(dir, { noGit: true });
  const s3 = r.systems[0];
  assert.equal(s3.docs[0].hash, createHash('sha256').update(raw).digest('hex'), 'the hash is of the raw bytes');
  assert.ok(
    s3.checks.filter((c) => c.id === 'no-secrets' && c.status === 'fail').length >= 4,
    'every secret is reported',
  );
  noRaw('the model', JSON.stringify(r));
  noRaw('next action', s3.next);
  assert.match(s3.next ?? '', /rotate ghp_… \(\d+ chars\) in the vault/);
  noRaw('status --json', JSON.stringify(toJsonStatus(r)));
  noRaw('resume block', resumeBlock(r, SID, 'clear'));
  for (const args of [
    ['status'],
    ['status', '--json'],
    ['check'],
    ['check', '--json'],
    ['checkpoint', '--json'],
    ['checkpoint', '--nothing-to-preserve'],
  ]) {
    const out = await runIn([...args, '--root', dir]);
    noRaw(args.join(' '), out.stdout + out.stderr);
  }
  const ss = await sessionStartHook(
    JSON.stringify({ hook_event_name: 'SessionStart', source: 'compact', session_id: SID, cwd: dir }),
    { root: dir, log: false },
  );
  assert.ok(ss.additionalContext);
  noRaw('SessionStart additionalContext', ss.stdout);
});

// ---------------------------------------------------------------------------------------------
// Linear time, per rule family: the same pathological line at n and 4n (helpers' assertLinear).
// n is large enough that one run takes tens of ms.

const FAMILIES: Record<string, (n: number) => string> = {
  'JWT (eyJ runs without dots)': (n) => '-eyJ'.repeat(n / 4),
  'JWT (dotted chains)': (n) => 'eyJaaaaaaaaaaaa.'.repeat(n / 16),
  'URL credentials (schemes without @)': (n) => 'a://b:'.repeat(n / 6),
  'URL credentials (long userinfo)': (n) => `x://${'u:'.repeat(n / 2)}`,
  'assigned secret (key parts)': (n) => 'a_'.repeat(n / 2),
  'assigned secret (keys without value)': (n) => 'password '.repeat(n / 9),
  'tokens (sk- runs)': (n) => 'sk-'.repeat(n / 3),
  'GitHub (ghp_ runs)': (n) => 'ghp_'.repeat(n / 4),
  'private key header': (n) => '-----BEGIN A '.repeat(n / 13),
  'placeholders (<<<)': (n) => `password=${'<'.repeat(n)}`,
  'letters only': (n) => 'a'.repeat(n),
};

test('every secret rule family is linear on pathological lines (n vs 4n)', () => {
  const n = 100_000;
  for (const [name, make] of Object.entries(FAMILIES)) assertLinear(name, findSecrets, make(n), make(4 * n));
});

// ---------------------------------------------------------------------------------------------
// Terminal escapes

const ESCAPES =
  '\u001b[2J\u001b[31mRED\u001b[0m \u001b]0;pwned title\u0007 \u001b]8;;https://evil.invalid\u001b\\link\u001b]8;;\u001b\\ bell\u0007 \u009b1m c1 \r';

/** A right-to-left override (`evil` U+202E `gnp` shows as `evilpng`), a zero-width space and a line separator. */
const FORMAT = 'evil\u202egnp\u200b\u2028';

test('terminal escapes in ledger text never reach the terminal: status, check, checkpoint, both hooks', async () => {
  const state = S3_WITH_SECRETS.replace('rotate', `rotate ${ESCAPES}`).replace(
    '## Log',
    `## Log\n\n### 2026-11-29 - ${ESCAPES}\n- Done: ${ESCAPES}`,
  );
  const dir = workspace({ 'docs/state/STATE.md': state, '.claude/settings.json': '{}\n' });
  const outs: Array<[string, string]> = [];
  for (const args of [
    ['status'],
    ['check'],
    ['checkpoint'],
    ['checkpoint', '--nothing-to-preserve'],
    ['status', '--json'],
  ]) {
    const r = await runIn([...args, '--root', dir]);
    outs.push([args.join(' '), r.stdout + r.stderr]);
  }
  const env = { CLAUDE_PROJECT_DIR: dir };
  const rmMarkers = () => require('node:fs').rmSync(path.join(dir, '.claude', `.checkpoint-ready`), { force: true });
  rmMarkers();
  const pre = await runIn(['hook', 'pre-compact'], {
    stdin: JSON.stringify({ hook_event_name: 'PreCompact', trigger: 'manual', session_id: SID, cwd: dir }),
    env,
  });
  outs.push(['hook pre-compact', pre.stdout + pre.stderr]);
  const ss = await runIn(['hook', 'session-start'], {
    stdin: JSON.stringify({ hook_event_name: 'SessionStart', source: 'clear', session_id: SID, cwd: dir }),
    env,
  });
  outs.push(['hook session-start', ss.stdout + ss.stderr]);
  // S0 with escapes in its ledger's name and goal: the guard names the file, a written checkpoint shows the goal.
  const s0 = workspace({
    '.agents.yml': 'session:\n  ledger: true\n  ledger_path: "docs/\\e[31mled\\e]0;t\\ager.md"\n',
    'docs/\u001b[31mled\u001b]0;t\u0007ger.md': S0_LEDGER.replace('Ship CSV export', `Ship ${ESCAPES} CSV export`),
  });
  gitInit(s0);
  const guard = await runIn(['hook', 'pre-compact'], { stdin: preCompact(s0), env: { CLAUDE_PROJECT_DIR: s0 } });
  assert.equal(guard.code, 2, 'no checkpoint yet: the guard blocks');
  assert.match(guard.stderr, /^ {3}- docs\/ledger\.md: /m, 'the guard names the ledger');
  outs.push(['hook pre-compact (S0)', guard.stdout + guard.stderr]);
  const cp = await runIn(['checkpoint', '--root', s0, '--session', SID, ...CONFIRM_ALL]);
  assert.equal(cp.code, 0, cp.stderr);
  assert.match(cp.stdout, /- Goal: Ship .*RED/, 'a written checkpoint shows the goal');
  outs.push(['checkpoint (written)', cp.stdout + cp.stderr]);
  assert.match(outs[0][1], /RED/, 'the text itself is kept');
  for (const [what, out] of outs)
    assert.doesNotMatch(out, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${what} prints a control character`);
});

test("terminal escapes and format characters in state text, headings, a model's name and file names never reach the terminal: rotate-log and compact-state previews, context, init", () => {
  const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  const FORMATS = /[\p{Cf}\u2028\u2029]/u;
  // Format characters first: ESCAPES ends with a carriage return, which ends a heading's line.
  const HOSTILE = `${FORMAT} ${ESCAPES}`;
  // S3 over its budget, its Log entries' headings and lines hostile: rotate-log's preview names each entry it would move.
  const entry = (date: string) =>
    `\n### ${date} - ${HOSTILE} step\n\n${Array.from({ length: 40 }, (_, i) => `- ${HOSTILE} ${i}`).join('\n')}\n`;
  const s3 = `# State\n\n## Handoff\n\n- **Status:** ${HOSTILE}\n- **Branch / HEAD:** main\n- **Now ▶** ${HOSTILE}\n\n## Log\n${['2026-08-03', '2026-08-01', '2026-07-20', '2026-07-02'].map(entry).join('')}`;
  // S4 with an older block a newer one replaces: compact-state's preview prints the whole composed state.
  const block = (name: string) =>
    `\n## Current Project: ${name} ${HOSTILE}\n<!-- orchestra:block-id: ${name} -->\n\n### Context\n\n- Goal: ${HOSTILE}\n\n### Next Steps\n\n- ${HOSTILE}\n\n---\n`;
  const s4 = `# Agent State\n\n## Main Agent\n\nClaude Code ${HOSTILE}\n\n## Progress Tracker\n\nRolling progress summary: [PROGRESS.md](../PROGRESS.md)\n\n---\n${block('v1')}${block('v2')}`;
  // The workspace folder's own name is hostile too (a repository cloned under such a name): messages name it.
  const root = path.join(workspace(), `proj\u001b[31m\u001b]0;t\u0007\u202egnp`);
  const empty = path.join(workspace(), `empty\u001b[31m\u001b]0;t\u0007\u202egnp`);
  for (const [rel, text] of [
    ['docs/state/STATE.md', s3],
    ['.agents/STATE.md', s4],
  ])
    write(root, rel, text);
  mkdirSync(empty);
  // A session of this folder, its model's name hostile: context names the model.
  const claude = workspace({}, 'sl-claude-');
  write(
    path.join(claude, 'projects', encodeClaudeProjectDir(root)),
    `${SID}.jsonl`,
    `${JSON.stringify({ isSidechain: false, type: 'assistant', cwd: root, sessionId: SID, message: { model: `claude-opus-4-6 ${HOSTILE}`, role: 'assistant', content: [{ type: 'text', text: HOSTILE }], usage: { input_tokens: 10, cache_creation_input_tokens: 90, cache_read_input_tokens: 99_900, output_tokens: 1 } }, timestamp: '2026-02-11T21:19:35.672Z' })}\n`,
  );
  const env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: workspace({}, 'sl-codex-'), HOME: workspace({}, 'sl-home-') };
  const outs: Array<[string, CliResult]> = [];
  const run = (args: string[], at = root) => {
    const r = cli([...args, '--root', at], { env });
    outs.push([`${args.join(' ')} (${at === root ? 'state' : at === empty ? 'empty' : 'linked'})`, r]);
    return r;
  };
  const rotate = run(['rotate-log']);
  assert.equal(rotate.code, 0, rotate.stderr);
  assert.match(
    rotate.stdout,
    /Would move \d+ Log entr.*\n {2}- 2026-\d\d-\d\d - evilgnp +RED .* c1/,
    'the entries are named',
  );
  assert.match(run(['rotate-log', '--json']).stdout, /RED/);
  const compact = run(['compact-state']);
  assert.equal(compact.code, 0, compact.stderr);
  assert.match(compact.stdout, /## Current Project: v2 evilgnp +RED/, 'the composed state is printed');
  assert.match(compact.stdout, /- Current Project: v1 evilgnp +RED/, 'the pruned block is named');
  const ctx = run(['context']);
  assert.equal(ctx.code, 0, ctx.stderr);
  assert.match(ctx.stdout, /claude-opus-4-6 evilgnp +RED/, 'the model is named');
  const ctxJson = run(['context', '--json']);
  assert.equal(JSON.parse(ctxJson.stdout).usedTokens, 100_000, 'the session was found');
  for (const args of [['rotate-log'], ['compact-state'], ['context'], ['init', 'S3', '--dry-run'], ['init', 'S3']])
    run(args, empty);
  assert.match(outs.at(-5)?.[1].stderr ?? '', /no state file of S3 Groundwork .* under .*\/emptygnp\.$/m);
  for (const args of [['init', 'S3'], ['init', 'S3', '--dry-run'], ['init', 'S4'], ['init', 'S1'], ['init']]) run(args);
  // init's refusal names where a link leads: docs/state, a link into a .git folder of a hostile name.
  const linked = workspace();
  const hostileDir = path.join(linked, `.git/x\u001b[31m\u001b]0;t\u0007\u202egnp`);
  mkdirSync(hostileDir, { recursive: true });
  mkdirSync(path.join(linked, 'docs'));
  symlinkSync(path.relative(path.join(linked, 'docs'), hostileDir), path.join(linked, 'docs/state'));
  const refused = run(['init', 'S3'], linked);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /docs\/state\/STATE\.md is a link into \.git\/xgnp \(git's own files\)/);
  for (const [what, r] of outs) {
    assert.doesNotMatch(r.stdout + r.stderr, CONTROLS, `${what} prints a control character`);
    assert.doesNotMatch(r.stdout + r.stderr, FORMATS, `${what} prints a format character`);
    // A --json answer writes an escape's ESC as the six characters \\u001b (no control character reaches
    // the terminal); a text answer removes each sequence whole.
    if (!what.includes('--json'))
      assert.doesNotMatch(
        r.stdout + r.stderr,
        /pwned title|evil\.invalid/,
        `${what}: an escape sequence's payload is left in`,
      );
  }
});

test("terminal escapes never reach the agent through a hook's JSON: every string is terminal-safe once decoded", async () => {
  // Control characters but line breaks and tabs (kept, as in text output).
  const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  // Bidi and other format characters, and the line and paragraph separators (a JSON string may hold them raw).
  const FORMATS = /[\p{Cf}\u2028\u2029]/u;
  const state = S3_WITH_SECRETS.replace('rotate', `rotate ${ESCAPES} ${FORMAT}`);
  const dir = workspace({ 'docs/state/STATE.md': state, '.claude/settings.json': '{}\n' });
  // SessionStart after /clear and /compact: the resume block, with the Now line, in additionalContext.
  for (const source of ['clear', 'compact']) {
    const ss = await runIn(['hook', 'session-start'], {
      stdin: JSON.stringify({ hook_event_name: 'SessionStart', source, session_id: SID, cwd: dir }),
      env: { CLAUDE_PROJECT_DIR: dir },
    });
    const ctx = JSON.parse(ss.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(ctx, /rotate .*RED.*evilgnp/, `${source}: the ledger's text is in the context`);
    assert.match(ctx, /\n/, `${source}: line breaks are kept`);
    assert.doesNotMatch(ctx, CONTROLS, `${source}: additionalContext holds a control character once decoded`);
    assert.doesNotMatch(ctx, FORMATS, `${source}: additionalContext holds a format character once decoded`);
    assert.doesNotMatch(ctx, /pwned title|evil\.invalid/, `${source}: an escape sequence's payload is left in`);
  }
  // Codex's PreCompact block: the reason names a ledger whose name holds escapes and format characters, in stopReason.
  const s0 = workspace({
    '.agents.yml': 'session:\n  ledger: true\n  ledger_path: "docs/\\e[31mled\\e]0;t\\a\\u202Eg\\u200Ber\\u2028.md"\n',
    'docs/\u001b[31mled\u001b]0;t\u0007\u202eg\u200ber\u2028.md': S0_LEDGER.replace(
      'Ship CSV export',
      `Ship ${ESCAPES} ${FORMAT} CSV export`,
    ),
  });
  gitInit(s0);
  const codex = await runIn(['hook', 'pre-compact', '--codex', '--root', s0], { stdin: preCompact(s0) });
  const block = JSON.parse(codex.stdout) as { continue: boolean; stopReason: string };
  assert.equal(block.continue, false, 'no checkpoint yet: Codex is told to stop');
  assert.match(block.stopReason, /^ {3}- docs\/ledger\.md: /m, 'the reason names the ledger');
  assert.doesNotMatch(block.stopReason, CONTROLS, 'stopReason holds a control character once decoded');
  assert.doesNotMatch(block.stopReason, FORMATS, 'stopReason holds a format character once decoded');
  // The reminder (`hook remind`) on that workspace, its context past S0's mark: its additionalContext names
  // the system, and holds no control or format character once decoded.
  const transcript = path.join(workspace({}, 'sl-claude-'), `${SID}.jsonl`);
  writeFileSync(
    transcript,
    `${JSON.stringify({ isSidechain: false, type: 'assistant', sessionId: SID, message: { model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [{ type: 'text', text: `ok ${ESCAPES} ${FORMAT}` }], usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 180_000 } }, timestamp: new Date().toISOString() })}\n`,
  );
  const hook = await runIn(['hook', 'remind'], {
    cwd: s0,
    stdin: JSON.stringify({
      session_id: SID,
      transcript_path: transcript,
      cwd: s0,
      hook_event_name: 'UserPromptSubmit',
      prompt: `go on ${ESCAPES} ${FORMAT}`,
    }),
    env: { CLAUDE_PROJECT_DIR: s0, CLAUDE_CONFIG_DIR: emptyClaudeHome() },
  });
  assert.equal(hook.code, 0, hook.stderr);
  const reminded = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext as string;
  assert.match(reminded, /past the 85% mark of S0 /);
  assert.doesNotMatch(reminded, CONTROLS, '`hook remind` answers a control character once decoded');
  assert.doesNotMatch(reminded, FORMATS, '`hook remind` answers a format character once decoded');
  // The reminder's additionalContext (its text is the tool's own, and still passes through the same rule).
  const text = `a ${ESCAPES} ${FORMAT}\n\tb`;
  const remind = JSON.parse(promptContext(text)).hookSpecificOutput.additionalContext as string;
  assert.equal(remind, terminalSafe(text), 'as the text output says it');
  assert.doesNotMatch(remind, CONTROLS, 'the reminder holds a control character once decoded');
  assert.doesNotMatch(remind, FORMATS, 'the reminder holds a format character once decoded');
  assert.match(remind, /^a RED .*link bell .* c1 +evilgnp\n\tb$/);
});

test("the status bar tooltip escapes the transcript's text: its timestamp, model and session id (Markdown, theme icons, controls)", async () => {
  const { statusView } = await import('../../src/extension/pure/status-text');
  const t = (s: string, ...a: unknown[]) => s.replace(/\{(\d+)\}/g, (_, i) => String(a[Number(i)]));
  const hostile = (what: string) =>
    `${what} \` [click](command:sessionLedger.checkpointNow) \` $(alert) <img src=x> \u001b[31m\n# heading ${what}`;
  const v = statusView(
    t,
    {
      agent: 'claude',
      sessionId: hostile('qqsid'),
      transcriptPath: '/t',
      model: hostile('qqmodel'),
      usedTokens: 1,
      windowTokens: 100,
      percent: 1,
      at: `2026-12-01T00:00:00Z ${hostile('qqat')}`,
      afterCompaction: false,
      source: 'transcript',
    },
    { profile: 'p', propose: 50, urgent: null },
    'ok',
  );
  const lines = v.tooltip.split('\n');
  // The timestamp is shown only as the time it parses to (the local clock time): none of its text reaches the tooltip.
  assert.doesNotMatch(v.tooltip, /qqat/);
  for (const what of ['qqsid', 'qqmodel']) {
    const line = lines.find((l) => l.includes(`${what} `))!;
    assert.ok(line, `${what}: shown`);
    // Outside inline code every Markdown, HTML and theme-icon character is escaped; inside one code span it is inert.
    const outside = line.replace(/`[^`]*`/g, '');
    assert.doesNotMatch(outside, /(?<!\\)\[click\]|(?<!\\)\$\(alert|(?<!\\)<img/, `${what}: ${line}`);
    assert.doesNotMatch(line, /\u001b/, `${what}: an escape`);
    assert.equal(lines.filter((l) => l.startsWith(`# heading ${what}`)).length, 0, `${what}: no new Markdown line`);
  }
});
