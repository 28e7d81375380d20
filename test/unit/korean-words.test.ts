/**
 * The tool's Korean words read as one text: the extension's l10n bundle and the manifest's strings (and so
 * the CLI's and the hooks' words, which are entries of the same bundle), each rule checked against every
 * entry beside its English key and its Japanese translation:
 *
 * - one Korean word for one English term (체크포인트, 마커, 상태 파일, 인수인계, 수동 항목, 다음 행동, 세션,
 *   가드, 재개 프롬프트, 스냅샷, 교훈, 자리 표시자, 작업 영역, 원장, 시스템), and never the other spellings
 *   the translations once mixed in (인계, 스냅숏, 레슨, 작업 공간, 자리표시자);
 * - a line is "줄 N" and a column "열 N", as VS Code's Korean says them ("{1}행", "{0}번째 줄" were mixed in);
 * - a particle right after a placeholder is written for both endings (을(를), 이(가), 은(는), (으)로):
 *   what the placeholder will hold is not known where the sentence is written;
 * - one politeness level, 합니다 / 하세요 (a question 할까요?), never 습니까? / 입니까? or a plain 한다 ending;
 * - no English word inside a sentence that the Japanese translation does not keep too;
 * - half-width punctuation only (no full-width forms), and a percent sign right after its number (15%).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO } from './helpers';

const json = (file: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(REPO, file), 'utf8')) as Record<string, string>;

interface Entry {
  where: string;
  en: string;
  ko: string;
  ja: string;
}

/** Every Korean string with its English source and its Japanese translation. */
function entries(): Entry[] {
  const ko = json('l10n/bundle.l10n.ko.json');
  const ja = json('l10n/bundle.l10n.ja.json');
  const nls = json('package.nls.json');
  const nlsKo = json('package.nls.ko.json');
  const nlsJa = json('package.nls.ja.json');
  return [
    ...Object.keys(ko).map((k) => ({ where: 'bundle', en: k, ko: ko[k], ja: ja[k] ?? '' })),
    ...Object.keys(nls).map((k) => ({ where: `package.nls ${k}`, en: nls[k], ko: nlsKo[k] ?? '', ja: nlsJa[k] ?? '' })),
  ];
}

/**
 * The English words a translation says in its own words: without code spans, quoted names, paths and
 * commands, the systems' and the product's names, and the names the files themselves write (headings,
 * fields and tags a translation keeps as they are).
 */
const englishProse = (en: string): string =>
  en
    .replace(/`[^`]*`|"[^"]*"|\]\([^)]*\)/g, ' ')
    .replace(/\bS0 majestic ledger|S1 session handoff|S2 context-kit|S3 Groundwork|S4 checkpointing\b/g, ' ')
    .replace(/Session Ledger|SessionStart|session\.ledger\w*|session-\w+|--session|Handoff:|## \w+/g, ' ')
    .replace(/\bLessons \/ gotchas|Lessons and Stopped at|What to do now|System understanding|state-snapshot/g, ' ')
    .replace(/\/\w+|[\w.-]*[./][\w./-]+/g, ' ');

/** English term (as the English prose says it) → the one Korean word for it. */
const VOCABULARY: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcheckpoint/i, '체크포인트'],
  [/\bmarkers?\b/i, '마커'],
  [/\bstate files?\b/i, '상태 파일'],
  [/\bhand-?offs?\b/i, '인수인계'],
  [/\bmanual items?\b/i, '수동 항목'],
  [/\bnext action\b/i, '다음 행동'],
  [/\bsessions?\b/i, '세션'],
  [/\bguard\b/i, '가드'],
  [/\bresume prompt\b/i, '재개 프롬프트'],
  [/\bsnapshot\b/i, '스냅샷'],
  [/\blessons?\b/i, '교훈'],
  [/\bplaceholders?\b/i, '자리 표시자'],
  [/\bworkspace\b/i, '작업 영역'],
  [/\bledgers?\b/i, '원장'],
  [/\bsystems?\b/i, '시스템'],
];

/** Spellings the Korean no longer uses, each with the one word that replaced it. */
const RETIRED: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?<!인수)인계/, '인수인계'],
  [/핸드오프/, '인수인계'],
  [/스냅숏/, '스냅샷'],
  [/레슨/, '교훈'],
  [/작업 ?공간|워크스페이스/, '작업 영역'],
  [/자리표시자/, '자리 표시자'],
  [/[0-9}]행|번째 줄|[0-9}]줄 [0-9{]/, '줄 N'],
];

test('Korean: one word for one term; every entry whose English says the term says the word', () => {
  const bad: string[] = [];
  for (const e of entries()) {
    const prose = englishProse(e.en);
    for (const [term, word] of VOCABULARY)
      if (term.test(prose) && !e.ko.includes(word)) bad.push(`${e.where}: "${e.en}" → ${e.ko} (no ${word})`);
    if (/\/compact\b/.test(e.en) && !e.ko.includes('/compact'))
      bad.push(`${e.where}: "${e.en}" → ${e.ko} (no /compact)`);
    for (const [old, word] of RETIRED) if (old.test(e.ko)) bad.push(`${e.where}: ${e.ko} (${old.source}: say ${word})`);
  }
  assert.deepEqual(bad, []);
});

test('Korean: a line is "줄 N" and a column "열 N" wherever the English names one', () => {
  const bad: string[] = [];
  for (const e of entries()) {
    for (const m of e.en.matchAll(/\blines? \{(\d+)\}/g))
      if (!e.ko.includes(`줄 {${m[1]}}`)) bad.push(`${e.where}: "${e.en}" → ${e.ko} (줄 {${m[1]}})`);
    for (const m of e.en.matchAll(/\bcolumn \{(\d+)\}/g))
      if (!e.ko.includes(`열 {${m[1]}}`)) bad.push(`${e.where}: "${e.en}" → ${e.ko} (열 {${m[1]}})`);
  }
  assert.deepEqual(bad, []);
});

test('Korean: a particle right after a placeholder reads right whatever it holds: 을(를), 이(가), 은(는), 와(과), (으)로', () => {
  const bad: string[] = [];
  for (const e of entries()) {
    // A particle that depends on the last sound, written for one ending only.
    const one = e.ko.match(/\{\d+\}(?:을|를|이|가|은|는|과|와|로|으로)(?=[\s.,:;!?)\]'"]|$)/g);
    if (one) bad.push(`${e.where}: ${e.ko} (${one.join(', ')})`);
  }
  assert.deepEqual(bad, []);
});

test('Korean: one politeness level, 합니다 / 하세요 (questions 할까요?, 인가요?); never -니까? or a plain 한다 sentence', () => {
  const bad: string[] = [];
  for (const e of entries())
    for (const sentence of e.ko.split(/(?<=[.?!])\s+|\n/)) {
      const s = sentence.trim();
      if (/니까\?$/.test(s) || /[가-힣](?<![니])다[.!]$/.test(s)) bad.push(`${e.where}: ${s}`);
    }
  assert.deepEqual(bad, []);
});

test('Korean: no English word inside a sentence that the Japanese keeps in Japanese', () => {
  // Latin words outside code spans, link targets, paths, commands and placeholders.
  const words = (s: string): Set<string> =>
    new Set(
      s
        .replace(/`[^`]*`|\]\([^)]*\)|\{\d+\}/g, ' ')
        .replace(/[\w.-]*[./][\w./-]+/g, ' ')
        .match(/[A-Za-z][A-Za-z-]*[A-Za-z]/g) ?? [],
    );
  const bad: string[] = [];
  for (const e of entries()) {
    const ja = words(e.ja);
    const left = [...words(e.ko)].filter((w) => !ja.has(w));
    if (left.length) bad.push(`${e.where}: ${e.ko} (${left.join(', ')}; ja: ${e.ja})`);
  }
  assert.deepEqual(bad, []);
});

test('Korean: half-width punctuation only, and the percent sign right after its number', () => {
  const bad: string[] = [];
  for (const e of entries()) {
    if (/[\u3000-\u303f\uff01-\uff60]/.test(e.ko)) bad.push(`${e.where}: ${e.ko} (full-width)`);
    if (/[0-9}] %/.test(e.ko)) bad.push(`${e.where}: ${e.ko} (a space before %)`);
  }
  assert.deepEqual(bad, []);
});

test('Korean: "when it is true" of a manual item is 사실이면, and "nothing was changed" 아무것도 바꾸지 않았습니다, in every entry', () => {
  const bad: string[] = [];
  for (const e of entries()) {
    if (/when (it is|they are) true/i.test(e.en) && !e.ko.includes('사실이면')) bad.push(`${e.where}: ${e.ko}`);
    if (/nothing was changed/i.test(e.en) && !e.ko.includes('아무것도 바꾸지 않았습니다'))
      bad.push(`${e.where}: ${e.ko}`);
  }
  assert.deepEqual(bad, []);
});
