/**
 * S0 (seed 000, majestic `session-checkpoint`): `.agents.yml` switches the ledger on with
 * `session.ledger: true`; the ledger lives at `session.ledger_path` or `.agents/session_ledger.md`.
 * Older places are tolerated when they hold the S0 sections: a root `CONTINUITY.md` (the Codex
 * "Continuity Ledger": headings, or bare `Label:` lines), `.claude/memory/session_ledger.md`,
 * `.claude/session_ledger.md`.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { readYaml } from '../../markdown/yaml-tree';
import type { YamlRefusalKind } from '../../markdown/yaml';
import { defaultItem, sectionize, type MdBlock, type MdOutline } from '../../markdown/markdown';
import { companionPath } from '../facts';
import { S0_FACTS } from './facts';
import type { Item, Section, StateDoc } from '../../model/model';
import { matchKey, withNames, type KeyTable } from '../../markdown/sections';
import type { Loaded, SystemReader } from '../../model/system';
import type { ParsedContent, Workspace } from '../../model/workspace';
import { templateTagItem } from '../../markdown/items';
import { isPlaceholder } from '../../markdown/text';
import { readTextFile } from '../../files/fsread';

export const S0_CONFIG = companionPath('S0', 'config');
export const S0_DEFAULT_LEDGER = S0_FACTS.home;
/** Older places a ledger was kept; read only when they hold the S0 sections. */
export const S0_OLDER_PATHS = S0_FACTS.homeAlternatives;
export const S0_SKIPPED = S0_FACTS.switchedOff?.text ?? '';

/**
 * Section names by meaning (normalised titles): the seed's English, and what ledgers committed in
 * public repositories write for the same sections in English, Russian, Japanese, Chinese and
 * Korean ("Current Task", "What Was Done", "Next Step", "Текущий фокус", "Блокеры", "次", "下一步",
 * "다음" …). Order matters: the first match wins ("Текущая задача" is the goal, "Текущий фокус"
 * the current focus; "未完了" is not "完了").
 */
export const S0_KEYS: KeyTable = withNames(
  [
    [
      'title',
      /^(?:session |continuity )?ledger$|^(?:журнал (?:непрерывности|сессии)|セッション台帳|会话台账|세션 원장)$/u,
    ],
    ['goal', /^goals?\b|^objectives?\b|^current task\b|^цел[ьи]|^(?:текущая )?задача|^目[標标的]|^목표/u],
    [
      'constraints',
      /^constraints?\b|^assumptions?\b|^invariants?\b|^ограничени|^допущени|制約|前提|约束|假设|제약|가정/u,
    ],
    ['decisions', /^(?:key )?decisions?\b|^(?:ключевые )?решени|決定|决策|决定|결정/u],
    [
      'open',
      /^open(?: questions?)?\b|^questions?\b|^blockers?\b|^blocked\b|^(?:открытые )?вопрос|^блокер|未解決|未決|質問|ブロッカー|未决|待决|阻塞|问题|미해결|미결|질문|블로커/u,
    ],
    ['working-set', /^working[ -]?set\b|^рабоч|作業セット|作業ファイル|工作集|工作文件|작업 ?세트|작업 ?파일/u],
    [
      'done',
      /^done\b|^completed?\b|^what (?:was|we|i) (?:done|did)\b|^what was done\b|^(?:что )?сделано|^выполнено|^готово|(?<!未)完了|済み|^已?完成|(?<!미)완료/u,
    ],
    ['now', /^now\b|^current(?: focus)?$|^сейчас|^текущ|^現在|^いま|^当前|^进行中|^正在|^현재|^지금/u],
    ['next', /^next(?: steps?)?$|^next\b|^далее|^дальше|^следующ|^次|^今後|^下一步|^接下来|^后续|^다음/u],
    [
      'state',
      /^state\b|^current (?:state|status)\b|^status\b|^progress\b|^состояни|^статус|^прогресс|状態|状況|进度|状态|상태|진행/u,
    ],
  ],
  // The seed's template: `# Session Ledger`, Goal, Constraints/Assumptions, Key Decisions, State (Done, Now, Next), Open Questions, Working Set.
  {
    title: ['session ledger'],
    goal: ['goal'],
    constraints: ['constraints/assumptions'],
    decisions: ['key decisions'],
    state: ['state'],
    done: ['done'],
    now: ['now'],
    next: ['next'],
    open: ['open questions'],
    'working-set': ['working set'],
  },
);

const UNCONFIRMED_RE = /\bUNCONFIRMED\b/;

/** Item text with the UNCONFIRMED tag taken out, so `- <question> \`UNCONFIRMED\`` reads as the placeholder it is. */
export function withoutUnconfirmedTag(text: string): string {
  return text.replace(/`?\bUNCONFIRMED\b`?/g, '').trim();
}

/** An item the user has to validate: one tagged UNCONFIRMED whose text is more than the template's placeholder. */
function isUnconfirmed(text: string): boolean {
  return UNCONFIRMED_RE.test(text) && !isPlaceholder(withoutUnconfirmedTag(text));
}

/**
 * A `Label:` line (or list item) of a heading-less ledger (`Goal (incl. success criteria):`, `Now: …`):
 * the label, then the value. The blanks around the `**` after the colon are each taken whole, once (a
 * lookahead and its backreference): with `\s*(?:\*\*)?\s*(.*)$`, a run of blanks split between the two
 * `\s*` in every way, each scanning the value again when a U+2028 after its text kept `.*` from the
 * line's end (`Goal:`, 2,000 blanks and `x\u2028y` took the reader 4.4 s). `**` is no blank, so every
 * split reached the same place: the same lines match.
 */
const LABEL_RE = /^(?:\*\*)?([^:*：]{1,60}?)(?:\*\*)?\s*[:：](?=(\s*))\2(?:\*\*)?(?=(\s*))\3(.*)$/u;

function s0Item(b: MdBlock): Item | null {
  const it = defaultItem(b) ?? templateTagItem(b);
  if (it && isUnconfirmed(it.text)) it.flags.push('unconfirmed');
  return it;
}

/**
 * Label-style sections over a run of blocks: a paragraph line or a list item `Known label:` starts
 * one (its inline value is its first item); the blocks after it are its items until the next label.
 * A list-item label's nested items are re-based to depth 0 (`- State:` / `  - Now:` / `    - do X`
 * gives a Now section whose first item is "do X"). `only` restricts the labels to some keys.
 */
function labelSections(
  blocks: readonly MdBlock[],
  endLine: number,
  level: number,
  only?: ReadonlySet<string>,
): { pre: Item[]; sections: Section[] } {
  const sections: Section[] = [];
  const pre: Item[] = [];
  let cur: Section | null = null;
  /** List depth of the current label (-1 for a paragraph-line label). */
  let labelDepth = -1;
  for (const b of blocks) {
    const m = (b.kind === 'line' || b.kind === 'list-item') && !b.quoted ? LABEL_RE.exec(b.text) : null;
    const key = m ? matchKey(m[1], S0_KEYS) : 'other';
    if (m && key !== 'other' && key !== 'title' && (!only || only.has(key))) {
      if (cur) cur.endLine = b.line - 1;
      cur = { key, title: m[1].trim(), line: b.line, endLine, level, items: [] };
      labelDepth = b.kind === 'list-item' ? b.depth : -1;
      sections.push(cur);
      const value = m[4].replace(/\*\*$/, '').trim();
      if (value) {
        const it: Item = { text: value, line: b.line, flags: [], depth: 0 };
        if (isUnconfirmed(value)) it.flags.push('unconfirmed');
        cur.items.push(it);
      }
      continue;
    }
    const it = s0Item(b);
    if (!it) continue;
    if (cur && b.kind === 'list-item') it.depth = Math.max(0, b.depth - (labelDepth + 1));
    if (cur) cur.items.push(it);
    else pre.push(it);
  }
  return { pre, sections };
}

function markDone(sections: Section[]): Section[] {
  for (const s of sections)
    if (s.key === 'done') for (const it of s.items) if (!it.flags.includes('done')) it.flags.push('done');
  return sections;
}

const STATE_LABELS: ReadonlySet<string> = new Set(['done', 'now', 'next']);

/** `## State` written as `- Done:` / `- Now: …` / `- Next: …` list items: those labels become its subsections. */
function splitStateLabels(outline: MdOutline, sections: Section[]): Section[] {
  const out: Section[] = [];
  for (const s of sections) {
    out.push(s);
    if (s.key !== 'state') continue;
    const blocks = outline.blocks.filter((b) => b.line > s.line && b.line <= s.endLine);
    const { pre, sections: subs } = labelSections(blocks, s.endLine, s.level + 1, STATE_LABELS);
    if (subs.length === 0) continue;
    s.items = pre;
    s.endLine = subs[0].line - 1;
    out.push(...subs);
  }
  return out;
}

/** Read a ledger: headings when any heading names an S0 section, else `Label:` lines and list items. */
export function parseS0Ledger(_text: string, outline: MdOutline): ParsedContent {
  const byHeading = sectionize(outline, (t) => matchKey(t, S0_KEYS), { toItem: s0Item });
  const known = byHeading.filter((s) => s.key !== 'other' && s.key !== 'preamble' && s.key !== 'title');
  if (known.length > 0) return { sections: markDone(splitStateLabels(outline, byHeading)) };
  const { pre, sections: byLabel } = labelSections(outline.blocks, outline.lines.length, 0);
  if (byLabel.length > 0) {
    if (pre.length)
      byLabel.unshift({
        key: 'preamble',
        title: '',
        line: pre[0].line,
        endLine: byLabel[0].line - 1,
        level: 0,
        items: pre,
      });
    return { sections: markDone(byLabel) };
  }
  return { sections: markDone(byHeading) };
}

/** Distinct S0 section keys a document holds (detection of the older, generic paths). */
export function s0KeyCount(doc: StateDoc): number {
  return new Set(
    doc.sections.map((s) => s.key).filter((k) => k !== 'other' && k !== 'preamble' && k !== 'title' && k !== 'state'),
  ).size;
}

// ---------------------------------------------------------------------------------------------
// .agents.yml

export interface S0Config {
  enabled: boolean;
  ledgerPath: string | null;
  /** The config could not be understood (YAML error, not a mapping, unreadable). */
  broken: boolean;
}

/**
 * What is wrong in `.agents.yml`, as read: a YAML syntax error (its first line and document line),
 * a document that is not read (why, and its line when known: `YamlTree.refused`),
 * a document that is not a mapping, data that cannot be read (why; more aliases than are resolved), a `session` that is not a
 * mapping, a `session.ledger_path` that is not a path (both at the `session:` line). Stored in
 * `meta.issues`; S0's checks say what each means.
 */
export type AgentsYmlIssue =
  | { kind: 'yaml-error'; line: number; column: number; code: string; error: string }
  | { kind: 'refused'; refusal: YamlRefusalKind; line?: number }
  | { kind: 'not-mapping' }
  | { kind: 'unreadable'; error: string }
  | { kind: 'too-many-aliases'; aliases: number }
  | { kind: 'session-not-mapping'; line?: number }
  | { kind: 'ledger-path-not-path'; line?: number };

export function parseAgentsYml(text: string): ParsedContent {
  const issues: AgentsYmlIssue[] = [];
  const sections: Section[] = [];
  const meta: Record<string, unknown> = { issues };
  const ydoc = readYaml(text);
  if (ydoc.error) {
    const { line, column, code, message } = ydoc.error;
    issues.push({ kind: 'yaml-error', line, column, code, error: message.split('\n')[0] });
    meta.broken = true;
    return { sections: [], meta };
  }
  // What YAML decoded holds secrets the text did not show (a value on the line below its key): no-secrets names
  // them, and the document's text shows them masked where they are written.
  const secrets = ydoc.secrets;
  const cuts = ydoc.cuts;
  if (ydoc.refused) {
    issues.push({
      kind: 'refused',
      refusal: ydoc.refused.kind,
      ...(ydoc.refused.line ? { line: ydoc.refused.line } : {}),
    });
    meta.broken = true;
    return { sections: [], meta, secrets, cuts };
  }
  const root = ydoc.root;
  // A document whose data is null is an empty config, as an empty file is: one that holds no node (`---`,
  // `...`, comments) or only a null (`~`, `null`, `--- null # none yet`).
  if (root !== null && root.kind !== 'map' && !ydoc.nullData) {
    issues.push({ kind: 'not-mapping' });
    meta.broken = true;
    return { sections: [], meta, secrets, cuts };
  }
  const data = ydoc.data;
  if (data.error) {
    issues.push(
      data.refused
        ? { kind: 'refused', refusal: data.refused, ...(data.refusedLine ? { line: data.refusedLine } : {}) }
        : data.aliases !== undefined
          ? { kind: 'too-many-aliases', aliases: data.aliases }
          : { kind: 'unreadable', error: data.error },
    );
    meta.broken = true;
    return { sections, meta, secrets, cuts };
  }
  const js = (data.value ?? {}) as Record<string, unknown>;
  const session = js.session;
  meta.session = session ?? null;
  const sessionPair = (root?.kind === 'map' ? root.pairs : []).find((p) => p.keyIsScalar && p.key === 'session');
  const sessionNode = sessionPair?.value;
  const sessionLine = sessionPair?.keyLine ?? undefined;
  if (sessionLine) meta.sessionLine = sessionLine;
  if (session !== undefined && session !== null && (typeof session !== 'object' || Array.isArray(session))) {
    issues.push({ kind: 'session-not-mapping', line: sessionLine });
  } else if (session && typeof session === 'object') {
    const s = session as Record<string, unknown>;
    // The session block as a section, so views show what the config says and where.
    if (sessionNode?.kind === 'map') {
      const items: Item[] = sessionNode.pairs.map((pair) => ({
        text: `${pair.keyText}: ${JSON.stringify(s[pair.keyText] ?? null)}`,
        line: pair.keyLine ?? sessionLine ?? 1,
        flags: [],
      }));
      sections.push({
        key: 'session',
        title: 'session',
        line: sessionLine ?? 1,
        // Not spread into arguments: a hostile file holds tens of thousands of keys.
        endLine: items.reduce((m, i) => Math.max(m, i.line), sessionLine ?? 1),
        level: 0,
        items,
      });
    }
    const lp = s.ledger_path;
    if (lp !== undefined && lp !== null && (typeof lp !== 'string' || lp.trim() === '')) {
      issues.push({ kind: 'ledger-path-not-path', line: sessionLine });
    }
  }
  return { sections, meta, secrets, cuts };
}

export function configOf(doc: StateDoc | null): S0Config {
  if (!doc) return { enabled: false, ledgerPath: null, broken: false };
  if (doc.findings.some((f) => f.id === 'readable')) return { enabled: false, ledgerPath: null, broken: true };
  return configOfMeta(doc.meta);
}

/** What `.agents.yml` text says of S0, as this reader checks it: `on`, `off`, or `broken` (S0 checked with a blocking finding). */
export function s0ConfigOfText(text: string): 'on' | 'off' | 'broken' {
  const c = configOfMeta(parseAgentsYml(text).meta ?? {});
  return c.broken ? 'broken' : c.enabled ? 'on' : 'off';
}

function configOfMeta(meta: Record<string, unknown>): S0Config {
  if (meta.broken) return { enabled: false, ledgerPath: null, broken: true };
  const s = meta.session as Record<string, unknown> | null | undefined;
  if (!s || typeof s !== 'object' || Array.isArray(s)) return { enabled: false, ledgerPath: null, broken: false };
  const v = s.ledger;
  // Only a YAML boolean `true` switches the ledger on; a quoted "true", `yes` as a string, 1 … do not.
  const enabled = v === true;
  const lp = typeof s.ledger_path === 'string' && s.ledger_path.trim() ? s.ledger_path.trim() : null;
  return { enabled, ledgerPath: lp, broken: false };
}

/** A configured ledger path as a workspace-relative path (`./x` → `x`, absolute inside the root → relative). */
function relLedgerPath(ws: Pick<Workspace, 'rel'>, p: string): string {
  // `~` and `$HOME` are the user's home folder, as a shell reads them: a ledger there is outside the
  // workspace (not read, and said so), never a folder named `~` in it.
  const home = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(p);
  const abs = home ? path.join(os.homedir(), p.slice(home[0].length)) : p;
  const rel = abs.startsWith('/') ? ws.rel(abs) : abs;
  return rel.replace(/^(?:\.\/)+/, '');
}

/** Where S0's reader looks for the ledger under `root`: `.agents.yml`'s `session.ledger_path`, as a workspace-relative path (it may lead out: `../x`), else the default. */
export async function s0LedgerIn(root: string): Promise<string> {
  const f = await readTextFile(path.join(root, S0_CONFIG));
  const lp = f.ok ? configOfMeta(parseAgentsYml(f.text).meta ?? {}).ledgerPath : null;
  return lp
    ? relLedgerPath({ rel: (abs) => path.relative(root, abs).split(path.sep).join('/') }, lp)
    : S0_DEFAULT_LEDGER;
}

// ---------------------------------------------------------------------------------------------
// The module

async function loadLedger(ws: Workspace, rel: string): Promise<StateDoc> {
  return ws.loadDoc(rel, 'S0', 'ledger', parseS0Ledger);
}

/** What S0's reader carries to its rules: how `.agents.yml` configures the ledger, and whether it was found at an older place. */
export interface S0Extra {
  /** `session.ledger: true` in `.agents.yml`. */
  enabled: boolean;
  /** `.agents.yml` exists. */
  configured: boolean;
  /** `.agents.yml` cannot be read as YAML. */
  broken: boolean;
  /** The ledger was read from one of the older places. */
  older?: boolean;
}

async function load(ws: Workspace): Promise<Loaded<S0Extra> | null> {
  const docs: StateDoc[] = [];
  let config: StateDoc | null = null;
  if (await ws.exists(S0_CONFIG)) {
    config = await ws.loadDoc(S0_CONFIG, 'S0', 'config', (text) => parseAgentsYml(text));
    docs.push(config);
  }
  const cfg = configOf(config);
  const homeRel = cfg.ledgerPath ? relLedgerPath(ws, cfg.ledgerPath) : S0_DEFAULT_LEDGER;
  // Not enabled (no `.agents.yml`, or one without `session.ledger: true`): the seed's skip line; a
  // ledger present anyway is still read and checked, never checkpointed.
  const off = !cfg.enabled && !cfg.broken;
  const extra: S0Extra = { enabled: cfg.enabled, configured: config !== null, broken: cfg.broken };
  const offLine = off ? { off: S0_SKIPPED } : {};
  if (await ws.exists(homeRel)) {
    const home = await loadLedger(ws, homeRel);
    docs.push(home);
    return { home, homeRel, docs, extra, ...offLine };
  }
  // Switched on (or unreadable config): the ledger is the system's own file, missing.
  if (config && (cfg.enabled || cfg.broken)) return { home: null, homeRel, docs, extra, ...offLine };
  for (const rel of S0_OLDER_PATHS) {
    if ((await ws.kind(rel)) !== 'file') continue;
    const f = await ws.read(rel);
    if (!f.ok) continue; // an unreadable file at a generic path is not known to be ours
    const doc = await loadLedger(ws, rel);
    if (s0KeyCount(doc) >= (S0_FACTS.homeAlternativesMinSections ?? 0))
      return { home: doc, homeRel: rel, docs: [...docs, doc], extra: { ...extra, older: true }, ...offLine };
    ws.stateFiles.delete(rel);
    ws.notOurs(rel, 'S0', 'S0-few-sections');
  }
  if (config) return { home: null, homeRel, docs, skipped: S0_FACTS.switchedOff ?? undefined };
  return null;
}

export const S0: SystemReader<S0Extra> = { id: 'S0', load };
