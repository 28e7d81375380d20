/**
 * Counts read as words do: "1 item", "2 items", never "1 item(s)". English has a singular and a plural
 * sentence for each count; Japanese and Korean have no plural, so both of their entries read alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { literals, translationTables } from './source-literals';
import * as path from 'node:path';
import type { Check, SystemReport } from '../../src/core/model/model';
import { refusalSaid } from '../../src/core/checkpoint/checkpoint';
import { checkContextLog } from '../../src/core/systems/s1/rules';
import { docTooltip } from '../../src/extension/pure/tree-text';
import { compactedText, prunedText } from '../../src/extension/pure/write-previews';
import { manualOpenText } from '../../src/protocol/checklist';
import { CHECKLIST_STRINGS, copyDemo, fixtureCopy, jaT, koT, REPO, systemIn, workspace, enT } from './helpers';

const t = enT;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const HEDGED = /\p{L}\(s\)/u;

test('no text a user reads says "(s)": the sources under src/ and webview/, the bundles and the manifest strings', () => {
  const bad: string[] = [];
  for (const f of [...walk(path.join(REPO, 'src')), ...walk(path.join(REPO, 'webview'))].filter((x) =>
    x.endsWith('.ts'),
  )) {
    const src = readFileSync(f, 'utf8');
    // Only a source that holds "(s)" somewhere is parsed.
    if (src.includes('(s)'))
      for (const s of literals(f, src)) if (HEDGED.test(s)) bad.push(`${path.relative(REPO, f)}: ${s}`);
  }
  for (const { file: f, table } of translationTables()) {
    for (const [k, v] of Object.entries(table)) if (HEDGED.test(k) || HEDGED.test(v)) bad.push(`${f}: ${k}`);
  }
  assert.deepEqual(bad, []);
});

const check = (id: string, severity: Check['severity'] = 'block'): Check =>
  ({ system: 'S3', id, severity, status: 'fail', message: `${id}.`, messageId: `${id}.`, args: [] }) as Check;

test('a refusal counts its checks in the singular and the plural, in every language', () => {
  const one = refusalSaid({ code: 'blocking-checks', checks: [check('next-action')] });
  assert.equal(one.text, '1 blocking check failed: S3: next-action.');
  const two = refusalSaid({ code: 'blocking-checks', checks: [check('next-action'), check('template')] });
  assert.equal(two.text, '2 blocking checks failed: S3: next-action. S3: template.');
  const manual = refusalSaid({ code: 'manual-unconfirmed', checks: [check('last-request', 'manual')] });
  // A session's item is every system's: named by its words alone.
  assert.equal(manual.text, '1 manual item not ticked: last-request. Tick it in the checklist when it is true.');
  const unknown = refusalSaid({ code: 'unknown-confirm', checks: [], ids: ['bogus'] });
  assert.equal(unknown.text, 'Unknown manual item: bogus.');
  // Japanese and Korean say each in their one form.
  for (const m of [one, two, manual, unknown])
    for (const said of [jaT(m.id, ...m.args), koT(m.id, ...m.args)]) {
      assert.notEqual(said, m.text, m.id);
      assert.doesNotMatch(said, /\(s\)/, m.id);
    }
});

test('the tree, the checklist and the compaction say one item, one block, in the singular', () => {
  const s = {
    id: 'S0',
    name: 'session ledger',
    label: 'PARTIAL',
    home: '.agents/session_ledger.md',
    docs: [],
    checks: [check('x', 'warn')].map((c) => ({ ...c, status: 'warn' as const })),
    unconfirmed: [{ text: 'a guess', line: 3, flags: ['unconfirmed'] }],
    next: null,
  } as unknown as SystemReport;
  const tip = docTooltip(t, s, s.home, null);
  assert.match(tip, /^1 UNCONFIRMED item to validate after \/clear$/m, tip);
  assert.match(tip, /^1 warning$/m, tip);
  assert.doesNotMatch(tip, /\(s\)|1 warnings|manual items open/, tip);
  assert.equal(manualOpenText(CHECKLIST_STRINGS, 1), '1 manual item not ticked yet: tick it when it is true.');
  assert.equal(manualOpenText(CHECKLIST_STRINGS, 3), '3 manual items not ticked yet: tick them when they are true.');
  assert.equal(prunedText(t, 1), '1 older block is removed; every other section is kept verbatim, in order.');
  assert.equal(prunedText(t, 2), '2 older blocks are removed; every other section is kept verbatim, in order.');
  assert.equal(compactedText(t, '.agents/STATE.md', 1), 'Compacted .agents/STATE.md: 1 block removed.');
  assert.equal(compactedText(t, '.agents/STATE.md', 4), 'Compacted .agents/STATE.md: 4 blocks removed.');
});

test("the checks' own counts: one pending item, one lesson, one Current block", async () => {
  const dir = fixtureCopy('s1/good');
  writeFileSync(
    path.join(dir, 'tasks/lessons.md'),
    '# Lessons\n\n### A\n> conf: 0.8 · seen: 2026-04-28 · obs: 2\n\n### B without meta\n- text\n\n',
  );
  const s1 = await systemIn(dir, 'S1');
  const messages = s1.checks.map((c) => c.message);
  for (const m of messages) assert.doesNotMatch(m, /\(s\)/, m);
  assert.ok(
    messages.includes('Lessons with conf/seen/obs meta: 1; headings without a meta line: 1; no archive candidates.'),
    messages.join('\n'),
  );
  assert.ok(
    messages.includes('1 lesson: its meta line holds conf (within 0.3–0.9), seen and obs.'),
    messages.join('\n'),
  );
  const s4 = await systemIn(fixtureCopy('s4/good'), 'S4');
  const compaction = s4.checks.find((c) => c.id === 'compaction');
  assert.equal(compaction?.message, 'One block per kind (1 Current block).');
  // The demo's PROGRESS.md holds one dated entry.
  const demo = workspace({}, 'sl-demo-');
  copyDemo(demo);
  const order = (await systemIn(demo, 'S4', { noGit: true })).checks.find((c) => c.id === 'progress-order');
  assert.equal(order?.message, 'PROGRESS.md: 1 dated entry.');
});

test('one session window of one minute, one expired entry of one, one entry in the context log: the singular', () => {
  const two = [{ sessionId: 'a' }, { sessionId: 'b' }];
  const ambiguous = refusalSaid({ code: 'ambiguous-session', checks: [], sessions: two, windowMinutes: 1 } as never);
  assert.equal(
    ambiguous.text,
    '2 agent sessions of this folder wrote in the last minute; pick the one this checkpoint is for.',
  );
  const log = (flags: string[]) =>
    ({
      relPath: 'memory/context-log.md',
      text: '# Context log\n- x\n',
      sections: [{ key: 'other', title: '', line: 1, endLine: 2, level: 0, items: [{ text: 'x', line: 2, flags }] }],
      findings: [],
      meta: {},
    }) as unknown as Parameters<typeof checkContextLog>[0];
  const now = Date.UTC(2026, 4, 5);
  const expired = checkContextLog(log(['date:2026-01-02', 'ttl:30d']), now).map((c) => c.message);
  assert.ok(expired.includes('The one entry is past its TTL (line 2).'), expired.join('\n'));
  const kept = checkContextLog(log(['date:2026-05-01', 'ttl:permanent']), now).map((c) => c.message);
  assert.deepEqual(kept, ['1 entry, not past its TTL; no promotion candidates.']);
});
