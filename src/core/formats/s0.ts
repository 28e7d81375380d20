/**
 * S0 (seed 000, majestic `session-checkpoint`): `.agents.yml` switches the ledger on with
 * `session.ledger: true`; the ledger lives at `session.ledger_path` or `.agents/session_ledger.md`.
 * Older places are tolerated when they hold the S0 sections: a root `CONTINUITY.md` (the Codex
 * "Continuity Ledger": headings, or bare `Label:` lines), `.claude/memory/session_ledger.md`,
 * `.claude/session_ledger.md`.
 */
import { LineCounter, isMap, isScalar, parseDocument } from 'yaml';
import { defaultItem, sectionize, type MdBlock, type MdOutline } from '../markdown';
import { companionPath, FACTS } from '../facts';
import type { Finding, Item, Section, StateDoc } from '../model';
import { matchKey, type KeyTable } from '../sections';
import type { Loaded, SystemReader } from '../system';
import type { ParsedContent, Workspace } from '../workspace';
import { templateTagItem, yamlData } from './s1-util';

export const S0_CONFIG = companionPath('S0', 'config');
export const S0_DEFAULT_LEDGER = FACTS.S0.home;
/** Older places a ledger was kept; read only when they hold the S0 sections. */
export const S0_OLDER_PATHS = FACTS.S0.homeAlternatives;
export const S0_SKIPPED = FACTS.S0.switchedOff ?? '';

/** Section names by meaning (normalised titles), English as in the seed plus the corpus' Russian. */
export const S0_KEYS: KeyTable = [
  ['title', /^(?:session |continuity )?ledger$/],
  ['goal', /^goals?\b|^цел[ьи]/u],
  ['constraints', /^constraints?\b|^assumptions?\b|^ограничени|^допущени/u],
  ['decisions', /^(?:key )?decisions?\b|^(?:ключевые )?решени/u],
  ['open', /^open(?: questions?)?\b|^questions?\b|^(?:открытые )?вопрос/u],
  ['working-set', /^working[ -]?set\b|^рабоч/u],
  ['done', /^done\b|^completed?\b|^сделано|^выполнено/u],
  ['now', /^now\b|^current(?: focus)?$|^сейчас|^текущ/u],
  ['next', /^next(?: steps?)?$|^next\b|^далее|^дальше|^следующ/u],
  ['state', /^state\b|^состояни/u],
];

const UNCONFIRMED_RE = /\bUNCONFIRMED\b/;

/** A `Label:` line of a heading-less ledger (`Goal (incl. success criteria):`, `Now: …`). */
const LABEL_RE = /^(?:\*\*)?([^:*：]{1,60}?)(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*(.*)$/u;

function s0Item(b: MdBlock): Item | null {
  const it = defaultItem(b) ?? templateTagItem(b);
  if (it && UNCONFIRMED_RE.test(it.text)) it.flags.push('unconfirmed');
  return it;
}

/** Label-style sections: every paragraph line `Known label:` starts one; its inline value is its first item. */
function labelSections(outline: MdOutline): Section[] {
  const sections: Section[] = [];
  const pre: Item[] = [];
  let cur: Section | null = null;
  for (const b of outline.blocks) {
    const m = b.kind === 'line' && !b.quoted ? LABEL_RE.exec(b.text) : null;
    const key = m ? matchKey(m[1], S0_KEYS) : 'other';
    if (m && key !== 'other' && key !== 'title') {
      if (cur) cur.endLine = b.line - 1;
      cur = { key, title: m[1].trim(), line: b.line, endLine: outline.lines.length, level: 0, items: [] };
      sections.push(cur);
      const value = m[2].replace(/\*\*$/, '').trim();
      if (value) {
        const it: Item = { text: value, line: b.line, flags: [], depth: 0 };
        if (UNCONFIRMED_RE.test(value)) it.flags.push('unconfirmed');
        cur.items.push(it);
      }
      continue;
    }
    const it = s0Item(b);
    if (!it) continue;
    if (cur) cur.items.push(it);
    else pre.push(it);
  }
  if (pre.length) sections.unshift({ key: 'preamble', title: '', line: pre[0].line, endLine: (sections[0]?.line ?? outline.lines.length + 1) - 1, level: 0, items: pre });
  return sections;
}

function markDone(sections: Section[]): Section[] {
  for (const s of sections) if (s.key === 'done') for (const it of s.items) if (!it.flags.includes('done')) it.flags.push('done');
  return sections;
}

/** Read a ledger: headings when any heading names an S0 section, else `Label:` lines. */
export function parseS0Ledger(_text: string, outline: MdOutline): ParsedContent {
  const byHeading = sectionize(outline, (t) => matchKey(t, S0_KEYS), { toItem: s0Item });
  const known = byHeading.filter((s) => s.key !== 'other' && s.key !== 'preamble' && s.key !== 'title');
  if (known.length > 0) return { sections: markDone(byHeading) };
  const byLabel = labelSections(outline);
  if (byLabel.some((s) => s.key !== 'preamble')) return { sections: markDone(byLabel) };
  return { sections: markDone(byHeading) };
}

/** Distinct S0 section keys a document holds (detection of the older, generic paths). */
export function s0KeyCount(doc: StateDoc): number {
  return new Set(doc.sections.map((s) => s.key).filter((k) => k !== 'other' && k !== 'preamble' && k !== 'title' && k !== 'state')).size;
}

// ---------------------------------------------------------------------------------------------
// .agents.yml

export interface S0Config {
  enabled: boolean;
  ledgerPath: string | null;
  /** The config could not be understood (YAML error, not a mapping, unreadable). */
  broken: boolean;
}

export function parseAgentsYml(text: string): ParsedContent {
  const findings: Finding[] = [];
  const sections: Section[] = [];
  const lc = new LineCounter();
  const meta: Record<string, unknown> = {};
  const ydoc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (ydoc.errors.length) {
    const e = ydoc.errors[0];
    const line = lc.linePos(e.pos[0]).line;
    findings.push({
      id: 'config',
      severity: 'block',
      message: `.agents.yml does not parse as YAML (line ${line}): ${e.message.split('\n')[0]}. The checkpoint cannot read session.ledger.`,
      line,
      hint: 'Fix the YAML syntax (indentation, unclosed brackets or quotes) at that line.',
    });
    meta.broken = true;
    return { sections: [], meta, findings };
  }
  const root = ydoc.contents;
  if (root !== null && !isMap(root)) {
    findings.push({ id: 'config', severity: 'warn', message: '.agents.yml is not a mapping of settings; session.ledger cannot be read from it.', line: 1 });
    meta.broken = true;
    return { sections: [], meta, findings };
  }
  const data = yamlData(ydoc);
  if (data.error) {
    findings.push({ id: 'config', severity: 'block', message: `.agents.yml cannot be read: ${data.error}.`, line: 1 });
    meta.broken = true;
    return { sections, meta, findings };
  }
  const js = (data.value ?? {}) as Record<string, unknown>;
  const session = js.session;
  meta.session = session ?? null;
  const sessionPair = isMap(root) ? root.items.find((p) => isScalar(p.key) && p.key.value === 'session') : undefined;
  const sessionNode = sessionPair?.value;
  const keyRange = isScalar(sessionPair?.key) ? sessionPair.key.range : undefined;
  const sessionLine = keyRange ? lc.linePos(keyRange[0]).line : undefined;
  if (sessionLine) meta.sessionLine = sessionLine;
  if (session !== undefined && session !== null && (typeof session !== 'object' || Array.isArray(session))) {
    findings.push({ id: 'config', severity: 'warn', message: '`session` in .agents.yml is not a mapping; expected `session:` with `ledger: true`.', line: sessionLine });
  } else if (session && typeof session === 'object') {
    const s = session as Record<string, unknown>;
    // The session block as a section, so views show what the config says and where.
    if (isMap(sessionNode)) {
      const items: Item[] = sessionNode.items.map((pair) => {
        const k = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
        const r = (pair.key as { range?: number[] } | null)?.range;
        return { text: `${k}: ${JSON.stringify(s[k] ?? null)}`, line: r ? lc.linePos(r[0]).line : sessionLine ?? 1, flags: [] };
      });
      sections.push({ key: 'session', title: 'session', line: sessionLine ?? 1, endLine: Math.max(sessionLine ?? 1, ...items.map((i) => i.line)), level: 0, items });
    }
    const lp = s.ledger_path;
    if (lp !== undefined && lp !== null && (typeof lp !== 'string' || lp.trim() === '')) {
      findings.push({ id: 'config', severity: 'warn', message: '`session.ledger_path` is not a path; the default .agents/session_ledger.md is used.', line: sessionLine });
    }
  }
  return { sections, meta, findings };
}

export function configOf(doc: StateDoc | null): S0Config {
  if (!doc) return { enabled: false, ledgerPath: null, broken: false };
  if (doc.findings.some((f) => f.id === 'readable') || doc.meta.broken) return { enabled: false, ledgerPath: null, broken: true };
  const s = doc.meta.session as Record<string, unknown> | null | undefined;
  if (!s || typeof s !== 'object' || Array.isArray(s)) return { enabled: false, ledgerPath: null, broken: false };
  const v = s.ledger;
  const enabled = v === true || (typeof v === 'string' && /^(?:true|yes|on)$/i.test(v.trim()));
  const lp = typeof s.ledger_path === 'string' && s.ledger_path.trim() ? s.ledger_path.trim() : null;
  return { enabled, ledgerPath: lp, broken: false };
}

/** A configured ledger path as a workspace-relative path (`./x` → `x`, absolute inside the root → relative). */
function relLedgerPath(ws: Workspace, p: string): string {
  const rel = p.startsWith('/') ? ws.rel(p) : p;
  return rel.replace(/^(?:\.\/)+/, '');
}

// ---------------------------------------------------------------------------------------------
// The module

async function loadLedger(ws: Workspace, rel: string): Promise<StateDoc> {
  return ws.loadDoc(rel, 'S0', 'ledger', parseS0Ledger);
}

async function load(ws: Workspace): Promise<Loaded | null> {
  const docs: StateDoc[] = [];
  let config: StateDoc | null = null;
  if (await ws.exists(S0_CONFIG)) {
    config = await ws.loadDoc(S0_CONFIG, 'S0', 'config', (text) => parseAgentsYml(text));
    docs.push(config);
  }
  const cfg = configOf(config);
  const homeRel = cfg.ledgerPath ? relLedgerPath(ws, cfg.ledgerPath) : S0_DEFAULT_LEDGER;
  const extra = { enabled: cfg.enabled, configured: config !== null, broken: cfg.broken };
  if (await ws.exists(homeRel)) {
    const home = await loadLedger(ws, homeRel);
    docs.push(home);
    return { home, homeRel, docs, extra };
  }
  // Switched on (or unreadable config): the ledger is the system's own file, missing.
  if (config && (cfg.enabled || cfg.broken)) return { home: null, homeRel, docs, extra };
  for (const rel of S0_OLDER_PATHS) {
    if ((await ws.kind(rel)) !== 'file') continue;
    const f = await ws.read(rel);
    if (!f.ok) continue; // an unreadable file at a generic path is not known to be ours
    const doc = await loadLedger(ws, rel);
    if (s0KeyCount(doc) >= 3) return { home: doc, homeRel: rel, docs: [...docs, doc], extra: { ...extra, older: true } };
    ws.stateFiles.delete(rel);
  }
  if (config) return { home: null, homeRel, docs, skipped: S0_SKIPPED };
  return null;
}

export const S0: SystemReader = { id: 'S0', load };
