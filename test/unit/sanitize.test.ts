/**
 * Sanitize, for every system: personal data (e-mail addresses, phone numbers, postal addresses) and
 * assigned secrets whatever characters their value holds (`KEY=Qz7#wR4$…`) are found, refuse the
 * go-signal and are masked in the model: no surface (the CLI's text, its JSON, the next action)
 * shows a raw value. Values that only look alike (dates, versions, git remotes) are left alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskSecrets } from '../../src/core/secrets/secrets';
import { assertLinear, cli } from './helpers';
import { assertNoRefusal, assertRefuses, goodWith, HOME, report } from './probe-helpers';

const FOUND: Array<[string, string, string]> = [
  // [line, the raw value that must not survive, rule]
  ['- Contact: jane.doe@acme-corp.com for the staging login', 'jane.doe@acme-corp.com', 'e-mail address'],
  ['Ask <ops+alerts@tidewatch.co.uk>', 'ops+alerts@tidewatch.co.uk', 'e-mail address'],
  ['[write](mailto:jane.doe@acme-corp.com)', 'jane.doe@acme-corp.com', 'e-mail address'],
  ['deploy via https://deploy:hunter2secret@ci.internal.net/hook', 'hunter2secret', 'URL with embedded credentials'],
  ['- Call +49 30 1234 5678 if the deploy hangs', '+49 30 1234 5678', 'phone number'],
  ['- phone: +1 (415) 555-0123', '+1 (415) 555-0123', 'phone number'],
  ['the harbour master: (415) 555-0199', '(415) 555-0199', 'phone number'],
  ['call 415-555-0123 after 6', '415-555-0123', 'phone number'],
  ['- Ship the sample to 221B Baker Street, London', '221B Baker Street', 'postal address'],
  ['- Office: 1600 Amphitheatre Pkwy, Mountain View', '1600 Amphitheatre Pkwy', 'postal address'],
  ['- Lieferadresse: Hauptstraße 12, 10115 Berlin', 'Hauptstraße 12', 'postal address'],
  ['- 住所: 〒100-0001 東京都千代田区', '〒100-0001', 'postal address'],
  ['- refund to the card 4539 1488 0343 6467 on Monday', '4539 1488 0343 6467', 'payment card number'],
  ['- card: 5500-1234-5678-9019', '5500-1234-5678-9019', 'payment card number'],
  ['- paid with 6011123456789019.', '6011123456789019', 'payment card number'],
  ['- Amex 3456 789012 34564 (expires 09/28)', '3456 789012 34564', 'payment card number'],
  ["- the applicant's SSN is 123-45-6789", '123-45-6789', 'social security number'],
  ['KEY=Qz7#wR4$xY9!pL2', 'Qz7#wR4$xY9!pL2', 'assigned secret'],
  ['- `STRIPE_KEY=Qz7#wR4$xY9!` is set in CI', 'Qz7#wR4$xY9!', 'assigned secret'],
  ['DB_PASSWORD=p@ss#word!2026', 'p@ss#word!2026', 'assigned secret'],
  ['- api_key: "Qz7#wR4$xY9!pL2&mN8"', 'Qz7#wR4$xY9!pL2&mN8', 'assigned secret'],
  ['client_secret = Qz7#wR4$xY9!pL2~', 'Qz7#wR4$xY9!pL2~', 'assigned secret'],
];

const LEFT: string[] = [
  '### 2026-03-04 - token bucket + Redis store skeleton',
  '- **Branch / HEAD:** `main` @ `3f2a9c1`',
  '- **Gates:** checks green, tests 42/42, CI green',
  '- git remote: git@github.com:tidewatch/tidewatch.git',
  '- icons: logo@2x.png and logo@3x.png',
  '- mail goes to a.person@example.com in the docs',
  '- bot: 41898282+github-actions[bot]@users.noreply.github.com',
  '- `SORT_KEY=created_at` orders the list',
  '- `CACHE_KEY=invoices` names the cache',
  '- version 1.22.3, node v20.20.2, npm@10.8.2',
  '- the window is 10:30-12:00 UTC on 2026-12-03',
  '- issue #142, PR 1234, 72 identical readings over 12 hours',
  '- 3 files changed, 1200 lines, 2M rows, 10k rows/s',
  '- Stream rows from `InvoiceRepo.cursor()` into `csvWriter` in src/export/csv.ts',
  '- timestamp: 2026-03-05T17:12:00+01:00',
  '- password: in the keychain under "tidewatch-staging"',
  '- @types/node and @vscode/test-electron',
  '- Read docs/state/STATE.md and continue from the Now ▶ action.',
  // Card-shaped numbers that are no card: published test cards, a wrong check digit, no issuer's prefix, timestamps.
  '- Stripe test card 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined',
  '- Braintree: 4111111111111111 and 5555-5555-5555-4444',
  '- order 4539148803436468 failed twice',
  '- epoch 1765045200000 ms, 1765045200000000000 ns; id 9999 1234 5678 9012',
  '- SSN-shaped but no number: 000-12-3456, 666-12-3456, 900-12-3456, 123-00-4567, 123-45-0000',
];

test('maskSecrets finds personal data and assigned secrets of any characters, and masks them', () => {
  for (const [line, raw, rule] of FOUND) {
    const { text, hits } = maskSecrets(line);
    assert.ok(
      hits.some((h) => h.rule === rule),
      `${rule} not found in: ${line} (${JSON.stringify(hits)})`,
    );
    assert.ok(!text.includes(raw), `${raw} survives masking: ${text}`);
    assert.equal(hits.find((h) => h.rule === rule)?.kind, /secret|credentials/.test(rule) ? undefined : 'personal');
  }
});

test('maskSecrets leaves dates, versions, hashes, git remotes, example addresses and settings alone', () => {
  for (const line of LEFT) assert.deepEqual(maskSecrets(line).hits, [], line);
});

test('the personal-data scanners take linear time on long hostile lines', () => {
  const mk = (n: number): string =>
    `${'a.'.repeat(n)}@${'b-'.repeat(n)} ${'+1 '.repeat(n)}${'12 Aa '.repeat(n)}${'KEY='.repeat(n)}${'4539 '.repeat(n)}${'123-45-'.repeat(n)}${'4'.repeat(n)}`;
  assertLinear('maskSecrets', (s) => maskSecrets(s), mk(5_000), mk(20_000));
});

const RAW = [
  'jane.doe@acme-corp.com',
  '+49 30 1234 5678',
  'Hauptstraße 12',
  '4539 1488 0343 6467',
  '123-45-6789',
  'Qz7#wR4$xY9!pL2',
];
const LINE =
  '- Contact jane.doe@acme-corp.com or +49 30 1234 5678 (Hauptstraße 12), card 4539 1488 0343 6467, SSN 123-45-6789; staging `KEY=Qz7#wR4$xY9!pL2`';

for (const system of ['S0', 'S1', 'S2', 'S3', 'S4']) {
  test(`${system}: personal data and an assigned secret in the state file refuse and never reach a surface raw`, async () => {
    const dir = goodWith(system, { [HOME[system]]: (t) => `${t.trimEnd()}\n${LINE}\n` });
    const s = await report(dir, system);
    const personal = assertRefuses(s, 'no-personal-data');
    assert.equal(personal.path, HOME[system]);
    assert.deepEqual(
      s.checks
        .filter((c) => c.id === 'no-personal-data')
        .map((c) => c.message.replace(/ in .*/, ''))
        .sort(),
      [
        'Possible e-mail address',
        'Possible payment card number',
        'Possible phone number',
        'Possible postal address',
        'Possible social security number',
      ],
    );
    assertRefuses(s, 'no-secrets');
    const home = s.docs.find((d) => d.relPath === HOME[system]);
    assert.ok(home);
    for (const raw of RAW) assert.ok(!home.text.includes(raw), `${raw} in the model's text`);
    const out = [
      cli(['status', '--root', dir, '--json']),
      cli(['check', '--root', dir]),
      cli(['status', '--root', dir]),
    ];
    for (const o of out) {
      assert.match(o.stdout, /no-personal-data/, `the CLI ran and reported: ${o.stderr}`);
      for (const raw of RAW) assert.ok(!`${o.stdout}${o.stderr}`.includes(raw), `${raw} shown raw by the CLI`);
    }
  });
}

test('a next action that holds an e-mail address is shown masked', async () => {
  const dir = goodWith('S2', {
    [HOME.S2]: (t) =>
      t.replace(
        /## NEXT\n[^\n]+/,
        '## NEXT\nSend `out/sample.csv` to jane.doe@acme-corp.com and ask whether Excel 16.8 opens it.',
      ),
  });
  const s = await report(dir, 'S2');
  assert.ok(
    s.next && !s.next.includes('jane.doe@acme-corp.com') && s.next.includes('Send `out/sample.csv` to'),
    s.next ?? '',
  );
});

test('the good fixtures hold no personal data', async () => {
  for (const system of ['S0', 'S1', 'S2', 'S3', 'S4']) {
    const s = await report(goodWith(system), system);
    assert.ok(
      s.checks.some((c) => c.id === 'no-personal-data' && c.status === 'pass'),
      system,
    );
  }
  assertNoRefusal(await report(goodWith('S0'), 'S0'));
});
