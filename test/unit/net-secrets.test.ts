/**
 * Every secret family `secrets.ts` knows: an input that must be found and masked (the raw value
 * gone from the text, the masked form in its place, the rule named) and near misses that must not
 * be (one character short, glued to a word, a placeholder). Removing a pattern, shortening or
 * lengthening a quantifier, or dropping a guard makes one of these fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mask, maskSecrets } from '../../src/core/secrets/secrets';
import { evaluate } from '../../src/core/report/evaluate';
import { workspace } from './helpers';

/** `n` characters cycling through `alphabet` (deterministic, no real token). */
function chars(n: number, alphabet = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0z'): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[i % alphabet.length];
  return s;
}

const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

interface Family {
  rule: string;
  /** Inputs whose secret must be masked, with the exact value that is masked and how many characters stay. */
  hits: Array<{ line: string; value: string; keep?: number }>;
  /** Lines with nothing to mask. */
  misses: string[];
}

const gh36 = chars(36);
const FAMILIES: Family[] = [
  {
    rule: 'AWS access key',
    hits: [
      { line: `aws key AKIA${UP.slice(0, 16)} in the env`, value: `AKIA${UP.slice(0, 16)}` },
      { line: `temp ASIA${UP.slice(4, 20)}`, value: `ASIA${UP.slice(4, 20)}` },
    ],
    misses: [
      `AKIA${UP.slice(0, 15)} is 15`,
      `AKIA${UP.slice(0, 17)} is 17`,
      `xAKIA${UP.slice(0, 16)}`,
      `AKIB${UP.slice(0, 16)}`,
    ],
  },
  {
    rule: 'GitHub token',
    hits: [
      ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((p) => ({ line: `token ${p}${gh36} end`, value: `${p}${gh36}` })),
      { line: `GH ${'github_pat_'}${chars(40)}`, value: `github_pat_${chars(40)}` },
      { line: `x-ghp_${gh36}`, value: `ghp_${gh36}` },
    ],
    misses: [`ghp_${chars(35)}`, `ghx_${gh36}`, `github_pat_${chars(39)}`, `aghp_${gh36}`],
  },
  {
    rule: 'Anthropic API key',
    hits: [{ line: `ANTHROPIC sk-ant-${chars(20)}`, value: `sk-ant-${chars(20)}` }],
    // sk-ant- with 19 characters is too short for Anthropic and for OpenAI (which needs 32 after sk-).
    misses: [`sk-ant-${chars(19)}`],
  },
  {
    rule: 'OpenAI API key',
    hits: [
      { line: `key sk-${chars(32)}`, value: `sk-${chars(32)}` },
      { line: `key sk-proj-${chars(32)}`, value: `sk-proj-${chars(32)}` },
      { line: `key sk-svcacct-${chars(32)}`, value: `sk-svcacct-${chars(32)}` },
    ],
    misses: [`sk-${chars(31)}`, `ask-${chars(32)}`, `sk-proj-${chars(26)}`],
  },
  {
    rule: 'Slack token',
    hits: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxr-', 'xoxs-'].map((p) => ({
      line: `slack ${p}${chars(10)}`,
      value: `${p}${chars(10)}`,
    })),
    misses: [`xoxb-${chars(9)}`, `xoxc-${chars(12)}`, `axoxb-${chars(12)}`],
  },
  {
    rule: 'Google API key',
    hits: [{ line: `maps AIza${chars(35)} here`, value: `AIza${chars(35)}` }],
    misses: [`AIza${chars(34)}`, `AIza${chars(36)}`, `xAIza${chars(35)}`],
  },
  {
    rule: 'Stripe key',
    hits: [
      { line: `stripe sk_live_${chars(20)}`, value: `sk_live_${chars(20)}` },
      { line: `stripe rk_live_${chars(24)}`, value: `rk_live_${chars(24)}` },
      // A test key opens the account's test data: a credential too.
      { line: `stripe sk_test_${chars(24)}`, value: `sk_test_${chars(24)}` },
    ],
    misses: [`sk_live_${chars(19)}`, `ask_live_${chars(24)}`],
  },
  {
    rule: 'npm token',
    hits: [{ line: `//registry.npmjs.org/:_authToken npm_${chars(36)}`, value: `npm_${chars(36)}` }],
    misses: [`npm_${chars(35)}`, `npm_${chars(37)}`, `anpm_${chars(36)}`],
  },
  {
    rule: 'assigned secret',
    hits: [
      { line: `password = ${chars(12)}`, value: chars(12), keep: 0 },
      { line: `DB_PASSWORD=${chars(16)}`, value: chars(16), keep: 0 },
      { line: `OPENAI_API_KEY: "${chars(20)}"`, value: chars(20), keep: 0 },
      { line: `aws_secret_access_key = ${chars(40)}`, value: chars(40), keep: 0 },
      { line: `GITHUB_TOKEN=${chars(20)}`, value: chars(20), keep: 0 },
      { line: `client_secret: ${chars(24)}`, value: chars(24), keep: 0 },
      { line: `MY_APP_SECRET=${chars(24)}`, value: chars(24), keep: 0 },
      { line: `passwd:${chars(12)}`, value: chars(12), keep: 0 },
      { line: `private_key = ${chars(30)}`, value: chars(30), keep: 0 },
      { line: `auth-token = ${chars(30)}`, value: chars(30), keep: 0 },
      { line: `access_token = ${chars(30)}`, value: chars(30), keep: 0 },
      { line: `secret_key = ${chars(30)}`, value: chars(30), keep: 0 },
      { line: `accesskey = ${chars(30)}`, value: chars(30), keep: 0 },
    ],
    misses: [
      `password = ${chars(11)}`,
      `token = ${chars(30)}`,
      `secret = ${chars(30)}`,
      `password = xxxxxxxxxxxxxxxx`,
      `password = ********************`,
      `API_KEY = your_api_key_goes_here`,
      `password = \${DB_PASSWORD_FROM_ENV}`,
      `password = <the password>`,
      `password = example-password-123`,
      `password = changeme-changeme`,
      `password: dummy-value-here`,
      `password: redacted-redacted`,
      `password: fake-password-xyz`,
      `mypassword_hint is remembered elsewhere`,
      `passwords are kept in the vault`,
    ],
  },
  {
    rule: 'JSON Web Token',
    hits: [
      {
        line: `bearer eyJ${chars(10)}.eyJ${chars(11)}.${chars(10)}`,
        value: `eyJ${chars(10)}.eyJ${chars(11)}.${chars(10)}`,
      },
      {
        line: `a-eyJ${chars(12)}.eyJ${chars(12)}.${chars(12)} b`,
        value: `eyJ${chars(12)}.eyJ${chars(12)}.${chars(12)}`,
      },
    ],
    misses: [
      `eyJ${chars(9)}.eyJ${chars(11)}.${chars(10)}`,
      `eyJ${chars(10)}.eyJ${chars(9)}.${chars(10)}`,
      `eyJ${chars(10)}.eyJ${chars(11)}.${chars(9)}`,
      `eyJ${chars(10)}.abc${chars(11)}.${chars(10)}`,
      `eyJ${chars(10)}..eyJ${chars(11)}.${chars(10)}`,
      `xeyJ${chars(10)}.eyJ${chars(11)}.${chars(10)}`,
    ],
  },
  {
    rule: 'URL with embedded credentials',
    hits: [
      { line: 'deploy via https://deploy:hunter2secret@ci.internal.net/hook', value: 'hunter2secret', keep: 0 },
      { line: 'db postgres+ssl://app:pw@db', value: 'pw', keep: 0 },
      { line: '"mongodb://u:p4ss@h"', value: 'p4ss', keep: 0 },
    ],
    misses: [
      'see https://example.net/a:b@c',
      'https://user@host.net/ has no password',
      'https://user:@host.net/ empty password',
      'https://:pw@host.net/ no user',
      'https://user:pw@ no host',
      'https://user:pw@/path no host',
      '_https://user:pw@host.net glued to a word',
      '://user:pw@host no scheme',
      '1http://user:pw@host scheme starts with a digit',
    ],
  },
  {
    rule: 'e-mail address',
    hits: [
      { line: 'write to jane.doe@acme-corp.com today', value: 'jane.doe@acme-corp.com', keep: 0 },
      { line: '<a.b+c%d@mail.tidewatch.co.uk>', value: 'a.b+c%d@mail.tidewatch.co.uk', keep: 0 },
      { line: '[mail](mailto:ops@acme.io)', value: 'ops@acme.io', keep: 0 },
      { line: 'end of a sentence: ops@acme.io.', value: 'ops@acme.io', keep: 0 },
    ],
    misses: [
      'docs say a.person@example.com',
      'a reserved ops@build.test and ops@host.invalid',
      'bot 1+bot@users.noreply.github.com',
      'git@github.com:tidewatch/tidewatch.git',
      'noreply@acme.io sends the digest',
      'icons logo@2x.png',
      'a package path /node_modules/@types/node@20.1',
      'npm@10.8.2 and @scope/pkg',
      'nothing @ here',
    ],
  },
  {
    rule: 'phone number',
    hits: [
      { line: 'call +49 30 1234 5678 now', value: '+49 30 1234 5678', keep: 0 },
      { line: 'call +1 (415) 555-0123', value: '+1 (415) 555-0123', keep: 0 },
      { line: 'desk (415) 555-0199', value: '(415) 555-0199', keep: 0 },
      { line: 'cell 415.555.0123', value: '415.555.0123', keep: 0 },
      // 8 digits (the least) and 15 (the most).
      { line: 'short +49 123 456', value: '+49 123 456', keep: 0 },
      { line: 'long +123 4567 8901 2345', value: '+123 4567 8901 2345', keep: 0 },
    ],
    misses: [
      'seven +49 12 345',
      'sixteen +123 4567 8901 23456',
      'date 2026-03-04',
      'version 1.22.3',
      'a path a/415-555-0123',
      '415-555-01234',
      'ratio 415-555-0123/2',
    ],
  },
  {
    rule: 'postal address',
    hits: [
      { line: 'ship to 221B Baker Street, London', value: '221B Baker Street', keep: 0 },
      { line: 'at 1600 Amphitheatre Pkwy', value: '1600 Amphitheatre Pkwy', keep: 0 },
      { line: 'Hauptstraße 12, Berlin', value: 'Hauptstraße 12', keep: 0 },
      { line: 'Lindenallee 4a', value: 'Lindenallee 4a', keep: 0 },
      { line: 'at Rue de Rivoli, 4 in Paris', value: 'Rue de Rivoli, 4', keep: 0 },
      { line: '〒100-0001 東京都', value: '〒100-0001', keep: 0 },
    ],
    misses: [
      '221B is a flat',
      'run 3 Baker jobs',
      '12 tests in Hauptstraße',
      'Hauptstraße12',
      'the main street 12',
      '100-0001 without the mark',
    ],
  },
  {
    rule: 'assigned secret',
    hits: [
      { line: 'KEY=Qz7#wR4$', value: 'Qz7#wR4$', keep: 0 },
      { line: 'STRIPE_KEY=Qz7#wR4$xY9!', value: 'Qz7#wR4$xY9!', keep: 0 },
      { line: 'DB_PASS="Ab3dEf6hIj9k"', value: 'Ab3dEf6hIj9k', keep: 0 },
      { line: 'APP_CREDENTIALS=aB3dE5gH7jK9mN1pQ2rS', value: 'aB3dE5gH7jK9mN1pQ2rS', keep: 0 },
    ],
    misses: [
      'SORT_KEY=created_at',
      'CACHE_KEY=invoices',
      'KEY=Qz7#wR4',
      'key=Qz7#wR4$ (lower case is not env style)',
      'MONKEY=Qz7#wR4$xY9!',
    ],
  },
];

for (const f of FAMILIES) {
  test(`secret family ${f.rule} (${f.hits[0].value.slice(0, 6)}…): found and masked; near misses left alone`, () => {
    for (const h of f.hits) {
      const { text, hits } = maskSecrets(`# Notes\n${h.line}\n`);
      assert.equal(hits.length, 1, `${h.line}: ${JSON.stringify(hits)}`);
      assert.equal(hits[0].rule, f.rule, h.line);
      assert.equal(hits[0].line, 2);
      const masked = mask(h.value, h.keep ?? 4);
      assert.equal(hits[0].masked, masked, h.line);
      assert.ok(!text.includes(h.value), `raw value left in: ${text}`);
      assert.equal(text, `# Notes\n${h.line.replace(h.value, masked)}\n`);
    }
    for (const m of f.misses) {
      const r = maskSecrets(`${m}\n`);
      assert.deepEqual(r.hits, [], `near miss masked: ${m}`);
      assert.equal(r.text, `${m}\n`);
    }
  });
}

test('env-style assigned secret: a value that looks generated (3 character classes, or 2 and 20+ characters)', () => {
  const found = (v: string) => maskSecrets(`DB_PASS=${v}`).hits.length === 1;
  // Three classes at the least length (8).
  assert.deepEqual(['aB3dE5gH', 'ab3de5g#', 'AB3DE5G#', 'abCDef#!'].map(found), [true, true, true, true]);
  // Two classes: 19 characters is a setting, 20 a secret.
  assert.deepEqual([found('ab3de5gh7jk9mn1pq2r'), found('ab3de5gh7jk9mn1pq2rs')], [false, true]);
  assert.deepEqual([found('abcdefghijKLMNOPQRS'), found('abcdefghijKLMNOPQRST')], [false, true]);
  // One class, however long, is a word or a number.
  assert.deepEqual([found('abcdefghijklmnopqrstuvwxyz'), found('12345678901234567890123')], [false, false]);
  // Under 8 characters: not a value of this rule at all.
  assert.equal(found('aB3#eF7'), false);
});

test("a URL's user:password@host is its credentials, not an e-mail address", () => {
  assert.deepEqual(
    maskSecrets('https://user:pw@host.io/x').hits.map((h) => h.rule),
    ['URL with embedded credentials'],
  );
});

test('secret mask: the public prefix and the length, nothing else', () => {
  assert.equal(mask('ghp_abcdefgh'), 'ghp_… (12 chars)');
  assert.equal(mask('hunter2', 0), '… (7 chars)');
  assert.equal(mask('ab', 4), 'ab… (2 chars)');
});

test('secret family private key: the BEGIN line is named, every body line masked, lines after END untouched', () => {
  const body = ['MIIEowIBAAKCAQEAx1', 'b2c3d4e5f6g7h8i9j0+/=', 'Proc-Type: 4,ENCRYPTED', 'DEK-Info: AES-128-CBC,00'];
  for (const kind of [
    'RSA PRIVATE KEY',
    'PRIVATE KEY',
    'OPENSSH PRIVATE KEY',
    'ENCRYPTED PRIVATE KEY',
    'PGP PRIVATE KEY BLOCK',
  ]) {
    const text = [
      'intro',
      `-----BEGIN ${kind}-----`,
      ...body,
      '',
      `-----END ${kind}-----`,
      'after stays',
      'MIIEowIBAAKCAQEAx1',
    ].join('\n');
    const r = maskSecrets(text);
    assert.deepEqual(
      r.hits.map((h) => [h.rule, h.line]),
      [['private key', 2]],
      kind,
    );
    const lines = r.text.split('\n');
    assert.equal(lines.length, 10);
    assert.deepEqual(
      lines.slice(2, 6),
      body.map((b) => mask(b, 0)),
      kind,
    );
    assert.deepEqual(
      [lines[0], lines[1], lines[6], lines[7], lines[8], lines[9]],
      ['intro', `-----BEGIN ${kind}-----`, '', `-----END ${kind}-----`, 'after stays', 'MIIEowIBAAKCAQEAx1'],
    );
  }
  // Near misses: a public key, a certificate, and a body line too short to be base64 of a key.
  for (const kind of ['PUBLIC KEY', 'CERTIFICATE']) {
    const text = `-----BEGIN ${kind}-----\nMIIEowIBAAKCAQEAx1\n-----END ${kind}-----\n`;
    assert.deepEqual(maskSecrets(text), { text, hits: [] }, kind);
  }
  const short = maskSecrets('-----BEGIN PRIVATE KEY-----\nabc\nMIIEowIBAAKCAQEAx1\n');
  assert.deepEqual(short.text.split('\n').slice(1), ['abc', 'MIIEowIBAAKCAQEAx1', ''], 'prose ends the key body');
  // Without an END line the body ends after 200 lines at most.
  const long = maskSecrets(
    ['-----BEGIN PRIVATE KEY-----', ...Array.from({ length: 205 }, () => 'MIIEowIBAAKCAQEAx1')].join('\n'),
  );
  const ll = long.text.split('\n');
  assert.equal(ll[199], mask('MIIEowIBAAKCAQEAx1', 0));
  assert.equal(ll[200], 'MIIEowIBAAKCAQEAx1');
});

test('secret masking: two secrets on one line both masked, in order; overlapping matches masked once', () => {
  const a = `ghp_${gh36}`;
  const b = `xoxb-${chars(12)}`;
  const r = maskSecrets(`${a} and ${b}`);
  assert.deepEqual(
    r.hits.map((h) => h.rule),
    ['GitHub token', 'Slack token'],
  );
  assert.equal(r.text, `${mask(a)} and ${mask(b)}`);
  // `GITHUB_TOKEN=ghp_…` is both an assignment and a GitHub token: one mask, the longest earliest match.
  const both = maskSecrets(`GITHUB_TOKEN=${a}`);
  assert.equal(both.hits.length, 1);
  assert.equal(both.text, `GITHUB_TOKEN=${mask(a, both.hits[0].rule === 'GitHub token' ? 4 : 0)}`);
  // A text with no secret is returned as the same string.
  const plain = 'nothing here\n';
  assert.equal(maskSecrets(plain).text, plain);
});

test('secrets are masked in what every surface reads: the document text, items, next action and JSON', async () => {
  const token = `sk-ant-${chars(30)}`;
  const slack = `xoxp-${chars(20)}`;
  const dir = workspace({
    'docs/state/STATE.md': `# STATE\n\n## Handoff\n- **Gates:** tests 1/1\n- **Now ▶** rotate ${token} in \`config/app.ts\`\n\n## Log\n- 2026-03-01 ${slack}\n`,
  });
  const report = await evaluate(dir);
  const json = JSON.stringify(report);
  for (const raw of [token, slack]) assert.ok(!json.includes(raw), `raw ${raw.slice(0, 8)} in the report`);
  assert.ok(json.includes(mask(token)));
  assert.ok(json.includes(mask(slack)));
  const s3 = report.systems.find((s) => s.id === 'S3');
  assert.ok(s3);
  assert.equal(s3.next, `rotate ${mask(token)} in \`config/app.ts\``);
  const sec = s3.checks.filter((c) => c.id === 'no-secrets');
  assert.deepEqual(
    sec.map((c) => [c.status, c.line]),
    [
      ['fail', 5],
      ['fail', 8],
    ],
  );
});

test('URL credentials: white space (Unicode too), quotes, angle brackets, / and @ end the user info (nothing read across them)', () => {
  assert.deepEqual(maskSecrets('https://a@b:pw@y.io').hits, []);
  for (const sp of [' ', '\t', '"', "'", '<', '>', '/', '\u00a0', '\u3000']) {
    assert.deepEqual(maskSecrets(`https://host.io${sp}me:pw@y.io`).hits, [], JSON.stringify(sp));
    assert.equal(maskSecrets(`https://me:pw@y.io${sp}x`).hits.length, 1, JSON.stringify(sp));
  }
  // An invisible separator (U+2028, U+2029, U+FEFF) and a control character (NEL, U+0085, is C1) are dropped
  // from every output, so the text is looked at without them.
  for (const sp of ['\u2028', '\u2029', '\ufeff', '\u0085'])
    assert.equal(maskSecrets(`https://host.io${sp}me:pw@y.io`).hits.length, 1, JSON.stringify(sp));
});
