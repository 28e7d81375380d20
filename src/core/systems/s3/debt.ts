/**
 * S3's routing of deferred work (its method, step 3): deferred work gets a `defer:` marker plus a
 * line in `docs/state/DEBT.md`. A marker without its DEBT line is flagged (warn).
 *
 * Where markers are looked for: STATE.md itself and the files the session changed (git's
 * uncommitted and untracked paths), so the check costs what the session touched, not the size of
 * the repository; without git, STATE.md only. Text inside HTML comments (the templates' sample rows)
 * is not a marker and not a DEBT line.
 *
 * A marker has its DEBT line when a line of DEBT.md (outside comments, not the table's header or
 * rule):
 * - carries a DEBT id the marker names (`defer: DEBT-004 …`), or
 * - names the marker's file (its path, or its file name: the "Where (file:line or area)" column),
 *   for a marker in any file but STATE.md, or
 * - holds most of the marker's words (at least two words of four letters or more, and half of them):
 *   a marker in STATE.md has no site of its own, so its line is found by what it says.
 */
import { t, type Msg } from '../../model/messages';
import type { Check, StateDoc } from '../../model/model';
import { clip, withThousands } from '../../markdown/text';
import type { Workspace } from '../../model/workspace';
import { gitPendingCheck, mk, type Loc } from '../../rules/common';
import { companionPath } from '../facts';
import { maskSecrets } from '../../secrets/secrets';
import { Comparisons, DebtWords, MAX_WORD_COMPARISONS, markerWords } from './debt-words';

const DEBT = companionPath('S3', 'debt');
/** At most this many changed files are read, each at most this many bytes (the rest is said, not read). */
const MAX_FILES = 200;
const MAX_BYTES = 512 * 1024;
/** Markers named one by one; the rest are counted. */
const NAMED = 5;

/** A `defer:` marker: its file, line and what follows it on the line. */
export interface DeferMarker {
  path: string;
  line: number;
  text: string;
}

// `defer:` quoted in a code span ("a `defer:` marker") is a mention, not a marker.
const MARKER_RE = /(?:^|[^\w-])defer:(?!`)[ \t]*([^\r\n]*)/g;
const DEBT_ID_RE = /\bDEBT-\d+\b/g;

/** A marker's text without the comment closer that ends its line (C's, `-->`, `#}`, `%>`), in one pass. */
function withoutCloser(s: string): string {
  const t = s.trimEnd();
  const closer = ['*/', '-->', '#}', '%>'].find((c) => t.endsWith(c));
  return closer ? t.slice(0, -closer.length) : s;
}

/** Text with HTML comments blanked out, line breaks kept (so line numbers stay). */
function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** The `defer:` markers of a file's text, in line order. Linear in the text. */
export function deferMarkers(rel: string, text: string): DeferMarker[] {
  const out: DeferMarker[] = [];
  const lines = withoutComments(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].includes('defer:')) continue;
    for (const m of lines[i].matchAll(MARKER_RE)) {
      const what = withoutCloser(m[1]).trim();
      out.push({ path: rel, line: i + 1, text: what });
    }
  }
  return out;
}

/** The lines of DEBT.md that can stand for a debt: not comments, not the table's header or rule, not empty. */
export function debtLines(text: string): string[] {
  return withoutComments(text)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^#/.test(l) && !/^\|?[\s:|-]+\|?$/.test(l) && !/^\|\s*ID\s*\|/i.test(l))
    .filter((l) => l.replace(/[|\s]/g, '') !== '');
}

/**
 * What every marker is compared with, made once for DEBT.md's lines: the DEBT ids they name (a line
 * names `DEBT-12` where /\bDEBT-12\b/ matches it, which is where the ids pattern finds it), the lines
 * in lower case, which changed files' paths (or names) a line holds, by path, and the lines indexed
 * for the markers' words (made when a marker first needs them, see ./debt-words.ts). Each marker
 * compiled a pattern per id for every line and lower-cased every line again: a STATE.md of 5,000
 * markers against a DEBT.md of 5,000 lines took check 7 s.
 */
interface DebtIndex {
  ids: Set<string>;
  lower: string[];
  named: Map<string, boolean>;
  words?: DebtWords;
}

const indexes = new WeakMap<readonly string[], DebtIndex>();

function debtIndex(lines: readonly string[]): DebtIndex {
  let index = indexes.get(lines);
  if (!index) {
    const ids = new Set<string>();
    for (const l of lines) for (const id of l.match(DEBT_ID_RE) ?? []) ids.add(id);
    index = { ids, lower: lines.map((l) => l.toLowerCase()), named: new Map() };
    indexes.set(lines, index);
  }
  return index;
}

/**
 * Whether `m` has its line among `lines` (see the rules above): `unsettled` when its line is not
 * found by id or file and `budget` was spent before its words were matched.
 */
export function debtLineOf(
  m: DeferMarker,
  lines: readonly string[],
  home: string,
  budget = new Comparisons(),
): 'line' | 'none' | 'unsettled' {
  const index = debtIndex(lines);
  const ids = m.text.match(DEBT_ID_RE) ?? [];
  if (ids.some((id) => index.ids.has(id))) return 'line';
  if (m.path !== home) {
    let named = index.named.get(m.path);
    if (named === undefined) {
      const base = m.path.split('/').pop() ?? m.path;
      named = lines.some((l) => l.includes(m.path) || l.includes(base));
      index.named.set(m.path, named);
    }
    if (named) return 'line';
  }
  const w = markerWords(m.text);
  if (w.length < 2) return 'none';
  index.words ??= new DebtWords(index.lower);
  const most = index.words.holdsMost(w, budget);
  return most === null ? 'unsettled' : most ? 'line' : 'none';
}

/** Whether `m` has its line among `lines` (see the rules above). */
export function hasDebtLine(m: DeferMarker, lines: readonly string[], home: string): boolean {
  return debtLineOf(m, lines, home) === 'line';
}

/**
 * `debt` (warn): every `defer:` marker in STATE.md and the changed files has its line in DEBT.md.
 * Markers whose words are not matched within the check's comparisons are counted in a warning of
 * their own: neither found nor missing.
 */
export async function checkDebt(ws: Workspace, home: StateDoc): Promise<Check[]> {
  const markers = deferMarkers(home.relPath, home.text);
  let unread = 0;
  if (ws.gitDeferred) {
    if (markers.length === 0) return [gitPendingCheck('S3', 'debt', { path: home.relPath })];
  } else {
    const g = await ws.git();
    const changed = (g?.changed ?? []).filter((p) => p !== home.relPath && p !== DEBT);
    for (const rel of changed.slice(0, MAX_FILES)) {
      // A larger file is skipped, unread unless a system read it already.
      const f = await ws.readAtMost(rel, MAX_BYTES);
      if (!f.ok || f.size > MAX_BYTES) continue;
      // A changed file is no state document: its text is masked here before a marker's words are quoted.
      if (f.text.includes('defer:')) markers.push(...deferMarkers(rel, maskSecrets(f.text).text));
    }
    unread = Math.max(0, changed.length - MAX_FILES);
  }
  if (markers.length === 0)
    return [
      mk(
        'S3',
        'debt',
        'warn',
        true,
        unread
          ? t('No `defer:` marker in STATE.md or the first {0} changed files ({1} more not read).', MAX_FILES, unread)
          : t('No `defer:` marker in STATE.md or the changed files.'),
        { path: home.relPath },
      ),
    ];
  const debt = await ws.read(DEBT);
  const lines = debt.ok ? debtLines(debt.text) : [];
  const budget = new Comparisons();
  const verdicts = markers.map((m) => debtLineOf(m, lines, home.relPath, budget));
  const missing = markers.filter((_, i) => verdicts[i] === 'none');
  const unsettled = markers.filter((_, i) => verdicts[i] === 'unsettled');
  if (missing.length === 0 && unsettled.length === 0)
    return [
      mk('S3', 'debt', 'warn', true, t('Every `defer:` marker ({0}) has its line in {1}.', markers.length, DEBT), {
        path: home.relPath,
      }),
    ];
  const hint = debt.ok
    ? t('Add its row to {0} (where, what / ceiling, upgrade when, status), or name its DEBT id in the marker.', DEBT)
    : t('Create {0} with a row for it (where, what / ceiling, upgrade when, status).', DEBT);
  const warning = (message: Msg, where: Loc, fix = hint): Check => mk('S3', 'debt', 'warn', false, message, where, fix);
  const out = missing.slice(0, NAMED).map((m) => {
    // A changed file's path comes from git: shown (in the text and as the location) with its secrets
    // masked, as a state file's path from a document's text is.
    const shown = maskSecrets(m.path).text;
    return warning(t('`defer:` marker without a line in {0}: {1}:{2} "{3}".', DEBT, shown, m.line, clip(m.text, 80)), {
      path: shown,
      line: m.line,
    });
  });
  if (missing.length > NAMED)
    out.push(
      warning(t('{0} more `defer:` markers without a line in {1}.', missing.length - NAMED, DEBT), {
        path: home.relPath,
      }),
    );
  if (unsettled.length) {
    const first = unsettled[0];
    out.push(
      warning(
        t(
          '`defer:` markers not matched with the lines of {3} by their words: {0} (the first at {1}:{2}); matching them takes over the {4} comparisons one check makes.',
          unsettled.length,
          maskSecrets(first.path).text,
          first.line,
          DEBT,
          withThousands(MAX_WORD_COMPARISONS),
        ),
        { path: home.relPath },
        t(
          'Name the DEBT id in each marker (`defer: DEBT-012 …`), or, for a marker in code, its file in the row: those are found without comparing words.',
        ),
      ),
    );
  }
  return out;
}
