/**
 * What an attack round on text found, each case from the hostile input: secrets that reached an
 * output unmasked (a private key and a token on one line, a value wrapped onto the next line, a file
 * with CR line breaks, a format character inside a token, formats the masker did not know, a changed
 * file's `defer:` text), a commit dated past what a date holds (every check said "internal error"),
 * and findings added in quadratic time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { maskSecrets } from '../../src/core/secrets/secrets';
import { addFindings } from '../../src/core/rules/common';
import type { Finding, StateDoc } from '../../src/core/model/model';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { assertLinear, cli, git, gitInit, REPO, workspace, write } from './helpers';

/** `n` characters cycling through `alphabet` (deterministic, no real token). */
function chars(n: number, alphabet = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0z'): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[i % alphabet.length];
  return s;
}

/** `text` masked holds none of `raw`, and says it found something. */
function hidden(text: string, ...raw: string[]): void {
  const r = maskSecrets(text);
  for (const v of raw) assert.ok(!r.text.includes(v), `${JSON.stringify(v)} is masked in ${JSON.stringify(r.text)}`);
  assert.ok(r.hits.length > 0, JSON.stringify(text));
}

const GH = `ghp_${chars(36)}`;
const PASSWORD = 'Qz7#wR4$xK9mPq2L';

test('a private key and a token on one line (a service-account JSON) are both masked, and what follows the key too', () => {
  const body = chars(64, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
  const line = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n", "token": "${GH}"}`;
  hidden(line, body, GH);
  hidden(`NEXT: -----BEGIN RSA PRIVATE KEY-----${body}`, body);
});

test('a secret in a file with CR line breaks is masked, and so is one after a key block there', () => {
  const body = chars(40, 'ABCDEFGHabcdefgh0123456789+/');
  hidden(
    `# Ledger\r- token ${GH}\r-----BEGIN PRIVATE KEY-----\r${body}\r-----END PRIVATE KEY-----\rpassword = ${PASSWORD}\r`,
    GH,
    body,
    PASSWORD,
  );
  const r = maskSecrets(`a\r\npassword = ${PASSWORD}\rb\nc`);
  assert.equal(r.text, 'a\r\npassword = … (16 chars)\rb\nc', 'every line break is kept as it was');
  assert.equal(r.hits[0].line, 2);
});

test('a secret whose value wraps onto the next line (a list continuation, a folded YAML value) is masked; a wrapped list of words is not', () => {
  hidden(`- password:\n  ${PASSWORD}`, PASSWORD);
  hidden(`next:\n  - api_key: >-\n      Zx9${chars(20)}`, `Zx9${chars(20)}`);
  const words = '- password:\n- rotate-the-keys-tomorrow';
  assert.equal(maskSecrets(words).text, words);
});

test('a password after -u or --user is masked wherever the option stands: after a backtick or a parenthesis too', () => {
  hidden('(-u deploy:Qw8rT5yP)', 'Qw8rT5yP');
  hidden('run `curl -u admin:Zx9kLm2Q https://x` first', 'Zx9kLm2Q');
  hidden('curl -u admin:Zx9kLm2Q\n(`--user=deploy:Qw8rT5yP` still works)', 'Zx9kLm2Q', 'Qw8rT5yP');
  const words = 'a follow-up: re-use it';
  assert.equal(maskSecrets(words).text, words);
});

test('a secret in a YAML double-quoted value continued on the next line with a backslash is masked', () => {
  const value = 'Zx9TqLm2Vw7Rz4Kp#a';
  hidden(`next:\n  - "api_key=\\\n    ${value}"`, value);
  hidden(`db:\n  password: "\\\n    ${value}"`, value);
  // A line that ends with a backslash and no secret's name before it stays as it is.
  const plain = `path: "C:\\\n  ${value}"`;
  assert.equal(maskSecrets(plain).text, plain);
});

test('a format character inside a token does not hide it from the masker', () => {
  for (const c of ['\u200b', '\u00ad', '\u2060', '\u202e']) {
    hidden(`token: ${GH.slice(0, 20)}${c}${GH.slice(20)}`, GH.slice(20));
    // Inside the literal a rule looks for first (`ghp_`, `AKIA`, `-u`): the only such line of the file.
    hidden(`Rotate ${GH.slice(0, 2)}${c}${GH.slice(2)}`, GH.slice(8));
    hidden(`key AK${c}IA${'ABCDEFGHIJKLMNOP'}`, 'EFGHIJKLMNOP');
    hidden(`curl -${c}u admin:Zx9kLm2Q`, 'Zx9kLm2Q');
  }
});

test('the credential formats an attack round found shown raw are masked', () => {
  const cases: Array<[string, string]> = [
    [`Authorization: Bearer ${chars(32)}`, chars(32)],
    [`PGPASSWORD=${PASSWORD} psql`, PASSWORD],
    [`curl -u admin:${PASSWORD} https://x`, PASSWORD],
    [`mysql -uroot -p${PASSWORD} db`, PASSWORD],
    [`run --password ${PASSWORD}`, PASSWORD],
    [`glpat-${chars(20)}`, chars(20)],
    [`hf_${chars(34)}`, chars(34)],
    [`SG.${chars(22)}.${chars(43)}`, chars(43)],
    [`ya29.${chars(40)}`, chars(40)],
    [`dop_v1_${'a1'.repeat(32)}`, 'a1'.repeat(32)],
    [`pypi-AgEIcHlwaS5vcmc${chars(60)}`, chars(60)],
    [`https://hooks.slack.com/services/T0123456/B0123456/${chars(24)}`, chars(24)],
    [`123456789:AA${chars(33)}`, chars(33)],
    [`sk_test_${chars(24)}`, chars(24)],
    ['mail jane.doe@corp.local', 'jane.doe@corp.local'],
  ];
  for (const [line, raw] of cases) hidden(line, raw);
  for (const plain of ['mkdir -p build/output-dir', 'git log -u main', 'see docs/password-reset.md']) {
    assert.equal(maskSecrets(plain).text, plain, plain);
  }
});

test('the credential formats a later attack round found shown raw are masked: vendor tokens by prefix, Azure connection strings, basic auth', () => {
  const hex = '0123456789abcdef'.repeat(2);
  const cases: Array<[string, string]> = [
    [`AGE-SECRET-KEY-1${chars(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}`, chars(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')],
    [`GROQ gsk_${chars(52)}`, chars(52)],
    [`xai-${chars(80)}`, chars(80)],
    [`shpat_${hex}`, hex],
    [`runner glrt-${chars(20)}`, chars(20)],
    [`gldt-${chars(24)}`, chars(24)],
    [`notion ntn_${chars(46)}`, chars(46)],
    [`lin_api_${chars(40)}`, chars(40)],
    [`REPLICATE r8_${chars(37)}`, chars(37)],
    [`docker login -p dckr_pat_${chars(27)}`, chars(27)],
    [`client secret GOCSPX-${chars(28)}`, chars(28)],
    [`ATATT3${chars(180)}`, chars(180)],
    [`sntrys_${chars(120)}`, chars(120)],
    [`VAULT hvs.${chars(90)}`, chars(90)],
    [`Twilio SK${hex}`, hex],
    [
      `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${chars(86)}==;EndpointSuffix=core.windows.net`,
      chars(86),
    ],
    [`Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${chars(43)}=`, chars(43)],
    [`curl -H "Authorization: Basic ${btoa(`deploy:${PASSWORD}`)}" https://x`, btoa(`deploy:${PASSWORD}`)],
  ];
  for (const [line, raw] of cases) hidden(line, raw);
  // Words, not secrets: a plain short value, basic prose, a value the placeholder list knows.
  for (const plain of [
    'password: required',
    'Basic usage: run the tests',
    'Basic authentication is off',
    'api_key: changeme1',
    'TASK0123456789abcdef0123456789abcdef',
  ]) {
    assert.equal(maskSecrets(plain).text, plain, plain);
  }
});

test('a name written after a token prefix is prose, not a token: no-secrets passes it; a token after the same prefix is masked', () => {
  for (const plain of [
    'Vault policy: hvs.default_token_policy_lookup',
    'See hvs.secret_tokens_are_described_here_in_the_docs',
    'run glrt-runner-registration-for-project-foo',
    'the flag gl-ft: glft-the-feature-flag-token-name-is-this',
    'hvb.batch_tokens_are_not_renewable_nor_listed',
    'docker push dckr_pat_rotation_script_for_ci_runners',
  ]) {
    assert.equal(maskSecrets(plain).text, plain, plain);
    assert.deepEqual(maskSecrets(plain).hits, [], plain);
  }
  hidden(`VAULT_ADDR set, token hvs.${chars(90)}`, chars(90));
  hidden(`runner glrt-${chars(20)}`, chars(20));
  hidden(
    `hvb.${chars(140, 'abcdefghijklmnopqrstuvwxyz0123456789_-')}`,
    chars(140, 'abcdefghijklmnopqrstuvwxyz0123456789_-'),
  );
  hidden(`shpat_${'0123456789abcdef'.repeat(2)}`, '0123456789abcdef'.repeat(2));
});

test("S3's debt check quotes a changed file's defer: text masked", () => {
  const dir = workspace({
    'docs/state/STATE.md':
      '# State\n\n## Handoff\n\n- **Status:** work\n- **Now ▶** wire the vault\n- **Blocked on:** nothing\n\n## Log\n',
    'docs/state/DEBT.md': '# Debt\n',
  });
  gitInit(dir);
  write(dir, '.env.local', `DB=1 # defer: move DB_PASSWORD=${PASSWORD} to the vault\n`);
  write(dir, 'src/db.ts', `// defer: hard-coded ${GH} until the vault\n`);
  const r = cli(['status', '--root', dir]);
  assert.match(r.stdout, /defer:/);
  assert.ok(!r.stdout.includes(PASSWORD) && !r.stdout.includes(GH), r.stdout);
});

test('a HEAD commit dated past what a date holds is no internal error: the checks run', () => {
  const dir = workspace({
    'docs/state/STATE.md': '# State\n\n## Handoff\n\n- **Status:** work\n- **Now ▶** run the tests\n\n## Log\n',
  });
  gitInit(dir);
  const tree = git(dir, 'rev-parse', 'HEAD^{tree}').trim();
  const body = `tree ${tree}\nauthor a <a@b> 99999999999999 +0000\ncommitter a <a@b> 99999999999999 +0000\n\nfar\n`;
  const oid = spawnSync('git', ['hash-object', '-t', 'commit', '-w', '--literally', '--stdin'], {
    cwd: dir,
    input: body,
    encoding: 'utf8',
  }).stdout.trim();
  git(dir, 'update-ref', 'HEAD', oid);
  const r = cli(['check', '--root', dir]);
  assert.ok(!/internal error/i.test(r.stdout + r.stderr), r.stdout + r.stderr);
  assert.match(r.stdout, /STATE\.md/);
});

test('findings are added in linear time (100k unknown headings took 20 s)', () => {
  const run = (input: string) => {
    const n = input.length;
    const doc = { findings: [] as Finding[] } as unknown as StateDoc;
    const found: Finding[] = [];
    for (let i = 0; i < n; i++)
      found.push({ id: 'unknown-heading', severity: 'info', line: i + 1, message: `## H${i}` } as Finding);
    addFindings(doc, found);
    return doc.findings.length;
  };
  assertLinear('addFindings', run, 'x'.repeat(5_000), 'x'.repeat(20_000));
});

test('a secret a YAML value spells with escapes (\\x61, \\u0041, a line continued with a backslash) is masked as the same secret written plainly: S1 snapshot, .agents.yml', () => {
  const fixture = (id: string, rel: string) => readFileSync(path.join(REPO, 'test/fixtures', id, 'good', rel), 'utf8');
  const raw = ['sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'AKIAABCDEFGHIJKLMNOP'];
  const cases: Array<[string, Record<string, string>]> = [
    [
      'S1 snapshot, \\x61',
      {
        'memory/session-handoff-LATEST.md': fixture('s1', 'memory/session-handoff-LATEST.md').replace(
          /^ctx: .*$/m,
          'ctx: "key sk-ant-\\x61pi03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA end"',
        ),
      },
    ],
    [
      'S1 snapshot, a continued line',
      {
        'memory/session-handoff-LATEST.md': fixture('s1', 'memory/session-handoff-LATEST.md').replace(
          /^ctx: .*$/m,
          'ctx: "key sk-ant-api03-AAAAAAAAAAAAAAA\\\n  AAAAAAAAAAAAAAA end"',
        ),
      },
    ],
    [
      '.agents.yml, \\u0041',
      {
        '.agents.yml': 'session:\n  ledger: true\n  note: "AKIA\\u0041BCDEFGHIJKLMNOP"\n',
        '.agents/session_ledger.md': fixture('s0', '.agents/session_ledger.md'),
      },
    ],
  ];
  for (const [what, files] of cases) {
    const dir = workspace(files);
    for (const args of [['status'], ['status', '--json'], ['check'], ['check', '--json']]) {
      const r = cli([...args, '--root', dir]);
      for (const secret of raw)
        assert.ok(!(r.stdout + r.stderr).includes(secret), `${what}, ${args.join(' ')}: ${secret} shown`);
    }
  }
});

test("S1's TAMPERED finding quotes a sidecar that holds a key with the key masked", () => {
  const dir = workspace({
    'memory/session-handoff-LATEST.md': readFileSync(
      path.join(REPO, 'test/fixtures/s1/good/memory/session-handoff-LATEST.md'),
      'utf8',
    ),
    'memory/.session-handoff.sha256': 'sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n',
  });
  for (const args of [['check'], ['check', '--json'], ['status']]) {
    const r = cli([...args, '--root', dir]);
    assert.match(r.stdout, /TAMPERED/, args.join(' '));
    assert.ok(!(r.stdout + r.stderr).includes('sk-ant-api03'), `${args.join(' ')}: ${r.stdout}`);
  }
});
