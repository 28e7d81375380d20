/**
 * A YAML `!!binary` value is base64: a secret written that way (an API key, a private key) is still the
 * secret. Every `!!binary` scalar of the YAML the readers take (`.agents.yml`, S1's snapshot block,
 * `context-manifest.yaml`, S4's front matter) is held in the model as its masked form, never as its bytes
 * (shown before as `{"type":"Buffer","data":[115,107,…]}`, the secret byte by byte) nor as its base64;
 * one whose bytes hold a secret is named by no-secrets at its line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readYaml } from '../../src/core/markdown/yaml-tree';
import { parseAgentsYml } from '../../src/core/systems/s0/reader';
import { parseHandoff } from '../../src/core/systems/s1/reader';
import { parseManifest } from '../../src/core/systems/s2/reader-ledger';
import { parseCheckpoint } from '../../src/core/systems/s4/reader-state';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import { assertLinear, assertLinearStringWork, cli, fixtureCopy, gitInit, HOOK_SCRIPT, hookScript } from './helpers';

const KEY = 'sk-ant-api03-Qz7wR4xk9Lm2pAb8vT5yj0Np3qBSc9uU6zi1Oq4rC';
const PEM =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n';
const PASSWORD = 'Qz7#wR4$xk9!Lm2pA';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
/** A `!!binary` block scalar: its base64 on lines of 60, indented. */
const block = (s: string, indent: string) =>
  `!!binary |\n${(b64(s).match(/.{1,60}/g) ?? []).map((l) => `${indent}${l}`).join('\n')}\n`;

/**
 * What must show nowhere: each base64 (its first 24 characters), each secret, and its first bytes as a list
 * (`115,107,45,97`: a Buffer as JSON, `{"type":"Buffer","data":[…]}`).
 */
const VALUES = [KEY, PEM, PASSWORD, 'plain bytes, no secret'];
const RAW = [
  ...VALUES.map((s) => b64(s).slice(0, 24)),
  ...VALUES.map((s) => [...Buffer.from(s.slice(0, 4))].join(',')),
  ...[KEY, 'sk-ant-api03', 'b3BlbnNzaC1rZXktdjEAAAAABG5v', PASSWORD, 'plain bytes'],
];
function assertNothingRaw(out: string, where: string): void {
  for (const s of RAW) assert.ok(!out.includes(s), `${where} shows ${s}`);
  assert.ok(!out.includes('"type":"Buffer"'), `${where} shows a Buffer`);
}

/** YAML lines with the four kinds of `!!binary` value (a key's value, a block, a password, a list item and a key). */
const binaries = (indent: string) =>
  `${indent}api: !!binary ${b64(KEY)}\n` +
  `${indent}pem: ${block(PEM, `${indent}  `)}` +
  `${indent}db_password: !!binary ${b64(PASSWORD)}\n` +
  `${indent}other: !<tag:yaml.org,2002:binary> ${b64('plain bytes, no secret')}\n` +
  `${indent}? !!binary ${b64(KEY)}\n${indent}: as a key\n`;

test('a `!!binary` value is held masked in the tree and the data, and its bytes are searched for secrets', () => {
  const y = readYaml(`a: 1\n${binaries('')}list:\n  - !!binary ${b64(KEY)}\n`);
  assert.equal(y.error, null);
  const data = y.data.value as Record<string, unknown>;
  // The masked form, as a masked value is said: the length of the base64.
  assert.equal(data.api, `… (${b64(KEY).length} chars)`);
  assert.equal(data.other, `… (${b64('plain bytes, no secret').length} chars)`);
  assert.deepEqual(data.list, [`… (${b64(KEY).length} chars)`]);
  assertNothingRaw(JSON.stringify(data), 'data');
  const root = y.root;
  assert.equal(root?.kind, 'map');
  if (root?.kind !== 'map') return;
  const tree = root.pairs.map((p) => [p.keyText, p.key, p.value?.kind === 'scalar' ? p.value.value : p.value?.kind]);
  assertNothingRaw(JSON.stringify(tree), 'tree');
  // Found: the key, the private key, the password (under its key's name) and the list item, at their lines; not
  // the bytes without a secret. The key written as a key is found too (line 7).
  assert.deepEqual(
    y.secrets.map((h) => [h.rule, h.line]),
    [
      ['Anthropic API key in a YAML !!binary value', 2],
      ['private key in a YAML !!binary value', 3],
      ['assigned secret in a YAML !!binary value', 8],
      ['Anthropic API key in a YAML !!binary value', 10],
      ['Anthropic API key in a YAML !!binary value', 13],
    ].sort((a, b) => (a[1] as number) - (b[1] as number)),
  );
  for (const h of y.secrets) assert.match(h.masked, /^… \(\d+ chars\)$/);
});

test('each reader holds a `!!binary` value masked and names the secrets in it at their lines', () => {
  const yaml = binaries('');
  const at = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  const s0Text = `session:\n  ledger: true\n${binaries('  ')}`;
  const s0 = parseAgentsYml(s0Text);
  const handoff = `# Handoff\n\n<!-- state-snapshot v1 -->\n\`\`\`yaml\nts: 2026-05-04\nnext:\n  - !!binary ${b64(KEY)}\n${yaml}\`\`\`\n\n## What to do now\n1. Ship it.\n`;
  const s1 = parseHandoff(handoff, parseMarkdown(handoff));
  const s2 = parseManifest(`version: 1\n${yaml}`);
  const checkpoint = `---\ntimestamp: 2026-03-01T09:00:00+01:00\n${yaml}---\n# Checkpoint\n`;
  const s4 = parseCheckpoint(checkpoint, parseMarkdown(checkpoint));
  for (const [name, text, parsed] of [
    ['S0', s0Text, s0],
    ['S1', handoff, s1],
    ['S2', `version: 1\n${yaml}`, s2],
    ['S4', checkpoint, s4],
  ] as const) {
    assertNothingRaw(JSON.stringify({ sections: parsed.sections, meta: parsed.meta }), name);
    const lines = (parsed.secrets ?? []).map((h) => h.line);
    for (const needle of [`api: !!binary`, 'pem: !!binary', 'db_password: !!binary'])
      assert.ok(lines.includes(at(text, needle)), `${name}: ${needle} at line ${at(text, needle)}, found at ${lines}`);
    assert.ok(!lines.includes(at(text, 'other: ')), `${name}: bytes without a secret are no secret`);
  }
  // S1's list item, shown as an item of the snapshot: its masked form.
  const next = s1.sections.flatMap((s) => s.items).find((i) => i.text.startsWith('next: '));
  assert.equal(next?.text, `next: … (${b64(KEY).length} chars)`);
  assert.ok(s1.secrets?.some((h) => h.line === at(handoff, `  - !!binary`)));
});

test('status, check and the hooks on workspaces holding `!!binary` secrets show neither the base64 nor the bytes, and check names them', () => {
  const dirs: Array<[string, string, string]> = [];
  // S0: under `session:` in .agents.yml.
  const s0 = fixtureCopy('s0/good');
  appendFileSync(path.join(s0, '.agents.yml'), binaries('  '));
  dirs.push(['S0', s0, '.agents.yml']);
  // S1: in the snapshot block of the handoff, and as an item of its `next` list.
  const s1 = fixtureCopy('s1/compression-low');
  const handoff = path.join(s1, 'memory', 'session-handoff-LATEST.md');
  writeFileSync(
    handoff,
    readFileSync(handoff, 'utf8')
      .replace('ts: 2026-05-04\n', `ts: 2026-05-04\n${binaries('')}`)
      .replace('next:\n', `next:\n  - !!binary ${b64(KEY)}\n`),
  );
  dirs.push(['S1', s1, 'memory/session-handoff-LATEST.md']);
  // S2: in context-manifest.yaml.
  const s2 = fixtureCopy('s2/good');
  appendFileSync(path.join(s2, 'context-manifest.yaml'), binaries(''));
  dirs.push(['S2', s2, 'context-manifest.yaml']);
  // S4: in the latest checkpoint's front matter.
  const s4 = fixtureCopy('s4/good');
  const cp = path.join(s4, '.agents', 'checkpoints', '2026-03-05-171200.md');
  writeFileSync(cp, readFileSync(cp, 'utf8').replace('commits: 4\n', `commits: 4\n${binaries('')}`));
  dirs.push(['S4', s4, '.agents/checkpoints/2026-03-05-171200.md']);
  for (const [name, dir, rel] of dirs) {
    gitInit(dir);
    for (const args of [['status'], ['status', '--json'], ['check'], ['check', '--json']]) {
      const r = cli([...args, '--root', dir]);
      assertNothingRaw(r.stdout + r.stderr, `${name} ${args.join(' ')}`);
    }
    for (const [hook, input] of [
      ['session-start', { session_id: 's1', hook_event_name: 'SessionStart', source: 'compact', cwd: dir }],
      ['pre-compact', { session_id: 's1', hook_event_name: 'PreCompact', trigger: 'manual', cwd: dir }],
    ] as const) {
      // The hook script's own entry in this process (hookScript): what it writes is under test, not its process.
      const r = hookScript(HOOK_SCRIPT, ['hook', hook], {
        input: JSON.stringify(input),
        env: { CLAUDE_PROJECT_DIR: dir },
      });
      assert.ok(r.code === 0 || r.code === 2, `${name} hook ${hook}: ${r.code} ${r.stderr}`);
      assertNothingRaw(r.stdout + r.stderr, `${name} hook ${hook}`);
    }
    // check names the key and the private key at their lines, with the masked form the model holds.
    const check = cli(['check', '--root', dir]).stdout;
    const lines = readFileSync(path.join(dir, rel), 'utf8').split('\n');
    for (const [rule, needle] of [
      ['Anthropic API key', 'api: !!binary'],
      ['private key', 'pem: !!binary'],
    ]) {
      const line = lines.findIndex((l) => l.includes(needle)) + 1;
      assert.ok(
        check.includes(`Possible ${rule} in a YAML !!binary value in ${rel}:${line} (… (`),
        `${name}: ${rule} at ${rel}:${line}\n${check}`,
      );
    }
  }
});

test('masking `!!binary` values takes time linear in them', () => {
  const many = (n: number) =>
    `a: 1\n${Array.from({ length: n }, (_, i) => `k${i}: !!binary ${b64(`${KEY}${i}`)}`).join('\n')}\n`;
  const read = (t: string) => {
    const y = readYaml(t);
    return [y.data.value, y.secrets];
  };
  assert.equal(readYaml(many(10)).secrets.length, 10);
  assertLinear('!!binary values', read, many(1_000), many(4_000));
  assertLinearStringWork('!!binary values', read, many, 100);
});
