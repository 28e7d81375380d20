/**
 * S1 (seed 001, `session-checkpoint` with a single forward-only handoff): the home file is
 * `memory/session-handoff-LATEST.md` (also `.claude/memory/…`), with its attestation sidecar
 * `.session-handoff.sha256`, `MEMORY.md`, `context-log.md` and `tasks/lessons.md` beside it.
 * Section names are matched by meaning in English and Korean (the corpus handoffs).
 */
import { defaultItem, sectionize, type MdBlockKind, type MdOutline } from '../../markdown/markdown';
import { companionPath } from '../facts';
import { S1_FACTS } from './facts';
import type { Item, StateDoc } from '../../model/model';
import { matchKey, withNames, type KeyTable } from '../../markdown/sections';
import type { Loaded, SystemReader } from '../../model/system';
import { allRules, type ParsedContent, type Workspace } from '../../model/workspace';
import { parseContextLog, parseLessons, parseMemory } from './reader-memory';
import { readSnapshot } from './reader-snapshot';
import { standsThere } from '../../files/fsread';

const dirOf = (rel: string): string => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
const nameOf = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);

export const S1_LATEST = nameOf(S1_FACTS.home);
/** The folders a handoff is kept in: the home's and its alternatives'. */
export const S1_DIRS = [S1_FACTS.home, ...S1_FACTS.homeAlternatives].map(dirOf);
export const S1_SIDECAR = nameOf(companionPath('S1', 'sidecar'));

/**
 * Section names by meaning (normalised titles), in the seed's English and in the other words
 * handoffs committed in public repositories use for the same sections, in English, Korean,
 * Japanese, Chinese and Russian ("Next Actions", "Files Modified This Session", "다음에 해야 할 것",
 * "次の最小作業", "下一步", "Что делать сейчас" …). Order matters: "this session's fixes" is `done`
 * before "issues" can claim it; "未完了" (unfinished) is status, never `done`; "What to do now" is
 * `next` (item 1 is the next action).
 */
export const S1_KEYS: KeyTable = withNames(
  [
    [
      'title',
      /^(?:session )?handoff\b|^세션 ?(?:핸드오프|인계)|^핸드오프|^(?:セッション)?引き継ぎ|^(?:会话)?交接|^передача(?: сессии)?$/u,
    ],
    [
      'done',
      /^(?:done|completed?|accomplished|finished|shipped)\b|accomplishments?|(?:done|completed|finished|shipped|fixed) (?:this|today|in this)|(?:this|today'?s?|last) session'?s? (?:work|changes|fixes|accomplishments|progress|results|done|completed)|^today'?s?\b|^what (?:was|we|i) (?:done|did)|^files (?:modified|changed|touched)\b|(?:modified|changed|touched) this session|^(?:что )?сделано|^выполнено|(?<!미)완료|이번 세션.*(?:수정|작업|변경|결과|성과)|수정된|해결된|한 일|한 것|성과|(?<!未)完了|やったこと|実施内容|^已完成|本次完成|完成的工作/u,
    ],
    [
      'next',
      /^what to do\b|^next\b|^priorit(?:y|ies)\b|^to ?do\b|^action items?|^active tasks?|^pick next|^immediate|^up next|^start here|^что делать|^следующ|^дальнейшие шаги|^план действий|다음|할 ?일|우선 ?순위|지금|^次|やること|^今すぐ|^下一步|要做的|^待办|^接下来|^后续(?:步骤)?$/u,
    ],
    [
      'pending',
      /^pending\b|^open decisions?|decisions? (?:pending|needed|to make|required)|^undecided|^awaiting decision|^ожидающ|^нерешённ|^решени[яй] (?:ожида|нужн)|미결|결정 ?대기|의사 ?결정|보류|保留|判断待ち|未決|要確認|確認が必要|要判断|待决|待定|待确认|需要确认|需要决策/u,
    ],
    ['decisions', /^(?:key )?decisions?\b|^decided\b|^решения|^決定事項|^决策|^决定|^결정 ?사항/u],
    [
      'issues',
      /^(?:outstanding|remaining|open|known|current) (?:issues?|problems?|bugs?|blockers?)|^known (?:risks?|limitations?)|^(?:open )?investigations?\b|^issues?\b|^blockers?\b|^blocked\b|^risks?\b|^(?:открытые )?проблем|^блокер|^риск|이슈|블로커|문제|장애|課題|問題|ブロッカー|リスク|障害|问题|阻塞|风险|^已知|限制|障碍/u,
    ],
    [
      'status',
      /^current (?:work )?(?:status|state|focus|work)|^current branch|working state|^(?:work )?status\b|^state\b|^where (?:things|we) (?:are|stand)|^in[- ]progress|^progress\b|^uncommitted|^текущее состояние|^состояние|^статус|^прогресс|현재 ?(?:상태|작업|진행)|진행 ?(?:중|상황)|상태|^現在|作業状況|進捗|未完了|^状況|^状態|^当前(?:工作)?状态|进展|进度|现状/u,
    ],
    [
      'understanding',
      /^system understanding|^understanding|^context\b|^(?:key )?(?:context|notes?|insights?|learnings?|facts?)\b|^(?:project )?(?:key )?info(?:rmation)?\b|^background|^dead ends?\b|^(?:do not|don't) retry|^failed (?:approaches|attempts)|^понимание|^контекст|^заметки|컨텍스트|맥락|이해|메모|핵심 ?정보|理解|文脈|背景|メモ|前提知識|上下文|接手所需|须知/u,
    ],
    [
      'interests',
      /^user'?s?\b.*(?:interests?|priorit|focus|wants?)|^interests?\b|^интерес|пользовател|관심|유저|사용자|関心|^ユーザー|关注|^用户/u,
    ],
    ['log', /history|changelog|^log\b|^журнал|^история|이력|히스토리|디버깅|履歴|^ログ|日志|历史/u],
  ],
  // The seed's handoff template, and its closing report's "Today's accomplishments".
  {
    title: ['session handoff'],
    next: ['what to do now'],
    status: ['current work status'],
    pending: ['pending decisions'],
    issues: ['outstanding issues'],
    understanding: ['system understanding'],
    interests: ["user's current interests"],
    done: ["today's accomplishments"],
  },
);

// ---------------------------------------------------------------------------------------------
// Items

/** An item that says it is finished: `[x]`, `~~…~~`, `✅ …`, `… → 완료`, `(done)`, `DONE …`. */
const DONE_RES: RegExp[] = [
  /^\s*~~.+~~\s*$/,
  /^\s*(?:✅|✔️?|☑️?)/u,
  /(?:→|->|=>)\s*(?:\*\*)?(?:완료|done|completed?|finished|resolved|해결)/iu,
  /[(（]\s*(?:done|완료|completed?|finished|resolved)\s*[)）]/iu,
  /^\s*(?:\*\*)?(?:done|completed)\b/i,
];

const kinds = new WeakMap<Item, MdBlockKind>();

/**
 * `urgency: H` and `risk: M` tags, a `*` run allowed around the value. Each blank or `*` run is taken
 * whole, once (`(?=(\s*))\1` cannot give back what it took): with `\s*\**\s*`, a long run of blanks
 * after `urgency:` was split between the two `\s*` in every way before the pattern gave up, which
 * took time with the square of the run. No match is lost: a value must follow the whole run.
 */
const URGENCY_TAG = /urgency(?=(\s*))\1[:：](?=(\s*))\2(?=(\**))\3(?=(\s*))\4([HML])(?![\w/])/i;
const RISK_TAG = /\brisk(?=(\s*))\1[:：](?=(\s*))\2(?=(\**))\3(?=(\s*))\4([HML])(?![\w/])/i;

export function itemFlags(text: string): string[] {
  const flags: string[] = [];
  const u = URGENCY_TAG.exec(text);
  if (u) flags.push(`urgency:${u[5].toUpperCase()}`);
  const r = RISK_TAG.exec(text);
  if (r) flags.push(`risk:${r[5].toUpperCase()}`);
  if (DONE_RES.some((re) => re.test(text))) flags.push('done');
  return flags;
}

/** Merge the lines of one paragraph (consecutive `line` blocks) into one item, as the model wants. */
function mergeParagraphs(items: Item[]): Item[] {
  const out: Item[] = [];
  let lastLine = -1;
  for (const it of items) {
    const prev = out[out.length - 1];
    if (prev && kinds.get(prev) === 'line' && kinds.get(it) === 'line' && it.line === lastLine + 1) {
      prev.text = `${prev.text} ${it.text}`;
      lastLine = it.line;
      continue;
    }
    out.push(it);
    lastLine = it.line;
  }
  for (const it of out) {
    for (const f of itemFlags(it.text)) if (!it.flags.includes(f)) it.flags.push(f);
  }
  return out;
}

/** Parse a handoff: headings by meaning, paragraphs as items, the snapshot block as its own section. */
export function parseHandoff(_text: string, outline: MdOutline): ParsedContent {
  const sections = sectionize(
    outline,
    (t, h) => (h.level === 1 && matchKey(t, S1_KEYS) === 'other' ? 'title' : matchKey(t, S1_KEYS)),
    {
      toItem: (b) => {
        const it = defaultItem(b);
        if (it) kinds.set(it, b.kind);
        return it;
      },
    },
  );
  for (const s of sections) s.items = mergeParagraphs(s.items);
  const meta: Record<string, unknown> = {};
  const snap = readSnapshot(outline);
  if (snap) {
    meta.snapshot = snap.info;
    for (const s of sections) s.items = s.items.filter((i) => i.line < snap.info.line || i.line > snap.info.endLine);
    const at = sections.findIndex((s) => s.line > snap.section.line);
    sections.splice(at < 0 ? sections.length : at, 0, snap.section);
  }
  // Keep the item kinds reachable after the copy into the doc (for "item 1" of a list).
  meta.listItems = sections.flatMap((s) => s.items.filter((i) => kinds.get(i) === 'list-item').map((i) => i.line));
  return {
    sections: sections.filter((s) => s.key !== 'preamble' || s.items.length > 0),
    meta,
    // What the snapshot's YAML decoded holds secrets the text did not show (a `!!binary` value, an escape): no-secrets names them.
    ...(snap?.secrets.length ? { secrets: snap.secrets } : {}),
    ...(snap?.cuts.length ? { cuts: snap.cuts } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The module

/**
 * The first of `rels` where something stands: a folder or a pipe at a memory store's path is that store,
 * one that cannot be read (S1's readable says so), not a reason to take the next place or none.
 */
async function firstExisting(ws: Workspace, rels: readonly string[]): Promise<string | null> {
  // A link that resolves to nothing (dangling, a loop) is no store: the guard takes a vouched one as gone.
  for (const r of rels) if (standsThere(await ws.kind(r))) return r;
  return null;
}

/** What S1's reader carries to its rules: handoff files besides the LATEST one, and where the sidecar belongs. */
export interface S1Extra {
  strays: string[];
  sidecar: string;
}

async function load(ws: Workspace): Promise<Loaded<S1Extra> | null> {
  const latest: string[] = [];
  const others: string[] = [];
  for (const dir of S1_DIRS) {
    for (const name of (await ws.list(dir)).sort()) {
      if (name === S1_LATEST) latest.push(`${dir}/${name}`);
      else if (/^session[-_]handoff.*\.md$/i.test(name)) others.push(`${dir}/${name}`);
    }
  }
  if (latest.length === 0 && others.length === 0) {
    // A sidecar attests a handoff: with the handoff gone, S1 is there and its home is missing.
    for (const dir of S1_DIRS)
      if ((await ws.kind(`${dir}/${S1_SIDECAR}`)) === 'file') {
        ws.stateFiles.add(`${dir}/${S1_SIDECAR}`);
        return {
          home: null,
          homeRel: `${dir}/${S1_LATEST}`,
          docs: [],
          extra: { strays: [], sidecar: `${dir}/${S1_SIDECAR}` },
          more: [`${dir}/${S1_SIDECAR}`],
        };
      }
    // No handoff: S1 is not read (the next session starts from the handoff alone). Its memory stores in
    // S1's own folder are said to be there, not read, and why: the handoff is what is missing.
    for (const dir of S1_DIRS)
      for (const name of ['MEMORY.md', 'context-log.md'])
        if ((await ws.kind(`${dir}/${name}`)) === 'file') ws.notOurs(`${dir}/${name}`, 'S1', 'S1-no-handoff');
    return null;
  }
  const homeRel = latest[0] ?? `${dirOf(others[0])}/${S1_LATEST}`;
  const dir = dirOf(homeRel);
  const docs: StateDoc[] = [];
  const home = latest.length ? await ws.loadDoc(homeRel, 'S1', 'handoff', parseHandoff) : null;
  if (home) docs.push(home);
  const strays = [...latest.slice(1), ...others];
  const sidecar = `${dir}/${S1_SIDECAR}`;
  // The attestation is S1's state as its handoff is: a new or changed sidecar is no work for any system
  // (taken at load, before any system's checks ask git what changed).
  ws.stateFiles.add(sidecar);
  const memRel = await firstExisting(ws, [`${dir}/MEMORY.md`, 'MEMORY.md']);
  const logRel = await firstExisting(ws, [`${dir}/context-log.md`, 'context-log.md']);
  const lessonsRel = await firstExisting(ws, ['tasks/lessons.md', `${dir}/tasks/lessons.md`]);
  // The other handoffs and the memory stores are read by the rules alone: the hooks' skeleton check
  // and resume take the handoff and its sidecar, and name the others (the guard compares them).
  if (!allRules(ws.options)) {
    const more = [sidecar, ...strays, ...[memRel, logRel, lessonsRel].filter((r): r is string => r !== null)];
    return { home, homeRel, docs, extra: { strays, sidecar }, more };
  }
  for (const p of strays) docs.push(await ws.loadDoc(p, 'S1', 'handoff', parseHandoff));
  if (memRel) docs.push(await ws.loadDoc(memRel, 'S1', 'memory', (_t, o) => parseMemory(o)));
  if (logRel) docs.push(await ws.loadDoc(logRel, 'S1', 'contextLog', (_t, o) => parseContextLog(o)));
  if (lessonsRel) docs.push(await ws.loadDoc(lessonsRel, 'S1', 'lessons', (_t, o) => parseLessons(o)));
  return { home, homeRel, docs, extra: { strays, sidecar }, more: [sidecar] };
}

export const S1: SystemReader<S1Extra> = { id: 'S1', load };
