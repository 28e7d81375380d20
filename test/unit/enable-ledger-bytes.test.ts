/**
 * "Enable the ledger" (`session-ledger enable-ledger`, the extension's quick fix) on the `.agents.yml` a user
 * wrote: what it shows of the file (the dry run, `--json`'s `after`, the preview's two sides) holds no raw
 * secret, personal data or `!!binary` value, masked as the readers mask them; the write writes the real bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { planEnableLedger } from '../../src/core/systems/s0/enable';
import { maskedYamlText } from '../../src/core/markdown/yaml-tree';
import { assertLinear, workspace } from './helpers';
import { runIn } from './hostile-helpers';

const read = (dir: string) => readFileSync(path.join(dir, '.agents.yml'), 'utf8');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const KEY = 'sk-ant-api03-Qz7wR4xk9Lm2pAb8vT5yj0Np3qBSc9uU6zi1Oq4rC';
const GITHUB = 'ghp_R8sV2mXq7LzK4pT9wN3bY6cJ1hF5dG0aE8uQ';
const PASSWORD = 'Qz7#wR4$xk9!Lm2pA';
const PEM_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const MAIL = 'jane.doe@acme-corp.de';
const PHONE = '+49 30 1234 5678';
/** The API key with some letters written as YAML escapes (`\x73`): the library decodes it back. */
const ESCAPED = KEY.replace(/[a-z]/g, (c, i: number) => (i % 3 ? c : `\\x${c.charCodeAt(0).toString(16)}`));

const SECRET_YML = `# settings; ask ${MAIL} or ${PHONE}
project: demo
api_key: ${KEY}
github_token: ${GITHUB}
db_password: "${PASSWORD}"
escaped: "${ESCAPED}"
next_line_key: !!str
  ${KEY}
deploy_key: |
  -----BEGIN OPENSSH PRIVATE KEY-----
  ${PEM_BODY}
  -----END OPENSSH PRIVATE KEY-----
blob: !!binary ${b64(KEY)}
block: !!binary |
  ${b64(KEY).slice(0, 40)}
  ${b64(KEY).slice(40)}
? !!binary ${b64('a key as a key')}
: value
session:
  ledger: false
`;

/** What must show nowhere: each secret (or its tail, past what a mask keeps), the personal data, each base64. */
const RAW = [
  KEY.slice(8),
  'Qz7wR4xk9Lm2pA',
  GITHUB.slice(6),
  PASSWORD,
  PEM_BODY.slice(0, 24),
  MAIL,
  PHONE,
  b64(KEY).slice(0, 24),
  b64(KEY).slice(40, 64),
  b64('a key as a key'),
];

function assertNothingRaw(out: string, where: string): void {
  for (const s of RAW) assert.ok(!out.includes(s), `${where} shows ${s}:\n${out}`);
}

test('enable-ledger --dry-run, --json and the plan show .agents.yml with its secrets, personal data and !!binary values masked; the write writes the real bytes', async () => {
  const dir = workspace({ '.agents.yml': SECRET_YML });
  const dry = await runIn(['enable-ledger', '--root', dir, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assertNothingRaw(dry.stdout + dry.stderr, 'the dry run');
  // What it shows is the file as it would be: the setting on, the masked values in their places.
  assert.match(dry.stdout, /^ {2}ledger: true$/m);
  assert.match(dry.stdout, /^blob: !!binary … \(72 chars\)$/m);
  assert.match(dry.stdout, /^api_key: sk-a… \(54 chars\)$/m);
  assert.match(dry.stdout, /as it would be \(nothing written\)/);

  const dryJson = await runIn(['enable-ledger', '--root', dir, '--dry-run', '--json']);
  assert.equal(dryJson.code, 0, dryJson.stderr);
  assertNothingRaw(dryJson.stdout, 'the dry run as JSON');
  const j = JSON.parse(dryJson.stdout) as { after: string; written: boolean };
  assert.equal(j.written, false);
  assertNothingRaw(j.after, "the JSON's after (decoded)");
  assert.match(j.after, /^ {2}ledger: true$/m);
  assert.equal(read(dir), SECRET_YML, 'a dry run writes nothing');

  // The preview the extension shows (both sides of its diff) comes from the plan's `shown`.
  const o = await planEnableLedger(dir);
  assert.ok(o.ok);
  assertNothingRaw(o.plan.shown.before, 'the preview before');
  assertNothingRaw(o.plan.shown.after, 'the preview after');
  // The write takes the file's own bytes.
  assert.ok(o.plan.after.includes(PASSWORD) && o.plan.after.includes(MAIL));

  const written = await runIn(['enable-ledger', '--root', dir, '--json']);
  assert.equal(written.code, 0, written.stderr);
  assertNothingRaw(written.stdout, 'the write as JSON');
  assert.equal((JSON.parse(written.stdout) as { written: boolean }).written, true);
  // The file itself holds its own bytes, the setting on.
  const now = read(dir);
  assert.ok(now.includes(PASSWORD) && now.includes(MAIL) && now.includes(GITHUB), now);
  assert.ok(now.replace(/\s/g, '').includes(b64(KEY)), now);
  assert.match(now, /^ {2}ledger: true$/m);
});

test('the preview masks as the readers do: what a shown line holds is the masked value the tree holds', () => {
  const shown = maskedYamlText(SECRET_YML);
  assertNothingRaw(shown, 'maskedYamlText');
  // Lines that hold nothing to mask are shown as written; a block scalar keeps the line break after it.
  assert.ok(shown.startsWith('# settings; ask '));
  assert.match(shown, /^project: demo$/m);
  assert.match(
    shown,
    /^block: !!binary … \(72 chars\)\n\? !!binary … \(20 chars\)\n: value\nsession:\n {2}ledger: false\n$/m,
  );
  assert.match(shown, /^escaped: "sk-a… \(54 chars\)"$/m);
  // A text the library does not read gets the line masker.
  assert.ok(!maskedYamlText(`api_key: ${KEY}\nbroken: [\n`).includes(KEY.slice(8)));
  assert.equal(maskedYamlText(''), '');
});

test("enable-ledger's preview takes time linear in the file", () => {
  const file = (n: number) =>
    `${Array.from({ length: n }, (_, i) => `k${i}: "v ${i}"   # c\nb${i}: !!binary ${b64(`bytes ${i}`)}\n`).join('')}session:\n  ledger: false\n`;
  assertLinear('maskedYamlText', (t) => maskedYamlText(t), file(2000), file(8000));
  // A quoted value with long runs of blanks inside: its end is found without going over each run again.
  const blanks = (n: number) => `api_key: "sk-ant-api03-${'a '.repeat(4) + ' '.repeat(n)}x"\n`;
  assertLinear('maskedYamlText, blanks', (t) => maskedYamlText(t), blanks(50000), blanks(200000));
});
