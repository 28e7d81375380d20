/**
 * Every section alias and heading variant a reader accepts, used: one heading per alternative of
 * each reader's key table (dropping an alternative, or a whole entry, makes its heading fall to
 * another key or to `other`), and fixtures through the whole evaluation for the variants whose loss
 * turns checks silently into "skipped" or into false warnings (S3's `## Session Log` / `## Work Log`,
 * S0's English `## Blockers`, heading decorations).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchKey, normalizeTitle, type KeyTable } from '../../src/core/markdown/sections';
import { S0_KEYS } from '../../src/core/systems/s0/reader';
import { S1_KEYS } from '../../src/core/systems/s1/reader';
import { PROJECT_STATE_KEYS } from '../../src/core/systems/s2/reader-ledger';
import { S4_KEYS } from '../../src/core/systems/s4/reader-state';
import { parseS3, readS3Structure } from '../../src/core/systems/s3/reader-state';
import { parseMarkdown } from '../../src/core/markdown/markdown';
import type { Check, SystemReport } from '../../src/core/model/model';
import { cpSync } from 'node:fs';
import * as path from 'node:path';
import { checksWith, oneCheck, REPO, systemIn, workspace } from './helpers';

/** Headings per key, one for each alternative of the key's pattern, in the pattern's order. */
const ALIASES: Record<string, Record<string, string[]>> = {
  S0: {
    title: ['Session Ledger', 'Журнал непрерывности', 'セッション台帳', '会话台账', '세션 원장'],
    goal: ['Goals', 'Objective', 'Current task', 'Цель', 'Текущая задача', '目標', '目标', '목표'],
    constraints: [
      'Constraints',
      'Assumptions',
      'Invariants',
      'Ограничения',
      'Допущения',
      '制約',
      '前提条件',
      '约束',
      '假设',
      '제약',
      '가정',
    ],
    decisions: ['Key Decisions', 'Ключевые решения', '決定事項', '决策', '决定', '결정'],
    open: [
      'Open Questions',
      'Questions',
      'Blockers',
      'Blocked',
      'Открытые вопросы',
      'Блокеры',
      '未解決の質問',
      '未決事項',
      '質問',
      'ブロッカー',
      '未决',
      '待决',
      '阻塞',
      '问题',
      '미해결',
      '미결',
      '질문',
      '블로커',
    ],
    'working-set': [
      'Working Set',
      'Рабочие файлы',
      '作業セット',
      '作業ファイル',
      '工作集',
      '工作文件',
      '작업 세트',
      '작업 파일',
    ],
    done: [
      'Done',
      'Completed',
      'What we did',
      'What was done',
      'Что сделано',
      'Выполнено',
      'Готово',
      '完了',
      '済み',
      '已完成',
      '완료',
    ],
    now: ['Now', 'Current focus', 'Сейчас', 'Текущее', '現在', 'いま', '当前', '进行中', '正在', '현재', '지금'],
    next: [
      'Next steps',
      'Next up',
      'Далее',
      'Дальше',
      'Следующие шаги',
      '次',
      '今後',
      '下一步',
      '接下来',
      '后续',
      '다음',
    ],
    state: [
      'State',
      'Current status',
      'Status',
      'Progress',
      'Состояние',
      'Статус',
      'Прогресс',
      '状態',
      '状況',
      '进度',
      '状态',
      '상태',
      '진행',
    ],
  },
  S1: {
    title: ['Session Handoff', '세션 핸드오프', '핸드오프', 'セッション引き継ぎ', '会话交接', 'Передача сессии'],
    done: [
      'Done',
      'Accomplishments',
      'Fixed this session',
      "Last session's work",
      'Today',
      'What we did',
      'Files modified',
      'Changed this session',
      'Что сделано',
      'Выполнено',
      '완료',
      '이번 세션 수정',
      '수정된 파일',
      '해결된 것',
      '한 일',
      '한 것',
      '성과',
      '完了',
      'やったこと',
      '実施内容',
      '已完成',
      '本次完成',
      '完成的工作',
    ],
    next: [
      'What to do now',
      'Next',
      'Priorities',
      'Todo',
      'Action items',
      'Active tasks',
      'Pick next',
      'Immediate',
      'Up next',
      'Start here',
      'Что делать',
      'Следующие шаги',
      'Дальнейшие шаги',
      'План действий',
      '다음',
      '할 일',
      '우선 순위',
      '지금',
      '次',
      'やること',
      '今すぐ',
      '下一步',
      '要做的',
      '待办',
      '接下来',
      '后续步骤',
    ],
    pending: [
      'Pending decisions',
      'Open decisions',
      'Decisions needed',
      'Undecided',
      'Awaiting decision',
      'Ожидающие',
      'Нерешённые',
      'Решения нужны',
      '미결',
      '결정 대기',
      '의사 결정',
      '보류',
      '保留',
      '判断待ち',
      '未決',
      '要確認',
      '確認が必要',
      '要判断',
      '待决',
      '待定',
      '待确认',
      '需要确认',
      '需要决策',
    ],
    decisions: ['Key decisions', 'Decided', 'Решения', '決定事項', '决策', '决定', '결정 사항'],
    issues: [
      'Known issues',
      'Known risks',
      'Open investigations',
      'Issues',
      'Blockers',
      'Blocked',
      'Risks',
      'Открытые проблемы',
      'Блокеры',
      'Риски',
      '이슈',
      '블로커',
      '문제',
      '장애',
      '課題',
      '問題',
      'ブロッカー',
      'リスク',
      '障害',
      '问题',
      '阻塞',
      '风险',
      '已知',
      '限制',
      '障碍',
    ],
    status: [
      'Current work status',
      'Current branch',
      'Working state',
      'Work status',
      'State',
      'Where things stand',
      'In progress',
      'Progress',
      'Uncommitted',
      'Текущее состояние',
      'Состояние',
      'Статус',
      'Прогресс',
      '현재 상태',
      '진행 중',
      '상태',
      '現在',
      '作業状況',
      '進捗',
      '未完了',
      '状況',
      '状態',
      '当前工作状态',
      '进展',
      '进度',
      '现状',
    ],
    understanding: [
      'System understanding',
      'Understanding',
      'Context',
      'Key insights',
      'Project info',
      'Background',
      'Dead ends',
      'Do not retry',
      'Failed approaches',
      'Понимание',
      'Контекст',
      'Заметки',
      '컨텍스트',
      '맥락',
      '이해',
      '메모',
      '핵심 정보',
      '理解',
      '文脈',
      '背景',
      'メモ',
      '前提知識',
      '上下文',
      '接手所需',
      '须知',
    ],
    interests: [
      "User's interests",
      'Interests',
      'Интересы',
      'пользователь',
      '관심',
      '유저',
      '사용자',
      '関心',
      'ユーザー',
      '关注',
      '用户',
    ],
    log: [
      'History',
      'Changelog',
      'Log',
      'Журнал',
      'История',
      '이력',
      '히스토리',
      '디버깅',
      '履歴',
      'ログ',
      '日志',
      '历史',
    ],
  },
  S2: {
    now: ['Now', 'Текущее', 'Сейчас', 'Статус', '現在', '焦点', 'いま', '当前', '进行中', '현재', '초점', '지금'],
    done: ['Latest', 'Сделано', 'Выполнено', 'Готово', '完了', '済み', '已完成', '완료'],
    next: ['Следующее', 'Далее', '次', '今後', '下一步', '接下来', '다음'],
    open: [
      'Blockers',
      'Блокеры',
      'Открытые вопросы',
      'Риски',
      '未解決',
      'ブロッカー',
      'リスク',
      '質問',
      '懸念',
      '未决',
      '阻塞',
      '风险',
      '问题',
      '疑问',
      '블로커',
      '질문',
      '위험',
      '미해결',
    ],
    decisions: ['Decisions', 'Решения', '決定', '决策', '决定', '결정'],
    goal: ['Goal', 'Цель', '目標', '목표'],
  },
  S4: {
    title: ['Agent State'],
    agent: ['Main Agent'],
    identity: ['Repository Identity'],
    tracker: ['Progress Tracker'],
    current: ['Current Project', 'Current Feature', 'Current Bug Fix', 'Current Bugfix'],
    next: ['Next steps', '次', '下一步', '接下来', '后续', '다음', 'Следующие', 'Дальнейшие'],
    open: ['Risks', 'Риски', 'Блокеры', 'Открытые вопросы'],
    issues: ['課題', 'Проблемы'],
    done: ['何をしたのか', '完了', '已完成', '완료', 'Что сделано'],
    interactions: ['Interactions'],
    how: ['How', '如何', '방법', 'Как это сделано'],
    verified: ['Validation', 'Проверка', 'Валидация'],
    decisions: ['Decisions', '決定', '决策', '决定', '결정', 'Решения'],
    context: ['Context', '背景', '上下文', '배경', '맥락', 'Контекст'],
    plan: ['Plan', '方針', '方案', '计划', '계획', 'План', 'Подход'],
    understanding: ['Architecture', 'アーキテクチャ', '架构', '아키텍처', 'Архитектура'],
  },
};

const TABLES: Record<string, KeyTable> = { S0: S0_KEYS, S1: S1_KEYS, S2: PROJECT_STATE_KEYS, S4: S4_KEYS };

for (const [system, keys] of Object.entries(ALIASES)) {
  test(`${system} section aliases: every alternative of every key is read as that key`, () => {
    const table = TABLES[system];
    // Every key of the table has headings here, and every heading here names a key of the table.
    assert.deepEqual(Object.keys(keys).sort(), [...new Set(table.map(([k]) => k))].sort());
    const wrong: string[] = [];
    for (const [key, headings] of Object.entries(keys)) {
      for (const h of headings) {
        const got = matchKey(h, table);
        if (got !== key) wrong.push(`"${h}" → ${got}, expected ${key}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
}

test('heading decorations do not change the key: numbering, emoji, markup, trailing dates and colons, links, level', () => {
  for (const h of [
    'Open Questions',
    '3. Open Questions',
    '§4 Open Questions',
    '❓ Open Questions',
    '**Open Questions**',
    'Open Questions (2026-03-01)',
    'Open Questions:',
    '`Open Questions`',
    '[Open Questions](x.md)',
    'Open Questions — ',
    'OPEN QUESTIONS',
    '1.2 Open Questions (priority order)（メモ）',
  ]) {
    assert.equal(matchKey(h, S0_KEYS), 'open', h);
  }
  assert.equal(normalizeTitle('  2) Next   steps  <!-- x --> '), 'next steps');
  assert.equal(matchKey('Something else', S0_KEYS), 'other');
});

// ---------------------------------------------------------------------------------------------
// S3: the Handoff and Log headings and their variants

const s3 = (text: string): Promise<SystemReport> => systemIn(workspace({ 'docs/state/STATE.md': text }), 'S3');
const one = (s: SystemReport, id: string): Check => oneCheck(s.checks, id);

function stateWith(log: string, handoff = 'Handoff'): string {
  return `# STATE\n\n## ${handoff}\n- **Gates:** tests 3/3\n- **Now ▶** wire the Stop hook in \`.claude/settings.json\`\n- **Blocked on:** nothing\n\n## ${log}\n\n### 2026-03-02 - older entry is above\n- Done: a\n\n### 2026-03-05 - newer entry below\n- Done: b\n- Docs touched: none\n- Lessons: c\n- Stopped at: d\n`;
}

test('S3 Log headings: Log, Session Log, Work Log and decorated forms all hold the dated entries', async () => {
  for (const log of ['Log', 'Session Log', 'Work Log', 'Log (newest first)', '📜 Log', 'Work log:', '3. Session Log']) {
    const text = stateWith(log);
    const st = readS3Structure(parseMarkdown(text));
    assert.ok(st.log, log);
    assert.deepEqual(
      st.entries.map((e) => e.date),
      ['2026-03-02', '2026-03-05'],
      log,
    );
    const r = await s3(text);
    // The entries are read, so their order is judged (not skipped) and the newest (top) entry checked.
    const order = checksWith(r.checks, 'log-order');
    assert.deepEqual(
      order.map((c) => c.status),
      ['warn'],
      log,
    );
    // The parts the newest entry lacks are said once each, by the template (it blocks); log-entry, which
    // judges the same entry, is covered by them.
    assert.equal(one(r, 'log-entry').status, 'skipped', log);
    assert.deepEqual(
      r.checks
        .filter((c) => c.id === 'template' && c.status === 'fail')
        .flatMap((c) => /^No (.+) in the Log entry of 2026-03-02 in /.exec(c.message)?.[1] ?? []),
      ['Docs touched', 'Lessons / gotchas', 'Stopped at'],
      log,
    );
    assert.ok(
      parseS3(text, parseMarkdown(text)).sections.some((s) => s.key === 'log'),
      log,
    );
  }
  // Not a Log: a heading that merely contains the word.
  const other = readS3Structure(parseMarkdown(stateWith('Changelog')));
  assert.equal(other.log, null);
});

test('S3 Handoff headings: Handoff with decorations and as a title-level heading', async () => {
  for (const h of ['Handoff', 'Handoff (2026-03-05)', '🧭 Handoff', 'HANDOFF', 'Handoff:', '1. Handoff']) {
    const r = await s3(stateWith('Log', h));
    assert.equal(one(r, 'handoff-block').status, 'pass', h);
    assert.equal(one(r, 'pending-recorded').message, 'Blocked on: nothing (cleared).', h);
  }
  const h1 = await s3('# Handoff\n- **Gates:** 1/1\n- **Now ▶** run `npm test`\n');
  assert.equal(one(h1, 'handoff-block').status, 'pass');
  // A level-3 "Handoff" is not the block.
  const h3 = await s3('# STATE\n\n### Handoff\n- **Now ▶** run `npm test`\n\n## Log\n');
  assert.equal(one(h3, 'handoff-block').status, 'fail');
});

test('S3 handoff field labels: every spelling of every field is read', () => {
  const text = [
    '## Handoff',
    '- **Status:** green',
    '- Phase: 2',
    '- **Branch / HEAD:** main @ abc1234',
    '- Branch & HEAD: main abc1234',
    '- Branch and HEAD: main abc1234',
    '- Branch + HEAD: main abc1234',
    '- **Branch:** main',
    '- **HEAD:** abc1234',
    '- Gates: 3/3',
    '- Gate: 3/3',
    '- Now ▶ run it',
    '- **Blocked on:** nothing',
    '- Blocked: nothing',
    '- Status： 全角コロン',
  ].join('\n');
  const st = readS3Structure(parseMarkdown(text));
  assert.deepEqual(
    st.fields.map((f) => f.name),
    [
      'status',
      'phase',
      'branchHead',
      'branchHead',
      'branchHead',
      'branchHead',
      'branch',
      'head',
      'gates',
      'gates',
      'now',
      'blocked',
      'blocked',
      'status',
    ],
  );
  // A plain word without bold or colon is not a label (only Now ▶ takes neither).
  assert.deepEqual(readS3Structure(parseMarkdown('## Handoff\n- Status green\n- Gates pass\n')).fields, []);
});

// ---------------------------------------------------------------------------------------------
// The handoff without a `Now ▶` line: check and message agree

test('S3 handoff-block: a handoff without a Now ▶ line fails and says so, whatever mentions Now ▶ elsewhere', async () => {
  const base = '# STATE\n\n## Handoff\n- **Gates:** tests 1/1\n- **Blocked on:** nothing\n';
  const cases = [
    base,
    // A mention in a Log entry is not the line.
    `${base}\n## Log\n- 2026-03-01 - work\n  - Stopped at: mirroring Now ▶ above\n`,
    // A Now ▶ inside an HTML comment (the template's hint) is not the line.
    `${base}<!-- Now ▶ the single exact next action -->\n\n## Log\n`,
    // Nor inside a code block.
    `${base}\n\`\`\`\nNow ▶ example\n\`\`\`\n`,
  ];
  for (const text of cases) {
    const r = await s3(text);
    const c = one(r, 'handoff-block');
    assert.deepEqual([c.status, c.message], ['fail', 'No "Now ▶" line in docs/state/STATE.md.'], text);
    assert.equal(r.next, null, text);
    assert.equal(one(r, 'next-action').status, 'fail', text);
  }
  // Neither block nor line.
  const none = one(await s3('# STATE\n\n## Log\n- 2026-03-01 - Stopped at: mirroring Now ▶\n'), 'handoff-block');
  assert.deepEqual(
    [none.status, none.message],
    ['fail', 'No "## Handoff" block and no "Now ▶" line in docs/state/STATE.md.'],
  );
  // The line present in the block passes.
  const inBlock = await s3(`${base}- **Now ▶** run \`npm test\`\n`);
  assert.deepEqual(
    [one(inBlock, 'handoff-block').status, one(inBlock, 'handoff-block').message],
    ['pass', '"## Handoff" with Now ▶ present.'],
  );
  assert.equal(inBlock.next, 'run `npm test`');
  // Written outside the block (its label starting the line), it is shown as the next action but does not count.
  const outside = await s3('# STATE\n\n## Handoff\n- **Gates:** 1/1\n\n## Notes\nNow ▶ run `npm test`\n');
  assert.deepEqual(
    [one(outside, 'handoff-block').status, one(outside, 'handoff-block').message],
    [
      'fail',
      '"Now ▶" outside the "## Handoff" block in docs/state/STATE.md (line 7); only the one inside the block counts.',
    ],
  );
  assert.equal(outside.next, 'run `npm test`');
});

// ---------------------------------------------------------------------------------------------
// S0: the English Blockers heading holds the open questions

test('S0 open questions under an English "## Blockers" (and its siblings): pending-recorded passes, the UNCONFIRMED items are found', async () => {
  for (const heading of ['Open Questions', 'Blockers', 'Blocked', 'Questions']) {
    const ledger = `# Session Ledger\n\n## Goal\nShip CSV export.\n\n## Decisions\n- UTC dates\n\n## Now\nWire exportCsv() in src/invoices.ts\n\n## ${heading}\n- Is the filter kept across pages? \`UNCONFIRMED\`\n`;
    const r = await systemIn(
      workspace({ '.agents.yml': 'session:\n  ledger: true\n', '.agents/session_ledger.md': ledger }),
      'S0',
    );
    assert.deepEqual(
      r.unconfirmed?.map((u) => u.text.replace(/\s*`UNCONFIRMED`/, '')),
      ['Is the filter kept across pages?'],
      heading,
    );
    assert.match(r.resumePrompt ?? '', /validate its UNCONFIRMED items with me first/, heading);
    // The section is the ledger's open questions: pending-recorded passes instead of a false warning.
    const p = oneCheck(r.checks, 'pending-recorded');
    assert.deepEqual([p.status, p.message], ['pass', `${heading}: 1 item.`], heading);
  }
});

test('an open-questions section whose only item is "none" says nothing is pending, not "1 item"', async () => {
  const dir = workspace({});
  cpSync(path.join(REPO, 'examples/demo-workspace/.agents'), path.join(dir, '.agents'), { recursive: true });
  const p = oneCheck((await systemIn(dir, 'S4')).checks, 'pending-recorded');
  assert.deepEqual([p.status, p.message], ['pass', 'Risks / Open Questions: none, stated explicitly.']);
});
