/**
 * A concrete next action is one you could start cold. Naming a file or a command does not make
 * "continue work in X", "fix the remaining issues in X" or "carry on with `npm test`" concrete:
 * every system's next action refuses them, and the good fixtures' actions still pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isConcreteAction, isPlaceholder, isVagueAction } from '../../src/core/markdown/text';
import { cli, CORPORA, corpusRows, layOutCorpus, workspace, copyDemo } from './helpers';
import { assertNoRefusal, assertRefuses, goodWith, HOME, report, swap } from './probe-helpers';

const VAGUE = [
  'continue work in src/export.ts',
  'Continue working on `src/limiter/middleware.ts`',
  'fix the remaining issues in src/invoices.ts',
  'Fix remaining issues in `parser.ts`.',
  'carry on with `npm test`',
  'Carry on with npm test',
  'keep going on the alerts',
  'resume the work on internal/ledger/balance.go',
  'finish the remaining tasks in docs/plan.md',
  'address the outstanding bugs in the auth module',
  'fix the issues in src/export.ts',
  'pick up where we left off',
  'continue the implementation in `RedisStore`',
  'work on src/export.ts',
  'do the rest',
  'clean up the leftover todos in src/',
  'continue work in src/export.ts (urgency: H)',
  'src/export.ts の作業を続ける',
  'src/export.ts 계속 진행',
];

const CONCRETE = [
  'Wire `exportCsv()` into the Export button in src/invoices.ts and pass the current filter.',
  'wire `RedisStore.take()` into `src/limiter/middleware.ts` per the plan in the 2026-03-04 Log entry below',
  'Stream rows from `InvoiceRepo.cursor()` into `csvWriter` in src/export/csv.ts and run `npm test -- export`.',
  'Add `BalanceByCurrency` to `internal/ledger/balance.go` and make `go test ./internal/ledger/...` pass.',
  'continue wiring the Stop hook into settings.json per the plan in the log entry below',
  'fix the off-by-one in `paginate()` in src/list.ts: the last page repeats its first row',
  'run `npm test -- export` and fix the failing quoting test "escapes quotes"',
  'wire exportCsv into Export button (urgency: H)',
];

test('vague next actions are vague whatever file or command they name; concrete ones are not', () => {
  for (const v of VAGUE) assert.equal(isVagueAction(v), true, `should be vague: ${v}`);
  for (const c of CONCRETE) assert.equal(isVagueAction(c), false, `should be concrete: ${c}`);
});

/** Where each system's good fixture keeps its next action, and how to replace it with `text`. */
const NEXT: Record<string, { file: string; edit: (text: string) => (t: string) => string }> = {
  S0: { file: HOME.S0, edit: (x) => swap(/### Now\n[^\n]+/, `### Now\n${x}`) },
  S1: { file: HOME.S1, edit: (x) => swap(/1\. \*\*Wire the Export button\*\*[^\n]+/, `1. ${x}`) },
  S2: { file: HOME.S2, edit: (x) => swap(/## NEXT\n[^\n]+/, `## NEXT\n${x}`) },
  S3: { file: HOME.S3, edit: (x) => swap(/\*\*Now ▶\*\* [^\n]+/, `**Now ▶** ${x}`) },
  S4: { file: HOME.S4, edit: (x) => swap(/### Next Steps\n\n- [^\n]+/, `### Next Steps\n\n- ${x}`) },
};

for (const [system, where] of Object.entries(NEXT)) {
  test(`${system}: "continue work in X", "fix the remaining issues in X", "carry on with \`npm test\`" refuse the next action`, async () => {
    for (const v of [
      'continue work in src/export.ts',
      'fix the remaining issues in `src/invoices.ts`',
      'carry on with `npm test`',
    ]) {
      const s = await report(goodWith(system, { [where.file]: where.edit(v) }), system);
      assertRefuses(s, 'next-action', v);
    }
  });
}

test("the good fixtures' next actions pass next-action in every system", async () => {
  for (const system of Object.keys(NEXT)) {
    const s = await report(goodWith(system), system);
    const c = s.checks.find((x) => x.id === 'next-action');
    assert.ok(c && c.status === 'pass', `${system} next-action: ${c?.status} ${c?.message}`);
  }
});

test('a good fixture with a concrete next action refuses nothing it did not refuse before (S0, S2)', async () => {
  // S0 and S2's good fixtures are complete without git: nothing blocks.
  for (const system of ['S0', 'S2']) assertNoRefusal(await report(goodWith(system), system), 'on its good fixture');
});

test('the demo workspace (examples/demo-workspace): no system refuses its next action or anything else', async () => {
  const dir = workspace({}, 'sl-demo-');
  copyDemo(dir);
  for (const system of ['S0', 'S1', 'S2', 'S3', 'S4'])
    assertNoRefusal(await report(dir, system), 'in the demo workspace');
});

/** Now ▶ lines whose only symbol-like word is a product, a platform or an abbreviation: nothing to open or run. */
const PRODUCT_ONLY = [
  'Wait on GitHub',
  'Check with the iOS team',
  'Test the release on macOS',
  'Wait for the PostgreSQL upgrade',
  'Port the exporter to TypeScript',
  'Rewrite the widget in JavaScript',
  'Move the backend to FastAPI',
  'Ask the iPhone testers',
  'Wait for YouTube to approve the app',
  'Handle NaN in the totals',
];

test('S3: a product, a platform or an abbreviation that looks like a symbol does not make Now ▶ concrete', async () => {
  for (const now of PRODUCT_ONLY) {
    const s = await report(goodWith('S3', { [HOME.S3]: NEXT.S3.edit(now) }), 'S3');
    const c = assertRefuses(s, 'next-action', now);
    assert.match(c.message, /names no file, command, symbol or test/, now);
  }
});

test('S3: a corpus STATE.md whose Now ▶ names only a product fails next-action and check exits 1', () => {
  let seen = 0;
  for (const corpus of CORPORA) {
    for (const row of corpusRows(corpus.dir, ['F4']).filter((r) => r.path === 'docs/state/STATE.md')) {
      const text = readFileSync(path.join(corpus.dir, row.savedAs), 'utf8');
      if (!/\*\*Now ▶\*\* \S/.test(text)) continue;
      seen++;
      const dir = workspace();
      layOutCorpus(corpus.dir, dir, [row]);
      const file = path.join(dir, row.path);
      // Its own Now ▶ ("run `begin`") names a command: the check passes as it is.
      const next = (d: string) => {
        const r = cli(['check', '--json', '--root', d]);
        const s3 = (
          JSON.parse(r.stdout) as { systems: Array<{ id: string; checks: Array<{ id: string; status: string }> }> }
        ).systems.find((x) => x.id === 'S3');
        return { code: r.code, status: s3?.checks.find((c) => c.id === 'next-action')?.status };
      };
      assert.equal(next(dir).status, 'pass', `${corpus.name} ${row.savedAs}`);
      for (const now of ['Wait on GitHub', 'Check with the iOS team', 'Port the exporter to TypeScript']) {
        writeFileSync(file, text.replace(/(\*\*Now ▶\*\* )[^\n]+/, `$1${now}`));
        assert.deepEqual(next(dir), { code: 1, status: 'fail' }, `${corpus.name} ${row.savedAs}: ${now}`);
      }
    }
  }
  assert.ok(seen > 0, 'no corpus STATE.md with a Now ▶ line');
});

test('code named beside a product, or a code name shaped like one, keeps the next action concrete', () => {
  for (const c of [
    'fetchUser',
    'UserService.create',
    'parse_config',
    'README.md',
    'run `npm test`',
    'fix `toJSON` for dates',
    'fix toJSON for dates',
    'call Convert.ToByte on the encoder output',
    'wire RedisStore into the middleware',
    'make AnalysisResultSet immutable',
    'implement the G1 walk command (LowCmd via DDS)',
    'add a --dry-run flag to the exporter',
    'wire the SessionStart hook into settings.json',
    'port `exportCsv()` to TypeScript',
    'add the GitHub webhook handler in src/hooks/github.ts',
    'wire queueReminder into the iOS build',
    'pass UserID through to the audit log',
    'read BaseURL from the environment',
    'return an OrderDTO from the handler',
    'fix the xAxis labels on the chart',
    'patch vNode before the diff',
    'send the eTag with the retry',
    'log ClientIP on each request',
  ])
    assert.equal(isConcreteAction(c), true, c);
  for (const v of PRODUCT_ONLY) assert.equal(isConcreteAction(v), false, v);
});

test('a tool whose name is an everyday word names a command only where it reads as one', async () => {
  // S3's Now ▶: "make sure", "just", "the node" run nothing.
  for (const now of ['make sure the build passes', 'just wait for the review', 'ask Bob why the node is down']) {
    const s = await report(goodWith('S3', { [HOME.S3]: NEXT.S3.edit(now) }), 'S3');
    assertRefuses(s, 'next-action', now);
  }
  // An aside after a placeholder that uses such a word fills nothing in: S0's Now stays a placeholder (and
  // with no Next to fall back on, the ledger has no next action).
  for (const now of ['TBD (just waiting on Bob)', 'TODO (make sure Bob signs off)']) {
    const edit = swap(/### Now\n[^\n]+\n\n### Next\n[^\n]+/, `### Now\n- ${now}`);
    const s = await report(goodWith('S0', { [HOME.S0]: edit }), 'S0');
    assertRefuses(s, 'next-action', now);
  }
  for (const c of ['run make test', '$ make -j4 check', 'bundle exec rspec', 'node --test out/', 'run just lint'])
    assert.equal(isConcreteAction(c), true, c);
});

test('S3: "Run make test" opening the sentence, and make before a target every Makefile names, name a command', async () => {
  // Each of these passed next-action before make, just, bundle and node needed a command's context.
  for (const now of [
    'Run make test and fix the two failing limiter cases',
    'Rerun make check once the fixture is regenerated',
    'Run just lint on the limiter',
    'make test and fix the two failing limiter cases',
    'make lint, then commit the limiter',
    'make V=1 check',
    'make -C src test',
  ]) {
    const s = await report(goodWith('S3', { [HOME.S3]: NEXT.S3.edit(now) }), 'S3');
    const c = s.checks.find((x) => x.id === 'next-action');
    assert.equal(c?.status, 'pass', `${now}: ${c?.message}`);
  }
  // An everyday make or just still runs nothing, capitalised or not.
  for (const now of [
    'make sure the build passes',
    'Make sure the tests pass',
    'make time for the review',
    'make testing easier for Bob',
    'just test the limiter with Bob',
  ])
    assert.equal(isConcreteAction(now), false, now);
  // An aside after a placeholder that runs make fills it in; one that only says "make sure" does not.
  assert.equal(isPlaceholder('TBD (make test)'), false);
  assert.equal(isPlaceholder('TODO (make sure Bob signs off)'), true);
});

/** Now ▶ lines whose only symbol-like word is a product with a dot or a site: nothing to open or run. */
const NAMES_ONLY = [
  'Upgrade the site to ASP.NET',
  'Move the API to ASP.NET Core',
  'Rewrite the backend in Node.js',
  'Wait for Node.js 22 to land',
  'Point the DNS at example.com',
  'Check the certificate of docs.example.co.uk',
];

/** Now ▶ lines that name a symbol or a command, bare. */
const BARE_CODE = [
  'Wire UserAPI into the router',
  'use IsNaN in the totals',
  'just test',
  'just lint, then commit the limiter',
  'just test && git push',
];

test('S3: a product with a dot or a domain alone does not make Now ▶ concrete; UserAPI, IsNaN and just test do', async () => {
  // Each case on its own: the lists of those read the wrong way are empty.
  assert.deepEqual(
    { readAsCode: NAMES_ONLY.filter(isConcreteAction), readAsWords: BARE_CODE.filter((x) => !isConcreteAction(x)) },
    { readAsCode: [], readAsWords: [] },
  );
  for (const now of NAMES_ONLY) {
    const s = await report(goodWith('S3', { [HOME.S3]: NEXT.S3.edit(now) }), 'S3');
    assert.match(assertRefuses(s, 'next-action', now).message, /names no file, command, symbol or test/, now);
  }
  for (const now of BARE_CODE) {
    const s = await report(goodWith('S3', { [HOME.S3]: NEXT.S3.edit(now) }), 'S3');
    const c = s.checks.find((x) => x.id === 'next-action');
    assert.equal(c?.status, 'pass', `${now}: ${c?.message}`);
  }
});

test('a dotted name, a snake_case name or a just recipe that is code stays code beside the names that are not', () => {
  for (const c of [
    'read `Node.js` docs', // in backticks, anything is code
    'fix the import in node.js', // a file
    'wire the menu into App.js',
    'open https://example.com/docs/setup and apply step 3',
    'open https://example.com',
    'mirror github.com/acme/limiter',
    'open example.com:8080 and log in',
    'ssh deploy@prod.example.com and restart the worker',
    'call System.IO.File.ReadAllText on the fixture',
    'compare with Number.isNaN',
    'move com.example.app to the new module',
    'pass ctx.io to the handler',
    'read stat.dev before the copy',
    'raise max_retries to 5',
    'call mark_done after the upload',
    'rename alice_smith_id to owner_id',
    'fix ALICE_SMITH in the seed data',
    'tune adam_optimizer for the ranking job', // a snake_case name is code, whatever word opens it
    'Ask alice_smith about the limits',
    'wire OrderAPIs into the router',
    'just test --release',
    'run just test the limiter',
  ])
    assert.equal(isConcreteAction(c), true, c);
  for (const v of [
    'just test the limiter with Bob',
    'just build it again with Bob',
    'Move the backend to FastAPI',
    'Point the DNS at example.com: the record is stale',
  ])
    assert.equal(isConcreteAction(v), false, v);
});

/**
 * Now ▶ lines whose only symbol is a member named `net` or `org` (an amount net of tax, a model's network, a
 * user's organisation) or an Org-mode file: code to open, not a site.
 */
const NET_ORG_MEMBERS = [
  'Show cart.net in the checkout summary',
  'Load the weights into agent.net before the eval loop',
  'Freeze model.net.fc before fine-tuning on the small set',
  'Fix the 500 when user.org is null in billing',
  'Scope the invoices query by req.user.org',
  'Use user.org.id as the tenant key',
  'Move the open items from TODO.org into the tracker',
];

test('S3: a member named net or org (cart.net, model.net.fc, user.org) or a file such as TODO.org makes Now ▶ concrete; a domain in com still does not', async () => {
  assert.deepEqual(
    NET_ORG_MEMBERS.filter((x) => !isConcreteAction(x)),
    [],
  );
  for (const now of NET_ORG_MEMBERS.slice(3, 4)) {
    const s = await report(goodWith('S3', { [HOME.S3]: NEXT.S3.edit(now) }), 'S3');
    const c = s.checks.find((x) => x.id === 'next-action');
    assert.equal(c?.status, 'pass', `${now}: ${c?.message}`);
  }
  for (const v of ['Point the DNS at example.com', 'Check status.github.com for the outage', 'Renew api.example.co.uk'])
    assert.equal(isConcreteAction(v), false, v);
});

// S3's Now ▶ and S2's NEXT hold the action on their own line or field: emptied, there is none (S0's, S1's and
// S4's lists then start at their next item, which is the action).
for (const system of ['S2', 'S3']) {
  const where = NEXT[system];
  test(`${system}: an empty next action is said to be empty, at its line, never "vague" with empty quotes`, async () => {
    for (const empty of ['', '   ']) {
      const s = await report(goodWith(system, { [where.file]: where.edit(empty) }), system);
      const c = assertRefuses(s, 'next-action', `an empty next action (${JSON.stringify(empty)})`);
      assert.doesNotMatch(c.message, /vague|""/, c.message);
      assert.match(c.message, /^(The next action is empty|No next action found) \(.+\)\.$/, c.message);
      assert.ok(c.path, `${system}: the finding names its file`);
      assert.doesNotMatch(c.hint ?? '', /^Replace it/, `${system}: nothing to replace: ${c.hint}`);
    }
  });
}

test('a long next action is cut at a word in next-action\'s message, never inside a code span (the demo\'s S1: not "check with `n…")', async () => {
  const dir = workspace({}, 'sl-demo-');
  copyDemo(dir);
  const c = (await report(dir, 'S1')).checks.find((x) => x.id === 'next-action');
  assert.ok(c && c.status === 'pass', `${c?.status} ${c?.message}`);
  assert.match(c.message, /…\.?$/, "the demo's S1 action is long enough to be cut");
  assert.equal((c.message.match(/`/g) ?? []).length % 2, 0, `an unclosed code span: ${c.message}`);
  assert.ok(!c.message.endsWith('`n…'), c.message);
});
