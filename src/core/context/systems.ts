/**
 * The threshold profile of the systems present in a workspace. Presence is file existence against
 * each system's presence globs in the facts table: a handful of directory listings, never a parse
 * of a state file, so the status line and `session-ledger context` cost the same whatever the size
 * of the state files, and load neither the Markdown nor the YAML reader.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ALL_FACTS, companionPath, presenceGlobs } from '../facts';
import { CONFIG_MAX_BYTES, readTextFile } from '../fsread';
import type { SystemId } from '../model';
import { thresholdProfile, type ThresholdProfile, type ThresholdSettings } from './thresholds';
import { yamlLooksBroken } from './yaml-broken';

function globRe(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
}

/** A matcher of presence globs under one root: each folder a glob names is listed once. */
function presenceMatcher(root: string): (glob: string) => Promise<boolean> {
  const lists = new Map<string, Promise<Set<string>>>();
  const list = (dir: string) => {
    let p = lists.get(dir);
    if (!p) {
      p = fs.readdir(path.join(root, dir)).then((names) => new Set(names), () => new Set<string>());
      lists.set(dir, p);
    }
    return p;
  };
  return async (g) => {
    const dir = path.posix.dirname(g);
    const base = path.posix.basename(g);
    const names = await list(dir === '.' ? '' : dir);
    if (!/[*?]/.test(base)) return names.has(base);
    const re = globRe(base);
    for (const n of names) if (re.test(n)) return true;
    return false;
  };
}

/** True when something matches one of `globs` under `root` (wildcards only in the last segment). */
export async function anyPresent(root: string, globs: readonly string[] = presenceGlobs()): Promise<boolean> {
  const match = presenceMatcher(root);
  return (await Promise.all(globs.map(match))).some(Boolean);
}

/** The ids of the systems one of whose presence globs matches under `root`, in id order. Never throws. */
export async function detectSystems(root: string): Promise<SystemId[]> {
  try {
    const match = presenceMatcher(root);
    const present = await Promise.all(ALL_FACTS.map(async (f) => ((await Promise.all(f.presence.map(match))).some(Boolean) ? f.id : null)));
    return present.filter((id): id is SystemId => id !== null);
  } catch {
    return [];
  }
}

/** The profile of the systems present under `root`, with the settings applied. */
export async function detectedThresholds(root: string, settings?: ThresholdSettings): Promise<ThresholdProfile> {
  return thresholdProfile(await detectSystems(root), settings);
}

/** The YAML 1.2 core schema's `true` (what the YAML reader turns into the boolean). */
const YAML_TRUE = /^(?:true|True|TRUE)$/;

/** A scalar as written: without a trailing comment; null for a quoted or otherwise non-plain value. */
function plainScalar(v: string): string | null {
  const s = v.replace(/(?:^|\s)#.*$/, '').trim();
  return /^["'!&*|>]/.test(s) ? null : s;
}

/**
 * Whether `.agents.yml` text says `session.ledger: true`, read without the YAML library (the status
 * line and `context` never load it): a top-level `session:` whose block holds `ledger:` with the
 * boolean true, or the flow form `session: { ledger: true }`. Anything it cannot read plainly
 * (anchors, tags, quoted keys) is not "on"; whether the file is broken is `s0ConfigText`'s question.
 */
export function s0LedgerOnText(text: string): boolean {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^session\s*:(.*)$/.exec(lines[i]);
    if (!m) continue;
    const rest = m[1].replace(/(?:^|\s)#.*$/, '').trim();
    if (rest.startsWith('{')) {
      // The flow form may run over several lines: read up to its closing brace.
      let flow = rest;
      for (let k = i + 1; !flow.includes('}') && k < lines.length; k++) flow += ` ${lines[k].replace(/(?:^|\s)#.*$/, '').trim()}`;
      const body = /^\{([^{}]*)\}$/.exec(flow.trim());
      if (!body) return false;
      const pairs = body[1].split(',').map((x) => /^\s*ledger\s*:\s*(.*?)\s*$/.exec(x)).filter(Boolean) as RegExpExecArray[];
      return pairs.length === 1 && YAML_TRUE.test(pairs[0][1]);
    }
    if (rest !== '') return false;
    let indent: string | null = null;
    let on = false;
    for (let k = i + 1; k < lines.length; k++) {
      const l = lines[k];
      if (/^\s*(?:#.*)?$/.test(l)) continue;
      const ind = /^(\s*)/.exec(l)?.[1] ?? '';
      if (ind === '') break;
      indent ??= ind;
      if (ind !== indent) continue;
      const kv = /^\s*ledger\s*:(.*)$/.exec(l);
      if (kv) {
        const v = plainScalar(kv[1]);
        on = v !== null && YAML_TRUE.test(v);
      }
    }
    return on;
  }
  return false;
}

/**
 * What `.agents.yml` text says of S0, as the S0 reader would: `on` (`session.ledger: true`), `off`,
 * or `broken` (the YAML reader would refuse it or find no mapping of settings). A broken config does
 * not switch S0 off: the reader checks S0 with a blocking finding, so the meter treats it as on.
 */
export function s0ConfigText(text: string): 'on' | 'off' | 'broken' {
  if (yamlLooksBroken(text)) return 'broken';
  return s0LedgerOnText(text) ? 'on' : 'off';
}

/**
 * S0 is on for the meter's advice: present, and not switched off by `.agents.yml` (switched on with
 * `session.ledger: true`, or a config that cannot be read, which the reader checks as S0 with a
 * blocking finding); without an `.agents.yml`, a ledger at one of S0's places counts as on (the
 * reader checks it as S0). Never throws.
 */
export async function s0On(root: string, present?: readonly SystemId[]): Promise<boolean> {
  const ids = present ?? (await detectSystems(root));
  if (!ids.includes('S0')) return false;
  const f = await readTextFile(path.join(root, companionPath('S0', 'config')), CONFIG_MAX_BYTES, { refuseLarger: true });
  // Missing: the ledger is checked as S0; unreadable (binary, too large, no permission): S0 is checked with a blocking finding.
  return f.ok ? s0ConfigText(f.text) !== 'off' : true;
}
