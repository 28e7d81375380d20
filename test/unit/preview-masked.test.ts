/**
 * The previews of the write actions that show a user's file (S4's `compact-state`, S3's `rotate-log`, the
 * hooks' settings diff, `attest`'s sidecar): what they show (the CLI's text, its `--json`, the preview
 * file, the extension's diff and question) holds no raw secret or personal datum, masked as the readers
 * mask them; the hash they print is the real file's, so the preview → `--apply --expect-hash` flow works;
 * and the write writes the file's own bytes, every secret in it, no byte lost or masked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../../src/core/files/fsread';
import { planCompactState } from '../../src/core/systems/s4/compact-state';
import { planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { planHooksInstall } from '../../src/core/hooks/install';
import { hooksDialog } from '../../src/extension/pure/hooks-dialog';
import { maskSecrets } from '../../src/core/secrets/secrets';
import { HOOK_SCRIPT, jaT, workspace } from './helpers';
import { runIn } from './hostile-helpers';

const KEY = 'sk-ant-api03-Qz7wR4xk9Lm2pAb8vT5yj0Np3qBSc9uU6zi1Oq4rC';
const GITHUB = 'ghp_R8sV2mXq7LzK4pT9wN3bY6cJ1hF5dG0aE8uQ';
const OPENAI = 'sk-proj-Xb7Tq2Lm9Vw4Rk8Jz3Np6Hs1Dc5Fg0AyEu';
const WRAPPED = 'Qz7#wR4$xk9!Lm2pA';
const PASSWORD = 'Hj4#kP9!wQ2$zL7x';
const URL_PASSWORD = 'Vb93kLq2Zx7';
const PEM_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const MAIL = 'jane.doe@acme-corp.de';
const PHONE = '+49 30 1234 5678';

/** What must show nowhere: each secret (or its tail, past what a mask keeps) and the personal data. */
const RAW = [
  KEY.slice(6),
  GITHUB.slice(6),
  OPENAI.slice(6),
  WRAPPED,
  PASSWORD,
  URL_PASSWORD,
  PEM_BODY.slice(0, 24),
  MAIL,
  PHONE,
];

function assertNothingRaw(out: string, where: string): void {
  for (const s of RAW) assert.ok(!out.includes(s), `${where} shows ${s}:\n${out}`);
}

/** Lines that hold every kind of value the masker takes: a key, a token, a wrapped value, a password, a private key, personal data. */
const SECRET_LINES = `- Export ANTHROPIC_API_KEY=${KEY} before the run; ask ${MAIL} or ${PHONE}.
- api_key:
  ${WRAPPED}
- db_password = "${PASSWORD}"
- Staging: postgres://deploy:${URL_PASSWORD}@db.internal/ledger

\`\`\`
-----BEGIN OPENSSH PRIVATE KEY-----
${PEM_BODY}
-----END OPENSSH PRIVATE KEY-----
\`\`\`
`;

const S4_HEAD = `# Agent State

## Main Agent

Claude Code, run by ${MAIL}

## Progress Tracker

Rolling progress summary (latest 5 checkpoints): [PROGRESS.md](../PROGRESS.md)

---
`;
/** The older Current Feature: its title and its body hold secrets; the compaction removes it. */
const S4_OLD = `
## Current Feature: rotate ${GITHUB}

### Next Steps

${SECRET_LINES}
---
`;
/** The newest Current Feature: it stays, its secrets with it. */
const S4_NEW = `
## Current Feature: multi-currency

### Next Steps

- Add BalanceByCurrency; the CI token is ${OPENAI}.
${SECRET_LINES}
---
`;
const S4_STATE = S4_HEAD + S4_OLD + S4_NEW;
const S4_EXPECTED = S4_HEAD + S4_NEW;

test('compact-state: the preview (text, --json, the preview file, the plan the extension shows) masks the state; the printed hash is the real one and --apply --expect-hash writes the real bytes', async () => {
  const dir = workspace({ '.agents/STATE.md': S4_STATE });
  const file = path.join(dir, '.agents/STATE.md');
  const hash = sha256(Buffer.from(S4_STATE));

  const p = await runIn(['compact-state', '--root', dir]);
  assert.equal(p.code, 0, p.stderr);
  assertNothingRaw(p.stdout + p.stderr, 'the preview');
  // The state as it would be, masked where the readers mask it: the same lines, the masked values in their places.
  assert.ok(p.stdout.startsWith(maskSecrets(S4_EXPECTED).text.trimEnd()), p.stdout);
  assert.match(p.stdout, /^- Export ANTHROPIC_API_KEY=sk-a… \(54 chars\) before the run/m);
  assert.match(p.stdout, /^ {2}- Current Feature: rotate ghp_… \(40 chars\) \(lines \d+-\d+\)$/m);
  assert.match(p.stdout, new RegExp(`^state_hash_before: ${hash}$`, 'm'));
  assert.match(p.stdout, new RegExp(`^apply: session-ledger compact-state --apply --expect-hash ${hash}$`, 'm'));
  // The preview file under .agents/logs/ holds the same masked text: no secret copied into another file.
  const logs = readdirSync(path.join(dir, '.agents/logs'));
  assert.equal(logs.length, 1);
  const previewFile = readFileSync(path.join(dir, '.agents/logs', logs[0]), 'utf8');
  assertNothingRaw(previewFile, 'the preview file');
  assert.equal(previewFile, maskSecrets(S4_EXPECTED).text);

  // Another workspace: a second preview in the same second would find the first one's file.
  const j = await runIn(['compact-state', '--root', workspace({ '.agents/STATE.md': S4_STATE }), '--json']);
  assert.equal(j.code, 0, j.stderr);
  assertNothingRaw(j.stdout, 'the preview as JSON');
  const json = JSON.parse(j.stdout) as { state_hash_before: string; composed: string; blocks_pruned: unknown[] };
  assert.equal(json.state_hash_before, hash);
  assert.equal(json.composed, maskSecrets(S4_EXPECTED).text);
  assert.equal(json.blocks_pruned.length, 1);

  assert.equal(readFileSync(file, 'utf8'), S4_STATE, 'a preview writes nothing');
  const a = await runIn(['compact-state', '--root', dir, '--apply', '--expect-hash', hash]);
  assert.equal(a.code, 0, a.stderr);
  assertNothingRaw(a.stdout + a.stderr, 'the apply');
  assert.equal(readFileSync(file, 'utf8'), S4_EXPECTED, 'the write writes the real bytes, every secret kept');
});

test('compact-state with a BOM and CRLF line breaks: the preview shows it masked (no BOM), the apply writes the real bytes with both', async () => {
  const crlf = (t: string) => t.replace(/\n/g, '\r\n');
  const dir = workspace({ '.agents/STATE.md': `\uFEFF${crlf(S4_STATE)}` });
  const plan = await planCompactState(dir);
  assert.ok(plan);
  assert.equal(plan.hash, sha256(Buffer.from(`\uFEFF${crlf(S4_STATE)}`)));
  assert.equal(plan.shown.before, maskSecrets(crlf(S4_STATE)).text);
  assert.equal(plan.shown.after, maskSecrets(crlf(S4_EXPECTED)).text);
  const p = await runIn(['compact-state', '--root', dir]);
  assert.equal(p.code, 0, p.stderr);
  assertNothingRaw(p.stdout, 'the preview');
  const previewFile = readFileSync(path.join(dir, '.agents/logs', readdirSync(path.join(dir, '.agents/logs'))[0]));
  assert.equal(previewFile.toString('utf8'), `\uFEFF${maskSecrets(crlf(S4_EXPECTED)).text}`);
  const a = await runIn(['compact-state', '--root', dir, '--apply', '--expect-hash', plan.hash]);
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual(
    readFileSync(path.join(dir, '.agents/STATE.md')),
    Buffer.from(`\uFEFF${crlf(S4_EXPECTED)}`),
    'the BOM, the CRLF line breaks and every secret written as they were',
  );
});

test('compact-state in the extension: both sides of the diff and the question show the state masked, never the file on disk', async () => {
  const { compactPreview } = await import('../../src/extension/pure/write-previews');
  const dir = workspace({ '.agents/STATE.md': S4_STATE });
  const plan = await planCompactState(dir);
  assert.ok(plan);
  for (const t of [
    (m: string, ...a: Array<string | number | boolean>) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[+i])),
    jaT,
  ]) {
    const sides = compactPreview(t, plan);
    assertNothingRaw(`${sides.before}\n${sides.after}\n${sides.detail}`, 'the extension preview');
    assert.equal(sides.before, maskSecrets(S4_STATE).text);
    assert.equal(sides.after, maskSecrets(S4_EXPECTED).text);
    assert.match(sides.detail, /^- Current Feature: rotate ghp_… \(40 chars\) \(\d+–\d+\)$/m);
  }
  // Only the write takes the real text.
  assert.equal(plan.after, S4_EXPECTED);
});

const S3_HANDOFF = `# STATE: live project state

## Handoff: read this first

- **Status:** building, owner ${MAIL}
- **Phase:** build
- **Branch / HEAD:** main
- **Gates:** checks green, tests 42/42
- **Now ▶** wire the Stop hook into settings.json per the plan in the newest log entry
- **Blocked on:** nothing

## Log

<!-- Newest first. -->
`;

/** A dated entry: its title and its lines hold secrets, then `n` filler lines. */
function entry(date: string, title: string, n: number): string {
  const filler = Array.from({ length: n }, (_, i) => `- ${date} step ${i + 1}`).join('\n');
  return `\n### ${date} - ${title}\n\n${SECRET_LINES}${filler}\n`;
}

const S3_ENTRIES = [
  entry('2026-08-03', `deploy with ${OPENAI}`, 40),
  entry('2026-08-01', 'checkpoint skill', 40),
  entry('2026-07-20', `rotated ${GITHUB}`, 40),
  entry('2026-06-30', `first key ${KEY}`, 40),
];
const S3_STATE = S3_HANDOFF + S3_ENTRIES.join('');
const S3_EXPECTED = S3_HANDOFF + S3_ENTRIES.slice(0, 2).join('');

test('rotate-log: the preview (text, --json, the plan the extension shows) masks STATE.md and the moved entries; the printed hash is the real one and --apply --expect-hash writes the real bytes', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const file = path.join(dir, 'docs/state/STATE.md');
  const hash = sha256(Buffer.from(S3_STATE));

  const p = await runIn(['rotate-log', '--root', dir]);
  assert.equal(p.code, 0, p.stderr);
  assertNothingRaw(p.stdout + p.stderr, 'the preview');
  assert.match(p.stdout, /^Would move 2 Log entries \(oldest first\)/m);
  assert.match(
    p.stdout,
    /^ {2}- 2026-06-30 - first key sk-a… \(54 chars\) \(lines \d+-\d+\) → docs\/state\/log\/2026-06\.md$/m,
  );
  assert.match(p.stdout, new RegExp(`^hash: ${hash}$`, 'm'));
  assert.match(p.stdout, new RegExp(`^apply: session-ledger rotate-log --apply --expect-hash ${hash}$`, 'm'));

  const j = await runIn(['rotate-log', '--root', dir, '--json']);
  assert.equal(j.code, 0, j.stderr);
  assertNothingRaw(j.stdout, 'the preview as JSON');
  const json = JSON.parse(j.stdout) as { hash: string; moves: Array<{ title: string }> };
  assert.equal(json.hash, hash);
  assert.deepEqual(
    json.moves.map((m) => m.title),
    ['2026-06-30 - first key sk-a… (54 chars)', '2026-07-20 - rotated ghp_… (40 chars)'],
  );

  const plan = await planRotateLog(dir);
  assert.ok(plan);
  assert.equal(plan.shown.before, maskSecrets(S3_STATE).text);
  assert.equal(plan.shown.after, maskSecrets(S3_EXPECTED).text);
  const { rotatePreview } = await import('../../src/extension/pure/write-previews');
  const sides = rotatePreview(jaT, plan);
  assertNothingRaw(`${sides.before}\n${sides.after}\n${sides.detail}`, 'the extension preview');
  assert.equal(sides.before, plan.shown.before);
  assert.equal(sides.after, plan.shown.after);

  assert.equal(readFileSync(file, 'utf8'), S3_STATE, 'a preview writes nothing');
  const a = await runIn(['rotate-log', '--root', dir, '--apply', '--expect-hash', hash]);
  assert.equal(a.code, 0, a.stderr);
  assertNothingRaw(a.stdout + a.stderr, 'the apply');
  assert.equal(readFileSync(file, 'utf8'), S3_EXPECTED, 'STATE.md: the real bytes, every secret kept');
  // The entries moved verbatim, their secrets with them.
  assert.equal(
    readFileSync(path.join(dir, 'docs/state/log/2026-06.md'), 'utf8'),
    `# Log 2026-06\n\n${S3_ENTRIES[3].trim()}\n`,
  );
  assert.equal(
    readFileSync(path.join(dir, 'docs/state/log/2026-07.md'), 'utf8'),
    `# Log 2026-07\n\n${S3_ENTRIES[2].trim()}\n`,
  );
});

test('rotate-log with a BOM and CRLF line breaks: the preview shows STATE.md masked, the apply writes the real bytes with both', async () => {
  const crlf = (t: string) => t.replace(/\n/g, '\r\n');
  const dir = workspace({ 'docs/state/STATE.md': `\uFEFF${crlf(S3_STATE)}` });
  const plan = await planRotateLog(dir);
  assert.ok(plan);
  assert.equal(plan.shown.before, maskSecrets(crlf(S3_STATE)).text);
  assert.equal(plan.shown.after, maskSecrets(crlf(S3_EXPECTED)).text);
  const a = await runIn(['rotate-log', '--root', dir, '--apply', '--expect-hash', plan.hash]);
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual(readFileSync(path.join(dir, 'docs/state/STATE.md')), Buffer.from(`\uFEFF${crlf(S3_EXPECTED)}`));
});

test('hooks install --dry-run and the extension preview show the settings file masked (its env, a \\u escape, the status line command); the install writes every byte of it as it was', async () => {
  // `\u0067` spells the token's `g`: the JSON reader decodes it.
  const escaped = `\\u0067${GITHUB.slice(1)}`;
  const settings = `{
  "env": {
    "ANTHROPIC_API_KEY": "${KEY}",
    "GITHUB_TOKEN": "${escaped}",
    "DB_PASSWORD": "${PASSWORD}"
  },
  "statusLine": { "type": "command", "command": "OPENAI_API_KEY=${OPENAI} node sl.js" }
}
`;
  const dir = workspace({ '.claude/settings.local.json': settings });
  const args = ['hooks', 'install', '--root', dir, '--local', '--statusline', '--cli-bundle', HOOK_SCRIPT];
  const dry = await runIn([...args, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assertNothingRaw(dry.stdout + dry.stderr, 'hooks install --dry-run');
  assert.match(dry.stdout, /would wrap your command \(OPENAI_API_KEY=sk-p… \(42 chars\) node sl\.js\)/);

  const plan = await planHooksInstall(dir, { local: true, statusline: true, cliBundle: HOOK_SCRIPT });
  const shown = hooksDialog(plan, jaT);
  assertNothingRaw(`${shown.before}\n${shown.after}\n${shown.detail}`, 'the extension preview');
  assert.match(shown.detail, /OPENAI_API_KEY=sk-p… \(42 chars\) node sl\.js/);
  assert.equal(plan.before, settings, 'the plan holds the real text');

  const r = await runIn(args);
  assert.equal(r.code, 0, r.stderr);
  assertNothingRaw(r.stdout + r.stderr, 'hooks install');
  const written = readFileSync(path.join(dir, '.claude/settings.local.json'), 'utf8');
  for (const line of settings.split('\n').slice(0, 6))
    assert.ok(written.includes(line), `the install kept ${line}:\n${written}`);
  assert.ok(written.includes(`OPENAI_API_KEY=${OPENAI} node sl.js`), 'the status line command is wrapped as it was');
});

test('attest --dry-run and attest say what a tampered sidecar held with its secrets masked', async () => {
  const handoff = '# Session Handoff\n\n## What to do now\n\n1. Run the tests.\n';
  for (const dry of [true, false]) {
    const dir = workspace({
      'memory/session-handoff-LATEST.md': handoff,
      'memory/.session-handoff.sha256': `${GITHUB} ${MAIL}\n`,
    });
    const r = await runIn(['attest', '--root', dir, ...(dry ? ['--dry-run'] : [])]);
    assert.equal(r.code, 0, r.stderr);
    assertNothingRaw(r.stdout + r.stderr, dry ? 'attest --dry-run' : 'attest');
    assert.match(r.stdout, /\(was TAMPERED: ghp_… \(40 chars\) … \(21 chars\)\)/);
    const sidecar = readFileSync(path.join(dir, 'memory/.session-handoff.sha256'), 'utf8');
    assert.equal(sidecar, dry ? `${GITHUB} ${MAIL}\n` : sha256(Buffer.from(handoff)));
  }
});
