/**
 * The tool's own words inside a translated sentence are in the reader's language too: a span of time
 * (`3 h`, `42 min`, `less than a minute`) and the names a template part gets from the tool (`Done in the
 * Log entry of 2026-12-01`, `link to PROGRESS.md under ## Progress Tracker`) are messages the sentence
 * takes as arguments, so the extension's surfaces and the CLI in Japanese or Korean say them so, while
 * the English text, the quoted file text and the headings and keywords a file writes stay as they are.
 * A document's section rows name their kind in words, and the next action is called one thing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import * as path from 'node:path';
import { saidMsg } from '../../src/core/model/messages';
import type { Check } from '../../src/core/model/model';
import { spanText } from '../../src/core/model/time';
import type { JsonCheck } from '../../src/core/report/report';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { checkHint, checkMessage, systemFindings } from '../../src/extension/pure/findings';
import {
  diagnosticMessage,
  docTooltip,
  sectionDescription,
  shownSections,
  systemTooltip,
} from '../../src/extension/pure/tree-text';
import {
  CHECKLIST_STRINGS,
  cli,
  demoRepo,
  enT,
  gitInit,
  jaT,
  koT,
  locale,
  oneCheck,
  systemIn,
  workspace,
} from './helpers';

test('a span of time is a message: English as before, and in Japanese and Korean through the bundle', () => {
  assert.equal(spanText(20_000).text, 'less than a minute');
  assert.equal(spanText(42 * 60_000).text, '42 min');
  assert.equal(spanText(3 * 3600_000).text, '3 h');
  const say = (ms: number, tr: typeof jaT) => tr(spanText(ms).id, ...spanText(ms).args);
  assert.equal(say(20_000, jaT), '1 分未満');
  assert.equal(say(42 * 60_000, jaT), '42 分');
  assert.equal(say(3 * 3600_000, jaT), '3 時間');
  assert.equal(say(42 * 60_000, koT), '42분');
  assert.equal(say(3 * 3600_000, koT), '3시간');
});

test("a stale state file: its fresh finding says how long before the work it was written in the reader's language, on every surface and in the CLI; English and --json as before", async () => {
  const dir = demoRepo();
  // Written 3 hours before the commit that holds it.
  const state = path.join(dir, 'docs', 'state', 'STATE.md');
  const at = (Date.now() - 3 * 3600_000) / 1000;
  utimesSync(state, at, at);
  const s3 = await systemIn(dir, 'S3');
  const fresh = oneCheck(s3.checks, 'fresh');
  assert.equal(fresh.status, 'warn');
  assert.match(
    fresh.message,
    /^Out of date: docs\/state\/STATE\.md is older than the last commit \(written 3 h before it; /,
  );
  assert.equal(checkMessage(enT, fresh), fresh.message);
  // The checklist, the tree's rows and tooltips, the Problems panel: the span in the language, no English left in it.
  const ja = checkMessage(jaT, fresh);
  assert.match(ja, /（3 時間 前に書かれました。/, ja);
  assert.doesNotMatch(ja, /\d h\b/, ja);
  assert.match(checkMessage(koT, fresh), /\(3시간 전에 작성됨\./);
  assert.equal(saidMsg(fresh).text, fresh.message);
  const f = systemFindings(s3, () => true).find((x) => x.check.id === 'fresh');
  assert.ok(f, "S3's fresh finding");
  assert.match(diagnosticMessage(jaT, f), /3 時間 前に書かれました/);
  const page = checklistState(
    { root: dir, systems: [s3], notRead: [] } as never,
    { name: 'demo', uri: 'file:///demo' },
    CHECKLIST_STRINGS,
    { busy: false } as never,
    jaT,
  );
  assert.match(JSON.stringify(page), /3 時間 前に書かれました/);
  // The CLI in Japanese; in C, English; --json keeps the span as data beside its English.
  const cliJa = cli(['check', '--root', dir], { env: locale('ja_JP.UTF-8') }).stdout;
  assert.match(cliJa, /（3 時間 前に書かれました。/, cliJa);
  const cliEn = cli(['check', '--root', dir], { env: locale('C') }).stdout;
  assert.match(cliEn, /\(written 3 h before it; /);
  const json = JSON.parse(cli(['check', '--root', dir, '--json'], { env: locale('ja_JP.UTF-8') }).stdout) as {
    systems: Array<{ id: string; checks: JsonCheck[] }>;
  };
  const j = oneCheck(json.systems.find((s) => s.id === 'S3')?.checks ?? [], 'fresh');
  assert.equal(j.args[1], '3 h');
  assert.deepEqual(j.argMsgs?.[1], { message: '3 h', messageId: '{0} h', args: ['3'] });
});

test("the template's part names in the reader's language where they are the tool's words; headings, keywords and quoted file text as written", async () => {
  const dir = demoRepo();
  const pass = async (id: string): Promise<Check> => {
    const c = oneCheck((await systemIn(dir, id)).checks, 'template');
    assert.equal(c.status, 'pass', `${id} template`);
    assert.equal(checkMessage(enT, c), c.message);
    return c;
  };
  const s3 = await pass('S3');
  assert.match(s3.message, /Done in the Log entry of 2026-12-01, /);
  assert.match(checkMessage(jaT, s3), /、2026-12-01 の Log エントリの Done、/);
  assert.match(checkMessage(koT, s3), /, 2026-12-01 Log 항목의 Done, /);
  const s4 = await pass('S4');
  assert.match(s4.message, /\(link to PROGRESS\.md under ## Progress Tracker, /);
  assert.match(checkMessage(jaT, s4), /（## Progress Tracker の下の PROGRESS\.md へのリンク、/);
  const s1 = await pass('S1');
  assert.match(s1.message, /urgency: H\/M\/L on "Round levels/);
  assert.match(checkMessage(jaT, s1), /「Round levels to whole centimetres[^」]*」の urgency: H\/M\/L/);

  // A new S3 file without a dated Log entry: the part, and the fix naming it.
  const bare = workspace({
    'docs/state/STATE.md':
      '# STATE\n\n## Handoff\n- **Status:** building\n- **Phase:** 1\n- **Branch / HEAD:** main @ abc1234\n- **Gates:** tests 3/3\n- **Now ▶** run `npm test`\n- **Blocked on:** nothing\n\n## Log\n',
  });
  gitInit(bare);
  const missing = (await systemIn(bare, 'S3')).checks.filter((c) => c.id === 'template' && c.status === 'fail');
  const log = missing.find((c) => c.message.includes('dated Log entry'));
  assert.ok(log, JSON.stringify(missing.map((c) => c.message)));
  assert.match(log.message, /^No dated Log entry in docs\/state\/STATE\.md: S3's format requires it\.$/);
  assert.match(checkMessage(jaT, log), /^日付付きの Log エントリ がありません/);
  assert.match(checkHint(jaT, log) ?? '', /日付付きの Log エントリ を 1 件書いてください/);
  assert.match(checkMessage(koT, log), /^날짜 있는 Log 항목이\(가\) 없습니다/);
  const cliJa = cli(['check', '--root', bare], { env: locale('ja_JP.UTF-8') }).stdout;
  assert.match(cliJa, /日付付きの Log エントリ がありません/, cliJa);
});

test("a document's section rows name their kind in words in the reader's language, never a model's key", async () => {
  const dir = demoRepo();
  const words: string[] = [];
  for (const id of ['S0', 'S1', 'S2', 'S3', 'S4']) {
    const s = await systemIn(dir, id);
    for (const doc of s.docs)
      for (const sec of shownSections(doc)) {
        const d = sectionDescription(jaT, sec);
        words.push(d);
        const kind = String(sec.key);
        if (kind.length > 3) assert.ok(!d.split(' · ').includes(kind), `${doc.relPath} ${sec.title}: ${d}`);
      }
  }
  for (const w of ['目標 · ', '作業中のファイル · ', '引き継ぎ · ', 'スナップショット · '])
    assert.ok(
      words.some((d) => d.startsWith(w)),
      `${w} in ${JSON.stringify(words)}`,
    );
  assert.ok(words.some((d) => d.startsWith('goal · ') === false));
  const en = sectionDescription(enT, {
    key: 'working-set',
    title: 'Working Set',
    line: 1,
    endLine: 2,
    level: 2,
    items: [],
  });
  assert.equal(en, 'working set · 0 items');
  // A kind with no words of its own: the row's label is the heading as written, and the description its count.
  const other = { key: 'tracker', title: 'Progress Tracker', line: 1, endLine: 2, level: 2, items: [] };
  assert.equal(sectionDescription(jaT, other), '0 項目');
});

test('the next action is called so on every surface: the root tooltip and the home file tooltip, in each language', async () => {
  const dir = demoRepo();
  const s3 = await systemIn(dir, 'S3');
  assert.ok(s3.next);
  for (const [tr, word] of [
    [enT, 'Next action: '],
    [jaT, '次の行動: '],
    [koT, '다음 행동: '],
  ] as const) {
    assert.match(systemTooltip(tr, s3), new RegExp(`\\n${word}write the North Pier `));
    const home = s3.docs.find((d) => d.relPath === s3.home) ?? null;
    assert.match(docTooltip(tr, s3, s3.home, home), new RegExp(`\\n${word}write the North Pier `));
  }
  const cliJa = cli(['status', '--root', dir], { env: locale('ja_JP.UTF-8') }).stdout;
  assert.match(cliJa, /\n {2}次の行動: write the North Pier /, cliJa);
  assert.doesNotMatch(cliJa, /次: /, cliJa);
  assert.match(cli(['status', '--root', dir], { env: locale('C') }).stdout, /\n {2}next: write the North Pier /);
});
